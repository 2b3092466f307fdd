/* SPDX-License-Identifier: Apache-2.0 */
/* shell_words.c: the command builder of the shell word splitter: operators, reserved
 * words, redirections, heredoc bodies and assignment tracking (see shell_words.h). */
#include "parsers/shell/shell_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An open compound command. */
enum ctx_kind {
    C_IF,
    C_LOOP,
    C_CASE,
    C_BRACE,        /* { ... } */
    C_SUBSHELL,     /* ( ... ) */
    C_FUNC_PENDING, /* after `name()` or `function name`: the body comes next */
    C_FUNC,         /* a function body, closed by `closer` */
};

struct ctx {
    unsigned char kind;
    char closer;    /* C_FUNC: '}' or ')'; C_LOOP: 'f' a for or select loop, '}' one whose
                       body is a `{ ...; }` group (bash's brace form), 0 while/until */
    bool case_body; /* C_CASE: in a pattern's commands (else reading patterns) */
    bool body;      /* C_LOOP: its `do` was read; C_IF: the `then` (or `else`) of the arm
                       read now, so its commands are no condition (sh_cmd.condition) */
    uint8_t arm;    /* C_IF, C_CASE: the arm read now (sh_cmd.arm) */
    uint32_t id;    /* C_IF, C_CASE: its number in the text (sh_cmd.branch) */
    uint32_t at;    /* the text offset of the word or operator that opened it (16 bytes an
                       entry: a text of 8 million `{` holds as many; UINT32_MAX past 4 GiB) */
    uint32_t outer; /* 1 + the index of the innermost if or case under it, 0 none (so
                       innermost_branch is one look, not a walk of a deep stack) */
};

/* What the next word is, in a compound command's header. */
enum expect {
    E_NONE,
    E_FOR_NAME,  /* for NAME */
    E_FOR_IN,    /* for x `in` (or `do`, or a separator) */
    E_FOR_WORDS, /* for x in WORDS... up to a separator */
    E_CASE_WORD, /* case WORD */
    E_CASE_IN,   /* case x `in` */
    E_FUNC_NAME, /* function NAME */
    E_COPROC,    /* coproc: a NAME, a compound command or a simple command's first word */
};

#define HD_CURRENT ((size_t)-1) /* the heredoc's command is still being built */
#define HD_DROPPED ((size_t)-2) /* its command was not kept */

struct heredoc {
    const char *delim;
    size_t dlen;
    bool strip_tabs;
    bool quoted; /* (its delimiter: the body's `\` newline is text, not a join) */
    size_t cmd, redir;
};

struct builder {
    struct sh_lexer lx;
    /* the command being built (heap) */
    struct gl_word *w;
    struct sh_word_info *wi;
    size_t nw, capw, capwi; /* the two arrays grow together: capw == capwi */
    struct sh_assign *as;
    size_t nas, capas;
    struct sh_redir *rd;
    size_t nrd, caprd;
    bool started;
    bool bang;           /* the command follows an odd number of `!` (sh_cmd.negated) */
    struct gl_loc start; /* where the command starts (looked up as its first token is read) */
    /* results (heap until the end) */
    struct sh_cmd *cmds;
    size_t ncmds, capcmds;
    /* grammar */
    struct ctx *st;
    size_t nst, capst;
    int depth;   /* C_IF, C_LOOP, C_CASE, C_FUNC entries on the stack */
    size_t nsub; /* C_SUBSHELL entries */
    uint32_t nbranch; /* C_IF and C_CASE opened so far (their ids) */
    enum expect expect;
    char prev_sep[4];
    struct heredoc *hd;
    size_t nhd, caphd;
    const struct gl_srcmap *origin;
    size_t total_words;  /* over all commands, for the cap below */
    struct fixed *fx;    /* first rooms of the scratch arrays above */
    bool words_only;     /* sh_opts.words_only */
    bool grammar;        /* sh_opts.grammar */
    bool grammar_bash;   /* sh_opts.grammar_bash */
    bool regex_next;     /* the last word was the `=~` of a `[[ ]]`: the next token is its
                            pattern (regex_word) */
    size_t regex_past;   /* where the last pattern regex_word gave up stopped: a `=~` before
                            it is a byte of that pattern in bash's reading, not read again */
    size_t loose;        /* `(` read as no grammar (inside `[[ ]]`, an extglob, after a
                            command's words): as many `)` close nothing of the stack */
    size_t limit;        /* the arena's limit, SIZE_MAX for none (it does not change while
                            a text is split: over_memory's test at every token is one) */
};

/* sh_split clears the builder from `w` on and leaves the lexer to shl_init. */
_Static_assert(offsetof(struct builder, lx) == 0, "the lexer is the builder's first member");

/* More words than this in one text is no script a person wrote: stop with an error so
 * that memory stays bounded (each word costs about 200 bytes of model). */
#define SH_MAX_WORDS (1u << 20)

/* The first rooms of the builder's scratch arrays (see shl_grow), on sh_split's stack. */
#define FIXED 16
struct fixed {
    struct shl_fixed lex;
    struct gl_word w[FIXED];
    struct sh_word_info wi[FIXED];
    struct sh_assign as[FIXED];
    struct sh_redir rd[FIXED];
    struct sh_cmd cmds[FIXED];
    struct ctx st[FIXED];
    struct heredoc hd[FIXED];
};

#define grow(b, arr, n, cap) shl_grow((b)->arr, (n), &(b)->cap, sizeof *(b)->arr, (b)->fx->arr, FIXED)

/* n elements of `size` copied into the arena (NULL when n is 0), not cleared first. */
static void *arena_copy(struct gl_arena *a, const void *p, size_t n, size_t size)
{
    return n ? gl_arena_memdup(a, p, n * size) : NULL;
}

/* Tests of a separator (one of those sh_cmd.sep lists) by its bytes, not strcmp chains:
 * they run for every word and command. */
static bool sep_eq1(const char *sep, char c) { return sep[0] == c && sep[1] == 0; }
/* "&&" "||" "|" "|&": the next command runs or not depending on this one, or beside it */
static bool sep_and_or_pipe(const char *sep)
{
    return sep[0] == '|' || (sep[0] == '&' && sep[1] == '&');
}
/* "|" "&" "|&": this command runs in a pipeline or in the background */
static bool sep_pipe_or_async(const char *sep)
{
    return (sep[0] == '|' && sep[1] != '|') || sep_eq1(sep, '&');
}

/* ---- the context stack ---- */

static struct ctx *top(struct builder *b) { return b->nst ? &b->st[b->nst - 1] : NULL; }

/* After the words, the contexts, the commands or a command's redirections, assignments or
 * heredocs grew: the builder's scratch (lx.builder_scratch) again. Open contexts take no word and no arena byte (`( ( ( ...`), and the
 * commands stay on the heap until the end, then are copied to the arena (`a;a;a;...`):
 * 16 MB scripts of either took 146 and 97 MB; so are a command's redirections and
 * assignments until it ends (500,000 `<a` in one command, 1 MB: 99 MB). */
static __attribute__((noinline, cold)) void heap_grown(struct builder *b)
{
    /* (the commands, redirections and assignments twice: their copy in the arena at the
       end; the words as they stand, capw == capwi) */
    b->lx.builder_scratch = b->capw * (sizeof *b->w + sizeof *b->wi) +
                            (b->capst > FIXED ? b->capst * sizeof *b->st : 0) +
                            (b->capcmds > FIXED ? 2 * b->capcmds * sizeof *b->cmds : 0) +
                            (b->caprd > FIXED ? 2 * b->caprd * sizeof *b->rd : 0) +
                            (b->capas > FIXED ? 2 * b->capas * sizeof *b->as : 0) +
                            (b->caphd > FIXED ? b->caphd * sizeof *b->hd : 0);
}
/* Room for one more assignment of the command being built. */
static void grow_assigns(struct builder *b)
{
    if (b->nas < b->capas)
        return;
    b->as = grow(b, as, b->nas, capas);
    heap_grown(b);
}

/* Are the case patterns read now (a word there is a pattern, not a command's)? */
static inline bool in_case_patterns(const struct builder *b)
{
    return b->nst && b->st[b->nst - 1].kind == C_CASE && !b->st[b->nst - 1].case_body;
}
static bool counts_depth(unsigned char k) { return k == C_IF || k == C_LOOP || k == C_CASE || k == C_FUNC; }

/* The innermost if or case open, or NULL (class: a walk down the stack at every command
 * was quadratic in nested subshells: `(x|` 50,000 times, 150 KB, took 2.5 s). */
static const struct ctx *innermost_branch(const struct builder *b)
{
    if (!b->nst)
        return NULL;
    const struct ctx *t = &b->st[b->nst - 1];
    if (t->kind == C_IF || t->kind == C_CASE)
        return t;
    return t->outer ? &b->st[t->outer - 1] : NULL;
}

/* sh_opts.branches: the if or case `id` (just opened) stands in the innermost one open. */
static __attribute__((noinline, cold)) void note_parent(struct builder *b, uint32_t id)
{
    struct sh_branches *t = b->lx.opts->branches;
    struct sh_branch_parent p = {0, 0};
    const struct ctx *in = innermost_branch(b);
    if (in)
        p = (struct sh_branch_parent){in->id, in->arm};
    if (t->n + 1 == id) /* (one entry a branch, in order: a caller's stale table is no use) */
        *GL_APPEND(b->lx.a, t->items, t->n, t->cap) = p;
}

static void push(struct builder *b, enum ctx_kind kind, char closer, size_t at)
{
    if (b->nst >= b->capst) {
        b->st = grow(b, st, b->nst, capst);
        heap_grown(b);
    }
    uint32_t id = kind == C_IF || kind == C_CASE ? ++b->nbranch : 0;
    if (id && b->lx.opts && b->lx.opts->branches)
        note_parent(b, id);
    uint32_t at32 = at < UINT32_MAX ? (uint32_t)at : UINT32_MAX;
    const struct ctx *in = innermost_branch(b);
    uint32_t outer = in ? (uint32_t)(in - b->st) + 1 : 0;
    b->st[b->nst++] = (struct ctx){(unsigned char)kind, closer, false, false, 0, id, at32, outer};
    b->depth += counts_depth(kind);
    b->nsub += kind == C_SUBSHELL;
}

