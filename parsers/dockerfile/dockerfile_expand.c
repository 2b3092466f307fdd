/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile_expand.c: BuildKit's shell word lexer (frontend/dockerfile/shell Lex) in C.
 *
 * One processor serves two callers: the heredoc detector (ProcessWords with RawQuotes,
 * RawEscapes and SkipUnsetEnv, no variables set) and df_expand_word (ProcessWord with a
 * caller's variables). It works on runes like Go's text/scanner (an invalid byte is
 * U+FFFD, a leading BOM is skipped). Nested ${a:-${b}} recursion is capped at
 * SHLEX_MAX_DEPTH levels (an error beyond), so input cannot blow the stack.
 */
#include "parsers/dockerfile/dockerfile_internal.h"
#include "linter/core/text.h"

#include <stdio.h>
#include <string.h>

#define SHLEX_MAX_DEPTH 64
#define SH_EOF (-1)

struct rd {
    const char *s;
    size_t n, pos;
};

/* (A BOM at the very start, which text/scanner ignores, is skipped when the reader is
 * set up: see df_shlex_process.) */
static inline int32_t peek_w(struct rd *r, size_t *w)
{
    if (r->pos >= r->n) {
        *w = 0;
        return SH_EOF;
    }
    uint32_t c;
    *w = df_utf8_rune(r->s + r->pos, r->n - r->pos, &c);
    return (int32_t)c;
}

static inline int32_t peek(struct rd *r)
{
    size_t w;
    return peek_w(r, &w);
}

static inline int32_t next(struct rd *r)
{
    size_t w;
    int32_t c = peek_w(r, &w);
    r->pos += w;
    return c;
}

static void put_rune(struct gl_buf *b, int32_t c)
{
    char u[4];
    gl_buf_add(b, u, df_utf8_encode((uint32_t)c, u));
}

/* ---- word splitting (wordsStruct) ---- */
struct wacc {
    struct gl_arena *a;
    struct gl_buf word;
    bool in_word, have_start;
    size_t start;
    struct df_shword *list;
    size_t n, cap;
};

static void w_emit(struct wacc *w)
{
    struct df_shword *sw = GL_APPEND(w->a, w->list, w->n, w->cap);
    sw->text = gl_arena_strndup(w->a, w->word.data ? w->word.data : "", w->word.len);
    sw->len = w->word.len;
    sw->src = w->start;
    w->word.len = 0;
    w->in_word = w->have_start = false;
}

static void w_mark(struct wacc *w, size_t src)
{
    if (!w->have_start) {
        w->start = src;
        w->have_start = true;
    }
}

static void w_raw_char(struct wacc *w, int32_t c, size_t src)
{
    w_mark(w, src);
    put_rune(&w->word, c);
    w->in_word = true;
}

static void w_char(struct wacc *w, int32_t c, size_t src)
{
    bool sp = df_is_uspace((uint32_t)c);
    if (sp && w->in_word) {
        if (w->word.len)
            w_emit(w);
    } else if (!sp) {
        w_raw_char(w, c, src);
    }
}

static void w_string(struct wacc *w, const char *s, size_t n, size_t src)
{
    for (size_t i = 0; i < n;) {
        uint32_t c;
        i += df_utf8_decode(s + i, n - i, &c);
        w_char(w, (int32_t)c, src);
    }
}

static void w_raw_string(struct wacc *w, const char *s, size_t n, size_t src)
{
    w_mark(w, src);
    gl_buf_add(&w->word, s, n);
    w->in_word = true;
}

/* ---- the lexer ---- */
struct sh {
    struct df_shlex *lx;
    struct rd r;
};

static bool fail(struct sh *sh, const char *msg)
{
    sh->lx->err_off = sh->r.pos;
    sh->lx->err_msg = msg;
    return false;
}

static bool stop_on(struct sh *sh, int32_t stop, int depth, struct gl_buf *out, struct wacc *w);

static bool is_name_letter(int32_t c)
{
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    /* approximation of unicode.IsLetter for non-ASCII */
    if (c == 0xAA || c == 0xB5 || c == 0xBA)
        return true;
    if (c < 0xC0 || c == 0xD7 || c == 0xF7 || df_is_uspace((uint32_t)c))
        return false;
    if ((c >= 0x2000 && c <= 0x2BFF) || (c >= 0x3000 && c <= 0x303F) ||
        (c >= 0xE000 && c <= 0xF8FF) || (c >= 0xFE00 && c <= 0xFE6F) ||
        (c >= 0xFF00 && c <= 0xFF20) || c == 0xFFFD || c == 0xFEFF)
        return false;
    return true;
}

static bool is_digit(int32_t c) { return c >= '0' && c <= '9'; }

/* A variable's name as written (read_name): every rune of it is the source's own bytes
 * (a name takes only valid runes, which re-encode to the same bytes), so it is a slice. */
struct name {
    const char *data;
    size_t len;
};

static struct name read_name(struct sh *sh)
{
    size_t start = sh->r.pos;
    int32_t c = peek(&sh->r);
    if (c != SH_EOF && is_digit(c)) {
        while ((c = peek(&sh->r)) != SH_EOF && is_digit(c))
            next(&sh->r);
        return (struct name){sh->r.s + start, sh->r.pos - start};
    }
    if (c > 0 && c < 0x80 && strchr("@*#?-$!0", (int)c)) {
        next(&sh->r);
        return (struct name){sh->r.s + start, sh->r.pos - start};
    }
    for (;;) {
        /* a run of ASCII name bytes at once (each is its own rune: no BOM here, after the
         * `$`), then a rune that may be a non-ASCII letter */
        size_t e = sh->r.pos;
        while (e < sh->r.n && gl_name_class[(unsigned char)sh->r.s[e]])
            e++;
        sh->r.pos = e;
        c = peek(&sh->r);
        if (c == SH_EOF || c < 0x80 || !is_name_letter(c))
            break;
        next(&sh->r);
    }
    return (struct name){sh->r.s + start, sh->r.pos - start};
}

/* Value of a variable: NULL if unset. */
static const char *get_env(struct sh *sh, struct name name)
{
    if (!sh->lx->lookup)
        return NULL;
    return sh->lx->lookup(sh->lx->ctx, name.data, name.len);
}

static bool dollar_curly(struct sh *sh, int depth, struct gl_buf *out)
{
    int32_t c = peek(&sh->r);
    if (c == SH_EOF)
        return fail(sh, "syntax error: missing '}'");
    if (c == '{' || c == '}' || c == ':')
        return fail(sh, "syntax error: bad substitution");
    struct name name = read_name(sh);
    const char *val = get_env(sh, name);
    bool ok = true;
    int32_t ch = next(&sh->r);
    if (ch == '}') {
        if (val)
            gl_buf_adds(out, val);
        else if (sh->lx->skip_unset)
            gl_buf_printf(out, "${%.*s}", (int)name.len, name.data);
        else
            sh->lx->unresolved = true;
        return true;
    }
    bool colon = ch == ':';
    int32_t mod = colon ? next(&sh->r) : ch;
    bool twice = false;
    if ((mod == '#' || mod == '%') && !colon && peek(&sh->r) == mod) {
        next(&sh->r);
        twice = true;
    }
    if (mod <= 0 || mod >= 0x80 || !strchr(colon ? "-+?" : "-+?#%", (int)mod)) {
        if (mod == SH_EOF)
            return fail(sh, "syntax error: missing '}'");
        return fail(sh, colon ? "unsupported modifier in substitution"
                              : "missing ':' in substitution");
    }
    struct gl_buf word;
    gl_buf_init(&word);
    if (!stop_on(sh, '}', depth + 1, &word, NULL)) {
        if (peek(&sh->r) == SH_EOF)
            sh->lx->err_msg = "syntax error: missing '}'";
        ok = false;
        goto done;
    }
    const char *w = word.data ? word.data : "";
    size_t wl = word.len;
    if (!val && sh->lx->skip_unset) {
        gl_buf_printf(out, "${%.*s%s%c%s%.*s}", (int)name.len, name.data,
                      colon ? ":" : "", (char)mod, twice ? (mod == '#' ? "#" : "%") : "",
                      (int)wl, w);
        goto done;
    }
    bool empty = !val || !*val;
    switch (mod) {
    case '-':
        if (colon ? empty : !val)
            gl_buf_add(out, w, wl);
        else
            gl_buf_adds(out, val);
        break;
    case '+':
        if (colon ? !empty : val != NULL)
            gl_buf_add(out, w, wl);
        break;
    case '?':
        if (colon ? empty : !val) {
            ok = fail(sh, wl ? "variable is unset or empty (${VAR?message})"
                             : "variable is not allowed to be unset or empty");
            goto done;
        }
        gl_buf_adds(out, val);
        break;
    default: { /* '#' and '%': literal prefix / suffix removal */
        if (!val) {
            sh->lx->unresolved = true;
            break;
        }
        size_t vl = strlen(val);
        if (wl <= vl && mod == '#' && memcmp(val, w, wl) == 0)
            gl_buf_add(out, val + wl, vl - wl);
        else if (wl <= vl && mod == '%' && memcmp(val + vl - wl, w, wl) == 0)
            gl_buf_add(out, val, vl - wl);
        else
            gl_buf_add(out, val, vl);
        break;
    }
    }
done:
    gl_buf_free(&word);
    return ok;
}

static bool dollar(struct sh *sh, int depth, struct gl_buf *out)
{
    if (depth > SHLEX_MAX_DEPTH)
        return fail(sh, "variable substitutions nested too deeply");
    next(&sh->r); /* '$' */
    if (peek(&sh->r) == '{') {
        next(&sh->r);
        return dollar_curly(sh, depth, out);
    }
    struct name name = read_name(sh);
    if (!name.len) {
        gl_buf_addc(out, '$');
    } else {
        const char *val = get_env(sh, name);
        if (val)
            gl_buf_adds(out, val);
        else if (sh->lx->skip_unset)
            gl_buf_printf(out, "$%.*s", (int)name.len, name.data);
        else
            sh->lx->unresolved = true;
    }
    return true;
}

static bool single_quote(struct sh *sh, struct gl_buf *out)
{
    int32_t c = next(&sh->r);
    if (sh->lx->raw_quotes)
        put_rune(out, c);
    for (;;) {
        c = next(&sh->r);
        if (c == SH_EOF)
            return fail(sh, "unexpected end of statement while looking for matching single-quote");
        if (c == '\'') {
            if (sh->lx->raw_quotes)
                put_rune(out, c);
            return true;
        }
        put_rune(out, c);
        /* the ASCII bytes after it up to the quote, each its own rune, at once */
        size_t p = sh->r.pos, e = p;
        while (e < sh->r.n && (unsigned char)sh->r.s[e] < 0x80 && sh->r.s[e] != '\'')
            e++;
        gl_buf_add(out, sh->r.s + p, e - p);
        sh->r.pos = e;
    }
}

static bool double_quote(struct sh *sh, int depth, struct gl_buf *out)
{
    int32_t c = next(&sh->r);
    if (sh->lx->raw_quotes)
        put_rune(out, c);
    for (;;) {
        c = peek(&sh->r);
        if (c == SH_EOF)
            return fail(sh, "unexpected end of statement while looking for matching double-quote");
        if (c == '"') {
            next(&sh->r);
            if (sh->lx->raw_quotes)
                put_rune(out, c);
            return true;
        }
        if (c == '$') {
            if (!dollar(sh, depth + 1, out))
                return false;
            continue;
        }
        if (c < 0x80 && c != (int32_t)sh->lx->escape) {
            /* an ASCII byte and those after it up to a quote, `$` or the escape: each is
             * its own rune, copied at once */
            size_t p = sh->r.pos, e = p + 1;
            while (e < sh->r.n && (unsigned char)sh->r.s[e] < 0x80 && sh->r.s[e] != '"' &&
                   sh->r.s[e] != '$' && (unsigned char)sh->r.s[e] != sh->lx->escape)
                e++;
            gl_buf_add(out, sh->r.s + p, e - p);
            sh->r.pos = e;
            continue;
        }
        c = next(&sh->r);
        if (c == (int32_t)sh->lx->escape) {
            if (sh->lx->raw_escapes)
                put_rune(out, c);
            int32_t p = peek(&sh->r);
            if (p == SH_EOF)
                continue;
            if (p == '"' || p == '$' || p == (int32_t)sh->lx->escape)
                c = next(&sh->r);
        }
        put_rune(out, c);
    }
}

/* The bytes that stop_on only copies (to the text and the current word): printable ASCII,
 * not blank, not the stop, the escape, a quote, '$' or '<'. With no words wanted,
 * blanks and other ASCII controls are copied as they are too. As a set of bits (bytes
 * 0-63 in word 0, 64-127 in word 1), made once a call: one test a byte in the runs. */
#define BYTE_BIT(c) (1ull << ((unsigned)(c) & 63))

struct plain_set {
    uint64_t bits[2];
};

static struct plain_set plain_set(const struct sh *sh, int32_t stop, bool words)
{
    struct plain_set p = {{~0ull, ~0ull}};
    p.bits[0] &= ~(BYTE_BIT('\'') | BYTE_BIT('"') | BYTE_BIT('$') | BYTE_BIT('<'));
    if (words) {
        p.bits[0] &= ~((2ull << ' ') - 1); /* 0x00 to ' ' */
        p.bits[1] &= ~BYTE_BIT(0x7F);
    }
    if (stop >= 0 && stop < 0x80)
        p.bits[stop >> 6] &= ~BYTE_BIT(stop);
    if (sh->lx->escape < 0x80)
        p.bits[sh->lx->escape >> 6] &= ~BYTE_BIT(sh->lx->escape);
    return p;
}

static inline bool plain_byte(const struct plain_set *p, int32_t c)
{
    return c >= 0 && c < 0x80 && (p->bits[c >> 6] >> (c & 63) & 1);
}

static bool stop_on(struct sh *sh, int32_t stop, int depth, struct gl_buf *out, struct wacc *w)
{
    if (depth > SHLEX_MAX_DEPTH)
        return fail(sh, "variable substitutions nested too deeply");
    struct gl_buf tmp;
    gl_buf_init(&tmp);
    const struct plain_set plain = plain_set(sh, stop, w != NULL);
    int32_t c;
    while ((c = peek(&sh->r)) != SH_EOF) {
        size_t src = sh->r.pos;
        if (stop != SH_EOF && c == stop) {
            next(&sh->r);
            gl_buf_free(&tmp);
            return true;
        }
        if (c == '<') { /* processPossibleHeredoc: "<<" keeps the blanks after it */
            next(&sh->r);
            tmp.len = 0;
            gl_buf_addc(&tmp, '<');
            if (peek(&sh->r) == '<') {
                gl_buf_addc(&tmp, (char)next(&sh->r));
                while ((c = peek(&sh->r)) == ' ' || c == '\t')
                    gl_buf_addc(&tmp, (char)next(&sh->r));
            }
            gl_buf_add(out, tmp.data, tmp.len);
            if (w)
                w_raw_string(w, tmp.data, tmp.len, src);
            continue;
        }
        if (c == '\'' || c == '"' || c == '$') {
            struct gl_buf *dst = w ? &tmp : out; /* no words: straight into out */
            tmp.len = 0;
            bool ok = c == '\'' ? single_quote(sh, dst)
                      : c == '"' ? double_quote(sh, depth, dst)
                                 : dollar(sh, depth + 1, dst);
            if (!ok) {
                gl_buf_free(&tmp);
                return false;
            }
            if (!w)
                continue;
            gl_buf_add(out, tmp.data ? tmp.data : "", tmp.len);
            if (c == '$')
                w_string(w, tmp.data ? tmp.data : "", tmp.len, src);
            else
                w_raw_string(w, tmp.data ? tmp.data : "", tmp.len, src);
            continue;
        }
        if (plain_byte(&plain, c)) { /* a run of plain ASCII bytes, at once */
            size_t end = src + 1;
            while (end < sh->r.n && plain_byte(&plain, (unsigned char)sh->r.s[end]))
                end++;
            if (w) {
                w_mark(w, src);
                gl_buf_add(&w->word, sh->r.s + src, end - src);
                w->in_word = true;
            }
            gl_buf_add(out, sh->r.s + src, end - src);
            sh->r.pos = end;
            continue;
        }
        c = next(&sh->r);
        if (c == (int32_t)sh->lx->escape) {
            if (sh->lx->raw_escapes) {
                if (w)
                    w_raw_char(w, c, src);
                put_rune(out, c);
            }
            c = next(&sh->r);
            if (c == SH_EOF)
                break;
            if (w)
                w_raw_char(w, c, src);
        } else if (w) {
            w_char(w, c, src);
        }
        put_rune(out, c);
    }
    gl_buf_free(&tmp);
    if (stop != SH_EOF)
        return fail(sh, "unexpected end of statement while looking for matching }");
    return true;
}

bool df_shlex_process(struct df_shlex *lx, struct gl_arena *a, const char *s, size_t n,
                      char **result, size_t *result_len, struct df_shword **words,
                      size_t *nwords)
{
    /* text/scanner ignores a BOM at the very start */
    size_t bom = n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    struct sh sh = {lx, {s, n, bom}};
    struct wacc w = {.a = a};
    gl_buf_init(&w.word);
    struct gl_buf own, *out = lx->scratch ? lx->scratch : &own;
    if (!lx->scratch)
        gl_buf_init(&own);
    out->len = 0;
    lx->unresolved = false;
    lx->err_msg = NULL;
    lx->err_off = 0;
    bool ok = stop_on(&sh, SH_EOF, 0, out, words ? &w : NULL);
    if (ok && words && w.word.len)
        w_emit(&w);
    if (ok && result) {
        *result = gl_arena_strndup(a, out->data ? out->data : "", out->len);
        *result_len = out->len;
    }
    if (words) {
        *words = ok ? w.list : NULL;
        *nwords = ok ? w.n : 0;
    }
    if (!lx->scratch)
        gl_buf_free(&own);
    gl_buf_free(&w.word);
    return ok;
}

/* Any byte of x equal to b? (The classic zero-byte test on x ^ b..b: exact for "any".) */
static inline bool swar_has(uint64_t x, unsigned char b)
{
    uint64_t y = x ^ (0x0101010101010101ull * b);
    return ((y - 0x0101010101010101ull) & ~y & 0x8080808080808080ull) != 0;
}

/* Does the lexer copy word[0, len) unchanged (no word list wanted)? So when it is ASCII
 * without NUL (no rune to re-encode, no BOM) and holds no quote, `$` or escape: every
 * other byte, `<` included, is copied as it is. Eight bytes a step (words are paths and
 * URLs), the rest one by one. */
static bool literal_word(const char *word, size_t len, char escape)
{
    unsigned char esc = (unsigned char)escape;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t x;
        memcpy(&x, word + i, 8);
        if ((x & 0x8080808080808080ull) || swar_has(x, 0) || swar_has(x, '$') ||
            swar_has(x, '\'') || swar_has(x, '"') || swar_has(x, esc))
            return false;
    }
    for (; i < len; i++) {
        unsigned char c = (unsigned char)word[i];
        if (c == 0 || c >= 0x80 || c == '$' || c == '\'' || c == '"' || c == esc)
            return false;
    }
    return true;
}

