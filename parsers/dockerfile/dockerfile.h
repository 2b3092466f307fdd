/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile.h: a Dockerfile parser (syntax only) that accepts exactly what BuildKit's
 * parser (moby/buildkit frontend/dockerfile/parser) accepts and computes the same node
 * values, plus positions for everything.
 *
 * What it does, in BuildKit's order:
 *  - parser directives (`# syntax=`, `# escape=`, `# check=`, case-insensitive) are read
 *    from the top until the first line that is not one (a blank line ends them too);
 *  - the escape character (`\` or backtick) ends a line to continue it; comment lines
 *    and whitespace-only lines inside a continuation are dropped; the joined text keeps
 *    the indentation of continued lines;
 *  - each logical line is split into keyword, `--flags` and arguments, and the arguments
 *    are computed per keyword exactly as BuildKit does (JSON exec form with its fallback
 *    to shell form, ENV/LABEL key/value/sep triples, ARG words, HEALTHCHECK type + rest,
 *    ONBUILD's nested instruction, unknown keywords give one empty argument);
 *  - RUN/COPY/ADD (also under ONBUILD) in shell form collect heredocs (`<<EOF`, `<<-EOF`,
 *    quoted names, `3<<EOF`, several per line) from the lines that follow.
 *  - like BuildKit (bufio.Scanner), a line longer than 65535 bytes is an error, unless
 *    DF_PARSE_NO_LINE_LIMIT is given.
 *
 * Positions: gl_loc is 1-based line and 1-based byte column in the original file (the
 * UTF-8 BOM counts as 3 columns). Every argument carries a gl_srcmap so that any byte of
 * its value maps back to the original byte that produced it, across continuation lines
 * (df_arg_loc). The parser never recurses on input-controlled depth and runs in time
 * linear in the input. All memory comes from the caller's arena.
 *
 * Contract: df_parse returns NULL on error and fills *err (location of the first bad
 * byte, message saying what was expected); a file with no instruction is an error, as in
 * BuildKit. Strings in the model are NUL-terminated and may contain NUL bytes (use the
 * lengths).
 */
#ifndef GPULINT_PARSERS_DOCKERFILE_H
#define GPULINT_PARSERS_DOCKERFILE_H

#include "linter/core/srcmap.h"
#include "linter/core/util.h"

struct df_error {
    struct gl_loc loc;  /* first bad byte */
    char message[256];
};

/* A builder flag as BuildKit computes it (quotes and escapes removed): "--from=build". */
struct df_flag {
    const char *text;
    size_t len;
    struct gl_loc loc;      /* the first '-' */
    struct gl_srcmap map;   /* offsets of text -> file */
};

/* One node value (BuildKit's Node.Value of the Next chain). */
struct df_arg {
    const char *value;
    size_t len;
    struct gl_loc loc;      /* where the value starts (for an empty value: where it would) */
    struct gl_srcmap map;   /* offsets of value -> file */
};

/* ENV/LABEL pair: indexes into df_instr.args (key, value, sep triples). */
struct df_kv {
    size_t key, value, sep;
    bool equals;            /* k=v form; false for the old "ENV k v" form */
};

struct df_heredoc {
    const char *name;       /* delimiter with quotes removed */
    const char *content;    /* body exactly as captured: lines with their newlines */
    size_t content_len;
    bool expand;            /* false when any part of the delimiter was quoted */
    bool chomp;             /* <<- form (leading tabs are kept in content, as BuildKit) */
    uint64_t fd;            /* number before <<, 0 if none */
    struct gl_loc loc;      /* the heredoc word (its fd digits or first '<') */
    struct gl_loc body;     /* first byte of the content (line after the instruction) */
    uint32_t end_line;      /* the terminator line */
};

/* The instruction words BuildKit knows; DF_KW_UNKNOWN for any other word. */
enum df_keyword {
    DF_KW_UNKNOWN, DF_KW_ADD, DF_KW_ARG, DF_KW_CMD, DF_KW_COPY, DF_KW_ENTRYPOINT, DF_KW_ENV,
    DF_KW_EXPOSE, DF_KW_FROM, DF_KW_HEALTHCHECK, DF_KW_LABEL, DF_KW_MAINTAINER, DF_KW_ONBUILD,
    DF_KW_RUN, DF_KW_SHELL, DF_KW_STOPSIGNAL, DF_KW_USER, DF_KW_VOLUME, DF_KW_WORKDIR
};

struct df_instr {
    const char *keyword;        /* lowercased ("run") */
    enum df_keyword kw;         /* which one it is (looked up once, by the parser) */
    const char *keyword_orig;   /* as written ("Run") */
    struct gl_loc loc;          /* first byte of the keyword */
    uint32_t start_line, end_line; /* BuildKit's StartLine/EndLine (heredoc bodies included) */
    size_t start_off, end_off;  /* original text span in the file [start, end) */
    struct df_flag *flags;
    size_t nflags;
    struct df_arg *args;
    size_t nargs;
    bool json;                  /* exec (JSON array) form */
    struct df_kv *kvs;          /* ENV and LABEL only */
    size_t nkvs;
    struct df_heredoc *heredocs;
    size_t nheredocs;
    struct df_instr *child;     /* ONBUILD's instruction (NULL otherwise or if empty) */
    const char *line;           /* the logical line, continuations joined (Node.Original) */
    size_t line_len;
    struct gl_srcmap line_map;  /* offsets of line -> file */
};

struct df_comment {
    const char *text;   /* after the '#', without the line ending */
    size_t len;
    struct gl_loc loc;  /* the '#' */
};

struct df_directive {
    const char *name;   /* lowercased: "syntax", "escape", "check" */
    const char *value;
    struct gl_loc loc;       /* the '#' */
    struct gl_loc value_loc;
};

struct df_file {
    struct df_instr *instrs;
    size_t ninstrs;
    struct df_comment *comments;     /* every comment line that is not a directive */
    size_t ncomments;
    struct df_directive *directives;
    size_t ndirectives;
    char escape;                     /* '\\' or '`' */
};