/* Pop the top context if it is `kind` (closed by `closer` for C_FUNC). */
static void pop_if(struct builder *b, enum ctx_kind kind, char closer)
{
    struct ctx *t = top(b);
    if (!t || t->kind != kind || (kind == C_FUNC && t->closer != closer))
        return;
    b->depth -= counts_depth(t->kind);
    b->nsub -= t->kind == C_SUBSHELL;
    b->nst--;
}

/* `elif`/`else` of an if, or a case pattern's `)`: the next arm of t when it is `kind`. */
static void next_arm(struct ctx *t, enum ctx_kind kind)
{
    if (t && t->kind == kind && t->arm < UINT8_MAX)
        t->arm++;
}

/* An if's arm: from its `then` (or `else`) on, its commands are its body. */
static void if_body(struct ctx *t, bool body)
{
    if (t && t->kind == C_IF)
        t->body = body;
}

/* The innermost if or case around the command being finished: its id and arm in *c. */
static void set_branch(const struct builder *b, struct sh_cmd *c)
{
    const struct ctx *in = innermost_branch(b);
    c->branch = in ? in->id : 0;
    c->arm = in ? in->arm : 0;
}

/* `{` or `(` opening a group at `at`; a pending function takes it as its body. */
static void open_group(struct builder *b, enum ctx_kind kind, char closer, size_t at)
{
    struct ctx *t = top(b);
    if (t && t->kind == C_FUNC_PENDING) {
        b->nst--;
        push(b, C_FUNC, closer, at);
        return;
    }
    push(b, kind, 0, at);
}

/* `do` of a loop t (the top context): its body begins. */
static void loop_do(struct ctx *t)
{
    if (t && t->kind == C_LOOP)
        t->body = true;
}

/* `{` where the body of a for or select loop t (the top context) may begin, bash's brace
 * form (`for x in a; { ...; }`): then the loop is closed by `}`; false when t is no such
 * loop (the `{` opens a group). */
static bool loop_brace(struct ctx *t)
{
    if (!t || t->kind != C_LOOP || t->closer != 'f' || t->body)
        return false;
    t->closer = '}';
    return true;
}

/* ---- the grammar of a whole script (sh_opts.grammar) ---- */

/* For messages: what a closer needs open, and the word that closes a context. */
static const char *const needs[] = {
    [C_IF] = "no `if` is open here", [C_LOOP] = "no loop is open here",
    [C_CASE] = "no `case` is open here", [C_BRACE] = "no `{` is open here",
    [C_SUBSHELL] = "no `(` is open here", [C_FUNC_PENDING] = "", [C_FUNC] = ""};
static const char *const closer_of[] = {
    [C_IF] = "fi", [C_LOOP] = "done", [C_CASE] = "esac", [C_BRACE] = "}",
    [C_SUBSHELL] = ")", [C_FUNC_PENDING] = "", [C_FUNC] = ""};

/* A function whose body was no group (`f() if ...; fi`, `f() (( x ))`, `f() [[ ... ]]`)
 * left its pending entry: it is no context a closer could close. */
static struct ctx *settled_top(struct builder *b)
{
    while (b->nst && b->st[b->nst - 1].kind == C_FUNC_PENDING)
        b->nst--;
    return top(b);
}

/* With sh_opts.grammar: `word` at `at` must close or continue an open context of `kind`
 * (C_FUNC accepted for `}` and `)` when its closer is `closer`); else an error there, as
 * `bash -n` gives (syntax error near unexpected token). */
static __attribute__((noinline, cold)) void unexpected(struct builder *b, size_t at,
                                                       size_t n, enum ctx_kind kind)
{
    shl_error(&b->lx, at, gl_arena_printf(b->lx.a, "unexpected `%.*s`: %s", (int)n,
                                          b->lx.s + at, needs[kind]));
}

/* (the token is the n bytes at `at`: a reserved word, `)` or `;;`) */
static inline void expect_open(struct builder *b, enum ctx_kind kind, char closer, size_t at,
                               size_t n)
{
    if (!b->grammar)
        return;
    const struct ctx *t = settled_top(b);
    if (!t || !(t->kind == kind || (closer && (t->kind == C_FUNC || t->kind == C_LOOP) &&
                                         t->closer == closer)))
        unexpected(b, at, n, kind);
}

/* With sh_opts.grammar: the word at `at` after `for NAME` (or `for ((...))`) is none of
 * `in`, `do`, `{` (bash: syntax error near unexpected token). */
static __attribute__((noinline, cold)) void not_in_or_do(struct builder *b, size_t at)
{
    size_t n = 0;
    while (at + n < b->lx.len && n < 40 && !strchr(" \t\n;&|()<>", b->lx.s[at + n]))
        n++;
    if (n == 40) /* (cut at a character's start, not inside a UTF-8 sequence) */
        while (n > 0 && at + n < b->lx.len && ((unsigned char)b->lx.s[at + n] & 0xC0) == 0x80)
            n--;
    shl_error(&b->lx, at, gl_arena_printf(b->lx.a, "unexpected `%.*s`: `in` or `do` must "
                                          "follow the loop's variable", (int)n,
                                          b->lx.s + at));
}

/* With sh_opts.grammar, at the end of the text: the innermost context still open is an
 * error at its opener (bash: unexpected end of file). */
static __attribute__((noinline, cold)) void still_open(struct builder *b)
{
    const struct ctx *t = settled_top(b);
    if (!t)
        return;
    if (t->at >= b->lx.len)
        return; /* (past 4 GiB: no place to point at) */
    const char *s = b->lx.s + t->at; /* its opener: a reserved word, `{` or `(` */
    int n = 1;
    while (s[0] >= 'a' && s[0] <= 'z' && t->at + n < b->lx.len && s[n] >= 'a' && s[n] <= 'z')
        n++;
    /* (a function's body and bash's brace-form loop close with their own `}` or `)`) */
    const char *closer = t->kind == C_FUNC ? (t->closer == '}' ? "}" : ")")
                         : t->kind == C_LOOP && t->closer == '}' ? "}"
                                                                 : closer_of[t->kind];
    shl_error(&b->lx, t->at, gl_arena_printf(b->lx.a, "this `%.*s` is never closed: `%s` is "
                                             "missing before the end of the script", n, s,
                                             closer));
}

/* With sh_opts.grammar: the token [at, end) (a reserved word, `)`, `;;`) is followed by
 * the carriage return of a CRLF line end, which bash and dash take into the word (`fi\r`
 * is no `fi`, `;;\r` leaves a word `\r` where a pattern goes), and so refuse the script
 * somewhere after. One error says why, at the file's first CRLF line end (its other
 * lines have one too, as a rule), not the cascade the shell gives. */
static __attribute__((noinline, cold)) void crlf_error(struct builder *b, size_t at,
                                                       size_t end, bool word)
{
    const char *s = b->lx.s;
    const char *cr = memmem(s, b->lx.len, "\r\n", 2);
    size_t first = cr ? (size_t)(cr - s) : end;
    shl_error(&b->lx, first, gl_arena_printf(b->lx.a, "the script has CRLF (Windows) line "
                                             "ends, which %s: %s read%s the carriage return "
                                             "after `%.*s` on line %u as %s; convert the "
                                             "file to LF line ends",
                                             word ? "bash refuses" : "bash and sh refuse",
                                             word ? "it" : "they", word ? "s" : "",
                                             (int)(end - at), s + at,
                                             (unsigned)shl_loc(&b->lx, at).line,
                                             word ? "a word where none may stand"
                                                  : "part of it"));
}
static inline void crlf_after(struct builder *b, size_t at, size_t end)
{
    if (b->grammar && end < b->lx.len && b->lx.s[end] == '\r')
        crlf_error(b, at, end, false);
}

/* With sh_opts.grammar (for the function forms grammar_bash: the caller tests it): the
 * token [at, end) is a function's `()` (`f()`, `function f ()`), the name after
 * `function` with a blank after it, or a `((...))` command, and after it (and blanks)
 * comes the carriage return of a CRLF line end: bash reads it as a word of its own where
 * no word may stand, and refuses the script (`function f\r` is another matter: the name
 * is `f\r`, and bash takes it). */
static inline void cr_word_after(struct builder *b, size_t at, size_t end)
{
    if (!b->grammar)
        return;
    size_t i = end;
    while (i < b->lx.len && (b->lx.s[i] == ' ' || b->lx.s[i] == '\t'))
        i++;
    if (i < b->lx.len && b->lx.s[i] == '\r')
        crlf_error(b, at, end, true);
}

static void close_group(struct builder *b, char closer)
{
    struct ctx *t = top(b);
    if (t && t->kind == C_FUNC)
        pop_if(b, C_FUNC, closer);
    else if (t && t->kind == C_LOOP && t->closer == '}' && closer == '}')
        pop_if(b, C_LOOP, 0);
    else
        pop_if(b, closer == '}' ? C_BRACE : C_SUBSHELL, 0);
}

/* ---- assignment tracking ---- */

static bool certain_now(const struct builder *b)
{
    return b->depth == 0 && b->nsub == 0 && !sep_and_or_pipe(b->prev_sep);
}

/* ---- commands ---- */

static bool cmd_empty(const struct builder *b) { return !b->nw && !b->nas && !b->nrd; }

static void mark_start(struct builder *b, size_t at)
{
    if (!b->started) {
        b->started = true;
        /* (here, not in finish: the token at `at` is in the piece of the text shl_loc
           keeps; at the command's end, a command over continued lines was not, and its
           look-up mispredicted) */
        b->start = shl_loc(&b->lx, at);
    }
}

