/* utf8.c — the ASCII fast path and NFC normalisation behind every canonical key: by
 * utf8proc on Linux, by CoreFoundation on Apple's platforms (in every SDK, iOS's included,
 * where utf8proc is not; docs/platforms.md). Both check the bytes are well-formed UTF-8. */
#include <string.h>
#if defined(__APPLE__)
#include <CoreFoundation/CoreFoundation.h>
#else
#include <utf8proc.h>
#endif

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

#if defined(__APPLE__)

nc_status nc__normalize(nc_buffer *out, nc_buffer *scratch, const uint8_t *bytes, size_t length) {
    (void)scratch; /* CoreFoundation keeps its own working memory */
    if (length > NC_KEY_MAX_BYTES) return NC_ERR_TOO_LONG;
    if (memchr(bytes, 0, length) != NULL) return NC_ERR_EMBEDDED_NUL;
    /* NULL for ill-formed UTF-8 (CoreFoundation's decoder refuses it, as utf8proc does) */
    CFStringRef text = CFStringCreateWithBytes(kCFAllocatorDefault, bytes, (CFIndex)length, kCFStringEncodingUTF8, false);
    if (text == NULL) return NC_ERR_INVALID_UTF8;
    CFMutableStringRef normal = CFStringCreateMutableCopy(kCFAllocatorDefault, 0, text);
    CFRelease(text);
    if (normal == NULL) return NC_ERR_NOMEM;
    /* a leading byte order mark is text here, as in a Swift String: put it back if the
     * decoder took it for a marker (its documentation leaves that open) */
    static const UniChar mark = 0xFEFF;
    if (length >= 3 && memcmp(bytes, "\xEF\xBB\xBF", 3) == 0
        && (CFStringGetLength(normal) == 0 || CFStringGetCharacterAtIndex(normal, 0) != mark)) {
        CFStringRef marker = CFStringCreateWithCharacters(kCFAllocatorDefault, &mark, 1);
        if (marker == NULL) {
            CFRelease(normal);
            return NC_ERR_NOMEM;
        }
        CFStringInsert(normal, 0, marker);
        CFRelease(marker);
    }
    CFStringNormalize(normal, kCFStringNormalizationFormC);
    CFRange all = CFRangeMake(0, CFStringGetLength(normal));
    CFIndex size = 0;
    CFStringGetBytes(normal, all, kCFStringEncodingUTF8, 0, false, NULL, 0, &size);
    nc_status status = (size_t)size > NC_KEY_MAX_BYTES ? NC_ERR_TOO_LONG : NC_OK;
    out->length = 0;
    if (status == NC_OK) status = nc__buffer_reserve(out, (size_t)size);
    if (status == NC_OK) {
        CFStringGetBytes(normal, all, kCFStringEncodingUTF8, 0, false, (UInt8 *)out->bytes, size, NULL);
        out->length = (size_t)size;
    }
    CFRelease(normal);
    return status;
}

#else

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

#endif

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