#define DF_PARSE_NO_LINE_LIMIT 1u   /* accept lines longer than BuildKit's 64 KiB */
#define DF_PARSE_STOP_AT_UNKNOWN 2u /* stop after the first instruction whose word BuildKit
                                       does not know (docker build stops there; a template
                                       directive makes the file a template): the rest
                                       unread, and no line starts handed back */
#define DF_MAX_LINE 65535u          /* longest line BuildKit accepts, without newline */

struct df_file *df_parse(struct gl_arena *a, const char *data, size_t len, struct df_error *err);
struct df_file *df_parse_ex(struct gl_arena *a, const char *data, size_t len, unsigned flags,
                            struct df_error *err);
/* df_parse_ex, and the start of every line of data into *starts, *nstarts of them: 0,
 * then the offset after each '\n', the index gl_lines would build (the parser finds them
 * anyway). They are collected in `room` (a caller's array of roomcap, which may be 0)
 * while it holds them, then in a heap array: *starts is room or that array (the caller
 * frees it when it is not room), NULL when the parse fails or data is 4 GiB or more. */
struct df_file *df_parse_lines(struct gl_arena *a, const char *data, size_t len, unsigned flags,
                               struct df_error *err, uint32_t **starts, size_t *nstarts,
                               uint32_t *room, size_t roomcap);

/* The value of the file's `# syntax=` parser directive (among the directive lines that
 * open the file, as BuildKit reads them), or false when there is none. For inputs that
 * df_parse rejects too: the frontend the directive names decides the file's language. */
bool df_syntax_directive(const char *data, size_t len, size_t *vs, size_t *ve);

/* True when a `# syntax=` value names a frontend other than Dockerfile's own
 * (`docker/dockerfile[-upstream]` under any registry, with any tag or digest): the file is
 * then written in that frontend's language (dalec's YAML, ...), not Dockerfile's. */
bool df_foreign_frontend(const char *value, size_t len);

/* BuildKit's Node.Dump() + "\n": one "(keyword [flags] "arg"...)" line per instruction. */
void df_dump(const struct df_file *f, struct gl_buf *out);
/* Go's strconv.Quote of s (appended to out). */
void df_go_quote(struct gl_buf *out, const char *s, size_t len);

/* Original position of byte `offset` of argument `argi` ({0,0} if argi is out of range;
 * an offset past the end maps past the last byte). */
struct gl_loc df_arg_loc(const struct df_instr *in, size_t argi, size_t offset);

/* ---- word expansion (parsers/dockerfile/dockerfile_expand.c) ----
 * BuildKit's shell lexer ProcessWord: quotes are removed ('...' literal, "..." with
 * escapes of " $ and the escape char), the escape char escapes the next char, and
 * $VAR, ${VAR}, ${VAR:-w}, ${VAR-w}, ${VAR:+w}, ${VAR+w}, ${VAR:?w}, ${VAR?w},
 * ${VAR#w}, ${VAR##w}, ${VAR%w}, ${VAR%%w} (w taken literally) are expanded through
 * `lookup` (NULL = unset). An unset variable expands to "" and sets *unresolved (not
 * when a default or alternative covers it). Returns true and the expanded text in the
 * arena, or false with err (loc.line 0, loc.col = 1-based byte offset in word). */
typedef const char *(*df_lookup_fn)(void *ctx, const char *name, size_t len);
bool df_expand_word(struct gl_arena *a, const char *word, size_t len, char escape,
                    df_lookup_fn lookup, void *ctx, char **out, size_t *out_len,
                    bool *unresolved, struct df_error *err);
/* df_expand_word for a word that is NUL-terminated at len (word[len] is read: an
 * argument's value, or its tail): a word that expands to itself is returned as it is, not
 * copied (the arena is charged for the copy all the same); any other is built in
 * `scratch` (a caller's heap buffer reused from word to word; NULL: one of its own). */
bool df_expand_text(struct gl_arena *a, const char *word, size_t len, char escape,
                    df_lookup_fn lookup, void *ctx, struct gl_buf *scratch, const char **out,
                    size_t *out_len, bool *unresolved, struct df_error *err);

#endif