/* df_expand_word, its result built in scratch (or a buffer of its own when NULL). */
static bool expand_word(struct gl_arena *a, const char *word, size_t len, char escape,
                        df_lookup_fn lookup, void *ctx, struct gl_buf *scratch, char **out,
                        size_t *out_len, bool *unresolved, struct df_error *err)
{
    if (literal_word(word, len, escape)) { /* what the lexer would give: the word itself */
        *out = gl_arena_strndup(a, word, len);
        *out_len = len;
        if (unresolved)
            *unresolved = false;
        return true;
    }
    struct df_shlex lx = {.escape = (unsigned char)escape, .lookup = lookup, .ctx = ctx,
                          .scratch = scratch};
    bool ok = df_shlex_process(&lx, a, word, len, out, out_len, NULL, NULL);
    if (unresolved)
        *unresolved = ok && lx.unresolved;
    if (!ok && err) {
        err->loc = (struct gl_loc){0, (uint32_t)lx.err_off + 1};
        snprintf(err->message, sizeof err->message, "%s", lx.err_msg);
    }
    return ok;
}

bool df_expand_word(struct gl_arena *a, const char *word, size_t len, char escape,
                    df_lookup_fn lookup, void *ctx, char **out, size_t *out_len,
                    bool *unresolved, struct df_error *err)
{
    return expand_word(a, word, len, escape, lookup, ctx, NULL, out, out_len, unresolved, err);
}

