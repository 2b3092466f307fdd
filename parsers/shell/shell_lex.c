/* SPDX-License-Identifier: Apache-2.0 */
/* shell_lex.c: the shell lexer: one word at a time, with quote removal, expansions,
 * field splitting and a per-byte record of where each byte came from (see
 * shell_internal.h). */
#include "parsers/shell/shell_internal.h"

#include <stdlib.h>
#include <string.h>

/* Where a word's parts are read. */
enum lex_mode {
    M_WORD,     /* an unquoted word: ends at a blank, newline or operator char */
    M_DQ,       /* inside "...": ends at '"' */
    M_BRACE,    /* the word of an unquoted ${x:-word}: ends at '}' */
    M_BRACE_DQ, /* the word of a ${x:-word} inside "...": ends at '}' */
};

static bool mode_quoted(enum lex_mode m) { return m == M_DQ || m == M_BRACE_DQ; }
static bool is_name_start(int c) { return c >= 0 && c < 256 && gl_name_class[c] == 1; }
static bool is_name_char(int c) { return c >= 0 && c < 256 && gl_name_class[c] != 0; }
static bool is_ifs(int c) { return c == ' ' || c == '\t' || c == '\n'; }

/* ---- setup and positions ---- */

void shl_free(struct sh_lexer *lx)
{
    if (lx->wb.text.data != lx->fixed->text) { /* only long words with quotes or expansions */
        gl_heap_drop(lx->wb.text.cap);
        gl_buf_free(&lx->wb.text);
    }
    shl_release(lx->wb.spans, lx->fixed->spans, lx->wb.capspans, sizeof *lx->wb.spans);
    shl_release(lx->fields, lx->fixed->fields, lx->capfields, sizeof *lx->fields);
    shl_release(lx->finfo, lx->fixed->finfo, lx->capfields, sizeof *lx->finfo);
}

size_t shl_skip_cont(const struct sh_lexer *lx, size_t i)
{
    const char *s = lx->s;
    for (;;) {
        if (i + 1 < lx->len && s[i] == lx->esc && s[i + 1] == '\n')
            i += 2;
        else if (i + 2 < lx->len && s[i] == lx->esc && s[i + 1] == '\r' && s[i + 2] == '\n')
            i += 3;
        else
            return i;
    }
}

/* A template expression `{{ ... }}` (Jinja, Go templates, Ansible) or a Jinja statement
 * `{% ... %}` (`{% if x %}-B {{ x }} {% endif %}`: the words between may be there or not)
 * that closes on the same line: the offset after it, else 0. */
static size_t template_end(const struct sh_lexer *lx, size_t i)
{
    const char *s = lx->s;
    if (i + 3 >= lx->len || s[i] != '{' || (s[i + 1] != '{' && s[i + 1] != '%'))
        return 0;
    char close = s[i + 1] == '{' ? '}' : '%';
    for (size_t k = i + 2; k + 1 < lx->len && k - i <= SHL_PLACEHOLDER_MAX; k++) {
        if (s[k] == close && s[k + 1] == '}')
            return k + 2;
        if (!s[k] || s[k] == '\n')
            return 0;
    }
    return 0;
}

/* A whole word of three or more dots, or of `…` (U+2026), at i: the offset after it, else
 * 0. Documentation writes it for the arguments it leaves out (`docker run --gpus all ...`);
 * no command takes it as an argument. The callers ask only where the lexer starts a word
 * (a token's start, shl_word): dots inside a word (`a...`, `a\ ...`, `a\<newline>...`) are
 * text, and lex_parts, which reads the rest of a word, never asks. */
static size_t ellipsis_end(const struct sh_lexer *lx, size_t i)
{
    const unsigned char *s = (const unsigned char *)lx->s;
    size_t k = i;
    if (s[k] == '.') {
        while (k < lx->len && s[k] == '.')
            k++;
        if (k - i < 3)
            return 0;
    } else {
        while (k + 2 < lx->len && s[k] == 0xE2 && s[k + 1] == 0x80 && s[k + 2] == 0xA6)
            k += 3;
        if (k == i)
            return 0;
    }
    return shl_word_end_at(lx, k) ? k : 0;
}

