/* SPDX-License-Identifier: Apache-2.0 */
/* launch_model.c: building one launch: values cut from words, the image, env, argv
 * (see launch_internal.h); the group of a document block's detached launches
 * (gl_launch_group, launch_shell.h). */
#include <stdio.h>
#include <string.h>

#include "linter/core/ref/imageref.h"
#include "parsers/launch/launch_internal.h"

struct lv lv_word(struct gl_arena *a, const struct sh_cmd *cmd, size_t wi)
{
    (void)a;
    return (struct lv){cmd, wi, 0, cmd->words[wi].text, cmd->info[wi].len, cmd->words[wi].opaque};
}

struct lv lv_sub(struct gl_arena *a, const struct lv *v, size_t start, size_t len)
{
    if (start > v->len)
        start = v->len;
    if (len > v->len - start)
        len = v->len - start;
    return (struct lv){v->cmd, v->wi, v->off + start, gl_arena_strndup(a, v->text + start, len),
                       len, v->opaque};
}

struct gl_loc lv_loc(const struct lv *v, size_t k)
{
    return sh_word_byte_loc(v->cmd, v->wi, v->off + k);
}

struct gl_loc lv_end_loc(const struct lv *v)
{
    if (!v->len)
        return lv_loc(v, 0);
    struct gl_loc l = lv_loc(v, v->len - 1);
    l.col++;
    return l;
}

bool lv_over(struct gl_doc *doc, const struct lv *v, size_t k)
{
    if (__builtin_expect(!gl_arena_over(&doc->arena), 1))
        return false;
    gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, lv_loc(v, k < v->len ? k : v->len));
    return true;
}

bool lv_is(const struct lv *v, const char *s)
{
    return strlen(s) == v->len && memcmp(v->text, s, v->len) == 0;
}

const char *lv_pattern(struct gl_arena *a, const struct lv *v)
{
    if (!v->opaque)
        return v->text;
    const struct sh_word_info *in = &v->cmd->info[v->wi];
    struct gl_buf b;
    gl_buf_init(&b);
    bool marked = false;
    for (size_t k = 0; k < in->nspans; k++) {
        const struct sh_span *sp = &in->spans[k];
        size_t from = sp->out > v->off ? sp->out : v->off;
        size_t to = sp->out + sp->len < v->off + v->len ? sp->out + sp->len : v->off + v->len;
        if (from >= to)
            continue;
        if (!sp->opaque)
            gl_buf_add(&b, v->cmd->words[v->wi].text + from, to - from);
        else if (!b.len || b.data[b.len - 1] != '*')
            gl_buf_addc(&b, '*');
        marked |= sp->opaque;
    }
    const char *out = gl_arena_strdup(a, marked ? gl_buf_str(&b) : "*");
    gl_buf_free(&b);
    return out;
}

bool value_true(const char *s)
{
    return !(!strcmp(s, "false") || !strcmp(s, "0") || !strcmp(s, "False") ||
             !strcmp(s, "FALSE"));
}

void launch_begin(struct launch_build *b, struct gl_launch_scan *scan, enum gl_launch_kind kind,
                  const char *tool, struct gl_loc loc)
{
    struct gl_doc *doc = scan->doc;
    b->scan = scan;
    b->doc = doc;
    b->index = (int)doc->nlaunches;
    b->l = GL_APPEND(&doc->arena, doc->launches, doc->nlaunches, doc->caplaunches);
    memset(b->l, 0, sizeof *b->l);
    b->l->kind = kind;
    b->l->tool = tool;
    b->l->loc = loc;
    b->l->ref = -1;
    b->l->shm_bytes = -1;
    b->l->jetson_section = scan->jetson_section;
    b->nvidia_runtime = false;
    b->visible_env = -1;
    b->has_entrypoint = false;
    b->own_flags = NULL;
}

/* The launch's image, `skip` bytes into the value (past "docker://"). */
static struct gl_ref *add_ref(struct launch_build *b, const struct lv *img, size_t skip)
{
    b->l->ref = (int)b->doc->nrefs;
    struct gl_ref *r = gl_ref_add(b->doc, img->text + skip, lv_loc(img, skip), GL_REF_LAUNCH, false);
    r->launch = b->index;
    return r;
}

void launch_set_image(struct launch_build *b, const struct lv *img)
{
    if (img->opaque)
        return;
    add_ref(b, img, 0);
}

static bool has_suffix_nocase(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && gl_streq_nocase(s + n - m, suf);
}

