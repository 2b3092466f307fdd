/* SPDX-License-Identifier: Apache-2.0 */
/* compose_common.c: building launches from YAML (see compose_common.h). */
#include "parsers/manifest/compose_common.h"

#include <ctype.h>
#include <string.h>

#include "linter/core/ref/imageref.h"
#include "parsers/shell/shell_words.h"

int yl_begin(struct gl_doc *doc, enum gl_launch_kind kind, const char *tool, struct gl_loc loc,
             const char *name)
{
    struct gl_launch *l = GL_APPEND(&doc->arena, doc->launches, doc->nlaunches, doc->caplaunches);
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->tool = tool;
    l->loc = loc;
    l->ref = -1;
    l->shm_bytes = -1;
    l->group = doc->path;
    l->name = name;
    return (int)doc->nlaunches - 1;
}

void yl_set_image(struct gl_doc *doc, int launch, const char *text, struct gl_loc loc,
                  enum gl_ref_role role, bool unresolved)
{
    struct gl_ref *r = gl_ref_add(doc, text, loc, role, unresolved);
    r->launch = launch;
    doc->launches[launch].ref = (int)doc->nrefs - 1;
}

struct gl_env *yl_add_env(struct gl_doc *doc, int launch, const char *key, struct gl_loc key_loc,
                          const char *value, struct gl_loc value_loc)
{
    struct gl_env *e = GL_APPEND(&doc->arena, doc->env, doc->nenv, doc->capenv);
    e->key = key;
    e->value = value;
    e->key_loc = key_loc;
    e->value_loc = value_loc;
    e->origin = GL_ENV_LAUNCH;
    e->stage = -1;
    e->launch = launch;
    return e;
}

void yl_argv_word(struct gl_arena *a, struct yl_argv *av, const char *text, size_t len,
                  struct gl_loc loc, const struct gl_srcmap *map, bool opaque)
{
    struct yl_word *w = GL_APPEND(a, av->v, av->n, av->cap);
    w->w.text = text;
    w->w.len = gl_word_len(text); /* strlen's: a YAML "\0" may end it before len */
    w->w.loc = loc;
    w->w.opaque = opaque;
    w->map = map;
    w->len = len;
}

/* The words [from, to) of c; `starts`: the first of them begins a new command of the
 * argv (gl_word.next_command), as every command of a script after the first does. */
static void add_cmd_words(struct gl_arena *a, struct yl_argv *av, const struct sh_cmd *c,
                          size_t from, size_t to, bool starts)
{
    for (size_t i = from; i < to; i++) {
        yl_argv_word(a, av, c->words[i].text, c->info[i].len, c->words[i].loc, NULL,
                     c->words[i].opaque);
        av->v[av->n - 1].next_command = starts && i == from;
        if (c->info[i].may_split)
            av->opaque = true;
    }
}

/* The words of every command of a shell text; `sh -c SCRIPT` scripts spliced in. */
void yl_argv_shell(struct gl_arena *a, struct yl_argv *av, const char *text, size_t len,
                   const struct gl_srcmap *map)
{
    struct sh_cmd *cmds = NULL;
    size_t n = 0;
    sh_split(a, text, len, map, NULL, &cmds, &n, NULL);
    for (size_t i = 0; i < n; i++) {
        const struct sh_cmd *c = &cmds[i];
        long k = sh_dash_c_index(c);
        bool later = i > 0; /* a command after the first of the text */
        if (k < 0 || c->words[k].opaque) {
            add_cmd_words(a, av, c, 0, c->nwords, later);
            if (k >= 0)
                av->opaque = true;
            continue;
        }
        add_cmd_words(a, av, c, 0, (size_t)k, later);
        struct sh_cmd *inner = NULL;
        size_t ninner = 0;
        sh_split_word_again(a, c, (size_t)k, NULL, &inner, &ninner, NULL);
        for (size_t j = 0; j < ninner; j++) /* each begins a command, after `sh -c` */
            add_cmd_words(a, av, &inner[j], 0, inner[j].nwords, true);
        add_cmd_words(a, av, c, (size_t)k + 1, c->nwords, false);
    }
}

static bool is_shell(const char *w)
{
    const char *slash = strrchr(w, '/');
    const char *b = slash ? slash + 1 : w;
    static const char *const shells[] = {"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"};
    for (size_t i = 0; i < sizeof shells / sizeof shells[0]; i++)
        if (!strcmp(b, shells[i]))
            return true;
    return false;
}

/* Index of the SCRIPT word of `sh [-opts] -c [--] SCRIPT` in a list-form argv, or -1: the
 * script is the first word after the options, past an end-of-options `--` or `-` (the
 * Kubernetes idiom `command: ["/bin/bash", "-c", "--"]` with the script in `args`). */