size_t shl_placeholder_end(const struct sh_lexer *lx, size_t i)
{
    const char *s = lx->s;
    if (i < lx->len && (s[i] == '.' || (unsigned char)s[i] == 0xE2))
        return lx->opts && lx->opts->placeholders ? ellipsis_end(lx, i) : 0;
    if (i >= lx->len || (s[i] != '{' && s[i] != '<')) /* what every placeholder starts with */
        return 0;
    size_t tmpl = template_end(lx, i);
    if (tmpl)
        return tmpl;
    if (lx->opts && lx->opts->python_braces && s[i] == '{') {
        for (size_t k = i + 1, depth = 1; k < lx->len && k - i <= SHL_PLACEHOLDER_MAX; k++) {
            if (!s[k] || s[k] == '\n')
                return 0;
            depth += s[k] == '{';
            if (s[k] == '}' && !--depth)
                return k > i + 1 ? k + 1 : 0;
        }
        return 0;
    }
    return lx->opts && lx->opts->placeholders ? shl_angle_placeholder_end(lx, i) : 0;
}

size_t shl_angle_placeholder_end(const struct sh_lexer *lx, size_t i)
{
    const char *s = lx->s;
    /* `<name>`, `<your path>`, `</on/your/host>`, `<./dir>`, `<~/models>`, and prose
     * with one aside in parentheses after a space: `<Path to checkpoint (e.g /345m)>` */
    if (i + 2 >= lx->len || s[i] != '<' ||
        !((s[i + 1] >= 'a' && s[i + 1] <= 'z') || (s[i + 1] >= 'A' && s[i + 1] <= 'Z') ||
          s[i + 1] == '/' || s[i + 1] == '.' || s[i + 1] == '~'))
        return 0;
    bool aside = false; /* inside the `( ... )` */
    for (size_t k = i + 2; k < lx->len && k - i <= SHL_PLACEHOLDER_MAX; k++) {
        if (s[k] == '(' && !aside && s[k - 1] == ' ') {
            aside = true;
            continue;
        }
        if (s[k] == ')' && aside) {
            aside = false;
            continue;
        }
        if (s[k] == '>' && aside)
            return 0;
        if (s[k] == '>') { /* `<in.txt >out.txt` and `<in 2>err` are two redirections */
            size_t d = k;
            while (d > i + 1 && s[d - 1] >= '0' && s[d - 1] <= '9')
                d--;
            bool spaced = s[d - 1] == ' ' || s[d - 1] == '\t';
            bool path = s[i + 1] == '/' || s[i + 1] == '.' || s[i + 1] == '~';
            /* a path placeholder holds no space: `</dev/null >x` is two redirections */
            return spaced || (path && memchr(s + i, ' ', k - i)) ? 0 : k + 1;
        }
        if (!s[k] || s[k] == '\n' || s[k] == '<' || strchr("'\"`$;&|()", s[k]))
            return 0;
    }
    return 0;
}

/* ---- variables ---- */

enum sh_var_state shl_var_state(struct sh_lexer *lx, const char *name, size_t n,
                                const char **val, size_t *vlen)
{
    enum sh_var_state st = sh_vars_get(lx->vars, name, n, val, vlen);
    if (st != SH_VAR_UNSET)
        return st;
    if (lx->opts && lx->opts->lookup) {
        const char *r = lx->opts->lookup(lx->opts->ctx, name, n);
        if (r == sh_value_opaque)
            return SH_VAR_OPAQUE;
        if (r) {
            *val = r;
            *vlen = strnlen(r, lx->budget + 1); /* longer than the budget: opaque */
            return SH_VAR_KNOWN;
        }
    }
    /* (a variable the script unset stays unset after a `source`) */
    return lx->vars && lx->vars->sourced && !sh_vars_named(lx->vars, name, n) ? SH_VAR_OPAQUE
                                                                              : SH_VAR_UNSET;
}

