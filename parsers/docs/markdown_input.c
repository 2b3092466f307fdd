/* SPDX-License-Identifier: Apache-2.0 */
/* markdown_input.c: launches in Markdown code blocks (see linter/core/inputs.h).
 *
 * `*.md`, `*.mdx`, `*.markdown`. Read (RULES.md): fenced blocks (``` or ~~~, also indented
 * inside lists) tagged sh, bash, shell, zsh, console, shell-session, sh-session; and
 * untagged fences of which any line starts (after blanks and an optional `$ ` prompt) with
 * docker, podman, nvidia-docker, nerdctl, apptainer, singularity, srun, sbatch, salloc,
 * enroot, sudo or a tool that builds and tags an image (buildah, mlserver, cog, bentoml,
 * repo2docker) (RULES.md third round: not only the first line); and in blocks tagged python,
 * py, ipython, the lines that start so (a shell command is never Python; `!` stripped).
 * Inline code in prose is never read, nor is a passage inside an HTML comment (`<!-- -->`).
 * Prompts (`$ `, and the `user@host:~$ `, `[me@node ~]$ `, `(venv) $ ` forms of
 * doc_prompt.h): in console/shell-session blocks, and in any read block whose first line that
 * is no `#` comment starts with one, only the lines starting with one (prompt stripped) and
 * the lines that continue them (after a trailing `\`) are commands; the rest is output.
 * The blocks of one file share their shell variables (a README sets IMAGE=... in one block
 * and runs it in the next), but not their detached launches: each block is a group of its
 * own (GL406 pairs the servers one block starts, not the alternatives of two blocks).
 * An interactive `salloc` of a block holds for the blocks of its section and subsections;
 * a heading of its section's level or above ends it (another section's srun says nothing
 * of that allocation).
 * Every position is that of the Markdown file. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "linter/core/lines.h"
#include "linter/core/newline.h"
#include "parsers/docs/doc_prompt.h"
#include "parsers/launch/launch_shell.h"
#include "parsers/launch/launch_systemd.h"

static bool by_name(const char *path, const char *base)
{
    (void)path;
    /* (each suffix has one dot: the name ends with it when its last dot starts it) */
    const char *dot = strrchr(base, '.');
    return dot && (gl_streq(dot, ".md") || gl_streq(dot, ".mdx") || gl_streq(dot, ".markdown") ||
                   gl_streq(dot, ".qmd") || gl_streq(dot, ".Rmd") || gl_streq(dot, ".rmd"));
}

struct line {
    size_t start, end; /* [start, end) without the newline */
};

/* Where the reader is in a text: the next line starts at i. With `starts` (the start of
 * every line of the text, line_starts), a line's end is the next start's '\n', with no
 * scan; without, it is found by memchr. */
struct cursor {
    const char *t;
    size_t len, i;
    const uint32_t *starts; /* NULL, or starts[k] == i */
    size_t k, n;
};

/* The line at the cursor, when it starts before `to` (a line ending at or past `to`
 * ends there only when `to` is a line start or the text's end, as every caller's is). */
static inline bool next_line(struct cursor *c, size_t to, struct line *l)
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

struct fence {
    char ch;
    size_t count, indent;
    const char *info;
    size_t info_len;
};

/* The level (1-6) of an ATX heading line (`## Evaluations`: up to 3 spaces, 1-6 `#`, then
 * a blank or the end), 0 for any other line. */
static int heading_level(const char *t, const struct line *l)
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

/* An interactive `salloc` holds for the rest of its section: a heading of its section's
 * level or above (a sibling section, `## Evaluations` after `## Debugging`) starts text
 * that is not run in it. A salloc above every heading holds for the whole document. */
struct alloc_scope {
    int section;    /* the level of the last heading read, 0 before any */
    int alloc_at;   /* the section level the allocation was made in */
};

static void alloc_heading(struct alloc_scope *a, struct gl_launch_scan *scan, int level)
{
    a->section = level;
    if (scan->alloc && a->alloc_at && level <= a->alloc_at)
        scan->alloc = NULL;
}

/* Does heading text [s, e) name a Jetson (a word jetson, tegra, l4t, jetpack, orin or
 * xavier, any case)? Its section's docker runs are on a Jetson (launch_kind.h). */