void launch_set_apptainer_image(struct launch_build *b, const struct lv *img)
{
    static const char *const registry[] = {"docker://", "oras://"};
    static const char *const local_files[] = {".sif", ".simg", ".img", ".sqsh", ".sqfs",
                                              ".squashfs", ".ext3"};
    if (img->opaque || !img->len)
        return;
    const char *t = img->text;
    for (size_t k = 0; k < sizeof registry / sizeof registry[0]; k++)
        if (gl_has_prefix(t, registry[k])) {
            add_ref(b, img, strlen(registry[k]));
            return;
        }
    if (gl_has_prefix(t, "instance://"))
        return; /* a running instance, not an image */
    if (strstr(t, "://") || gl_has_prefix(t, "docker-daemon:") ||
        gl_has_prefix(t, "docker-archive:") || gl_has_prefix(t, "oci-archive:") ||
        gl_has_prefix(t, "oci:")) {
        add_ref(b, img, 0); /* library://, shub://, http://...: no registry ref (ok is false) */
        return;
    }
    struct gl_ref *r = add_ref(b, img, 0);
    r->local = true;
    for (size_t k = 0; k < sizeof local_files / sizeof local_files[0]; k++)
        if (has_suffix_nocase(t, local_files[k]))
            return;
    b->l->apptainer_sandbox = true;
}

struct gl_env *launch_env_entry(struct launch_build *b, const char *key, size_t klen,
                                struct gl_loc key_loc)
{
    struct gl_doc *doc = b->doc;
    struct gl_env *e = GL_APPEND(&doc->arena, doc->env, doc->nenv, doc->capenv);
    memset(e, 0, sizeof *e);
    e->key = gl_arena_strndup(&doc->arena, key, klen);
    e->key_loc = key_loc;
    e->value_loc = key_loc;
    e->origin = GL_ENV_LAUNCH;
    e->stage = -1;
    e->launch = b->index;
    if (!strcmp(e->key, "NVIDIA_VISIBLE_DEVICES"))
        b->visible_env = (int)(doc->nenv - 1);
    return e;
}

int launch_add_env(struct launch_build *b, const struct lv *kv)
{
    const char *eq = memchr(kv->text, '=', kv->len);
    size_t klen = eq ? (size_t)(eq - kv->text) : kv->len;
    if (!klen)
        return -1;
    struct gl_doc *doc = b->doc;
    struct gl_env *e = launch_env_entry(b, kv->text, klen, lv_loc(kv, 0));
    if (eq) {
        size_t vs = klen + 1;
        e->value_loc = vs < kv->len ? lv_loc(kv, vs) : lv_end_loc(kv);
        if (!kv->opaque)
            e->value = gl_arena_strndup(&doc->arena, kv->text + vs, kv->len - vs);
    } /* (else from the caller's environment: unknown, at the key) */
    return (int)(doc->nenv - 1);
}

struct argv_acc {
    struct gl_word *w;
    size_t n, cap;
    size_t *starts, nstarts, capstarts; /* where each command of a spliced script begins */
    bool *opaque;                       /* set when a word may split into unknown words */
};

static void argv_push(struct launch_build *b, struct argv_acc *acc, const struct sh_cmd *cmd,
                      size_t k)
{
    *GL_APPEND(&b->doc->arena, acc->w, acc->n, acc->cap) = cmd->words[k];
    if (cmd->words[k].opaque && sh_word_may_be_words(&cmd->info[k]))
        *acc->opaque = true; /* (`$VENV/bin/python` is one word) */
}

/* Words [from, n) of cmd; the script of `sh -c SCRIPT` is replaced by its words. */
static void argv_add(struct launch_build *b, struct argv_acc *acc, const struct sh_cmd *cmd,
                     size_t from, int depth)
{
    struct sh_cmd view = *cmd;
    view.words += from;
    view.info += from;
    view.nwords -= from;
    long sc = from < cmd->nwords ? sh_dash_c_index(&view) : -1;
    size_t script = sc >= 0 ? from + (size_t)sc : cmd->nwords;
    for (size_t k = from; k < cmd->nwords; k++) {
        if (k != script) {
            argv_push(b, acc, cmd, k);
            continue;
        }
        if (cmd->words[k].opaque || depth >= 4) {
            argv_push(b, acc, cmd, k);
            *acc->opaque = true;
            continue;
        }
        struct sh_vars vars;
        sh_vars_init(&vars, &b->doc->arena);
        struct sh_opts o = {.track_assignments = true, .vars = &vars};
        struct sh_cmd *inner;
        size_t ninner;
        struct sh_error err;
        sh_split_word_again(&b->doc->arena, cmd, k, &o, &inner, &ninner, &err);
        for (size_t i = 0; i < ninner; i++)
            if (inner[i].nwords) {
                *GL_APPEND(&b->doc->arena, acc->starts, acc->nstarts, acc->capstarts) = acc->n;
                argv_add(b, acc, &inner[i], 0, depth + 1);
            }
    }
}

