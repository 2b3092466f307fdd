/* SPDX-License-Identifier: Apache-2.0 */
/* launch_paths.c: dataset/checkpoint paths, mounts and facts of a launch (see launch_paths.h). */
#include "rules/gl4xx/launch_paths.h"

#include "rules/gl4xx/launch_argv.h"
#include "rules/gl4xx/launch_kind.h"

#include "rules/check.h"

#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

/* Does `name` match the list as written, or with `_` and `-` swapped either way? */
static bool name_matches(struct gl_arena *a, const struct gl_pattern_list *l, const char *name)
{
    if (!l || l->n == 0 || !*name)
        return false;
    if (gl_pattern_list_match(l, name))
        return true;
    if (!strpbrk(name, "-_"))
        return false;
    size_t n = strlen(name) + 1;
    char room[2][128]; /* (a longer name is copied to the facts' arena) */
    char *dashes = n <= sizeof room[0] ? memcpy(room[0], name, n) : gl_arena_strdup(a, name);
    char *unders = n <= sizeof room[1] ? memcpy(room[1], name, n) : gl_arena_strdup(a, name);
    for (size_t i = 0; dashes[i]; i++) {
        if (dashes[i] == '_')
            dashes[i] = '-';
        if (unders[i] == '-' && i > 1) /* keep the leading `--` of an option */
            unders[i] = '_';
    }
    return gl_pattern_list_match(l, dashes) || gl_pattern_list_match(l, unders);
}

/* ---- paths ---- */

const char *gl_path_normalize(struct gl_arena *a, const char *path)
{
    if (!path || path[0] != '/')
        return NULL;
    size_t n = strlen(path);
    char *out = gl_arena_alloc(a, n + 2);
    size_t len = 0;
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        size_t seg = strcspn(p, "/");
        if (seg == 0)
            break;
        if (seg == 1 && p[0] == '.') {
            /* "." stays where it is */
        } else if (seg == 2 && p[0] == '.' && p[1] == '.') {
            while (len > 0 && out[len - 1] != '/')
                len--;
            if (len > 0)
                len--; /* drop the '/' before the removed component */
        } else {
            out[len++] = '/';
            memcpy(out + len, p, seg);
            len += seg;
        }
        p += seg;
    }
    if (len == 0)
        out[len++] = '/';
    out[len] = '\0';
    return out;
}

/* Does the launch mount nothing at all, in a runtime that mounts nothing by itself? Then
 * an output path is under no mount wherever the container's working directory is
 * (apptainer, enroot and pyxis bind the caller's directories themselves). */
static bool mounts_nothing(const struct gl_launch *l)
{
    return !l->nmounts && (l->kind == GL_LAUNCH_DOCKER_RUN || l->kind == GL_LAUNCH_COMPOSE ||
                           l->kind == GL_LAUNCH_K8S);
}

/* The absolute, normalized path `value` names in the launch, or NULL when it names no
 * path gpulint can place (see launch_paths.h); an output path relative to an unknown
 * working directory of a launch that mounts nothing stays relative, as written (no mount
 * serves it). */
static const char *value_path(struct gl_arena *a, const struct gl_launch *l, const char *value,
                              enum gl_path_role role)
{
    if (!value || !*value || value[0] == '-' || value[0] == '~' || strchr(value, '$') ||
        strstr(value, "://"))
        return NULL;
    if (value[0] == '/')
        return gl_path_normalize(a, value);
    if (!strchr(value, '/'))
        return NULL;
    if (!l->workdir || l->workdir[0] != '/' || strchr(l->workdir, '$'))
        return role == GL_PATH_CHECKPOINT && mounts_nothing(l) ? value : NULL;
    return gl_path_normalize(a, gl_arena_printf(a, "%s/%s", l->workdir, value));
}

/* ---- the facts of a doc's launches ---- */

