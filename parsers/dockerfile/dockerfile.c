/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile.c: the line-level half of the Dockerfile parser (see dockerfile.h): reading
 * lines like BuildKit's scanner, parser directives, comments, continuation lines, and
 * heredoc bodies. Each logical line is handed to df_parse_instr (dockerfile_instr.c).
 */
#include "parsers/dockerfile/dockerfile_internal.h"

#include "linter/core/limits.h"
#include "linter/core/newline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ctx {
    struct gl_arena *a;
    const char *d;
    size_t n;
    unsigned flags;
    struct df_error *err;
    struct df_file *f;
    size_t icap, ccap, dcap;
    size_t iroom;    /* the instruction array's room (icap is what the arena is charged) */
    bool failed;     /* an error was set while reading */
    bool directives_done;
    struct df_lineparse lp;
    struct piece { size_t off, len; } *pieces; /* a continued instruction's line pieces */
    size_t piececap;                           /* (one heap array for the whole file) */
};

/* The line reader: the current line, where the next one starts, and every line's start.
 * A local of df_parse_lines whose address reaches only inline code (the rare out-of-line
 * reader of heredoc bodies gets a copy and hands it back), so that its fields stay in
 * registers: in the ctx, every byte the parser stored (a char store may alias anything)
 * made the compiler read them again, ~40 instructions a line. */
struct cur {
    const char *d;
    size_t n;
    size_t pos;      /* start of the next line */
    size_t nlbase;   /* the 64-byte window of the text the line feeds below are of */
    uint64_t nlbits; /* the line feeds of that window not yet read, as bits (newline.h) */
    uint32_t lineno; /* 1-based number of the current line */
    size_t line0;    /* offset of column 1 */
    size_t ls, le;   /* content start (after a BOM on line 1) and end (before '\n') */
    uint32_t *starts;   /* every line's start: the caller's room, then a heap array
                           (df_parse_lines returns it; for df_parse it is dropped: one
                           test a line less) */
    size_t nstarts, startcap;
    uint32_t *room;     /* the caller's room (NULL: none) */
    struct gl_arena *a; /* charged for the heap array, which the parse keeps (4 bytes a
                           line: a file of millions of short lines stops at parse-memory) */
};

static inline struct gl_loc loc_of(const struct cur *k, size_t off)
{
    return (struct gl_loc){k->lineno, (uint32_t)(off - k->line0 + 1)};
}

static bool set_error(struct ctx *c, struct gl_loc loc, const char *fmt, const char *arg)
{
    c->err->loc = loc;
    snprintf(c->err->message, sizeof c->err->message, fmt, arg);
    c->failed = true;
    return false;
}

/* The limit parse-memory was reached: the parse stops at the current line (false). */
static bool limit_reached(struct ctx *c, const struct cur *k)
{
    c->err->loc = (struct gl_loc){k->lineno, 1};
    gl_limit_message(GL_LIMIT_PARSE_MEMORY, c->err->message, sizeof c->err->message);
    return false;
}

/* A line starts at off (inline: once a line; the array grows out of line, rarely: past
 * the caller's room, or from 512 starts, doubled; what the heap array grows by is charged
 * to the arena). */
static uint32_t *grow_starts(struct cur *k, size_t cap)
{
    gl_arena_charge(k->a, (cap - (k->starts == k->room ? 0 : k->startcap)) * sizeof *k->starts);
    if (k->starts != k->room || !k->room)
        return xrealloc(k->starts, cap * sizeof *k->starts);
    uint32_t *heap = xmalloc(cap * sizeof *heap); /* out of the room: copied once */
    memcpy(heap, k->room, k->nstarts * sizeof *heap);
    return heap;
}

static inline void push_start(struct cur *k, size_t off)
{
    if (k->nstarts == k->startcap) {
        size_t cap = k->startcap ? k->startcap * 2 : 512;
        k->starts = grow_starts(k, cap);
        k->startcap = cap;
    }
    k->starts[k->nstarts++] = (uint32_t)off;
}

/* Advance to the next line; false at the end of input or on a too long line. Always
 * inline (gcc would not, for its three callers): it runs once a line, and a call saves
 * and restores more registers than the line's own work takes. */
