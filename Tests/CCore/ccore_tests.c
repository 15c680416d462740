/*
 * ccore_tests.c — unit tests of the C core, built with -fsanitize=address,undefined
 * by `make test-c`. Prints one line per failure and "N passed, N failed" at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc_interner.h"
#include "nc_keys.h"

static int passed, failed;

#define CHECK(condition)                                                        \
    do {                                                                        \
        if (condition) passed++;                                                \
        else {                                                                  \
            failed++;                                                           \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
        }                                                                       \
    } while (0)

#define CHECK_KEY(buffer, text) \
    CHECK((buffer).length == strlen(text) && memcmp((buffer).bytes, (text), (buffer).length) == 0)

/* ---- a small writer for the argument encoding ---- */

typedef struct { uint8_t *bytes; size_t length, capacity; } encoding;

static void raw(encoding *e, const void *bytes, size_t length) {
    if (e->length + length > e->capacity) {
        e->capacity = (e->length + length) * 2 + 64;
        e->bytes = realloc(e->bytes, e->capacity);
    }
    memcpy(e->bytes + e->length, bytes, length);
    e->length += length;
}
static void u8(encoding *e, uint8_t v) { raw(e, &v, 1); }
static void u32(encoding *e, uint32_t v) { uint8_t b[4] = {v, v >> 8, v >> 16, v >> 24}; raw(e, b, 4); }
static void u64(encoding *e, uint64_t v) { for (int i = 0; i < 8; i++) u8(e, (uint8_t)(v >> (8 * i))); }
static void text(encoding *e, const char *s) { u32(e, (uint32_t)strlen(s)); raw(e, s, strlen(s)); }
static void string_value(encoding *e, const char *s) { u8(e, NC_TAG_STRING); text(e, s); }
static void int_value(encoding *e, int64_t v) { u8(e, NC_TAG_INT); u64(e, (uint64_t)v); }
static void float_value(encoding *e, double v) { uint64_t bits; memcpy(&bits, &v, 8); u8(e, NC_TAG_FLOAT); u64(e, bits); }

static nc_status field(nc_buffer *out, const char *name, const encoding *e) {
    return nc_field_key(out, name, strlen(name), e->bytes, e->length);
}

/* ---- an allocator that fails on demand, to prove every NOMEM path changes nothing ---- */

typedef struct { long remaining; long live; } failing;

static void *failing_reallocate(void *context, void *pointer, size_t size) {
    failing *f = context;
    if (size == 0) {
        if (pointer) f->live--;
        free(pointer);
        return NULL;
    }
    if (f->remaining == 0) return NULL;
    if (f->remaining > 0) f->remaining--;
    void *result = realloc(pointer, size);
    if (result && !pointer) f->live++;
    return result;
}

/* An interner whose allocations come from `f`, which fails after `budget` of them
 * (`allocator` must outlive it); NULL when creating it failed. */
static nc_interner *interner_failing_after(long budget, failing *f, nc_allocator *allocator) {
    *f = (failing){.remaining = budget};
    *allocator = (nc_allocator){failing_reallocate, f};
    nc_interner_config config = {.allocator = allocator};
    nc_interner *keys;
    return nc_interner_create(&keys, &config) == NC_OK ? keys : NULL;
}

/* ---- tests ---- */

static void test_field_keys(void) {
    nc_buffer out;
    nc_buffer_init(&out, NULL);
    encoding e = {0};

    CHECK(nc_field_key(&out, "height", 6, NULL, 0) == NC_OK);
    CHECK_KEY(out, "height");

    /* friends([filter:ids:[1, 2],kind:A],first:3), arguments given out of order */
    u32(&e, 2);
    text(&e, "first"); int_value(&e, 3);
    text(&e, "filter"); u8(&e, NC_TAG_OBJECT); u32(&e, 2);
    text(&e, "kind"); string_value(&e, "A");
    text(&e, "ids"); u8(&e, NC_TAG_LIST); u32(&e, 2); int_value(&e, 1); int_value(&e, 2);
    CHECK(field(&out, "friends", &e) == NC_OK);
    CHECK_KEY(out, "friends([filter:ids:[1, 2],kind:A],first:3)");

    /* a list of input objects: orderBy:[desc:false,field:name,field:id]; floats as Swift prints them */
    e.length = 0;
    u32(&e, 2);
    text(&e, "orderBy"); u8(&e, NC_TAG_LIST); u32(&e, 2);
    u8(&e, NC_TAG_OBJECT); u32(&e, 2); text(&e, "field"); string_value(&e, "name"); text(&e, "desc"); u8(&e, NC_TAG_FALSE);
    u8(&e, NC_TAG_OBJECT); u32(&e, 1); text(&e, "field"); string_value(&e, "id");
    text(&e, "max"); float_value(&e, 30);
    CHECK(field(&out, "search", &e) == NC_OK);
    CHECK_KEY(out, "search(max:30.0,orderBy:[desc:false,field:name,field:id])");

    /* no arguments in the encoding: the bare name */
    e.length = 0;
    u32(&e, 0);
    CHECK(field(&out, "hero", &e) == NC_OK);
    CHECK_KEY(out, "hero");

    nc_buffer_release(&out);
    free(e.bytes);
}