/* The pieces of a word simple_word accepts: a run of bytes copied as they are, or a
 * variable's name (`$NAME`, `${NAME}`) to look up. */
struct simple_piece {
    uint32_t off, len;
    bool var;
};
#define SIMPLE_PIECES 16

/* The bytes simple_word stops at (all others it passes at once): NUL, the quotes, `$`,
 * both escapes (which of them is the escape is the file's choice: tested there) and the
 * bytes >= 0x80. */
static const bool simple_stop[256] = {
    DF_HIGH_BYTES(1),
    [0] = 1, ['"'] = 1, ['$'] = 1, ['\''] = 1, ['\\'] = 1, ['`'] = 1,
};

/* Is word[0, len) made only of what the lexer copies as it is (printable ASCII and blanks,
 * no NUL, no byte >= 0x80: each its own rune) and of `$NAME`, `${NAME}` (NAME a letter or
 * '_', then letters, digits and '_', followed by no byte >= 0x80, which could be a letter)
 * and double quotes (around the same; a `'` inside them is copied as it is), with no
 * escape and no single quote outside double quotes, and every quote closed? Then the
 * lexer (stop_on with no words, double_quote, dollar, read_name) gives the pieces' bytes
 * and the variables' values in order, and nothing else: no error is possible, a `<` is
 * copied as it is (with no words the heredoc test copies what it reads), the quotes are
 * dropped. The pieces into p (at most SIMPLE_PIECES; more: false, the lexer does it). */
