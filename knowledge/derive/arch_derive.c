/* SPDX-License-Identifier: Apache-2.0 */
/* arch_derive.c: arch lists from env, ARGs, RUN assignments, cmake and nvcc (see
 * arch_derive.h). */
#include "knowledge/derive/arch_derive.h"

#include "knowledge/arch_list.h"

#include <string.h>

static struct gl_arch_list *add_list(struct gl_doc *doc, const char *name, const char *value,
                                     struct gl_loc loc, int stage, int launch, int instr)
{
    struct gl_arch_list *l = GL_APPEND(&doc->arena, doc->archlists, doc->narchlists,
                                       doc->caparchlists);
    *l = (struct gl_arch_list){.name = name, .value = value, .loc = loc, .stage = stage,
                               .launch = launch, .instr = instr};
    return l;
}

/* NAME=value of a known arch variable: one list. */
static void named(struct gl_doc *doc, const char *name, const char *value, struct gl_loc loc,
                  int stage, int launch, int instr)
{
    enum gl_arch_syntax syntax;
    if (!gl_arch_syntax_of(name, &syntax))
        return;
    struct gl_arch_list *l = add_list(doc, name, value, loc, stage, launch, instr);
    gl_arch_list_read(l, &doc->arena, syntax, value);
}

/* A word "NAME=value" (opaque words give an opaque list). */
static void assignment_word(struct gl_doc *doc, const struct gl_word *w, size_t skip,
                            const struct gl_cmd *c)
{
    const char *t = w->text + skip, *eq = strchr(t, '=');
    if (!eq || eq == t)
        return;
    size_t nlen = (size_t)(eq - t);
    const char *colon = memchr(t, ':', nlen); /* cmake -DNAME:STRING=V */
    const char *name = gl_arena_strndup(&doc->arena, t, colon ? (size_t)(colon - t) : nlen);
    named(doc, name, w->opaque ? NULL : eq + 1, w->loc, c->stage, -1, c->instr);
}

/* The commands from_cmd reads. */
enum cmd_kind { CMD_OTHER, CMD_NVCC, CMD_EXPORTS, CMD_CMAKE, CMD_MAKE };

/* Does the word's base name (what follows its last '/') equal name[0..n)? It does when the
 * word ends with the name and the byte before is a '/' or there is none. */
static bool base_is(const char *t, size_t len, const char *name, size_t n)
{
    return len >= n && (len == n || t[len - n - 1] == '/') && !memcmp(t + len - n, name, n);
}

/* Which of the commands below a command word names. Asked of every command of every RUN
 * (23,000 on the benchmark corpus), nearly all of them none of these: the word's last byte
 * rules most out before any search for its base name (the names end in 'c', 'v', 't', 'e'
 * or 'y'). make: its command-line variables (NVCC_GENCODE=...) are read as assignments. */
static enum cmd_kind cmd_kind_of(const struct gl_word *w)
{
    const char *t = w->text;
    size_t n = gl_word_size(w);
    if (!n)
        return CMD_OTHER;
    switch (t[n - 1]) {
    case 'c':
        return base_is(t, n, "nvcc", 4) ? CMD_NVCC : CMD_OTHER;
    case 'v':
        return base_is(t, n, "env", 3) ? CMD_EXPORTS : CMD_OTHER;
    case 't':
        return base_is(t, n, "export", 6) || base_is(t, n, "typeset", 7) ? CMD_EXPORTS
                                                                          : CMD_OTHER;
    case 'e':
        return base_is(t, n, "declare", 7) ? CMD_EXPORTS
               : base_is(t, n, "cmake", 5) ? CMD_CMAKE
               : base_is(t, n, "make", 4) || base_is(t, n, "gmake", 5) ? CMD_MAKE
                                           : CMD_OTHER;
    case 'y':
        return base_is(t, n, "readonly", 8) ? CMD_EXPORTS : CMD_OTHER;
    default:
        return CMD_OTHER;
    }
}

static void from_cmd(struct gl_doc *doc, const struct gl_cmd *c)
{
    if (!c->nwords || c->words[0].opaque)
        return;
    enum cmd_kind kind = cmd_kind_of(&c->words[0]);
    if (kind == CMD_OTHER) /* the rest reads nothing else: most commands */
        return;
    if (kind == CMD_NVCC) {
        struct gl_arch_list l = {0};
        long at = gl_arch_list_read_nvcc(&l, &doc->arena, c->words, c->nwords);
        if (at < 0)
            return;
        struct gl_arch_list *out = add_list(doc, "nvcc", l.value, c->words[at].loc,
                                            c->stage, -1, c->instr);
        out->archs = l.archs;
        out->narchs = l.narchs;
        out->opaque = l.opaque;
        return;
    }
    /* export/env/declare NAME=V, and make's command-line variables (make NVCC_GENCODE=V) */
    bool assigns = kind == CMD_EXPORTS || kind == CMD_MAKE, cmake = kind == CMD_CMAKE;
    for (size_t i = 1; i < c->nwords; i++) {
        const struct gl_word *w = &c->words[i];
        if (assigns && w->text[0] != '-') {
            assignment_word(doc, w, 0, c);
        } else if (cmake && !strncmp(w->text, "-D", 2)) {
            if (w->text[2])
                assignment_word(doc, w, 2, c);
            else if (i + 1 < c->nwords)
                assignment_word(doc, &c->words[++i], 0, c);
        }
    }
}

void gl_arch_derive(struct gl_doc *doc)
{
    for (size_t i = 0; i < doc->nenv; i++) {
        const struct gl_env *e = &doc->env[i];
        if (e->origin == GL_ENV_IMAGE_CONFIG) /* how the image was built, not a build here */
            continue;
        named(doc, e->key, e->value, e->value_loc, e->stage, e->launch, -1);
    }
    const struct gl_dockerfile_model *m = doc->df;
    if (!m)
        return;
    for (size_t i = 0; i < m->nvars; i++) {
        const struct gl_build_var *v = &m->vars[i];
        named(doc, v->name, v->value, v->value_loc, v->stage, -1, v->instr);
    }
    for (size_t i = 0; i < m->ncmds; i++)
        from_cmd(doc, &m->cmds[i]);
}