static bool jetson_words(const char *t, size_t s, size_t e)
{
    static const struct {
        const char *w;
        size_t n;
    } words[] = {{"jetson", 6}, {"tegra", 5}, {"l4t", 3}, {"jetpack", 7}, {"orin", 4},
                 {"xavier", 6}};
    static const bool first[256] = {['j'] = 1, ['t'] = 1, ['l'] = 1, ['o'] = 1, ['x'] = 1,
                                    ['J'] = 1, ['T'] = 1, ['L'] = 1, ['O'] = 1, ['X'] = 1};
    for (size_t p = s; p < e; p++) {
        if (!first[(unsigned char)t[p]] || (p > s && isalnum((unsigned char)t[p - 1])))
            continue; /* (a word starts here with one of their first letters) */
        char c = (char)(t[p] | 0x20);
        for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
            size_t n = words[k].n;
            if (words[k].w[0] == c && e - p >= n && gl_strn_eq_nocase(t + p, n, words[k].w) &&
                (p + n == e || !isalnum((unsigned char)t[p + n])))
                return true;
        }
    }
    return false;
}

/* A section about Jetson lasts to the next heading of its level or above. */
struct jetson_scope {
    int at; /* the level of the heading that opened it, 0 when none is open */
};

static void jetson_heading(struct jetson_scope *j, struct gl_launch_scan *scan, int level,
                           const char *t, const struct line *l)
{
    if (j->at && level <= j->at)
        j->at = 0;
    if (!j->at && jetson_words(t, l->start, l->end))
        j->at = level;
    scan->jetson_section = j->at != 0;
}

/* Is the line a fence opening? (up to 16 columns of indent: lists nest) */
static bool fence_open(const char *t, const struct line *l, struct fence *f)
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

static bool fence_close(const char *t, const struct line *l, const struct fence *f)
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

/* Is the fence's language one of `names` (lower case, any case matches)? Quarto and
 * R Markdown write it in braces with options: ```{bash}, ```{bash, echo=FALSE}, ```{.bash}. */
static bool info_is(const struct fence *f, const char *const *names)
{
    const char *info = f->info;
    size_t n = f->info_len;
    if (n && info[0] == '{') {
        info++;
        n--;
        if (n && info[0] == '.')
            info++, n--;
        size_t k = 0;
        while (k < n && info[k] != '}' && info[k] != ',' && info[k] != ' ')
            k++;
        n = k;
    }
    int first = n ? tolower((unsigned char)info[0]) : 0; /* no strlen for most names */
    for (size_t k = 0; names[k]; k++) /* (names are lower case) */
        if ((unsigned char)names[k][0] == first && strlen(names[k]) == n &&
            gl_strn_eq_nocase(info, n, names[k]))
            return true;
    return false;
}

/* Content of line l with the fence's indentation removed: its first byte. */
static size_t content_start(const char *t, const struct line *l, size_t indent)
{
    size_t p = l->start;
    while (p < l->end && t[p] == ' ' && p - l->start < indent)
        p++;
    return p;
}

static bool blank(const char *t, size_t s, size_t e)
{
    for (; s < e; s++)
        if (t[s] != ' ' && t[s] != '\t' && t[s] != '\r')
            return false;
    return true;
}

/* Does the line [s, e) start a launch (after blanks and an optional prompt: `$ `,
 * `user@host:~$ `, doc_prompt.h)? */
static bool starts_with_launcher(const char *t, size_t s, size_t e)
{
    static const char *const first[] = {"docker", "podman", "nvidia-docker", "nerdctl",
                                        "apptainer", "singularity", "srun", "sbatch",
                                        "salloc", "enroot", "sudo",
                                        /* tools that build and tag a local image */
                                        "buildah", "mlserver", "cog", "bentoml",
                                        "repo2docker"};
    while (s < e && (t[s] == ' ' || t[s] == '\t'))
        s++;
    size_t prompt = doc_prompt_len(t, s, e);
    if (prompt)
        s += prompt;
    else if (s < e && t[s] == '!') /* IPython's shell escape in a Python block */
        s++;
    /* most lines start with a byte no name starts with: their word is not read */
    char c = s < e ? t[s] : '\0';
    bool some = false;
    for (size_t k = 0; k < sizeof first / sizeof first[0]; k++)
        some |= first[k][0] == c;
    if (!some)
        return false;
    size_t w = s;
    while (w < e && t[w] != ' ' && t[w] != '\t' && t[w] != '\r')
        w++;
    for (size_t k = 0; k < sizeof first / sizeof first[0]; k++)
        if (first[k][0] == c && strlen(first[k]) == w - s && !memcmp(t + s, first[k], w - s))
            return true;
    return false;
}

/* Does a line from the cursor's up to `to` start a launch? */
static bool any_launcher(struct cursor c, size_t to)
{
    struct line bl;
    while (next_line(&c, to, &bl))
        if (starts_with_launcher(c.t, bl.start, bl.end))
            return true;
    return false;
}

