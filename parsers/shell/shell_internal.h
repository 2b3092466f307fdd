/* SPDX-License-Identifier: Apache-2.0 */
/*
 * shell_internal.h: the pieces of the shell word splitter shared by its files (not a
 * public API; see shell_words.h for that).
 *
 *   shell_lex.c    the lexer: one word (quotes, escapes, expansions), assignment
 *                  words, heredoc delimiters
 *   shell_build.c  building a word's fields (origins of bytes, field splitting) and
 *                  skipping nested constructs iteratively
 *   shell_words.c  the command builder: operators, reserved words, redirections,
 *                  heredoc bodies; sh_split
 *   shell_track.c  which commands set variables (NAME=v, export, read, unset...)
 *   shell_again.c  sh_split_word_again, sh_dash_c_index, sh_word_byte_loc
 *   shell_vars.c   the variable table
 *   shell_pos.c    positions of input offsets, and the first error (below the lexer and
 *                  the word builder, which both report them)
 *
 * The lexer reads lx->s at lx->i. A word is built in lx->wb (heap scratch, reused) and
 * each finished field (a word after field splitting) is appended to lx->fields as an
 * arena gl_word plus sh_word_info.
 */
#ifndef GPULINT_PARSERS_SHELL_INTERNAL_H
#define GPULINT_PARSERS_SHELL_INTERNAL_H

#include "parsers/shell/shell_words.h"
#include "linter/core/text.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Nested ${...:-word} deeper than this is skipped and opaque (no deeper recursion). */
#define SHL_MAX_DEPTH 32

/* The word being built (one field at a time). */
struct shl_wbuild {
    struct gl_buf text;
    struct sh_span *spans;
    size_t nspans, capspans;
    size_t src;       /* input offset of the current field's first byte */
    bool content;     /* the field exists (a literal byte, a quote, a non-empty value) */
    bool opaque, quoted, may_split;
    bool nosplit;     /* assignment values, redirection targets: no field splitting */
    int discard;      /* > 0: parts are parsed but not added (the unused ${x:-word}) */
};

/* Room for element n of a scratch array that starts in the fixed buffer `fixed` (on
 * sh_split's stack, room for `first` elements) and moves to the heap past it. *cap goes
 * 0, first, 2*first, ... as a heap array's would (the memory limit counts it). Its heap
 * bytes are held (gl_heap_hold: the pool's budget sees them) until shl_release. */
static inline void *shl_grow(void *p, size_t n, size_t *cap, size_t size, void *fixed,
                             size_t first)
{
    if (n < *cap)
        return p;
    size_t ncap = *cap ? *cap * 2 : first;
    void *q;
    if (!*cap) {
        q = fixed;
    } else if (p == fixed) {
        gl_heap_hold(ncap * size);
        q = xmalloc(ncap * size);
        memcpy(q, p, n * size);
    } else {
        gl_heap_hold((ncap - *cap) * size);
        q = xrealloc(p, ncap * size);
    }
    *cap = ncap;
    return q;
}
/* Free a scratch array of shl_grow of `cap` elements of `size` bytes (nothing when it is
 * still the fixed buffer, or was never grown: NULL, most arrays of most texts; no
 * free(NULL) call for them). */
static inline void shl_release(void *p, const void *fixed, size_t cap, size_t size)
{
    if (p && p != fixed) {
        free(p);
        gl_heap_drop(cap * size);
    }
}

/* The first rooms of the lexer's scratch arrays, on sh_split's stack: most texts never
 * need more, so they cost no malloc. */
#define SHL_FIXED_FIELDS 8
#define SHL_FIXED_SPANS 16
#define SHL_FIXED_TEXT 256
struct shl_fixed {
    struct gl_word fields[SHL_FIXED_FIELDS];
    struct sh_word_info finfo[SHL_FIXED_FIELDS];
    struct sh_span spans[SHL_FIXED_SPANS];
    char text[SHL_FIXED_TEXT]; /* wb.text's first room (a malloc and free a text saved) */
};

