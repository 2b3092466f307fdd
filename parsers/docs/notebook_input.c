/* SPDX-License-Identifier: Apache-2.0 */
/*
 * notebook_input.c: Jupyter notebooks (`*.ipynb`) -> the launches of their shell lines.
 *
 * A notebook is JSON; it is read with the YAML reader (JSON is YAML, and the YAML tree
 * keeps the position of every string, which a finding needs: json-c keeps none). Only
 * a notebook that names a launcher or a build tool (docker, podman, nerdctl, apptainer,
 * singularity, srun, enroot, buildah) is read at all: the others hold no launch, and
 * their outputs (images as base64) can be large.
 *
 * (Surrogate escapes, which JSON allows and YAML does not, are read as U+FFFD.)
 *
 * Read (nbformat 4): every code cell's `source` (a list of strings, joined, or one
 * string), positions mapped back to the characters inside the JSON strings (escapes
 * included):
 *  - a cell whose first line is the cell magic `%%bash`, `%%sh`, `%%script bash|sh` or
 *    `%%shell` is one shell script (its commands share variables);
 *  - in other cells, a line whose first non-blank byte is `!` (or `!!`) is a shell
 *    command (IPython's system call), continued over the next lines while a line ends
 *    with `\`. Each runs in its own shell (no variables carry over), and `{expr}` in it is
 *    a Python expression IPython substitutes: an opaque part of a word (sh_opts).
 * Markdown cells are read as a Markdown file is (markdown_walk.h), one walk over all of
 * them in order: their fences (```bash, untagged ones that start a launch, ...) share their
 * shell variables, sections and allocations go on from a cell to the next. Not read:
 * nbformat 3 worksheets, `%env`. No inline ignores.
 */
#include <string.h>

#include "linter/core/inputs.h"
#include "linter/core/text.h"
#include "parsers/docs/markdown_walk.h"
#include "parsers/launch/launch_shell.h"
#include "parsers/yaml/yaml_tree.h"

static const char *const launch_words[] = {"docker", "podman", "nerdctl", "apptainer",
                                           "singularity", "srun", "sbatch", "salloc",
                                           "enroot", "buildah", "mlserver", "bentoml"};

static bool names_a_launcher(const char *t, size_t len)
{
    for (size_t i = 0; i < sizeof launch_words / sizeof launch_words[0]; i++)
        if (memmem(t, len, launch_words[i], strlen(launch_words[i])))
            return true;
    return false;
}

/* One code cell's source, joined, with the map of its bytes into the file. */
struct cell {
    struct gl_buf text;
    struct gl_srcmap map;
};

static void cell_add(struct cell *c, struct yt_stream *s, struct yt_node *str)
{
    if (!yt_is_scalar(str) || !str->len)
        return;
    struct gl_srcmap m;
    gl_srcmap_init(&m, s->arena);
    yt_scalar_srcmap(s, str, &m);
    gl_srcmap_append(&c->map, c->text.len, &m, 0, str->len);
    gl_buf_add(&c->text, str->value, str->len);
}

static bool starts_with_word(const char *t, size_t len, const char *w)
{
    size_t n = strlen(w);
    return len >= n && !memcmp(t, w, n) && (len == n || t[n] == ' ' || t[n] == '\t' ||
                                             t[n] == '\r' || t[n] == '\n');
}

static bool shell_cell_magic(const char *t, size_t len)
{
    if (starts_with_word(t, len, "%%bash") || starts_with_word(t, len, "%%sh") ||
        starts_with_word(t, len, "%%shell"))
        return true;
    if (!starts_with_word(t, len, "%%script"))
        return false;
    size_t i = 8;
    while (i < len && (t[i] == ' ' || t[i] == '\t'))
        i++;
    return starts_with_word(t + i, len - i, "bash") || starts_with_word(t + i, len - i, "sh");
}

/* Scan bytes [from, to) of the cell as one shell text. */
static void scan_part(struct gl_doc *doc, const struct cell *c, size_t from, size_t to,
                      bool ipython_line)
{
    if (from >= to)
        return;
    struct gl_srcmap m;
    gl_srcmap_init(&m, &doc->arena);
    gl_srcmap_append(&m, 0, &c->map, from, to);
    struct gl_launch_scan scan;
    gl_launch_scan_init(&scan, doc, NULL);
    scan.python_braces = ipython_line;
    const char *copy = gl_arena_strndup(&doc->arena, c->text.data + from, to - from);
    gl_launch_scan_text(&scan, copy, to - from, &m);
}

static size_t line_end(const char *t, size_t len, size_t i)
{
    const char *nl = memchr(t + i, '\n', len - i);
    return nl ? (size_t)(nl - t) : len;
}