void gl_launch_facts_init(struct gl_launch_facts *f, const struct gl_doc *doc,
                          const struct gl_config *cfg)
{
    memset(f, 0, sizeof *f);
    f->doc = doc;
    f->cfg = cfg;
    gl_arena_init(&f->arena);
    size_t n = doc->nlaunches;
    f->env_start = gl_arena_alloc(&f->arena, (n + 2) * sizeof *f->env_start);
    f->has_cuda = gl_arena_alloc(&f->arena, (n + 1) * sizeof *f->has_cuda);
    f->mounts = gl_arena_alloc(&f->arena, (n + 1) * sizeof *f->mounts);
    f->paths = gl_arena_alloc(&f->arena, (n + 1) * sizeof *f->paths);
    f->npaths = gl_arena_alloc(&f->arena, (n + 1) * sizeof *f->npaths);
    f->paths_made = gl_arena_alloc(&f->arena, (n + 1) * sizeof *f->paths_made);
    f->infra = gl_arena_take(&f->arena, n + 1);
    memset(f->infra, -1, n + 1);
    if (!n) { /* no launch (a Dockerfile): no env or CUDA fact names one */
        f->env_items = gl_arena_alloc(&f->arena, sizeof *f->env_items);
        return;
    }
    /* counting sort of the launch env entries by launch, keeping their order */
    for (size_t i = 0; i < doc->nenv; i++) {
        const struct gl_env *e = &doc->env[i];
        if (e->origin == GL_ENV_LAUNCH && e->launch >= 0 && (size_t)e->launch < n)
            f->env_start[e->launch + 1]++;
    }
    for (size_t i = 0; i < n; i++)
        f->env_start[i + 1] += f->env_start[i];
    f->env_items = gl_arena_alloc(&f->arena, (f->env_start[n] + 1) * sizeof *f->env_items);
    size_t *fill = gl_arena_alloc(&f->arena, (n + 1) * sizeof *fill);
    for (size_t i = 0; i < doc->nenv; i++) {
        const struct gl_env *e = &doc->env[i];
        if (e->origin == GL_ENV_LAUNCH && e->launch >= 0 && (size_t)e->launch < n)
            f->env_items[f->env_start[e->launch] + fill[e->launch]++] = i;
    }
    for (size_t i = 0; i < doc->ncuda; i++) {
        int l = doc->cuda[i].launch;
        if (l >= 0 && (size_t)l < n)
            f->has_cuda[l] = true;
    }
}

void gl_launch_facts_free(struct gl_launch_facts *f) { gl_arena_free(&f->arena); }

size_t gl_launch_env_count(const struct gl_launch_facts *f, size_t launch)
{
    return f->env_start[launch + 1] - f->env_start[launch];
}

const struct gl_env *gl_launch_env(const struct gl_launch_facts *f, size_t launch, size_t k)
{
    return &f->doc->env[f->env_items[f->env_start[launch] + k]];
}

/* ---- dataset and checkpoint paths ---- */

struct path_list {
    struct gl_launch_path *items;
    size_t n, cap;
};

static void add_path(struct gl_launch_facts *f, struct path_list *out,
                     const struct gl_launch *l, const char *name, const char *value,
                     struct gl_loc loc, bool env)
{
    struct gl_arena *a = &f->arena;
    const struct gl_config *cfg = f->cfg;
    const struct gl_pattern_list *data = env ? &cfg->dataset_env : &cfg->dataset_args;
    const struct gl_pattern_list *ckpt = env ? &cfg->checkpoint_env : &cfg->checkpoint_args;
    enum gl_path_role role;
    if (name_matches(a, data, name))
        role = GL_PATH_DATASET;
    else if (name_matches(a, ckpt, name) && !(!env && gl_serving_model_arg(name) &&
                                              gl_launch_serving(f->doc, l)))
        role = GL_PATH_CHECKPOINT; /* (a server's --model-dir is the model it reads) */
    else
        return;
    const char *path = value_path(a, l, value, role);
    if (!path)
        return;
    struct gl_launch_path *p = GL_APPEND(a, out->items, out->n, out->cap);
    *p = (struct gl_launch_path){.role = role, .name = name, .value = value, .path = path,
                                 .loc = loc, .from_env = env};
}

