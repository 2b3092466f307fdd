/* SPDX-License-Identifier: Apache-2.0 */
/* shell_pos.c: where the shell reader is: the original position of an input offset, and
 * the first error, recorded at its position (see shell_internal.h). Below the lexer and
 * the word builder, which both report positions and errors. */
#include "parsers/shell/shell_internal.h"

struct gl_loc shl_loc_lookup(struct sh_lexer *lx, size_t off)
{
    const struct gl_srcmap *m = lx->map;
    /* The piece after the hint first: offsets increase, and a word outside the piece kept
     * is nearly always on the next line of a continued text (RUN a \ b), the next piece.
     * It is the piece gl_srcmap_loc_near finds when it starts at or before off and the one
     * after it (if any) starts past off (pieces' offsets never decrease). */
    size_t h = lx->map_hint + 1;
    struct gl_loc loc;
    if (h < m->n && m->segs[h].off <= off && (h + 1 == m->n || m->segs[h + 1].off > off)) {
        lx->map_hint = h;
        loc = (struct gl_loc){m->segs[h].at.line,
                              m->segs[h].at.col + (uint32_t)(off - m->segs[h].off)};
    } else {
        loc = gl_srcmap_loc_near(m, off, &lx->map_hint);
        h = lx->map_hint;
    }
    if (m->n && h < m->n && m->segs[h].off <= off) { /* off is in piece h: keep it */
        lx->piece_lo = m->segs[h].off;
        lx->piece_len = h + 1 < m->n ? m->segs[h + 1].off - lx->piece_lo : SIZE_MAX - lx->piece_lo;
        lx->piece_at = m->segs[h].at;
    }
    return loc;
}

void shl_error(struct sh_lexer *lx, size_t off, const char *message)
{
    if (lx->err && !lx->err->set) {
        lx->err->set = true;
        lx->err->offset = off;
        lx->err->loc = shl_loc(lx, off);
        lx->err->message = message;
    }
    lx->stop = true;
}