/* Skip ahead over word[i, len) while no byte is one simple_stop holds: where the byte
 * loop must go on (len, or the first such byte). With SSE2 sixteen bytes a step; without,
 * nothing skipped (the loop decides every byte). */
static inline size_t skip_simple(const char *word, size_t i, size_t len)
{
#ifdef __SSE2__
    const __m128i z = _mm_setzero_si128(), dq = _mm_set1_epi8('"'), dl = _mm_set1_epi8('$'),
                  sq = _mm_set1_epi8('\''), bs = _mm_set1_epi8('\\'), bt = _mm_set1_epi8('`');
    for (; i + 16 <= len; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(word + i));
        __m128i hit = _mm_or_si128(
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, z), _mm_cmpeq_epi8(x, dq)),
                         _mm_or_si128(_mm_cmpeq_epi8(x, dl), _mm_cmpeq_epi8(x, sq))),
            _mm_or_si128(_mm_cmpeq_epi8(x, bs), _mm_cmpeq_epi8(x, bt)));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(x, hit)); /* x: bit 7 */
        if (m)
            return i + (size_t)__builtin_ctz(m);
    }
#endif
    return i;
}

static bool simple_word(const char *word, size_t len, unsigned char esc,
                        struct simple_piece *p, size_t *np)
{
    size_t n = 0, i = 0, run = 0;
    bool dq = false;
    while (i < len) {
        i = skip_simple(word, i, len);
        if (i == len)
            break;
        unsigned char c = (unsigned char)word[i];
        if (!simple_stop[c]) {
            i++;
            continue;
        }
        if (c == '\\' || c == '`' || c == '\'') {
            if (c == esc || (c == '\'' && !dq))
                return false;
            i++; /* the other escape byte, or a `'` inside double quotes: as it is */
            continue;
        }
        if (c != '"' && c != '$') /* NUL, or >= 0x80 */
            return false;
        if (i > run) { /* the bytes before it */
            if (n == SIMPLE_PIECES)
                return false;
            p[n++] = (struct simple_piece){(uint32_t)run, (uint32_t)(i - run), false};
        }
        if (c == '"') {
            dq = !dq;
            run = ++i;
            continue;
        }
        bool curly = i + 1 < len && word[i + 1] == '{';
        size_t s = i + 1 + curly, e = s;
        if (e >= len || gl_name_class[(unsigned char)word[e]] != 1)
            return false; /* `$1`, `$@`, `$` alone, `${...`: the lexer */
        while (e < len && gl_name_class[(unsigned char)word[e]])
            e++;
        if (e < len && (unsigned char)word[e] >= 0x80)
            return false;
        if (curly) {
            if (e >= len || word[e] != '}')
                return false; /* a modifier (`${A:-b}`) or an error: the lexer */
        }
        if (n == SIMPLE_PIECES)
            return false;
        p[n++] = (struct simple_piece){(uint32_t)s, (uint32_t)(e - s), true};
        run = i = e + curly;
    }
    if (dq)
        return false; /* unterminated: the lexer's error */
    if (i > run) {
        if (n == SIMPLE_PIECES)
            return false;
        p[n++] = (struct simple_piece){(uint32_t)run, (uint32_t)(i - run), false};
    }
    *np = n;
    return true;
}