/* src into dst[size], cut to fit, as snprintf "%s" does (without its cost). */
static void copy_short(char *dst, size_t size, const char *src)
{
    size_t n = 0;
    for (; n + 1 < size && src[n]; n++) /* a few bytes: no strnlen and memcpy calls */
        dst[n] = src[n];
    dst[n] = 0;
}

/* The room of a plain word's one span before its text, in the word's arena block (as
 * push_field_of lays it out). */
#define PLAIN_SPAN ((sizeof(struct sh_span) + 15) & ~(size_t)15)

/* With words_only, plain_word leaves a word's span unwritten (the infos are kept for a
 * `sh -c` only): its info has spans NULL and nspans 1, which no other word has (a word of
 * no span has nspans 0). Write those spans, in their room before the text, into the
 * infos `in` of the words `w` of a command that keeps its infos. */
static void plain_spans(const struct gl_word *w, struct sh_word_info *in, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!in[k].spans && in[k].nspans == 1) {
            struct sh_span *span = (struct sh_span *)(void *)(w[k].text - PLAIN_SPAN);
            *span = (struct sh_span){0, in[k].src, in[k].len, true, false};
            in[k].spans = span;
        }
}

/* What ends a command, as sh_cmd.sep holds it: a string in four bytes, NUL-padded, so
 * that it is copied whole (finish runs for every command). */
static const char SEP_END[4] = "", SEP_NL[4] = "\n", SEP_CLOSE[4] = ")";

/* End the command being built with `sep` (four bytes, see SEP_END). Always inline, as
 * operator and scan_operator: the command path (an operator, the command's end) runs
 * inside the token loop for each of the 16,000 operators of the 999 Dockerfiles, and
 * three calls a command cost more than their work (149.08 M -> 148.39 M together). */
static inline __attribute__((always_inline)) void finish(struct builder *b, const char sep[4])
{
    size_t kept = HD_DROPPED;
    if (b->nw || b->nas) {
        if (b->ncmds >= b->capcmds) {
            b->cmds = grow(b, cmds, b->ncmds, capcmds);
            heap_grown(b);
        }
        struct sh_cmd *c = &b->cmds[b->ncmds];
        struct gl_arena *a = b->lx.a;
        /* the words and their infos in one arena block: the same bytes charged as two
           copies (the first rounded up to 16, where the second starts). With words_only
           the infos are kept for a `sh -c` only (decided on the scratch arrays), but
           charged all the same (round16(wroom + x) == wroom + round16(x)). */
        c->words = NULL;
        c->info = NULL;
        c->nwords = b->nw;
        if (b->nw) {
            size_t wbytes = b->nw * sizeof *b->w, wroom = (wbytes + 15) & ~(size_t)15;
            size_t ibytes = b->nw * sizeof *b->wi;
            c->words = b->w;
            c->info = b->wi;
            bool keep_info = !b->words_only || sh_dash_c_index(c) >= 0;
            char *block = gl_arena_take(a, wroom + (keep_info ? ibytes : 0));
            memcpy(block, b->w, wbytes);
            c->words = (struct gl_word *)(void *)block;
            if (keep_info) {
                memcpy(block + wroom, b->wi, ibytes);
                c->info = (struct sh_word_info *)(void *)(block + wroom);
                if (b->words_only)
                    plain_spans(c->words, c->info, b->nw);
            } else {
                c->info = NULL;
                gl_arena_charge(a, ibytes);
            }
        }
        c->assigns = arena_copy(a, b->as, b->nas, sizeof *b->as);
        c->nassigns = b->nas;
        c->redirs = arena_copy(a, b->rd, b->nrd, sizeof *b->rd);
        c->nredirs = b->nrd;
        c->loc = b->start;
        memcpy(c->sep, sep, sizeof c->sep);
        c->depth = b->depth;
        set_branch(b, c);
        c->subshell = b->nsub > 0;
        c->negated = b->bang;
        c->condition = b->nst && top(b)->kind == C_IF && !top(b)->body;
        c->origin = b->origin;
        kept = b->ncmds++;
        if (b->lx.track) /* (the scratch infos: there with words_only too) */
            shl_track_command(b->lx.vars, c, b->wi,
                              certain_now(b) && !sep_pipe_or_async(sep));
        memcpy(b->prev_sep, sep, sizeof b->prev_sep);
    } else if (!sep_eq1(sep, '\n')) {
        memcpy(b->prev_sep, sep, sizeof b->prev_sep);
    }
    for (size_t k = 0; k < b->nhd; k++)
        if (b->hd[k].cmd == HD_CURRENT)
            b->hd[k].cmd = kept;
    b->nw = b->nas = b->nrd = 0;
    b->started = b->bang = false;
}

/* The arena and the current command's word arrays together past the arena's limit (the
 * limit parse-memory for a document's arena)? Then the split stops at offset `at` (a
 * token, a here-document's body) with the limit's message: true. */
static __attribute__((noinline, cold)) bool stop_here(struct builder *b, size_t at)
{
    char msg[256];
    shl_error(&b->lx, at, gl_arena_strdup(b->lx.a, gl_limit_message(GL_LIMIT_PARSE_MEMORY, msg,
                                                                     sizeof msg)));
    return true;
}

/* (inline: it runs before every token; its slow part is stop_here. The arena is over its
 * limit only when its total passed it, and the total only grows while a text is split:
 * the total's test says "over" too, without a look at gl_arena_over) */
static inline bool stop_at_memory_with(struct builder *b, size_t extra, size_t at)
{
    const struct gl_arena *a = b->lx.a;
    if (a->total + b->lx.builder_scratch + b->lx.scratch + extra <= b->limit)
        return false;
    return stop_here(b, at);
}
/* (the builder's and the lexer's scratch, with the arena's total) */
static inline bool stop_at_memory(struct builder *b, size_t at)
{
    return stop_at_memory_with(b, 0, at);
}

/* Read the bodies of the heredocs named on the line that just ended (lx.i is at the
 * start of the next line). Past parse-memory it stops at the next body (many heredocs
 * opened on one line are read in one go, not a token at a time). */
static void read_heredocs(struct builder *b)
{
    struct sh_lexer *lx = &b->lx;
    for (size_t k = 0; k < b->nhd && !stop_at_memory(b, lx->i); k++) {
        struct heredoc *h = &b->hd[k];
        size_t body = lx->i, end = body;
        while (lx->i < lx->len) {
            bool delim = shl_heredoc_line(lx, lx->i, h->delim, h->dlen, h->strip_tabs,
                                          h->quoted, &lx->i);
            if (delim)
                break;
            end = lx->i;
        }
        if (h->cmd < HD_DROPPED) {
            struct sh_redir *r = &b->cmds[h->cmd].redirs[h->redir];
            r->body = gl_arena_strndup(lx->a, lx->s + body, end - body);
            r->body_len = end - body;
            r->body_loc = shl_loc(lx, body);
            r->body_off = body;
        }
    }
    b->nhd = 0;
}

/* At i, where a redirection's target is missing as a word ends there, is it there all
 * the same for bash: a process substitution (`> >(tee log)`, `< <(ls)`), or the carriage
 * return of a CRLF line end (bash's target is a file named "\r")? */
static bool target_follows(const struct sh_lexer *lx, size_t i)
{
    if (i >= lx->len)
        return false;
    char c = lx->s[i];
    return c == '\r' || ((c == '<' || c == '>') && i + 1 < lx->len && lx->s[i + 1] == '(');
}

/* Does the `>` at `at` close a documentation placeholder `<NAME>` (`ROOT=<ROOT_PATH>`,
 * `--token <your-token>`, `DATA=<Specify path>`: shl_angle_placeholder_end)? Example
 * scripts ship these for the reader to fill in; bash refuses them as they stand, but the
 * script's launches are what it means, so its grammar is not judged on them (the words are
 * unresolved, as elsewhere; RULES.md third round, "Placeholders in documentation": words
 * with spaces between the brackets too). The `<` looked for is the nearest one before
 * `at` on its line: the placeholder grammar holds no `<`, so no other could open it. */
static bool closes_placeholder(const struct sh_lexer *lx, size_t at)
{
    size_t k = at;
    while (k > 0 && at - k <= SHL_PLACEHOLDER_MAX && lx->s[k - 1] != '<' && lx->s[k - 1] != '\n')
        k--;
    return k > 0 && lx->s[k - 1] == '<' && shl_angle_placeholder_end(lx, k - 1) == at + 1;
}

/* Is the command being built a `[[ ... ]]`, where `<` and `>` compare strings or stand in
 * a regular expression (`=~ ^[<>=]*(.*)$`), no redirection? */
static bool in_conditional(const struct builder *b)
{
    return b->nw && b->w[0].len == 2 && memcmp(b->w[0].text, "[[", 2) == 0;
}

/* With sh_opts.grammar: the redirection [at, end) (`>`, `2>&`, `<<`) is followed by no
 * word (a newline, an operator, the end), which bash refuses (syntax error near
 * unexpected token). The operator is digits and operator bytes: shown as written. */
static __attribute__((noinline, cold)) void no_target(struct builder *b, size_t at,
                                                      size_t end)
{
    shl_error(&b->lx, at, gl_arena_printf(b->lx.a, "`%.*s` redirects to nothing: a file "
                                          "name or descriptor must follow it", (int)(end - at),
                                          b->lx.s + at));
}

