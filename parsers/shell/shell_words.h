/* SPDX-License-Identifier: Apache-2.0 */
/*
 * shell_words.h: split shell text into simple commands and words, as a POSIX shell
 * (bash, for the few bash forms gpulint meets) would, with the exact original position
 * of every word.
 *
 * Used for Dockerfile RUN lines and RUN heredoc bodies, shell scripts, Makefile recipe
 * lines, Markdown code blocks and CI YAML `run:` blocks. No command is ever executed.
 *
 * What is recognised:
 *  - quoting: '...', "..." (where `\` escapes $ ` " \ and newline), `\x` outside quotes,
 *    bash $'...' (C escapes) and $"..."; backslash-newline is removed everywhere except in
 *    single quotes, comments and heredoc bodies (a word may span lines; positions stay
 *    exact); `#` at the start of a word comments to the end of the line (a trailing `\`
 *    in a comment does not continue it); a `\r` right before a newline is a blank.
 *  - operators `;` `&` `&&` `||` `|` `|&` `(` `)` `;;` `;&` `;;&` and newlines end commands;
 *    the reserved words if then else elif fi for select while until do done case esac in
 *    function { } ! time are recognised where the shell recognises them and never appear
 *    as words (`if docker run x; then` gives the command `docker run x`); for/select
 *    headers, case subjects and case patterns are not commands; `((...))` is skipped;
 *    `name() {` and `function name {` open function bodies.
 *  - redirections `[n]< > >> >| <> <& >& &> &>> <<< << <<-` are taken out of the words into
 *    sh_cmd.redirs; a heredoc's body lines (up to the delimiter line, leading tabs
 *    ignored for `<<-`) are consumed after the line that names it and are never split
 *    as commands; the raw body is kept in the redirection.
 *  - expansions: $NAME ${NAME} ${NAME:-w} ${NAME-w} ${NAME:+w} ${NAME+w} ${NAME:=w}
 *    ${NAME=w} ${NAME:?w} ${NAME?w}. A variable's value comes first from the variable
 *    table (assignments seen earlier in this text or in earlier texts sharing the table),
 *    else from opts->lookup. Decisions (RULES.md): a variable never assigned and unknown
 *    to lookup is opaque when expanded bare ($HOME, $1) but takes the default in
 *    ${NAME:-w}/${NAME-w}, positional parameters (${2:-all}) included; a variable
 *    assigned inside if/case/loops/functions/subshells, after && or ||, in a pipeline or
 *    a background command, assigned with += or as an array, by `read`/`getopts`, or as a
 *    for-loop variable is opaque from then on. A plain assignment (a command of its own,
 *    not in any of those) sets the value, as the shell does, for the rest of the text it
 *    stands in; a variable so assigned different values is opaque in a later text sharing
 *    the table (Markdown blocks are often alternatives), its values those it was given.
 *    $(...), `...`, $((...)), ${#x}, ${x%...} and other operators, arrays (${a[@]}),
 *    special parameters ($@ $* $# $? $$ $! $-) and process substitution <(...) are opaque.
 *    A word containing an opaque part is opaque as a whole; its text is still the best
 *    literal guess (the opaque part's source text). Field splitting is done on unquoted
 *    expansions with a known value (space, tab, newline): `docker run $args` with a known
 *    `args` gives several words (sh_word_info.from_split; the later ones located at the
 *    `$`); an unquoted opaque expansion gives one opaque word with may_split set (it may
 *    stand for any number of words). An unquoted expansion that is empty gives no word.
 *    No pathname (glob), tilde or brace expansion is done: such words stay literal.
 *  - assignments: `NAME=v` / `NAME+=v` prefixing a command are in sh_cmd.assigns (and
 *    affect only that command); a command made only of assignments, and the arguments of
 *    export, declare, typeset, readonly and local, set variables in the table (when
 *    opts->track_assignments) once the command ends; `unset` removes them.
 *
 * Positions: every word carries the gl_loc of its first byte as written (the opening
 * quote, the `$`); a command's loc is that of its first token. Locations come from
 * `map` (derived text -> original file) or, when map is NULL, from the text itself
 * starting at line 1 col 1. sh_word_info records, for each byte of a word's text, which
 * byte of the input produced it, so that sh_split_word_again can split the string of
 * `sh -c '...'` again with exact positions.
 *
 * Robustness: the text may contain NUL bytes and invalid UTF-8 (bytes are bytes; word
 * texts are NUL-terminated but may contain NULs: use sh_word_info.len). Time and memory
 * are linear in the input; expansion output is capped (beyond the cap expansions become
 * opaque); nothing recurses on input-controlled depth (nested ${...:-...} deeper than a
 * small cap and any $( ... ) nesting are skipped iteratively and made opaque).
 *
 * Errors: an unterminated quote, $(, ${, `...` or $'...' sets *err to the location of
 * its opening character with a message saying what was expected, and sh_split returns
 * -1; the commands up to there (the last one holding the rest of the text as an opaque
 * word) are still returned. Anything else the shell would reject (a stray `fi`, `)`)
 * is skipped silently.
 */