static void test_malformed_arguments(void) {
    nc_buffer out;
    nc_buffer_init(&out, NULL);
    encoding e = {0};

    const uint8_t truncated[] = {1, 0, 0, 0, 1, 0, 0, 0, 'x', NC_TAG_INT, 1, 2};
    CHECK(nc_field_key(&out, "f", 1, truncated, sizeof truncated) == NC_ERR_MALFORMED);
    CHECK(out.length == 0);
    const uint8_t unknown_tag[] = {1, 0, 0, 0, 1, 0, 0, 0, 'x', 'Z'};
    CHECK(nc_field_key(&out, "f", 1, unknown_tag, sizeof unknown_tag) == NC_ERR_MALFORMED);
    const uint8_t trailing[] = {1, 0, 0, 0, 1, 0, 0, 0, 'x', NC_TAG_NULL, 0};
    CHECK(nc_field_key(&out, "f", 1, trailing, sizeof trailing) == NC_ERR_MALFORMED);
    const uint8_t huge_count[] = {0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 'x', NC_TAG_NULL};
    CHECK(nc_field_key(&out, "f", 1, huge_count, sizeof huge_count) == NC_ERR_MALFORMED);
    const uint8_t huge_list[] = {1, 0, 0, 0, 1, 0, 0, 0, 'x', NC_TAG_LIST, 0xff, 0xff, 0xff, 0x7f};
    CHECK(nc_field_key(&out, "f", 1, huge_list, sizeof huge_list) == NC_ERR_MALFORMED);
    const uint8_t short_count[] = {1, 0};
    CHECK(nc_field_key(&out, "f", 1, short_count, sizeof short_count) == NC_ERR_MALFORMED);

    u32(&e, 2);
    text(&e, "a"); u8(&e, NC_TAG_NULL);
    text(&e, "a"); u8(&e, NC_TAG_TRUE);
    CHECK(field(&out, "f", &e) == NC_ERR_DUPLICATE_NAME);

    /* 10,000 nested lists, and 10,000 nested objects */
    e.length = 0;
    u32(&e, 1); text(&e, "d");
    for (int i = 0; i < 10000; i++) { u8(&e, NC_TAG_LIST); u32(&e, 1); }
    u8(&e, NC_TAG_NULL);
    CHECK(field(&out, "f", &e) == NC_ERR_TOO_DEEP);
    e.length = 0;
    u32(&e, 1); text(&e, "d");
    for (int i = 0; i < 10000; i++) { u8(&e, NC_TAG_OBJECT); u32(&e, 1); text(&e, "o"); }
    u8(&e, NC_TAG_NULL);
    CHECK(field(&out, "f", &e) == NC_ERR_TOO_DEEP);
    /* exactly the limit is fine */
    e.length = 0;
    u32(&e, 1); text(&e, "d");
    for (int i = 0; i < NC_VALUE_MAX_DEPTH; i++) { u8(&e, NC_TAG_LIST); u32(&e, 1); }
    u8(&e, NC_TAG_NULL);
    CHECK(field(&out, "f", &e) == NC_OK);

    /* a 1 MiB string, invalid UTF-8, an embedded NUL */
    char *big = malloc(1 << 20);
    memset(big, 'x', 1 << 20);
    big[(1 << 20) - 1] = 0;
    e.length = 0;
    u32(&e, 1); text(&e, "t"); string_value(&e, big);
    CHECK(field(&out, "f", &e) == NC_ERR_TOO_LONG);
    free(big);
    e.length = 0;
    u32(&e, 1); text(&e, "t"); u8(&e, NC_TAG_STRING); u32(&e, 2); raw(&e, "\xC3\x28", 2);
    CHECK(field(&out, "f", &e) == NC_ERR_INVALID_UTF8);
    e.length = 0;
    u32(&e, 1); text(&e, "t"); u8(&e, NC_TAG_STRING); u32(&e, 3); raw(&e, "a\0b", 3);
    CHECK(field(&out, "f", &e) == NC_ERR_EMBEDDED_NUL);
    CHECK(nc_field_key(&out, "", 0, NULL, 0) == NC_ERR_INVALID_ARGUMENT);
    CHECK(nc_field_key(&out, "f", 1, NULL, 3) == NC_ERR_INVALID_ARGUMENT);

    nc_buffer_release(&out);
    free(e.bytes);
}

static void test_entity_keys(void) {
    nc_buffer out;
    nc_buffer_init(&out, NULL);
    nc_text one[] = {{"1000", 4}};
    CHECK(nc_entity_key(&out, "Human", 5, one, 1) == NC_OK);
    CHECK_KEY(out, "Human:1000");
    nc_text two[] = {{"a+b", 3}, {"c\\d", 3}};
    CHECK(nc_entity_key(&out, "T", 1, two, 2) == NC_OK);
    CHECK_KEY(out, "T:a\\+b+c\\\\d");
    CHECK(nc_entity_key(&out, "T", 1, two, 0) == NC_ERR_INVALID_ARGUMENT);
    CHECK(nc_entity_key(&out, "", 0, one, 1) == NC_ERR_INVALID_ARGUMENT);
    nc_text decomposed[] = {{"e\xCC\x81", 3}};
    CHECK(nc_entity_key(&out, "T", 1, decomposed, 1) == NC_OK);
    CHECK_KEY(out, "T:\xC3\xA9");
    nc_buffer_release(&out);
}

