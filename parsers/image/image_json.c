/* SPDX-License-Identifier: Apache-2.0 */
/* image_json.c: check a JSON document, then walk it with cursors (see image_json.h). */
#include "parsers/image/image_json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/text.h"

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* ---- the check ---- */

struct checker {
    const char *s;
    size_t n, i;
    struct gl_json_error *err;
};

static int bad(struct checker *c, const char *what)
{
    c->err->offset = c->i;
    c->err->what = what;
    return -1;
}

static void skip_ws(struct checker *c)
{
    while (c->i < c->n && is_ws(c->s[c->i]))
        c->i++;
}

static bool at(struct checker *c, char ch)
{
    return c->i < c->n && c->s[c->i] == ch;
}

static int check_escape(struct checker *c)
{
    c->i++; /* the backslash */
    if (c->i >= c->n)
        return bad(c, "unterminated string");
    char e = c->s[c->i];
    if (strchr("\"\\/bfnrt", e) && e) {
        c->i++;
        return 0;
    }
    if (e != 'u')
        return bad(c, "a bad escape in a string");
    for (int k = 1; k <= 4; k++)
        if (c->i + (size_t)k >= c->n || gl_hex_value(c->s[c->i + (size_t)k]) < 0)
            return bad(c, "a bad \\u escape in a string");
    c->i += 5;
    return 0;
}

static int check_string(struct checker *c)
{
    c->i++; /* the opening quote */
    for (;;) {
        if (c->i >= c->n)
            return bad(c, "unterminated string");
        unsigned char ch = (unsigned char)c->s[c->i];
        if (ch == '"') {
            c->i++;
            return 0;
        }
        if (ch < 0x20)
            return bad(c, "a control character in a string");
        if (ch == '\\') {
            if (check_escape(c) != 0)
                return -1;
        } else {
            c->i++;
        }
    }
}

static bool digits(struct checker *c)
{
    size_t start = c->i;
    while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9')
        c->i++;
    return c->i > start;
}

static int check_number(struct checker *c)
{
    if (at(c, '-'))
        c->i++;
    if (at(c, '0'))
        c->i++;
    else if (!digits(c))
        return bad(c, "a bad number");
    if (at(c, '.')) {
        c->i++;
        if (!digits(c))
            return bad(c, "a bad number");
    }
    if (at(c, 'e') || at(c, 'E')) {
        c->i++;
        if (at(c, '+') || at(c, '-'))
            c->i++;
        if (!digits(c))
            return bad(c, "a bad number");
    }
    return 0;
}

static int check_literal(struct checker *c)
{
    static const char *const words[] = {"true", "false", "null"};
    for (size_t k = 0; k < 3; k++) {
        size_t len = strlen(words[k]);
        if (c->n - c->i >= len && !memcmp(c->s + c->i, words[k], len)) {
            c->i += len;
            return 0;
        }
    }
    return bad(c, "expected a value");
}

/* A scalar value at c->i. */
static int check_scalar(struct checker *c)
{
    char ch = c->s[c->i];
    if (ch == '"')
        return check_string(c);
    if (ch == '-' || (ch >= '0' && ch <= '9'))
        return check_number(c);
    return check_literal(c);
}

/* An object key and its colon, at c->i (whitespace skipped). */
static int check_key(struct checker *c)
{
    if (!at(c, '"'))
        return bad(c, "expected a string key");
    if (check_string(c) != 0)
        return -1;
    skip_ws(c);
    if (!at(c, ':'))
        return bad(c, "expected `:`");
    c->i++;
    return 0;
}

/* The value at c->i. 0: a whole value (a scalar, an empty collection); 1: a collection
 * was opened (pushed on the stack; of an object, the first key read): a value follows;
 * -1: an error. */