#ifndef GPULINT_PARSERS_SHELL_WORDS_H
#define GPULINT_PARSERS_SHELL_WORDS_H

#include <stdint.h>

#include "linter/core/model.h"
#include "linter/core/srcmap.h"
#include "linter/core/util.h"

/* What opts->lookup returns for a variable that is set but whose value is unknown (an
 * ARG without default, say). NULL means "not set": defaults apply, bare use is opaque. */
extern const char sh_value_opaque[];

/* ---- the variable table ---- */

enum sh_var_state {
    SH_VAR_UNSET = 0, /* never assigned (or unset): defaults apply */
    SH_VAR_KNOWN,     /* value known */
    SH_VAR_OPAQUE,    /* assigned, value unknown */
};

/* A value an opaque variable takes on some path: each literal one it was assigned
 * (SH_VAR_MAX_ALTS at most), newest first. */
struct sh_alt {
    const char *value;
    size_t len;
    struct sh_alt *next;
};
#define SH_VAR_MAX_ALTS 8

struct sh_var {
    const char *name;
    size_t name_len;
    const char *value; /* NULL unless SH_VAR_KNOWN */
    size_t value_len;
    enum sh_var_state state;
    uint8_t nalts, nraws; /* (at most SH_VAR_MAX_ALTS each) */
    bool rival;          /* SH_VAR_KNOWN, but assigned other values before (all in alts):
                            opaque in a later text */
    unsigned text;       /* sh_vars.text when it was last assigned (the four fields above
                            and this one fill what the pointers leave: a table of a RUN
                            line's variables is cleared whole) */
    struct sh_alt *alts; /* SH_VAR_OPAQUE: literal values it was assigned */
    struct sh_alt *raws; /* values it was assigned that were not all literal, their
                            unresolved expansions as written (`--tag app:$V`), newest
                            first, SH_VAR_MAX_ALTS at most */
};

/* Variables assigned so far. Persists across sh_split calls that share it (a script in
 * pieces: Markdown blocks, Makefile recipe lines). Memory comes from `arena`. */
struct sh_vars {
    struct gl_arena *arena;
    struct sh_var *slots; /* open addressing; NULL name = empty slot */
    size_t cap, n;
    bool sourced;         /* a `.`/`source` command ran: the file it reads (never read
                             here) may assign any variable, so one never assigned here
                             is opaque, not unset (its ${X:-default} is not taken) */
    size_t read_back;     /* what readers spent reading values back (bytes and entries
                             walked: launch_build_vars.c), each table capped there, so a
                             script cannot make them read one big value again and again */
    unsigned text;        /* counts the texts split with this table (sh_split) */
};

void sh_vars_init(struct sh_vars *v, struct gl_arena *arena);
/* State of a variable; *value and *value_len are set when SH_VAR_KNOWN. */
enum sh_var_state sh_vars_get(const struct sh_vars *v, const char *name, size_t len,
                              const char **value, size_t *value_len);