static void test_format_double(void) {
    char text[32];
    struct { double value; const char *expected; } cases[] = {
        {30, "30.0"}, {1.5, "1.5"}, {-0.0, "-0.0"}, {1e-5, "1e-05"}, {0.0001, "0.0001"},
        {1e16, "1e+16"}, {1e15, "1000000000000000.0"}, {5e-324, "5e-324"}, {0.1, "0.1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t length = nc_format_double(cases[i].value, text);
        CHECK(length == strlen(cases[i].expected) && strcmp(text, cases[i].expected) == 0);
    }
}

/* nc_hash64 is the interner's hash: every byte of every length counts (no input bit is
 * lost in the overlapping tail loads), bits flip about half the output, and sequential
 * entity keys spread evenly over both the low bits (the slot) and the high bits (the tag). */
static void test_hash(void) {
    uint8_t bytes[80];
    for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)(i * 37 + 11);
    CHECK(nc_hash64(bytes, 0) == nc_hash64(NULL, 0));
    long flipped = 0, flips = 0, unchanged = 0;
    for (size_t length = 1; length <= sizeof bytes; length++) {
        uint64_t hash = nc_hash64(bytes, length);
        CHECK(hash == nc_hash64(bytes, length));
        CHECK(hash != nc_hash64(bytes, length - 1));
        for (size_t bit = 0; bit < length * 8; bit++) {
            bytes[bit / 8] ^= (uint8_t)(1u << bit % 8);
            uint64_t other = nc_hash64(bytes, length);
            bytes[bit / 8] ^= (uint8_t)(1u << bit % 8);
            if (other == hash) unchanged++;
            flipped += __builtin_popcountll(hash ^ other);
            flips++;
        }
    }
    CHECK(unchanged == 0);
    double mean = (double)flipped / (double)flips;
    CHECK(mean > 31.0 && mean < 33.0);
    enum { KEYS = 1 << 16, BUCKETS = 1 << 10 };
    static int low[BUCKETS], high[BUCKETS];
    for (int i = 0; i < KEYS; i++) {
        char key[24];
        int length = snprintf(key, sizeof key, "Item:%d", i);
        uint64_t hash = nc_hash64(key, (size_t)length);
        low[hash % BUCKETS]++;
        high[hash >> 54]++;
    }
    /* chi-squared over 1,023 degrees of freedom: about 1,023 ± 45 for a uniform hash */
    double expected = (double)KEYS / BUCKETS, low_chi = 0, high_chi = 0;
    for (int b = 0; b < BUCKETS; b++) {
        low_chi += (low[b] - expected) * (low[b] - expected) / expected;
        high_chi += (high[b] - expected) * (high[b] - expected) / expected;
    }
    CHECK(low_chi < 1250 && high_chi < 1250);
}

static void test_interner(void) {
    nc_interner *keys;
    nc_id id = 0, other = 0;
    CHECK(nc_interner_create(&keys, NULL) == NC_OK);
    CHECK(nc_interner_intern(keys, "Human:1000", 10, &id) == NC_OK && id == 0);
    CHECK(nc_interner_intern(keys, "QUERY_ROOT", 10, &id) == NC_OK && id == 1);
    CHECK(nc_interner_intern(keys, "Human:1000", 10, &id) == NC_OK && id == 0);
    CHECK(nc_interner_find(keys, "QUERY_ROOT", 10, &id) == NC_OK && id == 1);
    CHECK(nc_interner_find(keys, "missing", 7, &id) == NC_ERR_NOT_FOUND);
    CHECK(nc_interner_count(keys) == 2);

    /* bytes stay at one address while the interner grows */
    size_t length;
    const char *first = nc_interner_bytes(keys, 0, &length);
    char key[32];
    int dense = 0;
    for (int i = 0; i < 100000; i++) {
        int n = snprintf(key, sizeof key, "Trip:%d", i);
        dense += nc_interner_intern(keys, key, (size_t)n, &id) == NC_OK && id == (nc_id)i + 2;
    }
    CHECK(dense == 100000);
    CHECK(nc_interner_bytes(keys, 0, &length) == first && length == 10 && strcmp(first, "Human:1000") == 0);
    CHECK(nc_interner_bytes(keys, 100002, &length) == NULL);

    /* NFC: precomposed and decomposed é are one key */
    CHECK(nc_interner_intern(keys, "Padm\xC3\xA9", 6, &id) == NC_OK);
    CHECK(nc_interner_intern(keys, "Padme\xCC\x81", 7, &other) == NC_OK && other == id);

    /* refused input changes nothing */
    uint32_t count = nc_interner_count(keys);
    CHECK(nc_interner_intern(keys, "a\0b", 3, &id) == NC_ERR_EMBEDDED_NUL);
    CHECK(nc_interner_intern(keys, "\xFF", 1, &id) == NC_ERR_INVALID_UTF8);
    CHECK(nc_interner_intern(keys, "\xC0\xAF", 2, &id) == NC_ERR_INVALID_UTF8); /* overlong "/" */
    char *big = calloc(1, (1 << 20) + 1);
    memset(big, 'k', 1 << 20);
    CHECK(nc_interner_intern(keys, big, 1 << 20, &id) == NC_ERR_TOO_LONG);
    memcpy(big, "\xC3\xA9", 2);
    CHECK(nc_interner_intern(keys, big, 1 << 20, &id) == NC_ERR_TOO_LONG);
    free(big);
    CHECK(nc_interner_count(keys) == count);
    CHECK(nc_interner_memory(keys) > 100000);
    nc_interner_destroy(keys);
}

static uint64_t constant_hash(const void *bytes, size_t length) { (void)bytes; (void)length; return 42; }

