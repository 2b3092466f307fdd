/* SPDX-License-Identifier: Apache-2.0 */
/* kb_version.c: dotted version strings, validated and compared numerically (see kb.h). */
#include "knowledge/kb.h"

#include <string.h>

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

bool gl_version_valid(const char *s)
{
    if (!s || !is_digit(*s))
        return false;
    for (;;) {
        while (is_digit(*s))
            s++;
        if (*s == 0)
            return true;
        if (*s != '.' || !is_digit(s[1]))
            return false;
        s++;
    }
}

size_t gl_version_prefix_len(const char *s)
{
    if (!s || !is_digit(*s))
        return 0;
    size_t n = 0;
    for (;;) {
        while (is_digit(s[n]))
            n++;
        if (s[n] == '.' && is_digit(s[n + 1])) {
            n++;
            continue;
        }
        /* "12.x" or "1..2" is not a version followed by text */
        if (s[n] == '.')
            return 0;
        return n;
    }
}

/* One field of a version: the digits [p, end) without leading zeros. */
struct field {
    const char *p;
    size_t len;
};

/* Next field at *s (advancing past it and its dot); the empty field once s is consumed,
 * which compares as 0 so that trailing ".0" fields do not matter. */
static struct field next_field(const char **s)
{
    struct field f = {*s, 0};
    while (is_digit(**s))
        (*s)++;
    f.len = (size_t)(*s - f.p);
    while (f.len > 0 && *f.p == '0') {
        f.p++;
        f.len--;
    }
    if (**s == '.')
        (*s)++;
    return f;
}

static int field_cmp(struct field a, struct field b)
{
    if (a.len != b.len)
        return a.len < b.len ? -1 : 1;
    int c = a.len ? memcmp(a.p, b.p, a.len) : 0;
    return c < 0 ? -1 : c > 0;
}

bool gl_version_compare(const char *a, const char *b, unsigned fields, int *result)
{
    if (!gl_version_valid(a) || !gl_version_valid(b))
        return false;
    unsigned i = 0;
    while (*a || *b) {
        if (fields && i == fields)
            break;
        int c = field_cmp(next_field(&a), next_field(&b));
        if (c) {
            *result = c;
            return true;
        }
        i++;
    }
    *result = 0;
    return true;
}

int gl_version_cmp(const char *a, const char *b)
{
    int r;
    if (gl_version_compare(a, b, 0, &r))
        return r;
    bool va = gl_version_valid(a), vb = gl_version_valid(b);
    if (va != vb)
        return va ? 1 : -1;
    int c = strcmp(a ? a : "", b ? b : "");
    return c < 0 ? -1 : c > 0;
}

bool gl_version_field(const char *v, unsigned i, unsigned *out)
{
    if (!gl_version_valid(v))
        return false;
    for (unsigned k = 0; k < i; k++) {
        v = strchr(v, '.');
        if (!v)
            return false;
        v++;
    }
    struct field f = next_field(&v);
    if (f.len > 6)
        return false;
    unsigned n = 0;
    for (size_t k = 0; k < f.len; k++)
        n = n * 10 + (unsigned)(f.p[k] - '0');
    *out = n;
    return true;
}

unsigned gl_driver_branch_of(const char *driver)
{
    unsigned b;
    return gl_version_field(driver, 0, &b) ? b : 0;
}
