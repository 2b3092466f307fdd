/* SPDX-License-Identifier: Apache-2.0 */
/* run_commands.c: a RUN line's commands into a build model (see run_commands.h). */
#include "parsers/shell/run_commands.h"

#include "parsers/shell/pkg_install.h"

struct run_ctx {
    struct gl_arena *a;
    struct gl_dockerfile_model *m;
    int stage, instr;
    const struct sh_opts *opts;
};

/* (always inline: one call a command; gcc kept it out of line, a frame of six saved
 * registers for a few stores) */
static inline __attribute__((always_inline)) void add_cmd(const struct run_ctx *r,
                                                          struct gl_word *words, size_t n)
{
    struct gl_dockerfile_model *m = r->m;
    struct gl_cmd *c = GL_APPEND(r->a, m->cmds, m->ncmds, m->capcmds);
    c->words = words;
    c->nwords = n;
    c->stage = r->stage;
    c->instr = r->instr;
    gl_pkg_install_scan(r->a, m, r->stage, r->instr, words, n);
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

/* Commands of a shell text: each, and the script of each `sh -c '...'` in it. */
static void add_commands(const struct run_ctx *r, struct sh_cmd *cmds, size_t n, int depth)
{
    for (size_t i = 0; i < n && !gl_arena_over(r->a); i++) {
        struct sh_cmd *c = &cmds[i];
        add_assigns(r, c);
        if (!c->nwords)
            continue;
        add_cmd(r, c->words, c->nwords);
        long sc = sh_dash_c_index(c);
        if (sc >= 0 && !c->words[sc].opaque && depth < 4) {
            struct sh_cmd *inner;
            size_t ninner;
            struct sh_error err;
            sh_split_word_again(r->a, c, (size_t)sc, r->opts, &inner, &ninner, &err);
            add_commands(r, inner, ninner, depth + 1);
        }
    }
}

void gl_run_command_words(struct gl_arena *a, struct gl_dockerfile_model *m, int stage,
                          int instr, struct gl_word *words, size_t n)
{
    const struct run_ctx r = {a, m, stage, instr, NULL};
    add_cmd(&r, words, n);
}

void gl_run_commands(struct gl_arena *a, struct gl_dockerfile_model *m, int stage, int instr,
                     struct sh_cmd *cmds, size_t n, const struct sh_opts *opts)
{
    const struct run_ctx r = {a, m, stage, instr, opts};
    add_commands(&r, cmds, n, 0);
}