static void test_interner_collisions_and_limits(void) {
    nc_interner *keys;
    nc_interner_config config = {.hash = constant_hash};
    CHECK(nc_interner_create(&keys, &config) == NC_OK);
    char key[32];
    nc_id id;
    for (int i = 0; i < 3000; i++) {
        int n = snprintf(key, sizeof key, "K:%d", i);
        CHECK(nc_interner_intern(keys, key, (size_t)n, &id) == NC_OK && id == (nc_id)i);
    }
    int found = 0;
    for (int i = 0; i < 3000; i++) {
        int n = snprintf(key, sizeof key, "K:%d", i);
        found += nc_interner_find(keys, key, (size_t)n, &id) == NC_OK && id == (nc_id)i;
    }
    CHECK(found == 3000);
    nc_interner_destroy(keys);

    nc_interner_config small = {.max_ids = 2};
    CHECK(nc_interner_create(&keys, &small) == NC_OK);
    CHECK(nc_interner_intern(keys, "a", 1, &id) == NC_OK);
    CHECK(nc_interner_intern(keys, "b", 1, &id) == NC_OK);
    CHECK(nc_interner_intern(keys, "c", 1, &id) == NC_ERR_FULL);
    CHECK(nc_interner_intern(keys, "b", 1, &id) == NC_OK && id == 1);
    CHECK(nc_interner_count(keys) == 2);
    nc_interner_destroy(keys);
}

/* Release: the key goes, its id and memory serve the next new key, the others stay. */
static void test_interner_release(void) {
    nc_interner *keys;
    nc_id id = 0;
    size_t length;
    CHECK(nc_interner_create(&keys, NULL) == NC_OK);
    CHECK(nc_interner_intern(keys, "Trip:1", 6, &id) == NC_OK && id == 0);
    CHECK(nc_interner_intern(keys, "Trip:2", 6, &id) == NC_OK && id == 1);
    CHECK(nc_interner_intern(keys, "QUERY_ROOT", 10, &id) == NC_OK && id == 2);
    const char *trip1 = nc_interner_bytes(keys, 0, NULL);
    CHECK(nc_interner_release(keys, 0) == NC_OK);
    CHECK(nc_interner_live(keys) == 2 && nc_interner_count(keys) == 3);
    CHECK(nc_interner_find(keys, "Trip:1", 6, &id) == NC_ERR_NOT_FOUND);
    CHECK(nc_interner_bytes(keys, 0, &length) == NULL);
    CHECK(nc_interner_release(keys, 0) == NC_ERR_NOT_FOUND);   /* released already */
    CHECK(nc_interner_release(keys, 3) == NC_ERR_NOT_FOUND);   /* never issued */
    CHECK(nc_interner_release(NULL, 0) == NC_ERR_INVALID_ARGUMENT);
    CHECK(nc_interner_find(keys, "Trip:2", 6, &id) == NC_OK && id == 1);
    /* a new key of the same size takes the id and the memory */
    CHECK(nc_interner_intern(keys, "Trip:3", 6, &id) == NC_OK && id == 0);
    CHECK(nc_interner_bytes(keys, 0, &length) == trip1 && length == 6 && strcmp(trip1, "Trip:3") == 0);
    CHECK(nc_interner_count(keys) == 3 && nc_interner_live(keys) == 3);
    /* the id released last goes first; a key of another size takes the id, not the memory */
    CHECK(nc_interner_release(keys, 1) == NC_OK && nc_interner_release(keys, 2) == NC_OK);
    CHECK(nc_interner_intern(keys, "User:1000", 9, &id) == NC_OK && id == 2);
    CHECK(nc_interner_intern(keys, "Trip:4", 6, &id) == NC_OK && id == 1);
    CHECK(nc_interner_intern(keys, "Trip:5", 6, &id) == NC_OK && id == 3);
    CHECK(nc_interner_find(keys, "QUERY_ROOT", 10, &id) == NC_ERR_NOT_FOUND);
    /* a released key interned again is a new key */
    CHECK(nc_interner_intern(keys, "Trip:1", 6, &id) == NC_OK && id == 4);

    /* write-and-forget: the memory stays flat once the first round is released */
    char key[32];
    for (int round = 0; round < 3; round++) {
        size_t before = nc_interner_memory(keys);
        nc_id ids[20000];
        for (int i = 0; i < 20000; i++) {
            int n = snprintf(key, sizeof key, "Round%d:%05d", round, i);
            CHECK(nc_interner_intern(keys, key, (size_t)n, &ids[i]) == NC_OK);
        }
        for (int i = 0; i < 20000; i++) CHECK(nc_interner_release(keys, ids[i]) == NC_OK);
        CHECK(nc_interner_live(keys) == 5);
        if (round > 0) CHECK(nc_interner_memory(keys) == before);
    }
    CHECK(nc_interner_count(keys) == 20005);
    nc_interner_destroy(keys);
}

/* Clusters that wrap past the table's end: homes 1016–1031 of a 1,024-slot table. */
static uint64_t clustered_hash(const void *bytes, size_t length) {
    uint64_t sum = 0;
    for (size_t i = 0; i < length; i++) sum += ((const uint8_t *)bytes)[i];
    return 1016 + sum % 16;
}

/* Random interns and releases of a pool of keys against a model of which are held:
 * every held key keeps its id and bytes, every released key is gone, with the keys in
 * long runs that wrap (a backward shift that skipped a key would lose it). */
