/* SPDX-License-Identifier: Apache-2.0 */
/* glob.c: path globs (see glob.h). */
#include "linter/core/glob.h"

#include <string.h>

/* One part of a glob or path: [s, s + len). */
struct part {
    const char *s;
    size_t len;
};

/* The next non-empty part at or after *pos; false at the end. */
static bool next_part(const char *str, size_t *pos, struct part *out)
{
    size_t i = *pos;
    while (str[i] == '/')
        i++;
    if (!str[i]) {
        *pos = i;
        return false;
    }
    size_t start = i;
    while (str[i] && str[i] != '/') {
        if (str[i] == '\\' && str[i + 1] && str[i + 1] != '/')
            i++; /* an escaped character belongs to the part */
        i++;
    }
    out->s = str + start;
    out->len = i - start;
    *pos = i;
    return true;
}

static bool is_globstar(const struct part *p) { return p->len == 2 && !memcmp(p->s, "**", 2); }

/* The end of the class starting at g[i] == '[' within [0, len), or 0 when unclosed. */
static size_t class_end(const char *g, size_t len, size_t i)
{
    size_t k = i + 1;
    if (k < len && (g[k] == '!' || g[k] == '^'))
        k++;
    if (k < len && g[k] == ']')
        k++; /* a leading ] is literal */
    for (; k < len; k++) {
        if (g[k] == '\\' && k + 1 < len)
            k++;
        else if (g[k] == ']')
            return k;
    }
    return 0;
}

/* Does byte c fall in the class g[open..close] (open at '[', close at ']')? */
static bool class_has(const char *g, size_t open, size_t close, unsigned char c)
{
    size_t k = open + 1;
    bool negate = g[k] == '!' || g[k] == '^';
    if (negate)
        k++;
    bool found = false;
    while (k < close) { /* a leading ']' lies before close: it is a member */
        unsigned char lo = (unsigned char)g[k];
        if (lo == '\\' && k + 1 < close)
            lo = (unsigned char)g[++k];
        k++;
        unsigned char hi = lo;
        if (k + 1 < close && g[k] == '-') {
            hi = (unsigned char)g[k + 1];
            k += 2;
            if (hi == '\\' && k < close)
                hi = (unsigned char)g[k++];
        }
        if (c >= lo && c <= hi)
            found = true;
    }
    return found != negate;
}

/* The length of the character starting at s[0] (a valid UTF-8 sequence, else 1 byte). */
static size_t char_len(const char *s, size_t left)
{
    unsigned char c = (unsigned char)s[0];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    if (n > left)
        return 1;
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            return 1;
    return n;
}

/* Does the glob element at g[*gi] match the path text at s[*si]? Advances both on a match.
 * The element is not a '*'. */
static bool element_match(const struct part *g, size_t *gi, const struct part *s, size_t *si)
{
    char c = g->s[*gi];
    if (c == '?') {
        *si += char_len(s->s + *si, s->len - *si);
        *gi += 1;
        return true;
    }
    if (c == '[') {
        size_t close = class_end(g->s, g->len, *gi);
        if (close) {
            if (!class_has(g->s, *gi, close, (unsigned char)s->s[*si]))
                return false;
            *gi = close + 1;
            *si += 1;
            return true;
        }
        /* unclosed (gl_glob_check rejects it): a literal '[' */
    }
    if (c == '\\' && *gi + 1 < g->len)
        c = g->s[++*gi];
    if (s->s[*si] != c)
        return false;
    *gi += 1;
    *si += 1;
    return true;
}

/* Does glob part g match all of path part s? `*` backtracks to its last position only,
 * which is enough for a single kind of star: O(|g| × |s|). */
static bool part_match(const struct part *g, const struct part *s)
{
    size_t gi = 0, si = 0;
    size_t star_gi = 0, star_si = 0;
    bool star = false;
    while (si < s->len) {
        if (gi < g->len && g->s[gi] == '*') {
            while (gi < g->len && g->s[gi] == '*')
                gi++;
            star = true;
            star_gi = gi;
            star_si = si;
            continue;
        }
        size_t g2 = gi, s2 = si;
        if (gi < g->len && element_match(g, &g2, s, &s2)) {
            gi = g2;
            si = s2;
            continue;
        }
        if (!star)
            return false;
        gi = star_gi;
        si = ++star_si;
    }
    while (gi < g->len && g->s[gi] == '*')
        gi++;
    return gi == g->len;
}

/* The same strategy one level up: `**` parts stand for any run of path parts. */
bool gl_glob_match(const char *glob, const char *path)
{
    size_t gpos = 0, spos = 0;
    size_t star_gpos = 0, star_spos = 0;
    bool star = false;
    struct part g, s;
    for (;;) {
        size_t spos_next = spos;
        if (!next_part(path, &spos_next, &s))
            break;
        size_t gpos_next = gpos;
        bool have_g = next_part(glob, &gpos_next, &g);
        if (have_g && is_globstar(&g)) {
            star = true;
            star_gpos = gpos = gpos_next;
            star_spos = spos;
            continue;
        }
        if (have_g && part_match(&g, &s)) {
            gpos = gpos_next;
            spos = spos_next;
            continue;
        }
        if (!star)
            return false;
        gpos = star_gpos;
        next_part(path, &star_spos, &s); /* the `**` takes one more part */
        spos = star_spos;
    }
    while (next_part(glob, &gpos, &g))
        if (!is_globstar(&g))
            return false;
    return true;
}

int gl_glob_check(const char *glob, size_t *bad_offset, const char **why)
{
    size_t len = strlen(glob);
    size_t i = 0;
    while (i < len && glob[i] == '/')
        i++;
    if (i == len) {
        *bad_offset = len;
        *why = "a path pattern, found nothing";
        return -1;
    }
    for (; i < len; i++) {
        if (glob[i] == '\\') {
            if (i + 1 == len || glob[i + 1] == '/') {
                *bad_offset = i;
                *why = "a character after `\\`";
                return -1;
            }
            i++;
        } else if (glob[i] == '[') {
            /* a class ends within its part: a '/' before the ']' leaves it unclosed */
            size_t part_end = i;
            while (part_end < len && glob[part_end] != '/')
                part_end++;
            size_t close = class_end(glob, part_end, i);
            if (!close) {
                *bad_offset = i;
                *why = "a `]` closing the `[` set";
                return -1;
            }
            i = close;
        }
    }
    return 0;
}
