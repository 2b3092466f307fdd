/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile_instr.c: one logical line -> keyword, flags and node values, following
 * BuildKit's splitCommand/extractBuilderFlags and the per-keyword line parsers
 * (line_parsers.go) rule for rule, including their quirks (byte-wise space tests in
 * flags and HEALTHCHECK, U+FFFD for invalid UTF-8 in ENV/LABEL/ARG words, an empty
 * value for unknown keywords). ONBUILD nesting is a loop, not recursion.
 */
#include "parsers/dockerfile/dockerfile_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct argv {
    struct df_arg *v;
    size_t n, cap;
};

/* Go's strings.TrimSpace on line[*s, *e). */
static void trim_uspace_slow(const char *L, size_t *s, size_t *e)
{
    while (*s < *e) {
        unsigned char b = (unsigned char)L[*s];
        if (b < 0x80) { /* an ASCII byte is its own rune */
            if (!df_ascii_uspace(b))
                break;
            (*s)++;
            continue;
        }
        uint32_t r;
        size_t w = df_utf8_decode(L + *s, *e - *s, &r);
        if (!df_is_uspace(r))
            break;
        *s += w;
    }
    while (*e > *s) {
        unsigned char b = (unsigned char)L[*e - 1];
        if (b < 0x80) {
            if (!df_ascii_uspace(b))
                break;
            (*e)--;
            continue;
        }
        size_t st = *e - 1, lim = *e - *s > 4 ? *e - 4 : *s;
        while (st > lim && ((unsigned char)L[st] & 0xC0) == 0x80)
            st--;
        uint32_t r;
        size_t w = df_utf8_decode(L + st, *e - st, &r);
        if (w != *e - st) /* invalid: Go sees one RuneError byte */
            break;
        if (!df_is_uspace(r))
            break;
        *e = st;
    }
}

/* The same, inline for a text that starts and ends with a non-blank ASCII byte (nearly
 * every instruction and argument): nothing to trim. */
static inline void trim_uspace(const char *L, size_t *s, size_t *e)
{
    if (*s < *e && (unsigned char)L[*s] < 0x80 && !df_ascii_uspace((unsigned char)L[*s]) &&
        (unsigned char)L[*e - 1] < 0x80 && !df_ascii_uspace((unsigned char)L[*e - 1]))
        return;
    trim_uspace_slow(L, s, e);
}

/* unicode.ToLower for the common scripts (ASCII, Latin-1, Latin Extended-A, Greek,
 * Cyrillic, and the two runes that lower to ASCII: KELVIN SIGN and I WITH DOT). */
static uint32_t go_lower_rune(uint32_t r)
{
    if (r >= 'A' && r <= 'Z')
        return r + 32;
    if (r < 0x80)
        return r;
    if ((r >= 0xC0 && r <= 0xDE && r != 0xD7) || (r >= 0x391 && r <= 0x3AB && r != 0x3A2) ||
        (r >= 0x410 && r <= 0x42F))
        return r + 32;
    if (r >= 0x400 && r <= 0x40F)
        return r + 80;
    if (r == 0x212A)
        return 'k';
    if (r == 0x130)
        return 'i';
    if (r >= 0x100 && r <= 0x17F && r != 0x130 && r != 0x131 && r != 0x138 && r != 0x149 &&
        r != 0x17F) {
        bool odd_upper = (r >= 0x139 && r <= 0x148) || (r >= 0x179 && r <= 0x17E);
        if (odd_upper ? (r & 1) : !(r & 1))
            return r == 0x178 ? 0xFF : r + 1;
    }
    return r;
}

static const char *go_lower(struct gl_arena *a, const char *s, size_t n)
{
    size_t ascii = 0;
    while (ascii < n && (unsigned char)s[ascii] < 0x80)
        ascii++;
    if (ascii == n) { /* all ASCII (every keyword): lowered in place, no scratch buffer */
        char *out = gl_arena_strndup(a, s, n);
        for (size_t i = 0; i < n; i++)
            if (out[i] >= 'A' && out[i] <= 'Z')
                out[i] = (char)(out[i] + 32);
        return out;
    }
    struct gl_buf b;
    gl_buf_init(&b);
    for (size_t i = 0; i < n;) {
        uint32_t r;
        i += df_utf8_decode(s + i, n - i, &r);
        char u[4];
        gl_buf_add(&b, u, df_utf8_encode(go_lower_rune(r), u));
    }
    const char *out = gl_arena_strndup(a, b.data ? b.data : "", b.len);
    gl_buf_free(&b);
    return out;
}

static bool fail_at(const struct df_instr *in, size_t off, struct df_error *err,
                    const char *msg)
{
    err->loc = gl_srcmap_loc(&in->line_map, off);
    snprintf(err->message, sizeof err->message, "%s", msg);
    return false;
}

/* arg_span for any argument but the first one of a one-line instruction that runs to the
 * line's end: a slot in the array, the text copied (or, at the end, the line's tail), its
 * map sliced from the line's. */
static void arg_span_copy(struct df_lineparse *lp, struct df_instr *in, struct argv *av,
                          size_t s, size_t e)
{
    struct df_arg *a = DF_APPEND(lp->arena, av->v, av->n, av->cap);
    df_textb_slice(&lp->tb, lp->arena, in->line, &in->line_map, s, e - s, e == in->line_len,
                   &a->value, &a->len, &a->map);
    /* gl_srcmap_loc(&in->line_map, s): the slice's map starts with it */
    a->loc = a->map.n ? a->map.segs[0].at : (struct gl_loc){0, 0};
}

/* An argument that is line[s, e) as is. Inline: the first argument of a one-line
 * instruction that runs to the line's end (RUN, CMD, WORKDIR ...) takes a few stores; the
 * others are copied out of line. */