static void add_redirect(struct builder *b, size_t at, int fd, const char *op)
{
    struct sh_lexer *lx = &b->lx;
    size_t op_end = lx->i;
    if (b->expect == E_COPROC)
        b->expect = E_NONE; /* coproc 2>log cmd: a simple command's redirection */
    mark_start(b, at);
    if (b->nrd >= b->caprd) {
        b->rd = grow(b, rd, b->nrd, caprd);
        heap_grown(b);
    }
    struct sh_redir *r = &b->rd[b->nrd];
    memset(r, 0, sizeof *r);
    r->fd = fd;
    copy_short(r->op, sizeof r->op, op);
    r->loc = shl_loc(lx, at);
    int c = shl_cur(lx);
    while (c == ' ' || c == '\t') {
        lx->i++;
        c = shl_cur(lx);
    }
    bool heredoc = strcmp(op, "<<") == 0 || strcmp(op, "<<-") == 0;
    /* (a `#` where the target's word would start begins a comment, for bash too: `> #x`
     * and `>#x` redirect to nothing; judged in whole scripts only, as below) */
    if (c < 0 || shl_word_end_at(lx, lx->i) || (c == '#' && b->grammar)) {
        /* no target: a syntax error, skipped */
        r->target = (struct gl_word){"", 0, shl_loc(lx, lx->i), false};
        b->nrd++;
        if (b->grammar && !target_follows(lx, lx->i) && !in_conditional(b) &&
            !closes_placeholder(lx, at))
            no_target(b, at, op_end);
        return;
    }
    if (heredoc)
        shl_heredoc_word(lx, &r->quoted_delim);
    else
        shl_word(lx, true);
    if (lx->nfields)
        r->target = lx->fields[0];
    else
        r->target = (struct gl_word){"", 0, shl_loc(lx, lx->i), false};
    if (heredoc) {
        if (b->nhd >= b->caphd) {
            b->hd = grow(b, hd, b->nhd, caphd);
            heap_grown(b);
        }
        b->hd[b->nhd++] = (struct heredoc){r->target.text, lx->nfields ? lx->finfo[0].len : 0,
                                           op[2] == '-', r->quoted_delim, HD_CURRENT,
                                           b->nrd};
    }
    b->nrd++;
}

/* ---- reserved words ---- */

static bool is_keyword(const struct sh_lexer *lx, const char *kw)
{
    return lx->nfields == 1 && shl_field_is_literal(&lx->fields[0], &lx->finfo[0], kw);
}

/* Which reserved word the literal text t[0, n) is, if any. Always inline: plain_word asks
 * it of every command's first word, and gcc kept the part after the length test out of
 * line (a call a command for a first-byte test that nearly always says no). */
enum reserved { R_NONE, R_IF, R_LOOP, R_FOR, R_CASE, R_FUNCTION, R_FI, R_DONE, R_ESAC,
                R_OPEN, R_CLOSE, R_THEN, R_ELSE, R_DO, R_COPROC, R_OTHER };
/* The lengths, as bits, of the reserved words by their first byte (all have 1 to 8): a
 * word whose first byte and length match none is no reserved word, told in one look-up
 * and one test (a test of the first byte alone passed cd, curl, echo, sed, dpkg... and
 * went on, or not, as the command's name went: mispredicted). */
static const uint16_t reserved_lengths[256] = {
    ['i'] = 1u << 2,                     /* if */
    ['w'] = 1u << 5, ['u'] = 1u << 5,    /* while until */
    ['f'] = 1u << 2 | 1u << 3 | 1u << 8, /* fi for function */
    ['s'] = 1u << 6,                     /* select */
    ['c'] = 1u << 4 | 1u << 6,           /* case coproc */
    ['d'] = 1u << 2 | 1u << 4,           /* do done */
    ['e'] = 1u << 4,                     /* esac else elif */
    ['t'] = 1u << 4,                     /* then time */
    ['{'] = 1u << 1, ['}'] = 1u << 1, ['!'] = 1u << 1,
};
static inline __attribute__((always_inline)) enum reserved reserved_of(const char *t,
                                                                       size_t n)
{
    if (n > 8 || !((reserved_lengths[(unsigned char)t[0]] >> n) & 1u))
        return R_NONE;
#define KW(kw) (n == sizeof(kw) - 1 && memcmp(t, kw, sizeof(kw) - 1) == 0)
    if (KW("if")) return R_IF;
    if (KW("while") || KW("until")) return R_LOOP;
    if (KW("for") || KW("select")) return R_FOR;
    if (KW("case")) return R_CASE;
    if (KW("function")) return R_FUNCTION;
    if (KW("fi")) return R_FI;
    if (KW("done")) return R_DONE;
    if (KW("esac")) return R_ESAC;
    if (KW("{")) return R_OPEN;
    if (KW("}")) return R_CLOSE;
    if (KW("then"))
        return R_THEN;
    if (KW("else") || KW("elif"))
        return R_ELSE;
    if (KW("do"))
        return R_DO;
    if (KW("coproc"))
        return R_COPROC;
    if (KW("!") || KW("time"))
        return R_OTHER;
#undef KW
    return R_NONE;
}

/* Act on the reserved word r (not R_NONE), the n bytes at offset `at`, the start of a
 * command. */
static void act_reserved(struct builder *b, enum reserved r, size_t at, size_t n)
{
    /* (`else`, `!`, `time`, `case`, `function` with a CR after them are words bash can
       take: `else\r` runs a command of that name, and `fi` still closes the `if`) */
    if (r != R_OTHER && r != R_CASE && r != R_FUNCTION && r != R_COPROC &&
        !(r == R_ELSE && b->lx.s[at + 2] == 's'))
        crlf_after(b, at, at + n);
    switch (r) {
    case R_NONE: break;
    case R_IF: push(b, C_IF, 0, at); break;
    case R_LOOP: push(b, C_LOOP, 0, at); break;
    case R_FOR:
        push(b, C_LOOP, 'f', at);
        b->expect = E_FOR_NAME;
        break;
    case R_CASE:
        push(b, C_CASE, 0, at);
        b->expect = E_CASE_WORD;
        break;
    case R_FUNCTION: b->expect = E_FUNC_NAME; break;
    case R_FI:
        expect_open(b, C_IF, 0, at, n);
        pop_if(b, C_IF, 0);
        break;
    case R_DONE:
        expect_open(b, C_LOOP, 0, at, n);
        pop_if(b, C_LOOP, 0);
        break;
    case R_ESAC:
        expect_open(b, C_CASE, 0, at, n);
        pop_if(b, C_CASE, 0);
        break;
    case R_OPEN:
        if (!loop_brace(top(b))) /* (for x in ...; { ...; }: the loop's body) */
            open_group(b, C_BRACE, '}', at);
        break;
    case R_CLOSE:
        expect_open(b, C_BRACE, '}', at, n);
        close_group(b, '}');
        break;
    case R_THEN:
        expect_open(b, C_IF, 0, at, n);
        if_body(top(b), true);
        break;
    case R_ELSE: /* else, elif */
        expect_open(b, C_IF, 0, at, n);
        next_arm(top(b), C_IF);
        if_body(top(b), b->lx.s[at + 2] == 's'); /* an elif's condition comes first */
        break;
    case R_DO:
        expect_open(b, C_LOOP, 0, at, n);
        loop_do(top(b));
        break;
    case R_COPROC: /* (the word is dropped, as `time`; `coproc\r` is a command's name) */
        if (at + n >= b->lx.len || b->lx.s[at + n] != '\r')
            b->expect = E_COPROC;
        break;
    case R_OTHER: b->bang ^= n == 1; break;     /* `!` (not `time`) */
    }
}

/* A word at the start of a command that is a reserved word: act on it, return true. */
static bool reserved_word(struct builder *b)
{
    struct sh_lexer *lx = &b->lx;
    if (lx->nfields != 1 || lx->fields[0].opaque || lx->finfo[0].quoted)
        return false;
    /* the field is the literal source text (what is_keyword tests), then which word */
    const struct sh_word_info *in = &lx->finfo[0];
    if (in->len < 1 || in->len > 8 || in->nspans != 1 || !in->spans[0].literal ||
        in->spans[0].src != in->src)
        return false;
    enum reserved r = reserved_of(lx->fields[0].text, in->len);
    if (r == R_NONE)
        return false;
    act_reserved(b, r, in->src, in->len);
    return true;
}

/* Count n more words of the text; past SH_MAX_WORDS, stop with an error at `at`. */
static bool over_word_cap(struct builder *b, size_t n, size_t at)
{
    if ((b->total_words += n) <= SH_MAX_WORDS)
        return false;
    shl_error(&b->lx, at, "at most 1048576 words: the text is too large to be a script");
    b->lx.i = b->lx.len; /* stop here: the commands so far are still returned */
    return true;
}

/* Room for one more word in the command's arrays (words and infos, which grow together):
 * false past parse-memory (the arrays doubled, with the lexer's scratch: the fields of one
 * word are added in one go, between two of stop_at_memory's looks). */
static inline bool room_for_word(struct builder *b, size_t at)
{
    if (b->nw < b->capw)
        return true;
    if (b->capw >= FIXED && stop_at_memory_with(b, b->capw * (sizeof *b->w + sizeof *b->wi), at))
        return false;
    b->w = grow(b, w, b->nw, capw);
    b->wi = grow(b, wi, b->nw, capwi);
    heap_grown(b);
    return true;
}

/* The fields of the word at `at` the lexer just read (lx->fields) as the command's next
 * words. */
static void add_fields(struct builder *b, size_t at)
{
    struct sh_lexer *lx = &b->lx;
    if (over_word_cap(b, lx->nfields, at))
        return;
    for (size_t k = 0; k < lx->nfields; k++) {
        mark_start(b, at);
        if (!room_for_word(b, at))
            return;
        b->w[b->nw] = lx->fields[k];
        b->wi[b->nw++] = lx->finfo[k];
    }
}

/* With sh_opts.grammar_bash: `coproc` is followed by no command (an operator, the end)
 * or by `!` (bash reads a reserved word there, and `!` starts no command it can run as a
 * coprocess: `coproc ! cmd`, `coproc cat ! x`); `what` names what stands at `at`. */
static __attribute__((noinline, cold)) void coproc_error(struct builder *b, size_t at,
                                                         const char *what)
{
    shl_error(&b->lx, at, gl_arena_printf(b->lx.a, "%s after `coproc`: a command to run as "
                                          "the coprocess must follow it", what));
}

