/* SPDX-License-Identifier: Apache-2.0 */
/* text.c: small character helpers shared by the parsers (see text.h). */
#include "linter/core/text.h"

#include <string.h>

int gl_hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

const unsigned char gl_name_class[256] = {
    ['_'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
    ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
    ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
    ['y'] = 1, ['z'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
    ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
    ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
    ['Y'] = 1, ['Z'] = 1,
    ['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2, ['5'] = 2, ['6'] = 2, ['7'] = 2,
    ['8'] = 2, ['9'] = 2,
};

char *gl_arena_nul_shown(struct gl_arena *a, const char *v, size_t *len)
{
    size_t nuls = 0;
    for (const char *p = v; (p = memchr(p, 0, (size_t)(v + *len - p))) != NULL; p++)
        nuls++;
    size_t grown = *len + nuls * (GL_NUL_SHOWN_LEN - 1);
    char *out = gl_arena_take(a, grown + 1), *o = out;
    for (size_t i = 0; i < *len; i++)
        if (v[i]) {
            *o++ = v[i];
        } else {
            memcpy(o, GL_NUL_SHOWN, GL_NUL_SHOWN_LEN);
            o += GL_NUL_SHOWN_LEN;
        }
    *o = 0;
    *len = grown;
    return out;
}