/* The shell text of a block, made in the doc's arena: `text` NULL while its length is
 * counted (the first pass of read_block), then filled to exactly that length. */
struct block {
    char *text;
    size_t len;
    struct gl_srcmap map;
};

static void block_add(struct block *b, const char *t, size_t s, size_t e, uint32_t line,
                      uint32_t col)
{
    if (b->text) {
        gl_srcmap_add(&b->map, b->len, line, col);
        memcpy(b->text + b->len, t + s, e - s);
        b->text[b->len + (e - s)] = '\n';
    }
    b->len += e - s + 1;
}

/* The shell lines of one fenced block into b: the lines from the cursor's up to `to`,
 * `first_line` the first's number. `launch_lines`: a block of another language (Python):
 * only its lines that start a launch or a build (`docker run ...`, `!docker build ...`,
 * `mlserver build ...`: never Python) and the lines that continue them are shell. */
static void block_lines(const char *t, const struct fence *f, struct cursor c, size_t to,
                        uint32_t first_line, bool launch_lines, struct block *b)
{
    static const char *const prompt_langs[] = {"console", "shell-session", "sh-session",
                                               "shellsession", NULL};
    bool prompts = info_is(f, prompt_langs);
    struct line l;
    bool first_seen = false, continued = false;
    for (uint32_t line = first_line; next_line(&c, to, &l); line++) {
        size_t s = content_start(t, &l, f->indent);
        if (!first_seen && !blank(t, s, l.end) && t[s] != '#') {
            first_seen = true;
            if (doc_prompt_len(t, s, l.end))
                prompts = true;
        }
        if (!prompts && !launch_lines) {
            /* a prompt on a later line of a plain block (RULES.md third round; `$`, a
               `host1$` and a blank are no shell command): the command after it */
            size_t p = s;
            while (p < l.end && (t[p] == ' ' || t[p] == '\t'))
                p++;
            size_t prompt = doc_prompt_len(t, p, l.end);
            if (prompt)
                s = p + prompt;
            block_add(b, t, s, l.end, line, (uint32_t)(s - l.start) + 1);
            continue;
        }
        size_t prompt;
        if (launch_lines && !continued) {
            if (!starts_with_launcher(t, s, l.end))
                continue; /* Python */
            while (s < l.end && (t[s] == ' ' || t[s] == '\t'))
                s++;
            s += s < l.end && t[s] == '!';
        } else if ((prompt = doc_prompt_len(t, s, l.end)) != 0) {
            s += prompt;
        } else if (!continued) {
            continue; /* output */
        }
        block_add(b, t, s, l.end, line, (uint32_t)(s - l.start) + 1);
        size_t e = l.end;
        while (e > s && (t[e - 1] == '\r' || t[e - 1] == ' ' || t[e - 1] == '\t'))
            e--;
        continued = e > s && t[e - 1] == '\\';
    }
}

/* One fenced block read as shell (block_lines). Its text is counted first, then made in
 * one arena take of that size: no copy outside the arena, charged to parse-memory. */
static void read_block(struct gl_doc *doc, struct gl_launch_scan *scan, const struct fence *f,
                       struct cursor c, size_t to, uint32_t first_line, bool launch_lines)
{
    struct block b = {0};
    block_lines(doc->text, f, c, to, first_line, launch_lines, &b);
    if (!b.len)
        return;
    size_t len = b.len;
    b.text = gl_arena_take(&doc->arena, len + 1);
    b.len = 0;
    gl_srcmap_init(&b.map, &doc->arena);
    block_lines(doc->text, f, c, to, first_line, launch_lines, &b);
    b.text[len] = '\0';
    /* the detached launches of one block run together; other blocks are other examples
     * (alternatives, other machines): a group per block */
    gl_launch_group_later(scan, first_line);
    gl_launch_scan_text(scan, b.text, len, &b.map);
}

/* The lines of a block read as a systemd unit (its indentation off), into b. */
static void unit_lines(const char *t, const struct fence *f, struct cursor c, size_t to,
                       uint32_t first_line, struct block *b)
{
    struct line l;
    for (uint32_t line = first_line; next_line(&c, to, &l); line++) {
        size_t s = content_start(t, &l, f->indent);
        block_add(b, t, s, l.end, line, (uint32_t)(s - l.start) + 1);
    }
}

/* One fenced block that holds a systemd unit (`ini`, `systemd`, or no language, with a
 * [Service] or Quadlet [Container] section): the containers it runs (launch_systemd.h). */