/* The offset of the next token at or after i (blanks and line continuations skipped). */
static size_t blank_end(const struct sh_lexer *lx, size_t i)
{
    for (;;) {
        i = shl_skip_cont(lx, i);
        if (i >= lx->len || (lx->s[i] != ' ' && lx->s[i] != '\t'))
            return i;
        i++;
    }
}

/* After `coproc WORD`, at i: is the next token a lone `!`? */
static bool bang_follows(const struct sh_lexer *lx, size_t i)
{
    i = blank_end(lx, i);
    return i < lx->len && lx->s[i] == '!' && shl_word_end_at(lx, i + 1);
}

/* After `coproc WORD`, at i: does a compound command follow (`{`, `(`, `((`, `[[`, `if`,
 * `while`, `until`, `for`, `select`, `case`), which makes WORD the coprocess's NAME (bash
 * reads the token after it as a command's first; `coproc cat file` is a simple command)? */
static bool compound_follows(const struct sh_lexer *lx, size_t i)
{
    const char *s = lx->s;
    i = blank_end(lx, i);
    if (i < lx->len && s[i] == '(')
        return true;
    size_t n = 0;
    while (n < 7 && !shl_word_end_at(lx, i + n))
        n++;
    if (n == 0 || n == 7)
        return false;
    if ((n == 1 && s[i] == '{') || (n == 2 && s[i] == '[' && s[i + 1] == '['))
        return true;
    enum reserved r = reserved_of(s + i, n);
    return r == R_IF || r == R_LOOP || r == R_FOR || r == R_CASE;
}

/* A word at `at` in a compound command's header (for/case/function), or a case pattern. */
static bool header_word(struct builder *b, size_t at)
{
    struct sh_lexer *lx = &b->lx;
    struct ctx *t = top(b);
    switch (b->expect) {
    case E_FOR_NAME:
        shl_word(lx, true);
        if (lx->nfields && b->lx.track)
            sh_vars_assign(lx->vars, lx->fields[0].text, lx->finfo[0].len, NULL, 0, false);
        b->expect = E_FOR_IN;
        return true;
    case E_FOR_IN:
        shl_word(lx, false);
        b->expect = is_keyword(lx, "in") ? E_FOR_WORDS : E_NONE;
        if (b->expect == E_NONE && t && t->kind == C_LOOP) { /* for x do / for ((...)) { */
            if (is_keyword(lx, "do"))
                loop_do(t);
            else if (!(is_keyword(lx, "{") && loop_brace(t)) && b->grammar)
                not_in_or_do(b, at);
        }
        crlf_after(b, at, lx->i); /* (`in`, `do` or `{`: else the error above was set) */
        return true;
    case E_FOR_WORDS:
        shl_word(lx, false);
        return true;
    case E_CASE_WORD:
        shl_word(lx, true);
        b->expect = E_CASE_IN;
        return true;
    case E_CASE_IN:
        shl_word(lx, true);
        b->expect = E_NONE;
        crlf_after(b, at, lx->i);
        if (t && t->kind == C_CASE)
            t->case_body = false;
        return true;
    case E_FUNC_NAME:
        shl_word(lx, true);
        b->expect = E_NONE;
        push(b, C_FUNC_PENDING, 0, at);
        if (b->grammar_bash && lx->i < lx->len && lx->s[lx->i] != '\r')
            cr_word_after(b, at, lx->i); /* (`function f\r`: the name is `f\r`) */
        return true;
    case E_COPROC:
        b->expect = E_NONE;
        shl_word(lx, false);
        if (b->grammar_bash && is_keyword(lx, "!"))
            coproc_error(b, at, "`!`");
        if (cmd_empty(b) && reserved_word(b))
            return true; /* coproc { ...; }, coproc while ...: the compound command */
        if (b->grammar_bash && bang_follows(lx, lx->i))
            coproc_error(b, blank_end(lx, lx->i), "`!`");
        if (!compound_follows(lx, lx->i))
            add_fields(b, at); /* coproc cat file: the simple command's first word */
        return true; /* else the coproc's NAME, dropped */
    case E_NONE:
        break;
    }
    if (t && t->kind == C_CASE && !t->case_body) { /* a pattern, or esac */
        shl_word(lx, true);
        if (is_keyword(lx, "esac")) {
            crlf_after(b, at, lx->i);
            pop_if(b, C_CASE, 0);
        }
        return true;
    }
    return false;
}

/* Add the word `text` (strlen(text) == len: gl_word.len) that starts at `at` to the
 * command, the lexer going on at `end`: what plain_word and quoted_word end with. Returns
 * the word's info slot for the caller to fill (in place: no copy), or NULL past the word
 * cap (the error is set). Always inline: once for every plain word (gcc may take it out of
 * line: ~1.5 M on the 999 Dockerfiles). */
static inline __attribute__((always_inline)) struct sh_word_info *
add_word(struct builder *b, size_t at, size_t end, char *text, uint32_t len)
{
    struct gl_loc loc = shl_loc(&b->lx, at);
    b->lx.i = end;
    if (over_word_cap(b, 1, at))
        return NULL;
    mark_start(b, at);
    if (!room_for_word(b, at))
        return NULL;
    b->w[b->nw] = (struct gl_word){text, len, loc, false};
    return &b->wi[b->nw++];
}

/* Is the plain word t[0, n) an assignment word `NAME=` / `NAME+=` (what shl_at_assignment
 * finds at its start)? Name bytes, '+' and '=' are all plain, so the test stays inside it. */
static bool plain_assignment(const char *t, size_t n)
{
    if (gl_name_class[(unsigned char)t[0]] != 1)
        return false;
    size_t k = 1;
    while (k < n && gl_name_class[(unsigned char)t[k]])
        k++;
    if (k < n && t[k] == '+')
        k++;
    return k < n && t[k] == '=';
}

/* May the word src[0, n) hold a '=' (and so be an assignment word)? With SSE2, for a word
 * of up to 16 bytes that the input holds 16 bytes from (`room`), exactly, in one 16-byte
 * compare; true otherwise. So a command's first word is tested without a loop over its
 * name bytes, whose end was mispredicted at most words (apt-get, pip, cd, mkdir...). */
static inline bool may_hold_eq(const char *src, size_t n, size_t room)
{
#ifdef __SSE2__
    if (n <= 16 && room >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)src);
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('=')));
        return (m & ((1u << n) - 1)) != 0;
    }
#else
    (void)src;
    (void)n;
    (void)room;
#endif
    return true;
}

/* The plain word [at, end) that is an assignment `NAME=value` / `NAME+=value` at the start
 * of a command (plain_assignment), as the command's assignment: what word() and
 * shl_assignment make of it (the same copies of name and value, the same positions), here
 * without the lexer: its value is plain bytes, which lex_parts would append as one literal.
 * False (nothing done) for an empty value, which may be an array's `NAME=(`: word() takes
 * it. */
static bool plain_assign(struct builder *b, size_t at, size_t end)
{
    struct sh_lexer *lx = &b->lx;
    const char *s = lx->s;
    size_t k = at;
    while (gl_name_class[(unsigned char)s[k]]) /* (the name ends at '+' or '=') */
        k++;
    bool append = s[k] == '+';
    size_t v = k + (append ? 2 : 1);
    if (v == end)
        return false;
    lx->assign_certain = certain_now(b); /* as word() leaves it */
    mark_start(b, at);
    grow_assigns(b);
    struct sh_assign *out = &b->as[b->nas++];
    memset(out, 0, sizeof *out);
    out->name = gl_arena_strndup(lx->a, s + at, k - at);
    out->loc = shl_loc(lx, at);
    out->append = append;
    out->value_loc = shl_loc(lx, v);
    out->value = gl_arena_strndup(lx->a, s + v, end - v);
    out->value_len = end - v;
    lx->i = end;
    return true;
}

/* The n bytes of a word at src into dst, where an arena block of at least n + 1 bytes
 * rounded up to 16 starts (so room for 16 bytes). A word of up to 16 bytes moves as one
 * 16-byte copy when the input has 16 bytes at src (`room`): the bytes after the word land
 * in the block's own rounding, where the NUL then goes; up to 32 bytes, two overlapping
 * copies. Most words are short: no memcpy call, no byte loop. */
static inline void copy_word_text(char *dst, const char *src, size_t n, size_t room)
{
    if (n <= 16 && room >= 16) {
        memcpy(dst, src, 16);
    } else if (n >= 16 && n <= 32) {
        memcpy(dst, src, 16);
        memcpy(dst + n - 16, src + n - 16, 16);
    } else {
        memcpy(dst, src, n);
    }
    dst[n] = 0;
}

/* A plain word (shl_plain_word_end) lexed straight into the command's arrays: the same
 * arena block (one span, then the text), word and info that shl_word's field and its copy
 * in word() below give, without the field. Only where word() would do nothing else with
 * it: no header word or case pattern is expected, and it is no reserved word where one is
 * recognised (a command's first word that is an assignment goes to plain_assign). False
 * (nothing done) otherwise: word() takes it; *quote is set when the plain bytes end at a
 * quote. Always inline: its one call is in run()'s token loop, and gcc's choice to inline
 * it or not flips with small changes around it (out of line it costs ~2.5 M more on the
 * 999 Dockerfiles). */