/* Record an assignment. `value` NULL or `certain` false makes it opaque; a certain one
 * sets the value (a different value before it makes the variable a rival: opaque once
 * the next text begins). */
void sh_vars_assign(struct sh_vars *v, const char *name, size_t len, const char *value,
                    size_t value_len, bool certain);
/* The same, told whether the value is all literal (no expansion left unresolved) apart
 * from whether it is assigned on every path (`certain`): a literal value assigned in a
 * branch makes the variable opaque, and is one of the values it takes (sh_vars_values). */
void sh_vars_assign_literal(struct sh_vars *v, const char *name, size_t len,
                            const char *value, size_t value_len, bool literal, bool certain);
/* Has NAME been assigned or unset in the script (whatever its state now)? */
bool sh_vars_named(const struct sh_vars *v, const char *name, size_t len);
/* `unset NAME`: certain -> unset again (defaults apply), else opaque. */
void sh_vars_unset(struct sh_vars *v, const char *name, size_t len, bool certain);
/* The literal values the variable was assigned (its value when known and never another;
 * when opaque or a rival, those of its assignments that were literal: `IMG=a` then
 * `IMG=b` in a `case` or one after the other, the first
 * SH_VAR_MAX_ALTS), at most `max`, into vals/lens; the count. An opaque variable may also
 * hold others (`IMG=$(...)`): these are the values it takes on some path, not all. */
size_t sh_vars_values(const struct sh_vars *v, const char *name, size_t len,
                      const char **vals, size_t *lens, size_t max);
/* The values the variable was assigned that were not all literal, each as it was written
 * once the known parts were expanded (`--build-context app=$SRC`, `$A $B`), at most `max`;
 * the count. Only for what a value may name (a tag it holds); never a value to judge. */
size_t sh_vars_raw_values(const struct sh_vars *v, const char *name, size_t len,
                          const char **vals, size_t *lens, size_t max);

/* ---- options and results ---- */

struct sh_opts {
    /* Value of a variable the table does not know (Dockerfile ARG/ENV): a string, NULL
     * for "not set", or sh_value_opaque. May be NULL. */
    const char *(*lookup)(void *ctx, const char *name, size_t len);
    void *ctx;
    bool track_assignments; /* record assignments into the table (scripts: yes) */
    char escape;            /* the escape character: '\\' (0 means '\\') */
    struct sh_vars *vars;   /* shared table; NULL: a fresh one for this call */
    /* Documentation (Markdown and the like): angle-bracket text that starts with a letter
     * and closes on the same line (`<path to imagenet>`, `<image>`, `<your-registry>/app`)
     * is a placeholder, an opaque part of a word, never a redirection. */
    bool placeholders;
    /* IPython `!` lines: `{expr}` closed on its line is a Python expression IPython
     * substitutes before the shell runs, an opaque part of a word. */
    bool python_braces;
    /* The caller reads the commands' words (sh_cmd.words), not their sh_word_info, but
     * for the script word of a `sh -c` (sh_split_word_again needs its spans): sh_cmd.info
     * is then NULL for every command that is no `sh -c` (sh_dash_c_index < 0), and kept
     * for those that are. The infos' bytes are charged to the arena all the same, so the
     * parse-memory limit trips at the same token. (The Dockerfile RUN path.) */
    bool words_only;
    /* A whole script file (what `bash -n` checks): a reserved word or `)` / `;;` that
     * closes nothing open, or a compound command still open at the end of the text
     * (`if` without `fi`, `(` without `)`), is an error (sh_error) at that token or at
     * the opener. Off for texts that are pieces of a script (Dockerfile RUN lines,
     * Markdown fences, YAML commands, `sh -c` strings), which may be fragments. */
    bool grammar;
    /* With grammar: the script is bash's for certain (its `#!` line, a .bash or .bats
     * file), so what only bash refuses is judged too: a CR after a function's header
     * (`f()\r`, dash takes it as the body), `coproc` followed by no command or by `!`
     * (a plain command's name for sh). */
    bool grammar_bash;
    /* When set: the bodies of the command substitutions the split meets (`$(...)`, not
     * `$((...))`; backquotes) are recorded here, for a caller that reads the commands
     * inside them (the launch scan: `ID=$(docker run -d --gpus all ...)`). */
    struct sh_substs *substs;
    /* When set (cleared by the caller before the split): where each `if` and `case` of the
     * text stands, at index sh_cmd.branch - 1 (a reader that decides an arm learns which
     * ifs are nested in it: run_commands.c). */
    struct sh_branches *branches;
};

