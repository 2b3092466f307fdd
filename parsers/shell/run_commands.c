/* SPDX-License-Identifier: Apache-2.0 */
/* run_commands.c: a RUN line's commands into a build model (see run_commands.h). */
#include "parsers/shell/run_commands.h"

#include "parsers/shell/pkg_install.h"

struct run_ctx {
    struct gl_arena *a;
    struct gl_dockerfile_model *m;
    int stage, instr;
    const struct sh_opts *opts;
    struct gl_loc *stop; /* the command that took the arena past its limit (the first set) */
};

/* Where a command stands among the shell's alternatives (sh_cmd.branch and .arm). */
struct run_branch {
    uint32_t branch;
    uint8_t arm;
};

/* (always inline: one call a command; gcc kept it out of line, a frame of six saved
 * registers for a few stores) */
static inline __attribute__((always_inline)) void add_cmd(const struct run_ctx *r,
                                                          struct gl_word *words, size_t n,
                                                          struct run_branch at)
{
    struct gl_dockerfile_model *m = r->m;
    size_t pkgs = m->npkgs, indexes = m->nindexes;
    struct gl_cmd *c = GL_APPEND(r->a, m->cmds, m->ncmds, m->capcmds);
    c->words = words;
    c->nwords = n;
    c->stage = r->stage;
    c->instr = r->instr;
    gl_pkg_install_scan(r->a, m, r->stage, r->instr, words, n);
    if (!at.branch)
        return;
    for (size_t k = pkgs; k < m->npkgs; k++)
        m->pkgs[k].branch = at.branch, m->pkgs[k].arm = at.arm;
    for (size_t k = indexes; k < m->nindexes; k++)
        m->indexes[k].branch = at.branch, m->indexes[k].arm = at.arm;
}

/* The NAME=value assignments of a command, as build variables of the stage. */
static void add_assigns(const struct run_ctx *r, const struct sh_cmd *c)
{
    struct gl_dockerfile_model *m = r->m;
    for (size_t k = 0; k < c->nassigns; k++) {
        const struct sh_assign *a = &c->assigns[k];
        struct gl_build_var *v = GL_APPEND(r->a, m->vars, m->nvars, m->capvars);
        bool known = !a->opaque && !a->append && !a->array;
        v->name = a->name;
        v->value = known ? gl_arena_strndup(r->a, a->value, a->value_len) : NULL;
        v->loc = a->loc;
        v->value_loc = a->value_loc;
        v->stage = r->stage;
        v->instr = r->instr;
        v->arg = false;
    }
}

/* Commands of a shell text: each, and the script of each `sh -c '...'` in it. `outer`:
 * the branch of the `sh -c` command whose script the text is (none at depth 0); an `if`
 * inside the script is told from the RUN's own by the depth in its number's top byte. */
static void add_commands(const struct run_ctx *r, struct sh_cmd *cmds, size_t n, int depth,
                         struct run_branch outer)
{
    for (size_t i = 0; i < n; i++) {
        struct sh_cmd *c = &cmds[i];
        if (gl_arena_over(r->a)) { /* (the one before took the rest, an inner one perhaps) */
            if (!r->stop->line)
                *r->stop = i ? cmds[i - 1].loc : c->loc;
            return;
        }
        add_assigns(r, c);
        if (!c->nwords)
            continue;
        struct run_branch at = outer;
        if (c->branch)
            at = (struct run_branch){c->branch | (uint32_t)depth << 24, c->arm};
        add_cmd(r, c->words, c->nwords, at);
        long sc = sh_dash_c_index(c);
        if (sc >= 0 && !c->words[sc].opaque && depth < 4) {
            struct sh_cmd *inner;
            size_t ninner;
            struct sh_error err;
            sh_split_word_again(r->a, c, (size_t)sc, r->opts, &inner, &ninner, &err);
            add_commands(r, inner, ninner, depth + 1, at);
        }
    }
}

void gl_run_command_words(struct gl_arena *a, struct gl_dockerfile_model *m, int stage,
                          int instr, struct gl_word *words, size_t n)
{
    const struct run_ctx r = {a, m, stage, instr, NULL, NULL};
    add_cmd(&r, words, n, (struct run_branch){0, 0});
}

struct gl_loc gl_run_commands(struct gl_arena *a, struct gl_dockerfile_model *m, int stage,
                              int instr, struct sh_cmd *cmds, size_t n,
                              const struct sh_opts *opts)
{
    struct gl_loc stop = {0, 0};
    const struct run_ctx r = {a, m, stage, instr, opts, &stop};
    add_commands(&r, cmds, n, 0, (struct run_branch){0, 0});
    if (!stop.line && n && gl_arena_over(a)) /* (the last command took the rest) */
        stop = cmds[n - 1].loc;
    return stop;
}