static inline __attribute__((always_inline)) bool plain_word(struct builder *b, size_t at,
                                                             bool *quote)
{
    struct sh_lexer *lx = &b->lx;
    *quote = false;
    if (lx->stop || b->expect != E_NONE || in_case_patterns(b))
        return false;
    size_t end = shl_plain_run_end(lx, at);
    if (end == at || !shl_plain_word_ends_at(lx, end)) {
        /* a quote next: perhaps a quoted_word */
        *quote = end < lx->len && (lx->s[end] == '"' || lx->s[end] == '\'');
        return false;
    }
    size_t tlen = end - at;
    const char *src = lx->s + at;
    if (!b->nw && may_hold_eq(src, tlen, lx->len - at) && plain_assignment(src, tlen))
        return plain_assign(b, at, end);
    if (tlen == 2 && src[0] == '=' && src[1] == '~') /* (unquoted: a plain word) */
        b->regex_next = in_conditional(b);
    enum reserved r = cmd_empty(b) ? reserved_of(src, tlen) : R_NONE;
    if (r != R_NONE) {
        /* what word() does with it: lex it into a field (an arena block of one span and
           the text, charged here as taken: the memory limit trips at the same token) that
           reserved_word reads and drops, and act on it */
        lx->assign_certain = certain_now(b);
        gl_arena_charge(lx->a, PLAIN_SPAN + tlen + 1);
        lx->i = end;
        act_reserved(b, r, at, tlen);
        return true;
    }
    char *block = gl_arena_take(lx->a, PLAIN_SPAN + tlen + 1);
    struct sh_span *span = (struct sh_span *)(void *)block;
    if (b->words_only)
        span = NULL; /* its room is kept: plain_spans writes it for a `sh -c` */
    else
        *span = (struct sh_span){0, at, tlen, true, false};
    char *text = block + PLAIN_SPAN;
    copy_word_text(text, src, tlen, lx->len - at);
    /* tlen is the text's strlen: NUL is one of shl_plain_stops, so a plain word holds none */
    struct sh_word_info *in = add_word(b, at, end, text, gl_word_len_of(tlen));
    if (in)
        *in = (struct sh_word_info){.len = tlen, .src = at, .spans = span, .nspans = 1};
    return true;
}

/* The bytes that end a plain run inside "..." for quoted_word: the closing quote, an
 * expansion, a backquote, the escape ('\\'; another escape is tested beside), and NUL:
 * a "..." holding one is left to word(), which every quoted_word equals, so that
 * quoted_word's length of such a piece is strlen's (gl_word.len). */
static const bool dq_stops[256] = {['"'] = true, ['$'] = true, ['`'] = true, ['\\'] = true,
                                   [0] = true};

/* The most pieces a quoted_word holds (a longer word goes to word()). */
#define QUOTED_PIECES 8

/* The expansion `$NAME` or `${NAME}` at s[i] == '$' inside "...": the offset after it (its
 * name at *name, *nlen bytes), or 0 for any other `$` (word() takes those: `${x:-w}`,
 * `$(...)`, `$1`, a continuation, a lone `$`). What lex_dollar and lex_brace read there. */
static size_t dq_simple_var(const char *s, size_t len, size_t i, size_t *name, size_t *nlen)
{
    bool brace = i + 1 < len && s[i + 1] == '{';
    size_t k = i + 1 + brace, from = k;
    if (k >= len || gl_name_class[(unsigned char)s[k]] != 1)
        return 0;
    while (k < len && gl_name_class[(unsigned char)s[k]])
        k++;
    *name = from;
    *nlen = k - from;
    if (!brace)
        return k;
    return k < len && s[k] == '}' ? k + 1 : 0;
}

/* Append to the word's spans the piece of n bytes at `out` from input `src` (literal:
 * byte for byte; else a variable's value, all from the construct at src), merged into the
 * last one when shl_wb_add would merge it (same kind, following it in the text and, for
 * a literal, in the input; for a value, from the same construct). No span for n == 0. */
static inline void add_span(struct sh_span *spans, size_t *np, size_t out, size_t src,
                            size_t n, bool literal, bool opaque)
{
    if (!n)
        return;
    if (*np) {
        struct sh_span *last = &spans[*np - 1];
        if (last->literal == literal && last->opaque == opaque && last->out + last->len == out &&
            (literal ? last->src + last->len == src : last->src == src)) {
            last->len += n;
            return;
        }
    }
    spans[(*np)++] = (struct sh_span){out, src, n, literal, opaque};
}

/* A word of plain runs and quoted strings only ('...', and "..." holding no backquote or
 * escape, and no expansion but `$NAME` and `${NAME}`): one field that is quoted, as
 * shl_word's builder makes it (lex_parts, lex_single_quote, lex_double_quote, lex_dollar,
 * lex_brace, shl_wb_value, shl_wb_opaque_raw, then push_field_of: the same arena block of
 * spans and text, the same look-ups of the variables in the same order, the same
 * expansion budget), here without the builder. An expansion inside "..." is never field
 * split, so each is one piece: its known value (a span from the construct), else its
 * text as written (an opaque span; the word opaque). Where plain_word would take it but
 * for the quotes (the same conditions) and word() would do nothing else with it: a quoted
 * word is no reserved word, and a first word that is an assignment is left to word().
 * False (nothing done, nothing looked up) for anything else: another expansion, one
 * outside quotes, an escape or continuation, a `{` (template or placeholder), an unclosed
 * quote, no quote. The word's shape is read whole before any variable is looked up. */
static bool quoted_word(struct builder *b, size_t at)
{
    struct sh_lexer *lx = &b->lx;
    if (lx->stop || b->expect != E_NONE || in_case_patterns(b))
        return false;
    if (!b->nw && shl_at_assignment(lx)) /* lx->i is at */
        return false;
    const char *s = lx->s;
    unsigned char esc = (unsigned char)lx->esc;
    size_t len = lx->len, i = at, np = 0;
    /* the pieces as read: literal ones (src, len), and expansions (literal false: src is
       the `$`, len the construct's bytes; name and nlen where the name is) */
    struct sh_span pieces[QUOTED_PIECES];
    size_t names[QUOTED_PIECES], nlens[QUOTED_PIECES];
    bool quoted = false, single = false; /* single: a '...' piece (it may hold a NUL) */
#define PIECE(from_, n_)                                                                  \
    do {                                                                                  \
        size_t f_ = (from_), n__ = (n_);                                                  \
        if (n__) { /* a literal piece that follows the last one in the input extends it */ \
            if (np && pieces[np - 1].literal && pieces[np - 1].src + pieces[np - 1].len == f_) { \
                pieces[np - 1].len += n__;                                                \
            } else {                                                                      \
                if (np == QUOTED_PIECES)                                                  \
                    return false;                                                         \
                pieces[np++] = (struct sh_span){0, f_, n__, true, false};                 \
            }                                                                             \
        }                                                                                 \
    } while (0)
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        if ((!shl_plain_stops[c] || c == '}') && c != esc) {
            /* a literal run (lex_parts: a `}` outside ${...} is a literal too) */
            size_t to = shl_plain_run_end(lx, i + 1);
            PIECE(i, to - i);
            i = to;
        } else if (c == '\'') {
            const char *q = memchr(s + i + 1, '\'', len - i - 1);
            if (!q)
                return false; /* unclosed: the builder reports it */
            PIECE(i + 1, (size_t)(q - s) - i - 1);
            i = (size_t)(q - s) + 1;
            quoted = single = true;
        } else if (c == '"') {
            size_t j = i + 1;
            for (;;) {
                size_t from = j;
                if (esc == '\\' || esc == '`') { /* dq_stops holds the escape: four bytes a step */
                    while (j + 4 <= len && !(dq_stops[(unsigned char)s[j]] |
                                             dq_stops[(unsigned char)s[j + 1]] |
                                             dq_stops[(unsigned char)s[j + 2]] |
                                             dq_stops[(unsigned char)s[j + 3]]))
                        j += 4;
                    while (j < len && !dq_stops[(unsigned char)s[j]])
                        j++;
                } else {
                    while (j < len && !dq_stops[(unsigned char)s[j]] && (unsigned char)s[j] != esc)
                        j++;
                }
                PIECE(from, j - from);
                if (j < len && s[j] == '"')
                    break;
                size_t name, nlen, end;
                if (j >= len || s[j] != '$' || !(end = dq_simple_var(s, len, j, &name, &nlen)))
                    return false;
                if (np == QUOTED_PIECES)
                    return false;
                names[np] = name;
                nlens[np] = nlen;
                pieces[np++] = (struct sh_span){0, j, end - j, false, false};
                j = end;
            }
            i = j + 1;
            quoted = true;
        } else if (c == '<' && shl_placeholder_end(lx, i)) {
            return false;
        } else if (shl_word_end_at(lx, i)) {
            break;
        } else {
            return false; /* $ ` escape { NUL, a lone \r */
        }
    }
#undef PIECE
    if (!quoted)
        return false; /* e.g. a `}` in a word: word() (a reserved word, perhaps) */
    lx->assign_certain = certain_now(b); /* as word() leaves it */
    /* the expansions' values, in order (the look-ups and the budget as lex_dollar's) */
    const char *vals[QUOTED_PIECES];
    bool opaque = false;
    size_t tlen = 0, nsp = 0;
    struct sh_span spans[QUOTED_PIECES];
    for (size_t k = 0; k < np; k++) {
        struct sh_span *p = &pieces[k];
        if (p->literal) {
            vals[k] = s + p->src;
            add_span(spans, &nsp, tlen, p->src, p->len, true, false);
            tlen += p->len;
            continue;
        }
        const char *val = NULL;
        size_t vlen = 0;
        if (shl_var_state(lx, s + names[k], nlens[k], &val, &vlen) == SH_VAR_KNOWN &&
            vlen <= lx->budget) { /* shl_wb_value */
            lx->budget -= vlen;
            vals[k] = val;
            p->len = vlen;
            add_span(spans, &nsp, tlen, p->src, vlen, false, false);
        } else { /* shl_wb_opaque_raw: the construct as written */
            vals[k] = s + p->src;
            add_span(spans, &nsp, tlen, p->src, p->len, true, true);
            opaque = true;
        }
        tlen += p->len;
    }
    size_t spb = nsp * sizeof(struct sh_span), sp = (spb + 15) & ~(size_t)15;
    char *block = gl_arena_take(lx->a, sp + tlen + 1); /* as push_field_of */
    struct sh_span *out_spans = nsp ? (struct sh_span *)(void *)block : NULL;
    char *text = block + sp;
    for (size_t k = 0; k < nsp; k++)
        out_spans[k] = spans[k];
    size_t o = 0;
    for (size_t k = 0; k < np; k++) {
        memcpy(text + o, vals[k], pieces[k].len);
        o += pieces[k].len;
    }
    text[tlen] = 0;
    /* gl_word.len is strlen(text): tlen, but for a NUL inside '...' (a plain run stops at
     * one, and a "..." piece too: dq_stops; a value is a string) */
    uint32_t wlen = single ? gl_word_len(text) : gl_word_len_of(tlen);
    struct sh_word_info *in = add_word(b, at, i, text, wlen);
    if (in) {
        b->w[b->nw - 1].opaque = opaque;
        *in = (struct sh_word_info){.len = tlen, .src = at, .spans = out_spans, .nspans = nsp,
                                    .quoted = true};
    }
    return true;
}

