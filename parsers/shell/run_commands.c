/* SPDX-License-Identifier: Apache-2.0 */
/* run_commands.c: a RUN line's commands into a build model (see run_commands.h). */
#include "parsers/shell/run_commands.h"

#include "parsers/shell/pkg_install.h"
#include "parsers/shell/sh_test.h"

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

/* The ifs of one shell text whose condition the text decides (sh_test.h), and the arms
 * that never run: a condition that fails rules out its `then` arm, one that holds the arms
 * after it (elif, else). Horovod's Dockerfiles install `${TENSORFLOW_PACKAGE}` (an ARG
 * `tensorflow-gpu==2.10.0`) under `!= "tf-nightly"` and again under `== "tf-nightly"`:
 * the second never runs, and what it installs is no fact of the image. A command that
 * stands in an arm ruled out is dropped: an arm of its innermost if, or (with the text's
 * sh_branches: where each if and case stands) an arm of an if it is nested in, through
 * ifs and cases, up to NEST_MAX levels (an `if` inside the dead arm of an `if`, whose own
 * condition may not be decided). */
#define DECIDED_MAX 8
#define NEST_MAX 32
struct decided {
    uint32_t branch;
    bool then_out; /* the condition fails */
};
struct decided_ifs {
    struct decided at[DECIDED_MAX];
    size_t n;
    const struct sh_branches *nest; /* of the text, or NULL (innermost ifs only) */
};

/* Is cmds[i] an if's whole condition: not one of a list (`a; b; then`, `a && b`)? */
static bool whole_condition(const struct sh_cmd *cmds, size_t n, size_t i)
{
    const struct sh_cmd *c = &cmds[i];
    bool ends = !c->sep[0] || (!c->sep[1] && (c->sep[0] == ';' || c->sep[0] == '\n'));
    if (!c->condition || c->arm || !ends)
        return false;
    return i + 1 == n || !(cmds[i + 1].condition && cmds[i + 1].branch == c->branch);
}

/* The decided if `branch`, or NULL. */
static const struct decided *decided_if(const struct decided_ifs *d, uint32_t branch)
{
    for (size_t k = 0; k < d->n; k++)
        if (d->at[k].branch == branch)
            return &d->at[k];
    return NULL;
}

/* Is arm `arm` of branch `branch`, or the arm of an if or case it stands in, ruled out? */
static bool arm_out(const struct decided_ifs *d, uint32_t branch, uint8_t arm)
{
    for (int up = 0; branch && up < NEST_MAX; up++) {
        const struct decided *k = decided_if(d, branch);
        if (k && (arm == 0) == k->then_out)
            return true;
        if (!d->nest || branch > d->nest->n)
            return false;
        const struct sh_branch_parent *p = &d->nest->items[branch - 1];
        branch = p->branch;
        arm = p->arm;
    }
    return false;
}

/* Does cmds[i] stand in an arm ruled out? Decides the if whose condition it is. */
static bool ruled_out(struct decided_ifs *d, const struct sh_cmd *cmds, size_t n, size_t i)
{
    const struct sh_cmd *c = &cmds[i];
    if (!c->branch || !d->n) {
        /* (no if decided yet: most texts, and every command before the first) */
    } else if (arm_out(d, c->branch, c->arm)) {
        return true;
    } else if (decided_if(d, c->branch)) {
        return false;
    }
    bool holds;
    if (c->branch && d->n < DECIDED_MAX && whole_condition(cmds, n, i) &&
        sh_test_known(c, &holds))
        d->at[d->n++] = (struct decided){c->branch, !holds};
    return false;
}

/* Commands of a shell text: each, and the script of each `sh -c '...'` in it. `outer`:
 * the branch of the `sh -c` command whose script the text is (none at depth 0); an `if`
 * inside the script is told from the RUN's own by the depth in its number's top byte. */
static void add_commands(const struct run_ctx *r, struct sh_cmd *cmds, size_t n, int depth,
                         struct run_branch outer, const struct sh_branches *nest)
{
    struct decided_ifs decided = {.n = 0, .nest = nest};
    for (size_t i = 0; i < n; i++) {
        struct sh_cmd *c = &cmds[i];
        if (gl_arena_over(r->a)) { /* (the one before took the rest, an inner one perhaps) */
            if (!r->stop->line)
                *r->stop = i ? cmds[i - 1].loc : c->loc;
            return;
        }
        if (ruled_out(&decided, cmds, n, i))
            continue;
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
            struct sh_branches t = {NULL, 0, 0}; /* (the script's own ifs) */
            struct sh_opts o;
            if (r->opts)
                o = *r->opts, o.branches = r->opts->branches ? &t : NULL;
            sh_split_word_again(r->a, c, (size_t)sc, r->opts ? &o : NULL, &inner, &ninner,
                                &err);
            add_commands(r, inner, ninner, depth + 1, at, r->opts ? o.branches : NULL);
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
    add_commands(&r, cmds, n, 0, (struct run_branch){0, 0}, opts ? opts->branches : NULL);
    if (!stop.line && n && gl_arena_over(a)) /* (the last command took the rest) */
        stop = cmds[n - 1].loc;
    return stop;
}
