/* SPDX-License-Identifier: Apache-2.0 */
/* ci_containers.c: the containers of CI jobs -> launches (see ci_containers.h). */
#include "parsers/launch/ci/ci_containers.h"

#include <string.h>

#include "linter/core/ref/imageref.h"
#include "parsers/launch/ci/ci_reference.h"
#include "parsers/launch/launch_internal.h"

struct job {
    struct gl_doc *doc;
    struct yt_stream *s;
    struct yt_node *job;
    struct gl_launch_scan scan;
    const char *name;
    const char *tool;
    bool gpu_unseen;
    struct yt_node *vars[2]; /* GitLab: the job's `variables:`, then the global ones */
    bool vars_unknown[2];    /* ... given by a `!reference` that names nothing in the file */
    struct yt_node *root;    /* GitLab: the file's top-level mapping (`!reference` paths) */
};

/* Scalar n split as shell commands into *cmds, GitHub `${{ ... }}` expressions turned into
 * unset variables of the same length (so they are opaque and every position stays exact);
 * returns their number (0 when n is no text). */
static size_t split_all(struct job *j, struct yt_node *n, struct sh_cmd **cmds)
{
    *cmds = NULL;
    if (!yt_is_scalar(n) || yt_is_null(n) || gl_arena_over(&j->doc->arena))
        return 0; /* (past parse-memory the doc is a GL900: aliases must not multiply work) */
    struct gl_arena *a = &j->doc->arena;
    char *t = gl_arena_strndup(a, n->value, n->len);
    for (char *p = t; (p = strstr(p, "${{"));) {
        char *close = strstr(p + 3, "}}");
        if (!close)
            break;
        /* `${{ x }}` -> `${GGGGGG}`: the inner `{`, the text and the first `}` */
        memset(p + 2, 'G', (size_t)(close - p) - 1);
        p = close + 2;
    }
    struct gl_srcmap *m = gl_arena_alloc(a, sizeof *m); /* (the words keep it) */
    gl_srcmap_init(m, a);
    yt_scalar_srcmap(j->s, n, m);
    struct sh_vars vars;
    sh_vars_init(&vars, a);
    struct sh_opts o = {.vars = &vars};
    size_t nc;
    sh_split(a, t, n->len, m, &o, cmds, &nc, NULL);
    return nc;
}

/* The first command of scalar n split as shell words (split_all), NULL when there is none. */
static const struct sh_cmd *split_scalar(struct job *j, struct yt_node *n)
{
    struct sh_cmd *cmds;
    size_t nc = split_all(j, n, &cmds);
    return nc && cmds[0].nwords ? &cmds[0] : NULL;
}

/* Is a step's `shell:` (or the job's `defaults.run.shell`) a POSIX shell: absent (bash),
 * `bash`, `sh`, `bash -el {0}`? (python, pwsh, cmd run no shell commands.) */
static bool posix_shell(struct yt_node *shell)
{
    if (!yt_is_scalar(shell) || yt_is_null(shell))
        return true;
    size_t n = strcspn(shell->value, " \t");
    return (n == 4 && !strncmp(shell->value, "bash", 4)) ||
           (n == 2 && !strncmp(shell->value, "sh", 2));
}

/* The commands of the job's steps (their `run:` texts in a POSIX shell), which run in its
 * container, as the container's steps (gl_launch.steps). */
static void job_steps(struct launch_build *b, struct job *j)
{
    struct yt_node *dflt = yt_get(j->s, yt_get(j->s, yt_get(j->s, j->job, "defaults", NULL),
                                               "run", NULL),
                                  "shell", NULL);
    struct yt_node *steps = yt_get(j->s, j->job, "steps", NULL);
    struct sh_cmd *all = NULL;
    size_t nall = 0, cap = 0;
    for (size_t i = 0; yt_is_seq(steps) && i < steps->nitems; i++) {
        struct yt_node *step = yt_item(j->s, steps, i), *key = NULL;
        struct yt_node *shell = yt_get(j->s, step, "shell", &key);
        if (!posix_shell(key ? shell : dflt))
            continue;
        struct sh_cmd *cmds;
        size_t nc = split_all(j, yt_get(j->s, step, "run", NULL), &cmds);
        for (size_t k = 0; k < nc; k++)
            *GL_APPEND(&j->doc->arena, all, nall, cap) = cmds[k];
    }
    launch_set_steps(b, all, nall);
}

static bool expression(struct yt_node *n)
{
    return yt_is_scalar(n) && (memmem(n->value, n->len, "${{", 3) || memchr(n->value, '$', n->len));
}