struct sh_lexer {
    struct gl_arena *a;
    const char *s;
    size_t len, i;
    const struct gl_srcmap *map;
    size_t map_hint;     /* the map's piece of the last position looked up */
    /* that piece, kept for shl_loc: input offsets [piece_lo, piece_lo + piece_len) are at
     * piece_at and the columns after it (piece_len 0: none kept yet) */
    size_t piece_lo, piece_len;
    struct gl_loc piece_at;
    char esc;
    bool esc_plain;      /* esc is no byte of shl_plain_stops (a caller's own escape) */
    const struct sh_opts *opts;
    struct sh_vars *vars;
    bool track;          /* record assignments */
    bool assign_certain; /* an assignment made now (${x:=v}) is certain */
    bool stop;           /* an error ended the text */
    struct sh_error *err;
    size_t budget;       /* bytes of variable values that may still be substituted */
    struct shl_wbuild wb;
    struct shl_fixed *fixed; /* first rooms of fields, finfo and wb.spans */
    struct gl_word *fields; /* fields of the last word lexed (scratch) */
    struct sh_word_info *finfo;
    size_t nfields, capfields;
    /* heap scratch, counted against parse-memory with the arena's total: the lexer's own
     * (its word's text and spans, its fields past their first rooms: shl_scratch_grown),
     * and the builder's (its words, contexts, commands: set by the builder), each side's
     * checks counting the other's too (two sides that each kept to the limit alone took
     * 44 MB on one `$a` split into 500,000 fields) */
    size_t scratch, builder_scratch;
};

/* The lexer's scratch grew (its word's text, spans or fields): lx->scratch again. */
void shl_scratch_grown(struct sh_lexer *lx);

/* (shl_init, which sets the lexer up, is below: it reads shl_plain_stops) */
void shl_free(struct sh_lexer *lx);

/* shl_loc for an offset outside the piece kept: the map's look-up, and its piece kept. */
struct gl_loc shl_loc_lookup(struct sh_lexer *lx, size_t off);
/* The position in the original text of input offset `off` (the lexer and the word
 * builder both report positions; a word's offset is nearly always in the piece of the
 * last one, a line of the text: one subtraction and compare). */
static inline struct gl_loc shl_loc(struct sh_lexer *lx, size_t off)
{
    if (off - lx->piece_lo < lx->piece_len) /* unsigned: false too when off < piece_lo */
        return (struct gl_loc){lx->piece_at.line,
                               lx->piece_at.col + (uint32_t)(off - lx->piece_lo)};
    return shl_loc_lookup(lx, off);
}
/* Record the first error (at input offset `off`) and stop reading. */
void shl_error(struct sh_lexer *lx, size_t off, const char *message);
/* Position after any backslash-newline continuations at i. */
size_t shl_skip_cont(const struct sh_lexer *lx, size_t i);
/* The byte at lx->i after skipping continuations (lx->i moves past them), -1 at end.
 * Inline: called for every token and blank; a continuation starts with the escape. */
static inline int shl_cur(struct sh_lexer *lx)
{
    if (lx->stop)
        return -1;
    if (lx->i < lx->len && lx->s[lx->i] == lx->esc)
        lx->i = shl_skip_cont(lx, lx->i);
    return lx->i < lx->len ? (unsigned char)lx->s[lx->i] : -1;
}
/* The offset after an opaque part of a word that starts at i, or 0 when none starts
 * there: a template expression `{{ ... }}` closed on its line (always: a templated
 * script is linted as written, its expressions unknown), or with opts->placeholders a
 * placeholder `<...>` or an ellipsis word (`...`, `…`: the arguments a document leaves
 * out; ask for one only where the lexer starts a word), with opts->python_braces an
 * IPython `{expr}` (see sh_opts). */
size_t shl_placeholder_end(const struct sh_lexer *lx, size_t i);
/* Longest placeholder text read as one (a longer `<...` is a redirection after all). */
#define SHL_PLACEHOLDER_MAX 128

/* The offset after a documentation placeholder `<...>` that starts at i (the grammar of
 * opts->placeholders, whatever the flag), else 0. */