/* ---- the parts of a word ---- */

static void lex_parts(struct sh_lexer *lx, enum lex_mode mode, int depth);

static void lex_single_quote(struct sh_lexer *lx)
{
    size_t open = lx->i;
    const char *q = memchr(lx->s + open + 1, '\'', lx->len - open - 1);
    size_t close = q ? (size_t)(q - lx->s) : lx->len;
    shl_wb_add(lx, lx->s + open + 1, close - open - 1, open + 1, true);
    if (!lx->wb.discard)
        lx->wb.content = lx->wb.quoted = true;
    if (!q) {
        lx->wb.opaque = true;
        shl_error(lx, open, "expected a closing ' for this quote");
        return;
    }
    lx->i = close + 1;
}

static void lex_double_quote(struct sh_lexer *lx, int depth)
{
    size_t open = lx->i;
    lx->i++;
    if (!lx->wb.discard)
        lx->wb.content = lx->wb.quoted = true;
    lex_parts(lx, M_DQ, depth + 1);
    if (shl_cur(lx) != '"') {
        if (!lx->stop) {
            shl_wb_opaque_raw(lx, lx->i, lx->len, false);
            shl_error(lx, open, "expected a closing \" for this quote");
        }
        return;
    }
    lx->i++;
}

/* A command substitution's body [from, to): one for sh_opts.substs, unless it is an
 * arithmetic `$((...))` (its body starts with `(` and ends with `)`). */
static __attribute__((noinline, cold)) void note_subst(struct sh_lexer *lx, size_t from,
                                                      size_t to)
{
    if (lx->s[from] == '(' && to > from && lx->s[to - 1] == ')')
        return;
    struct sh_substs *l = lx->opts->substs;
    *GL_APPEND(lx->a, l->items, l->n, l->cap) = (struct sh_subst){from, to};
}

/* A construct [from, ...) whose end is found by shl_skip_construct, made opaque. */
static void lex_skipped(struct sh_lexer *lx, size_t from, size_t inner, char open,
                        bool unquoted, const char *message)
{
    size_t end;
    if (!shl_skip_construct(lx, inner, open, &end)) {
        shl_wb_opaque_raw(lx, from, lx->len, false);
        shl_error(lx, from, message);
        return;
    }
    shl_wb_opaque_raw(lx, from, end, unquoted);
    lx->i = end;
    if (lx->opts && lx->opts->substs && (open == '`' || (open == '(' && lx->s[from] == '$')) &&
        end > inner)
        note_subst(lx, inner, end - 1);
}

/* One C escape of $'...' at k (the backslash); returns the offset after it. */
static size_t ansi_c_escape(struct sh_lexer *lx, size_t k)
{
    const char *s = lx->s;
    static const char from[] = "abefnrtv\\'\"?E";
    static const char to[] = "\a\b\x1b\f\n\r\t\v\\'\"?\x1b";
    if (k + 1 >= lx->len) {
        shl_wb_lit(lx, k);
        return k + 1;
    }
    const char *f = strchr(from, s[k + 1]);
    unsigned char byte;
    size_t next;
    if (f && s[k + 1]) {
        byte = (unsigned char)to[f - from];
        next = k + 2;
    } else if (s[k + 1] == 'x' && k + 2 < lx->len && strchr("0123456789abcdefABCDEF", s[k + 2]) && s[k + 2]) {
        char hex[3] = {s[k + 2], 0, 0};
        next = k + 3;
        if (next < lx->len && s[next] && strchr("0123456789abcdefABCDEF", s[next]))
            hex[1] = s[next++];
        byte = (unsigned char)strtoul(hex, NULL, 16);
    } else if (s[k + 1] >= '0' && s[k + 1] <= '7') {
        unsigned v = 0;
        next = k + 1;
        while (next < lx->len && next < k + 4 && s[next] >= '0' && s[next] <= '7')
            v = v * 8 + (unsigned)(s[next++] - '0');
        byte = (unsigned char)v;
    } else { /* unknown escape: kept as written */
        shl_wb_lit(lx, k);
        shl_wb_lit(lx, k + 1);
        return k + 2;
    }
    shl_wb_add(lx, (const char *)&byte, 1, k, false);
    return next;
}