static inline __attribute__((always_inline)) bool next_line(struct ctx *c, struct cur *k)
{
    if (k->pos >= k->n) /* (after an error the callers stop reading: no test here) */
        return false;
    k->line0 = k->ls = k->pos;
    push_start(k, k->pos);
    /* the next line feed: the lowest bit left of the window, else of the next windows
       (the bits of a window are found at once: a memchr call a line cost ~27 instructions
       and a mispredicted branch on its length) */
    uint64_t b = k->nlbits;
    size_t base = k->nlbase;
    while (!b && base + 64 < k->n) {
        base += 64;
        b = gl_nl_window(k->d, k->n, base);
    }
    k->nlbase = base;
    if (b) {
        k->le = base + (size_t)__builtin_ctzll(b);
        k->nlbits = b & (b - 1);
        k->pos = k->le + 1;
    } else {
        k->le = k->pos = k->n;
        k->nlbits = 0;
    }
    k->lineno++;
    if (k->lineno == 1 && k->le - k->ls >= 3 && memcmp(k->d, "\xEF\xBB\xBF", 3) == 0)
        k->ls += 3;
    if (k->le - k->line0 > DF_MAX_LINE && !(c->flags & DF_PARSE_NO_LINE_LIMIT)) {
        return set_error(c, loc_of(k, k->line0 + DF_MAX_LINE),
                         "dockerfile line greater than max allowed size of %s bytes", "65535");
    }
    return true;
}

/* End of the line without trailing '\r' and '\n' bytes. */
static inline size_t trim_newline_end(const struct cur *k)
{
    size_t e = k->le;
    while (e > k->ls && k->d[e - 1] == '\r')
        e--;
    return e;
}

static size_t skip_uspace_slow(const char *d, size_t s, size_t e);

/* The first byte of d[s, e) that does not start a Unicode space. Inline for the common
 * line that starts with a non-blank ASCII byte (an instruction, a comment) or with spaces
 * and tabs before one (a continued line's indentation). */
static inline size_t skip_uspace(const char *d, size_t s, size_t e)
{
    while (s < e && (d[s] == ' ' || d[s] == '\t'))
        s++;
    if (s < e && (unsigned char)d[s] < 0x80 && !df_ascii_uspace((unsigned char)d[s]))
        return s;
    return skip_uspace_slow(d, s, e);
}

/* skip_uspace for a continued line, which most often starts with its indentation: with
 * SSE2, the first byte that is no space or tab among the next sixteen at once (d[0, n)
 * must hold them), then as skip_uspace. */
static inline size_t skip_indent(const char *d, size_t s, size_t e, size_t n)
{
#ifdef __SSE2__
    if (s < e && (d[s] == ' ' || d[s] == '\t') && n - s >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(d + s));
        unsigned blank = (unsigned)_mm_movemask_epi8(_mm_or_si128(
            _mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))));
        size_t w = (size_t)__builtin_ctz(~blank); /* (16 when all are blank) */
        s = s + w < e ? s + w : e;
    }
#else
    (void)n;
#endif
    return skip_uspace(d, s, e);
}

static size_t skip_uspace_slow(const char *d, size_t s, size_t e)
{
    while (s < e) {
        unsigned char b = (unsigned char)d[s];
        if (b < 0x80) { /* an ASCII byte is its own rune */
            if (!df_ascii_uspace(b))
                break;
            s++;
            continue;
        }
        uint32_t r;
        size_t w = df_utf8_decode(d + s, e - s, &r);
        if (!df_is_uspace(r))
            break;
        s += w;
    }
    return s;
}

/* A comment line d[hash, end) (hash: its '#'). Always inline, for the same reason as
 * parse_line: once a comment, from the line loop and the continuation loop. */
static inline __attribute__((always_inline)) void add_comment(struct ctx *c,
                                                               const struct cur *k,
                                                               size_t hash, size_t end)
{
    struct gl_loc loc = loc_of(k, hash);
    struct df_comment *cm = DF_APPEND(c->a, c->f->comments, c->f->ncomments, c->ccap);
    cm->text = df_strndup(c->a, c->d + hash + 1, end - hash - 1);
    cm->len = end - hash - 1;
    cm->loc = loc;
}

