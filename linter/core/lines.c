/* SPDX-License-Identifier: Apache-2.0 */
/* lines.c: positions to offsets through a lazy line index (see lines.h). */
#include "linter/core/lines.h"

#include <stdlib.h>
#include <string.h>

#include "linter/core/newline.h"

void gl_lines_init(struct gl_lines *l, struct gl_arena *arena, const char *text, size_t len)
{
    *l = (struct gl_lines){.text = text, .len = text ? len : 0, .arena = arena};
}

void gl_lines_known(struct gl_lines *l, const size_t *starts, size_t n)
{
    if (!l->indexed && n && starts[0] == 0) {
        l->known = starts;
        l->nknown = n;
    }
}

void gl_lines_known32(struct gl_lines *l, const uint32_t *starts, size_t n)
{
    if (!l->indexed && n && starts[0] == 0) {
        l->known32 = starts;
        l->nknown = n;
    }
}

/* A room for n line starts, or NULL (stop_line set). */
static uint32_t *take_index(struct gl_lines *l, size_t n)
{
    size_t fit;
    uint32_t *starts = gl_arena_take_table(l->arena, n, sizeof *starts, &fit);
    if (!starts)
        l->stop_line = (uint32_t)fit + 1; /* (n lines of a text under 4 GiB) */
    return starts;
}

/* The known starts copied; or the text's lines counted, then written in an arena room of
 * that size (no heap buffer: the index is the only copy). A room that would take the arena
 * past its limit parse-memory is only charged (gl_arena_take_table): the index stays
 * empty, every look-up finds no offset, and the doc is a GL900 at stop_line. A text of
 * millions of short lines would otherwise take 4 bytes a line twice over the limit. */
static void index_lines(struct gl_lines *l)
{
    l->indexed = true;
    if (l->known32 || l->known) {
        size_t n = l->nknown;
        uint32_t *starts = take_index(l, n);
        if (starts && l->known32)
            memcpy(starts, l->known32, n * sizeof *starts);
        else
            for (size_t i = 0; starts && i < n; i++) /* (the text is under 4 GiB) */
                starts[i] = (uint32_t)l->known[i];
        l->known32 = NULL;
        l->known = NULL;
        l->starts = starts;
        l->n = starts ? n : 0;
        return;
    }
    size_t n = gl_count_lines(l->text, l->len);
    uint32_t *starts = take_index(l, n);
    l->starts = starts;
    l->n = starts ? n : 0;
    if (!starts)
        return;
    size_t k = 0;
    starts[k++] = 0;
    for (size_t base = 0; base < l->len; base += 64) /* (newline.h) */
        for (uint64_t b = gl_nl_window(l->text, l->len, base); b; b &= b - 1)
            starts[k++] = (uint32_t)(base + (size_t)__builtin_ctzll(b) + 1);
}

size_t gl_lines_line_end(struct gl_lines *l, struct gl_loc loc)
{
    if (!l->text || !loc.line || l->len > UINT32_MAX)
        return SIZE_MAX;
    if (!l->indexed)
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
