/* SPDX-License-Identifier: Apache-2.0 */
/* rst_input.c: launches in reStructuredText code directives (see linter/core/inputs.h).
 *
 * `*.rst`: `.. code-block:: bash` (also `code::`, `sourcecode::`, and sphinx-prompt's
 * `prompt:: bash $`) in a shell language, read as a Markdown fence of that language is
 * (doc_blocks.h); a directive of no language, or a literal block (after a paragraph ending
 * in `::`), when one of its lines starts a launch, as an untagged Markdown fence; other
 * languages (`text`, `python`) are never read. The blocks of a file share their shell
 * variables. A section titled for Jetson makes its launches Jetson ones, as a Markdown
 * heading does. */
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/docs/doc_blocks.h"

static size_t indent_of(const char *t, const struct doc_line *l)
{
    size_t p = l->start;
    while (p < l->end && t[p] == ' ')
        p++;
    return p - l->start;
}

/* What a line opens in reStructuredText: a code directive of a shell or Python language
 * (read; Python as a Markdown Python fence is), or one of no language (`.. code-block::`
 * alone, or a literal block: the indented lines after a paragraph that ends in `::`, or
 * after a `::` alone). Those are read when a line of them starts a launch, as an untagged
 * Markdown fence: a literal block is as often output or another language as a command,
 * and then no line of it starts a launch. */
enum rst_open { RST_NONE, RST_SHELL, RST_UNTAGGED, RST_OTHER /* code of another language */ };

/* Does the text [p, e) of a line (not a directive: no `.. `) end in `::`, the mark of a
 * literal block after it (`Run it::`, `::` alone)? Not a `..` comment line, and not a line
 * of three colons or more: a title's adornment (`Usage` underlined `:::::`) or a
 * transition, after which docutils reads an indented block as a block quote. */