static bool expand_other(struct gl_arena *a, const char *word, size_t len, char escape,
                         df_lookup_fn lookup, void *ctx, struct gl_buf *scratch,
                         const char **out, size_t *out_len, bool *unresolved,
                         struct df_error *err) __attribute__((noinline));

bool df_expand_text(struct gl_arena *a, const char *word, size_t len, char escape,
                    df_lookup_fn lookup, void *ctx, struct gl_buf *scratch, const char **out,
                    size_t *out_len, bool *unresolved, struct df_error *err)
{
    if (df_expand_literal(a, word, len, escape)) {
        *out = word;
        *out_len = len;
        if (unresolved)
            *unresolved = false;
        return true;
    }
    return expand_other(a, word, len, escape, lookup, ctx, scratch, out, out_len, unresolved,
                        err);
}

/* df_expand_text for a word that is not literal (out of line: most words are literal). */
static bool expand_other(struct gl_arena *a, const char *word, size_t len, char escape,
                         df_lookup_fn lookup, void *ctx, struct gl_buf *scratch,
                         const char **out, size_t *out_len, bool *unresolved,
                         struct df_error *err)
{
    struct simple_piece p[SIMPLE_PIECES];
    size_t np;
    if (scratch && len < UINT32_MAX && simple_word(word, len, (unsigned char)escape, p, &np)) {
        /* what df_shlex_process builds (the same lookups, in the same order) and copies:
         * the values looked up first, then the text written once at its length (the take
         * a copy of it would be) */
        bool unset = false;
        const char *val[SIMPLE_PIECES];
        size_t vlen[SIMPLE_PIECES], total = 0;
        for (size_t i = 0; i < np; i++) {
            val[i] = p[i].var ? NULL : word + p[i].off;
            vlen[i] = p[i].var ? 0 : p[i].len;
            if (p[i].var) {
                val[i] = lookup ? lookup(ctx, word + p[i].off, p[i].len) : NULL;
                vlen[i] = val[i] ? strlen(val[i]) : 0;
                unset |= !val[i];
            }
            total += vlen[i];
        }
        char *text = gl_arena_take(a, total + 1);
        for (size_t i = 0, at = 0; i < np; at += vlen[i++])
            if (vlen[i])
                memcpy(text + at, val[i], vlen[i]);
        text[total] = 0;
        *out = text;
        *out_len = total;
        if (unresolved)
            *unresolved = unset;
        return true;
    }
    char *text;
    bool ok = expand_word(a, word, len, escape, lookup, ctx, scratch, &text, out_len,
                          unresolved, err);
    *out = text;
    return ok;
}
