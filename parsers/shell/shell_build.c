/* SPDX-License-Identifier: Apache-2.0 */
/* shell_build.c: building one word of the shell lexer (bytes with their origin, field
 * splitting, opaque parts) and skipping nested constructs (see shell_internal.h). */
#include "parsers/shell/shell_internal.h"

#include "linter/core/limits.h"

#include <stdlib.h>
#include <string.h>

static bool is_ifs(int c) { return c == ' ' || c == '\t' || c == '\n'; }

/* ---- nested constructs, skipped iteratively ---- */

/* Here-documents opened inside a construct (`$(cat <<EOF ...)`): their bodies start at the
 * next newline and are skipped whole, so a quote or a parenthesis in a body is text. */
#define HD_PENDING 8
#define HD_DELIM 256
struct hd_pending {
    size_t n;
    struct {
        char delim[HD_DELIM];
        size_t len;
        bool strip_tabs; /* <<- */
        bool quoted;     /* (a quote or an escape in the word) */
    } d[HD_PENDING];
};

static bool hd_word_end(char c) { return strchr(" \t\n;|&()<>", c) != NULL; }

/* `<<` at i (not `<<<`): record its delimiter (quotes removed); the offset after it. */
static size_t hd_open(const struct sh_lexer *lx, size_t i, struct hd_pending *hd)
{
    const char *s = lx->s;
    size_t len = lx->len, k = i + 2;
    bool strip = k < len && s[k] == '-';
    k += strip;
    while (k < len && (s[k] == ' ' || s[k] == '\t'))
        k++;
    char word[HD_DELIM];
    size_t n = 0;
    char quote = 0;
    bool quoted = false;
    for (; k < len && (quote || !hd_word_end(s[k])); k++) {
        char c = s[k];
        if (quote ? c == quote : (c == '\'' || c == '"')) {
            quote = quote ? 0 : c;
            quoted = true;
            continue;
        }
        if (!quote && c == lx->esc && k + 1 < len) {
            c = s[++k];
            quoted = true;
        }
        if (n + 1 < sizeof word)
            word[n++] = c;
    }
    if (n && n + 1 < sizeof word && hd->n < HD_PENDING) {
        memcpy(hd->d[hd->n].delim, word, n);
        hd->d[hd->n].len = n;
        hd->d[hd->n].strip_tabs = strip;
        hd->d[hd->n].quoted = quoted;
        hd->n++;
    }
    return k;
}

/* The bodies of the pending here-documents, from `i` (the start of the line after the
 * one that opened them); the offset after the last delimiter line (len if none ends). */
static size_t hd_skip_bodies(const struct sh_lexer *lx, size_t i, struct hd_pending *hd)
{
    size_t len = lx->len;
    for (size_t h = 0; h < hd->n && i < len; h++)
        while (i < len && !shl_heredoc_line(lx, i, hd->d[h].delim, hd->d[h].len,
                                            hd->d[h].strip_tabs, hd->d[h].quoted, &i))
            ;
    hd->n = 0;
    return i;
}

/* The stack of openers of shl_skip_construct: in `fixed` (on its stack) while it fits, as
 * nearly every construct's does, then on the heap (shl_grow). */
#define SKIP_FIXED 64
struct skip_stack {
    char *data;
    size_t len, cap;
    char fixed[SKIP_FIXED];
};

static void skip_push(struct skip_stack *st, char c)
{
    st->data = shl_grow(st->data, st->len, &st->cap, 1, st->fixed, SKIP_FIXED);
    st->data[st->len++] = c;
}

/* Is the n-byte word w at s[i] (the byte before is no word byte: see starts_command), ended
 * by a blank, an operator byte or the end? */
static bool word_at(const char *s, size_t len, size_t i, const char *w, size_t n)
{
    return i + n <= len && !memcmp(s + i, w, n) &&
           (i + n == len || strchr(" \t\n;&|()<>", s[i + n]));
}