static void test_interner_release_matches_model(void) {
    uint64_t (*hashes[])(const void *, size_t) = {clustered_hash, constant_hash, NULL};
    for (size_t h = 0; h < sizeof hashes / sizeof *hashes; h++) {
        nc_interner_config config = {.hash = hashes[h]};
        nc_interner *keys;
        CHECK(nc_interner_create(&keys, &config) == NC_OK);
        enum { POOL = 700 };
        nc_id held[POOL];
        for (int k = 0; k < POOL; k++) held[k] = NC_ID_NONE;
        uint32_t random = 12345, live = 0;
        char key[32];
        int agree = 1;
        for (int step = 0; step < 20000 && agree; step++) {
            random = random * 1103515245u + 12345u;
            int k = (int)((random >> 8) % POOL);
            int n = snprintf(key, sizeof key, "K:%d", k);
            nc_id id;
            if (held[k] == NC_ID_NONE) {
                agree &= nc_interner_intern(keys, key, (size_t)n, &id) == NC_OK;
                held[k] = id;
                live++;
            } else if (step % 3) {
                agree &= nc_interner_release(keys, held[k]) == NC_OK;
                held[k] = NC_ID_NONE;
                live--;
            }
            if (step % 97 == 0 || step > 19900) {
                for (int j = 0; j < POOL; j++) {
                    n = snprintf(key, sizeof key, "K:%d", j);
                    nc_status found = nc_interner_find(keys, key, (size_t)n, &id);
                    if (held[j] == NC_ID_NONE) {
                        agree &= found == NC_ERR_NOT_FOUND;
                    } else {
                        size_t length;
                        const char *bytes = nc_interner_bytes(keys, held[j], &length);
                        agree &= found == NC_OK && id == held[j] && bytes != NULL && length == (size_t)n &&
                                 memcmp(bytes, key, (size_t)n) == 0;
                    }
                }
                agree &= nc_interner_live(keys) == live && nc_interner_count(keys) <= POOL;
            }
        }
        CHECK(agree);
        nc_interner_destroy(keys);
    }
}

/* With every hash equal only the bytes tell keys apart: keys of each length up to 72
 * that differ from "aaa…" in one byte each must all get ids of their own. */
static void test_interner_compares_every_byte(void) {
    nc_interner_config config = {.hash = constant_hash};
    nc_interner *keys;
    CHECK(nc_interner_create(&keys, &config) == NC_OK);
    char key[72];
    nc_id id;
    uint32_t expected = 0;
    int distinct = 1, again = 1;
    for (size_t length = 0; length <= sizeof key; length += length < 40 ? 1 : 8) {
        for (size_t changed = 0; changed <= length; changed++) { /* changed == length: none */
            memset(key, 'a', sizeof key);
            if (changed < length) key[changed] = 'b';
            distinct &= nc_interner_intern(keys, key, length, &id) == NC_OK && id == expected++;
        }
        for (size_t changed = 0; changed <= length; changed++) {
            memset(key, 'a', sizeof key);
            if (changed < length) key[changed] = 'b';
            again &= nc_interner_find(keys, key, length, &id) == NC_OK && id == expected - (length + 1) + changed;
        }
    }
    CHECK(distinct);
    CHECK(again);
    CHECK(nc_interner_count(keys) == expected);
    nc_interner_destroy(keys);
}

/* The i-th key of a stream with the shapes the cache meets: entity keys that repeat,
 * field keys, path keys, and keys that need NFC (decomposed é) or are already NFC. */
static size_t stream_key(char *key, size_t size, int i) {
    int entity = (i * 7919) % 3001;
    switch (i % 5) {
    case 0: return (size_t)snprintf(key, size, "Trip:%d", entity);
    case 1: return (size_t)snprintf(key, size, "field%d(first:%d)", i % 13, i % 7);
    case 2: return (size_t)snprintf(key, size, "User:%d.destination", entity);
    case 3: return (size_t)snprintf(key, size, "Caf\xC3\xA9:%d", entity % 500);
    default: return (size_t)snprintf(key, size, "Cafe\xCC\x81:%d", entity % 700); /* the same key as case 3's */
    }
}

/* Interns `count` keys into `single` one call at a time and into `many` in batches of
 * `batch`: every status, id and count must agree. */
static int same_as_single_calls(nc_interner *single, nc_interner *many, const nc_text *keys, size_t count, size_t batch) {
    nc_id *expected = malloc(count * sizeof *expected), *got = malloc(count * sizeof *got);
    int same = 1;
    for (size_t i = 0; i < count; i++)
        same &= nc_interner_intern(single, keys[i].bytes, keys[i].length, &expected[i]) == NC_OK;
    for (size_t start = 0; start < count; start += batch) {
        size_t n = count - start < batch ? count - start : batch, done = 0;
        same &= nc_interner_intern_many(many, keys + start, n, got + start, &done) == NC_OK && done == n;
    }
    same &= memcmp(expected, got, count * sizeof *got) == 0;
    same &= nc_interner_count(single) == nc_interner_count(many);
    for (uint32_t id = 0; same && id < nc_interner_count(single); id++) {
        size_t a, b;
        const char *x = nc_interner_bytes(single, id, &a), *y = nc_interner_bytes(many, id, &b);
        same &= a == b && memcmp(x, y, a) == 0;
    }
    free(expected);
    free(got);
    return same;
}

static void test_interner_many_matches_single_calls(void) {
    enum { COUNT = 60000 };
    char *storage = malloc((size_t)COUNT * 32);
    nc_text *keys = malloc(COUNT * sizeof *keys);
    for (int i = 0; i < COUNT; i++) {
        char *key = storage + (size_t)i * 32;
        keys[i] = (nc_text){key, stream_key(key, 32, i)};
    }
    /* one batch of everything, group-sized and odd batches, and one key at a time */
    size_t batches[] = {COUNT, 1024, 256, 33, 16, 15, 1};
    for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
        nc_interner *single, *many;
        CHECK(nc_interner_create(&single, NULL) == NC_OK);
        CHECK(nc_interner_create(&many, NULL) == NC_OK);
        CHECK(same_as_single_calls(single, many, keys, COUNT, batches[b]));
        nc_interner_destroy(single);
        nc_interner_destroy(many);
    }
    /* with every hash equal, each key probes past all the others */
    nc_interner_config config = {.hash = constant_hash};
    nc_interner *single, *many;
    CHECK(nc_interner_create(&single, &config) == NC_OK);
    CHECK(nc_interner_create(&many, &config) == NC_OK);
    CHECK(same_as_single_calls(single, many, keys, 2000, 100));
    nc_interner_destroy(single);
    nc_interner_destroy(many);
    free(keys);
    free(storage);
}

