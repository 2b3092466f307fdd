/* SPDX-License-Identifier: Apache-2.0 */
/* finding.c: the findings list (see finding.h). */
#include "linter/core/finding.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/rule.h"

static const char *const severity_names[] = {"style", "info", "warning", "error", "none"};

const char *gl_severity_name(enum gl_severity s)
{
    return s <= GL_SEV_NONE ? severity_names[s] : "?";
}

int gl_severity_parse(const char *s, enum gl_severity *out)
{
    for (int i = 0; i <= GL_SEV_NONE; i++)
        if (gl_streq_nocase(s, severity_names[i])) {
            *out = (enum gl_severity)i;
            return 0;
        }
    return -1;
}

const char *gl_finding_short_layer(const char *digest, char *buf, size_t len)
{
    if (!digest)
        return "?";
    const char *colon = strchr(digest, ':');
    if (colon && strlen(colon + 1) > 12)
        snprintf(buf, len, "%.*s%.12s", (int)(colon - digest + 1), digest, colon + 1);
    else
        snprintf(buf, len, "%s", digest);
    return buf;
}

static void finding_free(struct gl_finding *x)
{
    free(x->file);
    if (!x->packed) { /* (packed: message and fix are in file's block) */
        free(x->message);
        free(x->fix);
    }
    free(x->platform);
    free(x->layer);
    free(x->image_path);
    free(x->image);
    free(x->arg);
}

void gl_finding_set_file(struct gl_finding *f, const char *file)
{
    char *copy = xstrdup(file);
    if (f->packed) {
        f->message = xstrdup(f->message);
        f->fix = xstrdup(f->fix);
        f->packed = false;
    }
    free(f->file);
    f->file = copy;
}

void gl_findings_free(struct gl_findings *f)
{
    for (size_t i = 0; i < f->n; i++)
        finding_free(&f->items[i]);
    free(f->items);
    f->items = NULL;
    f->n = f->cap = 0;
}

struct gl_finding *gl_findings_add(struct gl_findings *f)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 64;
        f->items = xrealloc(f->items, f->cap * sizeof *f->items);
    }
    struct gl_finding *x = &f->items[f->n++];
    memset(x, 0, sizeof *x);
    return x;
}

void gl_findings_filter(struct gl_findings *f, size_t from,
                        bool (*keep)(const struct gl_finding *, void *), void *ctx)
{
    size_t w = from;
    for (size_t r = from; r < f->n; r++) {
        if (keep(&f->items[r], ctx))
            f->items[w++] = f->items[r];
        else
            finding_free(&f->items[r]);
    }
    f->n = w;
}

static int cmp_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

int gl_finding_cmp(const struct gl_finding *a, const struct gl_finding *b)
{
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    if (a->loc.line != b->loc.line)
        return a->loc.line < b->loc.line ? -1 : 1;
    if (a->loc.col != b->loc.col)
        return a->loc.col < b->loc.col ? -1 : 1;
    if ((c = strcmp(a->rule->id, b->rule->id)))
        return c;
    if ((c = cmp_str(a->platform, b->platform)))
        return c;
    if ((c = cmp_str(a->image_path, b->image_path)))
        return c;
    return strcmp(a->message, b->message);
}

bool gl_finding_repeats(const struct gl_finding *a, const struct gl_finding *b)
{
    return !gl_finding_cmp(a, b) && !cmp_str(a->fix, b->fix);
}

static int finding_cmp(const void *pa, const void *pb)
{
    return gl_finding_cmp(pa, pb);
}

/* Insertion sort of a[lo, hi) (stable: a finding goes before those strictly after it). */
static void insertion_sort(struct gl_finding *a, size_t lo, size_t hi)
{
    for (size_t i = lo + 1; i < hi; i++) {
        if (gl_finding_cmp(&a[i - 1], &a[i]) <= 0)
            continue;
        struct gl_finding x = a[i];
        size_t k = i;
        while (k > lo && gl_finding_cmp(&a[k - 1], &x) > 0) {
            a[k] = a[k - 1];
            k--;
        }
        a[k] = x;
    }
}

/* Merge the sorted a[lo, mid) and a[mid, hi), the left one copied to tmp first (stable:
 * on a tie the left one's finding first). A write never passes the right one's next read. */
static void merge_runs(struct gl_finding *a, struct gl_finding *tmp, size_t lo, size_t mid,
                       size_t hi)
{
    if (gl_finding_cmp(&a[mid - 1], &a[mid]) <= 0)
        return; /* in order already (most merges of findings made in order) */
    memcpy(tmp, a + lo, (mid - lo) * sizeof *a);
    size_t i = 0, j = mid, k = lo, nl = mid - lo;
    while (i < nl && j < hi)
        a[k++] = gl_finding_cmp(&a[j], &tmp[i]) < 0 ? a[j++] : tmp[i++];
    while (i < nl)
        a[k++] = tmp[i++];
}

/* Runs of this many findings are put in order by insertion, then merged. */
#define ORDER_RUN 16

void gl_findings_order_from(struct gl_findings *f, size_t from)
{
    /* an input has a few findings, most in order already: then only this look. Else a
     * stable merge sort: the rules report one after the other, each in the order of the
     * text, so a doc's findings are as many sorted runs as rules that fired, and an
     * insertion sort of them alone would take time quadratic in their number */
    if (from >= f->n || gl_findings_in_order(f, from))
        return;
    struct gl_finding *a = f->items + from;
    size_t n = f->n - from;
    for (size_t lo = 0; lo < n; lo += ORDER_RUN)
        insertion_sort(a, lo, lo + ORDER_RUN < n ? lo + ORDER_RUN : n);
    if (n <= ORDER_RUN)
        return;
    struct gl_finding *tmp = xmalloc(n * sizeof *tmp);
    for (size_t w = ORDER_RUN; w < n; w *= 2)
        for (size_t lo = 0; lo + w < n; lo += 2 * w)
            merge_runs(a, tmp, lo, lo + w, lo + 2 * w < n ? lo + 2 * w : n);
    free(tmp);
}

bool gl_findings_in_order(const struct gl_findings *f, size_t from)
{
    for (size_t i = from + 1; i < f->n; i++)
        if (gl_finding_cmp(&f->items[i - 1], &f->items[i]) > 0)
            return false;
    return true;
}

void gl_findings_sort(struct gl_findings *f)
{
    if (f->n < 2)
        return;
    /* (a list in order already is left as it is, as a stable sort leaves it) */
    if (!gl_findings_in_order(f, 0))
        qsort(f->items, f->n, sizeof *f->items, finding_cmp);
    /* the same finding twice (one fact reached two ways: a compose service and the
       service that extends it in the same file) is reported once */
    size_t w = 1;
    for (size_t r = 1; r < f->n; r++) {
        if (gl_finding_repeats(&f->items[w - 1], &f->items[r]))
            finding_free(&f->items[r]);
        else
            f->items[w++] = f->items[r];
    }
    f->n = w;
}
