/* utf8.c — the ASCII fast path and NFC normalisation (utf8proc) behind every canonical key. */
#include <string.h>
#include <utf8proc.h>

#include "internal.h"

int nc__is_plain_ascii(const uint8_t *bytes, size_t length) {
    const uint64_t high = 0x8080808080808080ull, ones = 0x0101010101010101ull;
    size_t i = 0;
    for (; i + 8 <= length; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, 8);
        /* a high bit set, or a zero byte (the classic "haszero" test) */
        if ((word & high) | ((word - ones) & ~word & high)) return 0;
    }
    for (; i < length; i++)
        if (bytes[i] == 0 || bytes[i] >= 0x80) return 0;
    return 1;
}

static nc_status from_utf8proc(utf8proc_ssize_t error) {
    switch (error) {
    case UTF8PROC_ERROR_NOMEM: return NC_ERR_NOMEM;
    case UTF8PROC_ERROR_OVERFLOW: return NC_ERR_TOO_LONG;
    default: return NC_ERR_INVALID_UTF8;
    }
}

nc_status nc__normalize(nc_buffer *out, nc_buffer *scratch, const uint8_t *bytes, size_t length) {
    if (length > NC_KEY_MAX_BYTES) return NC_ERR_TOO_LONG;
    if (memchr(bytes, 0, length) != NULL) return NC_ERR_EMBEDDED_NUL;
    const utf8proc_option_t nfc = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
    utf8proc_ssize_t count;
    for (;;) {
        utf8proc_ssize_t room = (utf8proc_ssize_t)(scratch->capacity / sizeof(utf8proc_int32_t));
        /* one code point more than decomposed: utf8proc_reencode stores a NUL after the text */
        count = utf8proc_decompose(bytes, (utf8proc_ssize_t)length,
                                   (utf8proc_int32_t *)(void *)scratch->bytes, room > 0 ? room - 1 : 0, nfc);
        if (count < 0) return from_utf8proc(count);
        if (count < room) break;
        scratch->length = 0;
        nc_status status = nc__buffer_reserve(scratch, ((size_t)count + 1) * sizeof(utf8proc_int32_t));
        if (status != NC_OK) return status;
    }
    utf8proc_ssize_t written = utf8proc_reencode((utf8proc_int32_t *)(void *)scratch->bytes, count, nfc);
    if (written < 0) return from_utf8proc(written);
    if ((size_t)written > NC_KEY_MAX_BYTES) return NC_ERR_TOO_LONG;
    out->length = 0;
    return nc__buffer_append(out, scratch->bytes, (size_t)written);
}

nc_status nc_canonicalize(nc_buffer *text) {
    if (text == NULL) return NC_ERR_INVALID_ARGUMENT;
    if (text->length > NC_KEY_MAX_BYTES) return NC_ERR_TOO_LONG;
    if (nc__is_plain_ascii((const uint8_t *)text->bytes, text->length)) return NC_OK;
    nc_buffer normal, scratch;
    nc_buffer_init(&normal, text->allocator);
    nc_buffer_init(&scratch, text->allocator);
    nc_status status = nc__normalize(&normal, &scratch, (const uint8_t *)text->bytes, text->length);
    nc_buffer_release(&scratch);
    if (status != NC_OK) {
        nc_buffer_release(&normal);
        return status;
    }
    nc_buffer_release(text);
    *text = normal;
    return NC_OK;
}