static bool is_re_space(char ch) /* RE2 \s */
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\f' || ch == '\r';
}

static bool is_alpha(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }

/* `^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$` on d[s, e). */
static bool match_directive(const char *d, size_t s, size_t e, size_t *ks, size_t *ke,
                            size_t *vs, size_t *ve)
{
    size_t p = s;
    if (p >= e || d[p] != '#')
        return false;
    p++;
    while (p < e && is_re_space(d[p]))
        p++;
    if (p >= e || !is_alpha(d[p]))
        return false;
    *ks = p;
    while (p < e && (is_alpha(d[p]) || (d[p] >= '0' && d[p] <= '9')))
        p++;
    *ke = p;
    while (p < e && is_re_space(d[p]))
        p++;
    if (p >= e || d[p] != '=')
        return false;
    p++;
    if (p >= e)
        return false;
    size_t q = p, r = e;
    while (q < e && is_re_space(d[q]))
        q++;
    while (r > q && is_re_space(d[r - 1]))
        r--;
    if (q == r) { /* only spaces: the lazy group takes the last one */
        q = e - 1;
        r = e;
    }
    *vs = q;
    *ve = r;
    return true;
}

bool df_syntax_directive(const char *data, size_t len, size_t *vs, size_t *ve)
{
    size_t s = 0;
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
        s = 3;
    while (s < len) {
        const char *nl = memchr(data + s, '\n', len - s);
        size_t e = nl ? (size_t)(nl - data) : len, te = e;
        while (te > s && data[te - 1] == '\r')
            te--;
        size_t ks, ke;
        if (!match_directive(data, s, te, &ks, &ke, vs, ve))
            return false;
        if (ke - ks == 6 && gl_strn_eq_nocase(data + ks, 6, "syntax"))
            return true;
        s = e + 1;
    }
    return false;
}

bool df_foreign_frontend(const char *value, size_t len)
{
    size_t e = len;
    const char *at = memchr(value, '@', len); /* a digest */
    if (at)
        e = (size_t)(at - value);
    size_t slash = 0; /* the last path component, without its tag */
    for (size_t i = 0; i < e; i++)
        if (value[i] == '/')
            slash = i + 1;
    const char *colon = memchr(value + slash, ':', e - slash);
    if (colon)
        e = (size_t)(colon - value);
    const char *name = value + slash;
    size_t n = e - slash;
    return !(n == 10 && !memcmp(name, "dockerfile", 10)) &&
           !(n == 19 && !memcmp(name, "dockerfile-upstream", 19));
}

/* A first line that may be a parser directive: true if it was one (or on error). */
static bool directive_line(struct ctx *c, struct cur k, size_t ts, size_t te)
{
    size_t ks, ke, vs, ve;
    if (c->directives_done)
        return false;
    if (!match_directive(c->d, ts, te, &ks, &ke, &vs, &ve)) {
        c->directives_done = true;
        return false;
    }
    const char *name = NULL;
    static const char *const valid[] = {"syntax", "escape", "check"};
    for (size_t i = 0; i < 3; i++)
        if (gl_strn_eq_nocase(c->d + ks, ke - ks, valid[i]))
            name = valid[i];
    if (!name) {
        c->directives_done = true;
        return false;
    }
    for (size_t i = 0; i < c->f->ndirectives; i++)
        if (strcmp(c->f->directives[i].name, name) == 0)
            return !set_error(c, loc_of(&k, ts), "only one %s parser directive can be used", name);
    struct df_directive *dv = GL_APPEND(c->a, c->f->directives, c->f->ndirectives, c->dcap);
    dv->name = name;
    dv->value = gl_arena_strndup(c->a, c->d + vs, ve - vs);
    dv->loc = loc_of(&k, ts);
    dv->value_loc = loc_of(&k, vs);
    if (name[0] == 'e') {
        if (ve - vs != 1 || (c->d[vs] != '\\' && c->d[vs] != '`'))
            return !set_error(c, loc_of(&k, vs),
                              "invalid escape token '%s' does not match ` or \\", dv->value);
        c->f->escape = c->d[vs];
        c->lp.escape = c->d[vs];
    }
    return true;
}

