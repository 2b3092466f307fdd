/* SPDX-License-Identifier: Apache-2.0 */
/* lines.c: positions to offsets through a lazy line index (see lines.h). */
#include "linter/core/lines.h"

#include <string.h>

void gl_lines_init(struct gl_lines *l, struct gl_arena *arena, const char *text, size_t len)
{
    *l = (struct gl_lines){.text = text, .len = text ? len : 0, .arena = arena};
}

static void index_lines(struct gl_lines *l)
{
    size_t n = 1;
    for (const char *p = l->text; (p = memchr(p, '\n', (size_t)(l->text + l->len - p))); p++)
        n++;
    l->starts = gl_arena_alloc(l->arena, n * sizeof *l->starts);
    size_t k = 0;
    l->starts[k++] = 0;
    for (const char *p = l->text; k < n && (p = memchr(p, '\n', (size_t)(l->text + l->len - p))); p++)
        l->starts[k++] = (uint32_t)(p - l->text + 1);
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
