/*
 * nc_interner.h — the core's hash and the key interner.
 *
 * The interner maps canonical key bytes to dense 32-bit ids (0, 1, 2, ... in
 * order of first appearance, then ids released before) and back. The engine stores ids instead of
 * strings, so record and field lookups never hash or compare Swift Strings.
 *
 *     nc_interner *keys;
 *     nc_id id;
 *     if (nc_interner_create(&keys, NULL) != NC_OK) return;
 *     nc_interner_intern(keys, "Human:1000", 10, &id);   // id == 0
 *     nc_interner_intern(keys, "QUERY_ROOT", 10, &id);   // id == 1
 *     nc_interner_find(keys, "Human:1000", 10, &id);     // NC_OK, id == 0
 *     size_t length;
 *     const char *bytes = nc_interner_bytes(keys, 1, &length);   // "QUERY_ROOT"
 *     nc_interner_destroy(keys);
 *
 * Contract
 *   - Input is normalised as nc_canonicalize does (NFC, off the ASCII fast
 *     path), so "é" precomposed and "e" + U+0301 intern to one id; invalid
 *     UTF-8, NUL bytes and keys over NC_KEY_MAX_BYTES are refused.
 *   - An issued id never changes and stays until it is released
 *     (nc_interner_release) or the interner is destroyed; the bytes it names stay
 *     at the same address (NUL-terminated) until then. A released id and its
 *     bytes' memory are reused by the next new keys (released ids first, the one
 *     released last first), so the caller releases only ids that nothing it
 *     holds still names.
 *   - Open addressing with linear probing over nc_hash64 hashes; the table
 *     doubles before it is half full. Equal hashes are told apart by their
 *     bytes, so even a constant hash function gives correct (slow) answers.
 *   - A failed call (NC_ERR_NOMEM, NC_ERR_FULL, ...) changes nothing; a failed
 *     nc_interner_intern_many keeps the keys before the one that failed.
 *   - An interner is not thread-safe: callers serialise access to it.
 */
#ifndef NC_INTERNER_H
#define NC_INTERNER_H

#include "nc_base.h"
#include "nc_keys.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t nc_id;

/* Never issued; returned where there is no id. */
#define NC_ID_NONE UINT32_MAX

/* The most ids an interner issues by default. */
#define NC_ID_LIMIT (UINT32_MAX - 1u)

/* A 64-bit hash of `length` bytes: the core's one hash, for the interner (its default
 * hash), operation caches and benchmarks alike. Written here, so the core needs no hashing
 * library on any platform (src/hash.c says how it works). Equal bytes hash equal within a
 * process; values may change between versions, so nothing may store them. */
uint64_t nc_hash64(const void *bytes, size_t length);

typedef struct nc_interner nc_interner;

typedef struct nc_interner_config {
    /* Where memory comes from; NULL for the C library. Must outlive the interner. */
    const nc_allocator *allocator;
    /* The most ids to issue; 0 for NC_ID_LIMIT. Interning past it is NC_ERR_FULL. */
    uint32_t max_ids;
    /* The hash function; NULL for nc_hash64. Tests use a weak one to force collisions. */
    uint64_t (*hash)(const void *bytes, size_t length);
} nc_interner_config;

/* Creates an empty interner; `config` may be NULL for the defaults. */
nc_status nc_interner_create(nc_interner **out, const nc_interner_config *config);
void nc_interner_destroy(nc_interner *interner);

/* The id of `bytes`, issuing the next id if they are new. */
nc_status nc_interner_intern(nc_interner *interner, const void *bytes, size_t length, nc_id *id);