static void test_interner_many_within_one_batch(void) {
    nc_interner *keys;
    CHECK(nc_interner_create(&keys, NULL) == NC_OK);
    /* a new key repeated within a group, and in both normal forms */
    nc_text batch[] = {{"Human:1000", 10}, {"Padme\xCC\x81", 7}, {"Human:1000", 10}, {"Padm\xC3\xA9", 6},
                       {"QUERY_ROOT", 10}, {"Padme\xCC\x81", 7}, {"", 0}, {NULL, 0}, {"QUERY_ROOT", 10}};
    nc_id ids[9];
    size_t done = 99;
    CHECK(nc_interner_intern_many(keys, batch, 9, ids, &done) == NC_OK && done == 9);
    nc_id expected[] = {0, 1, 0, 1, 2, 1, 3, 3, 2};
    CHECK(memcmp(ids, expected, sizeof ids) == 0);
    CHECK(nc_interner_count(keys) == 4);
    size_t length;
    CHECK(strcmp(nc_interner_bytes(keys, 1, &length), "Padm\xC3\xA9") == 0 && length == 6);

    /* 5,000 new keys in one call grow the table (1,024 slots at first) several times mid-batch */
    enum { COUNT = 5000 };
    char (*storage)[16] = malloc(COUNT * sizeof *storage);
    nc_text *many = malloc(COUNT * sizeof *many);
    nc_id *got = malloc(COUNT * sizeof *got);
    for (int i = 0; i < COUNT; i++) many[i] = (nc_text){storage[i], (size_t)snprintf(storage[i], 16, "Trip:%d", i / 2)};
    CHECK(nc_interner_intern_many(keys, many, COUNT, got, &done) == NC_OK && done == COUNT);
    int dense = 0;
    for (int i = 0; i < COUNT; i++) dense += got[i] == (nc_id)(4 + i / 2);
    CHECK(dense == COUNT);
    CHECK(nc_interner_count(keys) == 4 + COUNT / 2);

    /* nothing to do: NC_OK, and no array is needed */
    done = 99;
    CHECK(nc_interner_intern_many(keys, NULL, 0, NULL, &done) == NC_OK && done == 0);
    CHECK(nc_interner_intern_many(keys, many, 0, got, &done) == NC_OK && done == 0);
    free(got);
    free(many);
    free(storage);
    nc_interner_destroy(keys);
}

/* Interns `batch` (with keys[failing] bad) into a fresh interner: the call must stop at
 * `failing` with `status`, with exactly the keys before it interned and later ids untouched. */
static void check_batch_stops(const nc_interner_config *config, const nc_text *batch, size_t count, size_t failing,
                              nc_status status) {
    nc_interner *keys;
    CHECK(nc_interner_create(&keys, config) == NC_OK);
    nc_id ids[40];
    for (size_t i = 0; i < count; i++) ids[i] = 12345;
    size_t done = 99;
    CHECK(nc_interner_intern_many(keys, batch, count, ids, &done) == status && done == failing);
    /* the earlier keys were interned as single calls would have, and nothing else */
    nc_interner *single;
    CHECK(nc_interner_create(&single, config) == NC_OK);
    int same = 1;
    for (size_t i = 0; i < failing; i++) {
        nc_id id;
        same &= nc_interner_intern(single, batch[i].bytes, batch[i].length, &id) == NC_OK && id == ids[i];
    }
    CHECK(same);
    CHECK(nc_interner_count(keys) == nc_interner_count(single));
    int untouched = 1;
    for (size_t i = failing; i < count; i++) untouched &= ids[i] == 12345;
    CHECK(untouched);
    /* the keys after the failing one were not looked at */
    nc_id id;
    for (size_t i = failing + 1; i < count; i++)
        if (nc_interner_find(single, batch[i].bytes, batch[i].length, &id) != NC_OK)
            CHECK(nc_interner_find(keys, batch[i].bytes, batch[i].length, &id) == NC_ERR_NOT_FOUND);
    nc_interner_destroy(single);
    nc_interner_destroy(keys);
}

static void test_interner_many_errors(void) {
    char *big = calloc(1, (1 << 20) + 1);
    memset(big, 'k', 1 << 20);
    struct { const char *bytes; size_t length; nc_status status; } bad[] = {
        {"a\0b", 3, NC_ERR_EMBEDDED_NUL},    {"\xFF", 1, NC_ERR_INVALID_UTF8},
        {"e\xCC", 2, NC_ERR_INVALID_UTF8},    {big, 1 << 20, NC_ERR_TOO_LONG},
        {big, NC_KEY_MAX_BYTES + 1, NC_ERR_TOO_LONG}, {NULL, 5, NC_ERR_INVALID_ARGUMENT},
    };
    char storage[40][16];
    nc_text batch[40];
    for (int i = 0; i < 40; i++) batch[i] = (nc_text){storage[i], (size_t)snprintf(storage[i], 16, "K:%d", i % 30)};
    /* the bad key first, inside the first group, and in a later group */
    size_t positions[] = {0, 5, 37};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        for (size_t p = 0; p < sizeof positions / sizeof positions[0]; p++) {
            nc_text saved = batch[positions[p]];
            batch[positions[p]] = (nc_text){bad[b].bytes, bad[b].length};
            check_batch_stops(NULL, batch, 40, positions[p], bad[b].status);
            batch[positions[p]] = saved;
        }
    }
    free(big);

    /* out of ids: 25 distinct keys fit, the 26th distinct one ("K:25", index 25) is refused */
    nc_interner_config small = {.max_ids = 25};
    check_batch_stops(&small, batch, 40, 25, NC_ERR_FULL);

    /* required pointers */
    nc_interner *keys;
    CHECK(nc_interner_create(&keys, NULL) == NC_OK);
    nc_id ids[40];
    size_t done = 99;
    CHECK(nc_interner_intern_many(NULL, batch, 40, ids, &done) == NC_ERR_INVALID_ARGUMENT && done == 0);
    CHECK(nc_interner_intern_many(keys, batch, 40, ids, NULL) == NC_ERR_INVALID_ARGUMENT);
    done = 99;
    CHECK(nc_interner_intern_many(keys, NULL, 40, ids, &done) == NC_ERR_INVALID_ARGUMENT && done == 0);
    done = 99;
    CHECK(nc_interner_intern_many(keys, batch, 40, NULL, &done) == NC_ERR_INVALID_ARGUMENT && done == 0);
    CHECK(nc_interner_count(keys) == 0);
    nc_interner_destroy(keys);
}

