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

void gl_findings_order_from(struct gl_findings *f, size_t from)
{
    /* insertion sort: an input has a few findings, most in order already; a finding goes
     * before those strictly after it only, so equal ones keep the order they came in */
    for (size_t i = from + 1; i < f->n; i++) {
        if (gl_finding_cmp(&f->items[i - 1], &f->items[i]) <= 0)
            continue;
        struct gl_finding x = f->items[i];
        size_t k = i;
        while (k > from && gl_finding_cmp(&f->items[k - 1], &x) > 0) {
            f->items[k] = f->items[k - 1];
            k--;
        }
        f->items[k] = x;
    }
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