static inline void arg_span(struct df_lineparse *lp, struct df_instr *in, struct argv *av,
                            size_t s, size_t e)
{
    const struct gl_srcmap *lm = &in->line_map;
    if (!av->cap && lm->n == 1 && s >= lm->segs[0].off && e == in->line_len) {
        /* the array's first room (two) and the one segment of its map in one take, the
         * bytes the two takes would have (so the same charge) */
        _Static_assert(2 * sizeof(struct df_arg) % 16 == 0, "one take for two");
        char *blk = gl_arena_take(lp->arena, 2 * sizeof *av->v + sizeof *lm->segs);
        struct gl_srcmap_seg *seg = (struct gl_srcmap_seg *)(blk + 2 * sizeof *av->v);
        *seg = (struct gl_srcmap_seg){0, df_seg_loc(&lm->segs[0], s)};
        av->v = (struct df_arg *)blk;
        av->cap = 2;
        av->n = 1;
        df_textb_reset(&lp->tb);
        gl_arena_charge(lp->arena, e - s + 1); /* the tail: no copy (charged as one) */
        av->v[0] = (struct df_arg){in->line + s, e - s, seg->at, {seg, 1, 1, lp->arena}};
        return;
    }
    arg_span_copy(lp, in, av, s, e);
}

/* Arguments that are spans of the line, as arg_span gives them one by one, all at once:
 * for an instruction of one physical line (its map one segment) whose argument array is
 * still empty. A span is line[s, e) as written. */
struct span {
    size_t s, e;
};
#define SPANS_MAX 32

/* The args of k spans (k <= SPANS_MAX, av empty, in->line_map one segment): what k calls
 * of arg_span would make, in one arena take (spans_size: its bytes, and the bytes only
 * charged; *cap the array's room). The array is taken at its last room (the
 * rooms it had before, from 2 doubled, are charged: df_grow took each), and each argument
 * has its segment and its copy (16 + its length + 1, rounded to 16, what df_copy_mapped
 * takes) or, when it ends at the line's end, its segment and the line's own tail (the copy
 * charged). Every part is a multiple of 16, so the one take and the charge count what the
 * takes one by one counted. */
static inline __attribute__((always_inline)) size_t
spans_size(const struct df_instr *in, const struct span *sp, size_t k,
                         size_t *cap, size_t *charged)
{
    _Static_assert(2 * sizeof(struct df_arg) % 16 == 0, "rooms of whole granules");
    *cap = 2;
    *charged = 0;
    for (; *cap < k; *cap *= 2)
        *charged += *cap * sizeof(struct df_arg);
    size_t bytes = *cap * sizeof(struct df_arg);
    for (size_t i = 0; i < k; i++) {
        size_t room = (sp[i].e - sp[i].s + 1 + 15) & ~(size_t)15;
        bytes += sizeof(struct gl_srcmap_seg);
        if (sp[i].e == in->line_len)
            *charged += room;
        else
            bytes += room;
    }
    return bytes;
}

static void emit_spans(struct df_lineparse *lp, struct df_instr *in, struct argv *av,
                       const struct span *sp, size_t k)
{
    if (!k)
        return;
    size_t cap, charged, bytes = spans_size(in, sp, k, &cap, &charged);
    char *blk = gl_arena_take(lp->arena, bytes);
    gl_arena_charge(lp->arena, charged);
    struct df_arg *v = (struct df_arg *)blk;
    char *p = blk + cap * sizeof *v;
    const struct gl_srcmap_seg *ls = &in->line_map.segs[0];
    for (size_t i = 0; i < k; i++) {
        size_t n = sp[i].e - sp[i].s;
        struct gl_srcmap_seg *seg = (struct gl_srcmap_seg *)p;
        *seg = (struct gl_srcmap_seg){0, df_seg_loc(ls, sp[i].s)};
        p += sizeof *seg;
        const char *text = in->line + sp[i].s;
        if (sp[i].e != in->line_len) {
            df_copy_str(p, text, n);
            text = p;
            p += (n + 1 + 15) & ~(size_t)15;
        }
        v[i] = (struct df_arg){text, n, seg->at, {seg, 1, 1, lp->arena}};
    }
    av->v = v;
    av->n = k;
    av->cap = cap;
    df_textb_reset(&lp->tb);
}

/* An argument that is bytes [from, to) of a text with map m (which starts at offset 0):
 * the segment that holds `from`, then those that start inside [from, to), into an arena
 * array of their number (what df_map_commit of them took), beside the text's copy. Always
 * inline (into name_val's three calls a pair), like ws_delimited and maybe_json below: run
 * for most instructions or words, their calls saved and restored more registers than the
 * little work each does between its loops. */
static inline __attribute__((always_inline)) void
arg_slice(struct df_lineparse *lp, struct argv *av, const char *text, const struct gl_srcmap *m,
          size_t from, size_t to)
{
    struct df_arg *a = DF_APPEND(lp->arena, av->v, av->n, av->cap);
    size_t first = 0; /* the segment that holds `from` */
    while (first + 1 < m->n && m->segs[first + 1].off <= from)
        first++;
    size_t last = first + 1; /* past the last segment that starts before `to` */
    while (last < m->n && m->segs[last].off < to)
        last++;
    a->loc = !m->n                      ? (struct gl_loc){0, 0}
             : from < m->segs[first].off ? m->segs[first].at
                                         : df_seg_loc(&m->segs[first], from);
    size_t n = m->n ? last - first : 1;
    /* the segments and the copy of the text in one take: the bytes of the two takes (each
     * a multiple of 16), so the same charge */
    char *blk = gl_arena_take(lp->arena, n * sizeof(struct gl_srcmap_seg) +
                                             ((to - from + 1 + 15) & ~(size_t)15));
    struct gl_srcmap_seg *segs = (struct gl_srcmap_seg *)blk;
    char *copy = blk + n * sizeof *segs;
    df_copy_str(copy, text + from, to - from);
    a->value = copy;
    a->len = to - from;
    segs[0] = (struct gl_srcmap_seg){0, a->loc};
    for (size_t i = 1; i < n; i++)
        segs[i] = (struct gl_srcmap_seg){m->segs[first + i].off - from, m->segs[first + i].at};
    gl_srcmap_init(&a->map, lp->arena);
    a->map.segs = segs;
    a->map.n = a->map.cap = n;
}

