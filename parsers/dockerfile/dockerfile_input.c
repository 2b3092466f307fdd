/* SPDX-License-Identifier: Apache-2.0 */
/* dockerfile_input.c: how gpulint recognises a Dockerfile (see linter/core/inputs.h). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "linter/core/inputs.h"
#include "parsers/dockerfile/dockerfile_model.h"

/* Template files named after the Dockerfile they render to (`Dockerfile.tmpl`,
 * `Dockerfile.j2`, `Dockerfile.in`): the name says nothing of what they hold now (Go or
 * Jinja directives before the first FROM, `@VAR@` placeholders), so their content decides
 * (by_content: a file that starts with a FROM or ARG instruction is still read). So do
 * patches and encrypted copies of a Dockerfile (gl_input_other_format). */
static bool template_name(const char *b)
{
    static const char *const suffixes[] = {".tmpl", ".tpl", ".template", ".j2", ".jinja",
                                           ".jinja2", ".gotmpl", ".in"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (gl_has_suffix(b, suffixes[i]))
            return true;
    return gl_input_other_format(b); /* a patch or an encrypted copy: the same */
}

/* BuildKit reads `<Dockerfile>.dockerignore` beside a Dockerfile as that build's ignore file
 * (`Dockerfile.python.dockerignore`, `app.Dockerfile.dockerignore`): exclusion patterns such
 * as `**`, never instructions, whatever the name starts with. */
static bool ignore_file_name(const char *b)
{
    return gl_has_suffix(b, ".dockerignore");
}

static bool by_name(const char *path, const char *b)
{
    (void)path;
    if (ignore_file_name(b))
        return false;
    if (!strcmp(b, "Dockerfile") || !strcmp(b, "Containerfile") || !strcmp(b, "dockerfile") ||
        !strcmp(b, "containerfile"))
        return true;
    if (gl_has_prefix(b, "Dockerfile.") || gl_has_prefix(b, "Containerfile.") ||
        gl_has_prefix(b, "Dockerfile_") || gl_has_prefix(b, "Dockerfile-"))
        return !template_name(b); /* (only such a name can end in a template's suffix) */
    return gl_has_suffix(b, ".Dockerfile") || gl_has_suffix(b, ".dockerfile") ||
           gl_has_suffix(b, ".Containerfile") || gl_has_suffix(b, ".containerfile");
}

/* Is the walk to read a file whose name by_name leaves out? Names that say nothing
 * (gl_input_bare_candidate), and lower-case or mixed-case relatives of the Dockerfile
 * names (`dockerfile.gpu`, `dockerfile_cuda`, `DockerFile-dev`: mlcommons/inference): such a
 * name is no proof (`dockerfile.go`, `dockerfile_fragments.py` are programs that write
 * Dockerfiles), so the first bytes decide (by_content), as for a name that says nothing. */
static bool candidate(const char *path, const char *base)
{
    if (gl_input_bare_candidate(path, base))
        return true;
    static const char *const stems[] = {"dockerfile", "containerfile"};
    for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++) {
        size_t n = strlen(stems[i]);
        if (!strncasecmp(base, stems[i], n) && base[n] && strchr("._-", base[n]) &&
            !ignore_file_name(base) && !template_name(base))
            return gl_input_bare_candidate_size(path);
    }
    return false;
}

/* The words of the line at data[i] (up to 8; a trailing backslash continues nothing
 * here: a first instruction that needs two lines is rare enough to be named). */
struct line_words {
    const char *w[8];
    size_t n[8], count;
};

static void split_line(const char *data, size_t i, size_t len, struct line_words *lw)
{
    const char *nl = memchr(data + i, '\n', len - i);
    size_t e = nl ? (size_t)(nl - data) : len;
    lw->count = 0;
    while (i < e && lw->count < 8) {
        while (i < e && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r'))
            i++;
        size_t s = i;
        while (i < e && data[i] != ' ' && data[i] != '\t' && data[i] != '\r')
            i++;
        if (i > s) {
            lw->w[lw->count] = data + s;
            lw->n[lw->count++] = i - s;
        }
    }
}

static bool is_name(const char *w, size_t n)
{
    if (!n || !(isalpha((unsigned char)w[0]) || w[0] == '_'))
        return false;
    for (size_t k = 1; k < n && w[k] != '='; k++)
        if (!(isalnum((unsigned char)w[k]) || w[k] == '_'))
            return false;
    return true;
}

/* `FROM [--flag=v ...] IMAGE [AS NAME]`: an image word (no `://`, not Python's
 * `from x import y`, not prose such as "From https://..." or "from the docs, ..."). */
static bool from_line(const struct line_words *lw)
{
    size_t k = 1;
    while (k < lw->count && lw->n[k] > 2 && !memcmp(lw->w[k], "--", 2))
        k++;
    if (k >= lw->count || memmem(lw->w[k], lw->n[k], "://", 3) ||
        strchr(",.;:!?", lw->w[k][lw->n[k] - 1]))
        return false;
    size_t rest = lw->count - k - 1;
    return rest == 0 || (rest == 2 && gl_strn_eq_nocase(lw->w[k + 1], lw->n[k + 1], "as") &&
                         lw->n[k + 1] == 2);
}

/* A file whose first instruction (after comments, parser directives and blank lines) is
 * a FROM or ARG instruction in its own syntax: only Dockerfiles start so. Consulted for
 * files the user names, standard input, and files of the walk whose name says nothing
 * (`nccl-mpi-ubuntu20.04`). A file with a `#!` line is a program. */
static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    if (len >= 2 && data[0] == '#' && data[1] == '!')
        return false;
    size_t i = 0;
    while (i < len) {
        while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' ||
                           data[i] == '\n'))
            i++;
        if (i < len && data[i] == '#') {
            while (i < len && data[i] != '\n')
                i++;
            continue;
        }
        struct line_words lw;
        split_line(data, i, len, &lw);
        if (lw.count >= 2 && lw.n[0] == 4 && gl_strn_eq_nocase(lw.w[0], 4, "FROM"))
            return from_line(&lw);
        if (lw.count >= 2 && lw.n[0] == 3 && gl_strn_eq_nocase(lw.w[0], 3, "ARG"))
            return is_name(lw.w[1], lw.n[1]);
        return false;
    }
    return false;
}

const struct gl_input_type gl_input_dockerfile = {
    .kind = GL_IN_DOCKERFILE,
    .name = "dockerfile",
    .priority = 10,
    .by_name = by_name,
    .candidate = candidate,
    .by_content = by_content,
    .parse = gl_parse_dockerfile_doc,
};
