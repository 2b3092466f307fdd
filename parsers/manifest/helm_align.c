/* SPDX-License-Identifier: Apache-2.0 */
/* helm_align.c: rendered lines back to their template lines (see helm_align.h). */
#include "parsers/manifest/helm_align.h"

#include <string.h>

/* A line's body: the bytes after its indentation (spaces), without trailing blanks (nor
 * the line's end). */
static void body_of(const char *text, size_t start, size_t end, uint32_t *indent,
                    size_t *body, size_t *len)
{
    size_t b = start;
    while (b < end && text[b] == ' ')
        b++;
    size_t e = end;
    while (e > b && strchr(" \t\r\n", text[e - 1]))
        e--;
    *indent = (uint32_t)(b - start);
    *body = b;
    *len = e - b;
}

/* The lines with one body, in order. */
struct same_body {
    uint32_t *idx;
    size_t n, cap;
};

/* Does the literal prefix of l say something (MIN_LITERAL bytes, a letter or digit)? */
static bool telling_prefix(const char *text, const struct helm_tmpl_line *l)
{
    if (l->lit < MIN_LITERAL || l->lit == l->len)
        return false;
    for (uint32_t k = 0; k < l->lit; k++) {
        char c = text[l->body + k];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
            return true;
    }
    return false;
}

void helm_tmpl_init(struct helm_tmpl *t, struct gl_arena *a, const char *text, size_t len)
{
    memset(t, 0, sizeof *t);
    t->text = text;
    gl_map_init(&t->exact);
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    t->lines = gl_arena_alloc(a, n * sizeof *t->lines);
    if (!t->lines)
        return;
    for (size_t start = 0; start <= len && t->n < n;) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t j = t->n++;
        struct helm_tmpl_line *l = &t->lines[j];
        size_t body, blen;
        body_of(text, start, end, &l->indent, &body, &blen);
        l->body = (uint32_t)body;
        l->len = (uint32_t)blen;
        const char *open = blen >= 2 ? memmem(text + body, blen, "{{", 2) : NULL;
        l->lit = open ? (uint32_t)(open - (text + body)) : (uint32_t)blen;
        if (blen && l->lit == l->len) { /* no expression: found by its text */
            bool added;
            void **slot = gl_map_put(&t->exact, text + body, blen, &added);
            if (added)
                *slot = gl_arena_alloc(a, sizeof(struct same_body));
            struct same_body *sb = *slot;
            if (sb)
                *GL_APPEND(a, sb->idx, sb->n, sb->cap) = (uint32_t)j;
        } else if (telling_prefix(text, l)) {
            *GL_APPEND(a, t->prefixed, t->nprefixed, t->capprefixed) = (uint32_t)j;
        }
        start = end + 1;
    }
    t->budget = ALIGN_WORK * t->n;
}

void helm_tmpl_free(struct helm_tmpl *t) { gl_map_free(&t->exact); }

/* The first of idx[0..n) (increasing) at or after `from`, else the first: a circular
 * search. */
static uint32_t first_from(const uint32_t *idx, size_t n, size_t from)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (idx[mid] < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return idx[lo < n ? lo : 0];
}

/* How far line j is from the cursor, going forward and round. */
static size_t distance(const struct helm_tmpl *t, size_t j)
{
    return (j + t->n - t->cursor) % t->n;
}

enum match { NONE, EXACT, PREFIX };

/* The template line rendered line r[0..rlen) came from: the nearest from t->cursor on
 * (then from the top) that has its text, or a literal prefix of it; SIZE_MAX when none
 * (or when the budget for prefix searches is spent). */
static size_t find(struct helm_tmpl *t, const char *r, size_t rlen, enum match *how)
{
    if (!rlen || !t->n)
        return SIZE_MAX;
    size_t best = SIZE_MAX;
    *how = NONE;
    struct same_body *sb = gl_map_get(&t->exact, r, rlen);
    if (sb && sb->n) {
        best = first_from(sb->idx, sb->n, t->cursor);
        *how = EXACT;
    }
    if (!t->nprefixed)
        return best;
    /* the prefixed lines before `best`, nearest first */
    size_t k0 = 0, lo = 0, hi = t->nprefixed;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->prefixed[mid] < t->cursor)
            lo = mid + 1;
        else
            hi = mid;
    }
    k0 = lo;
    for (size_t k = 0; k < t->nprefixed && t->budget; k++, t->budget--) {
        size_t j = t->prefixed[(k0 + k) % t->nprefixed];
        if (best != SIZE_MAX && distance(t, j) >= distance(t, best))
            break;
        const struct helm_tmpl_line *l = &t->lines[j];
        if (rlen >= l->lit && !memcmp(t->text + l->body, r, l->lit)) {
            *how = PREFIX;
            return j;
        }
    }
    return best;
}

void helm_align(struct helm_tmpl *t, const char *text, size_t text_len, const uint32_t *starts,
                size_t nstarts, size_t first, size_t end, uint32_t file,
                struct gl_render_line *out)
{
    size_t first_match = SIZE_MAX;
    t->budget += ALIGN_WORK * (end - first);
    for (size_t i = first; i < end && i < nstarts; i++) {
        size_t stop = i + 1 < nstarts ? starts[i + 1] - 1 : text_len;
        uint32_t ri;
        size_t rb, rlen;
        body_of(text, starts[i], stop, &ri, &rb, &rlen);
        enum match how = NONE;
        size_t j = find(t, text + rb, rlen, &how);
        struct gl_render_line *o = &out[i];
        *o = (struct gl_render_line){.file = file};
        if (j == SIZE_MAX)
            continue; /* line 0: filled in below */
        const struct helm_tmpl_line *l = &t->lines[j];
        o->line = (uint32_t)j + 1;
        o->shift = (int32_t)l->indent - (int32_t)ri;
        o->exact_cols = ri + (how == EXACT ? (uint32_t)rlen : l->lit);
        o->rest_col = l->indent + (how == EXACT ? 0 : l->lit) + 1;
        t->cursor = j + 1 < t->n ? j + 1 : 0;
        if (first_match == SIZE_MAX)
            first_match = j;
    }
    /* the resource's first line in the template, for the lines found nowhere there */
    uint32_t line = first_match == SIZE_MAX ? 1 : (uint32_t)first_match + 1;
    uint32_t col = first_match == SIZE_MAX ? 1 : t->lines[first_match].indent + 1;
    for (size_t i = first; i < end && i < nstarts; i++)
        if (!out[i].line) {
            out[i].line = line;
            out[i].rest_col = col;
        }
}