static int check_value(struct checker *c, char *stack, size_t *depth, size_t max_depth)
{
    skip_ws(c);
    if (c->i >= c->n)
        return bad(c, "expected a value");
    char ch = c->s[c->i];
    if (ch != '{' && ch != '[')
        return check_scalar(c);
    if (*depth >= max_depth) {
        c->err->too_deep = true;
        return bad(c, "collections nested too deep");
    }
    c->i++;
    skip_ws(c);
    if (at(c, ch == '{' ? '}' : ']')) {
        c->i++;
        return 0;
    }
    stack[(*depth)++] = ch;
    return ch == '{' && check_key(c) != 0 ? -1 : 1;
}

/* After a value inside the collection on top of the stack: `,` and the next member, or
 * the close. 1: a value follows; 0: the collection closed; -1: an error. */
static int check_after(struct checker *c, char top, size_t *depth)
{
    skip_ws(c);
    if (at(c, ',')) {
        c->i++;
        skip_ws(c);
        return top == '{' && check_key(c) != 0 ? -1 : 1;
    }
    if (at(c, top == '{' ? '}' : ']')) {
        c->i++;
        (*depth)--;
        return 0;
    }
    return bad(c, top == '{' ? "expected `,` or `}`" : "expected `,` or `]`");
}

int gl_json_check(const char *text, size_t len, size_t max_depth, struct gl_json_error *err)
{
    memset(err, 0, sizeof *err);
    struct checker c = {text, len, 0, err};
    size_t cap = max_depth < len ? max_depth : len;
    char *stack = xmalloc(cap + 1);
    size_t depth = 0;
    int rc = 1; /* 1: a value is expected next; 0: a value just ended */
    for (bool need = true; rc >= 0 && (need || depth > 0);) {
        rc = need ? check_value(&c, stack, &depth, cap)
                  : check_after(&c, stack[depth - 1], &depth);
        need = rc == 1;
    }
    free(stack);
    if (rc < 0)
        return -1;
    skip_ws(&c);
    return c.i < c.n ? bad(&c, "bytes after the document") : 0;
}

/* ---- cursors (on checked text: every value is well formed) ---- */

static const char *ws(const char *p)
{
    while (is_ws(*p))
        p++;
    return p;
}

/* Past the string starting at its opening quote. */
static const char *skip_string(const char *p)
{
    for (p++; *p != '"'; p++)
        if (*p == '\\')
            p++; /* the escaped byte (of \uXXXX, the rest are hex digits) */
    return p + 1;
}

static const char *skip_value(const char *p)
{
    if (*p == '"')
        return skip_string(p);
    if (*p != '{' && *p != '[') {
        while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
               *p == '+' || *p == '.' || *p == 'E')
            p++;
        return p;
    }
    size_t depth = 0;
    for (;;) {
        if (*p == '"') {
            p = skip_string(p);
            continue;
        }
        if (*p == '{' || *p == '[')
            depth++;
        else if ((*p == '}' || *p == ']') && --depth == 0)
            return p + 1;
        p++;
    }
}

struct gl_json gl_json_root(const char *text)
{
    return (struct gl_json){ws(text)};
}

char gl_json_kind(struct gl_json v)
{
    if (!v.at)
        return 0;
    char c = *v.at;
    return c == '-' || (c >= '0' && c <= '9') ? '0' : c;
}

/* Decode one character of a string body at p (not the closing quote) into out;
 * returns the byte after it, *n the bytes written (1 to 4). */
