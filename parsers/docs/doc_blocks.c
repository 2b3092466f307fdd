/* SPDX-License-Identifier: Apache-2.0 */
/* doc_blocks.c: a document's code blocks read as shell (doc_blocks.h). */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/docs/doc_blocks.h"
#include "parsers/docs/doc_prompt.h"
#include "parsers/launch/systemd/launch_systemd.h"

const char *const doc_shell_langs[] = {"sh", "bash", "shell", "zsh", "console",
                                          "shell-session", "sh-session", "shellsession",
                                          NULL};

/* Blocks that may hold a systemd unit (read as one when they hold a [Service] section, or a
 * Quadlet [Container] one) */
const char *const doc_unit_langs[] = {"ini", "systemd", "service", "conf", "cfg", "toml",
                                         "text", "desktop", "container", NULL};

/* Python blocks: a shell command written in one (`docker run ...`, a notebook's
 * `!docker build ...`) is read; the Python is not */
const char *const doc_python_langs[] = {"python", "py", "python3", "ipython", "ipython3",
                                           NULL};

bool doc_info_is(const struct doc_fence *f, const char *const *names)
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
static size_t content_start(const char *t, const struct doc_line *l, size_t indent)
{
    size_t p = l->start;
    while (p < l->end && t[p] == ' ' && p - l->start < indent)
        p++;
    return p;
}

bool doc_blank(const char *t, size_t s, size_t e)
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
                                        "podman-hpc", "apptainer", "singularity", "srun",
                                        "sbatch", "salloc", "enroot", "sudo",
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

bool doc_any_launcher(struct doc_cursor c, size_t to)
{
    struct doc_line bl;
    while (doc_next_line(&c, to, &bl))
        if (starts_with_launcher(c.t, bl.start, bl.end))
            return true;
    return false;
}

/* The shell text of a block, made in the doc's arena: `text` NULL while its length is
 * counted (the first pass), then filled to exactly that length. */
struct block {
    char *text;
    size_t len;
    struct gl_srcmap map;
};

/* Bytes [s, e) of src, its line `line` from column col, as the block's next line. */
static void block_add(struct block *b, const struct doc_src *src, size_t s, size_t e,
                      uint32_t line, uint32_t col)
{
    if (b->text) {
        if (src->map)
            gl_srcmap_append(&b->map, b->len, src->map, s, e);
        else
            gl_srcmap_add(&b->map, b->len, line, col);
        memcpy(b->text + b->len, src->t + s, e - s);
        b->text[b->len + (e - s)] = '\n';
    }
    b->len += e - s + 1;
}

/* The delimiter of the first heredoc a command line [s, e) opens (`<<EOF`, `<< 'EOF'`,
 * `<<-"END"`), as [*d, *d + *n); false when it opens none. */
static bool heredoc_opened(const char *t, size_t s, size_t e, size_t *d, size_t *n)
{
    for (size_t p = s; p + 2 < e; p++) {
        if (t[p] != '<' || t[p + 1] != '<' || t[p + 2] == '<' || (p > s && t[p - 1] == '<'))
            continue;
        size_t q = p + 2 + (t[p + 2] == '-');
        while (q < e && (t[q] == ' ' || t[q] == '\t'))
            q++;
        char quote = q < e && (t[q] == '\'' || t[q] == '"') ? t[q] : 0;
        q += quote != 0;
        size_t w = q;
        while (w < e && (t[w] == '_' || t[w] == '-' || (t[w] >= '0' && t[w] <= '9') ||
                         ((t[w] | 0x20) >= 'a' && (t[w] | 0x20) <= 'z')))
            w++;
        bool word = w > q && (t[q] == '_' || ((t[q] | 0x20) >= 'a' && (t[q] | 0x20) <= 'z'));
        if (word && (!quote || (w < e && t[w] == quote))) { /* (not `$((1 << 2))`) */
            *d = q;
            *n = w - q;
            return true;
        }
    }
    return false;
}

/* Is line [s, e) the heredoc's delimiter [d, d + n) (with leading tabs: `<<-`)? */
static bool heredoc_closed(const char *t, size_t s, size_t e, size_t d, size_t n)
{
    while (s < e && t[s] == '\t')
        s++;
    while (e > s && (t[e - 1] == '\r' || t[e - 1] == ' '))
        e--;
    return e - s == n && !memcmp(t + s, t + d, n);
}

/* The shell lines of one block into b (doc_read_block): in a Python block, only the lines
 * that start a launch or a build (`docker run ...`, `!docker build ...`, `mlserver build
 * ...`: never Python) and the lines that continue them. */
