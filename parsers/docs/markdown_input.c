/* SPDX-License-Identifier: Apache-2.0 */
/* markdown_input.c: launches in Markdown code blocks (see linter/core/inputs.h).
 *
 * `*.md`, `*.mdx`, `*.markdown`, Quarto `*.qmd`, R Markdown `*.Rmd`: the whole file is one
 * walk of markdown_walk.h (which blocks are read, and how). Every position is that of the
 * Markdown file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "linter/core/lines.h"
#include "linter/core/newline.h"
#include "parsers/docs/markdown_walk.h"

static bool by_name(const char *path, const char *base)
{
    (void)path;
    /* (each suffix has one dot: the name ends with it when its last dot starts it) */
    const char *dot = strrchr(base, '.');
    return dot && (gl_streq(dot, ".md") || gl_streq(dot, ".mdx") || gl_streq(dot, ".markdown") ||
                   gl_streq(dot, ".qmd") || gl_streq(dot, ".Rmd") || gl_streq(dot, ".rmd"));
}

/* Lines a table of line starts is kept for (4 bytes a line: a text of more lines is read
 * with memchr, and its index found later as before). */
#define STARTS_MAX ((size_t)1 << 20)

/* The start of every line of t[0..len) (0, then the offset after each '\n'), in one
 * pass (newline.h); NULL past STARTS_MAX lines. The caller frees it. */
static uint32_t *line_starts(const char *t, size_t len, size_t *n)
{
    if (len > UINT32_MAX)
        return NULL;
    size_t cap = 256, k = 0;
    uint32_t *starts = xmalloc(cap * sizeof *starts);
    starts[k++] = 0;
    for (size_t base = 0; base < len; base += 64) {
        for (uint64_t b = gl_nl_window(t, len, base); b; b &= b - 1) {
            if (k == cap) {
                if (cap >= STARTS_MAX) {
                    free(starts);
                    return NULL;
                }
                starts = xrealloc(starts, (cap *= 2) * sizeof *starts);
            }
            starts[k++] = (uint32_t)(base + (size_t)__builtin_ctzll(b)) + 1;
        }
    }
    *n = k;
    return starts;
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct md_walk w;
    md_walk_init(&w, doc);
    /* the lines found once: walked here, and handed to the doc's line index, which
     * copies them when it is first asked for a position (the first image reference),
     * taking the room it takes when it finds them itself, at the same moment */
    struct doc_cursor c = {.t = doc->text, .len = doc->len};
    c.starts = line_starts(doc->text, doc->len, &c.n);
    if (c.starts) {
        if (doc->lines.text != doc->text)
            gl_lines_init(&doc->lines, &doc->arena, doc->text, doc->len);
        gl_lines_known32(&doc->lines, c.starts, c.n);
    }
    struct doc_src src = {doc->text, doc->len, NULL};
    md_walk_text(&w, &src, c);
    md_walk_end(&w);
    gl_lines_unknown(&doc->lines); /* (copied by now, or found again when asked) */
    free((void *)c.starts);
}

const struct gl_input_type gl_input_markdown = {
    .kind = GL_IN_MARKDOWN,
    .name = "markdown",
    .priority = 40,
    .by_name = by_name,
    .candidate = NULL,
    .by_content = NULL,
    .parse = parse,
};
