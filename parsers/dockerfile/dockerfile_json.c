/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile_json.c: the JSON exec form (CMD ["a", "b"]) as BuildKit decodes it with Go's
 * encoding/json Decoder: one value, trailing text ignored, strings decoded (invalid UTF-8
 * and lone surrogates become U+FFFD), max nesting depth 10000. Any syntax error means
 * "not JSON" (the caller falls back to shell form); a valid array with a non-string
 * element is BuildKit's "arrays must be comprised of strings only" error. Nested values
 * are skipped with an explicit stack, never recursion.
 */
#include "parsers/dockerfile/dockerfile_internal.h"

#include <stdlib.h>
#include <string.h>

#include "linter/core/text.h"

#define JSON_MAX_DEPTH 10000

static bool is_jws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static size_t skip_ws(const char *s, size_t p, size_t end)
{
    while (p < end && is_jws(s[p]))
        p++;
    return p;
}

/* Four hex digits at s[p..p+4): value or -1. */
static long hex4(const char *s, size_t p, size_t end)
{
    if (end - p < 4)
        return -1;
    long v = 0;
    for (size_t i = 0; i < 4; i++) {
        int h = gl_hex_value(s[p + i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Scan (and, if tb != NULL, decode) the string starting at s[*pp] == '"'. */
static bool json_string(const char *s, size_t *pp, size_t end, struct df_textb *tb)
{
    size_t p = *pp + 1;
    while (p < end) {
        unsigned char c = (unsigned char)s[p];
        if (c == '"') {
            *pp = p + 1;
            return true;
        }
        if (c < 0x20)
            return false;
        if (c < 0x80 && c != '\\') { /* an ASCII byte that is itself, and the run after it */
            size_t q = p + 1;
            while (q < end && (unsigned char)s[q] >= 0x20 && (unsigned char)s[q] < 0x80 &&
                   s[q] != '"' && s[q] != '\\')
                q++;
            if (tb)
                df_textb_run(tb, s, p, q - p);
            p = q;
            continue;
        }
        if (c == '\\') {
            if (p + 1 >= end)
                return false;
            char e = s[p + 1];
            const char *simple = strchr("\"\\/bfnrt", e);
            if (e && simple) {
                static const char repl[] = "\"\\/\b\f\n\r\t";
                if (tb)
                    df_textb_made(tb, &repl[simple - "\"\\/bfnrt"], 1, p);
                p += 2;
                continue;
            }
            if (e != 'u')
                return false;
            long v = hex4(s, p + 2, end);
            if (v < 0)
                return false;
            size_t used = 6;
            uint32_t r = (uint32_t)v;
            if (r >= 0xD800 && r <= 0xDFFF) {
                long lo = -1;
                if (r < 0xDC00 && end - p >= 12 && s[p + 6] == '\\' && s[p + 7] == 'u')
                    lo = hex4(s, p + 8, end);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    r = 0x10000 + ((r - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                    used = 12;
                } else {
                    r = DF_RUNE_ERROR;
                }
            }
            if (tb) {
                char u[4];
                df_textb_made(tb, u, df_utf8_encode(r, u), p);
            }
            p += used;
            continue;
        }
        uint32_t r;
        size_t w = df_utf8_decode(s + p, end - p, &r);
        if (tb) {
            if (r == DF_RUNE_ERROR && w == 1)
                df_textb_made(tb, "\xEF\xBF\xBD", 3, p);
            else
                df_textb_run(tb, s, p, w);
        }
        p += w;
    }
    return false;
}

static bool json_number(const char *s, size_t *pp, size_t end)
{
    size_t p = *pp;
    if (p < end && s[p] == '-')
        p++;
    if (p >= end)
        return false;
    if (s[p] == '0') {
        p++;
    } else if (s[p] >= '1' && s[p] <= '9') {
        while (p < end && s[p] >= '0' && s[p] <= '9')
            p++;
    } else {
        return false;
    }
    if (p < end && s[p] == '.') {
        p++;
        if (p >= end || s[p] < '0' || s[p] > '9')
            return false;
        while (p < end && s[p] >= '0' && s[p] <= '9')
            p++;
    }
    if (p < end && (s[p] == 'e' || s[p] == 'E')) {
        p++;
        if (p < end && (s[p] == '+' || s[p] == '-'))
            p++;
        if (p >= end || s[p] < '0' || s[p] > '9')
            return false;
        while (p < end && s[p] >= '0' && s[p] <= '9')
            p++;
    }
    *pp = p;
    return true;
}

/* Skip one JSON value at s[*pp] (not a string at the top); depth0 = enclosing depth. */
static bool json_skip_value(const char *s, size_t *pp, size_t end, size_t depth0)
{
    char *stack = NULL;
    size_t n = 0, cap = 0;
    size_t p = *pp;
    bool ok = false;
    enum { VALUE, KEY, AFTER } state = VALUE;
    for (;;) {
        if (state == AFTER && !n) {
            ok = true;
            goto out;
        }
        p = skip_ws(s, p, end);
        if (p >= end)
            goto out;
        char c = s[p];
        if (state == KEY) {
            if (c != '"' || !json_string(s, &p, end, NULL))
                goto out;
            p = skip_ws(s, p, end);
            if (p >= end || s[p] != ':')
                goto out;
            p++;
            state = VALUE;
            continue;
        }
        if (state == AFTER) {
            char top = stack[n - 1];
            if (c == ',') {
                p++;
                state = top == '[' ? VALUE : KEY;
            } else if ((top == '[' && c == ']') || (top == '{' && c == '}')) {
                p++;
                n--;
            } else {
                goto out;
            }
            continue;
        }
        /* VALUE */
        if (c == '[' || c == '{') {
            if (depth0 + n + 1 > JSON_MAX_DEPTH)
                goto out;
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                stack = xrealloc(stack, cap);
            }
            stack[n++] = c;
            p = skip_ws(s, p + 1, end);
            if (p < end && s[p] == (c == '[' ? ']' : '}')) {
                p++;
                n--;
                state = AFTER;
            } else {
                state = c == '[' ? VALUE : KEY;
            }
            continue;
        }
        if (c == '"') {
            if (!json_string(s, &p, end, NULL))
                goto out;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            if (!json_number(s, &p, end))
                goto out;
        } else if (end - p >= 4 && (memcmp(s + p, "true", 4) == 0 || memcmp(s + p, "null", 4) == 0)) {
            p += 4;
        } else if (end - p >= 5 && memcmp(s + p, "false", 5) == 0) {
            p += 5;
        } else {
            goto out;
        }
        state = AFTER;
    }
out:
    free(stack);
    *pp = p;
    return ok;
}

enum df_json_result df_json_strings(struct df_lineparse *lp, const struct df_instr *in,
                                    size_t off, size_t end, struct df_arg **args,
                                    size_t *nargs, size_t *cap, size_t *bad)
{
    const char *s = in->line;
    size_t p = skip_ws(s, off + 1, end);
    bool have_bad = false;
    if (p < end && s[p] == ']')
        return DF_JSON_OK;
    for (;;) {
        p = skip_ws(s, p, end);
        if (p >= end)
            return DF_JSON_SYNTAX;
        if (s[p] == '"') {
            size_t start = p;
            df_textb_reset(&lp->tb);
            if (!json_string(s, &p, end, &lp->tb))
                return DF_JSON_SYNTAX;
            struct df_arg *a = DF_APPEND(lp->arena, *args, *nargs, *cap);
            df_textb_finish(&lp->tb, lp->arena, &in->line_map, start + 1, &a->value, &a->len,
                            &a->map);
            a->loc = gl_srcmap_loc(&in->line_map, start + 1);
        } else {
            if (!have_bad) {
                have_bad = true;
                *bad = p;
            }
            if (!json_skip_value(s, &p, end, 1))
                return DF_JSON_SYNTAX;
        }
        p = skip_ws(s, p, end);
        if (p >= end)
            return DF_JSON_SYNTAX;
        if (s[p] == ',') {
            p++;
            continue;
        }
        if (s[p] == ']')
            break;
        return DF_JSON_SYNTAX;
    }
    return have_bad ? DF_JSON_NOT_STRINGS : DF_JSON_OK;
}