static void block_lines(const struct doc_src *src, const struct doc_fence *f,
                        struct doc_cursor c, size_t to, uint32_t first_line, bool launch_lines,
                        struct block *b)
{
    const char *t = src->t;
    static const char *const prompt_langs[] = {"console", "shell-session", "sh-session",
                                               "shellsession", NULL};
    bool prompts = doc_info_is(f, prompt_langs);
    struct doc_line l;
    bool first_seen = false, continued = false, body = false; /* (body: a heredoc's) */
    size_t delim = 0, ndelim = 0;
    for (uint32_t line = first_line; doc_next_line(&c, to, &l); line++) {
        size_t s = content_start(t, &l, f->indent);
        if (body) { /* a transcript's heredoc lines: what was typed, not output */
            block_add(b, src, s, l.end, line, (uint32_t)(s - l.start) + 1);
            body = !heredoc_closed(t, s, l.end, delim, ndelim);
            continue;
        }
        if (!first_seen && !doc_blank(t, s, l.end) && t[s] != '#') {
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
            block_add(b, src, s, l.end, line, (uint32_t)(s - l.start) + 1);
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
        block_add(b, src, s, l.end, line, (uint32_t)(s - l.start) + 1);
        size_t e = l.end;
        while (e > s && (t[e - 1] == '\r' || t[e - 1] == ' ' || t[e - 1] == '\t'))
            e--;
        continued = e > s && t[e - 1] == '\\';
        body = prompts && !launch_lines && heredoc_opened(t, s, l.end, &delim, &ndelim);
    }
}

/* The lines of a block read as a systemd unit (its indentation off), into b. */
static void unit_lines(const struct doc_src *src, const struct doc_fence *f,
                       struct doc_cursor c, size_t to, uint32_t first_line, struct block *b)
{
    struct doc_line l;
    for (uint32_t line = first_line; doc_next_line(&c, to, &l); line++) {
        size_t s = content_start(src->t, &l, f->indent);
        block_add(b, src, s, l.end, line, (uint32_t)(s - l.start) + 1);
    }
}

/* A block's text, counted first, then made in one arena take of that size (no copy
 * outside the arena, charged to parse-memory): NULL when it is empty or past the limit. */
static char *block_make(struct gl_launch_scan *scan, const struct doc_src *src,
                        const struct doc_fence *f, struct doc_cursor c, size_t to,
                        uint32_t first_line, int launch_lines, struct block *b)
{
    *b = (struct block){0};
    if (launch_lines < 0)
        unit_lines(src, f, c, to, first_line, b);
    else
        block_lines(src, f, c, to, first_line, launch_lines, b);
    size_t len = b->len;
    if (!len || !(b->text = gl_arena_take(&scan->doc->arena, len + 1)))
        return NULL;
    b->len = 0;
    gl_srcmap_init(&b->map, &scan->doc->arena);
    if (launch_lines < 0)
        unit_lines(src, f, c, to, first_line, b);
    else
        block_lines(src, f, c, to, first_line, launch_lines, b);
    b->text[len] = '\0';
    /* the detached launches of one block run together; other blocks are other examples
     * (alternatives, other machines): a group per block */
    gl_launch_group_later(scan, doc_src_line(src, first_line, c.i));
    return b->text;
}

void doc_read_block(struct gl_launch_scan *scan, const struct doc_src *src,
                    const struct doc_fence *f, struct doc_cursor c, size_t to,
                    uint32_t first_line, bool launch_lines)
{
    struct block b;
    if (block_make(scan, src, f, c, to, first_line, launch_lines, &b))
        gl_launch_scan_text(scan, b.text, b.len, &b.map);
}

void doc_read_unit_block(struct gl_launch_scan *scan, const struct doc_src *src,
                         const struct doc_fence *f, struct doc_cursor c, size_t to,
                         uint32_t first_line)
{
    struct block b;
    if (block_make(scan, src, f, c, to, first_line, -1, &b))
        gl_launches_from_unit(scan, b.text, b.len, &b.map);
}

bool doc_stopped_at(struct gl_doc *doc, const struct doc_src *src, uint32_t line, size_t off,
                    size_t col0)
{
    if (!gl_arena_over(&doc->arena))
        return false;
    struct gl_loc at = {line, (uint32_t)col0 + 1};
    if (src->map)
        at = gl_srcmap_loc(src->map, off);
    if (!doc->error.set)
        gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, at);
    return true;
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

void doc_jetson_heading(struct doc_jetson *j, struct gl_launch_scan *scan, int level,
                        const char *t, size_t s, size_t e)
{
    if (j->at && level <= j->at)
        j->at = 0;
    if (!j->at && jetson_words(t, s, e))
        j->at = level;
    scan->jetson_section = j->at != 0;
}

void doc_scan_init(struct gl_doc *doc, struct sh_vars *vars, struct gl_launch_scan *scan)
{
    sh_vars_init(vars, &doc->arena);
    gl_launch_scan_init(scan, doc, vars);
    scan->placeholders = true;
}

/* A block that holds a Dockerfile (doc_blocks.h). */
void doc_note_dockerfile(struct gl_doc *doc, const struct doc_src *src,
                         const struct doc_fence *f, size_t start, size_t end, uint32_t line)
{
    static const char *const langs[] = {"dockerfile", "containerfile", "docker", NULL};
    if (src->map || start >= end || (f->info_len && !doc_info_is(f, langs)))
        return;
    const struct gl_input_type *df = gl_input_type_of(GL_IN_DOCKERFILE);
    if (!df || !df->by_content(doc->path, src->t + start, end - start))
        return;
    *GL_APPEND(&doc->arena, doc->embedded, doc->nembedded, doc->capembedded) =
        (struct gl_embedded){start, end, line, (uint32_t)f->indent};
}