/* The start marks of acc as an array parallel to its words, NULL when there are none. */
static bool *argv_starts(struct launch_build *b, const struct argv_acc *acc)
{
    bool *marks = NULL;
    for (size_t k = 0; k < acc->nstarts; k++)
        if (acc->starts[k] < acc->n && acc->starts[k] > 0) {
            if (!marks)
                marks = gl_arena_alloc(&b->doc->arena, acc->n * sizeof *marks);
            marks[acc->starts[k]] = true;
        }
    return marks;
}

void launch_set_argv(struct launch_build *b, const struct sh_cmd *cmd, size_t from)
{
    launch_set_command(b, NULL, 0, cmd, from);
}

void launch_set_command(struct launch_build *b, const struct gl_word *head, size_t nhead,
                        const struct sh_cmd *cmd, size_t from)
{
    struct gl_arena *a = &b->doc->arena;
    struct argv_acc acc = {.opaque = &b->l->argv_opaque};
    size_t rest = from < cmd->nwords ? cmd->nwords - from : 0;
    struct sh_cmd view = *cmd; /* the head words, then the rest */
    view.nwords = nhead + rest;
    view.words = nhead ? gl_arena_alloc(a, view.nwords * sizeof *view.words) : NULL;
    view.info = nhead ? gl_arena_alloc(a, view.nwords * sizeof *view.info) : NULL;
    for (size_t k = 0; k < nhead; k++) {
        view.words[k] = head[k];
        view.info[k].len = gl_word_size(&head[k]); /* (no spans: a script is at its word) */
    }
    if (nhead && rest)
        memcpy(view.words + nhead, cmd->words + from, rest * sizeof *view.words);
    if (nhead && rest && cmd->info)
        memcpy(view.info + nhead, cmd->info + from, rest * sizeof *view.info);
    if (nhead && sh_dash_c_index(&view) >= 0) {
        argv_add(b, &acc, &view, 0, 0); /* `--entrypoint sh img -c SCRIPT` runs SCRIPT */
    } else {
        for (size_t k = 0; k < nhead; k++)
            *GL_APPEND(a, acc.w, acc.n, acc.cap) = head[k];
        if (rest)
            argv_add(b, &acc, cmd, from, 0);
    }
    b->l->argv = acc.w;
    b->l->nargv = acc.n;
    b->l->next_command = argv_starts(b, &acc);
}

void launch_set_steps(struct launch_build *b, const struct sh_cmd *cmds, size_t ncmds)
{
    struct argv_acc acc = {.opaque = &b->l->steps_opaque};
    for (size_t i = 0; i < ncmds; i++)
        if (cmds[i].nwords) {
            *GL_APPEND(&b->doc->arena, acc.starts, acc.nstarts, acc.capstarts) = acc.n;
            argv_add(b, &acc, &cmds[i], 0, 0);
        }
    b->l->steps = acc.w;
    b->l->nsteps = acc.n;
    b->l->steps_next = argv_starts(b, &acc);
}

struct gl_mount *launch_add_mount(struct launch_build *b)
{
    struct gl_launch *l = b->l;
    struct gl_mount *m = GL_APPEND(&b->doc->arena, l->mounts, l->nmounts, l->capmounts);
    memset(m, 0, sizeof *m);
    return m;
}

struct gl_gpu_request *launch_add_gpu(struct launch_build *b, enum gl_gpu_kind kind,
                                      const struct lv *v)
{
    struct gl_launch *l = b->l;
    struct gl_gpu_request *g = GL_APPEND(&b->doc->arena, l->gpus, l->ngpus, l->capgpus);
    memset(g, 0, sizeof *g);
    g->kind = kind;
    g->value = v->text;
    g->loc = lv_loc(v, 0);
    g->memory_loc = g->loc;
    return g;
}

/* ---- the group of a document block's detached launches (launch_shell.h) ---- */

/* Bytes of "PATH#LINE" without its NUL. */
static size_t group_len(const struct gl_launch_scan *s, uint32_t line)
{
    size_t n = strlen(s->doc->path ? s->doc->path : "") + 2; /* '#' and a digit */
    for (; line >= 10; line /= 10)
        n++;
    return n;
}

void gl_launch_group_later(struct gl_launch_scan *s, uint32_t line)
{
    s->group_room = gl_arena_take(&s->doc->arena, group_len(s, line) + 1);
    s->group_line = line;
    s->group = NULL;
}

const char *gl_launch_group(struct gl_launch_scan *s)
{
    if (s->group_room) {
        snprintf(s->group_room, group_len(s, s->group_line) + 1, "%s#%u",
                 s->doc->path ? s->doc->path : "", (unsigned)s->group_line);
        s->group = s->group_room;
        s->group_room = NULL;
    }
    return s->group;
}