/* Inside a construct whose text starts at `from`: does a command start at i (only blanks
 * between it and `from`, or one of `(;|&` or a newline, perhaps through reserved words
 * that a command follows: `then case`, `do { case`; for an `esac`, `in esac` too)? So
 * `case` and `esac` there are reserved words, not an argument (`echo case x in a)`). The
 * walk back stops at the first other word: each byte is walked for one such word at most. */
static bool starts_command(const char *s, size_t from, size_t i, bool esac)
{
    for (;;) {
        while (i > from && (s[i - 1] == ' ' || s[i - 1] == '\t'))
            i--;
        if (i == from || strchr("(;|&\n", s[i - 1]))
            return true;
        size_t w = i;
        while (w > from && !strchr(" \t\n;&|()<>", s[w - 1]))
            w--;
        size_t n = i - w;
        const char *t = s + w;
#define IS(kw) (n == sizeof(kw) - 1 && !memcmp(t, kw, n))
        if (esac && IS("in"))
            return true; /* case WORD in esac */
        if (!(IS("then") || IS("do") || IS("else") || IS("{") || IS("!") || IS("time")))
            return false;
#undef IS
        i = w;
    }
}

bool shl_skip_construct(const struct sh_lexer *lx, size_t i, char open, size_t *end)
{
    size_t from = i;
    const char *s = lx->s;
    size_t len = lx->len;
    char esc = lx->esc;
    struct skip_stack st; /* stack of openers; 'A' for $(( arithmetic )) */
    st.data = NULL;
    st.cap = st.len = 0;
    /* 'Q': a ${ inside double quotes, whose single quotes are read as bash or dash reads
       them (shl_brace_dq_quote_end) */
    skip_push(&st, open == 'Q' ? '{' : open);
    size_t ndq = open == '"' || open == 'Q'; /* '"' entries on the stack (and that one) */
    size_t narith = 0;        /* 'A' entries on the stack: no here-documents there */
    struct hd_pending hd;     /* (not cleared: hd_open writes an entry before counting it) */
    hd.n = 0;
    bool ok = false;
    while (i < len) {
        char top = st.data[st.len - 1];
        char c = s[i];
        bool dollar_open = c == '$' && i + 1 < len && (s[i + 1] == '(' || s[i + 1] == '{');
        /* 'c': inside a `case ... esac` of a command substitution, whose patterns' `)`
           close nothing (`$(case $n in 1) echo one ;; esac)`) */
        bool command_context = (top == '(' || top == '`' || top == 'c') && !narith;
        bool commands = top == '(' || top == 'c';
        if (c == esc) {
            i += 2;
            continue;
        }
        if (top == '`') {
            /* an old-style substitution ends at the first backquote not escaped: quotes,
               `$(` and comments inside it do not count (bash: `# "quoted"` closes) */
            st.len -= c == '`';
            i++;
            if (st.len == 0) {
                *end = i;
                ok = true;
                break;
            }
            continue;
        }
        if (dollar_open && s[i + 1] == '(' && i + 2 < len && s[i + 2] == '(') {
            skip_push(&st, 'A');
            narith++;
            i += 3;
            continue;
        }
        if (dollar_open) {
            skip_push(&st, s[i + 1]);
            i += 2;
            continue;
        }
        if (top == 'A') {
            if (c == ')' && i + 1 < len && s[i + 1] == ')') {
                st.len--;
                narith--;
                i += 2;
            } else {
                if (c == '(')
                    skip_push(&st, '(');
                i++;
            }
            if (st.len == 0) {
                *end = i;
                ok = true;
                break;
            }
            continue;
        }
        if (command_context && c == '<' && i + 2 < len && s[i + 1] == '<') {
            /* `<<<` is a here-string (its word is read as any other): step over all three
             * bytes, or its last two would open a here-document */
            i = s[i + 2] == '<' ? i + 3 : hd_open(lx, i, &hd);
            continue;
        }
        if (command_context && c == '\n' && hd.n) {
            i = hd_skip_bodies(lx, i + 1, &hd);
            continue;
        }
        if (top == '"') {
            if (c == '"') {
                st.len--;
                ndq--;
            } else if (c == '`' && esc != '`') {
                skip_push(&st, '`');
            }
            i++;
        } else if (c == '\'' && top == '{' && ndq) {
            size_t q = shl_brace_dq_quote_end(s, i, len); /* (bash's quote, or a byte) */
            i = q ? q + 1 : i + 1;
        } else if (c == '\'') {
            const char *q = memchr(s + i + 1, '\'', len - i - 1);
            if (!q)
                break;
            i = (size_t)(q - s) + 1;
        } else if (c == '"') {
            skip_push(&st, '"');
            ndq++;
            i++;
        } else if (c == '`' && esc != '`') {
            if (top == '`')
                st.len--;
            else
                skip_push(&st, '`');
            i++;
        } else if (commands && c == '(') {
            skip_push(&st, '(');
            i++;
        } else if ((top == '(' && c == ')') || (top == '{' && c == '}')) {
            st.len--;
            i++;
        } else if (commands && c == 'c' && word_at(s, len, i, "case", 4) &&
                   starts_command(s, from, i, false)) {
            skip_push(&st, 'c');
            i += 4;
        } else if (top == 'c' && c == 'e' && word_at(s, len, i, "esac", 4) &&
                   starts_command(s, from, i, true)) {
            st.len--;
            i += 4;
        } else if (commands && c == '#' && (i == 0 || strchr(" \t\n;|&(", s[i - 1]))) {
            const char *nl = memchr(s + i, '\n', len - i);
            i = nl ? (size_t)(nl - s) : len;
        } else {
            i++;
        }
        if (st.len == 0) {
            *end = i;
            ok = true;
            break;
        }
    }
    shl_release(st.data, st.fixed, st.cap, 1);
    return ok;
}