/* A process launcher's own options run from after it up to the script it starts
 * (`torchrun --log_dir=/tmp/x train.py`): [*from, *to) of argv, empty when there is none. */
static void launcher_options(const struct gl_launch *l, size_t *from, size_t *to)
{
    static const char *const launchers[] = {"torchrun", "hyperpodrun", NULL};
    *from = *to = 0;
    for (size_t i = 0; i < l->nargv; i++) {
        const struct gl_word *w = &l->argv[i];
        bool module = gl_word_known(w) && !strcmp(w->text, "-m") && i + 1 < l->nargv &&
                      gl_word_known(&l->argv[i + 1]) &&
                      gl_has_prefix(l->argv[i + 1].text, "torch.distributed.");
        if (!module && !(gl_word_known(w) && gl_word_named(w->text, launchers)))
            continue;
        *from = i + 1 + module;
        for (*to = *from; *to < l->nargv; (*to)++)
            if (gl_word_known(&l->argv[*to]) && gl_has_suffix(l->argv[*to].text, ".py"))
                return;
        *from = *to = 0; /* no script seen: nothing is known to be the launcher's */
        return;
    }
}

/* The worker-log directory of a process launcher (`--log-dir`, `--log_dir`): its own
 * logs, not the job's output. */
static bool launcher_log_dir(const char *name, size_t len)
{
    return (len == 9 && (!memcmp(name, "--log-dir", 9) || !memcmp(name, "--log_dir", 9)));
}

/* A Hydra override that names the run's output directory (`exp_manager.exp_dir=/x`,
 * `++trainer.default_root_dir=/x`, `+callbacks.ckpt.dirpath=/x`, as NeMo and Lightning
 * configs take them): a dotted key, or a `+`/`++` one, whose last part is an output key.
 * Its value is a checkpoint path as `--output-dir` is. */
static bool hydra_output_key(const char *word, size_t len)
{
    /* not `checkpoint_dir`: torchtune's `checkpointer.checkpoint_dir=` is the checkpoint a
       run starts from (read; `checkpointer.output_dir=` is where it writes) */
    static const char *const keys[] = {"exp_dir", "default_root_dir", "dirpath", "output_dir",
                                       "save_dir", NULL};
    size_t plus = 0;
    while (plus < 2 && plus < len && word[plus] == '+')
        plus++;
    const char *dot = NULL;
    for (size_t i = plus; i < len; i++) {
        char ch = word[i];
        if (ch == '.')
            dot = word + i;
        else if (ch != '_' && !(ch >= 'a' && ch <= 'z') && !(ch >= 'A' && ch <= 'Z') &&
                 !(ch >= '0' && ch <= '9'))
            return false;
    }
    const char *last = dot ? dot + 1 : word + plus;
    if ((!dot && !plus) || last == word + len)
        return false;
    for (size_t k = 0; keys[k]; k++)
        if (strlen(keys[k]) == (size_t)(word + len - last) &&
            !memcmp(last, keys[k], strlen(keys[k])))
            return true;
    return false;
}

static void add_hydra_output(struct gl_launch_facts *f, struct path_list *out,
                             const struct gl_launch *l, const struct gl_word *w)
{
    const char *eq = strchr(w->text, '=');
    if (!eq || !hydra_output_key(w->text, (size_t)(eq - w->text)))
        return;
    const char *path = value_path(&f->arena, l, eq + 1, GL_PATH_CHECKPOINT);
    if (!path)
        return;
    struct gl_launch_path *p = GL_APPEND(&f->arena, out->items, out->n, out->cap);
    *p = (struct gl_launch_path){.role = GL_PATH_CHECKPOINT,
                                 .name = gl_arena_strndup(&f->arena, w->text,
                                                          (size_t)(eq - w->text)),
                                 .value = eq + 1, .path = path, .loc = w->loc};
}

