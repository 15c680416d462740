/* interner.c — canonical key bytes to dense ids and back (contract in nc_interner.h). */
#include <string.h>

#include "internal.h"
#include "nc_interner.h"

/* Key records live in blocks that never move, so nc_interner_bytes pointers stay valid. */
enum { BLOCK_BYTES = 256 * 1024 };

typedef struct block {
    struct block *previous;
    size_t used, size;
    _Alignas(8) char bytes[];
} block;

/* One interned key: its hash and id beside its bytes, so a lookup that reaches the
 * record needs no other memory to confirm a match. */
typedef struct record {
    uint64_t hash;
    uint32_t length;
    nc_id id;
    char bytes[]; /* length bytes, then NUL */
} record;

/* A slot points at its record (NULL = empty) and keeps the hash's high 32 bits, so most
 * mismatches are decided without touching the record. */
typedef struct slot {
    const record *record;
    uint32_t tag;
} slot;

/* A released record's memory, waiting on its size class's free list for a key of the
 * same size (records are 8-byte aligned and at least 16 bytes, so the link fits). */
typedef struct free_record {
    struct free_record *next;
} free_record;

/* Records are 8-byte multiples up to the largest key's: one free list per multiple. */
#define RECORD_SIZE(length) ((sizeof(record) + (length) + 1 + 7) & ~(size_t)7)
enum { SIZE_CLASSES = RECORD_SIZE(NC_KEY_MAX_BYTES) / 8 + 1 };

struct nc_interner {
    const nc_allocator *allocator;
    uint64_t (*hash)(const void *bytes, size_t length);
    uint32_t max_ids;
    slot *slots;
    size_t mask; /* slot count - 1; the slot count is a power of two */
    const record **records; /* by id; NULL for a released id */
    uint32_t count, record_capacity; /* count: ids issued, released ones included */
    uint32_t live; /* ids issued and not released: the keys in the table */
    nc_id *free_ids; /* released ids, the next to reuse last */
    uint32_t free_count, free_capacity;
    free_record **free_records; /* by size class, made at the first release */
    block *blocks;
    size_t block_bytes; /* bytes held by all blocks, for nc_interner_memory */
    nc_buffer normal, scratch; /* NFC work buffers, kept between calls */
};

nc_status nc_interner_create(nc_interner **out, const nc_interner_config *config) {
    if (out == NULL) return NC_ERR_INVALID_ARGUMENT;
    const nc_allocator *allocator = config ? config->allocator : NULL;
    nc_interner *interner = nc__reallocate(allocator, NULL, sizeof *interner);
    if (interner == NULL) return NC_ERR_NOMEM;
    memset(interner, 0, sizeof *interner);
    interner->allocator = allocator;
    interner->hash = config && config->hash ? config->hash : NULL;
    interner->max_ids = config && config->max_ids && config->max_ids < NC_ID_LIMIT ? config->max_ids : NC_ID_LIMIT;
    const size_t initial_slots = 1024;
    interner->slots = nc__reallocate(allocator, NULL, initial_slots * sizeof(slot));
    if (interner->slots == NULL) {
        nc__reallocate(allocator, interner, 0);
        return NC_ERR_NOMEM;
    }
    memset(interner->slots, 0, initial_slots * sizeof(slot));
    interner->mask = initial_slots - 1;
    nc_buffer_init(&interner->normal, allocator);
    nc_buffer_init(&interner->scratch, allocator);
    *out = interner;
    return NC_OK;
}

void nc_interner_destroy(nc_interner *interner) {
    if (interner == NULL) return;
    const nc_allocator *allocator = interner->allocator;
    for (block *b = interner->blocks; b != NULL;) {
        block *previous = b->previous;
        nc__reallocate(allocator, b, 0);
        b = previous;
    }
    nc__reallocate(allocator, interner->records, 0);
    nc__reallocate(allocator, interner->slots, 0);
    nc__reallocate(allocator, interner->free_ids, 0);
    nc__reallocate(allocator, interner->free_records, 0);
    nc_buffer_release(&interner->normal);
    nc_buffer_release(&interner->scratch);
    nc__reallocate(allocator, interner, 0);
}

static inline uint64_t hash_of(const nc_interner *interner, const void *bytes, size_t length) {
    return interner->hash ? interner->hash(bytes, length) : nc_hash64(bytes, length);
}

/* The NFC form of input that is not already known: NC_OK with the input itself on the
 * ASCII fast path, else with the interner's normalised copy. */
