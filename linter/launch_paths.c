/* launch_paths.c: dataset/checkpoint paths, mounts and facts of a launch (see launch_paths.h). */
#include "linter/launch_paths.h"

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
    char *dashes = gl_arena_strdup(a, name), *unders = gl_arena_strdup(a, name);
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

/* Is `path` (normalized) equal to or below `dir` (normalized)? */
static bool path_under(const char *path, const char *dir)
{
    if (!strcmp(dir, "/"))
        return true;
    size_t n = strlen(dir);
    return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

/* The absolute, normalized path `value` names in the launch, or NULL when it names no
 * path gpulint can place (see launch_paths.h). */
static const char *value_path(struct gl_arena *a, const struct gl_launch *l, const char *value)
{
    if (!value || !*value || value[0] == '-' || value[0] == '~' || strchr(value, '$') ||
        strstr(value, "://"))
        return NULL;
    if (value[0] == '/')
        return gl_path_normalize(a, value);
    if (!strchr(value, '/') || !l->workdir || l->workdir[0] != '/' || strchr(l->workdir, '$'))
        return NULL;
    return gl_path_normalize(a, gl_arena_printf(a, "%s/%s", l->workdir, value));
}

struct path_list {
    struct gl_launch_path *items;
    size_t n, cap;
};

static void add_path(struct gl_arena *a, struct path_list *out, const struct gl_config *cfg,
                     const struct gl_launch *l, const char *name, const char *value,
                     struct gl_loc loc, bool env)
{
    const struct gl_pattern_list *data = env ? &cfg->dataset_env : &cfg->dataset_args;
    const struct gl_pattern_list *ckpt = env ? &cfg->checkpoint_env : &cfg->checkpoint_args;
    enum gl_path_role role;
    if (name_matches(a, data, name))
        role = GL_PATH_DATASET;
    else if (name_matches(a, ckpt, name))
        role = GL_PATH_CHECKPOINT;
    else
        return;
    const char *path = value_path(a, l, value);
    if (!path)
        return;
    struct gl_launch_path *p = GL_APPEND(a, out->items, out->n, out->cap);
    *p = (struct gl_launch_path){.role = role, .name = name, .value = value, .path = path,
                                 .loc = loc, .from_env = env};
}

size_t gl_launch_paths(struct gl_arena *a, const struct gl_doc *doc,
                       const struct gl_config *cfg, size_t launch,
                       struct gl_launch_path **out)
{
    struct path_list list = {0};
    const struct gl_launch *l = &doc->launches[launch];
    for (size_t i = 0; i < l->nargv; i++) {
        const struct gl_word *w = &l->argv[i];
        if (w->opaque || !w->text || w->text[0] != '-' || w->text[1] == '\0')
            continue;
        const char *eq = strchr(w->text, '=');
        if (eq) {
            const char *name = gl_arena_strndup(a, w->text, (size_t)(eq - w->text));
            add_path(a, &list, cfg, l, name, eq + 1, w->loc, false);
        } else if (i + 1 < l->nargv && !l->argv[i + 1].opaque) {
            add_path(a, &list, cfg, l, w->text, l->argv[i + 1].text, l->argv[i + 1].loc, false);
        }
    }
    for (size_t i = 0; i < doc->nenv; i++) {
        const struct gl_env *e = &doc->env[i];
        if (e->origin != GL_ENV_LAUNCH || e->launch != (int)launch || !e->key || !e->value)
            continue;
        add_path(a, &list, cfg, l, e->key, e->value, e->value_loc, true);
    }
    *out = list.items;
    return list.n;
}

const struct gl_mount *gl_launch_mount_for(struct gl_arena *a, const struct gl_launch *l,
                                           const char *path)
{
    const struct gl_mount *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < l->nmounts; i++) {
        const struct gl_mount *m = &l->mounts[i];
        const char *target = gl_path_normalize(a, m->target);
        if (!target || !path_under(path, target))
            continue;
        size_t n = strlen(target);
        if (!best || n >= best_len) { /* a later mount on the same target wins */
            best = m;
            best_len = n;
        }
    }
    return best;
}

/* ---- facts ---- */

const struct gl_ref *gl_launch_ref(const struct gl_doc *doc, const struct gl_launch *l)
{
    if (l->ref < 0 || (size_t)l->ref >= doc->nrefs)
        return NULL;
    return &doc->refs[l->ref];
}

struct gl_loc gl_launch_image_loc(const struct gl_doc *doc, const struct gl_launch *l)
{
    const struct gl_ref *r = gl_launch_ref(doc, l);
    return r ? r->loc : l->loc;
}

bool gl_launch_uses_gpu(const struct gl_launch *l)
{
    if (l->apptainer_nv)
        return true;
    for (size_t i = 0; i < l->ngpus; i++) {
        const struct gl_gpu_request *g = &l->gpus[i];
        if (g->kind == GL_GPU_ENV_VISIBLE &&
            (!g->value || !*g->value || !strcmp(g->value, "void") || !strcmp(g->value, "none")))
            continue;
        return true;
    }
    return false;
}

bool gl_launch_needs_cuda(const struct gl_doc *doc, size_t launch)
{
    const struct gl_ref *r = gl_launch_ref(doc, &doc->launches[launch]);
    if (r && r->ok && !r->unresolved && !r->local && !gl_imageref_nvidia_infra(&r->parsed) &&
        gl_imageref_cuda_bearing(&r->parsed))
        return true;
    if (r && r->ok && gl_imageref_nvidia_infra(&r->parsed))
        return false;
    for (size_t i = 0; i < doc->ncuda; i++)
        if (doc->cuda[i].launch == (int)launch)
            return true;
    return false;
}

