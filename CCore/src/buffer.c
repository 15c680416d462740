/* buffer.c — allocation through an nc_allocator, growable buffers, status text. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void *nc__reallocate(const nc_allocator *allocator, void *pointer, size_t size) {
    if (allocator != NULL && allocator->reallocate != NULL)
        return allocator->reallocate(allocator->context, pointer, size);
    if (size == 0) {
        free(pointer);
        return NULL;
    }
    return realloc(pointer, size);
}

void nc_buffer_init(nc_buffer *buffer, const nc_allocator *allocator) {
    buffer->bytes = NULL;
    buffer->length = 0;
    buffer->capacity = 0;
    buffer->allocator = allocator;
}

void nc_buffer_release(nc_buffer *buffer) {
    if (buffer == NULL) return;
    nc__reallocate(buffer->allocator, buffer->bytes, 0);
    buffer->bytes = NULL;
    buffer->length = 0;
    buffer->capacity = 0;
}

nc_status nc__buffer_reserve(nc_buffer *buffer, size_t extra) {
    if (extra <= buffer->capacity - buffer->length) return NC_OK;
    if (extra > SIZE_MAX / 2 - buffer->length) return NC_ERR_NOMEM;
    size_t capacity = buffer->capacity < 64 ? 64 : buffer->capacity;
    while (capacity - buffer->length < extra) capacity *= 2;
    char *bytes = nc__reallocate(buffer->allocator, buffer->bytes, capacity);
    if (bytes == NULL) return NC_ERR_NOMEM;
    buffer->bytes = bytes;
    buffer->capacity = capacity;
    return NC_OK;
}

nc_status nc__buffer_append(nc_buffer *buffer, const void *bytes, size_t length) {
    if (length > NC_KEY_MAX_BYTES - buffer->length) return NC_ERR_TOO_LONG;
    nc_status status = nc__buffer_reserve(buffer, length);
    if (status != NC_OK) return status;
    if (length > 0) memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    return NC_OK;
}

const char *nc_status_message(nc_status status) {
    switch (status) {
    case NC_OK: return "no error";
    case NC_ERR_NOMEM: return "out of memory";
    case NC_ERR_INVALID_UTF8: return "text is not well-formed UTF-8";
    case NC_ERR_EMBEDDED_NUL: return "text contains a NUL byte";
    case NC_ERR_TOO_LONG: return "key longer than 65536 bytes";
    case NC_ERR_TOO_DEEP: return "argument values nested more than 64 levels deep";
    case NC_ERR_FULL: return "the interner has issued all the ids it may";
    case NC_ERR_MALFORMED: return "malformed argument encoding";
    case NC_ERR_DUPLICATE_NAME: return "two arguments or input fields have the same name";
    case NC_ERR_NOT_FOUND: return "not found";
    case NC_ERR_INVALID_ARGUMENT: return "a required argument is missing or empty";
    }
    return "unknown status";
}
