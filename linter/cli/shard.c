/* SPDX-License-Identifier: Apache-2.0 */
/* shard.c: --images-from and --shard (see shard.h). */
#include "linter/cli/shard.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/limits.h"

int gl_images_from(struct gl_arena *a, const char *file, const char ***paths, size_t *n)
{
    char *data;
    size_t len;
    bool over = false;
    int e = strcmp(file, "-") ? gl_read_file(file, &data, &len)
                              : gl_read_fd(0, NULL, 0, 0, (size_t)gl_limit(GL_LIMIT_INPUT_SIZE),
                                           &data, &len, &over);
    if (e)
        return e;
    if (over) {
        free(data);
        return EFBIG;
    }
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += data[i] == '\n';
    const char **grown = gl_arena_alloc(a, (*n + lines) * sizeof *grown);
    if (*n)
        memcpy(grown, *paths, *n * sizeof *grown);
    for (char *p = data, *end = data + len; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *stop = nl ? nl : end;
        char *s = p, *t = stop;
        while (s < t && (*s == ' ' || *s == '\t'))
            s++;
        while (t > s && (t[-1] == ' ' || t[-1] == '\t' || t[-1] == '\r'))
            t--;
        if (t > s && *s != '#')
            grown[(*n)++] = gl_arena_strndup(a, s, (size_t)(t - s));
        p = stop + 1;
    }
    *paths = grown;
    free(data);
    return 0;
}

int gl_shard_parse(const char *text, unsigned *k, unsigned *n)
{
    char *end;
    unsigned long kk = strtoul(text, &end, 10);
    if (end == text || *end != '/' || text[0] == '-')
        return -1;
    const char *ns = end + 1;
    unsigned long nn = strtoul(ns, &end, 10);
    if (end == ns || *end || ns[0] == '-' || nn < 1 || nn > 65536 || kk >= nn)
        return -1;
    *k = (unsigned)kk;
    *n = (unsigned)nn;
    return 0;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

size_t gl_shard_keep(const char **paths, size_t count, unsigned k, unsigned n)
{
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (fnv1a(paths[i]) % n == k)
            paths[kept++] = paths[i];
    return kept;
}