size_t shl_angle_placeholder_end(const struct sh_lexer *lx, size_t i);
/* Does the byte at i end an unquoted word (blank, newline, operator char, end)? */
static inline bool shl_word_end_at(const struct sh_lexer *lx, size_t i)
{
    if (i >= lx->len)
        return true;
    switch (lx->s[i]) {
    case ' ': case '\t': case '\n': case ';': case '&': case '|':
    case '(': case ')': case '<': case '>':
        return true;
    case '\r':
        return i + 1 < lx->len && lx->s[i + 1] == '\n';
    default:
        return false;
    }
}

/* A `'` at i inside a ${...} that is inside double quotes: bash reads it as a quote (its
 * `"${x:-'"'}"`, `"${a[@]/#/'"'}"`), dash as a plain byte (its `"${m:-it's}"`). Each
 * reading refuses the other's text; gpulint takes the one under which the text parses:
 * a quote when another `'` closes it before the next `}`. Returns that closing `'`'s
 * offset, or 0 for a plain byte. */
static inline size_t shl_brace_dq_quote_end(const char *s, size_t i, size_t len)
{
    for (size_t k = i + 1; k < len; k++) {
        if (s[k] == '\'')
            return k;
        if (s[k] == '}')
            return 0;
    }
    return 0;
}

/* Find the end of a nested construct whose opener ('(' for $( $(( ( , '{' for ${ ('Q' for
 * a ${ inside double quotes), '`', '"') was just before i. Iterative; *end is the offset
 * after the closer. */
bool shl_skip_construct(const struct sh_lexer *lx, size_t i, char open, size_t *end);

/* The state of variable name[0, n): the table's, else opts->lookup's (a value longer
 * than the expansion budget is known, its length past the budget). */
enum sh_var_state shl_var_state(struct sh_lexer *lx, const char *name, size_t n,
                                const char **val, size_t *vlen);

/* ---- building the current word (shell_build.c) ---- */
/* Start a word whose first byte is at input offset src; clears lx->fields. */
void shl_wb_begin(struct sh_lexer *lx, size_t src, bool nosplit);
/* Append bytes from input offset src: byte k from src+k when `literal`, else all from
 * the construct at src. Nothing is added while wb.discard > 0. */
void shl_wb_add(struct sh_lexer *lx, const char *p, size_t n, size_t src, bool literal);
/* The input byte at src, literally. */
void shl_wb_lit(struct sh_lexer *lx, size_t src);
/* Input bytes [from, to) as written, making the word opaque; `unquoted`: the part is
 * subject to field splitting, so the word may stand for several words. */
void shl_wb_opaque_raw(struct sh_lexer *lx, size_t from, size_t to, bool unquoted);
/* The whole word is the plain input bytes [from, to) (no quote, expansion, escape or
 * continuation in them): its one field, as shl_word would build it, without the builder. */
void shl_wb_plain(struct sh_lexer *lx, size_t from, size_t to, bool nosplit);
/* A field separator from field splitting; the next field starts at input offset next. */
void shl_wb_break(struct sh_lexer *lx, size_t next);
/* End the word: push its last field, mark the fields of a split word. */
void shl_wb_finish(struct sh_lexer *lx);
/* A variable's value replacing the construct at input [from, to), field-split when
 * `split`; beyond the expansion budget the construct stays as written, opaque. */
void shl_wb_value(struct sh_lexer *lx, const char *v, size_t n, size_t from, size_t to,
                  bool split);

/* ---- runs of plain bytes ---- */

/* The bytes that can be anything but a literal in some mode (quote, expansion, escape or
 * continuation, word end, placeholder, brace end): a run of other bytes is a literal
 * appended in one go, and a word of them only is plain (shl_plain_word_end). */
extern const bool shl_plain_stops[256];
/* Clear the n bytes at p (any n; a constant where it is called, so the size tests fold
 * away): sixteen bytes a store, written out. For the lexer and the builder, cleared once a
 * text: gcc made their memset a `rep stosq` of ~28 steps, which a branch predictor sees as
 * a loop whose end it mispredicts once a text (and which costs a slow start on a real CPU).
 * Below 16 bytes the overlapping last store would write before p: a plain memset. */
