/* SPDX-License-Identifier: Apache-2.0 */
/* launch_opts.c: walking the options of a launch command line (see launch_internal.h). */
#include <string.h>

#include "linter/core/ref/imageref.h"
#include "parsers/launch/launch_internal.h"

/* Does untagged word t end in the extension of a script or a file a command reads
 * (`test/sanity/run_tests.py`, `configs/train.yaml`)? Such a word is a path: docker
 * would take it as a repository, but no image is named like that. */
static bool script_path(const char *t)
{
    static const char *const ext[] = {".py", ".sh", ".bash", ".ipynb", ".yaml", ".yml",
                                      ".json", ".toml", ".txt", ".cfg", ".pl", ".rb",
                                      ".js"};
    if (strchr(t, ':') || strchr(t, '@'))
        return false;
    for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++)
        if (gl_has_suffix(t, ext[k]))
            return true;
    return false;
}

/* Could this word be an image reference such as `nvcr.io/nvidia/pytorch:24.05-py3`? Only
 * references with a '/' or a ':' count: a bare `bash` is more likely a command, and a
 * path to a script (script_path) is one. */
static bool looks_like_image(struct gl_arena *a, const struct gl_word *w)
{
    if (w->opaque || w->text[0] == '/' || w->text[0] == '.' || w->text[0] == '-')
        return false;
    if ((!strchr(w->text, '/') && !strchr(w->text, ':')) || script_path(w->text))
        return false;
    struct gl_imageref r;
    return gl_imageref_parse(a, w->text, strlen(w->text), w->loc, &r, NULL) == 0;
}

/* Is t wholly an ellipsis: three or more dots, or one or more `…` (U+2026)? The shell
 * reader makes only such a word an opaque placeholder (shell_lex.c ellipsis_end). */
static bool ellipsis_word(const unsigned char *t)
{
    const unsigned char *k = t;
    if (*k == '.') {
        while (*k == '.')
            k++;
        return !*k && k - t >= 3;
    }
    while (k[0] == 0xE2 && k[1] == 0x80 && k[2] == 0xA6)
        k += 3;
    return !*k && k != t;
}

/* Does an opaque word that may split stand for any number of words: an expansion
 * (`$args`, `${X}`), a template's `{{ args }}`, or a document's ellipsis (`...`, `…`: the
 * words it leaves out; the shell reader makes it opaque only in documentation), with no
 * other text (sh_word_may_be_words)? One with literal text beside its expansions
 * (`org/$NAME`, `...$X`, `${IMAGE}:${TAG}`) is one word that is no option: the image. */
static bool splat_word(const struct gl_word *w, const struct sh_word_info *in)
{
    const unsigned char *t = (const unsigned char *)w->text;
    return (t[0] == '$' || t[0] == '{' || ellipsis_word(t)) && sh_word_may_be_words(in);
}

/* The entry of long option name[0..len): the wrapper's own (b->own_flags) first. */
static const struct gl_cli_flag *find_long(const struct launch_build *b,
                                           const struct gl_cli_flag *table, const char *name,
                                           size_t len)
{
    const struct gl_cli_flag *f = b->own_flags ? gl_cli_flag_long(b->own_flags, name, len) : NULL;
    return f ? f : gl_cli_flag_long(table, name, len);
}

/* Long option at word i: returns how many words it used. */
static size_t long_opt(struct launch_build *b, const struct sh_cmd *cmd, size_t i,
                       const struct gl_cli_flag *table, launch_opt_fn apply)
{
    struct gl_arena *a = &b->doc->arena;
    struct lv w = lv_word(a, cmd, i);
    const char *eq = memchr(w.text, '=', w.len);
    size_t nlen = (eq ? (size_t)(eq - w.text) : w.len) - 2;
    const struct gl_cli_flag *f = find_long(b, table, w.text + 2, nlen);
    struct lv flag = lv_sub(a, &w, 0, nlen + 2);
    if (eq) {
        struct lv val = lv_sub(a, &w, nlen + 3, w.len);
        apply(b, f, &flag, &val);
        return 1;
    }
    if (f && f->arity == GL_FLAG_VALUE) {
        if (i + 1 >= cmd->nwords)
            return 1;
        struct lv val = lv_word(a, cmd, i + 1);
        apply(b, f, &flag, &val);
        return 2;
    }
    apply(b, f, &flag, NULL);
    return 1;
}

/* Short options (a bundle) at word i: returns how many words they used. */
static size_t short_opts(struct launch_build *b, const struct sh_cmd *cmd, size_t i,
                         const struct gl_cli_flag *table, launch_opt_fn apply)
{
    struct gl_arena *a = &b->doc->arena;
    struct lv w = lv_word(a, cmd, i);
    for (size_t j = 1; j < w.len; j++) {
        const struct gl_cli_flag *f = gl_cli_flag_short(table, w.text[j]);
        struct lv flag = lv_sub(a, &w, j, 1);
        if (!f) {
            apply(b, NULL, &flag, NULL);
            return 1; /* unknown letter: the CLI would stop here */
        }
        if (f->arity == GL_FLAG_VALUE) {
            if (j + 1 < w.len) {
                size_t vs = j + 1 + (w.text[j + 1] == '=');
                struct lv val = lv_sub(a, &w, vs, w.len);
                apply(b, f, &flag, &val);
                return 1;
            }
            if (i + 1 >= cmd->nwords)
                return 1;
            struct lv val = lv_word(a, cmd, i + 1);
            apply(b, f, &flag, &val);
            return 2;
        }
        if (j + 1 < w.len && w.text[j + 1] == '=') { /* -d=false */
            struct lv val = lv_sub(a, &w, j + 2, w.len);
            apply(b, f, &flag, &val);
            return 1;
        }
        apply(b, f, &flag, NULL);
    }
    return 1;
}

size_t launch_walk_opts(struct launch_build *b, const struct sh_cmd *cmd, size_t i,
                        const struct gl_cli_flag *table, launch_opt_fn apply, bool *ambiguous)
{
    size_t n = cmd->nwords;
    *ambiguous = false;
    while (i < n) {
        /* the limit parse-memory: the rest is not read, a GL900 at this option; each
         * option adds to the launch's tables, which grow in the arena, and a command of
         * 100,000 --device options took 60 MB against the 32 MiB limit */
        const struct gl_word *w = &cmd->words[i];
        if (gl_arena_over(&b->doc->arena)) {
            gl_doc_fail_limit(b->doc, GL_LIMIT_PARSE_MEMORY, w->loc);
            return n;
        }
        const char *t = w->text;
        if (w->opaque && splat_word(w, &cmd->info[i])) {
            b->l->opts_opaque = true;
            if (i + 1 >= n)
                return n; /* `docker run $args`: the image is somewhere in there */
            const struct gl_word *next = &cmd->words[i + 1];
            if ((next->text[0] == '-' && !next->opaque) || looks_like_image(&b->doc->arena, next)) {
                i++;
                continue;
            }
            *ambiguous = true;
            return i;
        }
        if (!strcmp(t, "--"))
            return i + 1;
        if (t[0] == '-' && t[1] == '-' && t[2])
            i += long_opt(b, cmd, i, table, apply);
        else if (t[0] == '-' && t[1])
            i += short_opts(b, cmd, i, table, apply);
        else
            return i;
    }
    return n;
}
