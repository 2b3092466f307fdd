/* SPDX-License-Identifier: Apache-2.0 */
/* markdown_walk.c: the launches in a Markdown text's code blocks (markdown_walk.h). */
#include <ctype.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "linter/core/util.h"
#include "parsers/docs/markdown_walk.h"
#include "parsers/launch/systemd/launch_systemd.h"

/* The level (1-6) of an ATX heading line (`## Evaluations`: up to 3 spaces, 1-6 `#`, then
 * a blank or the end), 0 for any other line. */
static int heading_level(const char *t, const struct doc_line *l)
{
    size_t p = l->start, k = 0;
    while (p < l->end && t[p] == ' ' && k < 3)
        p++, k++;
    int n = 0;
    while (p < l->end && t[p] == '#' && n < 7)
        p++, n++;
    if (n < 1 || n > 6 || (p < l->end && t[p] != ' ' && t[p] != '\t' && t[p] != '\r'))
        return 0;
    return n;
}

/* A heading of the given level: an interactive `salloc` holds for the rest of its section
 * (a heading of its section's level or above, `## Evaluations` after `## Debugging`,
 * starts text that is not run in it; a salloc above every heading holds for the whole
 * document), and a section about Jetson lasts to the next heading of its level or above. */
static void heading(struct md_walk *w, int level, const char *t, const struct doc_line *l)
{
    w->section = level;
    if (w->scan.alloc && w->alloc_at && level <= w->alloc_at)
        w->scan.alloc = NULL;
    doc_jetson_heading(&w->jetson, &w->scan, level, t, l->start, l->end);
}

/* Is the line a fence opening? (up to 16 columns of indent: lists nest) */
static bool fence_open(const char *t, const struct doc_line *l, struct doc_fence *f)
{
    size_t p = l->start;
    while (p < l->end && t[p] == ' ' && p - l->start < 16)
        p++;
    if (p >= l->end || (t[p] != '`' && t[p] != '~'))
        return false;
    size_t q = p;
    while (q < l->end && t[q] == t[p])
        q++;
    if (q - p < 3)
        return false;
    f->ch = t[p];
    f->count = q - p;
    f->indent = p - l->start;
    while (q < l->end && (t[q] == ' ' || t[q] == '\t'))
        q++;
    size_t e = q;
    while (e < l->end && t[e] != ' ' && t[e] != '\t' && t[e] != '\r' && t[e] != '`')
        e++;
    if (f->ch == '`' && memchr(t + q, '`', l->end - q))
        return false; /* inline code, not a fence */
    while (q < e && (t[q] == '{' || t[q] == '.'))
        q++;
    while (e > q && (t[e - 1] == '}' || t[e - 1] == ','))
        e--;
    f->info = t + q;
    f->info_len = e - q;
    return true;
}

static bool fence_close(const char *t, const struct doc_line *l, const struct doc_fence *f)
{
    size_t p = l->start;
    while (p < l->end && t[p] == ' ' && p - l->start < 16)
        p++;
    size_t q = p;
    while (q < l->end && t[q] == f->ch)
        q++;
    if (q - p < f->count)
        return false;
    while (q < l->end && (t[q] == ' ' || t[q] == '\t' || t[q] == '\r'))
        q++;
    return q == l->end;
}

/* An HTML comment block (CommonMark's HTML block of kind 2): a line that starts with `<!--`
 * after up to 3 spaces opens it, the first line holding `-->` (the same one, or a later
 * one) closes it. What is inside is never rendered: a fence in a commented-out passage is
 * no code block, and its commands are shown to no reader (optimum-nvidia's README). */
static bool comment_open(const char *t, size_t p, size_t e)
{
    return e - p >= 4 && !memcmp(t + p, "<!--", 4);
}

static bool has_comment_end(const char *t, size_t s, size_t e)
{
    return s < e && memmem(t + s, e - s, "-->", 3) != NULL;
}

/* MyST (Sphinx's Markdown) writes directives as fences with the name in braces. Most hold
 * Markdown (```{note}, ````{tab-item} Title with a ```bash fence inside): their fence
 * lines open and close a container, and what is between is read as the rest of the text.
 * A code directive (```{code-block} bash, ```{code} sh, ```{sourcecode}, ```{prompt}) is a
 * fence of the language written after it. Quarto's and R Markdown's ```{bash} chunks are
 * neither: their braces hold the language. */
static const char *const myst_markdown[] = {
    "note", "warning", "tip", "important", "hint", "caution", "attention", "danger",
    "error", "seealso", "admonition", "dropdown", "tab-item", "tab-set", "tab", "group-tab",
    "tabbed", "card", "grid", "grid-item", "grid-item-card", "div", "container", "topic",
    "sidebar", "margin", "only", "versionadded", "versionchanged", "deprecated", NULL};
static const char *const myst_code[] = {"code-block", "code", "sourcecode", "prompt", NULL};

#define MYST_DEPTH 8 /* directives nested deeper are read as code blocks, as before */