size_t gl_launch_paths(struct gl_launch_facts *f, size_t launch, struct gl_launch_path **out)
{
    struct path_list list = {0};
    const struct gl_launch *l = &f->doc->launches[launch];
    size_t lfrom, lto;
    launcher_options(l, &lfrom, &lto);
    for (size_t i = 0; i < l->nargv; i++) {
        const struct gl_word *w = &l->argv[i];
        if (w->opaque || !w->text)
            continue;
        if (w->text[0] != '-') {
            add_hydra_output(f, &list, l, w);
            continue;
        }
        if (w->text[1] == '\0')
            continue;
        if (i >= lfrom && i < lto &&
            launcher_log_dir(w->text, strcspn(w->text, "=")))
            continue;
        const char *eq = strchr(w->text, '=');
        if (eq) {
            const char *name = gl_arena_strndup(&f->arena, w->text, (size_t)(eq - w->text));
            add_path(f, &list, l, name, eq + 1, w->loc, false);
        } else if (i + 1 < l->nargv && !l->argv[i + 1].opaque) {
            add_path(f, &list, l, w->text, l->argv[i + 1].text, l->argv[i + 1].loc, false);
        }
    }
    for (size_t k = 0; k < gl_launch_env_count(f, launch); k++) {
        const struct gl_env *e = gl_launch_env(f, launch, k);
        if (e->key && e->value)
            add_path(f, &list, l, e->key, e->value, e->value_loc, true);
    }
    *out = list.items;
    return list.n;
}

/* gl_launch_paths, kept in the facts: the doc's path rules (GL401-GL405) all walk them. */
static size_t kept_paths(struct gl_launch_facts *f, size_t launch, struct gl_launch_path **out)
{
    if (!f->paths_made[launch]) {
        f->npaths[launch] = gl_launch_paths(f, launch, &f->paths[launch]);
        f->paths_made[launch] = true;
    }
    *out = f->paths[launch];
    return f->npaths[launch];
}

/* ---- mounts ---- */

struct mount_key {
    const char *target; /* normalized */
    size_t len;
    size_t index;       /* in launch->mounts */
};

struct gl_mount_index {
    struct mount_key *keys; /* sorted by length, then target, then index */
    size_t n;
};

