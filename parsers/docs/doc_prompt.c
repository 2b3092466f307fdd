/* SPDX-License-Identifier: Apache-2.0 */
/* doc_prompt.c: the shell prompt written before a command in documentation (doc_prompt.h). */
#include "parsers/docs/doc_prompt.h"

#include <ctype.h>
#include <stdbool.h>

/* a `[user@host dir]` is a line's first words, not a paragraph */
#define BRACKET_MAX 128

static bool env_byte(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '-';
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
    bool named = false;
    size_t q = p;
    for (; q < e && word_byte((unsigned char)t[q]); q++)
        named |= isalnum((unsigned char)t[q]) != 0;
    return named ? mark_end(t, q, e, true) : 0;
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
