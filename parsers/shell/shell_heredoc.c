/* SPDX-License-Identifier: Apache-2.0 */
/* shell_heredoc.c: the lines of a here-document body as the shell reads them, for the
 * lexer's bodies and for those it skips inside $(...) (see shell_internal.h). */
#include "parsers/shell/shell_internal.h"

#include <string.h>

bool shl_heredoc_line(const struct sh_lexer *lx, size_t i, const char *delim, size_t dlen,
                      bool strip_tabs, bool quoted, size_t *next)
{
    const char *s = lx->s;
    size_t len = lx->len, m = 0; /* (delimiter bytes matched so far) */
    bool same = true;
    while (strip_tabs && i < len && s[i] == '\t')
        i++;
    for (;;) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - s) : len, k = e;
        while (k > i && s[k - 1] == lx->esc)
            k--;
        bool cont = !quoted && nl && (e - k) % 2; /* (`\` then the newline: joined) */
        size_t ce = cont ? e - 1 : e;
        if (!cont && ce > i && s[ce - 1] == '\r')
            ce--;
        same = same && m + (ce - i) <= dlen && !memcmp(s + i, delim + m, ce - i);
        m += ce - i;
        i = nl ? e + 1 : len;
        if (!cont) {
            *next = i;
            return same && m == dlen;
        }
    }
}
