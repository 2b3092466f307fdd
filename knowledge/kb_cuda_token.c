/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kb_cuda_token.c: the CUDA version a tag token names ("cuda12.1", "cu121"; see kb.h).
 * Kept beside the version helpers, below the derivation, so that the knowledge loader
 * (which tools/kb_gen links before the binary exists) reads a base tag's token with the
 * same code as the rules do.
 */
#include "knowledge/kb.h"

#include <stdio.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* XYZ / XYZW, all digits: two major digits (the first a 1), one minor digit, one patch
 * digit, written out as "XY.Z[.W]". */
static bool digits_version(const char *d, size_t n, char *out, size_t out_size)
{
    if (n < 3 || n > 4 || d[0] != '1')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!is_digit(d[i]))
            return false;
    if (n == 3)
        snprintf(out, out_size, "%c%c.%c", d[0], d[1], d[2]);
    else
        snprintf(out, out_size, "%c%c.%c.%c", d[0], d[1], d[2], d[3]);
    return true;
}

bool gl_cuda_token_version(const char *t, size_t n, char *out, size_t out_size,
                           size_t *digits_off)
{
    if (out_size < 16)
        return false;
    if (n > 4 && !memcmp(t, "cuda", 4)) {
        size_t i = 4;
        if (t[i] == '-')
            i++;
        size_t vl = n - i;
        if (!vl || vl >= out_size || !is_digit(t[i]))
            return false;
        if ((vl == 3 || vl == 4) && t[i] == '1' && !memchr(t + i, '.', vl)) {
            /* cudaXYZ / cudaXYZW: the digits of cuXYZ (sglang's `cuda129`), not a major
             * version of three digits */
            if (!digits_version(t + i, vl, out, out_size))
                return false;
            *digits_off = i;
            return true;
        }
        memcpy(out, t + i, vl);
        out[vl] = '\0';
        if (!gl_version_valid(out))
            return false;
        /* CUDA releases in containers start at 6.5: `cuda-1.9` is another product's
         * version with a `cuda-` prefix (text-embeddings-inference's tags) */
        unsigned major;
        if (!gl_version_field(out, 0, &major) || major < 6 || major > 99)
            return false;
        *digits_off = i;
        return true;
    }
    /* cuXYZ / cuXYZW */
    if (n < 5 || n > 6 || t[0] != 'c' || t[1] != 'u' ||
        !digits_version(t + 2, n - 2, out, out_size))
        return false;
    *digits_off = 2;
    return true;
}
