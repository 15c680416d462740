/* hash.c — nc_hash64, the core's one hash (contract in nc_interner.h).
 *
 * A multiply-fold hash: 16 bytes at a time are mixed into the state by one 64 × 64 → 128-bit
 * product whose halves are folded together with xor; the last 1 to 16 bytes are read with
 * two overlapping loads, so every length takes the same two-product finish. It needs no
 * library, so the core builds wherever a C11 compiler with 128-bit integers does (Linux,
 * macOS, iOS; docs/platforms.md). Its values are not stable between versions and nothing
 * stores them: they live as long as the process. */
#include <string.h>

#include "nc_interner.h"

#ifndef __SIZEOF_INT128__
#error "CCore's nc_hash64 needs a compiler with 128-bit integers (unsigned __int128): a 64-bit target"
#endif

/* Odd constants with well-spread bits (the first is the golden ratio's 64 bits); any odd
 * constants with mixed bits would do. */
#define STATE_SEED 0x9e3779b97f4a7c15ull
#define LOAD_MASK 0xc2b2ae3d27d4eb4full
#define TAIL_MASK 0x165667b19e3779f9ull
#define FINISH_MASK 0xd6e8feb86659fd93ull

/* The product of `a` and `b`, its high half folded onto its low half. */
static inline uint64_t fold(uint64_t a, uint64_t b) {
    unsigned __int128 product = (unsigned __int128)a * b;
    return (uint64_t)product ^ (uint64_t)(product >> 64);
}

static inline uint64_t load64(const uint8_t *bytes) {
    uint64_t value;
    memcpy(&value, bytes, sizeof value);
    return value;
}

static inline uint64_t load32(const uint8_t *bytes) {
    uint32_t value;
    memcpy(&value, bytes, sizeof value);
    return value;
}

uint64_t nc_hash64(const void *bytes, size_t length) {
    const uint8_t *at = bytes;
    uint64_t state = STATE_SEED ^ length;
    size_t left = length;
    if (left > 16) {
        do {
            state = fold(load64(at) ^ LOAD_MASK, load64(at + 8) ^ state);
            at += 16;
            left -= 16;
        } while (left > 16);
        /* the last 16 bytes end where the input ends, overlapping bytes already mixed */
        at -= 16 - left;
        left = 16;
    }
    uint64_t first = 0, last = 0;
    if (left >= 8) {
        first = load64(at);
        last = load64(at + left - 8);
    } else if (left >= 4) {
        first = load32(at);
        last = load32(at + left - 4);
    } else if (left > 0) {
        first = (uint64_t)at[0] << 16 | (uint64_t)at[left >> 1] << 8 | at[left - 1];
    }
    return fold(fold(first ^ TAIL_MASK, last ^ state) ^ FINISH_MASK, length ^ LOAD_MASK);
}