/* The word at `at` that plain_word did not take (quotes, expansions, escapes, an
 * assignment or reserved word, a header word or pattern). */
static void word(struct builder *b, size_t at)
{
    struct sh_lexer *lx = &b->lx;
    lx->assign_certain = certain_now(b);
    if (header_word(b, at))
        return;
    bool first = !b->nw;
    if (first && shl_at_assignment(lx)) {
        mark_start(b, at);
        grow_assigns(b);
        shl_assignment(lx, &b->as[b->nas++]);
        return;
    }
    shl_word(lx, false);
    if (cmd_empty(b) && reserved_word(b))
        return;
    add_fields(b, at);
}

/* ---- operators ---- */

static int next_nonblank(const struct sh_lexer *lx, size_t i)
{
    for (;;) {
        i = shl_skip_cont(lx, i);
        if (i >= lx->len)
            return -1;
        if (lx->s[i] != ' ' && lx->s[i] != '\t')
            return (unsigned char)lx->s[i];
        i++;
    }
}

/* `(` at `at` (lx->i is past it). */
static void open_paren(struct builder *b, size_t at)
{
    struct sh_lexer *lx = &b->lx;
    struct ctx *t = top(b);
    if (t && t->kind == C_CASE && !t->case_body) {
        /* (pattern): the one that opens a pattern follows a blank or `;;`; one inside a
           pattern is an extglob's (`*.@(jpg|png))`), and so is its `)` */
        if (at > 0 && !strchr(" \t\n;", lx->s[at - 1]))
            b->loose++;
        return;
    }
    if (b->nw == 1 && !b->nas && !b->nrd && next_nonblank(lx, lx->i) == ')') {
        b->nw = 0; /* name() body */
        b->started = false;
        lx->i = (size_t)((const char *)memchr(lx->s + lx->i, ')', lx->len - lx->i) - lx->s) + 1;
        push(b, C_FUNC_PENDING, 0, at);
        if (b->grammar_bash) /* (dash reads `f()\r` as a function whose body is `\r`) */
            cr_word_after(b, at, lx->i);
        return;
    }
    if (!cmd_empty(b)) {
        b->loose++; /* `[[ ( -f x ) ]]`, `=~ ^(a|b)$`, `!(x)`, `arr=(...)`; else a syntax
                       error, skipped */
        return;
    }
    if (t && t->kind == C_FUNC_PENDING && next_nonblank(lx, lx->i) == ')') {
        lx->i = (size_t)((const char *)memchr(lx->s + lx->i, ')', lx->len - lx->i) - lx->s) + 1;
        if (b->grammar_bash)
            cr_word_after(b, at, lx->i);
        return; /* function name () */
    }
    if (lx->i < lx->len && lx->s[lx->i] == '(') { /* (( arithmetic )) */
        size_t end, open = lx->i - 1;
        if (!shl_skip_construct(lx, lx->i, '(', &end)) {
            shl_error(lx, open, "expected )) closing this ((");
            return;
        }
        lx->i = end;
        cr_word_after(b, open, end);
        return;
    }
    open_group(b, C_SUBSHELL, ')', at);
}

/* What the operator op (a separator: see finish) does to the command and the grammar.
 * (always inline: see finish) */
static inline __attribute__((always_inline)) void operator(struct builder *b, const char op[4],
                                                           size_t at)
{
    struct ctx *t = top(b);
    bool list_sep = sep_eq1(op, ';') || sep_eq1(op, '\n');
    struct sh_lexer *lx = &b->lx;
    if (b->expect == E_FOR_NAME && sep_eq1(op, '(')) { /* for (( ...; ...; ... )) */
        size_t end;
        if (!shl_skip_construct(lx, lx->i, '(', &end)) {
            shl_error(lx, lx->i - 1, "expected )) closing this for ((");
        } else {
            cr_word_after(b, lx->i - 1, end);
            lx->i = end;
        }
        b->expect = E_FOR_IN;
        return;
    }
    if (b->expect == E_FOR_IN || b->expect == E_FOR_WORDS) {
        if (list_sep)
            b->expect = E_NONE;
        return;
    }
    if (b->expect == E_COPROC) {
        b->expect = E_NONE; /* coproc ( ... ), coproc (( ... )) */
        if (b->grammar_bash && !sep_eq1(op, '('))
            coproc_error(b, at, sep_eq1(op, '\n') ? "a line end" : "an operator");
    }
    if (b->expect != E_NONE)
        return; /* newlines inside a header */
    if (sep_eq1(op, '(')) {
        open_paren(b, at);
    } else if (sep_eq1(op, ')')) {
        if (b->loose) { /* closes a `(` read as no grammar */
            b->loose--;
            if (!(t && t->kind == C_CASE && !t->case_body))
                finish(b, SEP_CLOSE);
            return;
        }
        if (t && t->kind == C_CASE && !t->case_body) {
            t->case_body = true;
            next_arm(t, C_CASE);
            return;
        }
        finish(b, SEP_CLOSE);
        expect_open(b, C_SUBSHELL, ')', at, 1);
        crlf_after(b, at, at + 1);
        close_group(b, ')');
    } else if (op[0] == ';' && op[1] != 0) { /* ;; ;& ;;& */
        finish(b, op);
        expect_open(b, C_CASE, 0, at, strlen(op));
        crlf_after(b, at, at + strlen(op));
        if (t && t->kind == C_CASE)
            t->case_body = false;
    } else if (t && t->kind == C_CASE && !t->case_body) {
        return; /* `|` between patterns, newlines before them */
    } else {
        finish(b, op);
    }
}

/* The longest operator or redirection at lx->i; returns its length, *redir when it is
 * a redirection. */
/* Can byte c start an operator or a redirection? */
static bool op_start(int c)
{
    switch (c) {
    case ';': case '&': case '|': case '(': case ')': case '<': case '>':
        return true;
    default:
        return false;
    }
}

/* (always inline: see finish) */
static inline __attribute__((always_inline)) size_t scan_operator(const struct sh_lexer *lx,
                                                                    char *op, bool *redir)
{
    /* the longest operator at s: by its first byte, then the next two (a byte past the end
     * reads as NUL, which no operator holds); each one NUL-padded to four bytes, copied
     * whole into op (room for four) */
    const char *s = lx->s + lx->i;
    size_t left = lx->len - lx->i;
    if (!left || !op_start((unsigned char)s[0])) /* every operator starts with one */
        return 0;
    char c1 = left > 1 ? s[1] : 0, c2 = left > 2 ? s[2] : 0;
    const char *o; /* four bytes */
    if (s[0] == '&' && c1 == '&') { /* most operators of RUN lines: before the switch, a
                                       jump through a table that mispredicted nearly all */
        memcpy(op, "&&\0", 4);
        *redir = false;
        return 2;
    }
    bool r = s[0] == '<' || s[0] == '>';
    switch (s[0]) {
    case ';':
        o = c1 == ';' ? (c2 == '&' ? ";;&" : ";;\0") : c1 == '&' ? ";&\0" : ";\0\0";
        break;
    case '&':
        o = c1 == '&' ? "&&\0" : c1 == '>' ? (c2 == '>' ? "&>>" : "&>\0") : "&\0\0";
        r = c1 == '>';
        break;
    case '|':
        o = c1 == '|' ? "||\0" : c1 == '&' ? "|&\0" : "|\0\0";
        break;
    case '(':
        o = "(\0\0";
        break;
    case ')':
        o = ")\0\0";
        break;
    case '<':
        o = c1 == '<' ? (c2 == '<' ? "<<<" : c2 == '-' ? "<<-" : "<<\0")
            : c1 == '&' ? "<&\0" : c1 == '>' ? "<>\0" : "<\0\0";
        break;
    default: /* '>' */
        o = c1 == '>' ? ">>\0" : c1 == '&' ? ">&\0" : c1 == '|' ? ">|\0" : ">\0\0";
        break;
    }
    memcpy(op, o, 4);
    *redir = r;
    return o[1] ? o[2] ? 3 : 2 : 1;
}

/* ---- the main loop ---- */


/* The offset of the next token from lx->i on: past blanks (space, tab, a `\r` before a
 * newline) and escape-newline continuations, as shl_cur and the blank tests did one call
 * each; *c is its byte, -1 at the end (or when the lexer has stopped). */