/* BuildKit's lineContinuationRegex on d[s, *e): strips it and returns true if present. */
static inline bool strip_continuation(const char *d, size_t s, size_t *e, char esc)
{
    size_t q = *e;
    while (q > s && (d[q - 1] == ' ' || d[q - 1] == '\t'))
        q--;
    if (q == s || d[q - 1] != esc)
        return false;
    size_t k = q - 1;
    if (k > s && d[k - 1] == esc)
        return false;
    *e = k;
    return true;
}

/* Heredocs of the instruction's line: words that look like <<NAME, in order. */
static bool find_heredocs(struct ctx *c, struct df_instr *in)
{
    struct df_shlex lx = {.escape = '\\', .raw_quotes = true, .raw_escapes = true,
                          .skip_unset = true};
    struct df_shword *w;
    size_t nw;
    if (!df_shlex_process(&lx, c->a, in->line, in->line_len, NULL, NULL, &w, &nw))
        return true; /* BuildKit ignores the error: no heredocs */
    size_t hcap = 0;
    for (size_t i = 0; i < nw; i++) {
        const char *t = w[i].text;
        size_t n = w[i].len, p = 0;
        while (p < n && t[p] >= '0' && t[p] <= '9')
            p++;
        size_t digits = p;
        if (n - p < 2 || t[p] != '<' || t[p + 1] != '<')
            continue;
        p += 2;
        bool chomp = p < n && t[p] == '-';
        p += chomp;
        while (p < n && is_re_space(t[p]))
            p++;
        if (p == n || memchr(t + p, '<', n - p))
            continue;
        struct gl_loc wl = gl_srcmap_loc(&in->line_map, w[i].src);
        struct df_shlex plain = {.escape = '\\', .skip_unset = true};
        struct df_shlex quoted = {.escape = '\\', .raw_quotes = true, .skip_unset = true};
        struct df_shword *w1, *w2;
        size_t n1, n2;
        if (!df_shlex_process(&plain, c->a, t + p, n - p, NULL, NULL, &w1, &n1))
            return set_error(c, wl, "bad heredoc delimiter: %s", plain.err_msg);
        if (n1 != 1)
            continue;
        if (!df_shlex_process(&quoted, c->a, t + p, n - p, NULL, NULL, &w2, &n2))
            return set_error(c, wl, "bad heredoc delimiter: %s", quoted.err_msg);
        if (n2 != n1)
            return set_error(c, wl, "internal lexing of heredoc produced inconsistent results%s", "");
        size_t q1 = 0, q2 = 0;
        for (size_t k = 0; k < w1[0].len; k++)
            q1 += w1[0].text[k] == '\'' || w1[0].text[k] == '"';
        for (size_t k = 0; k < w2[0].len; k++)
            q2 += w2[0].text[k] == '\'' || w2[0].text[k] == '"';
        struct df_heredoc *h = GL_APPEND(c->a, in->heredocs, in->nheredocs, hcap);
        h->name = w1[0].text;
        h->chomp = chomp;
        h->expand = q1 == q2;
        h->loc = wl;
        h->fd = 0;
        for (size_t k = 0; k < digits; k++) {
            uint64_t dgt = (uint64_t)(t[k] - '0');
            h->fd = h->fd > (UINT64_MAX - dgt) / 10 ? UINT64_MAX : h->fd * 10 + dgt;
        }
    }
    return true;
}

/* (k: a copy of the reader, handed back by the caller) */
static bool read_heredoc_bodies(struct ctx *c, struct cur *k, struct df_instr *in)
{
    for (size_t i = 0; i < in->nheredocs; i++) {
        struct df_heredoc *h = &in->heredocs[i];
        size_t body = k->pos, nlen = strlen(h->name);
        h->body = (struct gl_loc){k->lineno + 1, 1};
        bool done = false;
        while (next_line(c, k)) {
            size_t s = k->line0, e = trim_newline_end(k);
            if (h->chomp)
                while (s < e && c->d[s] == '\t')
                    s++;
            if (e - s == nlen && memcmp(c->d + s, h->name, nlen) == 0) {
                h->content = gl_arena_strndup(c->a, c->d + body, k->line0 - body);
                h->content_len = k->line0 - body;
                h->end_line = k->lineno;
                done = true;
                break;
            }
        }
        if (c->failed)
            return false;
        if (!done)
            return set_error(c, h->loc, "unterminated heredoc: no line \"%.150s\" before the end of the file", h->name);
    }
    return true;
}