static void lex_ansi_c(struct sh_lexer *lx, size_t dollar, size_t quote)
{
    size_t k = quote + 1;
    if (!lx->wb.discard)
        lx->wb.content = lx->wb.quoted = true;
    while (k < lx->len && lx->s[k] != '\'') {
        if (lx->s[k] == '\\')
            k = ansi_c_escape(lx, k);
        else
            shl_wb_lit(lx, k++);
    }
    if (k >= lx->len) {
        lx->wb.opaque = true;
        shl_error(lx, dollar, "expected a closing ' for this $'");
        return;
    }
    lx->i = k + 1;
}

/* ${...} at `dollar` (the '{' at brace). */
static void lex_brace(struct sh_lexer *lx, size_t dollar, size_t brace, enum lex_mode mode,
                      int depth)
{
    const char *s = lx->s;
    bool quoted = mode_quoted(mode);
    bool split = !quoted;
    size_t k = brace + 1, name = k;
    bool positional = false;
    if (depth >= SHL_MAX_DEPTH) {
        lex_skipped(lx, dollar, brace + 1, quoted ? 'Q' : '{', split,
                    "expected } closing this ${");
        return;
    }
    if (k < lx->len && is_name_start((unsigned char)s[k])) {
        while (k < lx->len && is_name_char((unsigned char)s[k]))
            k++;
    } else if (k < lx->len && s[k] >= '0' && s[k] <= '9') {
        while (k < lx->len && s[k] >= '0' && s[k] <= '9')
            k++;
        positional = true;
    }
    size_t name_len = k - name;
    char op = 0;
    bool colon = false;
    if (name_len && k < lx->len && s[k] == ':' && k + 1 < lx->len && strchr("-=+?", s[k + 1]) && s[k + 1]) {
        colon = true;
        op = s[k + 1];
        k += 2;
    } else if (name_len && k < lx->len && s[k] && strchr("-=+?", s[k])) {
        op = s[k];
        k += 1;
    } else if (!(name_len && k < lx->len && s[k] == '}')) {
        /* ${#x} ${x%...} ${a[@]} ${!x} ${@} ...: not evaluated */
        lex_skipped(lx, dollar, brace + 1, quoted ? 'Q' : '{', split,
                    "expected } closing this ${");
        return;
    }
    const char *val = NULL;
    size_t vlen = 0;
    enum sh_var_state st = positional ? SH_VAR_UNSET : shl_var_state(lx, s + name, name_len, &val, &vlen);
    if (!op) { /* ${x} */
        lx->i = k + 1;
        if (st == SH_VAR_KNOWN)
            shl_wb_value(lx, val, vlen, dollar, k + 1, split);
        else
            shl_wb_opaque_raw(lx, dollar, k + 1, split);
        return;
    }
    bool nonnull = st == SH_VAR_KNOWN && vlen > 0;
    bool set = st != SH_VAR_UNSET;
    bool use_word = (op == '+') ? (colon ? nonnull : set) : (colon ? !nonnull : !set);
    bool opaque = st == SH_VAR_OPAQUE || (op == '?' && use_word);
    if (opaque)
        use_word = false;
    lx->i = k;
    size_t mark = lx->wb.text.len, fields_before = lx->nfields;
    bool was_opaque = lx->wb.opaque;
    if (use_word) {
        lx->wb.opaque = false;
        lex_parts(lx, quoted ? M_BRACE_DQ : M_BRACE, depth + 1);
    } else {
        lx->wb.discard++;
        lex_parts(lx, quoted ? M_BRACE_DQ : M_BRACE, depth + 1);
        lx->wb.discard--;
    }
    if (lx->stop)
        return;
    if (shl_cur(lx) != '}') {
        shl_error(lx, dollar, "expected } closing this ${");
        return;
    }
    lx->i++;
    if (use_word) {
        bool word_opaque = lx->wb.opaque;
        lx->wb.opaque |= was_opaque;
        if (op == '=' && lx->track && !lx->wb.discard && !positional) {
            bool exact = !word_opaque && lx->nfields == fields_before;
            sh_vars_assign_literal(lx->vars, s + name, name_len, lx->wb.text.data + mark,
                                   lx->wb.text.len - mark, exact, lx->assign_certain);
        }
    } else if (opaque) {
        shl_wb_opaque_raw(lx, dollar, lx->i, split);
    } else if (op != '+') {
        shl_wb_value(lx, val, vlen, dollar, lx->i, split);
    }
}

