/* SPDX-License-Identifier: Apache-2.0 */
/* image_view.c: layers + whiteouts -> the final view (see image_view.h). */
#include "parsers/image/image_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/hashmap.h"
#include "parsers/image/image_budget.h"
#include "parsers/image/image_fatbin.h"

/* What the layers above (and the current one) did at a path; -1 = nothing. Since layers
 * are visited top-down, the first layer to set a field is the highest one. */
struct mark {
    const char *key;
    size_t len;
    uint64_t hash;
    int seen, nondir, whiteout, opaque;
};

struct marks {
    struct mark *slots;
    size_t cap, n;
};

/* The hash of key[0..len) in this table: FNV-1a one byte at a time (gl_hash_step), not
 * gl_hash_bytes, so that hidden() hashes every prefix of a path in one pass. */
static uint64_t path_hash(const char *key, size_t len)
{
    uint64_t h = gl_hash_start();
    for (size_t i = 0; i < len; i++)
        h = gl_hash_step(h, key[i]);
    return h;
}

/* The mark of key[0..len) whose hash is h (path_hash). */
static struct mark *find(struct marks *m, const char *key, size_t len, uint64_t h, bool create)
{
    if (create && (m->n + 1) * 2 > m->cap) {
        struct marks g = {xcalloc(m->cap ? m->cap * 2 : 1024, sizeof *g.slots),
                          m->cap ? m->cap * 2 : 1024, 0};
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].key) {
                struct mark *s = find(&g, m->slots[i].key, m->slots[i].len,
                                      m->slots[i].hash, true);
                *s = m->slots[i];
            }
        free(m->slots);
        *m = g;
    }
    if (!m->cap)
        return NULL;
    for (size_t i = gl_hash_slot(h, m->cap);; i = (i + 1) & (m->cap - 1)) {
        struct mark *s = &m->slots[i];
        if (!s->key) {
            if (!create)
                return NULL;
            *s = (struct mark){key, len, h, -1, -1, -1, -1};
            m->n++;
            return s;
        }
        if (s->hash == h && s->len == len && !memcmp(s->key, key, len))
            return s;
    }
}

/* Is path hidden from layer `layer` by what the layers above it did? */
static bool hidden(struct marks *m, const char *path, int layer)
{
    size_t n = strlen(path);
    struct mark *self = find(m, path, n, path_hash(path, n), false);
    if (self && self->whiteout > layer)
        return true;
    uint64_t h = gl_hash_start(); /* of path[0..i) */
    struct mark *root = find(m, path, 0, h, false); /* an opaque marker at the top */
    if (root && root->opaque > layer)
        return true;
    for (size_t i = 0; i < n; h = gl_hash_step(h, path[i]), i++) {
        if (path[i] != '/')
            continue;
        struct mark *anc = find(m, path, i, h, false);
        if (anc && (anc->whiteout > layer || anc->opaque > layer || anc->nondir > layer))
            return true;
    }
    return false;
}

/* A lower layer's file hidden or replaced from above: count it, keep the largest. */
static void add_waste(struct gl_image_waste *w, const struct gl_layer_entry *e, int layer,
                      bool overwritten)
{
    if (!w || e->type != GL_FILE_REG || !e->size)
        return;
    w->bytes += e->size;
    w->files++;
    size_t k = w->ntop;
    while (k > 0 && w->top[k - 1].size < e->size)
        k--;
    if (k >= GL_IMAGE_WASTE_TOP)
        return;
    size_t last = w->ntop < GL_IMAGE_WASTE_TOP ? w->ntop : GL_IMAGE_WASTE_TOP - 1;
    memmove(&w->top[k + 1], &w->top[k], (last - k) * sizeof w->top[0]);
    struct gl_image_waste_item *it = &w->top[k];
    snprintf(it->path, sizeof it->path, "%s", e->path);
    it->size = e->size;
    it->layer = layer;
    it->overwritten = overwritten;
    if (w->ntop < GL_IMAGE_WASTE_TOP)
        w->ntop++;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const struct gl_image_file *)a)->path,
                  ((const struct gl_image_file *)b)->path);
}

size_t gl_image_view_build(struct gl_arena *a, const struct gl_layer_index *const *layers,
                           size_t nlayers, size_t max_files, struct gl_image_file **out,
                           enum gl_limit_id *stopped, size_t *charged,
                           struct gl_image_waste *waste)
{
    if (waste)
        memset(waste, 0, sizeof *waste);
    *stopped = GL_LIMIT_COUNT;
    size_t before = a->total, base = *charged;
    bool stop = false;
    size_t n = 0, cap = 0, slots = 1024;
    for (size_t li = 0; li < nlayers; li++)
        cap += layers[li]->n;
    if (cap > max_files)
        cap = max_files;
    while (slots < 2 * cap)
        slots *= 2; /* sized for the files at once: no table left behind as it grows */
    struct marks m = {xcalloc(slots, sizeof *m.slots), slots, 0};
    /* allocated once: an arena array grown by doubling would leave its old copies */
    struct gl_image_file *files = gl_arena_alloc(a, (cap ? cap : 1) * sizeof *files);
    for (size_t li = nlayers; li-- > 0 && !stop;) {
        const struct gl_layer_index *ix = layers[li];
        int L = (int)li;
        for (size_t i = ix->n; i-- > 0;) {
            const struct gl_layer_entry *e = &ix->entries[i];
            if (e->whiteout)
                continue;
            if (hidden(&m, e->path, L)) {
                add_waste(waste, e, L, false);
                continue;
            }
            size_t len = strlen(e->path);
            struct mark *s = find(&m, e->path, len, path_hash(e->path, len), true);
            if (s->seen >= 0) { /* an upper layer, or a later duplicate here, already has it */
                if (s->seen > L)
                    add_waste(waste, e, L, true);
                continue;
            }
            if (n >= max_files) {
                *stopped = GL_LIMIT_IMAGE_FILES;
                stop = true;
                break;
            }
            if (n % 256 == 0 && /* the view so far, with the table it is merged through */
                !gl_image_budget_charge(charged, base + (a->total - before) +
                                                     m.cap * sizeof *m.slots)) {
                *stopped = GL_LIMIT_IMAGE_MEMORY;
                stop = true;
                break;
            }
            s->seen = L;
            if (e->type != GL_FILE_DIR)
                s->nondir = L;
            struct gl_image_file *f = &files[n++];
            f->path = gl_arena_strdup(a, e->path);
            f->type = (enum gl_file_type)e->type;
            f->size = e->size;
            f->link = e->link ? gl_arena_strdup(a, e->link) : NULL;
            f->layer = L;
            if (e->content) {
                f->content = gl_arena_strndup(a, e->content, e->content_len);
                f->content_len = e->content_len;
            }
            f->fatbin = e->fatbin ? gl_fatbin_copy(a, e->fatbin) : NULL;
        }
        for (size_t i = 0; i < ix->n; i++) {
            const struct gl_layer_entry *e = &ix->entries[i];
            if (!e->whiteout)
                continue;
            size_t len = strlen(e->path);
            struct mark *s = find(&m, e->path, len, path_hash(e->path, len), true);
            if (e->whiteout == GL_WH_FILE && s->whiteout < 0)
                s->whiteout = L;
            if (e->whiteout == GL_WH_OPAQUE && s->opaque < 0)
                s->opaque = L;
        }
    }
    free(m.slots);
    gl_image_budget_charge(charged, base + (a->total - before)); /* the table is gone */
    if (n)
        qsort(files, n, sizeof *files, by_path);
    *out = files;
    return n;
}
