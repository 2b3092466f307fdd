/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doc_blocks.h: the code blocks of a document read as shell (Markdown fences, RST code
 * directives, a notebook's Markdown cells), shared by the document readers.
 *
 * A document text is walked line by line with a cursor; a block is the lines of a fence or
 * a directive's body. Reading one (doc_read_block) makes its shell text in the doc's
 * arena, with a map from its bytes to the file's positions, and hands it to the launch
 * scan. The text a block is cut from is either the document itself (positions are its
 * lines and columns) or a text derived from it (a notebook cell's joined source strings),
 * whose map gives every byte's position in the file (struct doc_src).
 */
#ifndef GPULINT_DOC_BLOCKS_H
#define GPULINT_DOC_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "linter/core/srcmap.h"
#include "parsers/launch/launch_shell.h"

/* The text blocks are read from. `map` NULL: t is the document (the line numbers the
 * walker counts, and columns, are the file's); else the position of t's byte k in the
 * file is gl_srcmap_loc(map, k). */
struct doc_src {
    const char *t;
    size_t len;
    const struct gl_srcmap *map;
};

struct doc_line {
    size_t start, end; /* [start, end) without the newline */
};

/* Where the reader is in a text: the next line starts at i. With `starts` (the start of
 * every line of the text), a line's end is the next start's '\n', with no scan; without,
 * it is found by memchr. */
struct doc_cursor {
    const char *t;
    size_t len, i;
    const uint32_t *starts; /* NULL, or starts[k] == i */
    size_t k, n;
};

/* The line at the cursor, when it starts before `to` (a line ending at or past `to`
 * ends there only when `to` is a line start or the text's end, as every caller's is). */
static inline bool doc_next_line(struct doc_cursor *c, size_t to, struct doc_line *l)
{
    if (c->i >= to)
        return false;
    l->start = c->i;
    size_t e;
    if (c->starts) {
        e = c->k + 1 < c->n ? c->starts[c->k + 1] - 1 : c->len;
        c->k++;
    } else {
        const char *nl = memchr(c->t + c->i, '\n', c->len - c->i);
        e = nl ? (size_t)(nl - c->t) : c->len;
    }
    l->end = e;
    c->i = e + 1;
    return true;
}

/* A block's language and indentation (a fence's, or a directive's body's). */
struct doc_fence {
    char ch;
    size_t count, indent;
    const char *info;
    size_t info_len;
};

/* Languages, lower case, NULL-terminated: read as shell; whose launch lines only are read
 * (Python); that may hold a systemd unit. */
extern const char *const doc_shell_langs[];
extern const char *const doc_python_langs[];
extern const char *const doc_unit_langs[];

/* Is the block's language one of `names` (any case matches)? Quarto and R Markdown write
 * it in braces with options: ```{bash}, ```{bash, echo=FALSE}, ```{.bash}. */
bool doc_info_is(const struct doc_fence *f, const char *const *names);
/* Is t[s, e) blanks only? */
bool doc_blank(const char *t, size_t s, size_t e);
/* Does a line from the cursor's up to `to` start a launch (after blanks and an optional
 * prompt: docker, podman, srun, sudo, a tool that builds an image, ...)? */
bool doc_any_launcher(struct doc_cursor c, size_t to);

/* A section about Jetson (its heading names a jetson, tegra, l4t, jetpack, orin or xavier,
 * any case) lasts to the next heading of its level or above: its launches are on a Jetson
 * (launch_kind.h). */
struct doc_jetson {
    int at; /* the level of the heading that opened it, 0 when none is open */
};
/* A heading of `level` (1 the highest) whose text is t[s, e). */
void doc_jetson_heading(struct doc_jetson *j, struct gl_launch_scan *scan, int level,
                        const char *t, size_t s, size_t e);

/* One variable table for the whole document (its blocks run in one shell session, as a
 * reader follows them), and `<path to data>` is text to fill in. */
void doc_scan_init(struct gl_doc *doc, struct sh_vars *vars, struct gl_launch_scan *scan);

/* The line number in the file of src's line `line` starting at byte `off`. */
static inline uint32_t doc_src_line(const struct doc_src *src, uint32_t line, size_t off)
{
    return src->map ? gl_srcmap_loc(src->map, off).line : line;
}

/* One block read as shell: the lines from the cursor's up to `to`, `first_line` the
 * first's number (in src's lines), the fence's indentation off. `launch_lines`: a block
 * of another language (Python): only its lines that start a launch or a build and the
 * lines that continue them are shell. Prompts (`$ `) mark commands in console blocks and
 * in blocks whose first line has one. */
void doc_read_block(struct gl_launch_scan *scan, const struct doc_src *src,
                    const struct doc_fence *f, struct doc_cursor c, size_t to,
                    uint32_t first_line, bool launch_lines);
/* One block that holds a systemd unit: the containers it runs (launch_systemd.h). */
void doc_read_unit_block(struct gl_launch_scan *scan, const struct doc_src *src,
                         const struct doc_fence *f, struct doc_cursor c, size_t to,
                         uint32_t first_line);
/* A block that holds a Dockerfile: tagged dockerfile or containerfile (docker, which some
 * write for shell commands too), or of no language, whose first instruction after comments
 * and blanks is FROM or ARG (the content test of Dockerfiles named nothing, inputs.h): the
 * bytes [start, end) of src, its first line `line`, its lines indented by f->indent. Noted
 * in doc->embedded for the engine, which lints it as a Dockerfile of its own (model.h
 * gl_embedded); only in a text that is the document itself (src->map NULL: a notebook's
 * cells have positions of their own). */
void doc_note_dockerfile(struct gl_doc *doc, const struct doc_src *src,
                         const struct doc_fence *f, size_t start, size_t end, uint32_t line);
/* Past the doc's parse-memory the reader stops after the block that starts at byte `off`
 * of src (its line `line`, column col0 + 1) and says so there, unless what it read said it
 * first. */
bool doc_stopped_at(struct gl_doc *doc, const struct doc_src *src, uint32_t line, size_t off,
                    size_t col0);

#endif