/* A GitLab variable: `KEY: value`, `KEY: {value: v, description: d, expand: false}` or
 * `KEY: !reference [job, variables, NAME]` (followed in the file, ci_reference.h): its
 * value node (NULL when none, or a reference that names nothing: unknown). */
static struct yt_node *variable_value(struct job *j, struct yt_node *v)
{
    v = ci_resolve(j->s, j->root, v);
    return yt_is_map(v) ? yt_get(j->s, v, "value", NULL) : v;
}

/* The literal value of GitLab variable name[0..len) for the job (its own `variables:`
 * first, then the global ones), NULL when it is not set there or not literal (it holds
 * `$`: another variable, or a raw `$`). Looked up, not scanned: an image may name a
 * variable of thousands many times (50,000 names of 20,000 variables: 52 s). */
static const struct yt_node *variable_literal(struct job *j, const char *name, size_t len)
{
    for (size_t k = 0; k < 2; k++) {
        if (j->vars_unknown[k])
            return NULL; /* (variables gpulint cannot see may set it) */
        struct yt_node *v = yt_is_map(j->vars[k]) ? yt_get_n(j->s, j->vars[k], name, len, NULL)
                                                  : NULL;
        if (!v)
            continue;
        v = variable_value(j, v);
        return !yt_is_scalar(v) || yt_is_null(v) || memchr(v->value, '$', v->len) ? NULL : v;
    }
    return NULL;
}

/* An image reference is shorter than this (docker: a name of 255 bytes, a tag of 128, a
 * digest); an expansion past it is no image (and its variables could make it gigabytes). */
#define IMAGE_EXPAND_MAX 4096

/* A GitLab image with its `$VAR`/`${VAR}` resolved from the job's variables (`$$` is a
 * `$`), NULL when some variable is not a literal there (a predefined CI_* variable, one
 * set in the project's settings), or when it grows past IMAGE_EXPAND_MAX. */
static const char *gitlab_expand(struct job *j, struct yt_node *img)
{
    struct gl_buf out;
    gl_buf_init(&out);
    const char *v = img->value, *res = NULL;
    size_t n = img->len, i = 0;
    while (i < n) {
        if (out.len > IMAGE_EXPAND_MAX)
            goto done;
        if (v[i] != '$') {
            gl_buf_addc(&out, v[i++]);
            continue;
        }
        if (i + 1 < n && v[i + 1] == '$') {
            gl_buf_addc(&out, '$');
            i += 2;
            continue;
        }
        size_t brace = i + 1 < n && v[i + 1] == '{', s = i + 1 + brace, e = s;
        while (e < n && (v[e] == '_' || (v[e] >= 'A' && v[e] <= 'Z') ||
                         (v[e] >= 'a' && v[e] <= 'z') || (e > s && v[e] >= '0' && v[e] <= '9')))
            e++;
        const struct yt_node *lit = e > s && (!brace || (e < n && v[e] == '}'))
                                        ? variable_literal(j, v + s, e - s)
                                        : NULL;
        if (!lit)
            goto done;
        gl_buf_add(&out, lit->value, lit->len);
        i = e + brace;
    }
    if (out.len <= IMAGE_EXPAND_MAX)
        res = gl_arena_strdup(&j->doc->arena, gl_buf_str(&out));
done:
    gl_buf_free(&out);
    return res;
}

static void set_image(struct launch_build *b, struct job *j, struct yt_node *img)
{
    if (!yt_is_scalar(img) || !img->len || memmem(img->value, img->len, "${{", 3))
        return; /* (an expression: what runs is not known) */
    const char *text = gl_arena_strndup(&j->doc->arena, img->value, img->len);
    if (memchr(img->value, '$', img->len) &&
        (strcmp(j->tool, "gitlab-ci") || !(text = gitlab_expand(j, img))))
        return; /* a variable gpulint cannot resolve: what runs is not known */
    b->l->ref = (int)j->doc->nrefs;
    struct gl_ref *r = gl_ref_add(j->doc, text, yt_scalar_loc_at(j->s, img, 0), GL_REF_LAUNCH,
                                  false);
    r->launch = b->index;
}

