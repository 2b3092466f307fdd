/* SPDX-License-Identifier: Apache-2.0 */
/* sh_test.c: a shell test command whose outcome its own words decide (sh_test.h). */
#include "parsers/shell/sh_test.h"

#include <string.h>

static bool word_is(const struct gl_word *w, const char *s)
{
    return !w->opaque && w->len == strlen(s) && !memcmp(w->text, s, w->len);
}

/* A known operand: no opaque part, no byte a glob or a pattern gives a meaning to, and no
 * NUL (gl_word.len is the text's strlen). */
static bool literal(const struct gl_word *w)
{
    if (w->opaque || w->len == UINT32_MAX || w->len != strlen(w->text))
        return false;
    return !memchr(w->text, '*', w->len) && !memchr(w->text, '?', w->len) &&
           !memchr(w->text, '[', w->len) && !memchr(w->text, '\\', w->len);
}

bool sh_test_known(const struct sh_cmd *c, bool *succeeds)
{
    const struct gl_word *w = c->words;
    size_t n = c->nwords;
    bool brackets = n == 5 && word_is(&w[0], "[") && word_is(&w[4], "]");
    bool bash_only = n == 5 && word_is(&w[0], "[[") && word_is(&w[4], "]]");
    if (!brackets && !bash_only && !(n == 4 && word_is(&w[0], "test")))
        return false;
    const struct gl_word *a = &w[1], *op = &w[2], *b = &w[3];
    bool eq = word_is(op, "=") || word_is(op, "==");
    if ((!eq && !word_is(op, "!=")) || !literal(a) || !literal(b))
        return false;
    bool holds = (a->len == b->len && !memcmp(a->text, b->text, a->len)) == eq;
    /* `[[` and `==` are bash's: POSIX sh (dash) fails them (127, or 2 for an unexpected
       operator), so only a test bash fails too is decided there */
    bash_only |= word_is(op, "==");
    if (bash_only && holds)
        return false;
    *succeeds = holds != c->negated;
    return true;
}
