/* interner.c — canonical key bytes to dense ids and back (contract in nc_interner.h). */
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "internal.h"
#include "nc_interner.h"

/* Key bytes live in blocks that never move, so nc_interner_bytes pointers stay valid. */
enum { BLOCK_BYTES = 256 * 1024 };

typedef struct block {
    struct block *previous;
    size_t used, size;
    char bytes[];
} block;

typedef struct entry {
    const char *bytes;
    uint64_t hash;
    uint32_t length;
} entry;

/* A slot holds id + 1 (0 = empty) and the hash's high 32 bits, to skip most byte compares. */
typedef struct slot {
    uint32_t id_plus_one;
    uint32_t tag;
} slot;

struct nc_interner {
    const nc_allocator *allocator;
    uint64_t (*hash)(const void *bytes, size_t length);
    uint32_t max_ids;
    slot *slots;
    size_t mask; /* slot count - 1; the slot count is a power of two */
    entry *entries;
    uint32_t count, entry_capacity;
    block *blocks;
    size_t block_bytes; /* bytes held by all blocks, for nc_interner_memory */
    nc_buffer normal, scratch; /* NFC work buffers, kept between calls */
};

uint64_t nc_hash64(const void *bytes, size_t length) { return XXH3_64bits(bytes, length); }

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
    nc__reallocate(allocator, interner->entries, 0);
    nc__reallocate(allocator, interner->slots, 0);
    nc_buffer_release(&interner->normal);
    nc_buffer_release(&interner->scratch);
    nc__reallocate(allocator, interner, 0);
}

static inline uint64_t hash_of(const nc_interner *interner, const void *bytes, size_t length) {
    return interner->hash ? interner->hash(bytes, length) : XXH3_64bits(bytes, length);
}

/* The canonical form of the input: the input itself on the ASCII fast path, else its NFC form. */
static nc_status canonical(nc_interner *interner, const void **bytes, size_t *length) {
    if (*length > NC_KEY_MAX_BYTES) return NC_ERR_TOO_LONG;
    if (nc__is_plain_ascii(*bytes, *length)) return NC_OK;
    nc_status status = nc__normalize(&interner->normal, &interner->scratch, *bytes, *length);
    if (status != NC_OK) return status;
    *bytes = interner->normal.bytes;
    *length = interner->normal.length;
    return NC_OK;
}

/* The slot holding `bytes`, or the empty slot where they would go. */
static slot *probe(const nc_interner *interner, const void *bytes, size_t length, uint64_t hash) {
    uint32_t tag = (uint32_t)(hash >> 32);
    for (size_t i = hash & interner->mask;; i = (i + 1) & interner->mask) {
        slot *s = &interner->slots[i];
        if (s->id_plus_one == 0) return s;
        if (s->tag != tag) continue;
        const entry *e = &interner->entries[s->id_plus_one - 1];
        if (e->hash == hash && e->length == length && memcmp(e->bytes, bytes, length) == 0) return s;
    }
}

static nc_status grow_slots(nc_interner *interner) {
    size_t count = (interner->mask + 1) * 2;
    slot *slots = nc__reallocate(interner->allocator, NULL, count * sizeof(slot));
    if (slots == NULL) return NC_ERR_NOMEM;
    memset(slots, 0, count * sizeof(slot));
    size_t mask = count - 1;
    for (uint32_t id = 0; id < interner->count; id++) {
        uint64_t hash = interner->entries[id].hash;
        size_t i = hash & mask;
        while (slots[i].id_plus_one != 0) i = (i + 1) & mask;
        slots[i].id_plus_one = id + 1;
        slots[i].tag = (uint32_t)(hash >> 32);
    }
    nc__reallocate(interner->allocator, interner->slots, 0);
    interner->slots = slots;
    interner->mask = mask;
    return NC_OK;
}

static nc_status grow_entries(nc_interner *interner) {
    uint32_t capacity = interner->entry_capacity ? interner->entry_capacity * 2 : 1024;
    if (capacity < interner->entry_capacity) capacity = UINT32_MAX; /* wrapped past 2^31 */
    entry *entries = nc__reallocate(interner->allocator, interner->entries, (size_t)capacity * sizeof(entry));
    if (entries == NULL) return NC_ERR_NOMEM;
    interner->entries = entries;
    interner->entry_capacity = capacity;
    return NC_OK;
}

/* Room for `size` bytes in the newest block, starting a block when it is full. */
static char *store(nc_interner *interner, size_t size) {
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
    char *at = b->bytes + b->used;
    b->used += size;
    return at;
}

nc_status nc_interner_intern(nc_interner *interner, const void *bytes, size_t length, nc_id *id) {
    if (interner == NULL || id == NULL || (bytes == NULL && length > 0)) return NC_ERR_INVALID_ARGUMENT;
    nc_status status = canonical(interner, &bytes, &length);
    if (status != NC_OK) return status;
    uint64_t hash = hash_of(interner, bytes, length);
    slot *s = probe(interner, bytes, length, hash);
    if (s->id_plus_one != 0) {
        *id = s->id_plus_one - 1;
        return NC_OK;
    }
    if (interner->count >= interner->max_ids) return NC_ERR_FULL;
    /* make every allocation before changing anything, so a failure leaves no trace */
    if ((size_t)(interner->count + 1) * 2 > interner->mask + 1) {
        if ((status = grow_slots(interner)) != NC_OK) return status;
        s = probe(interner, bytes, length, hash);
    }
    if (interner->count == interner->entry_capacity && (status = grow_entries(interner)) != NC_OK) return status;
    char *copy = store(interner, length + 1);
    if (copy == NULL) return NC_ERR_NOMEM;
    if (length > 0) memcpy(copy, bytes, length);
    copy[length] = '\0';
    nc_id issued = interner->count++;
    interner->entries[issued] = (entry){.bytes = copy, .hash = hash, .length = (uint32_t)length};
    s->id_plus_one = issued + 1;
    s->tag = (uint32_t)(hash >> 32);
    *id = issued;
    return NC_OK;
}

nc_status nc_interner_find(nc_interner *interner, const void *bytes, size_t length, nc_id *id) {
    if (interner == NULL || id == NULL || (bytes == NULL && length > 0)) return NC_ERR_INVALID_ARGUMENT;
    nc_status status = canonical(interner, &bytes, &length);
    if (status != NC_OK) return status;
    slot *s = probe(interner, bytes, length, hash_of(interner, bytes, length));
    if (s->id_plus_one == 0) return NC_ERR_NOT_FOUND;
    *id = s->id_plus_one - 1;
    return NC_OK;
}

const char *nc_interner_bytes(const nc_interner *interner, nc_id id, size_t *length) {
    if (interner == NULL || id >= interner->count) return NULL;
    if (length != NULL) *length = interner->entries[id].length;
    return interner->entries[id].bytes;
}

uint32_t nc_interner_count(const nc_interner *interner) { return interner ? interner->count : 0; }

size_t nc_interner_memory(const nc_interner *interner) {
    if (interner == NULL) return 0;
    return sizeof *interner + (interner->mask + 1) * sizeof(slot) + (size_t)interner->entry_capacity * sizeof(entry) +
           interner->block_bytes + interner->normal.capacity + interner->scratch.capacity;
}
