/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kb_image_rows.c: checks of the image_releases table that look past one row (kb_load.c's
 * post_image_release checks each row and calls these).
 *
 *  - no two rows of one image read one tag: equal tags, an equal release and alias (an
 *    alias row's key is its tag RELEASE-ALIAS, so a tag row written so collides with it),
 *    or overlapping ranges of nightly dates. gl_kb_image_release answers with the first
 *    row that reads a tag and relies on it;
 *  - an alias row agrees with the tag rows of its release (RELEASE, RELEASE-...): a tag it
 *    also reads (RELEASE-py310-ALIAS, RELEASE-ALIAS-aarch64) gives its CUDA, and when the
 *    release has tag rows, the alias stands for one of those images (Ray's -gpu for one
 *    -cuXYZ), so its CUDA is one of theirs. CUDA versions agree in as many fields as both
 *    give.
 *
 * The table is sorted once (by image, then key), so a file of many rows costs n log n.
 */
#include "knowledge/kb_schema.h"

#include <stdlib.h>
#include <string.h>

struct row_key {
    const struct gl_kb_image_release *r;
    const char *key; /* the tag the row reads (an alias row: RELEASE-ALIAS); NULL: dated */
    size_t idx;      /* in the file */
};

/* By image, then tagged rows before dated ones, then tag or first date, then file order. */
static int key_cmp(const void *pa, const void *pb)
{
    const struct row_key *a = pa, *b = pb;
    int c = strcmp(a->r->image, b->r->image);
    if (!c)
        c = (a->key == NULL) - (b->key == NULL);
    if (!c)
        c = a->key ? strcmp(a->key, b->key) : strcmp(a->r->dated_from, b->r->dated_from);
    if (!c)
        c = (a->idx > b->idx) - (a->idx < b->idx);
    return c;
}

static unsigned fields_of(const char *v)
{
    unsigned n = 1;
    for (; *v; v++)
        n += *v == '.';
    return n;
}

/* Do two CUDA versions agree in as many fields as both give (11.8 and 11.8.0)? */
static bool same_cuda(const char *a, const char *b)
{
    unsigned fa = fields_of(a), fb = fields_of(b);
    int cmp = 0;
    return gl_version_compare(a, b, fa < fb ? fa : fb, &cmp) && cmp == 0;
}

/* The first of the sorted rows k[0..n) of `image` whose key is at least `key` (tag rows and
 * alias rows, which sort before dated ones). */
static size_t first_key(const struct row_key *k, size_t n, const char *image, const char *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(k[mid].r->image, image);
        if (!c)
            c = k[mid].key ? strcmp(k[mid].key, key) : 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Does tag row t read as alias row a's tag (RELEASE[-pyNNN]-ALIAS[-aarch64])? */
static bool alias_reads(const struct gl_kb_image_release *a, const char *tag)
{
    size_t rel = 0, at = 0, len = 0;
    return gl_kb_alias_tag(tag, &rel, &at, &len) && rel == strlen(a->release) &&
           len == strlen(a->alias) && !memcmp(tag + at, a->alias, len);
}

/* Alias row a against the tag rows of its release; the keys sharing the prefix RELEASE are
 * neighbours in the sorted k. */
static bool alias_agrees(struct kb_loader *ld, struct yt_node *table, const struct row_key *k,
                         size_t n, const struct row_key *a)
{
    const struct gl_kb_image_release *ar = a->r;
    size_t rl = strlen(ar->release);
    bool tagged = false, matched = false;
    const char *other = NULL;
    for (size_t i = first_key(k, n, ar->image, ar->release); i < n; i++) {
        const struct gl_kb_image_release *t = k[i].r;
        if (strcmp(t->image, ar->image) || !k[i].key || strncmp(k[i].key, ar->release, rl))
            break;
        if (!t->tag || (t->tag[rl] && t->tag[rl] != '-'))
            continue; /* an alias row, or another release (2.9.0.post1) */
        bool same = same_cuda(t->cuda, ar->cuda);
        if (!same && alias_reads(ar, t->tag))
            return kb_yaml_fail(&ld->y, kb_yaml_get(kb_yaml_seq_item(table, k[i].idx), "cuda"),
                                "cuda: %s, but the alias row %s-%s of %.80s reads this tag "
                                "with CUDA %s", t->cuda, ar->release, ar->alias, ar->image,
                                ar->cuda);
        tagged = true;
        matched |= same;
        other = same ? other : t->cuda;
    }
    if (tagged && !matched)
        return kb_yaml_fail(&ld->y, kb_yaml_get(kb_yaml_seq_item(table, a->idx), "cuda"),
                            "cuda: %s, but no tag row of %.80s %s gives it (one gives %s): "
                            "the alias %s stands for one of them", ar->cuda, ar->image,
                            ar->release, other, ar->alias);
    return true;
}

bool kb_image_releases_check(struct kb_loader *ld, struct yt_node *table,
                             const struct gl_kb_image_release *rows, size_t n)
{
    struct row_key *k = xcalloc(n ? n : 1, sizeof *k);
    for (size_t i = 0; i < n; i++) {
        const struct gl_kb_image_release *r = &rows[i];
        k[i].r = r;
        k[i].idx = i;
        k[i].key = r->tag ? r->tag
                   : r->alias ? gl_arena_printf(ld->arena, "%s-%s", r->release, r->alias)
                              : NULL;
    }
    qsort(k, n, sizeof *k, key_cmp);
    bool ok = true;
    for (size_t i = 1; ok && i < n; i++) {
        const struct row_key *a = &k[i - 1], *b = &k[i];
        if (strcmp(a->r->image, b->r->image) || !a->key != !b->key)
            continue;
        /* sorted by key: two rows that read one tag, or two ranges that overlap, are
         * neighbours (of ranges sorted by start, any that overlap include a pair of
         * neighbours that do) */
        const struct row_key *later = a->idx > b->idx ? a : b;
        struct yt_node *node = kb_yaml_seq_item(table, later->idx);
        if (a->key && !strcmp(a->key, b->key))
            ok = kb_yaml_fail(&ld->y, node, "%.80s:%.80s: another row of the image gives "
                              "this tag", b->r->image, b->key);
        else if (!a->key && strcmp(b->r->dated_from, a->r->dated_until) <= 0)
            ok = kb_yaml_fail(&ld->y, kb_yaml_get(node, "dated_from"),
                              "%.80s: dates %s..%s overlap another row's %s..%s", b->r->image,
                              later->r->dated_from, later->r->dated_until,
                              (later == a ? b : a)->r->dated_from,
                              (later == a ? b : a)->r->dated_until);
    }
    for (size_t i = 0; ok && i < n; i++)
        if (k[i].r->alias)
            ok = alias_agrees(ld, table, k, n, &k[i]);
    free(k);
    return ok;
}
