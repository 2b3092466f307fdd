/* SPDX-License-Identifier: Apache-2.0 */
/* gpu_arch.c: SM numbers, arch entries and where code runs (see gpu_arch.h). */
#include "knowledge/gpu_arch.h"

#include <stdio.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool gl_arch_runs_on(const struct gl_arch *a, unsigned target)
{
    unsigned major = a->sm / 10, tmajor = target / 10;
    if (a->suffix == 'a')
        return a->sm == target;
    if (a->code == GL_ARCH_SASS || a->suffix == 'f')
        return major == tmajor && a->sm <= target;
    return a->sm <= target;
}

bool gl_arch_list_covers(const struct gl_arch *list, size_t n, unsigned target)
{
    for (size_t i = 0; i < n; i++) {
        if (gl_arch_runs_on(&list[i], target))
            return true;
    }
    return false;
}

/* 2 or 3 digits, not starting with 0: an SM number 10..999. */
static bool sm_digits(const char *s, size_t len, unsigned *sm)
{
    if (len < 2 || len > 3 || s[0] == '0')
        return false;
    unsigned v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!is_digit(s[i]))
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *sm = v;
    return true;
}

bool gl_arch_parse(const char *s, size_t len, struct gl_arch *out)
{
    struct gl_arch a = {0, GL_ARCH_SASS, 0};
    size_t p;
    if (len > 3 && !memcmp(s, "sm_", 3)) {
        p = 3;
    } else if (len > 8 && !memcmp(s, "compute_", 8)) {
        p = 8;
        a.code = GL_ARCH_PTX;
    } else {
        return false;
    }
    size_t end = len;
    if (s[end - 1] == 'a' || s[end - 1] == 'f')
        a.suffix = s[--end];
    if (!sm_digits(s + p, end - p, &a.sm))
        return false;
    *out = a;
    return true;
}

bool gl_sm_parse(const char *s, size_t len, unsigned *sm)
{
    const char *dot = memchr(s, '.', len);
    if (!dot)
        return sm_digits(s, len, sm);
    size_t nmajor = (size_t)(dot - s);
    if (nmajor < 1 || nmajor > 2 || len != nmajor + 2 || !is_digit(dot[1]) || s[0] == '0')
        return false;
    unsigned major = 0;
    for (size_t i = 0; i < nmajor; i++) {
        if (!is_digit(s[i]))
            return false;
        major = major * 10 + (unsigned)(s[i] - '0');
    }
    *sm = major * 10 + (unsigned)(dot[1] - '0');
    return true;
}

const char *gl_arch_name(const struct gl_arch *a, char *buf, size_t n)
{
    snprintf(buf, n, "%s%u%s", a->code == GL_ARCH_PTX ? "compute_" : "sm_", a->sm,
             a->suffix == 'a' ? "a" : a->suffix == 'f' ? "f" : "");
    return buf;
}

const char *gl_sm_cc(unsigned sm, char *buf, size_t n)
{
    snprintf(buf, n, "%u.%u", sm / 10, sm % 10);
    return buf;
}