/* A '$' at lx->i. */
static void lex_dollar(struct sh_lexer *lx, enum lex_mode mode, int depth)
{
    const char *s = lx->s;
    size_t dollar = lx->i;
    size_t j = shl_skip_cont(lx, dollar + 1);
    int n = j < lx->len ? (unsigned char)s[j] : -1;
    bool quoted = mode_quoted(mode);
    if (n == '(') {
        size_t k = shl_skip_cont(lx, j + 1);
        bool arith = k < lx->len && s[k] == '(';
        lex_skipped(lx, dollar, j + 1, '(', !quoted,
                    arith ? "expected )) closing this $((" : "expected ) closing this $(");
    } else if (n == '{' && template_end(lx, j)) {
        /* a GitHub Actions expression `${{ ... }}`, substituted as text before the shell
           runs (a `${` would close at its first `}`, leaving the second one literal) */
        lx->i = template_end(lx, j);
        shl_wb_opaque_raw(lx, dollar, lx->i, !quoted);
    } else if (n == '{') {
        lex_brace(lx, dollar, j, mode, depth);
    } else if (n == '\'' && !quoted) {
        lex_ansi_c(lx, dollar, j);
    } else if (n == '"' && !quoted) {
        lx->i = j;
        lex_double_quote(lx, depth);
    } else if (n >= 0 && is_name_start(n)) {
        size_t k = j;
        while (k < lx->len && is_name_char((unsigned char)s[k]))
            k++;
        const char *val = NULL;
        size_t vlen = 0;
        lx->i = k;
        if (shl_var_state(lx, s + j, k - j, &val, &vlen) == SH_VAR_KNOWN)
            shl_wb_value(lx, val, vlen, dollar, k, !quoted);
        else
            shl_wb_opaque_raw(lx, dollar, k, !quoted);
    } else if (n >= 0 && ((n >= '0' && n <= '9') || strchr("@*#?-$!", n))) {
        lx->i = j + 1;
        shl_wb_opaque_raw(lx, dollar, j + 1, !quoted);
    } else { /* a lone '$' is literal */
        shl_wb_lit(lx, dollar);
        lx->i = dollar + 1;
    }
}

/* The escape character at lx->i (not followed by a newline: shl_cur removed those). */
static void lex_escape(struct sh_lexer *lx, enum lex_mode mode)
{
    size_t at = lx->i;
    if (at + 1 >= lx->len) { /* a trailing escape is kept */
        shl_wb_lit(lx, at);
        lx->i++;
        return;
    }
    char next = lx->s[at + 1];
    bool escapable = !mode_quoted(mode) || next == '$' || next == '"' || next == lx->esc ||
                     next == '`' || (mode == M_BRACE_DQ && next == '}');
    if (!escapable) {
        shl_wb_lit(lx, at);
        lx->i++;
        return;
    }
    shl_wb_lit(lx, at + 1);
    if (!lx->wb.discard)
        lx->wb.quoted = true;
    lx->i += 2;
}