static nc_status canonical(nc_interner *interner, const void **bytes, size_t *length) {
    if (*length > NC_KEY_MAX_BYTES) return NC_ERR_TOO_LONG;
    if (nc__is_plain_ascii(*bytes, *length)) return NC_OK;
    nc_status status = nc__normalize(&interner->normal, &interner->scratch, *bytes, *length);
    if (status != NC_OK) return status;
    *bytes = interner->normal.bytes;
    *length = interner->normal.length;
    return NC_OK;
}

static inline uint64_t load64(const char *p) {
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

static inline uint32_t load32(const char *p) {
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
}

/* Equal bytes. Keys are short, so lengths up to 32 are compared with loads from both
 * ends that overlap, without a loop: the branches depend on the length class only, and
 * stay predictable when the hash of the key ran long before (nc_interner_intern_many). */
static inline int same_bytes(const char *a, const char *b, size_t length) {
    if (length >= 8) {
        if (length <= 16)
            return ((load64(a) ^ load64(b)) | (load64(a + length - 8) ^ load64(b + length - 8))) == 0;
        if (length <= 32)
            return ((load64(a) ^ load64(b)) | (load64(a + 8) ^ load64(b + 8)) |
                    (load64(a + length - 16) ^ load64(b + length - 16)) | (load64(a + length - 8) ^ load64(b + length - 8))) == 0;
        for (size_t i = 0; i + 8 < length; i += 8)
            if (load64(a + i) != load64(b + i)) return 0;
        return load64(a + length - 8) == load64(b + length - 8);
    }
    if (length >= 4) return ((load32(a) ^ load32(b)) | (load32(a + length - 4) ^ load32(b + length - 4))) == 0;
    for (size_t i = 0; i < length; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* The slot holding `bytes`, or the empty slot where they would go. */
static inline __attribute__((always_inline)) slot *probe(const nc_interner *interner, const void *bytes, size_t length,
                                                         uint64_t hash) {
    uint32_t tag = (uint32_t)(hash >> 32);
    for (size_t i = hash & interner->mask;; i = (i + 1) & interner->mask) {
        slot *s = &interner->slots[i];
        if (s->record == NULL) return s;
        if (s->tag == tag && s->record->hash == hash && s->record->length == length &&
            same_bytes(s->record->bytes, bytes, length))
            return s;
    }
}

/* The hash of `bytes` as given, which is what the first probe of locate() looks for; 0
 * for a key too long to be stored, which locate() refuses without probing. */
static inline uint64_t raw_hash(const nc_interner *interner, const void *bytes, size_t length) {
    return length <= NC_KEY_MAX_BYTES ? hash_of(interner, bytes, length) : 0;
}

/* The second half of locate(), for bytes that missed as given: canonicalises them and,
 * if that changed them, looks them up again. Out of line: most lookups hit. */
static __attribute__((noinline)) nc_status locate_canonical(nc_interner *interner, const void **bytes, size_t *length,
                                                            uint64_t *hash, slot **found) {
    const void *raw = *bytes;
    nc_status status = canonical(interner, bytes, length);
    if (status != NC_OK) return status;
    if (*bytes != raw) {
        *hash = hash_of(interner, *bytes, *length);
        *found = probe(interner, *bytes, *length, *hash);
    }
    return NC_OK;
}

/* Looks `bytes` up as given (a stored key is canonical, so a hit needs no check), and
 * only on a miss canonicalises them and looks again. On entry `*hash` is
 * raw_hash(bytes, length). On NC_OK, `*found` is the slot of the canonical bytes (empty
 * if they are new) and `bytes`, `length`, `hash` describe them. */
static inline __attribute__((always_inline)) nc_status locate(nc_interner *interner, const void **bytes, size_t *length,
                                                             uint64_t *hash, slot **found) {
    if (*length <= NC_KEY_MAX_BYTES) {
        *found = probe(interner, *bytes, *length, *hash);
        if ((*found)->record != NULL) return NC_OK;
    }
    return locate_canonical(interner, bytes, length, hash, found);
}

/* A zeroed table of `count` slots (a power of two), or NULL without the memory. */
static slot *new_slots(const nc_interner *interner, size_t count) {
    slot *slots = nc__reallocate(interner->allocator, NULL, count * sizeof(slot));
    if (slots != NULL) memset(slots, 0, count * sizeof(slot));
    return slots;
}

/* Moves every key into `slots`, a table from new_slots() of `count` slots, more than
 * twice the keys held, which replaces the current one. Cannot fail. */
static void install_slots(nc_interner *interner, slot *slots, size_t count) {
    size_t mask = count - 1;
    for (uint32_t id = 0; id < interner->count; id++) {
        const record *r = interner->records[id];
        if (r == NULL) continue; /* released */
        size_t i = r->hash & mask;
        while (slots[i].record != NULL) i = (i + 1) & mask;
        slots[i] = (slot){.record = r, .tag = (uint32_t)(r->hash >> 32)};
    }
    nc__reallocate(interner->allocator, interner->slots, 0);
    interner->slots = slots;
    interner->mask = mask;
}

static nc_status grow_slots(nc_interner *interner) {
    size_t count = (interner->mask + 1) * 2;
    slot *slots = new_slots(interner, count);
    if (slots == NULL) return NC_ERR_NOMEM;
    install_slots(interner, slots, count);
    return NC_OK;
}

static nc_status resize_records(nc_interner *interner, uint32_t capacity) {
    const record **records = nc__reallocate(interner->allocator, interner->records, (size_t)capacity * sizeof *records);
    if (records == NULL) return NC_ERR_NOMEM;
    interner->records = records;
    interner->record_capacity = capacity;
    return NC_OK;
}

static nc_status grow_records(nc_interner *interner) {
    uint32_t capacity = interner->record_capacity ? interner->record_capacity * 2 : 1024;
    if (capacity < interner->record_capacity) capacity = UINT32_MAX; /* wrapped past 2^31 */
    return resize_records(interner, capacity);
}

/* Room for a record of `length` key bytes: a released record's of the same size, else
 * in the newest block, starting a block when it is full. */
static record *store(nc_interner *interner, size_t length) {
    size_t size = RECORD_SIZE(length);
    if (interner->free_records != NULL && interner->free_records[size / 8] != NULL) {
        free_record *reused = interner->free_records[size / 8];
        interner->free_records[size / 8] = reused->next;
        return (record *)(void *)reused;
    }
    block *b = interner->blocks;
    if (b == NULL || b->size - b->used < size) {
        size_t bytes = size > BLOCK_BYTES ? size : BLOCK_BYTES;
        b = nc__reallocate(interner->allocator, NULL, sizeof(block) + bytes);
        if (b == NULL) return NULL;
        b->previous = interner->blocks;
        b->used = 0;
        b->size = bytes;
        interner->blocks = b;
        interner->block_bytes += sizeof(block) + bytes;
    }
    record *r = (record *)(void *)(b->bytes + b->used);
    b->used += size;
    return r;
}

/* Stores canonical `bytes` (hash `hash`) that locate() did not find, in the empty slot
 * `s` it returned, under the id released last, else the next id. Out of line: most
 * lookups hit. */
static __attribute__((noinline)) nc_status insert(nc_interner *interner, const void *bytes, size_t length, uint64_t hash,
                                                  slot *s, nc_id *id) {
    int reuses = interner->free_count > 0;
    if (!reuses && interner->count >= interner->max_ids) return NC_ERR_FULL;
    /* make every allocation before changing anything, so a failure leaves no trace */
    nc_status status;
    if ((size_t)(interner->live + 1) * 2 > interner->mask + 1) {
        if ((status = grow_slots(interner)) != NC_OK) return status;
        s = probe(interner, bytes, length, hash);
    }
    if (!reuses && interner->count == interner->record_capacity && (status = grow_records(interner)) != NC_OK) return status;
    record *r = store(interner, length);
    if (r == NULL) return NC_ERR_NOMEM;
    r->hash = hash;
    r->length = (uint32_t)length;
    r->id = reuses ? interner->free_ids[--interner->free_count] : interner->count++;
    interner->live++;
    if (length > 0) memcpy(r->bytes, bytes, length);
    r->bytes[length] = '\0';
    interner->records[r->id] = r;
    *s = (slot){.record = r, .tag = (uint32_t)(hash >> 32)};
    *id = r->id;
    return NC_OK;
}

/* The id of `bytes`, whose raw_hash() the caller has computed, issuing the next id if
 * they are new: the one lookup-and-insert path of nc_interner_intern and
 * nc_interner_intern_many, inlined into both so that a hit makes no call. */
static inline __attribute__((always_inline)) nc_status intern_hashed(nc_interner *interner, const void *bytes,
                                                                     size_t length, uint64_t hash, nc_id *id) {
    slot *s;
    nc_status status = locate(interner, &bytes, &length, &hash, &s);
    if (status != NC_OK) return status;
    if (s->record != NULL) {
        *id = s->record->id;
        return NC_OK;
    }
    return insert(interner, bytes, length, hash, s, id);
}

nc_status nc_interner_intern(nc_interner *interner, const void *bytes, size_t length, nc_id *id) {
    if (interner == NULL || id == NULL || (bytes == NULL && length > 0)) return NC_ERR_INVALID_ARGUMENT;
    return intern_hashed(interner, bytes, length, raw_hash(interner, bytes, length), id);
}

/* How far ahead nc_interner_intern_many works, in keys: while it resolves key i, it
 * hashes key i + 2 * GROUP and prefetches its slot, and prefetches the record of key
 * i + GROUP. Measured with 2, 4, 8, 16 and 32 (docs/PERFORMANCE.md): 4 was quickest
 * for a fresh interner, 16 for lookups in a table several times L2; 8 is the middle. */
enum { GROUP = 8, AHEAD = 2 * GROUP, RING = 2 * AHEAD };

/* A batch key with no bytes but a length: refused in its turn, as nc_interner_intern
 * refuses such arguments. */
static inline int has_no_bytes(const nc_text *key) { return key->bytes == NULL && key->length > 0; }

/* Stage 1 for one key: its hash as given, as nc_interner_intern computes it (0 for a key
 * refused in its turn), and a prefetch of its home slot. */
static inline uint64_t hash_ahead(const nc_interner *interner, const nc_text *key) {
    uint64_t hash = has_no_bytes(key) ? 0 : raw_hash(interner, key->bytes, key->length);
    __builtin_prefetch(&interner->slots[hash & interner->mask]);
    return hash;
}

/* Stage 2 for one key, whose home slot has arrived by now: when the slot holds the key's
 * tag, a prefetch of its record (the header, and the line of the last key byte). Without
 * a branch: on a mismatch the slot is prefetched again instead. */
static inline void fetch_ahead(const nc_interner *interner, const nc_text *key, uint64_t hash) {
    const slot *s = &interner->slots[hash & interner->mask];
    int match = s->record != NULL && s->tag == (uint32_t)(hash >> 32);
    uintptr_t at = match ? (uintptr_t)s->record : (uintptr_t)s;
    __builtin_prefetch((const void *)at);
    __builtin_prefetch((const void *)(at + sizeof(record) + key->length));
}

nc_status nc_interner_intern_many(nc_interner *interner, const nc_text *keys, size_t count, nc_id *ids, size_t *done) {
    if (done != NULL) *done = 0;
    if (interner == NULL || done == NULL || (count > 0 && (keys == NULL || ids == NULL))) return NC_ERR_INVALID_ARGUMENT;
    /* A pipeline: while key i is resolved, the record of key i + GROUP and the slot of key
     * i + AHEAD are on their way, so the misses of neighbouring keys overlap. The
     * prefetches are hints only (the table may grow or gain keys in between), so every
     * key is resolved by the single call's own path (intern_hashed), in order. */
    uint64_t hashes[RING];
    size_t primed = count < AHEAD ? count : AHEAD;
    for (size_t j = 0; j < primed; j++) hashes[j] = hash_ahead(interner, &keys[j]);
    for (size_t k = 0; k < primed && k < GROUP; k++) fetch_ahead(interner, &keys[k], hashes[k]);
    for (size_t i = 0; i < count; i++) {
        if (i + AHEAD < count) hashes[(i + AHEAD) % RING] = hash_ahead(interner, &keys[i + AHEAD]);
        if (i + GROUP < count) fetch_ahead(interner, &keys[i + GROUP], hashes[(i + GROUP) % RING]);
        const nc_text *key = &keys[i];
        nc_status status = has_no_bytes(key)
                               ? NC_ERR_INVALID_ARGUMENT
                               : intern_hashed(interner, key->bytes, key->length, hashes[i % RING], &ids[i]);
        if (status != NC_OK) {
            *done = i;
            return status;
        }
    }
    *done = count;
    return NC_OK;
}

nc_status nc_interner_reserve(nc_interner *interner, size_t count) {
    if (interner == NULL) return NC_ERR_INVALID_ARGUMENT;
    uint64_t room = interner->max_ids - interner->count + interner->free_count; /* more keys than this never fit */
    uint64_t added = count < room ? count : room;
    uint64_t total = interner->live + added;
    /* insert() grows the table when a key would make it more than half full */
    size_t slot_count = interner->mask + 1;
    while (total * 2 > slot_count) {
        if (slot_count > SIZE_MAX / 2 / sizeof(slot)) return NC_ERR_NOMEM;
        slot_count *= 2;
    }
    /* every allocation before anything changes: a failure leaves the interner as it was */
    slot *slots = NULL;
    if (slot_count != interner->mask + 1 && (slots = new_slots(interner, slot_count)) == NULL) return NC_ERR_NOMEM;
    /* released ids are reused first, and only the keys past them take new ids */
    uint64_t ids = interner->count + (added > interner->free_count ? added - interner->free_count : 0);
    if (ids > interner->record_capacity) {
        /* at least doubled, so that reserving for many small lists stays amortised */
        uint64_t capacity = (uint64_t)interner->record_capacity * 2;
        if (capacity < ids) capacity = ids;
        if (capacity > UINT32_MAX) capacity = UINT32_MAX;
        if (resize_records(interner, (uint32_t)capacity) != NC_OK) {
            nc__reallocate(interner->allocator, slots, 0);
            return NC_ERR_NOMEM;
        }
    }
    if (slots != NULL) install_slots(interner, slots, slot_count);
    return NC_OK;
}

nc_status nc_interner_find(nc_interner *interner, const void *bytes, size_t length, nc_id *id) {
    if (interner == NULL || id == NULL || (bytes == NULL && length > 0)) return NC_ERR_INVALID_ARGUMENT;
    uint64_t hash = raw_hash(interner, bytes, length);
    slot *s;
    nc_status status = locate(interner, &bytes, &length, &hash, &s);
    if (status != NC_OK) return status;
    if (s->record == NULL) return NC_ERR_NOT_FOUND;
    *id = s->record->id;
    return NC_OK;
}

/* Takes the slot `s` out of the table. Linear probing keeps no tombstones: each key
 * after it in its run moves back into the hole when the hole lies between the key's
 * home slot and where it sits now, so that every key stays reachable from its home. */
static void remove_slot(nc_interner *interner, slot *s) {
    size_t mask = interner->mask, hole = (size_t)(s - interner->slots);
    for (size_t i = (hole + 1) & mask; interner->slots[i].record != NULL; i = (i + 1) & mask) {
        size_t home = interner->slots[i].record->hash & mask;
        /* the distance from home to i (where the key sits), against home to the hole */
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            interner->slots[hole] = interner->slots[i];
            hole = i;
        }
    }
    interner->slots[hole] = (slot){.record = NULL, .tag = 0};
}

nc_status nc_interner_release(nc_interner *interner, nc_id id) {
    if (interner == NULL) return NC_ERR_INVALID_ARGUMENT;
    if (id >= interner->count || interner->records[id] == NULL) return NC_ERR_NOT_FOUND;
    /* every allocation first: a failure leaves the interner as it was */
    if (interner->free_records == NULL) {
        free_record **lists = nc__reallocate(interner->allocator, NULL, SIZE_CLASSES * sizeof *lists);
        if (lists == NULL) return NC_ERR_NOMEM;
        memset(lists, 0, SIZE_CLASSES * sizeof *lists);
        interner->free_records = lists;
    }
    if (interner->free_count == interner->free_capacity) {
        uint32_t capacity = interner->free_capacity ? interner->free_capacity * 2 : 64;
        if (capacity < interner->free_capacity) capacity = UINT32_MAX; /* wrapped past 2^31 */
        nc_id *ids = nc__reallocate(interner->allocator, interner->free_ids, (size_t)capacity * sizeof *ids);
        if (ids == NULL) return NC_ERR_NOMEM;
        interner->free_ids = ids;
        interner->free_capacity = capacity;
    }
    record *r = (record *)interner->records[id];
    size_t i = r->hash & interner->mask;
    while (interner->slots[i].record != r) i = (i + 1) & interner->mask;
    remove_slot(interner, &interner->slots[i]);
    interner->records[id] = NULL;
    interner->free_ids[interner->free_count++] = id;
    interner->live--;
    size_t size = RECORD_SIZE(r->length);
    free_record *freed = (free_record *)(void *)r;
    freed->next = interner->free_records[size / 8];
    interner->free_records[size / 8] = freed;
    return NC_OK;
}

const char *nc_interner_bytes(const nc_interner *interner, nc_id id, size_t *length) {
    if (interner == NULL || id >= interner->count || interner->records[id] == NULL) return NULL;
    if (length != NULL) *length = interner->records[id]->length;
    return interner->records[id]->bytes;
}

uint32_t nc_interner_count(const nc_interner *interner) { return interner ? interner->count : 0; }

uint32_t nc_interner_live(const nc_interner *interner) { return interner ? interner->live : 0; }

size_t nc_interner_memory(const nc_interner *interner) {
    if (interner == NULL) return 0;
    return sizeof *interner + (interner->mask + 1) * sizeof(slot) + (size_t)interner->record_capacity * sizeof(record *) +
           interner->block_bytes + interner->normal.capacity + interner->scratch.capacity +
           (size_t)interner->free_capacity * sizeof(nc_id) + (interner->free_records ? SIZE_CLASSES * sizeof(free_record *) : 0);
}