/* The `if` or `case` an `if`/`case` stands in, and its arm there (sh_cmd.branch and
 * .arm; {0, 0}: in none). */
struct sh_branch_parent {
    uint32_t branch;
    uint8_t arm;
};
struct sh_branches {
    struct sh_branch_parent *items; /* in the split's arena */
    size_t n, cap;
};

/* A command substitution's body: bytes [from, to) of the text given to sh_split. */
struct sh_subst {
    size_t from, to;
};
struct sh_substs {
    struct sh_subst *items; /* in the split's arena */
    size_t n, cap;
};

/* Bytes [out, out+len) of a word's text came from input bytes [src, src+len) when
 * `literal`; otherwise (a variable's value, a C escape) all of them came from the one
 * construct starting at input byte src. Input offsets are offsets into the text given
 * to sh_split (map them with sh_cmd.origin). `opaque`: the bytes are an expansion (or a
 * documentation placeholder) gpulint could not resolve, kept as written (`$TAG`,
 * `${REGISTRY:+$REGISTRY/}`, `$(git rev-parse HEAD)`): an opaque word is opaque exactly
 * in its opaque spans, and the rest of it is known. */
struct sh_span {
    size_t out, src, len;
    bool literal;
    bool opaque;
};

struct sh_word_info {
    size_t len;                  /* length of the word's text (it may contain NULs) */
    size_t src;                  /* input offset of the word's first byte as written (for
                                  * the later fields of a split word: the expansion) */
    const struct sh_span *spans; /* in order of `out`, covering [0, len) */
    size_t nspans;
    bool quoted;    /* some part was quoted or escaped */
    bool may_split; /* holds an unquoted opaque expansion: may stand for 0..n words */
    bool from_split;/* one of the fields of a field-split word */
};

struct sh_assign {
    const char *name;
    const char *value;      /* after quote removal and expansion; best literal if opaque */
    size_t value_len;
    struct gl_loc loc;      /* the name */
    struct gl_loc value_loc;/* the first byte after '=' */
    bool opaque;            /* value unknown (opaque expansion, array, ...) */
    bool append;            /* NAME+=value */
    bool array;             /* NAME=(...) */
};

struct sh_redir {
    int fd;                 /* explicit descriptor (2 in 2>&1), -1 when not written */
    char op[4];             /* "<" ">" ">>" ">|" "<>" "<&" ">&" "&>" "&>>" "<<" "<<-" "<<<" */
    struct gl_word target;  /* file, descriptor, here-string or heredoc delimiter */
    struct gl_loc loc;      /* the operator (or the fd before it) */
    /* heredocs (<< and <<-) only: */
    bool quoted_delim;      /* <<'EOF': the body is not expanded by the shell */
    const char *body;       /* raw body lines (NULL if the text ended first) */
    size_t body_len;
    struct gl_loc body_loc; /* first byte of the body */
    size_t body_off;        /* and its offset in the text given to sh_split */
};

