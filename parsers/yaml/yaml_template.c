/* SPDX-License-Identifier: Apache-2.0 */
/* yaml_template.c: template expressions in YAML text (see yaml_template.h). */
#include "parsers/yaml/yaml_template.h"

#include <string.h>

/* Is text[i] on a line whose first non-blank byte is `#` (a YAML comment line)? The
 * caller passes the offset where i's line starts. */
static bool comment_line(const char *text, size_t line_start, size_t i)
{
    size_t k = line_start;
    while (k < i && (text[k] == ' ' || text[k] == '\t'))
        k++;
    return k < i && text[k] == '#';
}

/* Where the next close of each kind ("}}", "%}", "#}") is: close_at[k] is the first one
 * at or after close_from[k] (len when none), so that the text is searched once for each
 * kind however many openings lack a close. */
struct closes {
    size_t close_from[3], close_at[3];
};

/* The close of an expression opened at text[i] ("{{", "{%", "{#"): the offset after it,
 * or 0 when there is none within TEMPLATE_SPAN_MAX bytes. */
static size_t close_of(struct closes *cl, const char *text, size_t len, size_t i)
{
    char want = text[i + 1] == '{' ? '}' : text[i + 1];
    int k = want == '}' ? 0 : want == '%' ? 1 : 2;
    size_t q = i + 2;
    if (q < cl->close_from[k] || cl->close_at[k] < q) {
        size_t at = q;
        while (at + 1 < len && !(text[at] == want && text[at + 1] == '}'))
            at++;
        cl->close_from[k] = q;
        cl->close_at[k] = at + 1 < len ? at : len;
    }
    size_t at = cl->close_at[k];
    return at < len && at + 2 - i <= TEMPLATE_SPAN_MAX ? at + 2 : 0;
}

/* A scan position: the offset and the start of its line (so that each byte is looked
 * at once, however many expressions a line holds). */
struct cursor {
    struct closes cl;
    size_t at, line_start;
    size_t expr_line_start; /* where the line of the last expression found starts */
};

/* The next expression starting at or after c->at and before `before`: true with
 * [*start, *end), and the cursor moved past it. */
static bool next_expr(const char *text, size_t len, struct cursor *c, size_t before,
                      size_t *start, size_t *end)
{
    for (size_t i = c->at; i + 1 < len && i < before; i++) {
        if (text[i] == '\n') {
            c->line_start = i + 1;
            continue;
        }
        if (text[i] != '{' || (text[i + 1] != '{' && text[i + 1] != '%' && text[i + 1] != '#'))
            continue;
        if (i > 0 && text[i - 1] == '$')
            continue; /* GitHub Actions' ${{ ... }} */
        if (comment_line(text, c->line_start, i))
            continue;
        size_t e = close_of(&c->cl, text, len, i);
        if (!e)
            continue;
        c->expr_line_start = c->line_start;
        for (size_t k = i; k < e; k++)
            if (text[k] == '\n')
                c->line_start = k + 1;
        c->at = e;
        *start = i;
        *end = e;
        return true;
    }
    return false;
}

bool yt_template_find(const char *text, size_t len, size_t before, size_t *start,
                      size_t *end)
{
    struct cursor c = {0};
    return text && next_expr(text, len, &c, before, start, end);
}

/* Are text[a..b) blanks (spaces, tabs, a CR) only? */
static bool blank(const char *text, size_t a, size_t b)
{
    for (size_t i = a; i < b; i++)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
            return false;
    return true;
}

char *yt_template_blank(struct gl_arena *a, const char *text, size_t len)
{
    size_t s, e;
    if (!yt_template_find(text, len, len, &s, &e))
        return NULL;
    char *out = gl_arena_strndup(a, text, len);
    if (!out)
        return NULL;
    struct cursor c = {0};
    size_t alone_to = 0; /* the expressions before this offset are alone on their lines */
    while (next_expr(text, len, &c, len, &s, &e)) {
        /* alone on its lines: only blanks before it, blanks and expressions after it
         * (looked at only for the first expression of a line: each line is read once) */
        bool alone = s < alone_to || blank(text, c.expr_line_start, s);
        if (alone && s >= alone_to) {
            size_t le = e;
            while (le < len && text[le] != '\n')
                le++;
            struct cursor after = c;
            size_t s2, e2, rest = e;
            while (next_expr(text, len, &after, le, &s2, &e2) && blank(text, rest, s2))
                rest = e2;
            alone = blank(text, rest, le);
            if (alone)
                alone_to = rest;
        }
        for (size_t i = s; i < e; i++)
            if (out[i] != '\n')
                out[i] = ' ';
        if (!alone)
            out[s] = '_';
    }
    return out;
}