/* Append the rune at line[pos] (width w) to the scratch text, U+FFFD if invalid. */
static void add_rune(struct df_lineparse *lp, const char *L, size_t pos, size_t w, uint32_t r)
{
    if (r == DF_RUNE_ERROR && w == 1)
        df_textb_made(&lp->tb, "\xEF\xBF\xBD", 3, pos);
    else
        df_textb_run(&lp->tb, L, pos, w);
}

/* Go's string(rune(b)) for one byte: bytes >= 0x80 become two-byte UTF-8. */
static void add_byte_rune(struct df_lineparse *lp, const char *L, size_t pos)
{
    unsigned char b = (unsigned char)L[pos];
    if (b < 0x80) {
        df_textb_run(&lp->tb, L, pos, 1);
    } else {
        char u[4];
        df_textb_made(&lp->tb, u, df_utf8_encode(b, u), pos);
    }
}

static bool tb_is(const struct df_lineparse *lp, const char *s)
{
    size_t n = strlen(s);
    return lp->tb.buf.len == n && memcmp(lp->tb.buf.data, s, n) == 0;
}

static void emit_flag(struct df_lineparse *lp, struct df_instr *in, size_t *cap, size_t start)
{
    struct df_flag *f = DF_APPEND(lp->arena, in->flags, in->nflags, *cap);
    df_textb_finish(&lp->tb, lp->arena, &in->line_map, start, &f->text, &f->len, &f->map);
    f->loc = gl_srcmap_loc(&in->line_map, start);
    df_textb_reset(&lp->tb);
}

/* extractBuilderFlags on line[s, e): returns where the arguments start. */
static size_t extract_flags(struct df_lineparse *lp, struct df_instr *in, size_t s, size_t e)
{
    enum { SPACES, WORD, QUOTE } phase = SPACES;
    const char *L = in->line;
    size_t cap = 0, start = s;
    bool blank_ok = false;
    char quote = 0, esc = lp->escape;
    df_textb_reset(&lp->tb);
    for (size_t pos = s; pos <= e; pos++) {
        char ch = pos < e ? L[pos] : 0;
        if (phase == SPACES) {
            if (pos == e)
                break;
            if (df_is_byte_space((unsigned char)ch))
                continue;
            if (ch != '-' || pos + 1 == e || L[pos + 1] != '-')
                return pos;
            phase = WORD;
            start = pos;
        }
        if (pos == e) {
            if (!tb_is(lp, "--") && (blank_ok || lp->tb.buf.len))
                emit_flag(lp, in, &cap, start);
            break;
        }
        if (phase == WORD) {
            if (df_is_byte_space((unsigned char)ch)) {
                phase = SPACES;
                if (tb_is(lp, "--"))
                    return pos;
                if (blank_ok || lp->tb.buf.len)
                    emit_flag(lp, in, &cap, start);
                df_textb_reset(&lp->tb);
                blank_ok = false;
                continue;
            }
            if (ch == '\'' || ch == '"') {
                quote = ch;
                blank_ok = true;
                phase = QUOTE;
                continue;
            }
            if (ch == esc) {
                if (pos + 1 == e)
                    continue;
                pos++;
            } else if ((unsigned char)ch < 0x80) {
                /* an ASCII byte that is itself, and the run of them after it, at once (the
                 * same contiguous piece byte-by-byte appends make) */
                size_t run = df_skip_plain(L, pos + 1, e, '\'', '"', (unsigned char)esc);
                while (run < e && (unsigned char)L[run] < 0x80 &&
                       !df_ascii_uspace((unsigned char)L[run]) && L[run] != '\'' &&
                       L[run] != '"' && L[run] != esc)
                    run++;
                if (pos == start && (run == e || df_ascii_uspace((unsigned char)L[run])) &&
                    run - pos != 2) {
                    /* the whole flag is this run (no "--", nothing before it, a blank or the
                     * end after it): line[start, run) as written, what emit_flag makes of
                     * its one piece, without the scratch text */
                    struct df_flag *f = DF_APPEND(lp->arena, in->flags, in->nflags, cap);
                    df_textb_slice(&lp->tb, lp->arena, L, &in->line_map, start, run - start,
                                   false, &f->text, &f->len, &f->map);
                    /* gl_srcmap_loc(&in->line_map, start): the slice's map starts with it */
                    f->loc = f->map.n ? f->map.segs[0].at : (struct gl_loc){0, 0};
                    if (run == e)
                        return e;
                    phase = SPACES;
                    blank_ok = false;
                    pos = run;
                    continue;
                }
                df_textb_run(&lp->tb, L, pos, run - pos);
                pos = run - 1;
                continue;
            }
            add_byte_rune(lp, L, pos);
            continue;
        }
        /* QUOTE */
        if (ch == quote) {
            phase = WORD;
            continue;
        }
        if (ch != esc && (unsigned char)ch < 0x80) { /* likewise up to the quote or escape */
            size_t run = pos + 1;
            while (run < e && (unsigned char)L[run] < 0x80 && L[run] != quote && L[run] != esc)
                run++;
            df_textb_run(&lp->tb, L, pos, run - pos);
            pos = run - 1;
            continue;
        }
        if (ch == esc) {
            if (pos + 1 == e) {
                phase = WORD;
                continue;
            }
            pos++;
        }
        add_byte_rune(lp, L, pos);
    }
    return e;
}

/* A printable ASCII byte that is no blank and no quote: parse_words copies a run of them
 * (but the escape) at once. One table look-up a byte instead of five tests. */