struct sh_cmd {
    struct gl_word *words;      /* after quote removal and expansion, reserved words out */
    struct sh_word_info *info;  /* parallel to words (NULL with no words, and with
                                   sh_opts.words_only for a command that is no `sh -c`) */
    size_t nwords;
    struct sh_assign *assigns;  /* NAME=value prefixes */
    size_t nassigns;
    struct sh_redir *redirs;
    size_t nredirs;
    struct gl_loc loc;          /* first token of the command */
    /* What ends the command: ";" "&&" "||" "|" "|&" "&" "\n" ";;" ";&" ";;&" ")" ("" at
     * the end of the text, or before a reserved word such as `then`, `done`, `}`). */
    char sep[4];
    int depth;                  /* nesting in if/loop/case/function bodies, 0 at top */
    /* The innermost `if` or `case` the command is in: its number in the text (1 for the
     * first one opened, 0 when the command is in none) and its arm there: 0 for the if's
     * condition and `then` body, one more for each `elif` and the `else`; 1 for a case's
     * first pattern, one more for each pattern after it (at most 255). Commands of two
     * arms of one `if`/`case` never both run (but for a case's `;&` fall-through). */
    uint32_t branch;
    uint8_t arm;
    bool subshell;              /* inside ( ... ) */
    bool negated;               /* after a `!` (an odd number of them): its status inverted */
    bool condition;             /* of an if's (or elif's) condition, directly in it */
    const struct gl_srcmap *origin; /* input offsets -> original positions */
};

struct sh_error {
    bool set;
    struct gl_loc loc;   /* the opening quote or construct */
    size_t offset;       /* the same, as an offset in the text */
    const char *message; /* "expected ..." (static string) */
};

/* Split text[0..len) into simple commands. Results are allocated from `a`. Returns 0,
 * or -1 with *err set (best-effort commands are still returned). `map` may be NULL; opts
 * may be NULL (no lookup, no tracking); err may be NULL. When `a` is over its limit
 * (gl_arena_over) nothing is split: no commands, 0. */
int sh_split(struct gl_arena *a, const char *text, size_t len, const struct gl_srcmap *map,
             const struct sh_opts *opts, struct sh_cmd **cmds, size_t *ncmds,
             struct sh_error *err);

/* Split the text of word `wi` of `cmd` again as shell text (the script of `sh -c`),
 * every position mapped back through the word's spans to the original file. */
int sh_split_word_again(struct gl_arena *a, const struct sh_cmd *cmd, size_t wi,
                        const struct sh_opts *opts, struct sh_cmd **cmds, size_t *ncmds,
                        struct sh_error *err);

/* Index of the script word of `sh|bash|dash|zsh|ksh|ash|mksh [options] -c SCRIPT ...`
 * (also `/bin/sh`, `-ec`, `-xc`, `-o pipefail -c`), or -1. The word may be opaque (a
 * `sh -c "$CMD"`): callers check. A command whose info is NULL is none (see
 * sh_opts.words_only): -1 without a look. */
long sh_dash_c_index_named(const struct sh_cmd *cmd);
/* (inline: it runs for every command, and nearly all are out at the first word, whose
 * name does not end in "sh"; sh_dash_c_index_named does the rest) */
static inline long sh_dash_c_index(const struct sh_cmd *cmd)
{
    if (!cmd->nwords || !cmd->info || cmd->words[0].opaque)
        return -1;
    const char *w = cmd->words[0].text;
    size_t n = gl_word_size(&cmd->words[0]);
    if (n < 2 || w[n - 1] != 'h' || w[n - 2] != 's') /* every shell's name ends in "sh" */
        return -1;
    return sh_dash_c_index_named(cmd);
}

/* May word info `in` stand for any number of words: it holds an unquoted opaque
 * expansion and no byte that is not one (`$ARGS`, `${A}${B}`; RULES.md third round,
 * "Unquoted expansions")? A word with literal or known text beside its expansions
 * (`${IMAGE}:${TAG}`, `$PWD:/ws`, `$REGISTRY/app`) stays one word. */
static inline bool sh_word_may_be_words(const struct sh_word_info *in)
{
    if (!in->may_split)
        return false;
    for (size_t k = 0; k < in->nspans; k++)
        if (!in->spans[k].opaque && in->spans[k].len)
            return false;
    return true;
}

/* Original position of byte `off` of word `wi`'s text. */
struct gl_loc sh_word_byte_loc(const struct sh_cmd *cmd, size_t wi, size_t off);

#endif
