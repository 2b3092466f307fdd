/* SPDX-License-Identifier: Apache-2.0 */
/* script_input.c: shell scripts as an input type (see linter/core/inputs.h): `*.sh`, `*.bash`,
 * `*.sbatch`, `*.slurm`, `*.bats`, and files whose `#!` line names sh, bash, dash, zsh, ksh
 * or ash or whose first line is a batch scheduler's directive (`#SBATCH`, `#PBS`, `#BSUB`,
 * ...), when their names are bare, executable, or a batch script's extension (`.sub`,
 * `.pbs`, `.job`, `.zsh`, ...). Their launches come from launch_shell.h; a quote left open
 * is a parse error (GL900). */
#include <string.h>
#include <sys/stat.h>

#include "linter/core/inputs.h"
#include "parsers/launch/launch_shell.h"

/* Largest extensionless file the directory walk opens to look for a `#!` line. */
#define SCRIPT_CANDIDATE_MAX (4u << 20)

static bool by_name(const char *path, const char *base)
{
    (void)path;
    /* (each suffix has one dot: the name ends with it when its last dot starts it) */
    const char *dot = strrchr(base, '.');
    return dot && (gl_streq(dot, ".sh") || gl_streq(dot, ".bash") || gl_streq(dot, ".sbatch") ||
                   gl_streq(dot, ".slurm") || gl_streq(dot, ".bats"));
}

/* Extensions that batch schedulers' scripts and other shells go by, which other files share
 * (`.sub`: Slurm on NeMo's clusters, HTCondor submit files, subtitles; `.job`, `.batch`):
 * the file is read, and its first line decides (a `#!` line naming a shell, or a scheduler
 * directive). */
static bool batch_extension(const char *base)
{
    static const char *const exts[] = {".sub", ".job", ".batch", ".pbs", ".qsub", ".lsf",
                                       ".bsub", ".zsh", ".ksh", ".cobalt", ".msub"};
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base)
        return false;
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (gl_streq(dot, exts[i]))
            return true;
    return false;
}

/* An executable regular file without an extension (bin/train, scripts/launch) may be a
 * script: worth reading its first line; so is any small file whose name says nothing, and
 * one with a batch script's extension. */
static bool candidate(const char *path, const char *base)
{
    if (gl_input_bare_candidate(path, base))
        return true;
    bool batch = batch_extension(base);
    if (!base[0] || base[0] == '.' || (strchr(base, '.') && !batch))
        return false;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SCRIPT_CANDIDATE_MAX)
        return false;
    return batch || (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0;
}

/* A batch script without a `#!` line: its first line that is not blank is a scheduler's
 * directive: Slurm `#SBATCH`, PBS/Torque `#PBS`, LSF `#BSUB`, Cobalt `#COBALT`, Moab
 * `#MSUB`, Flux `#FLUX:`. (Not Grid Engine's `#$`: also a comment in other languages.) */
static bool directive_first(const char *data, size_t len)
{
    static const char *const directives[] = {"#SBATCH", "#PBS", "#BSUB", "#COBALT", "#MSUB",
                                             "#FLUX:"};
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    for (size_t k = 0; k < sizeof directives / sizeof directives[0]; k++) {
        size_t n = strlen(directives[k]);
        if (len - i > n && !memcmp(data + i, directives[k], n) &&
            (directives[k][n - 1] == ':' || data[i + n] == ' ' || data[i + n] == '\t'))
            return true;
    }
    return false;
}

/* The shell a `#!` line names (#!/bin/bash, #! /usr/bin/env bash, #!/usr/bin/env -S bash
 * -e): its name, NULL when the first line is no `#!` line naming one of `shells`. */
static const char *const shells[] = {"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"};