static bool word_byte(unsigned char c)
{
    static const bool table[256] = {
#define R8(x) [x] = true, [x + 1] = true, [x + 2] = true, [x + 3] = true, [x + 4] = true, \
              [x + 5] = true, [x + 6] = true, [x + 7] = true
        ['!'] = true, ['#'] = true, ['$'] = true, ['%'] = true, ['&'] = true,
        R8(0x28), R8(0x30), R8(0x38), R8(0x40), R8(0x48), R8(0x50), R8(0x58), R8(0x60),
        R8(0x68), R8(0x70),
#undef R8
        [0x78] = true, [0x79] = true, [0x7A] = true, [0x7B] = true, [0x7C] = true,
        [0x7D] = true, [0x7E] = true, /* 0x21-0x7E but '"' (0x22) and '\'' (0x27) */
    };
    return table[c];
}

/* parse_words' bytes, by class: 0 kept as it is in a word, 1 an ASCII space (Go's
 * unicode.IsSpace: \t \n \v \f \r and ' '), 2 a quote, 3 either escape byte (which of
 * them is the file's escape is tested), 4 a byte >= 0x80. */
static const unsigned char word_class[256] = {
    DF_HIGH_BYTES(4),
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1,
    ['\''] = 2, ['"'] = 2, ['\\'] = 3, ['`'] = 3,
};

/* parse_words for an ASCII line of one physical line whose last byte is no escape: every
 * byte a word takes is then kept as it is (no rune becomes U+FFFD; an escape always has a
 * byte after it, which it keeps too), so a word is the span of the line from its first
 * byte to the space (outside quotes, not escaped) or the end after it, and its argument
 * what arg_span makes of the span (the builder's one-piece copy has the same bytes, map
 * and charge). The spans into sp, their number into *nspans; false (nothing done)
 * otherwise, or past SPANS_MAX words. (ascii_words makes them args.) */
static inline __attribute__((always_inline)) bool
ascii_spans(const struct df_lineparse *lp, const struct df_instr *in, size_t s,
                        size_t e, struct span sp[SPANS_MAX], size_t *nspans)
{
    const char *L = in->line;
    unsigned char esc = (unsigned char)lp->escape;
    if (in->line_map.n != 1 || (e > s && (unsigned char)L[e - 1] == esc))
        return false;
    size_t k = 0, p = s;
    for (;;) {
        while (p < e && word_class[(unsigned char)L[p]] == 1)
            p++;
        if (p == e)
            break;
        if (k == SPANS_MAX)
            return false;
        size_t start = p;
        unsigned char quote = 0;
        while (p < e) {
            unsigned char c;
            if (!quote) { /* runs of printable bytes but quotes and the escape at once */
                p = df_skip_plain(L, p, e, '"', '\'', esc);
                while (p < e && !word_class[(unsigned char)L[p]])
                    p++;
                if (p == e)
                    break;
                c = (unsigned char)L[p];
                if (word_class[c] == 1) /* the word's end */
                    break;
                if (word_class[c] == 4)
                    return false;
                if (word_class[c] == 2)
                    quote = c;
                else if (c == esc && (unsigned char)L[++p] >= 0x80) /* keeps the next byte */
                    return false;
                p++;
                continue;
            }
            p = df_skip_quoted(L, p, e, quote, esc); /* up to the quote or the escape */
            while (p < e && (unsigned char)L[p] < 0x80 && (unsigned char)L[p] != quote &&
                   (unsigned char)L[p] != esc)
                p++;
            if (p == e)
                break;
            c = (unsigned char)L[p];
            if (c >= 0x80)
                return false;
            if (c == quote)
                quote = 0;
            else if (quote != '\'' && (unsigned char)L[++p] >= 0x80) /* the escape */
                return false;
            p++;
        }
        sp[k++] = (struct span){start, p};
    }
    *nspans = k;
    return true;
}

static bool ascii_words(struct df_lineparse *lp, struct df_instr *in, struct argv *av,
                        size_t s, size_t e)
{
    struct span sp[SPANS_MAX];
    size_t k;
    if (av->cap || !ascii_spans(lp, in, s, e, sp, &k))
        return false;
    emit_spans(lp, in, av, sp, k);
    return true;
}

/* parseWords: words (quotes and escapes kept) of line[s, e) into av. */
static void parse_words(struct df_lineparse *lp, struct df_instr *in, struct argv *av, size_t s,
                        size_t e)
{
    if (ascii_words(lp, in, av, s, e))
        return;
    enum { SPACES, WORD, QUOTE } phase = SPACES;
    const char *L = in->line;
    bool blank_ok = false;
    uint32_t quote = 0, ch = 0, esc = (unsigned char)lp->escape;
    size_t w = 0, start = s;
    df_textb_reset(&lp->tb);
    for (size_t pos = s; pos <= e; pos += w) {
        if (pos != e)
            w = df_utf8_rune(L + pos, e - pos, &ch);
        if (phase == SPACES) {
            if (pos == e)
                break;
            if (df_is_uspace_fast(ch))
                continue;
            phase = WORD;
            start = pos;
        }
        if (pos == e) {
            if (blank_ok || lp->tb.buf.len) {
                struct df_arg *a = DF_APPEND(lp->arena, av->v, av->n, av->cap);
                df_textb_finish(&lp->tb, lp->arena, &in->line_map, start, &a->value, &a->len, &a->map);
                a->loc = gl_srcmap_loc(&in->line_map, start);
            }
            break;
        }
        if (phase == WORD && ch > ' ' && ch < 0x7F && ch != '\'' && ch != '"' && ch != esc) {
            /* a plain ASCII byte and the run of them after it, added at once */
            size_t run = df_skip_plain(L, pos + 1, e, '"', '\'', (unsigned char)esc);
            while (run < e && word_byte((unsigned char)L[run]) && (unsigned char)L[run] != esc)
                run++;
            w = run - pos;
            if (pos == start && (run == e || ((unsigned char)L[run] < 0x80 &&
                                              df_ascii_uspace((unsigned char)L[run])))) {
                /* the whole word is this run (nothing before it, a blank or the end after
                 * it: what the builder would make of it is line[start, run) as written) */
                arg_span(lp, in, av, start, run);
                phase = SPACES;
                continue;
            }
            df_textb_run(&lp->tb, L, pos, run - pos);
            continue;
        }
        if (phase == QUOTE && ch < 0x80 && ch != quote && ch != esc) {
            /* likewise inside quotes, up to the quote or escape */
            size_t run = df_skip_quoted(L, pos + 1, e, (unsigned char)quote, (unsigned char)esc);
            while (run < e && (unsigned char)L[run] < 0x80 && (unsigned char)L[run] != quote &&
                   (unsigned char)L[run] != esc)
                run++;
            df_textb_run(&lp->tb, L, pos, run - pos);
            w = run - pos;
            continue;
        }
        if (phase == WORD) {
            if (df_is_uspace_fast(ch)) {
                phase = SPACES;
                if (blank_ok || lp->tb.buf.len) {
                    struct df_arg *a = DF_APPEND(lp->arena, av->v, av->n, av->cap);
                    df_textb_finish(&lp->tb, lp->arena, &in->line_map, start, &a->value, &a->len,
                                    &a->map);
                    a->loc = gl_srcmap_loc(&in->line_map, start);
                }
                df_textb_reset(&lp->tb);
                blank_ok = false;
                continue;
            }
            if (ch == '\'' || ch == '"') {
                quote = ch;
                blank_ok = true;
                phase = QUOTE;
            }
            if (ch == esc) {
                if (pos + w == e)
                    continue;
                add_rune(lp, L, pos, w, ch);
                pos += w;
                w = df_utf8_rune(L + pos, e - pos, &ch);
            }
            add_rune(lp, L, pos, w, ch);
            continue;
        }
        /* QUOTE */
        if (ch == quote)
            phase = WORD;
        if (ch == esc && quote != '\'') {
            if (pos + w == e) {
                phase = WORD;
                continue;
            }
            add_rune(lp, L, pos, w, ch);
            pos += w;
            w = df_utf8_rune(L + pos, e - pos, &ch);
        }
        add_rune(lp, L, pos, w, ch);
    }
}

