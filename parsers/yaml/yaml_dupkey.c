/* SPDX-License-Identifier: Apache-2.0 */
/*
 * yaml_dupkey.c: a key given twice in one mapping (see yt_duplicate_key in yaml_tree.h),
 * and the GL900 of the formats whose tools reject it (yt_fail_duplicate_key).
 *
 * Each mapping's scalar keys are sorted (by bytes, then by position), so a mapping of n
 * keys costs O(n log n) whatever its keys (a small one compares each pair, with the same
 * answer); aliases are not followed (a merged mapping's
 * keys may be overridden: that is what `<<` is for) and `<<` itself is left out.
 */
#include <stdlib.h>
#include <string.h>

#include "parsers/yaml/yaml_tree.h"

/* Mappings of at most this many keys compare each pair (fewer steps than a sort). */
#define FEW_KEYS 12

struct dup_ctx {
    struct yt_node *dup, *first;
    struct yt_node **keys;
    size_t cap;
};

static int by_bytes(const void *x, const void *y)
{
    const struct yt_node *a = *(struct yt_node *const *)x, *b = *(struct yt_node *const *)y;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->value, b->value, n);
    if (c)
        return c;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return a->start < b->start ? -1 : a->start > b->start;
}

static bool visit(struct yt_node *n, void *ctx)
{
    struct dup_ctx *d = ctx;
    if (n->kind != YT_MAP || n->npairs < 2)
        return true;
    if (d->cap < n->npairs) {
        d->cap = n->npairs;
        d->keys = xrealloc(d->keys, d->cap * sizeof *d->keys);
    }
    size_t k = 0;
    for (size_t i = 0; i < n->npairs; i++) {
        struct yt_node *key = n->pairs[i].key;
        if (key && key->kind == YT_SCALAR && !(key->style == YT_PLAIN && key->len == 2 &&
                                               !memcmp(key->value, "<<", 2)))
            d->keys[k++] = key;
    }
    if (k <= FEW_KEYS) {
        /* each key against those before it: the first key that repeats one is this
         * mapping's earliest duplicate, and the key it repeats occurs once before it (an
         * earlier second occurrence would have come first) */
        for (size_t j = 1; j < k; j++)
            for (size_t i = 0; i < j; i++) {
                struct yt_node *a = d->keys[i], *b = d->keys[j];
                if (a->len == b->len && !memcmp(a->value, b->value, a->len)) {
                    if (!d->dup || b->start < d->dup->start) {
                        d->dup = b;
                        d->first = a;
                    }
                    return true;
                }
            }
        return true;
    }
    qsort(d->keys, k, sizeof *d->keys, by_bytes);
    for (size_t i = 1; i < k; i++) {
        struct yt_node *a = d->keys[i - 1], *b = d->keys[i];
        if (a->len == b->len && !memcmp(a->value, b->value, a->len) &&
            (!d->dup || b->start < d->dup->start)) {
            d->dup = b;
            d->first = a;
        }
    }
    return true;
}

struct yt_node *yt_duplicate_key(const struct yt_stream *s, struct yt_node **first)
{
    struct dup_ctx d = {0};
    for (size_t i = 0; i < s->ndocs; i++)
        if (s->docs[i])
            yt_walk(s, s->docs[i], visit, &d);
    free(d.keys);
    if (first)
        *first = d.first;
    return d.dup;
}

void yt_fail_duplicate_key(struct gl_doc *doc, const struct yt_stream *s, const char *rejects)
{
    struct yt_node *first = NULL;
    struct yt_node *dup = yt_duplicate_key(s, &first);
    if (!dup || doc->error.set)
        return;
    /* the first bad byte: a syntax error before the key (the tree stops there) wins */
    if (s->error && (s->error_loc.line < dup->loc.line ||
                     (s->error_loc.line == dup->loc.line && s->error_loc.col < dup->loc.col)))
        return;
    doc->error.set = true;
    doc->error.loc = dup->loc;
    doc->error.message = gl_arena_printf(&doc->arena,
                                         "the key `%.*s` is given twice in one mapping (first "
                                         "on line %u): %s",
                                         (int)(dup->len > 80 ? 80 : dup->len), dup->value,
                                         (unsigned)first->loc.line, rejects);
    doc->error.fix = "remove one of the two keys, or merge their values";
}