static size_t next_token(const struct sh_lexer *lx, int *c)
{
    const char *s = lx->s;
    size_t i = lx->i, len = lx->len;
    if (lx->stop) {
        *c = -1;
        return i;
    }
    /* most tokens start right at i (after an operator) or after one space (after a word):
       those two without the loop below (the space skipped when it is no escape) */
    unsigned char esc = (unsigned char)lx->esc;
    if (i + 1 < len) {
        unsigned char ci = (unsigned char)s[i];
        if (ci == ' ' && esc != ' ')
            ci = (unsigned char)s[++i];
        if (ci > ' ' && ci != esc) {
            *c = ci;
            return i;
        }
    }
    bool spaces8 = lx->esc != ' '; /* (a space that is the escape goes the byte way) */
    for (;;) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* blanks before a token, eight bytes a step (~3.7 on average: one, or a continued
           line's indentation): the first byte that is no space is the lowest nonzero byte
           of the eight XOR eight spaces */
        while (spaces8 && i + 8 <= len) {
            uint64_t x;
            memcpy(&x, s + i, 8);
            x ^= 0x2020202020202020u;
            if (x) {
                i += (size_t)__builtin_ctzll(x) >> 3;
                break;
            }
            i += 8;
        }
#endif
        if (i >= len) {
            *c = -1;
            return i;
        }
        unsigned char ch = (unsigned char)s[i];
        if (ch > ' ' && ch != (unsigned char)lx->esc)
            break; /* (most tokens: every blank is <= ' ') */
        if (ch == (unsigned char)lx->esc) { /* first: an escape may be a blank too */
            size_t j = shl_skip_cont(lx, i);
            if (j != i) {
                i = j;
                continue;
            }
        } else if (ch == ' ' || ch == '\t' || (ch == '\r' && shl_word_end_at(lx, i))) {
            i++;
            continue;
        }
        break;
    }
    *c = (unsigned char)s[i];
    return i;
}

/* The right side of `[[ s =~ RE ]]`, read as bash reads it (parse.y, PST_REGEXP): one word
 * in which `|` and parentheses are bytes of the pattern, and inside parentheses blanks,
 * `;`, `&` and `#` too (`(#b)`, `x|#y`, `( #b)` start no comment: a comment there would hide
 * the rest of the line, `&& docker run ...` included). It ends at a blank, a newline, `;`,
 * `&`, `<`, `>` or `)` outside parentheses. Read here only when it is plain: quotes,
 * escapes and expansions (`$`, backquotes) and a newline inside parentheses go to the usual
 * reading (false). The word is opaque: a pattern, never a command's word. */
static bool regex_word(struct builder *b, size_t at)
{
    struct sh_lexer *lx = &b->lx;
    size_t i = at, depth = 0;
    bool plain = true;
    for (; i < lx->len; i++) {
        char c = lx->s[i];
        if (c == '\\' || c == '\'' || c == '"' || c == '$' || c == '`' || c == '\0' ||
            (c == '\n' && depth)) {
            plain = false;
            break;
        }
        if (c == '(') {
            depth++;
        } else if (c == ')' && depth) {
            depth--;
        } else if (!depth && strchr(" \t\n;&<>)", c)) {
            break;
        }
    }
    if (!plain || depth || i == at) {
        /* (not plain, or an unclosed `(` that bash refuses: the usual reading goes on).
         * All of at..i is bash's one pattern, so a `=~` the usual reading finds there
         * starts none and is not scanned again (class: each scan ran to the end of the
         * line, quadratic in `[[ a =~ (x ]]; ` repeated: 600 KB took 22 s) */
        b->regex_past = i;
        return false;
    }
    size_t n = i - at;
    char *block = gl_arena_take(lx->a, PLAIN_SPAN + n + 1);
    struct sh_span *span = (struct sh_span *)(void *)block;
    *span = (struct sh_span){0, at, n, false, true};
    char *text = block + PLAIN_SPAN;
    memcpy(text, lx->s + at, n);
    text[n] = '\0';
    struct sh_word_info *in = add_word(b, at, i, text, gl_word_len_of(n));
    if (in) {
        b->w[b->nw - 1].opaque = true;
        *in = (struct sh_word_info){.len = n, .src = at, .spans = span, .nspans = 1};
    }
    return true;
}

static void run(struct builder *b)
{
    struct sh_lexer *lx = &b->lx;
    for (;;) {
        int c;
        size_t at = lx->i = next_token(lx, &c);
        if (c < 0)
            break;
        if (stop_at_memory(b, at)) /* the limit parse-memory: stop at this token */
            break;
        if (b->regex_next) { /* (a `#` first starts a comment there too: `[[ s =~ #x ]]`) */
            b->regex_next = false;
            if (c != '#' && c != '\n' && at >= b->regex_past && regex_word(b, at))
                continue;
        }
        char op[4] = {0}; /* NUL-padded: a separator (finish) */
        bool redir = false;
        if (!shl_plain_stops[c] && c != '#') {
            /* a word, or digits before a redirection (2>&1) */
            size_t k = at;
            if (c >= '0' && c <= '9')
                while (k < lx->len && lx->s[k] >= '0' && lx->s[k] <= '9')
                    k++;
            if (k > at && k < lx->len && (lx->s[k] == '<' || lx->s[k] == '>') &&
                !(k + 1 < lx->len && lx->s[k + 1] == '(') && k - at < 9) {
                int fd = atoi(lx->s + at);
                lx->i = k;
                size_t n = scan_operator(lx, op, &redir);
                lx->i += n;
                add_redirect(b, at, fd, op);
            } else if ((c == '.' || c == 0xE2) && shl_placeholder_end(lx, at)) {
                word(b, at); /* documentation's `...`: the arguments it leaves out */
            } else {
                bool quote;
                if (!plain_word(b, at, &quote) && !(quote && quoted_word(b, at)))
                    word(b, at);
            }
        } else if (c == '#') {
            const char *nl = memchr(lx->s + at, '\n', lx->len - at);
            lx->i = nl ? (size_t)(nl - lx->s) : lx->len;
        } else if (c == '\n') {
            lx->i++;
            operator(b, SEP_NL, at);
            if (b->nhd)
                read_heredocs(b);
        } else if ((c == '<' || c == '>') && at + 1 < lx->len && lx->s[at + 1] == '(') {
            word(b, at); /* process substitution */
        } else if ((c == '<' || c == '{') && shl_placeholder_end(lx, at)) {
            word(b, at); /* documentation's `<placeholder>` */
        } else if (op_start(c)) {
            size_t n = scan_operator(lx, op, &redir);
            lx->i += n;
            if (redir)
                add_redirect(b, at, -1, op);
            else
                operator(b, op, at);
        } else if (!((c == '"' || c == '\'') && quoted_word(b, at))) {
            word(b, at); /* a quote, an expansion, an escape: no plain word */
        }
    }
    finish(b, SEP_END);
}

int sh_split(struct gl_arena *a, const char *text, size_t len, const struct gl_srcmap *map,
             const struct sh_opts *opts, struct sh_cmd **cmds, size_t *ncmds,
             struct sh_error *err)
{
    struct sh_error local_err;
    if (!err)
        err = &local_err;
    memset(err, 0, sizeof *err);
    *cmds = NULL;
    *ncmds = 0;
    if (gl_arena_over(a))
        return 0; /* past the parse-memory limit nothing more is split: the caller's input
                     is a GL900, and one text named by many YAML aliases must not be split
                     again for each */
    if (!text)
        len = 0;
    if (!map) {
        struct gl_srcmap *m = gl_arena_alloc(a, sizeof *m);
        gl_srcmap_init(m, a);
        struct gl_loc stop = gl_srcmap_identity(m, text ? text : "", len, 1, 1);
        map = m;
        if (stop.line) { /* (the map alone took the arena past parse-memory: stop there) */
            char msg[256];
            err->set = true;
            err->loc = stop;
            err->offset = gl_line_start_of(text, len, stop.line - 1);
            err->message = gl_arena_strdup(a, gl_limit_message(GL_LIMIT_PARSE_MEMORY, msg,
                                                               sizeof msg));
            return -1;
        }
    }
    struct sh_vars *vars = opts ? opts->vars : NULL;
    if (!vars) {
        vars = gl_arena_alloc(a, sizeof *vars);
        sh_vars_init(vars, a);
    }
    vars->text++; /* a new text: a rival's value (sh_var.rival) is no longer known */
    struct builder b;
    /* everything after the lexer cleared: shl_init clears and sets the lexer itself (lx
       is the first member; clearing it twice cost ~60 instructions a text) */
    shl_clear((char *)&b + offsetof(struct builder, w), sizeof b - offsetof(struct builder, w));
    b.origin = map;
    struct fixed fx; /* not cleared: every element is written before it is read */
    b.fx = &fx;
    /* the commands' first room taken up front (as shl_grow would at the first command):
       finish's test for room then says "room" at every command up to FIXED (at each
       text's first command it found none, a mispredicted branch a text) */
    b.cmds = fx.cmds;
    b.capcmds = FIXED;
    b.words_only = opts && opts->words_only;
    b.grammar = opts && opts->grammar;
    b.grammar_bash = b.grammar && opts->grammar_bash;
    b.limit = a->limit ? a->limit : SIZE_MAX;
    shl_init(&b.lx, a, text ? text : "", len, map, opts, vars, err, &fx.lex);
    run(&b);
    if (b.grammar_bash && b.expect == E_COPROC && !err->set)
        coproc_error(&b, b.lx.len, "the end of the script");
    if (b.grammar && b.nst && !err->set)
        still_open(&b);
    *ncmds = b.ncmds;
    if (b.ncmds) { /* gl_arena_memdup's take and copy, without its call */
        *cmds = gl_arena_take(a, b.ncmds * sizeof *b.cmds);
        memcpy(*cmds, b.cmds, b.ncmds * sizeof *b.cmds);
    }
    shl_free(&b.lx);
    /* an array is on the heap only past its fixed room (cap > FIXED; cap 0 or FIXED
       otherwise): one test for the seven, most texts free none */
    if ((b.capw | b.capwi | b.capas | b.caprd | b.capcmds | b.capst | b.caphd) > FIXED) {
        shl_release(b.w, fx.w, b.capw, sizeof *b.w);
        shl_release(b.wi, fx.wi, b.capwi, sizeof *b.wi);
        shl_release(b.as, fx.as, b.capas, sizeof *b.as);
        shl_release(b.rd, fx.rd, b.caprd, sizeof *b.rd);
        shl_release(b.cmds, fx.cmds, b.capcmds, sizeof *b.cmds);
        shl_release(b.st, fx.st, b.capst, sizeof *b.st);
        shl_release(b.hd, fx.hd, b.caphd, sizeof *b.hd);
    }
    return err->set ? -1 : 0;
}