static void code_cell(struct gl_doc *doc, const struct cell *c)
{
    const char *t = c->text.data;
    size_t len = c->text.len;
    if (!len)
        return;
    if (shell_cell_magic(t, len)) {
        size_t first = line_end(t, len, 0);
        scan_part(doc, c, first < len ? first + 1 : len, len, false);
        return;
    }
    for (size_t i = 0; i < len;) {
        size_t e = line_end(t, len, i), k = i;
        while (k < e && (t[k] == ' ' || t[k] == '\t'))
            k++;
        if (k == e || t[k] != '!') {
            i = e + 1;
            continue;
        }
        k += k + 1 < e && t[k + 1] == '!' ? 2 : 1;
        size_t end = e; /* continued while a line ends with a backslash */
        for (;;) {
            size_t b = end;
            while (b > k && (t[b - 1] == '\r' || t[b - 1] == ' ' || t[b - 1] == '\t'))
                b--;
            if (b == k || t[b - 1] != '\\' || end >= len)
                break;
            end = line_end(t, len, end + 1);
        }
        scan_part(doc, c, k, end, true);
        i = end + 1;
    }
}

/* JSON writes a character outside the BMP as a surrogate pair (`\ud83d\ude00`), which
 * YAML rejects: the text the YAML reader gets has each surrogate escape replaced by
 * `\uFFFD`, of the same length (every position stays). NULL when there is none. */
static char *without_surrogates(struct gl_arena *a, const char *t, size_t len)
{
    char *copy = NULL;
    for (size_t i = 0; i + 1 < len; i++) {
        if (t[i] != '\\')
            continue;
        int h[4] = {-1, -1, -1, -1};
        for (size_t k = 0; t[i + 1] == 'u' && k < 4 && i + 2 + k < len; k++)
            h[k] = gl_hex_value(t[i + 2 + k]);
        if (h[0] == 0xD && h[1] >= 8 && h[2] >= 0 && h[3] >= 0) {
            if (!copy)
                copy = gl_arena_strndup(a, t, len);
            memcpy(copy + i + 2, "FFFD", 4);
        }
        i++; /* the escaped byte */
    }
    return copy;
}

/* The pairs read: the root's `cells`, and each cell's `cell_type` and `source`. The rest
 * (outputs, whose images and logs are most of a large notebook's bytes, metadata,
 * execution counts) is never kept: the tree of a notebook is the size of its sources. */
static bool keep(size_t depth, const char *key, size_t len)
{
#define KEY_IS(lit) (len == sizeof lit - 1 && !memcmp(key, lit, len))
    if (depth == 1)
        return KEY_IS("cells");
    if (depth == 3)
        return KEY_IS("cell_type") || KEY_IS("source");
    return true;
#undef KEY_IS
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    if (!names_a_launcher(doc->text, doc->len))
        return;
    const char *text = without_surrogates(&doc->arena, doc->text, doc->len);
    struct yt_stream s;
    yt_load_keeping(&s, doc, text ? text : doc->text, doc->len, keep);
    struct yt_node *root = s.ndocs && s.docs[0] && s.docs[0]->complete ? s.docs[0] : NULL;
    struct yt_node *cells = yt_get(&s, root, "cells", NULL);
    struct md_walk *md = NULL; /* the Markdown cells' walk, from the first one */
    for (size_t i = 0; yt_is_map(root) && yt_is_seq(cells) && i < cells->nitems; i++) {
        struct yt_node *cell = yt_item(&s, cells, i);
        struct yt_node *type = yt_get(&s, cell, "cell_type", NULL);
        bool markdown = yt_scalar_is(type, "markdown");
        if (!markdown && !yt_scalar_is(type, "code"))
            continue;
        struct yt_node *src = yt_get(&s, cell, "source", NULL);
        struct cell c;
        gl_buf_init(&c.text);
        gl_srcmap_init(&c.map, &doc->arena);
        if (yt_is_scalar(src))
            cell_add(&c, &s, src);
        for (size_t k = 0; yt_is_seq(src) && k < src->nitems; k++)
            cell_add(&c, &s, yt_item(&s, src, k));
        if (!markdown) {
            code_cell(doc, &c);
        } else if (c.text.len) {
            if (!md) {
                md = gl_arena_take(&doc->arena, sizeof *md);
                md_walk_init(md, doc);
            }
            struct doc_src src = {c.text.data, c.text.len, &c.map};
            if (!md_walk_text(md, &src, (struct doc_cursor){.t = src.t, .len = src.len}))
                cells = NULL; /* past parse-memory: said, and the walk stops */
        }
        gl_buf_free(&c.text);
    }
    yt_report(doc, &s);
}

static bool by_name(const char *path, const char *b)
{
    (void)path;
    return gl_has_suffix(b, ".ipynb");
}

const struct gl_input_type gl_input_notebook = {
    .kind = GL_IN_NOTEBOOK,
    .name = "notebook",
    .priority = 10,
    .by_name = by_name,
    .parse = parse,
};