/* ---- building a word ---- */

static void reset_field(struct shl_wbuild *wb, size_t src)
{
    wb->text.len = 0;
    wb->nspans = 0;
    wb->src = src;
    wb->content = wb->opaque = wb->quoted = wb->may_split = false;
}

void shl_wb_begin(struct sh_lexer *lx, size_t src, bool nosplit)
{
    reset_field(&lx->wb, src);
    lx->wb.nosplit = nosplit;
    lx->wb.discard = 0;
    lx->nfields = 0;
}

/* Would `need` more bytes of the lexer's heap scratch take the arena past parse-memory?
 * Then the limit's error, at src. The builder looks at the limit between tokens, and one
 * token can grow the scratch without bound: one word of quoted pieces (`a"b"a"b"...`,
 * 6.4 MB) grew 2.5 million spans, 32 bytes each (219 MB); one `$a` whose value splits
 * into 500,000 fields as many fields (1 MB: 126 MB); a word's text, with values
 * substituted, up to the expansion budget (4 bytes a byte of the text). */
static __attribute__((noinline, cold)) bool scratch_over(struct sh_lexer *lx, size_t need,
                                                          size_t src)
{
    const struct gl_arena *a = lx->a;
    size_t used = a->total + lx->builder_scratch;
    if (!a->limit || (used <= a->limit && need <= a->limit - used))
        return false;
    if (!lx->stop) {
        char msg[256];
        shl_error(lx, src, gl_arena_strdup(lx->a, gl_limit_message(GL_LIMIT_PARSE_MEMORY, msg,
                                                                     sizeof msg)));
    }
    return true;
}

void shl_scratch_grown(struct sh_lexer *lx)
{
    const struct shl_wbuild *wb = &lx->wb;
    lx->scratch = (wb->text.data != lx->fixed->text ? wb->text.cap : 0) +
                  (wb->capspans > SHL_FIXED_SPANS ? wb->capspans * sizeof *wb->spans : 0) +
                  (lx->capfields > SHL_FIXED_FIELDS
                       ? lx->capfields * (sizeof *lx->fields + sizeof *lx->finfo)
                       : 0);
}

/* scratch_over for the word's spans grown once more: counted twice, with the word's text
 * (they are copied to the arena when the field ends). */
static bool spans_over(struct sh_lexer *lx, size_t src)
{
    size_t cap = 2 * lx->wb.capspans;
    return scratch_over(lx, 2 * cap * sizeof *lx->wb.spans + lx->wb.text.cap, src);
}