static bool can_have_heredocs(const struct df_instr *in)
{
    if (in->kw == DF_KW_ONBUILD && in->child)
        in = in->child;
    return !in->json && (in->kw == DF_KW_RUN || in->kw == DF_KW_COPY || in->kw == DF_KW_ADD);
}

/* Does "<<" occur in line[0..len)? (memchr for each '<': glibc's memmem is slow for a
 * two-byte needle, and most lines have no '<' at all.) */
static bool has_heredoc_mark(const char *line, size_t len)
{
    const char *p = line, *end = line + len;
    while (p + 1 < end && (p = memchr(p, '<', (size_t)(end - p - 1))) != NULL) {
        if (p[1] == '<')
            return true;
        p++;
    }
    return false;
}

static inline __attribute__((always_inline)) bool parse_line(struct ctx *c, struct cur *k,
                                                            struct df_instr *in, size_t last_end);

/* The pieces' array grows (doubled from 16; what it grows by is charged to the arena). */
static void grow_pieces(struct ctx *c)
{
    size_t cap = c->piececap ? c->piececap * 2 : 16;
    gl_arena_charge(c->a, (cap - c->piececap) * sizeof *c->pieces);
    c->piececap = cap;
    c->pieces = xrealloc(c->pieces, c->piececap * sizeof *c->pieces);
}

/* Note a piece of a continued instruction: d[off, off+len). (Inline: once a continued
 * line; the array grows out of line, a few times a file.) */
static inline void add_piece(struct ctx *c, size_t *np, size_t off, size_t len)
{
    if (*np == c->piececap)
        grow_pieces(c);
    c->pieces[(*np)++] = (struct piece){off, len};
}

/* The instruction array's first room: enough for a file of ~24 bytes an instruction (the
 * densest real files have ~30), and at least a quarter of the arena's 64 KiB block plus one
 * granule, so that it gets a block of its own (none of its room is left over); at most
 * INSTR_ROOM_MAX slots up front, doubled past that. */
#define INSTR_ROOM_MIN ((16384 + 16) / sizeof(struct df_instr) + 1)
#define INSTR_ROOM_MAX 512u

/* Room for more instructions: a new array (the old one copied), twice the old room or, the
 * first time, the room the file's length suggests. It is taken from a private arena whose
 * block `a` adopts without charging it: the arena is charged in new_instr instead, exactly
 * what GL_APPEND's doublings from 2 would take and when they would take it, so the limit
 * parse-memory trips at the same token as when the array was doubled there (and copied
 * at every doubling: ~200 bytes a slot). */
static void grow_instrs(struct ctx *c)
{
    size_t room = c->iroom ? 2 * c->iroom : c->n / 24 + 4;
    if (!c->iroom && room > INSTR_ROOM_MAX)
        room = INSTR_ROOM_MAX;
    if (room < INSTR_ROOM_MIN)
        room = INSTR_ROOM_MIN;
    struct gl_arena priv;
    gl_arena_init(&priv);
    struct df_instr *arr = gl_arena_take(&priv, room * sizeof *arr);
    gl_arena_adopt(c->a, &priv, 0);
    if (c->f->ninstrs)
        memcpy(arr, c->f->instrs, c->f->ninstrs * sizeof *arr);
    c->f->instrs = arr;
    c->iroom = room;
}

/* The next instruction's slot (not cleared: the caller writes it whole). */
static inline struct df_instr *new_instr(struct ctx *c)
{
    if (c->f->ninstrs == c->icap) { /* what GL_APPEND would take now: charged */
        c->icap = c->icap ? 2 * c->icap : 2;
        gl_arena_charge(c->a, c->icap * sizeof *c->f->instrs);
    }
    if (c->f->ninstrs == c->iroom)
        grow_instrs(c);
    return &c->f->instrs[c->f->ninstrs++];
}