static long dash_c_script(const struct yl_argv *av)
{
    if (!av->n || av->v[0].w.opaque || !is_shell(av->v[0].w.text))
        return -1;
    bool dash_c = false;
    for (size_t i = 1; i < av->n; i++) {
        const char *w = av->v[i].w.text;
        if (av->v[i].w.opaque)
            return -1;
        if (!strcmp(w, "--") || !strcmp(w, "-"))
            return dash_c && i + 1 < av->n ? (long)i + 1 : -1;
        if (w[0] != '-')
            return dash_c ? (long)i : -1;
        if (w[1] == '-') /* --login, --norc */
            continue;
        if (!strcmp(w, "-o")) { /* -o pipefail */
            i++;
            continue;
        }
        if (strchr(w, 'c'))
            dash_c = true;
    }
    return -1;
}

void yl_argv_finish(struct gl_doc *doc, int launch, struct yl_argv *av)
{
    struct gl_arena *a = &doc->arena;
    long k = dash_c_script(av);
    struct yl_argv out = {0};
    if (k >= 0 && !av->v[k].w.opaque) {
        for (long i = 0; i < k; i++)
            *GL_APPEND(a, out.v, out.n, out.cap) = av->v[i];
        const struct yl_word *script = &av->v[k];
        struct gl_srcmap one;
        const struct gl_srcmap *map = script->map;
        if (!map) {
            gl_srcmap_init(&one, a);
            gl_srcmap_add(&one, 0, script->w.loc.line, script->w.loc.col);
            map = &one;
        }
        yl_argv_shell(a, &out, script->w.text, script->len, map);
        if (out.n > (size_t)k) /* the script's first command follows `sh -c` */
            out.v[k].next_command = true;
        for (size_t i = (size_t)k + 1; i < av->n; i++)
            *GL_APPEND(a, out.v, out.n, out.cap) = av->v[i];
        out.opaque = out.opaque || av->opaque;
        av = &out;
    } else if (k >= 0) {
        av->opaque = true;
    }
    struct gl_launch *l = &doc->launches[launch];
    l->argv = gl_arena_alloc(a, (av->n ? av->n : 1) * sizeof *l->argv);
    l->next_command = NULL;
    for (size_t i = 0; i < av->n; i++) {
        l->argv[i] = av->v[i].w;
        if (av->v[i].next_command && !l->next_command)
            l->next_command = gl_arena_alloc(a, av->n * sizeof *l->next_command);
        if (l->next_command)
            l->next_command[i] = av->v[i].next_command;
    }
    l->nargv = av->n;
    l->argv_opaque = av->opaque;
}

struct gl_mount *yl_add_mount(struct gl_doc *doc, int launch)
{
    struct gl_launch *l = &doc->launches[launch];
    struct gl_mount *m = GL_APPEND(&doc->arena, l->mounts, l->nmounts, l->capmounts);
    memset(m, 0, sizeof *m);
    return m;
}

struct gl_gpu_request *yl_add_gpu(struct gl_doc *doc, int launch, enum gl_gpu_kind kind,
                                  const char *value, struct gl_loc loc)
{
    struct gl_launch *l = &doc->launches[launch];
    struct gl_gpu_request *g = GL_APPEND(&doc->arena, l->gpus, l->ngpus, l->capgpus);
    memset(g, 0, sizeof *g);
    g->kind = kind;
    g->value = value;
    g->loc = loc;
    g->memory_loc = loc;
    return g;
}

int64_t yl_size_bytes(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] == ' ')
        i++;
    double v = 0, scale = 0;
    bool digits = false;
    for (; i < len && (isdigit((unsigned char)s[i]) || s[i] == '.'); i++) {
        if (s[i] == '.') {
            if (scale)
                return -1;
            scale = 1;
            continue;
        }
        digits = true;
        v = v * 10 + (s[i] - '0');
        if (scale)
            scale *= 10;
        if (v > 1e18)
            return -1;
    }
    if (!digits)
        return -1;
    if (scale)
        v /= scale;
    double mult = 1;
    if (i < len) {
        char u = (char)tolower((unsigned char)s[i++]);
        switch (u) {
        case 'b': mult = 1; break;
        case 'k': mult = 1024.0; break;
        case 'm': mult = 1024.0 * 1024; break;
        case 'g': mult = 1024.0 * 1024 * 1024; break;
        case 't': mult = 1024.0 * 1024 * 1024 * 1024; break;
        case 'p': mult = 1024.0 * 1024 * 1024 * 1024 * 1024; break;
        default: return -1;
        }
        if (u != 'b') {
            if (i < len && tolower((unsigned char)s[i]) == 'i')
                i++;
            if (i < len && tolower((unsigned char)s[i]) == 'b')
                i++;
        }
    }
    while (i < len && s[i] == ' ')
        i++;
    if (i != len || v * mult > 9.2e18)
        return -1;
    return (int64_t)(v * mult);
}

bool yl_is_gpu_node(const char *s)
{
    if (!gl_has_prefix(s, "/dev/nvidia"))
        return false;
    s += strlen("/dev/nvidia");
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s))
        s++;
    return *s == 0 || *s == ':';
}
