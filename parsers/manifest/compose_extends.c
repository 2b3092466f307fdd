/* SPDX-License-Identifier: Apache-2.0 */
/* compose_extends.c: a compose service's layers, `extends` followed (see compose_extends.h). */
#include "parsers/manifest/compose_extends.h"

#include <stdlib.h>
#include <string.h>

#include "linter/core/limits.h"
#include "parsers/manifest/compose_env.h"

void cz_project_init(struct cz_project *p, struct gl_doc *doc, struct yt_stream *s)
{
    memset(p, 0, sizeof *p);
    p->doc = doc;
    p->s = s;
    gl_map_init(&p->files);
}

void cz_project_free(struct cz_project *p) { gl_map_free(&p->files); }

size_t cz_service_layers(struct yt_stream *s, const char *name, size_t len,
                         struct cz_layer *out, size_t max)
{
    size_t n = 0;
    for (size_t d = s->ndocs; d-- > 0 && n < max;) {
        struct yt_node *root = s->docs[d];
        if (!root || !root->complete)
            continue;
        /* (a lookup, not a scan of the pairs: it runs for each service and each hop of
           its `extends`, and a big mapping's keys are hashed; a key given twice is GL900,
           the first counts) */
        struct yt_node *svc = yt_get_n(s, yt_get(s, root, "services", NULL), name, len, NULL);
        if (yt_is_map(svc))
            out[n++] = (struct cz_layer){s, svc, false, {0, 0}};
    }
    return n;
}

/* The stream of another file (loaded once); NULL when it cannot be read or parsed. */
static struct yt_stream *load_file(struct cz_project *p, const char *name)
{
    size_t len = 0;
    bool over = false;
    uint64_t limit = gl_limit(GL_LIMIT_INPUT_SIZE);
    size_t left = p->bytes < limit ? (size_t)(limit - p->bytes) : 0;
    const char *path = cz_path_beside(p->doc, name);
    void **slot = gl_map_puts(&p->files, path, NULL);
    if (*slot) {
        struct yt_stream *s = *slot;
        return s->ndocs ? s : NULL;
    }
    struct yt_stream *s = gl_arena_alloc(&p->doc->arena, sizeof *s);
    memset(s, 0, sizeof *s);
    *slot = s;
    char *t = left ? cz_read_beside(p->doc, name, left, &len, &over) : NULL;
    if (!t)
        return NULL;
    p->bytes += len;
    if (over) {
        free(t);
        return NULL;
    }
    char *copy = gl_arena_strndup(&p->doc->arena, t, len);
    free(t);
    struct yt_stream tmp;
    if (yt_load(&tmp, &p->doc->arena, copy, len) || tmp.alias_exceeded)
        return NULL; /* s stays empty: not tried again */
    *s = tmp;
    return s;
}

/* The first `extends` among layers[from..n), and the layer holding it. */
static struct yt_node *find_extends(struct cz_layer *l, size_t from, size_t n, size_t *at,
                                    struct yt_node **key)
{
    for (size_t i = from; i < n; i++) {
        struct yt_node *e = yt_get(l[i].s, l[i].svc, "extends", key);
        if (e) {
            *at = i;
            return e;
        }
    }
    return NULL;
}

/* Does out[from..n) repeat a service of out[0..from) (a cycle)? */
static bool repeats(const struct cz_layer *out, size_t from, size_t n)
{
    for (size_t i = from; i < n; i++)
        for (size_t k = 0; k < from; k++)
            if (out[i].svc == out[k].svc)
                return true;
    return false;
}

size_t cz_extends(struct cz_project *p, struct cz_layer *out, size_t n, bool *partial)
{
    size_t own = n, from = 0;
    for (int hop = 0;; hop++) {
        size_t at = 0;
        struct yt_node *key = NULL;
        struct yt_node *e = find_extends(out, from, n, &at, &key);
        if (!e)
            return n;
        struct yt_stream *s = out[at].s;
        struct yt_node *svc = yt_is_map(e) ? yt_get(s, e, "service", NULL) : e;
        struct yt_node *file = yt_is_map(e) ? yt_get(s, e, "file", NULL) : NULL;
        struct yt_stream *bs = s;
        if (hop >= CZ_MAX_HOPS) { /* too deep: nothing inherited is trusted */
            *partial = true;
            return own;
        }
        if (!yt_is_scalar(svc) || (file && !yt_is_scalar(file)) ||
            memchr(svc->value, '$', svc->len) ||
            (file && (memchr(file->value, '$', file->len) || !file->len))) {
            *partial = true;
            return n;
        }
        if (file && !(bs = load_file(p, file->value))) {
            *partial = true;
            return n;
        }
        size_t got = cz_service_layers(bs, svc->value, svc->len, out + n, CZ_MAX_LAYERS - n);
        if (!got) {
            *partial = true;
            return n;
        }
        bool foreign = out[at].foreign || bs != p->s;
        struct gl_loc pin = out[at].foreign ? out[at].pin : key->loc;
        for (size_t i = n; i < n + got; i++) {
            out[i].foreign = foreign;
            out[i].pin = pin;
        }
        if (repeats(out, n, n + got)) { /* a cycle: compose rejects it */
            *partial = true;
            return own;
        }
        from = n;
        n += got;
    }
}