/* The ids of `count` keys, exactly as `count` calls of nc_interner_intern in order
 * would give them (ids[i] for keys[i]; a key repeated within the call gets one id),
 * but built for many keys: each key is hashed a few keys ahead of its lookup and the
 * table memory it needs is prefetched in between, so the cache misses of neighbouring
 * keys overlap instead of following one another (docs/PERFORMANCE.md, keys.intern).
 *
 *     nc_text batch[] = {{"Human:1000", 10}, {"QUERY_ROOT", 10}, {"Human:1000", 10}};
 *     nc_id ids[3];
 *     size_t done;
 *     nc_interner_intern_many(keys, batch, 3, ids, &done);   // NC_OK, ids {0, 1, 0}, done 3
 *
 * `*done` is how many keys were interned: `count` on NC_OK. On an error it is the index
 * of the key that failed, whose status is returned: keys[0..done) are interned and
 * ids[0..done) hold their ids, as single calls would have left them; nothing of the
 * failing key or of the keys after it is kept, and ids[done..count) are untouched. The
 * bytes of all `count` keys must be readable: keys are hashed before their turn.
 * A key with NULL bytes and a nonzero length fails in its turn with
 * NC_ERR_INVALID_ARGUMENT. `count` 0 is NC_OK with `keys` and `ids` allowed NULL; a
 * NULL `interner` or `done`, or a NULL `keys` or `ids` for `count` > 0, is
 * NC_ERR_INVALID_ARGUMENT with nothing done. */
nc_status nc_interner_intern_many(nc_interner *interner, const nc_text *keys, size_t count, nc_id *ids, size_t *done);

/* Makes room for `count` more keys, so that interning them allocates nothing but their
 * bytes: for a caller about to intern many new keys (a list of new objects), which would
 * otherwise pay for the table growing several times on the way. Keys already held count
 * against the room as they are met, so room made for keys that turn out to be known is
 * only memory. Room past the interner's max_ids is not made. NC_ERR_NOMEM, with nothing
 * changed, when the memory is not there; a NULL `interner` is NC_ERR_INVALID_ARGUMENT. */
nc_status nc_interner_reserve(nc_interner *interner, size_t count);

/* The id of `bytes` if they were interned before (NC_OK), else NC_ERR_NOT_FOUND.
 * Never inserts. */
nc_status nc_interner_find(nc_interner *interner, const void *bytes, size_t length, nc_id *id);

/* The canonical bytes of `id`, or NULL for an id never issued or released since. */
const char *nc_interner_bytes(const nc_interner *interner, nc_id id, size_t *length);

/* Forgets the key of `id`: the id and the memory of its bytes go to the next new keys,
 * and until then nc_interner_bytes(id) is NULL and finding the key is NC_ERR_NOT_FOUND.
 * For a caller that knows nothing names the id any more (the engine's sweep at garbage
 * collection); anything that still holds it would meet another key under it.
 *
 *     nc_interner_intern(keys, "Trip:1", 6, &id);   // id == 0
 *     nc_interner_release(keys, id);                // NC_OK; nc_interner_live(keys) == 0
 *     nc_interner_intern(keys, "Trip:2", 6, &id);   // id == 0 again, in Trip:1's memory
 *
 * Lookups cost what they did: the key leaves the table by backward-shift deletion, so
 * no tombstone stays behind. NC_ERR_NOT_FOUND for an id never issued or released
 * already, NC_ERR_NOMEM (nothing changed) without the memory to note the id as free,
 * NC_ERR_INVALID_ARGUMENT for a NULL `interner`. */
nc_status nc_interner_release(nc_interner *interner, nc_id id);

/* One more than the highest id issued: every id is below it, so it sizes tables
 * indexed by id. Ids released stay counted (they are reused before it grows). */
uint32_t nc_interner_count(const nc_interner *interner);

/* How many keys the interner holds: ids issued and not released. */
uint32_t nc_interner_live(const nc_interner *interner);

/* Bytes of memory the interner holds (table, entries, key storage, released memory
 * kept for reuse). */
size_t nc_interner_memory(const nc_interner *interner);

#ifdef __cplusplus
}
#endif

#endif /* NC_INTERNER_H */
