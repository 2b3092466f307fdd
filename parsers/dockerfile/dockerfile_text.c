/* SPDX-License-Identifier: Apache-2.0 */
/* dockerfile_text.c: UTF-8 and whitespace the way Go sees them, and derived strings with
 * source maps (see dockerfile_internal.h). */
#include "parsers/dockerfile/dockerfile_internal.h"

#include <stdlib.h>
#include <string.h>

size_t df_utf8_decode(const char *s, size_t n, uint32_t *r)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned char c = u[0];
    *r = DF_RUNE_ERROR;
    if (c < 0x80) {
        *r = c;
        return 1;
    }
    size_t need;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 1;
    }
    if (n < need)
        return 1;
    for (size_t i = 1; i < need; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return 1;
        v = (v << 6) | (u[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 1;
    *r = v;
    return need;
}

size_t df_utf8_encode(uint32_t r, char out[4])
{
    if (r < 0x80) {
        out[0] = (char)r;
        return 1;
    }
    if (r < 0x800) {
        out[0] = (char)(0xC0 | (r >> 6));
        out[1] = (char)(0x80 | (r & 0x3F));
        return 2;
    }
    if (r < 0x10000) {
        out[0] = (char)(0xE0 | (r >> 12));
        out[1] = (char)(0x80 | ((r >> 6) & 0x3F));
        out[2] = (char)(0x80 | (r & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (r >> 18));
    out[1] = (char)(0x80 | ((r >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((r >> 6) & 0x3F));
    out[3] = (char)(0x80 | (r & 0x3F));
    return 4;
}

bool df_is_uspace(uint32_t r)
{
    switch (r) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ':
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F:
    case 0x205F: case 0x3000:
        return true;
    default:
        return r >= 0x2000 && r <= 0x200A;
    }
}


/* ---- derived text ---- */

void df_textb_init(struct df_textb *t)
{
    gl_buf_init(&t->buf);
    t->pieces = NULL;
    t->npieces = t->cap = 0;
    t->segs = NULL;
    t->nsegs = t->segcap = 0;
}

void df_textb_free(struct df_textb *t)
{
    gl_buf_free(&t->buf);
    free(t->pieces);
    free(t->segs);
    t->segs = NULL;
    t->pieces = NULL;
    t->npieces = t->cap = 0;
}

static void add_piece(struct df_textb *t, size_t src)
{
    if (t->npieces == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->pieces = xrealloc(t->pieces, t->cap * sizeof *t->pieces);
    }
    t->pieces[t->npieces++] = (struct df_piece){t->buf.len, src};
}

void df_textb_run(struct df_textb *t, const char *line, size_t off, size_t n)
{
    if (!n)
        return;
    bool contiguous = false;
    if (t->npieces) {
        const struct df_piece *p = &t->pieces[t->npieces - 1];
        contiguous = p->src + (t->buf.len - p->out) == off;
    }
    if (!contiguous)
        add_piece(t, off);
    gl_buf_add(&t->buf, line + off, n);
}

void df_textb_made(struct df_textb *t, const char *bytes, size_t n, size_t src)
{
    for (size_t i = 0; i < n; i++) {
        add_piece(t, src);
        gl_buf_addc(&t->buf, bytes[i]);
    }
}

void df_map_commit(struct gl_arena *a, struct gl_srcmap *map, const struct gl_srcmap_seg *segs,
                   size_t n)
{
    gl_srcmap_init(map, a);
    if (!n)
        return;
    map->segs = gl_arena_memdup(a, segs, n * sizeof *segs);
    map->n = map->cap = n;
}

static void seg_push(struct df_textb *t, size_t out, struct gl_loc at)
{
    if (t->nsegs && t->segs[t->nsegs - 1].off == out) {
        t->segs[t->nsegs - 1].at = at;
        return;
    }
    if (t->nsegs == t->segcap) {
        t->segcap = t->segcap ? t->segcap * 2 : 16;
        t->segs = xrealloc(t->segs, t->segcap * sizeof *t->segs);
    }
    t->segs[t->nsegs++] = (struct gl_srcmap_seg){out, at};
}

/* The map of a derived text of tlen bytes made of t's pieces, into map. */
static void finish_map(struct df_textb *t, struct gl_arena *a, const struct gl_srcmap *line_map,
                       size_t empty_src, size_t tlen, struct gl_srcmap *map)
{
    t->nsegs = 0;
    if (line_map->n && !tlen)
        seg_push(t, 0, gl_srcmap_loc(line_map, empty_src));
    size_t hint = 0;
    for (size_t i = 0; line_map->n && i < t->npieces; i++) {
        size_t out = t->pieces[i].out, src = t->pieces[i].src;
        size_t end = i + 1 < t->npieces ? t->pieces[i + 1].out : tlen;
        if (out >= end)
            continue;
        /* the piece's first byte, and (hint) the line-map segment that holds it */
        seg_push(t, out, gl_srcmap_loc_near(line_map, src, &hint));
        for (size_t s = hint + 1; s < line_map->n; s++) {
            size_t so = line_map->segs[s].off;
            if (so >= src + (end - out))
                break;
            seg_push(t, out + (so - src), line_map->segs[s].at);
        }
    }
    df_map_commit(a, map, t->segs, t->nsegs);
}

void df_textb_finish(struct df_textb *t, struct gl_arena *a, const struct gl_srcmap *line_map,
                     size_t empty_src, const char **text, size_t *len, struct gl_srcmap *map)
{
    *len = t->buf.len;
    if (t->npieces <= 1) { /* one piece (a word as written, a made rune) or none: its map
                              does not need the piece list */
        df_copy_mapped(a, line_map, t->npieces ? t->pieces[0].src : empty_src, t->buf.data,
                       t->buf.len, text, map);
        return;
    }
    *text = gl_arena_strndup(a, t->buf.data ? t->buf.data : "", t->buf.len);
    finish_map(t, a, line_map, empty_src, t->buf.len, map);
}

/* df_slice_map on a line of any number of pieces: the piece's first byte, then every
 * line-map segment that starts inside it (they start after `off`, so no two share an
 * offset). */
void df_slice_map_slow(struct gl_arena *a, const struct gl_srcmap *line_map, size_t off,
                       size_t n, struct gl_srcmap *map)
{
    gl_srcmap_init(map, a);
    if (!line_map->n)
        return;
    size_t h = 0;
    struct gl_loc first = gl_srcmap_loc_near(line_map, off, &h);
    size_t from = h + 1, to = from;
    if (n && line_map->segs[line_map->n - 1].off < off + n)
        to = line_map->n; /* (the last segment starts inside: so do all after `from`, most
                             often, for a slice to the line's end) */
    while (n && to < line_map->n && line_map->segs[to].off < off + n)
        to++;
    size_t count = 1 + (to - from);
    struct gl_srcmap_seg *segs = gl_arena_take(a, count * sizeof *segs);
    segs[0] = (struct gl_srcmap_seg){0, first};
    for (size_t s = from; s < to; s++)
        segs[1 + s - from] = (struct gl_srcmap_seg){line_map->segs[s].off - off,
                                                    line_map->segs[s].at};
    map->segs = segs;
    map->n = map->cap = count;
}