/* parseStringsWhitespaceDelimited (FROM, EXPOSE; COPY, ADD and VOLUME through maybe_json).
 * Always inline (see arg_slice). */
static inline __attribute__((always_inline)) void
ws_delimited(struct df_lineparse *lp, struct df_instr *in, struct argv *av, size_t s, size_t e)
{
    const char *L = in->line;
    size_t p = s;
    if (!av->cap && in->line_map.n == 1) { /* the spans first, then their args at once */
        struct span sp[SPANS_MAX];
        size_t k = 0;
        bool done = false;
        while (k < SPANS_MAX) {
            if (p >= e) {
                done = true;
                break;
            }
            size_t q = df_skip_plain(L, p, e, ' ', ' ', ' ');
            while (q < e && !df_is_ws((unsigned char)L[q]))
                q++;
            sp[k++] = (struct span){p, q};
            if (q == e) {
                done = true;
                break;
            }
            while (q < e && df_is_ws((unsigned char)L[q]))
                q++;
            p = q;
            if (p == e) { /* a trailing separator gives a last empty string */
                if (k < SPANS_MAX) {
                    sp[k++] = (struct span){p, p};
                    done = true;
                }
                break;
            }
        }
        if (done) {
            emit_spans(lp, in, av, sp, k);
            return;
        }
        p = s; /* more than SPANS_MAX: one by one */
    }
    while (p < e) {
        size_t q = df_skip_plain(L, p, e, ' ', ' ', ' ');
        while (q < e && !df_is_ws((unsigned char)L[q]))
            q++;
        arg_span(lp, in, av, p, q);
        if (q == e)
            break;
        while (q < e && df_is_ws((unsigned char)L[q]))
            q++;
        p = q;
        if (p == e) /* a trailing separator gives a last empty string */
            arg_span(lp, in, av, p, p);
    }
}

/* parseMaybeJSON (to_list = false) or parseMaybeJSONToList. Always inline (see
 * arg_slice). */
static inline __attribute__((always_inline)) bool
maybe_json(struct df_lineparse *lp, struct df_instr *in, struct argv *av, size_t s, size_t e,
           bool to_list, struct df_error *err)
{
    if (s == e && !to_list)
        return true;
    if (s < e && in->line[s] == '[') {
        size_t bad = 0, n0 = av->n;
        enum df_json_result r = df_json_strings(lp, in, s, e, &av->v, &av->n, &av->cap, &bad);
        if (r == DF_JSON_OK) {
            in->json = true;
            return true;
        }
        av->n = n0;
        if (r == DF_JSON_NOT_STRINGS)
            return fail_at(in, bad, err,
                           "when using JSON array syntax, arrays must be comprised of strings only");
    }
    if (to_list)
        ws_delimited(lp, in, av, s, e);
    else
        arg_span(lp, in, av, s, e);
    return true;
}

/* One `name=value` word w of ENV or LABEL: its key, value and sep args (arg_slice of each
 * part) and their kv; false (with err) when it has no '='. */
static bool kv_word(struct df_lineparse *lp, struct df_instr *in, struct argv *av, size_t *kcap,
                    const struct df_arg *w, struct df_error *err)
{
    const char *eq = memchr(w->value, '=', w->len);
    if (!eq) {
        char msg[200]; /* (the word up to 80 bytes or a NUL, as "%.80s" of its copy shows) */
        int shown = (int)strnlen(w->value, w->len < 80 ? w->len : 80);
        snprintf(msg, sizeof msg,
                 "Syntax error - can't find = in \"%.*s\". Must be of the form: name=value",
                 shown, w->value);
        err->loc = w->loc;
        snprintf(err->message, sizeof err->message, "%s", msg);
        return false;
    }
    size_t k = (size_t)(eq - w->value);
    struct df_kv *kv = DF_APPEND(lp->arena, in->kvs, in->nkvs, *kcap);
    kv->equals = true;
    kv->key = av->n;
    arg_slice(lp, av, w->value, &w->map, 0, k);
    kv->value = av->n;
    arg_slice(lp, av, w->value, &w->map, k + 1, w->len);
    kv->sep = av->n;
    arg_slice(lp, av, w->value, &w->map, k, k + 1);
    return true;
}