static inline __attribute__((always_inline)) void shl_clear(void *p, size_t n)
{
    char *c = p;
#ifdef __SSE2__
    if (n < 16) {
        memset(c, 0, n);
        return;
    }
    size_t i = 0;
#pragma GCC unroll 32
    for (; i + 16 <= n; i += 16)
        _mm_storeu_si128((__m128i *)(void *)(c + i), _mm_setzero_si128());
    if (i < n) /* the last bytes: a store that overlaps the one before */
        _mm_storeu_si128((__m128i *)(void *)(c + n - 16), _mm_setzero_si128());
#else
    memset(c, 0, n);
#endif
}

/* Set up the lexer for s[0, len). Inline: once a text, from sh_split (its call cost
 * more than its stores). */
static inline void shl_init(struct sh_lexer *lx, struct gl_arena *a, const char *s,
                            size_t len, const struct gl_srcmap *map, const struct sh_opts *opts,
                            struct sh_vars *vars, struct sh_error *err, struct shl_fixed *fixed)
{
    shl_clear(lx, sizeof *lx);
    lx->fixed = fixed;
    lx->a = a;
    lx->s = s;
    lx->len = len;
    lx->map = map;
    lx->opts = opts;
    lx->esc = opts && opts->escape ? opts->escape : '\\';
    lx->esc_plain = !shl_plain_stops[(unsigned char)lx->esc];
    lx->track = opts && opts->track_assignments;
    lx->vars = vars;
    lx->err = err;
    lx->budget = 4 * len + (1u << 20);
    /* lx->wb.text: empty, in the fixed room (wb_add moves it to the heap past it) */
    lx->wb.text.data = fixed->text;
    lx->wb.text.cap = SHL_FIXED_TEXT;
    fixed->text[0] = 0;
}

/* shl_plain_run_end when the escape is a byte shl_plain_stops passes (a caller's own
 * escape character): the byte loop that also stops at it. */
size_t shl_plain_run_end_esc(const struct sh_lexer *lx, size_t end);

/* The end of the run of plain bytes from `end` on (the first stop byte, or the end).
 * Called for every word: on x86-64 sixteen bytes a step (SSE2, always there), the scalar
 * loop four bytes a step for the rest and elsewhere. always_inline: gcc kept one out-of-line copy that plain_word called for every word
 * (~10 instructions a call in the frame; inlined, 999 Dockerfiles 169.49 M -> 168.69 M). */
static inline __attribute__((always_inline)) size_t shl_plain_run_end(const struct sh_lexer *lx,
                                                                      size_t end)
{
    const unsigned char *s = (const unsigned char *)lx->s;
    size_t len = lx->len;
    if (__builtin_expect(lx->esc_plain, 0))
        return shl_plain_run_end_esc(lx, end);
#ifdef __SSE2__
    /* A superset of the stop bytes found with a few compares: every byte <= ')' (the
     * blanks, NUL, '"', '$', '&', '\'', '(', ')' and some that are no stop: controls,
     * '!', '#', '%'), ';', '<', '>', '\\', '`' and '{' '|' '}'. The first candidate is
     * looked up in the table: a stop ends the run, another byte is stepped over. */
    while (end + 16 <= len) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + end));
        __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(')')), x);
        __m128i br = _mm_sub_epi8(x, _mm_set1_epi8('{')); /* '{' '|' '}' -> 0 1 2 */
        __m128i brace = _mm_cmpeq_epi8(_mm_min_epu8(br, _mm_set1_epi8(2)), br);
        __m128i ops = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(';')),
                                   _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('<')),
                                                _mm_cmpeq_epi8(x, _mm_set1_epi8('>'))));
        __m128i q = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')),
                                 _mm_cmpeq_epi8(x, _mm_set1_epi8('`')));
        unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_or_si128(low, brace), _mm_or_si128(ops, q)));
        if (!m) {
            end += 16;
            continue;
        }
        size_t k = end + (size_t)__builtin_ctz(m);
        if (shl_plain_stops[s[k]])
            return k;
        end = k + 1;
    }
#endif
    while (end + 4 <= len && !((unsigned)shl_plain_stops[s[end]] |
                               (unsigned)shl_plain_stops[s[end + 1]] |
                               (unsigned)shl_plain_stops[s[end + 2]] |
                               (unsigned)shl_plain_stops[s[end + 3]]))
        end += 4;
    while (end < len && !shl_plain_stops[s[end]])
        end++;
    return end;
}