/* The bytes that end a run of plain bytes (shell_internal.h). */
const bool shl_plain_stops[256] = {
    [0] = true,    [' '] = true, ['\t'] = true, ['\n'] = true, ['\r'] = true,
    [';'] = true,  ['&'] = true, ['|'] = true,  ['('] = true,  [')'] = true,
    ['<'] = true,  ['>'] = true, ['$'] = true,  ['`'] = true,  ['\''] = true,
    ['"'] = true,  ['\\'] = true, ['{'] = true, ['}'] = true,
};

/* The bytes that end a plain word (shl_plain_word_ends_at): blanks, newline, the operator
 * bytes but `<` (a placeholder may start there); 2: `\r`, when a newline follows. */
const unsigned char shl_plain_word_enders[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, [';'] = 1, ['&'] = 1, ['|'] = 1, ['('] = 1, [')'] = 1,
    ['>'] = 1, ['\r'] = 2,
};

size_t shl_plain_run_end_esc(const struct sh_lexer *lx, size_t end)
{
    const unsigned char *s = (const unsigned char *)lx->s;
    while (end < lx->len && !shl_plain_stops[s[end]] && s[end] != (unsigned char)lx->esc)
        end++;
    return end;
}

static void lex_parts(struct sh_lexer *lx, enum lex_mode mode, int depth)
{
    bool quoted = mode_quoted(mode);
    size_t qend;
    for (;;) {
        int c = shl_cur(lx);
        if (c < 0)
            return;
        size_t at = lx->i;
        size_t placeholder = mode == M_WORD && (c == '<' || c == '{')
                                 ? shl_placeholder_end(lx, at)
                                 : 0;
        if (placeholder) { /* documentation's `<...>`: an opaque part of the word; a
                              template's `{{ x }}` or IPython's `{x}`, substituted as
                              text, may be any number of words, as `$x` may */
            shl_wb_opaque_raw(lx, at, placeholder, lx->s[at] != '<');
            lx->i = placeholder;
            continue;
        }
        if (mode == M_WORD && shl_word_end_at(lx, at))
            return;
        if ((mode == M_DQ && c == '"') || ((mode == M_BRACE || mode == M_BRACE_DQ) && c == '}'))
            return;
        if (c == (unsigned char)lx->esc) {
            lex_escape(lx, mode);
        } else if (c == '$') {
            lex_dollar(lx, mode, depth);
        } else if (c == '`') {
            lex_skipped(lx, at, at + 1, '`', !quoted,
                        "expected a closing ` for this command substitution");
        } else if (c == '\'' && !quoted) {
            lex_single_quote(lx);
        } else if (c == '\'' && mode == M_BRACE_DQ &&
                   (qend = shl_brace_dq_quote_end(lx->s, at, lx->len)) != 0) {
            /* bash's quote in "${x:-'...'}" (shl_brace_dq_quote_end): kept as written */
            shl_wb_add(lx, lx->s + at, qend + 1 - at, at, true);
            if (!lx->wb.discard)
                lx->wb.content = true;
            lx->i = qend + 1;
        } else if (c == '"' && mode != M_DQ) {
            lex_double_quote(lx, depth);
        } else if (mode == M_BRACE && is_ifs(c) && !lx->wb.nosplit) {
            lx->i++;
            shl_wb_break(lx, lx->i);
        } else { /* a literal byte, and the run of plain bytes after it in one append */
            size_t end = shl_plain_run_end(lx, at + 1);
            shl_wb_add(lx, lx->s + at, end - at, at, true);
            if (!lx->wb.discard)
                lx->wb.content = true;
            lx->i = end;
        }
    }
}

/* ---- words ---- */