/* One env entry KEY: VALUE of the container (a GitLab `KEY: {value: ...}` too). */
static void env_entry(struct launch_build *b, struct job *j, struct yt_node *k, struct yt_node *v)
{
    if (!yt_is_scalar(k))
        return;
    struct gl_env *e = launch_env_entry(b, k->value, k->len, k->loc);
    v = variable_value(j, v);
    e->value = yt_is_scalar(v) && !yt_is_null(v) && !expression(v)
                   ? gl_arena_strndup(&j->doc->arena, v->value, v->len)
                   : NULL;
    if (yt_is_scalar(v))
        e->value_loc = yt_scalar_loc_at(j->s, v, 0);
}

static void add_env(struct launch_build *b, struct job *j, struct yt_node *map)
{
    struct yt_pair *p;
    size_t n = yt_pairs(j->s, map, &p);
    for (size_t i = 0; i < n; i++)
        env_entry(b, j, yt_deref(j->s, p[i].key), p[i].value);
}

/* GitLab passes the job's CI/CD variables (its own `variables:` over the global ones) into
 * its image's and services' environment: env entries at the variable as written, except
 * those the container's own `variables:` (a service's) set again. */
static void job_variables(struct launch_build *b, struct job *j, struct yt_node *own)
{
    for (size_t k = 0; k < 2; k++) {
        struct yt_pair *p;
        size_t n = yt_pairs(j->s, j->vars[k], &p);
        for (size_t i = 0; i < n; i++) {
            struct yt_node *key = yt_deref(j->s, p[i].key);
            if (!yt_is_scalar(key) || (own && yt_get(j->s, own, key->value, NULL)) ||
                (k == 1 && j->vars[0] && yt_get(j->s, j->vars[0], key->value, NULL)))
                continue; /* (set again nearer the container) */
            env_entry(b, j, key, p[i].value);
        }
    }
}

/* A list of strings (GitLab entrypoint/command) as the launch's argv. */
static void set_argv(struct launch_build *b, struct job *j, struct yt_node *list, size_t *cap)
{
    for (size_t i = 0; yt_is_seq(list) && i < list->nitems; i++) {
        struct yt_node *w = yt_item(j->s, list, i);
        if (!yt_is_scalar(w)) {
            b->l->argv_opaque = true;
            continue;
        }
        struct gl_word *out = GL_APPEND(&j->doc->arena, b->l->argv, b->l->nargv, *cap);
        out->text = gl_arena_strndup(&j->doc->arena, w->value, w->len);
        out->len = gl_word_len(out->text);
        out->loc = yt_scalar_loc_at(j->s, w, 0);
        out->opaque = expression(w);
        b->l->argv_opaque |= out->opaque;
    }
}

/* One container: `spec` is an image string or a mapping (image/name, options, env,
 * volumes, variables, entrypoint, command); `steps`: it runs the job's steps (a GitHub
 * job's `container:`). */
static void container(struct job *j, struct yt_node *key, struct yt_node *spec, const char *name,
                      bool steps)
{
    /* past parse-memory, no more containers: jobs that share a big env through an alias
     * built each one's past the limit (GL900 at the first container that found none) */
    if (gl_arena_over(&j->doc->arena)) {
        gl_doc_fail_limit(j->doc, GL_LIMIT_PARSE_MEMORY, key->loc);
        return;
    }
    struct yt_node *img = yt_is_map(spec) ? yt_get(j->s, spec, "image", NULL) : spec;
    if (!img && yt_is_map(spec))
        img = yt_get(j->s, spec, "name", NULL); /* GitLab */
    if (!yt_is_scalar(img) || yt_is_null(img))
        return;
    struct launch_build b;
    struct gl_loc loc = img->len ? yt_scalar_loc_at(j->s, img, 0) : key->loc;
    launch_begin(&b, &j->scan, GL_LAUNCH_DOCKER_RUN, j->tool, loc);
    b.l->name = name;
    b.l->group = j->scan.group;
    b.l->gpu_unseen = j->gpu_unseen;
    /* a GitLab runner's config.toml adds volumes (the builds directory, caches) and
     * devices no CI file shows: no finding may rest on what the container lacks */
    b.l->opts_opaque = !strcmp(j->tool, "gitlab-ci");
    set_image(&b, j, img);
    if (steps)
        job_steps(&b, j);
    job_variables(&b, j, yt_is_map(spec) ? yt_get(j->s, spec, "variables", NULL) : NULL);
    if (!yt_is_map(spec))
        return;
    add_env(&b, j, yt_get(j->s, spec, "env", NULL));
    add_env(&b, j, yt_get(j->s, spec, "variables", NULL));
    const struct sh_cmd *opts = split_scalar(j, yt_get(j->s, spec, "options", NULL));
    if (opts)
        launch_docker_options(&b, opts);
    struct yt_node *vols = yt_get(j->s, spec, "volumes", NULL);
    for (size_t i = 0; yt_is_seq(vols) && i < vols->nitems; i++) {
        const struct sh_cmd *v = split_scalar(j, yt_item(j->s, vols, i));
        if (v) {
            struct lv w = lv_word(&j->doc->arena, v, 0);
            value_volume(&b, &w);
        }
    }
    size_t cap = 0;
    set_argv(&b, j, yt_get(j->s, spec, "entrypoint", NULL), &cap);
    set_argv(&b, j, yt_get(j->s, spec, "command", NULL), &cap);
    /* a self-hosted GPU runner's docker may default to the nvidia runtime (RAPIDS' do):
     * NVIDIA_VISIBLE_DEVICES in the job container's env then selects its GPUs */
    if (b.visible_env >= 0 && !strcmp(j->tool, "github-actions"))
        b.nvidia_runtime = true;
    struct sh_cmd none = {0};
    launch_docker_finish(&b, opts ? opts : &none);
}

