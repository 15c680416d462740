/*
 * fuzz_keys.c — libFuzzer target over the canonicalizer and the interner (`make fuzz`).
 *
 * The first byte picks what the rest of the input feeds:
 *   0  nc_field_key's argument encoding
 *   1  nc_entity_key, values separated by 0xFF
 *   2+ the interner: keys separated by '\n', then every one looked up again; the same
 *      keys also go to nc_interner_intern_many on a second interner, in batches whose
 *      size comes from the first byte (3 caps both interners at 8 ids); then the keys at
 *      odd positions are released and interned again
 * Besides "no crash, no leak, no undefined behaviour", each output is checked: a key a
 * builder returns is already canonical, the interner gives back what went in, a batch
 * gives exactly what single calls in order gave, and a release takes only its own key.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nc_interner.h"
#include "nc_keys.h"

/* A returned key must be canonical: canonicalizing it again changes nothing. */
static void assert_canonical(const nc_buffer *key) {
    nc_buffer again;
    nc_buffer_init(&again, NULL);
    again.bytes = malloc(key->length + 1);
    again.capacity = key->length + 1;
    again.length = key->length;
    memcpy(again.bytes, key->bytes, key->length);
    assert(nc_canonicalize(&again) == NC_OK);
    assert(again.length == key->length && memcmp(again.bytes, key->bytes, key->length) == 0);
    nc_buffer_release(&again);
}

static size_t split(const uint8_t *data, size_t size, uint8_t separator, nc_text *parts, size_t most) {
    size_t count = 0, start = 0;
    for (size_t i = 0; i <= size && count < most; i++) {
        if (i == size || data[i] == separator) {
            parts[count++] = (nc_text){(const char *)data + start, i - start};
            start = i + 1;
        }
    }
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    uint8_t mode = data[0];
    data++, size--;
    nc_buffer key;
    nc_buffer_init(&key, NULL);
    nc_text parts[64];
    size_t count;
    switch (mode) {
    case 0:
        if (nc_field_key(&key, "f", 1, data, size) == NC_OK) assert_canonical(&key);
        else assert(key.length == 0);
        break;
    case 1:
        count = split(data, size, 0xFF, parts, 64);
        if (nc_entity_key(&key, "T", 1, parts, count) == NC_OK) assert_canonical(&key);
        break;
    default: {
        nc_interner *interner, *batched;
        nc_interner_config config = {.max_ids = mode == 3 ? 8 : 0};
        if (nc_interner_create(&interner, &config) != NC_OK) break;
        if (nc_interner_create(&batched, &config) != NC_OK) {
            nc_interner_destroy(interner);
            break;
        }
        /* up to 2,048 keys, so that a batch can grow the table (1,024 slots at first) */
        static nc_text keys[2048];
        static nc_id ids[2048], batch_ids[2048];
        static nc_status statuses[2048];
        count = split(data, size, '\n', keys, 2048);
        for (size_t i = 0; i < count; i++) {
            nc_status status = statuses[i] = nc_interner_intern(interner, keys[i].bytes, keys[i].length, &ids[i]);
            if (status != NC_OK) ids[i] = NC_ID_NONE;
            else {
                size_t length;
                const char *bytes = nc_interner_bytes(interner, ids[i], &length);
                assert(bytes != NULL && bytes[length] == '\0');
                /* the stored form is canonical and interns to the same id */
                nc_id again;
                assert(nc_interner_intern(interner, bytes, length, &again) == NC_OK && again == ids[i]);
            }
        }
        for (size_t i = 0; i < count; i++) {
            nc_id found;
            nc_status status = nc_interner_find(interner, keys[i].bytes, keys[i].length, &found);
            assert(ids[i] == NC_ID_NONE ? status != NC_OK || found < nc_interner_count(interner) : found == ids[i]);
        }
        /* the batch entry on a second interner: a batch stops at a refused key with that
         * key's own status, after interning what came before; the caller goes on after it */
        size_t batch = mode < 128 ? 2048 : (size_t)(mode - 127);
        for (size_t start = 0; start < count;) {
            size_t n = count - start < batch ? count - start : batch, done = SIZE_MAX;
            nc_status status = nc_interner_intern_many(batched, keys + start, n, batch_ids + start, &done);
            assert(done <= n);
            for (size_t i = start; i < start + done; i++) assert(statuses[i] == NC_OK && batch_ids[i] == ids[i]);
            if (status == NC_OK) assert(done == n);
            else assert(done < n && statuses[start + done] == status);
            start += status == NC_OK ? n : done + 1;
        }
        assert(nc_interner_count(batched) == nc_interner_count(interner));
        /* release the ids of keys at odd positions (a key repeated is released once): they
         * are gone, every other key keeps its id, and interning them again reuses ids */
        uint32_t bound = nc_interner_count(interner);
        for (size_t i = 1; i < count; i += 2) {
            if (ids[i] == NC_ID_NONE) continue;
            nc_status status = nc_interner_release(interner, ids[i]);
            assert(status == NC_OK || (status == NC_ERR_NOT_FOUND && nc_interner_bytes(interner, ids[i], NULL) == NULL));
        }
        for (size_t i = 0; i < count; i++) {
            nc_id found;
            if (ids[i] == NC_ID_NONE) continue;
            nc_status status = nc_interner_find(interner, keys[i].bytes, keys[i].length, &found);
            assert(nc_interner_bytes(interner, ids[i], NULL) == NULL ? status == NC_ERR_NOT_FOUND : status == NC_OK && found == ids[i]);
        }
        for (size_t i = 1; i < count; i += 2) {
            nc_id again;
            if (ids[i] != NC_ID_NONE) assert(nc_interner_intern(interner, keys[i].bytes, keys[i].length, &again) == NC_OK && again < bound);
        }
        assert(nc_interner_count(interner) == bound && nc_interner_live(interner) == nc_interner_live(batched));
        nc_interner_destroy(batched);
        nc_interner_destroy(interner);
    }
    }
    nc_buffer_release(&key);
    return 0;
}