/* One instruction starting on the current line (content d[ts, ce), continued if cont). */
static inline __attribute__((always_inline)) bool instruction(struct ctx *c, struct cur *k,
                                                             size_t ts, size_t ce, bool cont)
{
    struct df_instr *in = new_instr(c);
    struct gl_loc l = loc_of(k, ts);
    /* the line map's first segment, in the room for two that gl_srcmap_add's first growth
     * takes; on one line (most instructions), in one take with the line's copy (the bytes
     * of the two takes, each a multiple of 16: the same charge) */
    struct gl_srcmap_seg *segs;
    char *one_line = NULL;
    if (!cont) {
        _Static_assert(2 * sizeof *segs % 16 == 0, "a take's rounding");
        char *blk = gl_arena_take(c->a, 2 * sizeof *segs + ((ce - ts + 1 + 15) & ~(size_t)15));
        segs = (struct gl_srcmap_seg *)blk;
        one_line = blk + 2 * sizeof *segs;
    } else {
        segs = gl_arena_take(c->a, 2 * sizeof *segs);
    }
    segs[0] = (struct gl_srcmap_seg){0, l};
    /* The slot's fields one by one, not the whole ~184 bytes cleared: these are the ones
     * that stay as set here unless the line has flags, a JSON form, pairs, heredocs or an
     * ONBUILD child; keyword, loc, args, line and the end are always written later (by
     * df_parse_instr, below and in parse_line) before anything reads them. */
    in->start_line = k->lineno;
    in->start_off = ts;
    in->line_map = (struct gl_srcmap){.segs = segs, .n = 1, .cap = 2, .arena = c->a};
    in->flags = NULL;
    in->nflags = 0;
    in->json = false;
    in->kvs = NULL;
    in->nkvs = 0;
    in->heredocs = NULL;
    in->nheredocs = 0;
    in->child = NULL;
    size_t last_end = k->le;
    if (!cont) { /* one line: copied once, straight from the text */
        df_copy_str(one_line, c->d + ts, ce - ts);
        in->line = one_line;
        in->line_len = ce - ts;
        return parse_line(c, k, in, last_end);
    }
    /* the pieces of the continued lines are noted, then copied once into the arena at
     * their joined length (what a copy of them joined takes: the same charge) */
    size_t np = 0, total = ce - ts;
    add_piece(c, &np, ts, ce - ts);
    while (cont && next_line(c, k)) {
        if (gl_arena_over(c->a)) /* the limit parse-memory: stop at this line */
            return limit_reached(c, k);
        size_t te = trim_newline_end(k);
        size_t fs = skip_indent(c->d, k->ls, te, c->n);
        if (fs < te && c->d[fs] == '#') {
            add_comment(c, k, fs, te);
            continue;
        }
        if (fs == te)
            continue;
        cont = strip_continuation(c->d, k->ls, &te, c->lp.escape);
        l = loc_of(k, k->ls);
        gl_srcmap_add(&in->line_map, total, l.line, l.col);
        add_piece(c, &np, k->ls, te - k->ls);
        total += te - k->ls;
        last_end = k->le;
    }
    if (c->failed)
        return false;
    char *line = gl_arena_take(c->a, total + 1);
    for (size_t i = 0, at = 0; i < np; at += c->pieces[i++].len)
        memcpy(line + at, c->d + c->pieces[i].off, c->pieces[i].len);
    line[total] = 0;
    in->line = line;
    in->line_len = total;
    return parse_line(c, k, in, last_end);
}

/* The instruction's line (read up to the current line, which ends at last_end) into its
 * keyword, flags and arguments; then its heredoc bodies, if it has any. Always inline
 * (into instruction's two ends, and so into the line loop): it runs once an instruction,
 * and its call saved and restored more registers than its own few tests take. */
static inline __attribute__((always_inline)) bool parse_line(struct ctx *c, struct cur *k,
                                                            struct df_instr *in, size_t last_end)
{
    in->end_line = k->lineno;
    if (!df_parse_instr(&c->lp, in, c->err))
        return false;
    if (can_have_heredocs(in) && has_heredoc_mark(in->line, in->line_len)) {
        struct cur kc = *k; /* (a copy: k's address stays in inline code) */
        bool ok = find_heredocs(c, in) && read_heredoc_bodies(c, &kc, in);
        *k = kc;
        if (!ok)
            return false;
        if (in->nheredocs)
            last_end = k->le;
        in->end_line = k->lineno;
    }
    in->end_off = last_end;
    for (struct df_instr *ch = in->child; ch; ch = ch->child) {
        ch->end_line = in->end_line;
        ch->end_off = in->end_off;
    }
    return true;
}

