/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile_internal.h: pieces shared by the parsers/dockerfile_*.c files (not a public
 * API; see parsers/dockerfile/dockerfile.h for that).
 *
 *  - UTF-8 decoding the way Go does it (an invalid byte is U+FFFD of width 1) and Go's
 *    unicode.IsSpace, because BuildKit splits and trims with them;
 *  - df_textb: builds a derived string (an argument, a flag) piece by piece from offsets
 *    of the logical line, then turns that into a gl_srcmap into the original file;
 *  - the instruction parser (dockerfile_instr.c), the JSON array decoder
 *    (dockerfile_json.c) and BuildKit's shell word lexer (dockerfile_expand.c).
 */
#ifndef GPULINT_PARSERS_DOCKERFILE_INTERNAL_H
#define GPULINT_PARSERS_DOCKERFILE_INTERNAL_H

#include "parsers/dockerfile/dockerfile.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define DF_RUNE_ERROR 0xFFFDu

/* Decode one rune at s[0..n) (n > 0); returns its width (1 for an invalid byte, *r = U+FFFD). */
size_t df_utf8_decode(const char *s, size_t n, uint32_t *r);
/* df_utf8_decode, inline for an ASCII byte (the lexers' loops call it for every rune). */
static inline size_t df_utf8_rune(const char *s, size_t n, uint32_t *r)
{
    if ((unsigned char)s[0] < 0x80) {
        *r = (unsigned char)s[0];
        return 1;
    }
    return df_utf8_decode(s, n, r);
}
/* Encode r (which must be a valid scalar value or U+FFFD) into out; returns 1..4. */
size_t df_utf8_encode(uint32_t r, char out[4]);
/* Go's unicode.IsSpace. */
bool df_is_uspace(uint32_t r);
/* df_is_uspace of an ASCII byte b (< 0x80): \t \n \v \f \r or space (one bit test: bits 9
 * to 13 and 32 of the mask). */
static inline bool df_ascii_uspace(unsigned char b)
{
    return b <= ' ' && ((0x100003E00ull >> b) & 1u);
}
/* df_is_uspace, inline for an ASCII rune. */
static inline bool df_is_uspace_fast(uint32_t r)
{
    return r < 0x80 ? df_ascii_uspace((unsigned char)r) : df_is_uspace(r);
}
/* unicode.IsSpace(rune(b)) for a single byte, as BuildKit's byte loops do (inline: the
 * flag and word loops call it for every byte). */
static inline bool df_is_byte_space(unsigned char b)
{
    return b < 0x80 ? df_ascii_uspace(b) : (b == 0x85 || b == 0xA0);
}
/* [\t\v\f\r ]: BuildKit's reWhitespace. */
static inline bool df_is_ws(unsigned char c)
{
    return c <= ' ' && ((0x100003A00ull >> c) & 1u); /* bits 9, 11, 12, 13 and 32 */
}

/* Room for one more element in the arena array `old` of n elements (n == *cap): doubled
 * from 2 as GL_APPEND does, so the arena is charged the same bytes, but the new room is
 * not cleared (df_append's callers write every field of the element they take). */
static inline void *df_grow(struct gl_arena *a, void *old, size_t n, size_t size, size_t *cap)
{
    size_t ncap = *cap ? *cap * 2 : 2;
    char *p = gl_arena_take(a, ncap * size);
    if (n)
        memcpy(p, old, n * size);
    *cap = ncap;
    return p;
}
#define DF_APPEND(arena, arr, n, cap)                                                      \
    ((n) == (cap) ? (void)((arr) = df_grow((arena), (arr), (n), sizeof *(arr), &(cap)))     \
                  : (void)0,                                                               \
     &(arr)[(n)++])

/* src[0, n) and a NUL into dst (which has room for n + 1 bytes). Inline, by two loads and
 * stores that overlap, for up to 16 bytes (most words, flags, comments and short
 * instructions): a memcpy call costs more than such a copy does. */
static inline void df_copy_str(char *dst, const char *src, size_t n)
{
    if (n >= 8 && n <= 16) {
        uint64_t a, b;
        memcpy(&a, src, 8);
        memcpy(&b, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t a, b;
        memcpy(&a, src, 4);
        memcpy(&b, src + n - 4, 4);
        memcpy(dst, &a, 4);
        memcpy(dst + n - 4, &b, 4);
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++)
            dst[i] = src[i];
    } else {
        memcpy(dst, src, n);
    }
    dst[n] = 0;
}

/* gl_arena_strndup(a, s, n) with the copy inline (the same take). */
static inline char *df_strndup(struct gl_arena *a, const char *s, size_t n)
{
    char *p = gl_arena_take(a, n + 1);
    df_copy_str(p, s, n);
    return p;
}

