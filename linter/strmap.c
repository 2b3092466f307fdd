/* strmap.c: a hash map from byte strings to indexes (see strmap.h). */
#include "linter/strmap.h"

#include <string.h>

uint64_t gl_hash_bytes(const char *s, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

void gl_strmap_init(struct gl_strmap *m, struct gl_arena *a)
{
    memset(m, 0, sizeof *m);
    m->arena = a;
}

/* The slot holding key, or the empty slot where it would go (cap > 0). */
static struct gl_strmap_slot *probe(const struct gl_strmap *m, const char *key, size_t len,
                                    uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        struct gl_strmap_slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && s->len == len && !memcmp(s->key, key, len)))
            return s;
    }
}

static void grow(struct gl_strmap *m)
{
    struct gl_strmap_slot *old = m->slots;
    size_t oldcap = m->cap;
    m->cap = oldcap ? oldcap * 2 : 16;
    m->slots = gl_arena_alloc(m->arena, m->cap * sizeof *m->slots);
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].key)
            *probe(m, old[i].key, old[i].len, old[i].hash) = old[i];
}

bool gl_strmap_get(const struct gl_strmap *m, const char *key, size_t len, size_t *value)
{
    if (!m->cap)
        return false;
    const struct gl_strmap_slot *s = probe(m, key, len, gl_hash_bytes(key, len));
    if (!s->key)
        return false;
    *value = s->value;
    return true;
}

bool gl_strmap_put(struct gl_strmap *m, const char *key, size_t len, size_t value,
                   size_t *old)
{
    if ((m->n + 1) * 4 > m->cap * 3) /* at most 3/4 full: probes stay short */
        grow(m);
    uint64_t h = gl_hash_bytes(key, len);
    struct gl_strmap_slot *s = probe(m, key, len, h);
    if (s->key) {
        if (old)
            *old = s->value;
        return false;
    }
    *s = (struct gl_strmap_slot){key, len, h, value};
    m->n++;
    return true;
}