struct df_file *df_parse_ex(struct gl_arena *a, const char *data, size_t len, unsigned flags,
                            struct df_error *err)
{
    uint32_t room[512]; /* (the line starts: no heap array for most files) */
    return df_parse_lines(a, data, len, flags, err, NULL, NULL, room, 512);
}

struct df_file *df_parse_lines(struct gl_arena *a, const char *data, size_t len, unsigned flags,
                               struct df_error *err, uint32_t **starts, size_t *nstarts,
                               uint32_t *room, size_t roomcap)
{
    struct df_error dummy;
    if (!err)
        err = &dummy;
    memset(err, 0, sizeof *err);
    struct ctx c = {.a = a, .d = data ? data : "", .n = data ? len : 0, .flags = flags,
                    .err = err};
    if (len > UINT32_MAX) /* (no 32-bit line starts for it) */
        starts = NULL;
    if (starts) {
        *starts = NULL;
        *nstarts = 0;
    }
    c.f = gl_arena_alloc(a, sizeof *c.f);
    c.f->escape = '\\';
    c.lp.arena = a;
    c.lp.escape = '\\';
    df_textb_init(&c.lp.tb);
    struct cur k = {.d = c.d, .n = c.n, .starts = room, .startcap = room ? roomcap : 0,
                    .room = room, .a = a, .nlbits = gl_nl_window(c.d, c.n, 0)};
    bool ok = true;
    while (ok && next_line(&c, &k)) {
        if (gl_arena_over(a)) { /* the limit parse-memory: stop at this line */
            ok = limit_reached(&c, &k);
            break;
        }
        size_t te = trim_newline_end(&k);
        size_t ts = skip_uspace(c.d, k.ls, te);
        if (!c.directives_done && directive_line(&c, k, ts, te)) {
            ok = !c.failed;
            continue;
        }
        if (ts < te && c.d[ts] == '#') {
            add_comment(&c, &k, ts, te);
            continue;
        }
        size_t ce = te;
        bool cont = strip_continuation(c.d, ts, &ce, c.lp.escape);
        if (!cont && ce == ts)
            continue;
        ok = instruction(&c, &k, ts, ce, cont);
        if (ok && (flags & DF_PARSE_STOP_AT_UNKNOWN) &&
            c.f->instrs[c.f->ninstrs - 1].kw == DF_KW_UNKNOWN) {
            starts = NULL; /* (not every line was read) */
            break;
        }
    }
    if (ok && !c.failed && gl_arena_over(a)) /* (the last instruction took it past the
                                                limit: it stops at that one's last line) */
        ok = limit_reached(&c, &k);
    df_textb_free(&c.lp.tb);
    free(c.pieces);
    if ((!ok || c.failed || !c.f->ninstrs || !starts) && k.starts != room)
        free(k.starts);
    if (!ok || c.failed || !c.f->ninstrs) {
        if (ok && !c.failed) {
            err->loc = (struct gl_loc){k.lineno ? k.lineno : 1, 1};
            snprintf(err->message, sizeof err->message,
                     "file with no instructions (expected an instruction such as FROM)");
        }
        return NULL;
    }
    if (starts) { /* every line was read; a text that ends with '\n' has an empty last line */
        if (c.n && c.d[c.n - 1] == '\n')
            push_start(&k, c.n);
        *starts = k.starts;
        *nstarts = k.nstarts;
    }
    return c.f;
}

struct df_file *df_parse(struct gl_arena *a, const char *data, size_t len, struct df_error *err)
{
    return df_parse_ex(a, data, len, 0, err);
}

struct gl_loc df_arg_loc(const struct df_instr *in, size_t argi, size_t offset)
{
    if (!in || argi >= in->nargs)
        return (struct gl_loc){0, 0};
    return gl_srcmap_loc(&in->args[argi].map, offset);
}
