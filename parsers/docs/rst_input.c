/* SPDX-License-Identifier: Apache-2.0 */
/* rst_input.c: launches in reStructuredText code directives (see linter/core/inputs.h).
 *
 * `*.rst`: `.. code-block:: bash` (also `code::`, `sourcecode::`, and sphinx-prompt's
 * `prompt:: bash $`) in a shell language, read as a Markdown fence of that language is
 * (doc_blocks.h); a directive of no language when one of its lines starts a launch, as an
 * untagged Markdown fence; other languages (`text`, `python`) and literal `::` blocks are
 * never read. The blocks of a file share their shell variables. */
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
 * alone: read when a line of it starts a launch, as an untagged Markdown fence). A literal
 * block (a paragraph ending in `::`) is never read: it is as often output or another
 * language as a command. */
enum rst_open { RST_NONE, RST_SHELL, RST_UNTAGGED };

/* f gets the language; *indent the directive's own indentation. */
static enum rst_open rst_directive(const char *t, const struct doc_line *l, struct doc_fence *f,
                                   size_t *indent)
{
    static const char *const names[] = {"code-block::", "code::", "sourcecode::", "prompt::",
                                        NULL};
    size_t p = l->start + indent_of(t, l);
    *indent = indent_of(t, l);
    if (l->end - p < 3 || memcmp(t + p, ".. ", 3))
        return RST_NONE;
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
    return doc_info_is(f, doc_shell_langs) || doc_info_is(f, doc_python_langs) ? RST_SHELL : RST_NONE;
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
    for (uint32_t line = 1; doc_next_line(&c, len, &l); line++) {
        struct doc_fence f;
        size_t d;
        enum rst_open open = rst_directive(t, &l, &f, &d);
        if (open == RST_NONE)
            continue;
        /* options (`:linenos:`) and blank lines, then the body: every line indented more
         * than the directive, blank lines included, up to the first that is not */
        size_t body = len, body_end = len;
        struct doc_cursor k = c, body_at = c;
        uint32_t body_line = 0, kl = line;
        struct doc_line bl;
        for (struct doc_cursor at = k; doc_next_line(&k, len, &bl); at = k) {
            kl++;
            bool empty = doc_blank(t, bl.start, bl.end);
            size_t ind = indent_of(t, &bl);
            if (!empty && ind <= d) {
                body_end = bl.start;
                break;
            }
            if (body == len && !empty && t[bl.start + ind] != ':') {
                body = bl.start;
                body_at = at;
                body_line = kl;
                f.indent = ind;
            }
        }
        if (body < body_end && (open == RST_SHELL || doc_any_launcher(body_at, body_end)))
            doc_read_block(&scan, &src, &f, body_at, body_end, body_line,
                           doc_info_is(&f, doc_python_langs));
        if (doc_stopped_at(doc, &src, line, l.start + d, d))
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

