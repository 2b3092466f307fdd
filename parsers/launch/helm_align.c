/* helm_align.c: rendered lines back to their template lines (see helm_align.h). */
#include "parsers/launch/helm_align.h"

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

void helm_tmpl_init(struct helm_tmpl *t, struct gl_arena *a, const char *text, size_t len)
{
    memset(t, 0, sizeof *t);
    t->text = text;
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    t->lines = gl_arena_alloc(a, n * sizeof *t->lines);
    if (!t->lines)
        return;
    for (size_t start = 0; start <= len && t->n < n;) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - text) : len;
        struct helm_tmpl_line *l = &t->lines[t->n++];
        size_t body, blen;
        body_of(text, start, end, &l->indent, &body, &blen);
        l->body = (uint32_t)body;
        l->len = (uint32_t)blen;
        const char *open = blen >= 2 ? memmem(text + body, blen, "{{", 2) : NULL;
        l->lit = open ? (uint32_t)(open - (text + body)) : (uint32_t)blen;
        start = end + 1;
    }
}

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

enum match { NONE, EXACT, PREFIX };

static enum match match_line(const struct helm_tmpl *t, size_t j, const char *r, size_t rlen)
{
    const struct helm_tmpl_line *l = &t->lines[j];
    const char *b = t->text + l->body;
    if (!rlen || b[0] != r[0])
        return NONE;
    if (l->lit == l->len)
        return l->len == rlen && !memcmp(b, r, rlen) ? EXACT : NONE;
    if (rlen >= l->lit && telling_prefix(t->text, l) && !memcmp(b, r, l->lit))
        return PREFIX;
    return NONE;
}

/* The template line rendered line r[0..rlen) came from, searching from t->cursor on,
 * then from the top; SIZE_MAX when none. */
static size_t find(const struct helm_tmpl *t, const char *r, size_t rlen, enum match *how)
{
    for (size_t k = 0; k < t->n; k++) {
        size_t j = (t->cursor + k) % t->n;
        if ((*how = match_line(t, j, r, rlen)) != NONE)
            return j;
    }
    return SIZE_MAX;
}

void helm_align(struct helm_tmpl *t, const char *text, size_t text_len, const uint32_t *starts,
                size_t nstarts, size_t first, size_t end, uint32_t file,
                struct gl_render_line *out)
{
    size_t first_match = SIZE_MAX;
    for (size_t i = first; i < end && i < nstarts; i++) {
        size_t stop = i + 1 < nstarts ? starts[i + 1] - 1 : text_len;
        uint32_t ri;
        size_t rb, rlen;
        body_of(text, starts[i], stop, &ri, &rb, &rlen);
        enum match how = NONE;
        size_t j = t->n ? find(t, text + rb, rlen, &how) : SIZE_MAX;
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