/* Append bytes taken from input offset src: literally (byte k from src+k) or all from
 * the construct at src. */
static void wb_add(struct sh_lexer *lx, const char *p, size_t n, size_t src, bool literal,
                   bool opaque)
{
    struct shl_wbuild *wb = &lx->wb;
    if (wb->discard || n == 0)
        return;
    size_t out = wb->text.len;
    struct sh_span *last = wb->nspans ? &wb->spans[wb->nspans - 1] : NULL;
    bool extends = last && last->literal == literal && last->opaque == opaque &&
                   last->out + last->len == out &&
                   (literal ? last->src + last->len == src : last->src == src);
    if (!extends && wb->nspans == wb->capspans && wb->capspans >= SHL_FIXED_SPANS &&
        spans_over(lx, src))
        return; /* (the word ends here: its text and spans stay in step) */
    if (out + n + 1 <= wb->text.cap) { /* gl_buf_add's work without its two calls */
        memcpy(wb->text.data + out, p, n);
        wb->text.len = out + n;
        wb->text.data[out + n] = 0;
    } else {
        /* (the text grows, doubled on the heap as gl_buf_reserve does, and is copied to
           the arena when the field ends: a word that substituted a 7 MB value three times
           took 66 MB) */
        size_t cap = wb->text.cap; /* (SHL_FIXED_TEXT at least, gl_buf's first room) */
        while (cap < out + n + 1)
            cap *= 2;
        if (scratch_over(lx, cap + out + n, src))
            return;
        bool fixed = wb->text.data == lx->fixed->text;
        gl_heap_hold(cap - (fixed ? 0 : wb->text.cap)); /* (shl_free drops it) */
        if (fixed) { /* the fixed room is full: to the heap */
            struct gl_buf heap;
            gl_buf_init(&heap);
            gl_buf_reserve(&heap, cap - 1); /* (cap: SHL_FIXED_TEXT doubled, as gl_buf's) */
            gl_buf_add(&heap, wb->text.data, out);
            wb->text = heap;
        } else {
            gl_buf_reserve(&wb->text, cap - 1 - out);
        }
        gl_buf_add(&wb->text, p, n);
        shl_scratch_grown(lx);
    }
    if (extends) {
        last->len += n;
        return;
    }
    if (wb->nspans == wb->capspans) {
        wb->spans = shl_grow(wb->spans, wb->nspans, &wb->capspans, sizeof *wb->spans,
                             lx->fixed->spans, SHL_FIXED_SPANS);
        shl_scratch_grown(lx);
    }
    wb->spans[wb->nspans++] = (struct sh_span){out, src, n, literal, opaque};
}

void shl_wb_add(struct sh_lexer *lx, const char *p, size_t n, size_t src, bool literal)
{
    wb_add(lx, p, n, src, literal, false);
}

void shl_wb_lit(struct sh_lexer *lx, size_t src)
{
    shl_wb_add(lx, lx->s + src, 1, src, true);
    if (!lx->wb.discard)
        lx->wb.content = true;
}

/* The input bytes [from, to) as they are, making the word opaque (an expansion gpulint
 * cannot resolve); `unquoted` when field splitting would apply to it. */
void shl_wb_opaque_raw(struct sh_lexer *lx, size_t from, size_t to, bool unquoted)
{
    if (lx->wb.discard)
        return;
    wb_add(lx, lx->s + from, to - from, from, true, true);
    lx->wb.content = lx->wb.opaque = true;
    if (unquoted && !lx->wb.nosplit)
        lx->wb.may_split = true;
}