#define DF_ONES 0x0101010101010101ull
#define DF_HIGH 0x8080808080808080ull

/* Designated initialisers of a 256-entry byte table: bytes 0x80 to 0xFF (never part of an
 * ASCII run) set to k. */
#define DF_ROW16_(x, k) [x] = k, [x + 1] = k, [x + 2] = k, [x + 3] = k, [x + 4] = k, \
                        [x + 5] = k, [x + 6] = k, [x + 7] = k, [x + 8] = k, [x + 9] = k, \
                        [x + 10] = k, [x + 11] = k, [x + 12] = k, [x + 13] = k, [x + 14] = k, \
                        [x + 15] = k
#define DF_HIGH_BYTES(k) DF_ROW16_(0x80, k), DF_ROW16_(0x90, k), DF_ROW16_(0xA0, k), \
                         DF_ROW16_(0xB0, k), DF_ROW16_(0xC0, k), DF_ROW16_(0xD0, k), \
                         DF_ROW16_(0xE0, k), DF_ROW16_(0xF0, k)

/* The classic "has a zero byte" test of x ^ k: bit 7 of each byte lane that may equal k
 * (set for every lane that does; a set bit is exact for "any lane equals k"). */
static inline uint64_t df_bytes_equal(uint64_t x, unsigned char k)
{
    uint64_t y = x ^ (DF_ONES * k);
    return (y - DF_ONES) & ~y;
}

/* Skip ahead over s[p, e) while no byte is a control byte or a space (<= 0x20), DEL or
 * above (>= 0x7F), or a, b or c: returns where a byte-by-byte loop must go on (e, or a
 * position at or before the first such byte). For the plain runs of words and paths; the
 * caller's own loop still decides every byte from there, so its result is the same. With
 * SSE2, sixteen bytes a step and the exact first such byte; then (and without SSE2) eight
 * bytes a step, by the classic "has a byte less than n" and "has a zero byte" tests, which
 * are exact for "any". */
static inline size_t df_skip_plain(const char *s, size_t p, size_t e, unsigned char a,
                                   unsigned char b, unsigned char c)
{
#ifdef __SSE2__
    {
        const __m128i sp = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
        const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b),
                      vc = _mm_set1_epi8((char)c);
        for (; p + 16 <= e; p += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
            /* 0x21..0x7E as signed bytes: above 0x20 and below 0x7F (>= 0x80 is negative) */
            __m128i plain = _mm_and_si128(_mm_cmpgt_epi8(x, sp), _mm_cmplt_epi8(x, del));
            __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                                       _mm_cmpeq_epi8(x, vc));
            unsigned m = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_andnot_si128(plain, _mm_set1_epi8(-1)), hit));
            if (m)
                return p + (size_t)__builtin_ctz(m);
        }
    }
#endif
    for (; p + 8 <= e; p += 8) {
        uint64_t x;
        memcpy(&x, s + p, 8);
        uint64_t hit = x | ((x - DF_ONES * 0x21) & ~x) | df_bytes_equal(x, a) |
                       df_bytes_equal(x, b) | df_bytes_equal(x, c) | df_bytes_equal(x, 0x7F);
        if (hit & DF_HIGH)
            break;
    }
    return p;
}

/* The same for the inside of a quoted string: skip ahead while no byte is >= 0x80, a or b
 * (the quote and the escape). */
static inline size_t df_skip_quoted(const char *s, size_t p, size_t e, unsigned char a,
                                    unsigned char b)
{
#ifdef __SSE2__
    {
        const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
        for (; p + 16 <= e; p += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
            __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb));
            unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(x, hit)); /* x: bit 7 */
            if (m)
                return p + (size_t)__builtin_ctz(m);
        }
    }
#endif
    for (; p + 8 <= e; p += 8) {
        uint64_t x;
        memcpy(&x, s + p, 8);
        if ((x | df_bytes_equal(x, a) | df_bytes_equal(x, b)) & DF_HIGH)
            break;
    }
    return p;
}

/* Does the 8 bytes x hold a quote, `$`, the escape, a NUL or a byte >= 0x80? (The
 * classic zero-byte tests, exact for "any".) */
static inline bool df_special8(uint64_t x, unsigned char esc)
{
    return ((x | df_bytes_equal(x, 0) | df_bytes_equal(x, '$') | df_bytes_equal(x, '\'') |
             df_bytes_equal(x, '"') | df_bytes_equal(x, esc)) &
            DF_HIGH) != 0;
}

/* Does BuildKit's lexer copy word[0, len) unchanged (no words wanted)? So when it is ASCII
 * without NUL (no rune to re-encode, no BOM) and holds no quote, `$` or escape. Inline
 * (df_expand_literal's test): sixteen bytes a step with SSE2, then the last sixteen
 * (overlapping those before); a shorter word by two overlapping eight- or four-byte
 * loads, or byte by byte below four. Every load lies
 * inside word[0, len). */
