/*
 * nc_base.h — status codes, allocators and growable byte buffers shared by
 * every part of the normcache C core.
 *
 * Contract
 *   - Every exported symbol starts with `nc_`; every type with `nc_`.
 *   - There is no global state: memory comes from the `nc_allocator` a caller
 *     hands in (NULL means the C library's realloc/free), and every object
 *     owns what it allocated.
 *   - A function that fails returns a status other than NC_OK and leaves the
 *     objects it was given as they were before the call; the one exception is a
 *     key builder's output buffer (nc_keys.h), which is left empty.
 */
#ifndef NC_BASE_H
#define NC_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The outcome of a call. Values are stable: they may be stored or compared. */
typedef enum nc_status {
    NC_OK = 0,
    NC_ERR_NOMEM = 1,            /* the allocator returned NULL */
    NC_ERR_INVALID_UTF8 = 2,     /* text is not well-formed UTF-8 */
    NC_ERR_EMBEDDED_NUL = 3,     /* text contains a NUL byte */
    NC_ERR_TOO_LONG = 4,         /* a key would exceed NC_KEY_MAX_BYTES */
    NC_ERR_TOO_DEEP = 5,         /* argument values nest deeper than NC_VALUE_MAX_DEPTH */
    NC_ERR_FULL = 6,             /* an interner has issued its last id */
    NC_ERR_MALFORMED = 7,        /* an argument encoding breaks its grammar (nc_keys.h) */
    NC_ERR_DUPLICATE_NAME = 8,   /* two arguments or input fields share a name */
    NC_ERR_NOT_FOUND = 9,        /* a lookup found nothing */
    NC_ERR_INVALID_ARGUMENT = 10 /* a required pointer is NULL or a required text is empty */
} nc_status;

/* A short English sentence describing `status`, e.g. "text is not well-formed UTF-8".
 * Never NULL; unknown values give "unknown status". */
const char *nc_status_message(nc_status status);

/* Where memory comes from. `reallocate(context, pointer, size)` behaves as
 * realloc(pointer, size) for size > 0 and as free(pointer) (returning NULL)
 * for size == 0. It may return NULL to report exhaustion; callers then fail
 * with NC_ERR_NOMEM and change nothing. */
typedef struct nc_allocator {
    void *(*reallocate)(void *context, void *pointer, size_t size);
    void *context;
} nc_allocator;

/* A run of bytes that is not owned by the receiver. */
typedef struct nc_text {
    const char *bytes;
    size_t length;
} nc_text;

/* A growable byte buffer. Zero-initialise it or call nc_buffer_init, pass it
 * to any number of key builders (each overwrites `bytes[0..length)`), then
 * release it once. `bytes` is not NUL-terminated. The allocator, when given,
 * must outlive the buffer.
 *
 *     nc_buffer key;
 *     nc_buffer_init(&key, NULL);
 *     nc_text id = {"1000", 4};
 *     if (nc_entity_key(&key, "Human", 5, &id, 1) == NC_OK)
 *         printf("%.*s\n", (int)key.length, key.bytes);   // Human:1000
 *     nc_buffer_release(&key);
 */
typedef struct nc_buffer {
    char *bytes;
    size_t length;
    size_t capacity;
    const nc_allocator *allocator;
} nc_buffer;

void nc_buffer_init(nc_buffer *buffer, const nc_allocator *allocator);
void nc_buffer_release(nc_buffer *buffer);

#ifdef __cplusplus
}
#endif

#endif /* NC_BASE_H */
