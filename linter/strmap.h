/*
 * strmap.h: a hash map from byte strings to indexes, in an arena.
 *
 * For look-ups that would otherwise compare a name against every earlier one (build
 * stages by name, digests already seen): insert and find are O(1) on average, so a
 * hostile input with 10^5 names costs 10^5 steps, not 10^10.
 *
 * Keys are not copied: they must live as long as the map (arena strings do). The slot
 * array comes from the arena given to gl_strmap_init and is replaced, not freed, when it
 * grows (the arena frees everything at once); the total stays under twice the final size.
 * Open addressing with linear probing; FNV-1a hashes.
 */
#ifndef GPULINT_STRMAP_H
#define GPULINT_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linter/util.h"

struct gl_strmap_slot {
    const char *key; /* NULL: empty */
    size_t len;
    uint64_t hash;
    size_t value;
};

struct gl_strmap {
    struct gl_arena *arena;
    struct gl_strmap_slot *slots;
    size_t cap, n; /* cap: 0 or a power of two */
};

void gl_strmap_init(struct gl_strmap *m, struct gl_arena *a);
/* The value of key[0..len); false when absent. */
bool gl_strmap_get(const struct gl_strmap *m, const char *key, size_t len, size_t *value);
/* Insert key[0..len) -> value unless present. True when inserted; false when the key was
 * there already (*old, may be NULL, gets its value; the map is unchanged). */
bool gl_strmap_put(struct gl_strmap *m, const char *key, size_t len, size_t value,
                   size_t *old);
/* FNV-1a of s[0..n) (also for callers that hash the same way). */
uint64_t gl_hash_bytes(const char *s, size_t n);

#endif