/* Counts allocations of more than `large` bytes, and refuses those over `limit`. */
typedef struct { size_t large, limit; int large_count; } sizing;

static void *sizing_reallocate(void *context, void *pointer, size_t size) {
    sizing *z = context;
    if (size > z->limit) return NULL;
    if (size > z->large) z->large_count++;
    if (size == 0) {
        free(pointer);
        return NULL;
    }
    return realloc(pointer, size);
}

/* After nc_interner_reserve(n), n new keys intern without the table growing (no
 * allocation larger than a key block), with the ids and lookups of an interner that
 * grew on the way; room past max_ids is not made, and a failed reserve changes nothing. */
static void test_interner_reserve(void) {
    sizing z = {.large = 300 * 1024, .limit = (size_t)1 << 26};
    nc_allocator allocator = {sizing_reallocate, &z};
    nc_interner_config config = {.allocator = &allocator};
    nc_interner *keys;
    nc_id id;
    CHECK(nc_interner_create(&keys, &config) == NC_OK);
    CHECK(nc_interner_intern(keys, "QUERY_ROOT", 10, &id) == NC_OK && id == 0);
    CHECK(nc_interner_reserve(keys, 100000) == NC_OK);
    CHECK(nc_interner_find(keys, "QUERY_ROOT", 10, &id) == NC_OK && id == 0);
    z.large_count = 0;
    char key[32];
    int dense = 0, found = 0;
    for (int i = 0; i < 100000; i++) {
        int n = snprintf(key, sizeof key, "Trip:%d", i);
        dense += nc_interner_intern(keys, key, (size_t)n, &id) == NC_OK && id == (nc_id)i + 1;
    }
    CHECK(dense == 100000);
    CHECK(z.large_count == 0);
    for (int i = 0; i < 100000; i++) {
        int n = snprintf(key, sizeof key, "Trip:%d", i);
        found += nc_interner_find(keys, key, (size_t)n, &id) == NC_OK && id == (nc_id)i + 1;
    }
    CHECK(found == 100000);
    /* more than the allocator gives: refused, and the interner works as before; 3M keys
     * need an id table the allocator gives (24 MB) and slots it refuses (128 MB), so the
     * first allocation must not be kept when the second fails */
    size_t memory = nc_interner_memory(keys);
    CHECK(nc_interner_reserve(keys, (size_t)1 << 30) == NC_ERR_NOMEM);
    CHECK(nc_interner_memory(keys) == memory);
    CHECK(nc_interner_reserve(keys, 3000000) == NC_ERR_NOMEM);
    CHECK(nc_interner_memory(keys) == memory);
    CHECK(nc_interner_find(keys, "Trip:99999", 10, &id) == NC_OK && id == 100000);
    CHECK(nc_interner_intern(keys, "Trip:100000", 11, &id) == NC_OK && id == 100001);
    CHECK(nc_interner_reserve(NULL, 1) == NC_ERR_INVALID_ARGUMENT);
    CHECK(nc_interner_reserve(keys, 0) == NC_OK);
    nc_interner_destroy(keys);

    /* each of its allocations failing in turn: NC_ERR_NOMEM with nothing changed or leaked */
    for (long budget = 0;; budget++) {
        failing f = {.remaining = -1};
        nc_allocator counting = {failing_reallocate, &f};
        nc_interner_config with_failures = {.allocator = &counting};
        CHECK(nc_interner_create(&keys, &with_failures) == NC_OK);
        CHECK(nc_interner_intern(keys, "QUERY_ROOT", 10, &id) == NC_OK);
        size_t before = nc_interner_memory(keys);
        long live = f.live;
        f.remaining = budget;
        nc_status status = nc_interner_reserve(keys, 5000);
        if (status != NC_OK) {
            CHECK(status == NC_ERR_NOMEM && nc_interner_memory(keys) == before && f.live == live);
            CHECK(nc_interner_find(keys, "QUERY_ROOT", 10, &id) == NC_OK && id == 0);
        }
        nc_interner_destroy(keys);
        CHECK(f.live == 0);
        if (status == NC_OK) break;
    }

    /* no room past max_ids: SIZE_MAX asks for nothing the allocator refuses */
    nc_interner_config small = {.allocator = &allocator, .max_ids = 3000};
    CHECK(nc_interner_create(&keys, &small) == NC_OK);
    CHECK(nc_interner_reserve(keys, SIZE_MAX) == NC_OK);
    CHECK(nc_interner_memory(keys) < 200000);
    nc_interner_destroy(keys);
}