static void read_unit_block(struct gl_doc *doc, struct gl_launch_scan *scan,
                            const struct fence *f, struct cursor c, size_t to,
                            uint32_t first_line)
{
    struct block b = {0};
    unit_lines(doc->text, f, c, to, first_line, &b);
    if (!b.len)
        return;
    size_t len = b.len;
    b.text = gl_arena_take(&doc->arena, len + 1);
    if (!b.text)
        return;
    b.len = 0;
    gl_srcmap_init(&b.map, &doc->arena);
    unit_lines(doc->text, f, c, to, first_line, &b);
    b.text[len] = '\0';
    gl_launch_group_later(scan, first_line);
    gl_launches_from_unit(scan, b.text, len, &b.map);
}

/* Past the doc's parse-memory the reader stops after the block whose fence (or directive)
 * starts at line:col+1 and says so there, unless what it read said it first. */
static bool stopped_at(struct gl_doc *doc, uint32_t line, size_t col0)
{
    if (!gl_arena_over(&doc->arena))
        return false;
    if (!doc->error.set)
        gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, (struct gl_loc){line, (uint32_t)col0 + 1});
    return true;
}

/* One variable table for the whole document (its blocks run in one shell session, as a
 * reader follows them), and `<path to data>` is text to fill in. */
static void docs_scan_init(struct gl_doc *doc, struct sh_vars *vars, struct gl_launch_scan *scan)
{
    sh_vars_init(vars, &doc->arena);
    gl_launch_scan_init(scan, doc, vars);
    scan->placeholders = true;
}

static const char *const shell_langs[] = {"sh", "bash", "shell", "zsh", "console",
                                          "shell-session", "sh-session", "shellsession",
                                          NULL};

/* Blocks that may hold a systemd unit (read as one when they hold a [Service] section, or a
 * Quadlet [Container] one) */
static const char *const unit_langs[] = {"ini", "systemd", "service", "conf", "cfg", "toml",
                                         "text", "desktop", "container", NULL};

/* Python blocks: a shell command written in one (`docker run ...`, a notebook's
 * `!docker build ...`) is read; the Python is not */
static const char *const python_langs[] = {"python", "py", "python3", "ipython", "ipython3",
                                           NULL};

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

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    const char *t = doc->text;
    size_t len = doc->len;
    struct sh_vars vars;
    struct gl_launch_scan scan;
    docs_scan_init(doc, &vars, &scan);
    /* the lines found once: walked here, and handed to the doc's line index, which
     * copies them when it is first asked for a position (the first image reference),
     * taking the room it takes when it finds them itself, at the same moment */
    struct cursor c = {.t = t, .len = len};
    c.starts = line_starts(t, len, &c.n);
    if (c.starts) {
        if (doc->lines.text != doc->text)
            gl_lines_init(&doc->lines, &doc->arena, doc->text, doc->len);
        gl_lines_known32(&doc->lines, c.starts, c.n);
    }
    struct line l;
    struct alloc_scope scope = {0, 0};
    struct jetson_scope jetson = {0};
    for (uint32_t line = 1; next_line(&c, len, &l); line++) {
        struct fence f;
        /* the line's first byte after its spaces says what it may be: a fence (``` or ~~~
         * after up to 16 spaces) or a heading (`#` after up to 3); most lines are neither
         * and are read no further */
        size_t p = l.start;
        while (p < l.end && t[p] == ' ' && p - l.start < 16)
            p++;
        char first = p < l.end ? t[p] : '\0';
        if (first == '<' && p - l.start <= 3 && comment_open(t, p, l.end)) {
            for (size_t from = p + 4; !has_comment_end(t, from, l.end); from = l.start) {
                if (!next_line(&c, len, &l))
                    break;
                line++;
            }
            continue;
        }
        if ((first != '`' && first != '~') || !fence_open(t, &l, &f)) {
            int level = first == '#' && p - l.start <= 3 ? heading_level(t, &l) : 0;
            if (level) {
                alloc_heading(&scope, &scan, level);
                jetson_heading(&jetson, &scan, level, t, &l);
            }
            continue;
        }
        struct cursor body = c;
        size_t body_end = len;
        uint32_t body_line = line + 1;
        while (next_line(&c, len, &l)) {
            line++;
            if (fence_close(t, &l, &f)) {
                body_end = l.start;
                break;
            }
        }
        bool read = f.info_len && info_is(&f, shell_langs);
        bool python = f.info_len && info_is(&f, python_langs);
        bool unit = (!f.info_len || info_is(&f, unit_langs)) && body.i < body_end &&
                    gl_unit_runs(t + body.i, body_end - body.i);
        if (!f.info_len && !unit) /* RULES.md third round: read when a line starts a launch */
            read = any_launcher(body, body_end);
        const struct slurm_req *alloc = scan.alloc;
        if (unit)
            read_unit_block(doc, &scan, &f, body, body_end, body_line);
        else if (read || python)
            read_block(doc, &scan, &f, body, body_end, body_line, python);
        if (scan.alloc != alloc)
            scope.alloc_at = scope.section;
        if (stopped_at(doc, body_line - 1, f.indent))
            break;
    }
    gl_launch_scan_pragmas(&scan);
    gl_lines_unknown(&doc->lines); /* (copied by now, or found again when asked) */
    free((void *)c.starts);
}

