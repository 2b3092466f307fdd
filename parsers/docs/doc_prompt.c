/* SPDX-License-Identifier: Apache-2.0 */
/* doc_prompt.c: the shell prompt written before a command in documentation (doc_prompt.h). */
#include "parsers/docs/doc_prompt.h"

#include <stdbool.h>
#include <string.h>

/* a prompt is a line's first words, not a paragraph: `[user@host dir]` and a WORD are
 * looked for in its first bytes only */
#define BRACKET_MAX 128
#define WORD_MAX 96

/* (range tests, not <ctype.h>: every line of every block asks, and isalnum is a call to
   the locale's table; a prompt is ASCII) */
static bool alnum_byte(unsigned char c)
{
    return (unsigned)(c - '0') < 10 || (unsigned)((c | 32) - 'a') < 26;
}

static bool env_byte(unsigned char c)
{
    return alnum_byte(c) || c == '_' || c == '.' || c == '-';
}

static bool word_byte(unsigned char c)
{
    return env_byte(c) || c == '@' || c == ':' || c == '~' || c == '/' || c == '+';
}

/* The end of a prompt's mark (`$` or `#`) and its blank at p, or 0. */
static size_t mark_end(const char *t, size_t p, size_t e, bool hash)
{
    if (p + 1 >= e || (t[p] != '$' && !(hash && t[p] == '#')))
        return 0;
    return t[p + 1] == ' ' || t[p + 1] == '\t' ? p + 2 : 0;
}

/* The prompt proper at p (after any `(NAME) `): its end, or 0. */
static size_t core_end(const char *t, size_t p, size_t e)
{
    if (p < e && t[p] == '$')
        return mark_end(t, p, e, false);
    if (p < e && t[p] == '[') {
        size_t q = p + 1;
        while (q < e && t[q] != ']' && t[q] != '\r' && q - p < BRACKET_MAX)
            q++;
        return q < e && t[q] == ']' && q > p + 1 ? mark_end(t, q + 1, e, true) : 0;
    }
    /* a WORD ends at the line's first space, its last byte the mark: most lines (commands,
       output) fail that test before a byte of them is classed */
    const char *sp = memchr(t + p, ' ', e - p < WORD_MAX ? e - p : WORD_MAX);
    size_t q = sp ? (size_t)(sp - t) : p;
    if (q < p + 2 || (t[q - 1] != '$' && t[q - 1] != '#'))
        return 0;
    bool named = false;
    for (size_t k = p; k < q - 1; k++) {
        if (!word_byte((unsigned char)t[k]))
            return 0;
        named |= alnum_byte((unsigned char)t[k]);
    }
    return named ? q + 1 : 0;
}

size_t doc_prompt_len(const char *t, size_t s, size_t e)
{
    size_t p = s;
    if (p < e && t[p] == '(') {
        size_t q = p + 1;
        while (q < e && env_byte((unsigned char)t[q]))
            q++;
        if (q > p + 1 && q + 1 < e && t[q] == ')' && t[q + 1] == ' ')
            p = q + 2;
    }
    size_t end = core_end(t, p, e);
    return end ? end - s : 0;
}
