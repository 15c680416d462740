/* internal.h — helpers shared by the C core's sources; not part of the API. */
#ifndef NC_INTERNAL_H
#define NC_INTERNAL_H

#include "nc_base.h"
#include "nc_keys.h"

/* Allocates, resizes or (size 0) frees through `allocator`, or the C library when NULL. */
void *nc__reallocate(const nc_allocator *allocator, void *pointer, size_t size);

/* Makes room for `extra` more bytes after `length`. */
nc_status nc__buffer_reserve(nc_buffer *buffer, size_t extra);

/* Appends bytes, refusing to grow the buffer past NC_KEY_MAX_BYTES. */
nc_status nc__buffer_append(nc_buffer *buffer, const void *bytes, size_t length);

/* Returns 1 when every byte is ASCII and none is NUL, 0 otherwise. */
int nc__is_plain_ascii(const uint8_t *bytes, size_t length);

/* The NFC form of `length` bytes into `out` (replacing its contents), after
 * checking they are well-formed UTF-8 without NUL. `scratch` holds code points
 * between calls so that repeated use allocates nothing. */
nc_status nc__normalize(nc_buffer *out, nc_buffer *scratch, const uint8_t *bytes, size_t length);

#endif