static void job_init(struct job *j, struct gl_doc *doc, struct yt_stream *s,
                     struct yt_node *job, const char *name, const char *tool)
{
    memset(j, 0, sizeof *j);
    j->doc = doc;
    j->s = s;
    j->job = job;
    j->name = name;
    j->tool = tool;
    gl_launch_scan_init(&j->scan, doc, NULL);
    j->scan.group = gl_arena_printf(&doc->arena, "%s#%s", doc->path ? doc->path : "", name);
}

void ci_github_containers(struct gl_doc *doc, struct yt_stream *s, struct yt_node *job,
                          const char *name)
{
    struct job j;
    job_init(&j, doc, s, job, name, "github-actions");
    /* a runner without a GPU has none; one with GPUs may give them to every container
     * through its docker's default runtime (NVIDIA's nv-gha-runners do: the container's
     * NVIDIA_VISIBLE_DEVICES, or a CUDA image's own, selects them), which no workflow shows */
    j.gpu_unseen = true;
    struct yt_node *key = NULL;
    struct yt_node *c = yt_get(s, job, "container", &key);
    if (key)
        container(&j, key, c, gl_arena_printf(&doc->arena, "container of job `%s`", name),
                  true);
    struct yt_pair *p;
    size_t n = yt_pairs(s, yt_get(s, job, "services", NULL), &p);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *k = yt_deref(s, p[i].key);
        if (yt_is_scalar(k))
            container(&j, k, p[i].value,
                      gl_arena_printf(&doc->arena, "service `%s` of job `%s`", k->value, name),
                      false);
    }
}

void ci_gitlab_containers(struct gl_doc *doc, struct yt_stream *s, struct yt_node *job,
                          const char *name, struct yt_node *globals)
{
    struct job j;
    job_init(&j, doc, s, job, name, "gitlab-ci");
    j.gpu_unseen = true;
    j.root = globals;
    /* `variables: !reference [.vars, variables]`: the mapping it names, followed in the
       file; one that names nothing (an included file's job) hides every variable */
    struct yt_node *own[2] = {job != globals ? yt_get(s, job, "variables", NULL) : NULL,
                              yt_get(s, globals, "variables", NULL)};
    for (size_t k = 0; k < 2; k++) {
        j.vars[k] = ci_resolve(s, globals, own[k]);
        j.vars_unknown[k] = own[k] && !j.vars[k];
    }
    struct yt_node *key = NULL;
    struct yt_node *img = ci_resolve(s, globals, yt_get(s, job, "image", &key));
    if (key)
        container(&j, key, img, gl_arena_printf(&doc->arena, "image of job `%s`", name), false);
    struct yt_node *svc = ci_resolve(s, globals, yt_get(s, job, "services", NULL));
    for (size_t i = 0; yt_is_seq(svc) && i < svc->nitems; i++) {
        struct yt_node *at = yt_item(s, svc, i), *it = ci_resolve(s, globals, at);
        /* (a reference to another job's list of services: its entries, one level) */
        size_t n = yt_is_seq(it) ? it->nitems : 1;
        for (size_t k = 0; it && k < n; k++) {
            struct yt_node *one = yt_is_seq(it) ? ci_resolve(s, globals, yt_item(s, it, k)) : it;
            if (one && yt_charge(s, 1, at->loc))
                container(&j, at, one,
                          gl_arena_printf(&doc->arena, "service of job `%s`", name), false);
        }
    }
}
