/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lines.h: line/column positions to byte offsets in a text, through a line index built
 * on first use (O(len) once, then O(log lines) a look-up). For checking that a value
 * stands in a file as written, and for finding the exact bytes of a token.
 */
#ifndef GPULINT_LINES_H
#define GPULINT_LINES_H

#include "linter/core/util.h"

struct gl_lines {
    const char *text;
    size_t len;
    struct gl_arena *arena;  /* where the index lives */
    uint32_t *starts;        /* offset of each line; NULL until first used (or when the
                                index would take the arena past parse-memory) */
    size_t n;
    uint32_t stop_line;      /* the index was refused: the first line whose start found no
                                room under parse-memory (where the limit was reached) */
    bool indexed;            /* the index was built (or refused) */
    const size_t *known;     /* gl_lines_known: line starts another reader found */
    const uint32_t *known32; /* gl_lines_known32: the same, as the index holds them */
    size_t nknown;
};

void gl_lines_init(struct gl_lines *l, struct gl_arena *arena, const char *text, size_t len);
/* The line starts of the same text as another reader found them (starts[0] = 0, then the
 * offset after each '\n': the YAML loader's index), copied on first use instead of
 * scanning the text again (the index takes the same room, at the same moment). They must
 * stay valid until then. Nothing changes once the index is built. */
void gl_lines_known(struct gl_lines *l, const size_t *starts, size_t n);
/* The same, for starts kept as the index keeps them (32 bits: copied at once). */
void gl_lines_known32(struct gl_lines *l, const uint32_t *starts, size_t n);
/* Forget the starts gl_lines_known gave if the index was not built from them yet (they
 * are about to be freed: a later look-up scans the text). */
static inline void gl_lines_unknown(struct gl_lines *l)
{
    l->known = NULL;
    l->known32 = NULL;
    l->nknown = 0;
}
/* Offset of loc's byte, or SIZE_MAX when there is none (line 0, past its line's end). */
size_t gl_lines_offset(struct gl_lines *l, struct gl_loc loc);
/* Offset just past the last byte of loc's line (its '\n' or the end); SIZE_MAX if none. */
size_t gl_lines_line_end(struct gl_lines *l, struct gl_loc loc);

#endif
