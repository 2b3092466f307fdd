/* SPDX-License-Identifier: Apache-2.0 */
/* srcmap.c: derived-text offsets to original positions (see srcmap.h). */
#include "linter/core/srcmap.h"

#include <string.h>

#include "linter/core/newline.h"

/* A map grows to this many segments whatever the arena's limit (a position for each of a
 * text's first pieces); past it, a doubling that would take the arena past parse-memory
 * is refused (gl_srcmap_add). */
#define SRCMAP_ALWAYS 64

bool gl_srcmap_grow(struct gl_srcmap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 2;
    struct gl_srcmap_seg *segs = m->cap < SRCMAP_ALWAYS
                                     ? gl_arena_take(m->arena, ncap * sizeof *segs)
                                     : gl_arena_take_within(m->arena, ncap * sizeof *segs);
    if (!segs)
        return false;
    if (m->n)
        memcpy(segs, m->segs, m->n * sizeof *segs);
    m->segs = segs;
    m->cap = ncap;
    return true;
}

/* The last segment in [lo, hi) with seg.off <= off (lo when none: off before the map). */
static size_t last_at_or_before(const struct gl_srcmap *m, size_t lo, size_t hi, size_t off)
{
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->segs[mid].off <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static struct gl_loc loc_in(const struct gl_srcmap_seg *s, size_t off)
{
    if (off < s->off)
        return s->at;
    return (struct gl_loc){s->at.line, s->at.col + (uint32_t)(off - s->off)};
}

struct gl_loc gl_srcmap_loc(const struct gl_srcmap *m, size_t off)
{
    if (!m->n)
        return (struct gl_loc){0, 0};
    return loc_in(&m->segs[last_at_or_before(m, 0, m->n, off)], off);
}

struct gl_loc gl_srcmap_loc_near_from(const struct gl_srcmap *m, size_t off, size_t *hint)
{
    if (!m->n)
        return (struct gl_loc){0, 0};
    size_t h = *hint < m->n ? *hint : 0;
    if (m->segs[h].off <= off) {
        /* forward from the hint: the next segment or two, else a search of the rest */
        size_t steps = 0;
        while (h + 1 < m->n && m->segs[h + 1].off <= off && steps++ < 4)
            h++;
        if (h + 1 < m->n && m->segs[h + 1].off <= off)
            h = last_at_or_before(m, h, m->n, off);
    } else {
        h = last_at_or_before(m, 0, h, off);
    }
    *hint = h;
    return loc_in(&m->segs[h], off);
}

/* A segment a line, in one room of the lines' number (counted first), not doubled from
 * two: a text of millions of short lines would leave twice its map in the arena. When the
 * room would take the arena past its limit parse-memory, it is only charged (the arena is
 * over: the caller stops there, at the position returned) and the map keeps its first
 * segment. */
struct gl_loc gl_srcmap_identity(struct gl_srcmap *m, const char *text, size_t len,
                                 uint32_t line, uint32_t col)
{
    size_t n = m->n + gl_count_lines(text, len), fit;
    if (n > m->cap) {
        struct gl_srcmap_seg *segs = gl_arena_take_table(m->arena, n, sizeof *segs, &fit);
        if (!segs) {
            gl_srcmap_add(m, 0, line, col);
            size_t k = fit > m->n ? fit - m->n : 0; /* (< the text's lines) */
            return (struct gl_loc){line + (uint32_t)k, k ? 1 : col};
        }
        if (m->n)
            memcpy(segs, m->segs, m->n * sizeof *segs);
        m->segs = segs;
        m->cap = n;
    }
    gl_srcmap_add(m, 0, line, col);
    for (size_t base = 0; base < len; base += 64) /* (newline.h) */
        for (uint64_t b = gl_nl_window(text, len, base); b; b &= b - 1)
            gl_srcmap_add(m, base + (size_t)__builtin_ctzll(b) + 1, ++line, 1);
    return (struct gl_loc){0, 0};
}

void gl_srcmap_append(struct gl_srcmap *dst, size_t dst_off, const struct gl_srcmap *src,
                      size_t from, size_t to)
{
    if (!src->n || from >= to)
        return;
    size_t i = last_at_or_before(src, 0, src->n, from);
    struct gl_loc at = loc_in(&src->segs[i], from);
    gl_srcmap_add(dst, dst_off, at.line, at.col);
    /* the segments inside (from, to) only: a text's command substitutions each take the
       map of their bytes, and a walk of the whole map for each was quadratic (20,000
       lines of `X=$(echo a)` in a YAML block: 2 s) */
    for (i += src->segs[i].off <= from; i < src->n && src->segs[i].off < to; i++)
        gl_srcmap_add(dst, dst_off + (src->segs[i].off - from), src->segs[i].at.line,
                      src->segs[i].at.col);
}

struct gl_loc gl_text_cursor_loc(struct gl_text_cursor *c, const char *text, size_t off)
{
    if (off < c->off)
        *c = (struct gl_text_cursor)GL_TEXT_CURSOR_INIT;
    for (const char *nl; (nl = memchr(text + c->off, '\n', off - c->off)) != NULL;) {
        c->at.line++;
        c->at.col = 1;
        c->off = (size_t)(nl - text) + 1;
    }
    c->at.col += (uint32_t)(off - c->off);
    c->off = off;
    return c->at;
}