/* What kv_word makes of n words, one by one, for n words that are spans sp of a line of
 * one segment, each with a '=' (at eq[i], an offset in the line), while av and in->kvs are
 * empty: the args array and the pairs array taken at their last rooms (the rooms before,
 * from 2 doubled, charged: df_grow took each), and each arg's segment and copy in one
 * take of them all (the bytes arg_slice's takes have: each part a multiple of 16, so the
 * same charge). An arg's position is its first byte's on the line: the word's, moved by
 * the arg's offset in it, as arg_slice gives it. */
static void kv_spans(struct df_lineparse *lp, struct df_instr *in, struct argv *av,
                     const struct span *sp, const size_t *eq, size_t n)
{
    _Static_assert(sizeof(struct df_kv) % 16 == 0, "rooms of whole granules");
    struct gl_arena *a = lp->arena;
    size_t nargs = 3 * n, acap = 2, kcap = 2, charged = 0, bytes = 0;
    for (; kcap < n; kcap *= 2)
        charged += kcap * sizeof(struct df_kv);
    for (; acap < nargs; acap *= 2)
        charged += acap * sizeof(struct df_arg);
    for (size_t i = 0; i < n; i++) /* key, value and sep: "=" (2 bytes with the NUL) */
        bytes += 3 * sizeof(struct gl_srcmap_seg) + ((eq[i] - sp[i].s + 1 + 15) & ~(size_t)15) +
                 ((sp[i].e - eq[i] + 15) & ~(size_t)15) + 16;
    struct df_kv *kv = gl_arena_take(a, kcap * sizeof *kv);
    struct df_arg *v = gl_arena_take(a, acap * sizeof *v);
    char *p = gl_arena_take(a, bytes);
    gl_arena_charge(a, charged);
    const struct gl_srcmap_seg *ls = &in->line_map.segs[0];
    for (size_t i = 0; i < n; i++) {
        kv[i] = (struct df_kv){3 * i, 3 * i + 1, 3 * i + 2, true};
        const struct span part[3] = {{sp[i].s, eq[i]}, {eq[i] + 1, sp[i].e}, {eq[i], eq[i] + 1}};
        for (size_t j = 0; j < 3; j++) {
            size_t len = part[j].e - part[j].s;
            struct gl_srcmap_seg *seg = (struct gl_srcmap_seg *)p;
            *seg = (struct gl_srcmap_seg){0, df_seg_loc(ls, part[j].s)};
            char *copy = p + sizeof *seg;
            df_copy_str(copy, in->line + part[j].s, len);
            v[3 * i + j] = (struct df_arg){copy, len, seg->at, {seg, 1, 1, a}};
            p += sizeof *seg + ((len + 1 + 15) & ~(size_t)15);
        }
    }
    in->kvs = kv;
    in->nkvs = n;
    av->v = v;
    av->n = nargs;
    av->cap = acap;
}

/* parseNameVal (ENV, LABEL): key, value, sep triples. The words are parse_words'; on an
 * ASCII line of one physical line (ascii_spans) they are read straight from the line, as
 * spans, and the arena only charged for the args parse_words would have made of them
 * (what emit_spans takes): nothing keeps them but the pairs cut from them. */
static __attribute__((noinline)) bool
name_val(struct df_lineparse *lp, struct df_instr *in, struct argv *av, size_t s, size_t e,
         const char *what, struct df_error *err)
{
    struct argv words = {0};
    struct span sp[SPANS_MAX];
    size_t nsp = 0, kcap = 0;
    bool spans = ascii_spans(lp, in, s, e, sp, &nsp);
    if (spans && nsp) {
        size_t cap, charged, bytes = spans_size(in, sp, nsp, &cap, &charged);
        gl_arena_charge(lp->arena, bytes);
        gl_arena_charge(lp->arena, charged);
        df_textb_reset(&lp->tb);
    } else if (!spans) {
        parse_words(lp, in, &words, s, e);
    }
    size_t nwords = spans ? nsp : words.n;
    if (!nwords)
        return true;
    /* the i-th word as parse_words' arg (from a span: the line's bytes, not NUL-terminated
     * at its end, and a map of one segment, here) */
    struct gl_srcmap_seg seg;
#define NV_WORD(i)                                                                         \
    (spans ? (seg = (struct gl_srcmap_seg){0, df_seg_loc(&in->line_map.segs[0], sp[i].s)},  \
              (struct df_arg){in->line + sp[i].s, sp[i].e - sp[i].s, seg.at,                \
                              {&seg, 1, 1, lp->arena}})                                     \
           : words.v[i])
    struct df_arg w0 = NV_WORD(0);
    if (!memchr(w0.value, '=', w0.len)) {
        size_t k = s;
        while (k < e && !df_is_ws((unsigned char)in->line[k]))
            k++;
        if (k == e) {
            char msg[64];
            snprintf(msg, sizeof msg, "%s must have two arguments (expected a value here)", what);
            return fail_at(in, e, err, msg);
        }
        size_t v = k;
        while (v < e && df_is_ws((unsigned char)in->line[v]))
            v++;
        struct df_kv *kv = DF_APPEND(lp->arena, in->kvs, in->nkvs, kcap);
        kv->key = av->n;
        arg_span(lp, in, av, s, k);
        kv->value = av->n;
        arg_span(lp, in, av, v, e);
        kv->sep = av->n;
        arg_span(lp, in, av, v, v);
        kv->equals = false;
        return true;
    }
    size_t eq[SPANS_MAX], i = 0; /* from spans, each word's '=' (an offset in the line) */
    for (; spans && i < nwords; i++) {
        const char *at = memchr(in->line + sp[i].s, '=', sp[i].e - sp[i].s);
        if (!at)
            break;
        eq[i] = (size_t)(at - in->line);
    }
    if (spans && i == nwords) {
        kv_spans(lp, in, av, sp, eq, nwords);
        return true;
    }
    for (i = 0; i < nwords; i++) {
        struct df_arg w = NV_WORD(i);
        if (!kv_word(lp, in, av, &kcap, &w, err))
            return false;
    }
#undef NV_WORD
    return true;
}