/* ---- reStructuredText: `.. code-block:: bash` (also `code::`, `sourcecode::`, and
 * sphinx-prompt's `prompt:: bash $`) in a shell language; a directive of no language when
 * one of its lines starts a launch, as an untagged Markdown fence; other languages (`text`,
 * `python`) and literal `::` blocks are never read. A section titled for Jetson makes its
 * launches Jetson ones, as a Markdown heading does ---- */

static size_t indent_of(const char *t, const struct line *l)
{
    size_t p = l->start;
    while (p < l->end && t[p] == ' ')
        p++;
    return p - l->start;
}

/* What a line opens in reStructuredText: a code directive of a shell or Python language
 * (read; Python as main's read_block reads it), or one of no language (`.. code-block::`
 * alone: read when a line of it starts a launch, as an untagged Markdown fence). A literal
 * block (a paragraph ending in `::`) is never read: it is as often output or another
 * language as a command. */
enum rst_open { RST_NONE, RST_SHELL, RST_UNTAGGED };

/* f gets the language; *indent the directive's own indentation. */
static enum rst_open rst_directive(const char *t, const struct line *l, struct fence *f,
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
    *f = (struct fence){.info = t + p, .info_len = e - p};
    if (!f->info_len)
        return RST_UNTAGGED;
    return info_is(f, shell_langs) || info_is(f, python_langs) ? RST_SHELL : RST_NONE;
}

/* Section titles (docutils, "Sections"): a line of text at the left margin underlined by
 * a line of one punctuation character repeated, as long as the text or at least 4 long,
 * optionally overlined by the same character too. Levels are not fixed: each style (the
 * character, with or without an overline) is the level of its first use. */
#define RST_TITLE_STYLES 16

struct rst_titles {
    struct line prev;  /* the line before the current one (text: a title's candidate) */
    char prev_adorn;   /* its adornment character, 0 when it is none */
    char before_adorn; /* the adornment character of the line before it, 0 when none */
    char style[RST_TITLE_STYLES];
    bool over[RST_TITLE_STYLES];
    int nstyles;
};

/* The character line l repeats from the left margin (trailing blanks aside), when it is
 * an adornment (docutils' punctuation), else 0. */
static char rst_adornment(const char *t, const struct line *l)
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
static int rst_title_level(struct rst_titles *r, const char *t, const struct line *l)
{
    char c = rst_adornment(t, l);
    const struct line *p = &r->prev;
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
    docs_scan_init(doc, &vars, &scan);
    struct cursor c = {.t = t, .len = len};
    struct line l;
    struct rst_titles titles = {0};
    struct jetson_scope jetson = {0};
    for (uint32_t line = 1; next_line(&c, len, &l); line++) {
        struct fence f;
        size_t d;
        struct line title = titles.prev;
        int level = rst_title_level(&titles, t, &l);
        if (level) /* (a section about Jetson: its docker runs are on a Jetson) */
            jetson_heading(&jetson, &scan, level, t, &title);
        enum rst_open open = rst_directive(t, &l, &f, &d);
        if (open == RST_NONE)
            continue;
        /* options (`:linenos:`) and blank lines, then the body: every line indented more
         * than the directive, blank lines included, up to the first that is not */
        size_t body = len, body_end = len;
        struct cursor k = c, body_at = c;
        uint32_t body_line = 0, kl = line;
        struct line bl;
        for (struct cursor at = k; next_line(&k, len, &bl); at = k) {
            kl++;
            bool empty = blank(t, bl.start, bl.end);
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
        if (body < body_end && (open == RST_SHELL || any_launcher(body_at, body_end)))
            read_block(doc, &scan, &f, body_at, body_end, body_line, info_is(&f, python_langs));
        if (stopped_at(doc, line, d))
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

const struct gl_input_type gl_input_markdown = {
    .kind = GL_IN_MARKDOWN,
    .name = "markdown",
    .priority = 40,
    .by_name = by_name,
    .candidate = NULL,
    .by_content = NULL,
    .parse = parse,
};
