/* SPDX-License-Identifier: Apache-2.0 */
/* bake_scan.c: the bake file scanner (see bake_scan.h). */
#include "parsers/bake/bake_scan.h"

#include <ctype.h>
#include <string.h>

void bake_step(struct bake_scan *c)
{
    if (c->s[c->i] == '\n') {
        c->line++;
        c->col = 1;
    } else if (((unsigned char)c->s[c->i] & 0xC0) != 0x80) {
        c->col++;
    }
    c->i++;
}

static bool at(const struct bake_scan *c, size_t k, char ch)
{
    return c->i + k < c->n && c->s[c->i + k] == ch;
}

/* A comment at c->i: skipped (true). */
static bool comment(struct bake_scan *c)
{
    if (at(c, 0, '#') || (at(c, 0, '/') && at(c, 1, '/'))) {
        while (c->i < c->n && c->s[c->i] != '\n')
            bake_step(c);
        return true;
    }
    if (!(at(c, 0, '/') && at(c, 1, '*')))
        return false;
    bake_step(c);
    bake_step(c);
    while (c->i < c->n && !(c->s[c->i] == '*' && at(c, 1, '/')))
        bake_step(c);
    if (c->i < c->n) {
        bake_step(c);
        bake_step(c);
    }
    return true;
}

void bake_skip_space(struct bake_scan *c)
{
    while (c->i < c->n) {
        char ch = c->s[c->i];
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == ',')
            bake_step(c);
        else if (!comment(c))
            return;
    }
}

/* From the `${` at c->i through its closing '}' into text: braces and strings inside it
 * (with interpolations of their own) whole; stops at a line break or the end. */
static void interpolation(struct bake_scan *c, struct gl_buf *text)
{
    char stack[BAKE_NEST_MAX]; /* 'I' an interpolation or a brace, 'S' a string */
    size_t top = 0;
    gl_buf_addc(text, '$');
    bake_step(c);
    while (c->i < c->n && c->s[c->i] != '\n') {
        char ch = c->s[c->i];
        bool in_string = top && stack[top - 1] == 'S';
        if (in_string && ch == '\\' && c->i + 1 < c->n && c->s[c->i + 1] != '\n') {
            gl_buf_addc(text, ch);
            bake_step(c);
            ch = c->s[c->i];
        } else if (in_string && ch == '"') {
            top--;
        } else if ((in_string && ch == '$' && at(c, 1, '{')) || (!in_string && ch == '{') ||
                   (!in_string && ch == '"')) {
            if (top == BAKE_NEST_MAX)
                break; /* (deeper than any bake file: the string ends here) */
            stack[top++] = ch == '"' ? 'S' : 'I';
            if (ch == '$') {
                gl_buf_addc(text, ch);
                bake_step(c);
                ch = c->s[c->i];
            }
        } else if (!in_string && ch == '}') {
            gl_buf_addc(text, ch);
            bake_step(c);
            if (--top == 0)
                return;
            continue;
        }
        gl_buf_addc(text, ch);
        bake_step(c);
    }
}

const char *bake_string(struct bake_scan *c, const char **pattern, struct gl_loc *loc)
{
    struct gl_buf text, pat;
    gl_buf_init(&text);
    gl_buf_init(&pat);
    bake_step(c);
    *loc = (struct gl_loc){c->line, c->col};
    bool interp = false;
    while (c->i < c->n && c->s[c->i] != '"' && c->s[c->i] != '\n') {
        char ch = c->s[c->i];
        if (ch == '\\' && c->i + 1 < c->n) {
            bake_step(c);
            ch = c->s[c->i];
        } else if (ch == '$' && at(c, 1, '{')) {
            interpolation(c, &text);
            if (!pat.len || pat.data[pat.len - 1] != '*')
                gl_buf_addc(&pat, '*');
            interp = true;
            continue;
        }
        gl_buf_addc(&text, ch);
        gl_buf_addc(&pat, ch);
        bake_step(c);
    }
    if (c->i < c->n && c->s[c->i] == '"')
        bake_step(c);
    const char *t = gl_arena_strdup(&c->doc->arena, gl_buf_str(&text));
    *pattern = interp ? gl_arena_strdup(&c->doc->arena, gl_buf_str(&pat)) : NULL;
    gl_buf_free(&text);
    gl_buf_free(&pat);
    return t;
}

const char *bake_key(struct bake_scan *c, struct gl_loc *loc)
{
    if (c->s[c->i] == '"') {
        const char *pattern;
        return bake_string(c, &pattern, loc);
    }
    size_t from = c->i;
    *loc = (struct gl_loc){c->line, c->col};
    while (c->i < c->n && (isalnum((unsigned char)c->s[c->i]) || c->s[c->i] == '_' ||
                           c->s[c->i] == '-' || c->s[c->i] == '.'))
        bake_step(c);
    return c->i > from ? gl_arena_strndup(&c->doc->arena, c->s + from, c->i - from) : NULL;
}

bool bake_assign(struct bake_scan *c)
{
    while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\r'))
        bake_step(c);
    if (c->i < c->n && (c->s[c->i] == '=' || c->s[c->i] == ':')) {
        bake_step(c);
        bake_skip_space(c);
        return true;
    }
    return false;
}

void bake_skip_value(struct bake_scan *c)
{
    size_t depth = 0;
    while (c->i < c->n) {
        char ch = c->s[c->i];
        if (ch == '"') {
            const char *pattern;
            struct gl_loc loc;
            bake_string(c, &pattern, &loc);
        } else if (comment(c)) {
            continue;
        } else if (ch == '{' || ch == '[' || ch == '(') {
            depth++;
            bake_step(c);
        } else if (ch == '}' || ch == ']' || ch == ')') {
            if (!depth)
                return;
            depth--;
            bake_step(c);
        } else if (!depth && (ch == '\n' || ch == ',')) {
            return;
        } else {
            bake_step(c);
        }
    }
}

bool bake_stopped(struct bake_scan *c)
{
    if (!gl_arena_over(&c->doc->arena))
        return false;
    gl_doc_fail_limit(c->doc, GL_LIMIT_PARSE_MEMORY, (struct gl_loc){c->line, c->col});
    c->i = c->n;
    return true;
}
