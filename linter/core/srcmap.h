/* SPDX-License-Identifier: Apache-2.0 */
/*
 * srcmap.h: map offsets of a derived text back to positions in the original file.
 *
 * Parsers often work on text that is not a contiguous slice of the file: a Dockerfile
 * RUN line joined across continuations, a Markdown code block without its prompts, a
 * YAML block scalar without its indentation. A gl_srcmap records, for each piece of the
 * derived text, where that piece starts in the original file; within a piece, offsets
 * advance column by column on one line. gl_srcmap_loc(map, off) gives the exact line and
 * column of any byte of the derived text, so findings point at the original token.
 *
 * Build it while building the text: call gl_srcmap_add(map, text_offset, line, col) each
 * time the next byte of the text comes from a new place (a new line, a skipped prefix).
 */
#ifndef GPULINT_SRCMAP_H
#define GPULINT_SRCMAP_H

#include "linter/core/util.h"

struct gl_srcmap_seg {
    size_t off;      /* offset in the derived text where this piece starts */
    struct gl_loc at; /* where that byte is in the original file */
};

struct gl_srcmap {
    struct gl_srcmap_seg *segs;
    size_t n, cap;
    struct gl_arena *arena;
};

static inline void gl_srcmap_init(struct gl_srcmap *m, struct gl_arena *arena)
{
    m->segs = NULL;
    m->n = m->cap = 0;
    m->arena = arena;
}
/* Room for one more segment (the array doubles, as GL_APPEND's does: the arena is charged
 * the same bytes; the new room is not cleared, since only segs[0, n) is ever read). False
 * when a doubling of a map past its first segments would take the arena past its limit
 * parse-memory: it is only charged (the arena is over, the parser stops), and the map
 * keeps what it has (a text of millions of continued lines took twice its map in RSS). */
bool gl_srcmap_grow(struct gl_srcmap *m);
/* Offsets must be added in increasing order; a piece at the same offset replaces the last.
 * Inline: a parser adds one a line or a piece. */
static inline void gl_srcmap_add(struct gl_srcmap *m, size_t off, uint32_t line, uint32_t col)
{
    if (m->n && m->segs[m->n - 1].off == off) {
        m->segs[m->n - 1].at = (struct gl_loc){line, col};
        return;
    }
    if (m->n == m->cap && !gl_srcmap_grow(m))
        return; /* (past parse-memory: the bytes from here map to the last segment) */
    m->segs[m->n++] = (struct gl_srcmap_seg){off, {line, col}};
}
/* Position of byte `off` of the derived text ({0,0} for an empty map). */
struct gl_loc gl_srcmap_loc(const struct gl_srcmap *m, size_t off);
/* The same, for lookups whose offsets mostly increase (a lexer's words): *hint (0 at
 * first) is the piece the last lookup found, so that the next is O(1) when it is near.
 * Inline when the offset is in that same piece (most of a line's words); else the search
 * of gl_srcmap_loc_near_from. */
struct gl_loc gl_srcmap_loc_near_from(const struct gl_srcmap *m, size_t off, size_t *hint);
static inline struct gl_loc gl_srcmap_loc_near(const struct gl_srcmap *m, size_t off,
                                               size_t *hint)
{
    size_t h = *hint;
    if (h < m->n && m->segs[h].off <= off && (h + 1 == m->n || m->segs[h + 1].off > off))
        return (struct gl_loc){m->segs[h].at.line,
                               m->segs[h].at.col + (uint32_t)(off - m->segs[h].off)};
    return gl_srcmap_loc_near_from(m, off, hint);
}
/* Bytes [from, to) of a derived text mapped by `src` were copied to offset dst_off of the
 * text `dst` maps (a text derived from a derived text: a notebook cell's command cut
 * from the cell's joined source strings): add their pieces. Offsets of dst must still
 * increase. */
void gl_srcmap_append(struct gl_srcmap *dst, size_t dst_off, const struct gl_srcmap *src,
                      size_t from, size_t to);
/* An identity map for a text that is the file itself from (line, col) on. {0, 0}; or,
 * when its room (a segment a line) would take the arena past parse-memory, the position of
 * the first line whose segment found none (the limit was reached there). */
struct gl_loc gl_srcmap_identity(struct gl_srcmap *m, const char *text, size_t len, uint32_t line,
                                 uint32_t col);

/* The positions of offsets of a text that is the file itself from line 1 col 1 (no map),
 * asked in increasing order: each look-up walks on from the last one (an offset before it
 * starts again from the text's start), so that the look-ups of one pass over the text are
 * linear in it (the substitutions of a script, the command lines of a systemd unit). */
struct gl_text_cursor {
    size_t off;        /* the offset last asked */
    struct gl_loc at;  /* and its position */
};
#define GL_TEXT_CURSOR_INIT {0, {1, 1}}
struct gl_loc gl_text_cursor_loc(struct gl_text_cursor *c, const char *text, size_t off);

#endif
