/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hashmap.h: the string-keyed hash map every reader uses, and the hash behind it.
 *
 * Inputs name things many times (a manifest digest in an index, a blob in a manifest, a
 * tag, an env setting on every platform, a build stage in every `COPY --from`): every
 * "have I seen this name" question goes through a map, so that reading an input stays
 * linear in its size (a linear scan of earlier names made 10^5 build stages quadratic).
 * Keys are not copied (they must outlive the map: arena strings); values are pointers.
 * The slots live on the heap and double as the map fills (load <= 1/2).
 *
 * gl_hash_bytes reads a key eight bytes a step (each word folded into the state by a
 * 128-bit multiply), started from a per-process random basis, and its result is mixed by
 * a finalizer before its bits pick a slot: a hostile archive cannot be prepared with
 * names that all land in one probe chain. gl_hash_start/gl_hash_step are another hash,
 * FNV-1a from the same basis, one byte at a time, so that every prefix of a path is
 * hashed in one pass (image_view.c); the two never hash keys of the same table.
 * Iteration order is never observable: nothing walks the slots to produce output.
 */
#ifndef GPULINT_HASHMAP_H
#define GPULINT_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint64_t gl_hash_start(void);
static inline uint64_t gl_hash_step(uint64_t h, char c)
{
    return (h ^ (unsigned char)c) * 1099511628211ull;
}
uint64_t gl_hash_bytes(const char *s, size_t n);
/* The slot index of hash h in a table of cap slots (cap a power of two). */
size_t gl_hash_slot(uint64_t h, size_t cap);

struct gl_map_slot {
    const char *key;
    size_t len;
    uint64_t hash;
    void *value;
};

struct gl_map {
    struct gl_map_slot *slots;
    size_t cap, n;
};

void gl_map_init(struct gl_map *m);
void gl_map_free(struct gl_map *m);
/* The value stored under key[0..len), or NULL. */
void *gl_map_get(const struct gl_map *m, const char *key, size_t len);
/* The value slot of key[0..len), created (value NULL) when absent; *added tells which
 * (added may be NULL). The pointer is valid until the next insertion. */
void **gl_map_put(struct gl_map *m, const char *key, size_t len, bool *added);
/* The same for a NUL-terminated key. */
void *gl_map_gets(const struct gl_map *m, const char *key);
void **gl_map_puts(struct gl_map *m, const char *key, bool *added);

#endif
