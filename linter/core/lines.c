/* SPDX-License-Identifier: Apache-2.0 */
/* lines.c: positions to offsets through a lazy line index (see lines.h). */
#include "linter/core/lines.h"

#include <stdlib.h>
#include <string.h>

void gl_lines_init(struct gl_lines *l, struct gl_arena *arena, const char *text, size_t len)
{
    *l = (struct gl_lines){.text = text, .len = text ? len : 0, .arena = arena};
}

void gl_lines_known(struct gl_lines *l, const size_t *starts, size_t n)
{
    if (!l->starts && n && starts[0] == 0) {
        l->known = starts;
        l->nknown = n;
    }
}

void gl_lines_known32(struct gl_lines *l, const uint32_t *starts, size_t n)
{
    if (!l->starts && n && starts[0] == 0) {
        l->known32 = starts;
        l->nknown = n;
    }
}

/* One pass (memchr from line to line) into a heap buffer that doubles, then copied to the
 * arena at its size; or the known starts copied. */
static void index_lines(struct gl_lines *l)
{
    if (l->known32) {
        l->starts = gl_arena_take(l->arena, l->nknown * sizeof *l->starts);
        memcpy(l->starts, l->known32, l->nknown * sizeof *l->starts);
        l->n = l->nknown;
        l->known32 = NULL;
        return;
    }
    if (l->known) {
        l->starts = gl_arena_take(l->arena, l->nknown * sizeof *l->starts);
        for (size_t i = 0; i < l->nknown; i++)
            l->starts[i] = (uint32_t)l->known[i]; /* (the text is under 4 GiB) */
        l->n = l->nknown;
        l->known = NULL;
        return;
    }
    size_t n = 0, cap = 256;
    uint32_t *tmp = xmalloc(cap * sizeof *tmp);
    tmp[n++] = 0;
    const char *end = l->text + l->len;
    for (const char *p = l->text; (p = memchr(p, '\n', (size_t)(end - p))); p++) {
        if (n == cap)
            tmp = xrealloc(tmp, (cap *= 2) * sizeof *tmp);
        tmp[n++] = (uint32_t)(p - l->text + 1);
    }
    l->starts = gl_arena_take(l->arena, n * sizeof *l->starts);
    memcpy(l->starts, tmp, n * sizeof *tmp);
    free(tmp);
    l->n = n;
}

size_t gl_lines_line_end(struct gl_lines *l, struct gl_loc loc)
{
    if (!l->text || !loc.line || l->len > UINT32_MAX)
        return SIZE_MAX;
    if (!l->starts)
        index_lines(l);
    if (loc.line > l->n)
        return SIZE_MAX;
    return loc.line < l->n ? l->starts[loc.line] - 1 : l->len;
}

size_t gl_lines_offset(struct gl_lines *l, struct gl_loc loc)
{
    size_t end = gl_lines_line_end(l, loc);
    if (end == SIZE_MAX || !loc.col)
        return SIZE_MAX;
    size_t off = l->starts[loc.line - 1] + loc.col - 1;
    return off < end ? off : SIZE_MAX;
}