static bool literal_intro(const char *t, size_t p, size_t e)
{
    while (e > p && (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\r'))
        e--;
    size_t colons = 0;
    while (colons < e - p && t[e - 1 - colons] == ':')
        colons++;
    return colons >= 2 && !(colons == e - p && colons >= 3) &&
           !(e - p >= 2 && t[p] == '.' && t[p + 1] == '.');
}

/* f gets the language; *indent the directive's own indentation. */
static enum rst_open rst_directive(const char *t, const struct doc_line *l, struct doc_fence *f,
                                   size_t *indent)
{
    static const char *const names[] = {"code-block::", "code::", "sourcecode::", "prompt::",
                                        NULL};
    size_t p = l->start + indent_of(t, l);
    *indent = indent_of(t, l);
    if (l->end - p < 3 || memcmp(t + p, ".. ", 3)) {
        *f = (struct doc_fence){0}; /* (a literal block has no language) */
        return literal_intro(t, p, l->end) ? RST_UNTAGGED : RST_NONE;
    }
    p += 3;
    size_t k = 0;
    while (names[k] && !(l->end - p >= strlen(names[k]) && !memcmp(t + p, names[k], strlen(names[k]))))
        k++;
    if (!names[k])
        return RST_NONE;
    p += strlen(names[k]);
    while (p < l->end && t[p] == ' ')
        p++;
    size_t e = p;
    while (e < l->end && t[e] != ' ' && t[e] != '\r')
        e++;
    *f = (struct doc_fence){.info = t + p, .info_len = e - p};
    if (!f->info_len)
        return RST_UNTAGGED;
    return doc_info_is(f, doc_shell_langs) || doc_info_is(f, doc_python_langs) ? RST_SHELL
                                                                              : RST_OTHER;
}

/* Section titles (docutils, "Sections"): a line of text at the left margin underlined by
 * a line of one punctuation character repeated, as long as the text or at least 4 long,
 * optionally overlined by the same character too. Levels are not fixed: each style (the
 * character, with or without an overline) is the level of its first use. */
#define RST_TITLE_STYLES 16

struct rst_titles {
    struct doc_line prev;  /* the line before the current one (text: a title's candidate) */
    char prev_adorn;   /* its adornment character, 0 when it is none */
    char before_adorn; /* the adornment character of the line before it, 0 when none */
    char style[RST_TITLE_STYLES];
    bool over[RST_TITLE_STYLES];
    int nstyles;
};

/* The character line l repeats from the left margin (trailing blanks aside), when it is
 * an adornment (docutils' punctuation), else 0. */
static char rst_adornment(const char *t, const struct doc_line *l)
{
    char c = l->start < l->end ? t[l->start] : 0;
    if (!c || !strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c))
        return 0;
    size_t e = l->end;
    while (e > l->start && (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\r'))
        e--;
    for (size_t p = l->start; p < e; p++)
        if (t[p] != c)
            return 0;
    return e - l->start >= 2 ? c : 0;
}

/* The section level line l makes as the underline of the line before it, 0 when it is
 * none: the previous line is text at the margin and l an adornment long enough. */
static int rst_title_level(struct rst_titles *r, const char *t, const struct doc_line *l)
{
    char c = rst_adornment(t, l);
    const struct doc_line *p = &r->prev;
    int level = 0;
    size_t plen = p->end - p->start;
    while (plen && (t[p->start + plen - 1] == ' ' || t[p->start + plen - 1] == '\r'))
        plen--;
    size_t llen = l->end - l->start;
    if (c && !r->prev_adorn && plen && t[p->start] != ' ' && t[p->start] != '\t' &&
        (llen >= plen || llen >= 4)) {
        bool over = r->before_adorn == c;
        for (int k = 0; k < r->nstyles && !level; k++)
            if (r->style[k] == c && r->over[k] == over)
                level = k + 1;
        if (!level && r->nstyles < RST_TITLE_STYLES) {
            r->style[r->nstyles] = c;
            r->over[r->nstyles] = over;
            level = ++r->nstyles;
        }
    }
    r->before_adorn = r->prev_adorn;
    r->prev_adorn = c;
    r->prev = *l;
    return level;
}

static void parse_rst(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    const char *t = doc->text;
    size_t len = doc->len;
    struct sh_vars vars;
    struct gl_launch_scan scan;
    doc_scan_init(doc, &vars, &scan);
    struct doc_src src = {t, len, NULL};
    struct doc_cursor c = {.t = t, .len = len};
    struct doc_line l;
    struct rst_titles titles = {0};
    struct doc_jetson jetson = {0};
    for (uint32_t line = 1; doc_next_line(&c, len, &l); line++) {
        struct doc_fence f;
        size_t d;
        struct doc_line title = titles.prev;
        int level = rst_title_level(&titles, t, &l);
        if (level) /* (a section about Jetson: its docker runs are on a Jetson) */
            doc_jetson_heading(&jetson, &scan, level, t, title.start, title.end);
        enum rst_open open = rst_directive(t, &l, &f, &d);
        if (open == RST_NONE)
            continue;
        /* options (`:linenos:`) and blank lines, then the body: every line indented more
         * than the directive, blank lines included, up to the first that is not. The body
         * is code or literal text, never markup: the scan goes on after it (so nested
         * blocks are not walked again: one pass over the file) */
        size_t body = len, body_end = len;
        struct doc_cursor k = c, body_at = c, at = c;
        uint32_t body_line = 0, kl = line;
        struct doc_line bl;
        for (; doc_next_line(&k, len, &bl); at = k) {
            kl++;
            bool empty = doc_blank(t, bl.start, bl.end);
            size_t ind = indent_of(t, &bl);
            if (!empty && ind <= d) {
                body_end = bl.start;
                kl--; /* (that line is the scan's next) */
                break;
            }
            if (body == len && !empty && t[bl.start + ind] != ':') {
                body = bl.start;
                body_at = at;
                body_line = kl;
                f.indent = ind;
            }
        }
        if (body < body_end && open != RST_OTHER &&
            (open == RST_SHELL || doc_any_launcher(body_at, body_end)))
            doc_read_block(&scan, &src, &f, body_at, body_end, body_line,
                           doc_info_is(&f, doc_python_langs));
        else if (body < body_end)
            doc_note_dockerfile(doc, &src, &f, body, body_end, body_line);
        c = body_end < len ? at : k;
        uint32_t directive_line = line;
        line = kl;
        if (doc_stopped_at(doc, &src, directive_line, l.start + d, d))
            break;
    }
    gl_launch_scan_pragmas(&scan);
}

static bool rst_by_name(const char *path, const char *base)
{
    (void)path;
    return gl_has_suffix(base, ".rst");
}

const struct gl_input_type gl_input_rst = {
    .kind = GL_IN_RST,
    .name = "rst",
    .priority = 41,
    .by_name = rst_by_name,
    .candidate = NULL,
    .by_content = NULL,
    .parse = parse_rst,
};