/* Fail the n-th allocation for every n until a run needs no failure: each failure
 * must be NC_ERR_NOMEM with nothing changed, and nothing may leak. */
static void test_out_of_memory(void) {
    for (long budget = 0;; budget++) {
        failing f = {.remaining = budget};
        nc_allocator allocator = {failing_reallocate, &f};
        nc_interner_config config = {.allocator = &allocator};
        nc_interner *keys;
        nc_status status = nc_interner_create(&keys, &config);
        if (status != NC_OK) {
            CHECK(status == NC_ERR_NOMEM && f.live == 0);
            continue;
        }
        int ok = 1;
        uint32_t issued = 0;
        char key[48];
        for (int i = 0; i < 5000 && ok; i++) {
            int n = snprintf(key, sizeof key, i % 2 ? "Trip:%d" : "Caf\xC3\xA9 Pi\xC3\xB1" "a:%d", i);
            nc_id id;
            status = nc_interner_intern(keys, key, (size_t)n, &id);
            if (status == NC_OK) issued++;
            else {
                CHECK(status == NC_ERR_NOMEM);
                CHECK(nc_interner_count(keys) == issued);
                CHECK(nc_interner_find(keys, key, (size_t)n, &id) != NC_OK);
                ok = 0;
            }
        }
        nc_interner_destroy(keys);
        CHECK(f.live == 0);
        if (ok) break;
    }
    /* the same for batches: a failure stops the batch at the key whose allocation failed */
    for (long budget = 0;; budget++) {
        failing f;
        nc_allocator allocator;
        nc_interner *keys = interner_failing_after(budget, &f, &allocator);
        if (keys == NULL) continue;
        enum { COUNT = 5000, BATCH = 700 };
        static char storage[COUNT][48];
        static nc_text batch[COUNT];
        static nc_id ids[COUNT];
        for (int i = 0; i < COUNT; i++) {
            int n = snprintf(storage[i], 48, i % 2 ? "Trip:%d" : "Caf\xC3\xA9 Pi\xC3\xB1" "a:%d", i);
            batch[i] = (nc_text){storage[i], (size_t)n};
        }
        int ok = 1;
        for (size_t start = 0; start < COUNT && ok; start += BATCH) {
            size_t n = COUNT - start < BATCH ? COUNT - start : BATCH, done;
            nc_status status = nc_interner_intern_many(keys, batch + start, n, ids + start, &done);
            if (status != NC_OK) {
                nc_id id;
                CHECK(status == NC_ERR_NOMEM);
                CHECK(nc_interner_count(keys) == start + done);
                CHECK(nc_interner_find(keys, batch[start + done].bytes, batch[start + done].length, &id) != NC_OK);
                ok = 0;
            }
        }
        nc_interner_destroy(keys);
        CHECK(f.live == 0);
        if (ok) break;
    }
    /* releases: a failure is NC_ERR_NOMEM with the key still held */
    for (long budget = 0;; budget++) {
        failing f;
        nc_allocator allocator;
        nc_interner *keys = interner_failing_after(budget, &f, &allocator);
        if (keys == NULL) continue;
        int ok = 1;
        char key[32];
        for (int round = 0; round < 2 && ok; round++) {
            nc_id ids[300];
            int interned = 0;
            for (int i = 0; i < 300 && ok; i++, interned++) {
                int n = snprintf(key, sizeof key, "Trip:%d:%d", round, i);
                ok = nc_interner_intern(keys, key, (size_t)n, &ids[i]) == NC_OK;
            }
            if (!ok) interned--;
            for (int i = 0; i < interned && ok; i++) {
                nc_status status = nc_interner_release(keys, ids[i]);
                if (status != NC_OK) {
                    int n = snprintf(key, sizeof key, "Trip:%d:%d", round, i);
                    nc_id id;
                    CHECK(status == NC_ERR_NOMEM && nc_interner_find(keys, key, (size_t)n, &id) == NC_OK && id == ids[i]);
                    ok = 0;
                }
            }
        }
        nc_interner_destroy(keys);
        CHECK(f.live == 0);
        if (ok) break;
    }
    for (long budget = 0;; budget++) {
        failing f = {.remaining = budget};
        nc_allocator allocator = {failing_reallocate, &f};
        nc_buffer out;
        nc_buffer_init(&out, &allocator);
        encoding e = {0};
        u32(&e, 40);
        for (int i = 0; i < 40; i++) {
            char name[8];
            snprintf(name, sizeof name, "a%02d", 39 - i);
            text(&e, name);
            string_value(&e, "valu\xC3\xA9");
        }
        nc_status status = field(&out, "f", &e);
        free(e.bytes);
        CHECK(status == NC_OK || (status == NC_ERR_NOMEM && out.length == 0));
        nc_buffer_release(&out);
        CHECK(f.live == 0);
        if (status == NC_OK) break;
    }
}

static void test_status_messages(void) {
    for (int s = NC_OK; s <= NC_ERR_INVALID_ARGUMENT; s++)
        CHECK(strcmp(nc_status_message((nc_status)s), "unknown status") != 0);
    CHECK(strcmp(nc_status_message((nc_status)999), "unknown status") == 0);
}

int main(void) {
    test_field_keys();
    test_malformed_arguments();
    test_entity_keys();
    test_format_double();
    test_hash();
    test_interner();
    test_interner_collisions_and_limits();
    test_interner_release();
    test_interner_release_matches_model();
    test_interner_compares_every_byte();
    test_interner_many_matches_single_calls();
    test_interner_many_within_one_batch();
    test_interner_many_errors();
    test_interner_reserve();
    test_out_of_memory();
    test_status_messages();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