void shl_word(struct sh_lexer *lx, bool nosplit)
{
    const char *s = lx->s;
    size_t at = lx->i;
    size_t dots = at < lx->len && (s[at] == '.' || (unsigned char)s[at] == 0xE2)
                      ? shl_placeholder_end(lx, at)
                      : 0;
    size_t end = dots ? 0 : shl_plain_word_end(lx, at);
    if (end) { /* the common word, plain bytes only: one field, no builder */
        shl_wb_plain(lx, at, end, nosplit);
        lx->i = end;
        return;
    }
    shl_wb_begin(lx, at, nosplit);
    if (dots) { /* a whole word that is an ellipsis: any number of words, as `$x` */
        shl_wb_opaque_raw(lx, at, dots, true);
        lx->i = dots;
        shl_wb_finish(lx);
        return;
    }
    if (at + 1 < lx->len && (s[at] == '<' || s[at] == '>') && s[at + 1] == '(')
        lex_skipped(lx, at, at + 2, '(', false, "expected ) closing this process substitution");
    lex_parts(lx, M_WORD, 0);
    shl_wb_finish(lx);
}

void shl_heredoc_word(struct sh_lexer *lx, bool *quoted)
{
    shl_wb_begin(lx, lx->i, true);
    *quoted = false;
    for (;;) {
        int c = shl_cur(lx);
        size_t at = lx->i;
        if (c < 0 || shl_word_end_at(lx, at))
            break;
        if (c == '\'' || c == '"') {
            const char *q = memchr(lx->s + at + 1, c, lx->len - at - 1);
            size_t close = q ? (size_t)(q - lx->s) : lx->len;
            shl_wb_add(lx, lx->s + at + 1, close - at - 1, at + 1, true);
            lx->i = q ? close + 1 : close;
            *quoted = lx->wb.content = true;
        } else if (c == (unsigned char)lx->esc && at + 1 < lx->len) {
            shl_wb_lit(lx, at + 1);
            lx->i += 2;
            *quoted = true;
        } else {
            shl_wb_lit(lx, at);
            lx->i++;
        }
    }
    lx->wb.content = true;
    shl_wb_finish(lx);
}

bool shl_at_assignment(const struct sh_lexer *lx)
{
    const char *s = lx->s;
    size_t k = lx->i;
    if (k >= lx->len || !is_name_start((unsigned char)s[k]))
        return false;
    while (k < lx->len && is_name_char((unsigned char)s[k]))
        k++;
    if (k < lx->len && s[k] == '+')
        k++;
    return k < lx->len && s[k] == '=';
}

void shl_assignment(struct sh_lexer *lx, struct sh_assign *out)
{
    const char *s = lx->s;
    size_t start = lx->i, k = start;
    while (is_name_char((unsigned char)s[k]))
        k++;
    memset(out, 0, sizeof *out);
    out->name = gl_arena_strndup(lx->a, s + start, k - start);
    out->loc = shl_loc(lx, start);
    out->append = s[k] == '+';
    k += out->append ? 2 : 1;
    out->value_loc = shl_loc(lx, k);
    lx->i = k;
    shl_wb_begin(lx, k, true);
    if (shl_cur(lx) == '(') { /* NAME=(a b): an array */
        out->array = true;
        lex_skipped(lx, lx->i, lx->i + 1, '(', false, "expected ) closing this array");
    }
    lex_parts(lx, M_WORD, 0);
    out->value = gl_arena_strndup(lx->a, lx->wb.text.data ? lx->wb.text.data : "",
                                  lx->wb.text.len);
    out->value_len = lx->wb.text.len;
    out->opaque = lx->wb.opaque || out->array;
}

bool shl_field_is_literal(const struct gl_word *w, const struct sh_word_info *info,
                          const char *kw)
{
    size_t n = strlen(kw);
    return !w->opaque && !info->quoted && info->len == n && info->nspans == 1 &&
           info->spans[0].literal && info->spans[0].src == info->src &&
           memcmp(w->text, kw, n) == 0;
}