struct myst_stack {
    struct doc_fence open[MYST_DEPTH];
    size_t n;
};

/* Was the fence's name written in braces (`{name}`)? */
static bool braced(const char *t, const struct doc_fence *f)
{
    return f->info_len && f->info > t && f->info[-1] == '{' &&
           f->info[f->info_len] == '}';
}

/* A code directive's language: the word after `{code-block}` on its line (none: untagged). */
static void myst_language(const char *t, const struct doc_line *l, struct doc_fence *f)
{
    size_t q = (size_t)(f->info + f->info_len - t) + 1; /* past the `}` */
    while (q < l->end && (t[q] == ' ' || t[q] == '\t'))
        q++;
    size_t e = q;
    while (e < l->end && t[e] != ' ' && t[e] != '\t' && t[e] != '\r')
        e++;
    f->info = t + q;
    f->info_len = e - q;
}

/* At a fence opening f on line l: true when it opens a MyST directive that holds Markdown
 * (pushed on st); a code directive gets its language in f and is read as a fence. */
static bool myst_open(struct myst_stack *st, const char *t, const struct doc_line *l,
                      struct doc_fence *f)
{
    if (!braced(t, f))
        return false;
    if (doc_info_is(f, myst_code)) {
        myst_language(t, l, f);
        return false;
    }
    if (!doc_info_is(f, myst_markdown) || st->n == MYST_DEPTH)
        return false;
    st->open[st->n++] = *f;
    return true;
}

void md_walk_init(struct md_walk *w, struct gl_doc *doc)
{
    w->doc = doc;
    doc_scan_init(doc, &w->vars, &w->scan);
    w->section = w->alloc_at = 0;
    w->jetson.at = 0;
}

void md_walk_end(struct md_walk *w)
{
    gl_launch_scan_pragmas(&w->scan);
}

bool md_walk_text(struct md_walk *w, const struct doc_src *src, struct doc_cursor c)
{
    const char *t = src->t;
    size_t len = src->len;
    struct gl_launch_scan *scan = &w->scan;
    struct doc_line l;
    struct myst_stack myst = {.n = 0};
    for (uint32_t line = 1; doc_next_line(&c, len, &l); line++) {
        struct doc_fence f;
        /* the line's first byte after its spaces says what it may be: a fence (``` or ~~~
         * after up to 16 spaces) or a heading (`#` after up to 3); most lines are neither
         * and are read no further */
        size_t p = l.start;
        while (p < l.end && t[p] == ' ' && p - l.start < 16)
            p++;
        char first = p < l.end ? t[p] : '\0';
        if (first == '<' && p - l.start <= 3 && comment_open(t, p, l.end)) {
            for (size_t from = p + 4; !has_comment_end(t, from, l.end); from = l.start) {
                if (!doc_next_line(&c, len, &l))
                    break;
                line++;
            }
            continue;
        }
        if ((first == '`' || first == '~') && myst.n &&
            fence_close(t, &l, &myst.open[myst.n - 1])) {
            myst.n--; /* the end of a MyST directive that holds Markdown */
            continue;
        }
        if ((first != '`' && first != '~') || !fence_open(t, &l, &f)) {
            int level = first == '#' && p - l.start <= 3 ? heading_level(t, &l) : 0;
            if (level)
                heading(w, level, t, &l);
            continue;
        }
        if (myst_open(&myst, t, &l, &f))
            continue; /* its content is Markdown: read on */
        size_t fence_at = l.start;
        struct doc_cursor body = c;
        size_t body_end = len;
        uint32_t body_line = line + 1;
        while (doc_next_line(&c, len, &l)) {
            line++;
            if (fence_close(t, &l, &f)) {
                body_end = l.start;
                /* a fence as long as the directive around it (```{tip} then ```bash) ends
                 * with it: the line that closes one closes both, as MyST reads them */
                if (myst.n && fence_close(t, &l, &myst.open[myst.n - 1]))
                    myst.n--;
                break;
            }
        }
        bool read = f.info_len && doc_info_is(&f, doc_shell_langs);
        bool python = f.info_len && doc_info_is(&f, doc_python_langs);
        bool unit = (!f.info_len || doc_info_is(&f, doc_unit_langs)) && body.i < body_end &&
                    gl_unit_runs(t + body.i, body_end - body.i);
        if (!f.info_len && !unit) /* RULES.md third round: read when a line starts a launch */
            read = doc_any_launcher(body, body_end);
        const struct slurm_req *alloc = scan->alloc;
        if (unit)
            doc_read_unit_block(scan, src, &f, body, body_end, body_line);
        else if (read || python)
            doc_read_block(scan, src, &f, body, body_end, body_line, python);
        else
            doc_note_dockerfile(w->doc, src, &f, body.i, body_end, body_line);
        if (scan->alloc != alloc)
            w->alloc_at = w->section;
        if (doc_stopped_at(w->doc, src, body_line - 1, fence_at + f.indent, f.indent))
            return false;
    }
    return true;
}