static inline bool df_literal_text(const char *word, size_t len, char escape)
{
    unsigned char esc = (unsigned char)escape;
#ifdef __SSE2__
    if (len >= 16) {
        const __m128i zero = _mm_setzero_si128(), dollar = _mm_set1_epi8('$'),
                      sq = _mm_set1_epi8('\''), dq = _mm_set1_epi8('"'),
                      ve = _mm_set1_epi8((char)esc);
        for (size_t p = 0;; p += 16) {
            if (p + 16 > len)
                p = len - 16;
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(word + p));
            __m128i hit = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(x, zero), _mm_cmpeq_epi8(x, dollar)),
                _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, sq), _mm_cmpeq_epi8(x, dq)),
                             _mm_cmpeq_epi8(x, ve)));
            if (_mm_movemask_epi8(_mm_or_si128(x, hit))) /* x: bit 7 of bytes >= 0x80 */
                return false;
            if (p + 16 >= len)
                return true;
        }
    }
#endif
    uint64_t x, y;
    if (len >= 8) {
        for (size_t p = 0; p + 8 < len; p += 8) {
            memcpy(&x, word + p, 8);
            if (df_special8(x, esc))
                return false;
        }
        memcpy(&y, word + len - 8, 8);
        return !df_special8(y, esc);
    }
    if (len >= 4) {
        uint32_t a, b;
        memcpy(&a, word, 4);
        memcpy(&b, word + len - 4, 4);
        return !df_special8((uint64_t)a | (uint64_t)b << 32, esc);
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)word[i];
        if (c == 0 || c >= 0x80 || c == '$' || c == '\'' || c == '"' || c == esc)
            return false;
    }
    return true;
}

/* df_expand_text's first case: a word NUL-terminated at len that the lexer copies as it is
 * expands to itself; true then, and the arena charged for the copy df_expand_word would
 * make (the same limit). Inline: the model asks it of every word before it calls
 * df_expand_text (most words are literal). */
static inline bool df_expand_literal(struct gl_arena *a, const char *word, size_t len,
                                     char escape)
{
    if (word[len] || !df_literal_text(word, len, escape))
        return false;
    gl_arena_charge(a, len + 1);
    return true;
}

/* ---- derived text with positions ---- */
struct df_piece {
    size_t out;   /* offset in the derived text */
    size_t src;   /* offset in the logical line */
};

struct df_textb {
    struct gl_buf buf;
    struct df_piece *pieces;
    size_t npieces, cap;
    struct gl_srcmap_seg *segs; /* scratch for df_textb_finish */
    size_t nsegs, segcap;
};

/* Set map to exactly the n segments segs (copied into the arena). */
void df_map_commit(struct gl_arena *a, struct gl_srcmap *map, const struct gl_srcmap_seg *segs,
                   size_t n);

void df_textb_init(struct df_textb *t);
void df_textb_free(struct df_textb *t);
static inline void df_textb_reset(struct df_textb *t)
{
    t->buf.len = 0;
    t->npieces = 0;
}
/* Append line[off, off+n) (bytes taken from the logical line at that offset). */
void df_textb_run(struct df_textb *t, const char *line, size_t off, size_t n);
/* Append bytes produced by the source byte(s) at src (each byte maps to src). */
void df_textb_made(struct df_textb *t, const char *bytes, size_t n, size_t src);
/* Copy the text into the arena and build its map into the file through line_map; an
 * empty text maps to where empty_src is. */
void df_textb_finish(struct df_textb *t, struct gl_arena *a, const struct gl_srcmap *line_map,
                     size_t empty_src, const char **text, size_t *len, struct gl_srcmap *map);
/* Position of byte `off` (>= seg->off) of the segment seg, on its line. */
static inline struct gl_loc df_seg_loc(const struct gl_srcmap_seg *seg, size_t off)
{
    return (struct gl_loc){seg->at.line, seg->at.col + (uint32_t)(off - seg->off)};
}
/* The map of line[off, off+n) (n may be 0), a text of one piece: finish_map of it, written
 * straight into the arena (the same segments in an array of the size df_map_commit copies:
 * the arena is charged the same bytes). Inline for a line of one piece (one physical line):
 * one segment, no search. */
void df_slice_map_slow(struct gl_arena *a, const struct gl_srcmap *line_map, size_t off,
                       size_t n, struct gl_srcmap *map);