static const char *decode(const char *p, char out[4], size_t *n)
{
    static const char from[] = "bfnrt", to[] = "\b\f\n\r\t";
    if (*p != '\\') {
        out[0] = *p;
        *n = 1;
        return p + 1;
    }
    const char *f = strchr(from, p[1]);
    if (p[1] != 'u') {
        out[0] = f && p[1] ? to[f - from] : p[1];
        *n = 1;
        return p + 2;
    }
    uint32_t u = 0;
    for (int k = 2; k < 6; k++)
        u = u << 4 | (uint32_t)gl_hex_value(p[k]);
    p += 6;
    if (u >= 0xd800 && u < 0xdc00 && p[0] == '\\' && p[1] == 'u') {
        uint32_t lo = 0;
        for (int k = 2; k < 6; k++)
            lo = lo << 4 | (uint32_t)gl_hex_value(p[k]);
        if (lo >= 0xdc00 && lo < 0xe000) {
            u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            p += 6;
        }
    }
    if (u >= 0xd800 && u < 0xe000)
        u = 0xfffd; /* a lone surrogate, as Go reads it */
    if (!u)
        u = 0x2400; /* GL_NUL_SHOWN (text.h): a C string holds no NUL */
    if (u < 0x80) {
        out[0] = (char)u;
        *n = 1;
    } else if (u < 0x800) {
        out[0] = (char)(0xc0 | u >> 6);
        out[1] = (char)(0x80 | (u & 0x3f));
        *n = 2;
    } else if (u < 0x10000) {
        out[0] = (char)(0xe0 | u >> 12);
        out[1] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[2] = (char)(0x80 | (u & 0x3f));
        *n = 3;
    } else {
        out[0] = (char)(0xf0 | u >> 18);
        out[1] = (char)(0x80 | ((u >> 12) & 0x3f));
        out[2] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[3] = (char)(0x80 | (u & 0x3f));
        *n = 4;
    }
    return p;
}

/* Is the string at q (its opening quote), unescaped, exactly key? */
static bool key_is(const char *q, const char *key)
{
    size_t klen = strlen(key), got = 0;
    const char *p = q + 1;
    while (*p != '"') {
        char ch[4];
        size_t n;
        p = decode(p, ch, &n);
        if (got + n > klen || memcmp(key + got, ch, n))
            return false;
        got += n;
    }
    return got == klen;
}

struct gl_json gl_json_get(struct gl_json obj, const char *key)
{
    struct gl_json found = {NULL};
    if (gl_json_kind(obj) != '{')
        return found;
    const char *p = ws(obj.at + 1);
    while (*p == '"') {
        const char *v = ws(ws(skip_string(p)) + 1); /* past the key and its colon */
        if (key_is(p, key))
            found.at = v;
        p = ws(skip_value(v));
        if (*p != ',')
            break;
        p = ws(p + 1);
    }
    return found;
}

struct gl_json gl_json_get_kind(struct gl_json obj, const char *key, char kind)
{
    struct gl_json v = gl_json_get(obj, key);
    return gl_json_kind(v) == kind ? v : (struct gl_json){NULL};
}

struct gl_json gl_json_first(struct gl_json arr)
{
    if (gl_json_kind(arr) != '[')
        return (struct gl_json){NULL};
    const char *p = ws(arr.at + 1);
    return (struct gl_json){*p == ']' ? NULL : p};
}

struct gl_json gl_json_next(struct gl_json elem)
{
    const char *p = ws(skip_value(elem.at));
    return (struct gl_json){*p == ',' ? ws(p + 1) : NULL};
}

size_t gl_json_count(struct gl_json arr)
{
    size_t n = 0;
    for (struct gl_json e = gl_json_first(arr); e.at; e = gl_json_next(e))
        n++;
    return n;
}

char *gl_json_string(struct gl_arena *a, struct gl_json v)
{
    if (gl_json_kind(v) != '"')
        return NULL;
    const char *end = skip_string(v.at) - 1;
    char *out = gl_arena_alloc(a, (size_t)(end - v.at)); /* never longer than escaped */
    size_t len = 0;
    for (const char *p = v.at + 1; p < end;) {
        size_t n;
        p = decode(p, out + len, &n);
        len += n;
    }
    out[len] = 0;
    return out;
}

char *gl_json_get_string(struct gl_arena *a, struct gl_json obj, const char *key)
{
    return gl_json_string(a, gl_json_get(obj, key));
}