static const char *shebang_shell(const char *data, size_t len)
{
    if (len < 3 || data[0] != '#' || data[1] != '!')
        return NULL;
    size_t i = 2, eol = 2;
    while (eol < len && eol < 256 && data[eol] != '\n' && data[eol] != '\r')
        eol++;
    for (int word = 0; word < 4 && i < eol; word++) {
        while (i < eol && (data[i] == ' ' || data[i] == '\t'))
            i++;
        size_t s = i;
        while (i < eol && data[i] != ' ' && data[i] != '\t')
            i++;
        size_t b = s;
        for (size_t k = s; k < i; k++)
            if (data[k] == '/')
                b = k + 1;
        size_t n = i - b;
        if (n == 3 && !memcmp(data + b, "env", 3))
            continue;
        if (n && data[b] == '-')
            continue;
        for (size_t k = 0; k < sizeof shells / sizeof shells[0]; k++)
            if (strlen(shells[k]) == n && !memcmp(data + b, shells[k], n))
                return shells[k];
        return NULL;
    }
    return NULL;
}

static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    return directive_first(data, len) || shebang_shell(data, len);
}

/* Is the script bash's or a POSIX shell's (what `bash -n` or `dash -n` judge)? Not zsh,
 * ksh or mksh, whose grammars differ (zsh's `for x (a b) { ... }`), by `#!` line or name. */
static bool posix_family(const struct gl_doc *doc)
{
    const char *sh = shebang_shell(doc->text, doc->len);
    if (sh)
        return !strcmp(sh, "sh") || !strcmp(sh, "bash") || !strcmp(sh, "dash") ||
               !strcmp(sh, "ash");
    const char *dot = strrchr(doc->path, '.');
    return !(dot && (gl_streq(dot, ".zsh") || gl_streq(dot, ".ksh")));
}

/* Is the script bash's for certain: a bash `#!` line, or a .bash or .bats file (what only
 * bash refuses is judged on it, never on a script sh may run)? */
static bool bash_script(const struct gl_doc *doc)
{
    const char *sh = shebang_shell(doc->text, doc->len);
    return sh ? !strcmp(sh, "bash")
              : gl_has_suffix(doc->path, ".bash") || gl_has_suffix(doc->path, ".bats");
}

/* A Bats test file is bash once each `@test "name" {` line is a function header, as bats
 * itself rewrites it: here `f()` padded with blanks up to the `{`, so every byte keeps its
 * line and column. A copy of the text; the original when there is no @test line. */
static const char *bats_as_bash(struct gl_doc *doc)
{
    char *t = NULL;
    for (size_t i = 0; i < doc->len;) {
        const char *nl = memchr(doc->text + i, '\n', doc->len - i);
        size_t e = nl ? (size_t)(nl - doc->text) : doc->len, p = i;
        while (p < e && (doc->text[p] == ' ' || doc->text[p] == '\t'))
            p++;
        size_t brace = e;
        while (brace > p && (doc->text[brace - 1] == ' ' || doc->text[brace - 1] == '\r'))
            brace--;
        if (e - p > 6 && !memcmp(doc->text + p, "@test ", 6) && brace > p + 6 &&
            doc->text[brace - 1] == '{') {
            if (!t)
                t = gl_arena_strndup(&doc->arena, doc->text, doc->len);
            memset(t + p, ' ', brace - 1 - p);
            memcpy(t + p, "f()", 3);
        }
        i = e + 1;
    }
    return t ? t : doc->text;
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct sh_vars vars;
    sh_vars_init(&vars, &doc->arena);
    struct gl_launch_scan s;
    gl_launch_scan_init(&s, doc, &vars);
    s.report_errors = true;
    s.grammar = posix_family(doc);
    s.grammar_bash = s.grammar && bash_script(doc);
    const char *text = gl_has_suffix(doc->path, ".bats") ? bats_as_bash(doc) : doc->text;
    gl_launch_scan_text(&s, text, doc->len, NULL);
    gl_launch_scan_pragmas(&s);
}

const struct gl_input_type gl_input_shell = {
    .kind = GL_IN_SHELL,
    .name = "shell",
    .priority = 50,
    .by_name = by_name,
    .candidate = candidate,
    .by_content = by_content,
    .parse = parse,
};
