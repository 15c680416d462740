/* xxHash, header-only: XXH_INLINE_ALL measured as fast as linking libxxhash, and needs no
 * library. It renames every function (XXH_INLINE_ prefix) through macros Swift cannot
 * import, so Swift calls the wrappers below. */
#ifndef NC_XXHASH_SHIM_H
#define NC_XXHASH_SHIM_H

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Raw XXH3-64 (seed 0): the baseline that key benchmarks compare the interner with. */
static inline uint64_t nc_xxh3_64(const void *bytes, size_t length) { return XXH3_64bits(bytes, length); }

#endif