static bool health(struct df_lineparse *lp, struct df_instr *in, struct argv *av, size_t s,
                   size_t e, struct df_error *err)
{
    const char *L = in->line;
    size_t sep = s;
    while (sep < e && !df_is_byte_space((unsigned char)L[sep]))
        sep++;
    size_t nx = sep;
    while (nx < e && df_is_byte_space((unsigned char)L[nx]))
        nx++;
    if (sep == s)
        return true;
    arg_span(lp, in, av, s, sep);
    return maybe_json(lp, in, av, nx, e, false, err);
}

enum kind { K_IGNORE, K_LIST, K_WORDS, K_MAYBE_JSON, K_NAME_VAL, K_SPLIT, K_HEALTH, K_STRING,
            K_ONBUILD };

/* The slot of keyword kw (n bytes, n > 0) in the keyword table: a perfect hash of the 18
 * keywords (first byte, last byte, length) into 32 slots. The bytes are folded with 0x20,
 * which lowers ASCII letters and leaves lowercase ones alone: "RUN", "Run" and "run" share
 * a slot. */
#define KW_SLOT(kw, n)                                                                     \
    ((((unsigned char)(kw)[0] | 0x20u) * 6u + ((unsigned char)(kw)[(n) - 1] | 0x20u) * 18u + \
      (unsigned)(n)) % 32u)

struct kw_entry {
    char name[12], upper[12];   /* lowercased, and as most files write it (NUL-padded: the
                                   first eight bytes are read as one word) */
    size_t len;
    enum kind k;
    enum df_keyword kw;
};

static const struct kw_entry kw_table[32] = { /* slot = KW_SLOT(name, len); empty: no name */
    [1] = {"healthcheck", "HEALTHCHECK", 11, K_HEALTH, DF_KW_HEALTHCHECK},
    [4] = {"volume", "VOLUME", 6, K_LIST, DF_KW_VOLUME},
    [5] = {"label", "LABEL", 5, K_NAME_VAL, DF_KW_LABEL},
    [6] = {"user", "USER", 4, K_STRING, DF_KW_USER},
    [7] = {"arg", "ARG", 3, K_WORDS, DF_KW_ARG},
    [9] = {"onbuild", "ONBUILD", 7, K_ONBUILD, DF_KW_ONBUILD},
    [11] = {"run", "RUN", 3, K_MAYBE_JSON, DF_KW_RUN},
    [13] = {"env", "ENV", 3, K_NAME_VAL, DF_KW_ENV},
    [15] = {"shell", "SHELL", 5, K_MAYBE_JSON, DF_KW_SHELL},
    [16] = {"entrypoint", "ENTRYPOINT", 10, K_MAYBE_JSON, DF_KW_ENTRYPOINT},
    [17] = {"add", "ADD", 3, K_LIST, DF_KW_ADD},
    [18] = {"from", "FROM", 4, K_SPLIT, DF_KW_FROM},
    [20] = {"stopsignal", "STOPSIGNAL", 10, K_STRING, DF_KW_STOPSIGNAL},
    [21] = {"workdir", "WORKDIR", 7, K_STRING, DF_KW_WORKDIR},
    [24] = {"copy", "COPY", 4, K_LIST, DF_KW_COPY},
    [28] = {"maintainer", "MAINTAINER", 10, K_STRING, DF_KW_MAINTAINER},
    [29] = {"cmd", "CMD", 3, K_MAYBE_JSON, DF_KW_CMD},
    [30] = {"expose", "EXPOSE", 6, K_SPLIT, DF_KW_EXPOSE},
};

/* memcmp(a, b, n) == 0 for a keyword's few bytes, without the call. */
static bool same_bytes(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* Is kw (n bytes) the lowercase name in ASCII letters of any case? (b | 0x20) is a
 * lowercase letter only when b is that letter in either case, so this is the same test as
 * lowering the word and comparing. */
static bool same_folded(const char *kw, const char *name, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)kw[i] | 0x20u) != (unsigned char)name[i])
            return false;
    return true;
}

/* How the arguments of the lowercased keyword kw (n bytes) are read; which keyword it is
 * into *out. */
static enum kind kind_of(const char *kw, size_t n, enum df_keyword *out)
{
    if (n) {
        const struct kw_entry *t = &kw_table[KW_SLOT(kw, n)];
        if (t->len == n && same_bytes(kw, t->name, n)) {
            *out = t->kw;
            return t->k;
        }
    }
    *out = DF_KW_UNKNOWN;
    return K_IGNORE;
}

/* The keyword s[0, n) as written into in->keyword_orig, lowercased into in->keyword, which
 * one it is into in->kw, and how its arguments are read. A known keyword in ASCII letters
 * ("RUN", "Copy") takes the table's spellings (lowercase; as written when that is all
 * upper or all lower case): no arena strings for them (the arena is still charged for
 * them, so that the limit trips at the same token). */