/* Does a word of plain bytes that reach `end` end there (what lex_parts would see next:
 * the end, a blank, a newline, an operator; not `<`, which may open a placeholder, and
 * not a quote, expansion, escape or brace, with which the word goes on)? */
extern const unsigned char shl_plain_word_enders[256]; /* 1 ends it, 2 ends it before \n */
static inline bool shl_plain_word_ends_at(const struct sh_lexer *lx, size_t end)
{
    if (end >= lx->len)
        return true;
    unsigned char k = shl_plain_word_enders[(unsigned char)lx->s[end]];
    return k == 1 || (k == 2 && end + 1 < lx->len && lx->s[end + 1] == '\n');
}

/* The end of the word at input offset `at` when it is plain bytes only (no quote,
 * expansion, escape or continuation; shl_plain_word_ends_at): what shl_word makes its one
 * field straight from the input. 0 when it is not (or the lexer has stopped). */
static inline size_t shl_plain_word_end(const struct sh_lexer *lx, size_t at)
{
    if (lx->stop)
        return 0;
    size_t end = shl_plain_run_end(lx, at);
    return end > at && shl_plain_word_ends_at(lx, end) ? end : 0;
}

/* Lex one word at lx->i into lx->fields (0, 1 or several fields). `nosplit` turns field
 * splitting off (redirection targets). */
void shl_word(struct sh_lexer *lx, bool nosplit);
/* Lex a heredoc delimiter word (quote removal only) into one field; *quoted set when
 * any part was quoted. */
void shl_heredoc_word(struct sh_lexer *lx, bool *quoted);
/* Read the here-document body line that starts at i: true when it is the delimiter
 * (delim, dlen bytes; `<<-`: strip_tabs), *next where the line after it starts. With a
 * delimiter not quoted, a line that ends in an odd run of escapes goes on in the next one,
 * as bash joins them (`a\` then `EOF` is the body's `aEOF`, no delimiter; `EO\` then `F`
 * is one). A trailing CR is no part of the line (CRLF scripts). */
bool shl_heredoc_line(const struct sh_lexer *lx, size_t i, const char *delim, size_t dlen,
                      bool strip_tabs, bool quoted, size_t *next);
/* Is there an assignment word `NAME=` / `NAME+=` at lx->i? */
bool shl_at_assignment(const struct sh_lexer *lx);
/* Lex the assignment word at lx->i into *out. */
void shl_assignment(struct sh_lexer *lx, struct sh_assign *out);

/* Record the variables command `c` sets (when it ends; `certain`: it runs
 * unconditionally in the current shell). `info`: its words' infos (the builder's, which
 * c->info may not keep: sh_opts.words_only). */
void shl_track_setter(struct sh_vars *vars, const struct sh_cmd *c,
                      const struct sh_word_info *info, bool certain);
/* The lengths, as bits, of the names of commands that may set variables, by the name's
 * first byte: export declare typeset local read readonly unset getopts, `.` and source (a
 * file that may set any). */
extern const uint16_t shl_setter_lengths[256];
/* (inline: it runs for every command, and a command sets variables only when it has no
 * word or its name is one of those: told apart from the others by first byte and length
 * in one table look-up and one test, shl_track_setter does the rest; rm, echo, tar, dpkg,
 * useradd... are out without its call. A switch on the first byte was a jump through a
 * table, mispredicted at half the commands) */
static inline void shl_track_command(struct sh_vars *vars, const struct sh_cmd *c,
                                     const struct sh_word_info *info, bool certain)
{
    if (c->nwords) {
        size_t n = gl_word_size(&c->words[0]);
        if (n >= 16 || !((shl_setter_lengths[(unsigned char)c->words[0].text[0]] >> n) & 1u))
            return;
    }
    shl_track_setter(vars, c, info, certain);
}

/* Does the field hold exactly the literal source text `kw` (unquoted, unexpanded)? */
bool shl_field_is_literal(const struct gl_word *w, const struct sh_word_info *info,
                          const char *kw);

#endif