bool gl_launch_options_known(const struct gl_launch *l) { return !l->opts_opaque; }

/* The last path component of the `len` bytes at `word`; *len gets its length. */
static const char *base_name(const char *word, size_t *len)
{
    for (size_t i = *len; i > 0; i--)
        if (word[i - 1] == '/') {
            *len -= i;
            return word + i;
        }
    return word;
}

/* Is the `len` bytes at `word` one of `names` (after dropping a directory)? */
static bool named(const char *word, size_t len, const char *const *names)
{
    word = base_name(word, &len);
    for (size_t i = 0; names[i]; i++)
        if (strlen(names[i]) == len && !strncmp(word, names[i], len))
            return true;
    return false;
}

/* python, python3, python3.10, torchrun, accelerate, deepspeed, horovodrun... */
static bool pytorch_launcher(const char *word, size_t len)
{
    static const char *const names[] = {"torchrun", "accelerate", "deepspeed", "horovodrun",
                                        "lightning", "composer", NULL};
    const char *b = base_name(word, &len);
    if (len >= 6 && !strncmp(b, "python", 6)) {
        size_t k = 6;
        while (k < len && ((b[k] >= '0' && b[k] <= '9') || b[k] == '.'))
            k++;
        return k == len;
    }
    return named(b, len, names);
}

/* Wrappers in front of the real command: the command is searched for among their words. */
static bool wrapper(const char *word, size_t len)
{
    static const char *const names[] = {"env", "nohup", "time", "exec", "mpirun", "mpiexec",
                                        "srun", "numactl", "taskset", "nice", "stdbuf",
                                        "tini", "dumb-init", "gosu", "su-exec", NULL};
    return named(word, len, names);
}

/* Is the `len` bytes at `s` a VAR=value assignment? */
static bool assignment(const char *s, size_t len)
{
    const char *eq = memchr(s, '=', len);
    if (!eq || eq == s)
        return false;
    for (const char *p = s; p < eq; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_' ||
              (p > s && *p >= '0' && *p <= '9')))
            return false;
    return true;
}

/* Does a `sh -c` string run a PyTorch-style command: is a command word of it (the first
 * word, or one after `&&`, `||`, `;`, `|`, `(`, a newline, an assignment or a wrapper)
 * such a launcher? A light scan over whitespace-separated words, not a shell parser. */
static bool script_runs_pytorch(const char *s)
{
    bool command_position = true;
    const char *p = s;
    while (*p) {
        if (*p == ' ' || *p == '\t' || *p == '"' || *p == '\'') {
            p++;
            continue;
        }
        size_t n = strcspn(p, " \t\n;&|()\"'");
        if (n == 0) { /* an operator or a newline */
            command_position = true;
            p++;
            continue;
        }
        if (command_position) {
            if (pytorch_launcher(p, n))
                return true;
            command_position = assignment(p, n) || wrapper(p, n);
        }
        p += n;
    }
    return false;
}

static bool word_known(const struct gl_word *w) { return !w->opaque && w->text; }

bool gl_launch_pytorch_style(const struct gl_launch *l)
{
    size_t i = 0;
    while (i < l->nargv && word_known(&l->argv[i]) &&
           (assignment(l->argv[i].text, strlen(l->argv[i].text)) ||
            wrapper(l->argv[i].text, strlen(l->argv[i].text))))
        i++;
    if (i >= l->nargv || !word_known(&l->argv[i]))
        return false;
    const char *first = l->argv[i].text;
    size_t first_len = strlen(first);
    if (pytorch_launcher(first, first_len))
        return true;
    /* behind a launcher with options (mpirun -np 4 python ...): search its words */
    if (i > 0 && wrapper(l->argv[i - 1].text, strlen(l->argv[i - 1].text)))
        for (size_t k = i; k < l->nargv; k++)
            if (word_known(&l->argv[k]) &&
                pytorch_launcher(l->argv[k].text, strlen(l->argv[k].text)))
                return true;
    static const char *const shells[] = {"sh", "bash", "zsh", "dash", NULL};
    if (named(first, first_len, shells))
        for (size_t k = i + 1; k + 1 < l->nargv; k++) {
            const char *opt = l->argv[k].text;
            if (!word_known(&l->argv[k]) || opt[0] != '-')
                break;
            if (strchr(opt, 'c'))
                return word_known(&l->argv[k + 1]) && script_runs_pytorch(l->argv[k + 1].text);
        }
    return false;
}

const char *gl_launch_label(struct gl_arena *a, const struct gl_launch *l)
{
    switch (l->kind) {
    case GL_LAUNCH_COMPOSE:
        return gl_arena_printf(a, "service `%s`", l->name ? l->name : "?");
    case GL_LAUNCH_K8S:
        return gl_arena_printf(a, "container `%s`", l->name ? l->name : "?");
    case GL_LAUNCH_APPTAINER:
        return gl_arena_printf(a, "%s at line %u", l->tool ? l->tool : "apptainer",
                               (unsigned)l->loc.line);
    case GL_LAUNCH_DOCKER_RUN:
        break;
    }
    return gl_arena_printf(a, "`%s run` at line %u", l->tool ? l->tool : "docker",
                           (unsigned)l->loc.line);
}
