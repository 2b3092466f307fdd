/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kb_image_rows.c: checks of the image_releases table that look past one row (kb_load.c's
 * post_image_release checks each row and calls these).
 *
 *  - no two rows of one image read one tag: equal tags, an equal release and alias (an
 *    alias row's key is its tag RELEASE-ALIAS, so a tag row written so collides with it),
 *    or overlapping ranges of nightly dates. gl_kb_image_release answers with the first
 *    row that reads a tag and relies on it.
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
    free(k);
    return ok;
}
