/* dockerfile_run.c: RUN into commands and package installs (see dockerfile_run.h). */
#include "parsers/dockerfile_run.h"

#include <string.h>

#include "parsers/pkg_install.h"

static void add_cmd(struct gl_doc *doc, int stage, struct gl_word *words, size_t n)
{
    struct gl_dockerfile_model *m = doc->df;
    struct gl_cmd *c = GL_APPEND(&doc->arena, m->cmds, m->ncmds, m->capcmds);
    c->words = words;
    c->nwords = n;
    c->stage = stage;
    gl_pkg_install_scan(doc, stage, words, n);
}

static void exec_form(struct gl_doc *doc, int stage, const struct df_instr *in)
{
    struct gl_word *w = gl_arena_alloc(&doc->arena, (in->nargs ? in->nargs : 1) * sizeof *w);
    for (size_t i = 0; i < in->nargs; i++) {
        w[i].text = in->args[i].value;
        w[i].loc = in->args[i].loc;
        w[i].opaque = false;
    }
    add_cmd(doc, stage, w, in->nargs);
}

void gl_dockerfile_run(struct gl_doc *doc, int stage, const struct df_instr *in, char escape,
                       df_lookup_fn lookup, void *ctx)
{
    (void)escape;
    (void)lookup;
    (void)ctx;
    if (in->json) {
        exec_form(doc, stage, in);
        return;
    }
}
