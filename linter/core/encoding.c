/* SPDX-License-Identifier: Apache-2.0 */
/* encoding.c: the bytes a text input may hold (see encoding.h). */
#include "linter/core/encoding.h"

#include <string.h>

/* NUL in every other byte of the first line (up to 64 bytes): UTF-16 without a BOM. */
static bool looks_utf16(const char *t, size_t len)
{
    size_t n = len < 64 ? len : 64, zeros_even = 0, zeros_odd = 0, pairs = n / 2;
    if (pairs < 2)
        return false;
    for (size_t i = 0; i + 1 < n; i += 2) {
        zeros_even += t[i] == 0;
        zeros_odd += t[i + 1] == 0;
    }
    return (zeros_even == pairs && zeros_odd == 0) || (zeros_odd == pairs && zeros_even == 0);
}

static struct gl_text_verdict refuse(size_t off, const char *message, const char *fix)
{
    return (struct gl_text_verdict){.bad = true, .bad_off = off, .message = message,
                                    .fix = fix};
}

struct gl_text_verdict gl_text_check(const char *text, size_t len)
{
    const unsigned char *t = (const unsigned char *)text;
    if (len >= 2 && ((t[0] == 0xFF && t[1] == 0xFE) || (t[0] == 0xFE && t[1] == 0xFF)))
        return refuse(0, "expected UTF-8, found UTF-16 (a UTF-16 byte order mark)",
                      "save the file as UTF-8");
    if (looks_utf16(text, len))
        return refuse(0, "expected UTF-8, found UTF-16 (NUL bytes between the characters)",
                      "save the file as UTF-8");
    struct gl_text_verdict v = {0};
    if (len >= 3 && t[0] == 0xEF && t[1] == 0xBB && t[2] == 0xBF)
        v.skip = 3;
    const char *nul = memchr(text, '\0', len);
    size_t limit = nul ? (size_t)(nul - text) : len;
    for (const char *p = text; (p = memchr(p, '\r', (size_t)(text + limit - p))); p++)
        if ((size_t)(p - text) + 1 >= len || p[1] != '\n')
            return refuse((size_t)(p - text),
                          "expected a line end LF or CRLF, found a lone CR (carriage return)",
                          "save the file with LF (or CRLF) line ends");
    if (nul)
        return refuse(limit, "expected text, found a NUL byte", "remove the NUL byte");
    return v;
}