/* Push a field of text[0, tlen) with `nspans` spans (copied: both may be scratch). */
static void push_field_of(struct sh_lexer *lx, const char *src_text, size_t tlen,
                          const struct sh_span *src_spans, size_t nspans)
{
    struct shl_wbuild *wb = &lx->wb;
    if (lx->nfields == lx->capfields) {
        /* (on the heap: the fields, then the builder's copy of them, doubled too) */
        size_t each = sizeof *lx->fields + sizeof *lx->finfo;
        if (lx->capfields >= SHL_FIXED_FIELDS &&
            scratch_over(lx, 3 * 2 * lx->capfields * each, wb->src))
            return; /* (the word ends here) */
        size_t cap = lx->capfields;
        lx->fields = shl_grow(lx->fields, lx->nfields, &cap, sizeof *lx->fields,
                              lx->fixed->fields, SHL_FIXED_FIELDS);
        lx->finfo = shl_grow(lx->finfo, lx->nfields, &lx->capfields, sizeof *lx->finfo,
                             lx->fixed->finfo, SHL_FIXED_FIELDS);
        shl_scratch_grown(lx);
    }
    struct gl_word *w = &lx->fields[lx->nfields];
    struct sh_word_info *in = &lx->finfo[lx->nfields];
    lx->nfields++;
    /* one block: the spans (a multiple of 16 bytes), then the text; no clearing, both
     * are written whole (the arena counts the same bytes as two allocations would) */
    size_t nsp = nspans * sizeof(struct sh_span);
    size_t sp = (nsp + 15) & ~(size_t)15;
    char *block = gl_arena_take(lx->a, sp + tlen + 1);
    struct sh_span *spans = NULL;
    if (nsp) {
        spans = (struct sh_span *)(void *)block;
        if (nspans == 1) /* a plain word's one span: no memcpy call */
            spans[0] = src_spans[0];
        else
            memcpy(spans, src_spans, nsp);
    }
    char *text = block + sp;
    if (tlen)
        memcpy(text, src_text, tlen);
    text[tlen] = 0;
    w->text = text;
    w->len = gl_word_len(text); /* strlen's: the bytes may hold a NUL (a `$'\0'`, ...) */
    w->loc = shl_loc(lx, wb->src);
    w->opaque = wb->opaque;
    *in = (struct sh_word_info){.len = tlen, .src = wb->src, .spans = spans,
                                .nspans = nspans, .quoted = wb->quoted,
                                .may_split = wb->may_split};
}

static void push_field(struct sh_lexer *lx)
{
    push_field_of(lx, lx->wb.text.data, lx->wb.text.len, lx->wb.spans, lx->wb.nspans);
}

void shl_wb_plain(struct sh_lexer *lx, size_t from, size_t to, bool nosplit)
{
    shl_wb_begin(lx, from, nosplit);
    lx->wb.content = true;
    struct sh_span one = {0, from, to - from, true, false};
    push_field_of(lx, lx->s + from, to - from, &one, 1);
}

/* A field separator produced by field splitting; the next field starts at `next`. */
void shl_wb_break(struct sh_lexer *lx, size_t next)
{
    if (lx->wb.discard)
        return;
    if (lx->wb.content)
        push_field(lx);
    reset_field(&lx->wb, next);
}

/* End the word: push its last field, mark the fields of a split word. */
void shl_wb_finish(struct sh_lexer *lx)
{
    if (lx->wb.content)
        push_field(lx);
    if (lx->nfields > 1)
        for (size_t k = 0; k < lx->nfields; k++)
            lx->finfo[k].from_split = true;
}

/* A variable's value, substituted for the construct at input [from, to). */
void shl_wb_value(struct sh_lexer *lx, const char *v, size_t n, size_t from, size_t to,
                     bool split)
{
    if (lx->wb.discard)
        return;
    if (n > lx->budget) { /* expansion bomb: stop substituting */
        shl_wb_opaque_raw(lx, from, to, split);
        return;
    }
    lx->budget -= n;
    if (!split || lx->wb.nosplit) {
        shl_wb_add(lx, v, n, from, false);
        if (n)
            lx->wb.content = true;
        return;
    }
    size_t k = 0;
    while (k < n) {
        if (is_ifs((unsigned char)v[k])) {
            shl_wb_break(lx, from);
            k++;
            continue;
        }
        size_t run = k;
        while (run < n && !is_ifs((unsigned char)v[run]))
            run++;
        shl_wb_add(lx, v + k, run - k, from, false);
        lx->wb.content = true;
        k = run;
    }
}

