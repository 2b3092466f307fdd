/* SPDX-License-Identifier: Apache-2.0 */
/* dockerfile_run.c: RUN into commands and package installs (see dockerfile_run.h). */
#include "parsers/dockerfile/dockerfile_run.h"

#include <string.h>

#include "parsers/shell/run_commands.h"
#include "parsers/shell/shell_words.h"

struct run_ctx {
    struct gl_doc *doc;
    int stage, instr;
    struct sh_opts opts;
};

static void exec_form(struct run_ctx *r, const struct df_instr *in)
{
    struct gl_word *w = gl_arena_alloc(&r->doc->arena, (in->nargs ? in->nargs : 1) * sizeof *w);
    for (size_t i = 0; i < in->nargs; i++)
        w[i] = gl_word_make(in->args[i].value, in->args[i].loc, false); /* JSON: may hold \u0000 */
    gl_run_command_words(&r->doc->arena, r->doc->df, r->stage, r->instr, w, in->nargs);
}

static bool is_shell(const struct gl_word *w)
{
    static const char *const shells[] = {"sh", "bash", "dash", "ash", "zsh", "ksh"};
    if (w->opaque)
        return false;
    const char *b = strrchr(w->text, '/');
    b = b ? b + 1 : w->text;
    for (size_t i = 0; i < sizeof shells / sizeof shells[0]; i++)
        if (!strcmp(b, shells[i]))
            return true;
    return false;
}

static void split_text(struct run_ctx *r, const char *text, size_t len,
                       const struct gl_srcmap *map)
{
    struct sh_cmd *cmds;
    size_t n;
    struct sh_error err;
    struct sh_branches nest = {NULL, 0, 0}; /* where its ifs stand (run_commands.h) */
    r->opts.branches = &nest;
    /* an unterminated quote fails the build, not the lint: the commands up to it count;
       a limit that stopped the split or the reading of its commands is the GL900, where
       it stopped (not at the next instruction, nor at 1:1 after the last) */
    if (sh_split(&r->doc->arena, text, len, map, &r->opts, &cmds, &n, &err) < 0 && err.set &&
        gl_limit_said(err.message))
        gl_doc_fail_limit(r->doc, GL_LIMIT_PARSE_MEMORY, err.loc);
    struct gl_loc stop =
        gl_run_commands(&r->doc->arena, r->doc->df, r->stage, r->instr, cmds, n, &r->opts);
    r->opts.branches = NULL;
    if (stop.line)
        gl_doc_fail_limit(r->doc, GL_LIMIT_PARSE_MEMORY, stop);
}

/* `RUN <<EOF` or `RUN bash <<EOF`: the heredocs are the script. */
static bool heredocs_are_script(struct run_ctx *r, const struct df_instr *in)
{
    struct sh_cmd *cmds;
    size_t n;
    struct sh_error err;
    static const struct sh_opts words_only = {.words_only = true}; /* as NULL opts, but
                                                                       words read only */
    sh_split(&r->doc->arena, in->args[0].value, in->args[0].len, &in->args[0].map,
             &words_only, &cmds, &n, &err);
    /* a command of redirections alone (`<<EOF`) yields no command at all */
    return n == 0 || cmds[0].nwords == 0 || (cmds[0].nwords == 1 && is_shell(&cmds[0].words[0]));
}

void gl_dockerfile_run(struct gl_doc *doc, int stage, int instr, const struct df_instr *in,
                       char escape, df_lookup_fn lookup, void *ctx)
{
    struct run_ctx r = {.doc = doc, .stage = stage, .instr = instr};
    r.opts.lookup = lookup;
    r.opts.ctx = ctx;
    r.opts.escape = escape;
    r.opts.track_assignments = true;
    r.opts.words_only = true; /* gl_run_commands reads words, and infos of `sh -c` only */
    struct sh_vars vars;
    sh_vars_init(&vars, &doc->arena);
    r.opts.vars = &vars;
    if (in->json) {
        exec_form(&r, in);
        return;
    }
    if (!in->nargs)
        return;
    if (in->nheredocs && heredocs_are_script(&r, in)) {
        for (size_t i = 0; i < in->nheredocs; i++) {
            const struct df_heredoc *h = &in->heredocs[i];
            struct gl_srcmap map;
            gl_srcmap_init(&map, &doc->arena);
            gl_srcmap_identity(&map, h->content, h->content_len, h->body.line, h->body.col);
            split_text(&r, h->content, h->content_len, &map);
        }
        return;
    }
    split_text(&r, in->args[0].value, in->args[0].len, &in->args[0].map);
}