static int key_cmp(const void *x, const void *y)
{
    const struct mount_key *a = x, *b = y;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    int c = memcmp(a->target, b->target, a->len);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static struct gl_mount_index *mount_index(struct gl_launch_facts *f, size_t launch)
{
    if (f->mounts[launch])
        return f->mounts[launch];
    const struct gl_launch *l = &f->doc->launches[launch];
    struct gl_mount_index *mi = gl_arena_alloc(&f->arena, sizeof *mi);
    mi->keys = gl_arena_alloc(&f->arena, (l->nmounts + 1) * sizeof *mi->keys);
    for (size_t i = 0; i < l->nmounts; i++) {
        const char *t = gl_path_normalize(&f->arena, l->mounts[i].target);
        if (t)
            mi->keys[mi->n++] = (struct mount_key){t, strlen(t), i};
    }
    qsort(mi->keys, mi->n, sizeof *mi->keys, key_cmp);
    f->mounts[launch] = mi;
    return mi;
}

/* The first key at or after `from` whose (len, target) is not below (len, s[0..len)) when
 * `s` is given, or whose len is not below `len` when `s` is NULL: a lower bound. With
 * `strict`, the first key strictly above instead (an upper bound). */
static size_t bound(const struct gl_mount_index *mi, size_t from, size_t len, const char *s,
                    bool strict)
{
    size_t lo = from, hi = mi->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct mount_key *k = &mi->keys[mid];
        int c = k->len != len ? (k->len < len ? -1 : 1) : s ? memcmp(k->target, s, len) : 0;
        if (c < 0 || (strict && c == 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The last mount (highest index) whose target is exactly path[0..len), or NULL. Byte
 * comparisons happen only among targets of that very length. */
static const struct mount_key *exact(const struct gl_mount_index *mi, const char *path,
                                     size_t len)
{
    size_t first = bound(mi, 0, len, NULL, false);
    if (first == mi->n || mi->keys[first].len != len)
        return NULL;
    size_t after = bound(mi, first, len, path, true);
    if (after == first)
        return NULL;
    const struct mount_key *k = &mi->keys[after - 1];
    return memcmp(k->target, path, len) ? NULL : k;
}

const struct gl_mount *gl_launch_mount_for(struct gl_launch_facts *f, size_t launch,
                                           const char *path)
{
    const struct gl_mount_index *mi = mount_index(f, launch);
    if (mi->n == 0 || path[0] != '/')
        return NULL;
    /* the path itself, then each prefix ending before a '/', longest first, then "/" */
    size_t len = strlen(path);
    for (;;) {
        const struct mount_key *k = exact(mi, path, len ? len : 1);
        if (k)
            return &f->doc->launches[launch].mounts[k->index];
        if (len <= 1)
            return NULL;
        while (len > 0 && path[len - 1] != '/')
            len--;
        if (len > 1)
            len--; /* drop the '/' itself: "/a/b" -> "/a" */
        else
            len = 0; /* the root */
    }
}

/* ---- facts ---- */

struct gl_loc gl_launch_image_loc(const struct gl_doc *doc, const struct gl_launch *l)
{
    const struct gl_ref *r = gl_launch_ref(doc, l);
    return r ? r->loc : l->loc;
}

bool gl_gpu_request_zero(const struct gl_gpu_request *g)
{
    const char *n = g->count;
    if (!n || !*n)
        return false;
    while (*n == '0')
        n++;
    return !*n;
}

bool gl_launch_requests_gpu(const struct gl_launch *l)
{
    for (size_t i = 0; i < l->ngpus; i++)
        if (!gl_gpu_request_zero(&l->gpus[i]))
            return true;
    return l->apptainer_nv;
}

bool gl_launch_uses_gpu(const struct gl_launch *l)
{
    if (l->apptainer_nv)
        return true;
    for (size_t i = 0; i < l->ngpus; i++) {
        const struct gl_gpu_request *g = &l->gpus[i];
        if (gl_gpu_request_zero(g))
            continue; /* `nvidia.com/gpu: 0`, `--gpus 0`: no GPU */
        if (g->kind == GL_GPU_ENV_VISIBLE &&
            (!g->value || !*g->value || !strcmp(g->value, "void") || !strcmp(g->value, "none")))
            continue;
        return true;
    }
    return false;
}

bool gl_launch_cpu_by_design(const struct gl_doc *doc, const struct gl_launch *l)
{
    return !l->gpu_unseen && !l->fragment && gl_launch_options_known(l) &&
           !gl_launch_requests_gpu(l) &&
           (gl_launch_compile_image(doc, l) || gl_launch_build_only(l));
}

bool gl_launch_nvidia_infra(const struct gl_doc *doc, const struct gl_launch *l)
{
    const struct gl_ref *r = gl_launch_ref(doc, l);
    return r && r->ok && gl_imageref_nvidia_infra(&r->parsed);
}

bool gl_launch_needs_cuda(const struct gl_launch_facts *f, size_t launch)
{
    const struct gl_launch *l = &f->doc->launches[launch];
    if (gl_launch_nvidia_infra(f->doc, l))
        return false;
    const struct gl_ref *r = gl_launch_ref(f->doc, l);
    if (r && r->ok && !r->unresolved && !r->local && gl_imageref_cuda_bearing(&r->parsed))
        return true;
    return f->has_cuda[launch];
}

bool gl_launch_infrastructure(const struct gl_launch_facts *f, size_t launch)
{
    const struct gl_launch *l = &f->doc->launches[launch];
    if (gl_launch_nvidia_infra(f->doc, l))
        return true;
    if (l->gpus_outside)
        return false; /* its GPUs come from an allocation gpulint cannot see */
    /* (a CI job container, gpu_unseen, is judged by what it runs: one that runs no CUDA
       image is infrastructure by RULES.md's definition whatever its runner gives) */
    return !gl_launch_requests_gpu(l) && !gl_launch_needs_cuda(f, launch);
}

bool gl_launch_options_known(const struct gl_launch *l) { return !l->opts_opaque; }

bool gl_launch_mounts_complete(const struct gl_launch *l)
{
    return l->kind != GL_LAUNCH_APPTAINER && !l->bare_metal && !l->fragment &&
           !l->mounts_unseen && gl_launch_options_known(l);
}

/* The last path component of the `len` bytes at `word`; *len gets its length. */
/* python, python3, python3.10, torchrun, accelerate, deepspeed, horovodrun... */
static bool pytorch_launcher(const char *word, size_t len)
{
    static const char *const names[] = {"torchrun", "accelerate", "deepspeed", "horovodrun",
                                        "lightning", "composer", "pytest", "py.test", NULL};
    const char *b = gl_word_base(word, &len);
    if (len >= 6 && !strncmp(b, "python", 6)) {
        size_t k = 6;
        while (k < len && ((b[k] >= '0' && b[k] <= '9') || b[k] == '.'))
            k++;
        return k == len;
    }
    return gl_word_in(b, len, names);
}

bool gl_launch_pytorch_style(const struct gl_launch *l)
{
    return gl_launch_runs(l, pytorch_launcher);
}

const struct gl_word *gl_launch_pytorch_word(const struct gl_launch *l)
{
    for (size_t s = 0; s < l->nargv; s = gl_launch_next_command(l, s)) {
        size_t end = gl_launch_next_command(l, s), i = gl_command_find(l, s, end, pytorch_launcher);
        if (i < end)
            return &l->argv[i];
    }
    return NULL;
}

/* How strongly command [s, end) of v says it runs a PyTorch-style job: 2 for a launcher
 * (torchrun, pytest, ...) or `python -m MODULE`, 1 for another python command, 0 for none
 * or a Python tool. *word gets its command word. */
static int job_evidence(const struct gl_launch *v, size_t s, size_t end, size_t *word)
{
    size_t i = gl_command_find(v, s, end, pytorch_launcher);
    if (i >= end || gl_command_python_tool(v, i, end))
        return 0;
    *word = i;
    size_t len = strlen(v->argv[i].text);
    const char *base = gl_word_base(v->argv[i].text, &len);
    bool python = len >= 6 && !strncmp(base, "python", 6);
    return !python || (i + 1 < end && gl_word_known(&v->argv[i + 1]) &&
                       !strcmp(v->argv[i + 1].text, "-m"))
               ? 2
               : 1;
}

const struct gl_word *gl_launch_steps_pytorch_job(const struct gl_launch *l)
{
    struct gl_launch v;
    if (!gl_launch_steps_view(l, &v))
        return NULL;
    const struct gl_word *best = NULL;
    int best_rank = 0;
    for (size_t s = 0; s < v.nargv && best_rank < 2; s = gl_launch_next_command(&v, s)) {
        size_t word, end = gl_launch_next_command(&v, s);
        int rank = job_evidence(&v, s, end, &word);
        if (rank > best_rank) {
            best_rank = rank;
            best = &v.argv[word];
        }
    }
    return best;
}

/* "<what>`name`" ("?" for no name), as "%s`%s`" would print it. */
static const char *quoted_label(struct gl_arena *a, const char *what, const char *name)
{
    if (!name)
        name = "?";
    return gl_arena_cat3(a, what, strlen(what), name, strlen(name), "`", 1);
}

const char *gl_launch_label(struct gl_arena *a, const struct gl_launch *l)
{
    switch (l->kind) {
    case GL_LAUNCH_COMPOSE:
        if (l->tool && strcmp(l->tool, "compose")) /* `docker compose run SERVICE` */
            return gl_arena_printf(a, "`%s` of service `%s` at line %u", l->tool,
                                   l->name ? l->name : "?", (unsigned)l->loc.line);
        return quoted_label(a, "service `", l->name);
    case GL_LAUNCH_K8S:
        return quoted_label(a, "container `", l->name);
    case GL_LAUNCH_APPTAINER:
        return gl_arena_printf(a, "%s at line %u", l->tool ? l->tool : "apptainer",
                               (unsigned)l->loc.line);
    case GL_LAUNCH_SLURM:
        if (l->tool && !strcmp(l->tool, "sbatch"))
            return gl_arena_printf(a, "the batch step at line %u", (unsigned)l->loc.line);
        return gl_arena_printf(a, "`srun` at line %u", (unsigned)l->loc.line);
    case GL_LAUNCH_ENROOT:
        return gl_arena_printf(a, "`%s` at line %u",
                               l->tool && !strcmp(l->tool, "shifter") ? "shifter" : "enroot start",
                               (unsigned)l->loc.line);
    case GL_LAUNCH_DOCKER_RUN:
        if (l->tool && l->name &&
            (!strcmp(l->tool, "github-actions") || !strcmp(l->tool, "gitlab-ci") ||
             !strcmp(l->tool, "devcontainer")))
            return gl_arena_printf(a, "the %s", l->name); /* "the container of job `x`" */
        break;
    }
    return gl_arena_printf(a, "`%s run` at line %u", l->tool ? l->tool : "docker",
                           (unsigned)l->loc.line);
}

/* ---- the walks of a check ---- */

static void facts_release(struct gl_launch_facts *f)
{
    gl_launch_facts_free(f);
    free(f);
}

/* The doc's facts, shared by its rules (one build a doc instead of one a rule), built on
 * first use: the walks below never ask for them on a doc without launches. */
static struct gl_launch_facts *doc_facts(struct gl_check *c)
{
    if (!c->launch_facts) {
        c->launch_facts = xmalloc(sizeof *c->launch_facts);
        gl_launch_facts_init(c->launch_facts, c->doc, c->cfg);
        c->launch_facts_free = facts_release;
    }
    return c->launch_facts;
}

void gl_check_launches(struct gl_check *c, gl_launch_judge judge)
{
    if (!c->doc->nlaunches)
        return;
    struct gl_launch_facts *f = doc_facts(c);
    for (size_t i = 0; i < c->doc->nlaunches; i++)
        judge(c, f, i);
}

void gl_check_path_uses(struct gl_check *c, enum gl_path_role role, enum gl_path_scope scope,
                        gl_path_judge judge, void *ctx)
{
    if (!c->doc->nlaunches)
        return;
    struct gl_launch_facts *f = doc_facts(c);
    for (size_t i = 0; i < c->doc->nlaunches; i++) {
        const struct gl_launch *l = &c->doc->launches[i];
        if (scope == GL_PATHS_MOUNTS_COMPLETE && !gl_launch_mounts_complete(l))
            continue;
        if (f->infra[i] < 0) /* (asked once a launch, not once a path rule) */
            f->infra[i] = gl_launch_infrastructure(f, i);
        if (f->infra[i])
            continue;
        struct gl_launch_path *paths;
        size_t n = kept_paths(f, i, &paths);
        for (size_t k = 0; k < n; k++) {
            if (paths[k].role != role)
                continue;
            struct gl_path_use use = {.facts = f, .index = i, .launch = l, .path = &paths[k],
                                      .mount = gl_launch_mount_for(f, i, paths[k].path),
                                      .paths = paths, .npaths = n};
            if (judge(c, &use, ctx))
                break;
        }
    }
}
