/* SPDX-License-Identifier: Apache-2.0 */
/* hashmap.c: seeded string hashing and a string-keyed map (see hashmap.h). */
#include "linter/core/hashmap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "linter/core/util.h"

#define FNV_BASIS 1469598103934665603ull

static uint64_t basis = FNV_BASIS;
static pthread_once_t seeded = PTHREAD_ONCE_INIT;

static void seed(void)
{
    uint64_t r;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
        r = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
    basis ^= r;
}

uint64_t gl_hash_start(void)
{
    pthread_once(&seeded, seed);
    return basis;
}

/* The 128-bit product of a and b folded to 64 bits (its high half xored into its low):
 * every bit of a reaches every bit of the result, which a 64-bit multiply alone does not
 * (its high bits never reach the low ones). */
static inline uint64_t fold_mul(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
    unsigned __int128 p = (unsigned __int128)a * b;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
    /* the same 128-bit product from 32-bit halves (targets without __int128) */
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    uint64_t lo = (mid << 32) | (uint32_t)ll;
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return lo ^ hi;
#endif
}

static inline uint64_t load64(const char *s)
{
    uint64_t w;
    memcpy(&w, s, sizeof w);
    return w;
}

static inline uint64_t load32(const char *s)
{
    uint32_t w;
    memcpy(&w, s, sizeof w);
    return w;
}

uint64_t gl_hash_bytes(const char *s, size_t n)
{
    /* Eight bytes a step: each word is xored into the state, which is then folded with
     * an odd constant. The length goes in first, so the overlapping loads of the tail
     * below cannot make two keys of different lengths alike; the per-process basis goes
     * in first too, so which keys collide is not known in advance. */
    const uint64_t k1 = 0x9e3779b97f4a7c15ull, k2 = 0xd6e8feb86659fd93ull;
    uint64_t h = fold_mul(gl_hash_start() ^ n, k1);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        h = fold_mul(h ^ load64(s + i), k1);
    if (i < n) { /* the last 1-7 bytes: from loads that end at the key's end */
        uint64_t t;
        if (n >= 8)
            t = load64(s + n - 8);
        else if (n >= 4)
            t = load32(s) | load32(s + n - 4) << 32;
        else
            t = (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[n / 2] << 8 |
                (unsigned char)s[n - 1];
        h = fold_mul(h ^ t, k2);
    }
    return h;
}

size_t gl_hash_slot(uint64_t h, size_t cap)
{
    /* murmur3's finalizer: every bit of h reaches the low bits that pick the slot */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

void gl_map_init(struct gl_map *m)
{
    memset(m, 0, sizeof *m);
}

void gl_map_free(struct gl_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* The slot holding key, or the empty slot where it would go. */
static struct gl_map_slot *probe(const struct gl_map *m, const char *key, size_t len,
                                 uint64_t h)
{
    for (size_t i = gl_hash_slot(h, m->cap);; i = (i + 1) & (m->cap - 1)) {
        struct gl_map_slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && s->len == len && !memcmp(s->key, key, len)))
            return s;
    }
}

static void grow(struct gl_map *m)
{
    struct gl_map g = {xcalloc(m->cap ? m->cap * 2 : 64, sizeof *g.slots),
                       m->cap ? m->cap * 2 : 64, m->n};
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            *probe(&g, m->slots[i].key, m->slots[i].len, m->slots[i].hash) = m->slots[i];
    free(m->slots);
    *m = g;
}

void *gl_map_get(const struct gl_map *m, const char *key, size_t len)
{
    if (!m->cap)
        return NULL;
    struct gl_map_slot *s = probe(m, key, len, gl_hash_bytes(key, len));
    return s->key ? s->value : NULL;
}

void **gl_map_put(struct gl_map *m, const char *key, size_t len, bool *added)
{
    if ((m->n + 1) * 2 > m->cap)
        grow(m);
    uint64_t h = gl_hash_bytes(key, len);
    struct gl_map_slot *s = probe(m, key, len, h);
    bool fresh = !s->key;
    if (fresh) {
        *s = (struct gl_map_slot){key, len, h, NULL};
        m->n++;
    }
    if (added)
        *added = fresh;
    return &s->value;
}

void *gl_map_gets(const struct gl_map *m, const char *key)
{
    return gl_map_get(m, key, strlen(key));
}

void **gl_map_puts(struct gl_map *m, const char *key, bool *added)
{
    return gl_map_put(m, key, strlen(key), added);
}