static enum kind keyword_of(struct gl_arena *a, struct df_instr *in, const char *s, size_t n)
{
    const struct kw_entry *t = n >= 3 && n <= 11 ? &kw_table[KW_SLOT(s, n)] : NULL;
    if (t && t->len != n) /* (an empty slot's len is 0) */
        t = NULL;
    const char *orig = NULL;
    if (t) /* as most files write it ("RUN"), then in lower case */
        orig = same_bytes(s, t->upper, n) ? t->upper : same_bytes(s, t->name, n) ? t->name : NULL;
    if (t && !orig && !same_folded(s, t->name, n)) /* in mixed case ("Run"), or no keyword */
        t = NULL;
    if (t) {
        in->kw = t->kw;
        in->keyword = t->name;
        if (orig)
            gl_arena_charge(a, n + 1);
        in->keyword_orig = orig ? orig : gl_arena_strndup(a, s, n);
        gl_arena_charge(a, n + 1);
        return t->k;
    }
    in->keyword_orig = gl_arena_strndup(a, s, n);
    char low[16];
    size_t i = 0;
    if (n < sizeof low) /* ASCII without NUL: lowered here */
        for (; i < n && (unsigned char)s[i] - 1u < 0x7Fu; i++)
            low[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32) : s[i];
    if (n < sizeof low && i == n) { /* not a keyword (same_folded would have found it) */
        in->kw = DF_KW_UNKNOWN;
        in->keyword = gl_arena_strndup(a, low, n);
        return K_IGNORE;
    }
    in->keyword = go_lower(a, s, n); /* compared up to a NUL, as strcmp did */
    return kind_of(in->keyword, strlen(in->keyword), &in->kw);
}

/* keyword_of for a known keyword of 3 to 7 ASCII letters followed by a blank or the end
 * (nearly every instruction), read as one eight-byte word: L[s, s + 8) must be readable
 * (the caller tests that the line, with its NUL, holds them). The first byte below 0x21
 * (the classic "has a byte less than" test, exact for the lowest such byte) ends it; the
 * word folded with 0x20 (a lowercase letter only for that letter in either case, as
 * same_folded) is compared with the table's name as one word, as written with its
 * spelling in upper and lower case. Anything else (a longer or unknown word, a control
 * byte, a byte >= 0x80): false, nothing set, keyword_of decides. On true, *end is where
 * the keyword ends and *kind how its arguments are read. */
static inline bool fast_keyword(struct gl_arena *a, struct df_instr *in, const char *L,
                                size_t s, size_t e, size_t *end, enum kind *kind)
{
    uint64_t x, name, upper;
    memcpy(&x, L + s, 8);
    uint64_t low = (x - DF_ONES * 0x21) & ~x & DF_HIGH;
    if (!low)
        return false;
    size_t n = (size_t)__builtin_ctzll(low) / 8;
    if (n > e - s) /* (bytes past e: trimmed blanks, the NUL) */
        n = e - s;
    else if (n < e - s && !df_is_ws((unsigned char)L[s + n]))
        return false;
    if (n < 3)
        return false;
    uint64_t mask = (1ull << (8 * n)) - 1, word = x & mask, folded = word | (DF_ONES * 0x20 & mask);
    const struct kw_entry *t = &kw_table[KW_SLOT(L + s, n)];
    memcpy(&name, t->name, 8);
    if (t->len != n || folded != name)
        return false;
    memcpy(&upper, t->upper, 8);
    const char *orig = word == upper ? t->upper : word == name ? t->name : NULL;
    /* as keyword_of does for a known keyword */
    in->kw = t->kw;
    in->keyword = t->name;
    if (orig)
        gl_arena_charge(a, n + 1);
    in->keyword_orig = orig ? orig : gl_arena_strndup(a, L + s, n);
    gl_arena_charge(a, n + 1);
    *end = s + n;
    *kind = t->k;
    return true;
}

bool df_parse_instr(struct df_lineparse *lp, struct df_instr *in, struct df_error *err)
{
    size_t s = 0, e = in->line_len;
    struct df_instr *cur = in;
    for (;;) {
        const char *L = cur->line;
        trim_uspace(L, &s, &e);
        size_t k;
        enum kind kind;
        if (s + 8 > cur->line_len + 1 || !fast_keyword(lp->arena, cur, L, s, e, &k, &kind)) {
            k = s;
            while (k < e && !df_is_ws((unsigned char)L[k]))
                k++;
            kind = keyword_of(lp->arena, cur, L + s, k - s);
        }
        size_t hint = 0;
        cur->loc = gl_srcmap_loc_near(&cur->line_map, s, &hint);
        size_t as = e, ae = e;
        if (k < e) {
            size_t r = k;
            while (r < e && df_is_ws((unsigned char)L[r]))
                r++;
            /* no flag (what extract_flags finds at once when the arguments start with a
             * byte that is no space and no "--"): no call */
            bool plain = r == e || (!df_is_byte_space((unsigned char)L[r]) &&
                                    !(L[r] == '-' && r + 1 < e && L[r + 1] == '-'));
            as = plain ? r : extract_flags(lp, cur, r, e);
        }
        trim_uspace(L, &as, &ae);
        struct argv av = {0};
        bool ok = true;
        switch (kind) {
        case K_IGNORE:
            arg_span(lp, cur, &av, as, as);
            break;
        case K_LIST:
            ok = maybe_json(lp, cur, &av, as, ae, true, err);
            break;
        case K_WORDS:
            parse_words(lp, cur, &av, as, ae);
            break;
        case K_MAYBE_JSON:
            ok = maybe_json(lp, cur, &av, as, ae, false, err);
            break;
        case K_NAME_VAL:
            ok = name_val(lp, cur, &av, as, ae, cur->keyword[0] == 'e' ? "ENV" : "LABEL", err);
            break;
        case K_SPLIT:
            ws_delimited(lp, cur, &av, as, ae);
            break;
        case K_HEALTH:
            ok = health(lp, cur, &av, as, ae, err);
            break;
        case K_STRING:
            if (as < ae)
                arg_span(lp, cur, &av, as, ae);
            break;
        case K_ONBUILD:
            if (as < ae) {
                struct df_instr *child = gl_arena_alloc(lp->arena, sizeof *child);
                child->line = cur->line;
                child->line_len = cur->line_len;
                child->line_map = cur->line_map;
                child->start_line = cur->start_line;
                child->end_line = cur->end_line;
                child->start_off = cur->start_off; /* (its end: parse_line's, later) */
                cur->child = child;
                cur->args = NULL; /* ONBUILD's own node has no value */
                cur->nargs = 0;
                cur = child;
                s = as;
                e = ae;
                continue;
            }
            break;
        }
        cur->args = av.v;
        cur->nargs = av.n;
        return ok;
    }
}