static inline void df_slice_map(struct gl_arena *a, const struct gl_srcmap *line_map,
                                size_t off, size_t n, struct gl_srcmap *map)
{
    if (line_map->n == 1 && off >= line_map->segs[0].off) {
        const struct gl_srcmap_seg *ls = &line_map->segs[0];
        struct gl_srcmap_seg *seg = gl_arena_take(a, sizeof *seg);
        *seg = (struct gl_srcmap_seg){0, df_seg_loc(ls, off)};
        map->segs = seg;
        map->n = map->cap = 1;
        map->arena = a;
        return;
    }
    df_slice_map_slow(a, line_map, off, n, map);
}

/* A copy of bytes[0, n) into *text (NUL-terminated) and df_slice_map(off, n) into *map.
 * On a line of one piece (one physical line): the map's one segment and the copy in one
 * arena take, the bytes of the two takes (each a multiple of 16), so the same charge. */
static inline void df_copy_mapped(struct gl_arena *a, const struct gl_srcmap *line_map,
                                  size_t off, const char *bytes, size_t n, const char **text,
                                  struct gl_srcmap *map)
{
    if (line_map->n == 1 && off >= line_map->segs[0].off) {
        _Static_assert(sizeof(struct gl_srcmap_seg) == 16, "a take's rounding");
        const struct gl_srcmap_seg *ls = &line_map->segs[0];
        char *blk = gl_arena_take(a, sizeof *ls + ((n + 1 + 15) & ~(size_t)15));
        struct gl_srcmap_seg *seg = (struct gl_srcmap_seg *)blk;
        *seg = (struct gl_srcmap_seg){0, df_seg_loc(ls, off)};
        char *copy = blk + sizeof *seg;
        df_copy_str(copy, bytes, n);
        *text = copy;
        *map = (struct gl_srcmap){seg, 1, 1, a};
        return;
    }
    *text = gl_arena_strndup(a, n ? bytes : "", n);
    df_slice_map(a, line_map, off, n, map);
}

/* What df_textb_reset, df_textb_run(line, off, n) and df_textb_finish(off) give, with the
 * bytes copied once, straight from the line (t is left reset). `at_end`: the slice ends
 * where the line's NUL is, so its text is the line's own bytes (no copy; the arena is
 * charged for one all the same). */
static inline void df_textb_slice(struct df_textb *t, struct gl_arena *a, const char *line,
                                  const struct gl_srcmap *line_map, size_t off, size_t n,
                                  bool at_end, const char **text, size_t *len,
                                  struct gl_srcmap *map)
{
    df_textb_reset(t);
    *len = n;
    if (!at_end) {
        df_copy_mapped(a, line_map, off, line + off, n, text, map);
        return;
    }
    gl_arena_charge(a, n + 1);
    *text = line + off;
    df_slice_map(a, line_map, off, n, map);
}

/* ---- the instruction parser (dockerfile_instr.c) ---- */
struct df_lineparse {
    struct gl_arena *arena;
    char escape;
    struct df_textb tb;   /* scratch */
};

/* Parse the logical line in->line (in->line_map set) into in: keyword, flags, args,
 * json, kvs, child. Returns false with err on a BuildKit parse error. */
bool df_parse_instr(struct df_lineparse *lp, struct df_instr *in, struct df_error *err);

/* ---- JSON array of strings (dockerfile_json.c) ---- */
enum df_json_result { DF_JSON_OK, DF_JSON_SYNTAX, DF_JSON_NOT_STRINGS };
/* Decode the JSON array starting at line[off] (a '['), as Go's json.Decoder would: the
 * first value only, trailing text ignored. On OK, the strings are appended to *args (an
 * arena array). On DF_JSON_NOT_STRINGS *bad is the offset of the first non-string. */
enum df_json_result df_json_strings(struct df_lineparse *lp, const struct df_instr *in,
                                    size_t off, size_t end, struct df_arg **args,
                                    size_t *nargs, size_t *cap, size_t *bad);

/* ---- BuildKit's shell lexer (dockerfile_expand.c) ---- */
struct df_shword {
    const char *text;
    size_t len;
    size_t src;   /* offset in the input where the word starts */
};

struct df_shlex {
    uint32_t escape;
    bool raw_quotes, raw_escapes, skip_unset;
    df_lookup_fn lookup;   /* NULL: nothing is set */
    void *ctx;
    struct gl_buf *scratch; /* where the result is built (reset first, kept), or NULL */
    bool unresolved;       /* out: an unset variable was used */
    size_t err_off;        /* out: where processing failed */
    const char *err_msg;   /* out */
};

/* Process s[0..n) like Lex.process: the whole processed word into *result (if not NULL,
 * arena), the split words into *words (if not NULL, arena array). False on error. */
bool df_shlex_process(struct df_shlex *lx, struct gl_arena *a, const char *s, size_t n,
                      char **result, size_t *result_len, struct df_shword **words,
                      size_t *nwords);

#endif
