/* SPDX-License-Identifier: Apache-2.0 */
/* launch_compose.c: `docker compose run SERVICE [CMD]` (and `docker-compose`, `podman
 * compose`, `podman-compose`) into a launch of the service (see launch_shell.h). */
#include <string.h>

#include "linter/core/ref/imageref.h"
#include "parsers/launch/launch_internal.h"
#include "parsers/manifest/compose_service.h"

#define V GL_FLAG_VALUE
#define B GL_FLAG_BOOL
#define O GL_FLAG_OTHER

/* The options before the subcommand: docker compose v2's (cmd/compose/compose.go, with its
 * hidden ones), docker-compose v1's (-H, --context, --tls*) and podman-compose's. */
static const struct gl_cli_flag compose_global_flags[] = {
    {"file", 'f', V, O},
    {"project-name", 'p', V, O},
    {"profile", 0, V, O},
    {"env-file", 0, V, O},
    {"project-directory", 0, V, O},
    {"ansi", 0, V, O},
    {"progress", 0, V, O},
    {"parallel", 0, V, O},
    {"workdir", 0, V, O},
    {"insecure-registry", 0, V, O},
    {"all-resources", 0, B, O},
    {"compatibility", 0, B, O},
    {"dry-run", 0, B, O},
    {"no-ansi", 0, B, O},
    {"verbose", 0, B, O},
    {"version", 'v', B, O},
    {"host", 'H', V, O},
    {"context", 'c', V, O},
    {"log-level", 0, V, O},
    {"tls", 0, B, O},
    {"tlsverify", 0, B, O},
    {"tlscacert", 0, V, O},
    {"tlscert", 0, V, O},
    {"tlskey", 0, V, O},
    {"skip-hostname-check", 0, B, O},
    {"podman-path", 0, V, O},
    {"podman-args", 0, V, O},
    {"podman-pull-args", 0, V, O},
    {"podman-push-args", 0, V, O},
    {"podman-build-args", 0, V, O},
    {"podman-inspect-args", 0, V, O},
    {"podman-run-args", 0, V, O},
    {"podman-start-args", 0, V, O},
    {"podman-stop-args", 0, V, O},
    {"podman-rm-args", 0, V, O},
    {"podman-volume-args", 0, V, O},
    {"in-pod", 0, V, O},
    {"pod-args", 0, V, O},
    {"no-pod", 0, B, O},
    {"no-cleanup", 0, B, O},
    {NULL, 0, B, O},
};

/* `docker compose run`'s options (docs/reference/docker_compose_run.yaml of docker/compose:
 * cmd/compose/run.go, with the aliases its normalizeRunFlags accepts: --volumes, --labels,
 * --no-TTY; --no-build of older v2 releases; podman-compose's --privileged). There is no
 * --gpus: a run's GPUs are the service's; `--gpus X` (READMEs write it; compose stops at
 * it) is read as an option with a value that hides what the run asks for. */
static const struct gl_cli_flag compose_run_flags[] = {
    {"build", 0, B, O},
    {"cap-add", 0, V, O},
    {"cap-drop", 0, V, O},
    {"detach", 'd', B, O},
    {"entrypoint", 0, V, O},
    {"env", 'e', V, O},
    {"env-from-file", 0, V, O},
    {"interactive", 'i', B, O},
    {"label", 'l', V, O},
    {"labels", 0, V, O},
    {"name", 0, V, O},
    {"no-build", 0, B, O},
    {"no-deps", 0, B, O},
    {"no-tty", 'T', B, O},
    {"no-TTY", 0, B, O},
    {"publish", 'p', V, O},
    {"pull", 0, V, O},
    {"quiet", 'q', B, O},
    {"quiet-build", 0, B, O},
    {"quiet-pull", 0, B, O},
    {"remove-orphans", 0, B, O},
    {"rm", 0, B, O},
    {"service-ports", 'P', B, O},
    {"tty", 't', B, O},
    {"use-aliases", 0, B, O},
    {"user", 'u', V, O},
    {"volume", 'v', V, O},
    {"volumes", 0, V, O},
    {"workdir", 'w', V, O},
    {"privileged", 0, B, O},
    {"gpus", 0, V, O}, /* not compose's (it fails: unknown flag), but often written: read
                          so that SERVICE is found (run_opt) */
    {NULL, 0, B, O},
};

#undef V
#undef B
#undef O

/* One `compose run` being read: the launch (with the run's --entrypoint), what the
 * options before `run` say about the compose files (launch_opt_fn gets the launch_build,
 * which is this struct's first member). */
struct compose_run {
    struct launch_build b;
    struct lv files[4];
    size_t nfiles;
    bool files_unknown;  /* a file, directory or env file gpulint cannot follow */
};

static void global_opt(struct launch_build *b, const struct gl_cli_flag *f,
                       const struct lv *flag, const struct lv *val)
{
    (void)flag;
    struct compose_run *r = (struct compose_run *)b;
    if (!f || !val)
        return;
    if (!strcmp(f->name, "file")) {
        if (val->opaque || r->nfiles == sizeof r->files / sizeof r->files[0])
            r->files_unknown = true;
        else
            r->files[r->nfiles++] = *val;
    } else if (!strcmp(f->name, "project-directory") || !strcmp(f->name, "env-file") ||
               !strcmp(f->name, "workdir")) {
        r->files_unknown = true; /* another .env, or files relative to another directory */
    }
}

static void run_opt(struct launch_build *b, const struct gl_cli_flag *f, const struct lv *flag,
                    const struct lv *val)
{
    (void)flag;
    struct gl_launch *l = b->l;
    if (!f)
        return;
    if (!strcmp(f->name, "detach")) {
        l->detached = !val || value_true(val->text);
        return;
    }
    if (!strcmp(f->name, "rm")) {
        l->remove = !val || value_true(val->text);
        return;
    }
    if (!strcmp(f->name, "gpus")) {
        l->opts_opaque = true; /* the user expects a GPU the run cannot take: no finding on
                                  what the launch lacks */
        return;
    }
    if (!val)
        return;
    if (!strcmp(f->name, "volume") || !strcmp(f->name, "volumes"))
        value_volume(b, val);
    else if (!strcmp(f->name, "env"))
        launch_add_env(b, val);
    else if (!strcmp(f->name, "workdir") && !val->opaque)
        l->workdir = val->text;
    else if (!strcmp(f->name, "entrypoint")) {
        b->entrypoint = *val;
        b->has_entrypoint = true;
    }
}

/* The compose files of the run in *names (as compose reads them: its -f files in order,
 * else the default file and its override beside it); 0 when gpulint cannot tell which
 * they are (COMPOSE_FILE set by the script; a `cd` before the run; an opaque file, another
 * project directory or env file). */
static size_t project_files(struct compose_run *r, const char **names)
{
    static const char *const defaults[] = {"compose.yaml", "compose.yml", "docker-compose.yaml",
                                           "docker-compose.yml"};
    static const char *const overrides[] = {"compose.override.yaml", "compose.override.yml",
                                            "docker-compose.override.yaml",
                                            "docker-compose.override.yml"};
    struct gl_launch_scan *s = r->b.scan;
    const char *v = NULL;
    size_t n = 0;
    if (r->files_unknown || s->cwd_unknown)
        return 0;
    if (s->vars && sh_vars_get(s->vars, "COMPOSE_FILE", 12, &v, &n) != SH_VAR_UNSET)
        return 0;
    for (size_t k = 0; k < r->nfiles; k++)
        names[k] = r->files[k].text;
    if (r->nfiles)
        return r->nfiles;
    /* compose takes the first default file that exists, and the first override file
     * beside it */
    for (size_t k = 0; k < sizeof defaults / sizeof defaults[0] && !n; k++)
        if (gl_compose_file_exists(s->doc, defaults[k]))
            names[n++] = defaults[k];
    for (size_t k = 0; k < sizeof overrides / sizeof overrides[0] && n == 1; k++)
        if (gl_compose_file_exists(s->doc, overrides[k]))
            names[n++] = overrides[k];
    return n;
}

/* The service's facts, placed at `pin` (the SERVICE word: they are written in another
 * file). The run's own -v and -e are already in the launch. */
static void take_service(struct launch_build *b, const struct gl_compose_service *svc,
                         struct gl_loc pin)
{
    struct gl_launch *l = b->l;
    const struct gl_launch *from = &svc->launch;
    struct gl_arena *a = &b->doc->arena;
    if (svc->ref && svc->ref->text) {
        bool built = svc->ref->role == GL_REF_BUILD_OUTPUT;
        l->ref = (int)b->doc->nrefs;
        struct gl_ref *r = gl_ref_add(b->doc, svc->ref->text, pin,
                                      built ? GL_REF_BUILD_OUTPUT : GL_REF_ELSEWHERE,
                                      svc->ref->unresolved || !svc->ref->ok);
        r->launch = b->index;
    }
    for (size_t k = 0; k < from->nmounts; k++) {
        struct gl_mount *m = launch_add_mount(b);
        *m = from->mounts[k];
        m->loc = m->ro_loc = pin;
    }
    for (size_t k = 0; k < from->ngpus; k++) {
        struct gl_gpu_request *g = GL_APPEND(a, l->gpus, l->ngpus, l->capgpus);
        *g = from->gpus[k];
        g->loc = g->memory_loc = g->request_loc = g->limit_loc = pin;
        if (g->count_key_loc.line)
            g->count_key_loc = pin;
        if (g->device_ids_key_loc.line)
            g->device_ids_key_loc = pin;
        if (g->capabilities_key_loc.line)
            g->capabilities_key_loc = pin;
    }
    for (size_t k = 0; k < svc->nenv; k++) {
        struct gl_env *e = GL_APPEND(a, b->doc->env, b->doc->nenv, b->doc->capenv);
        *e = svc->env[k];
        e->key_loc = e->value_loc = pin;
        e->launch = b->index;
        if (!strcmp(e->key, "NVIDIA_VISIBLE_DEVICES"))
            b->visible_env = (int)b->doc->nenv - 1;
    }
    if (from->nargv) {
        struct gl_word *w = gl_arena_alloc(a, from->nargv * sizeof *w);
        for (size_t k = 0; k < from->nargv; k++) {
            w[k] = from->argv[k];
            w[k].loc = pin;
        }
        l->argv = w;
        l->nargv = from->nargv;
    }
    l->argv_opaque = from->argv_opaque;
    l->ipc = from->ipc;
    l->ipc_loc = pin;
    l->shm_bytes = from->shm_bytes;
    l->shm_loc = pin;
    l->memlock = from->memlock;
    l->memlock_loc = pin;
    l->mig = from->mig;
    l->fragment = from->fragment;
    l->secondary_role = from->secondary_role; /* (a CPU variant: compose_service.h) */
    l->profile = from->profile;
    if (!l->workdir)
        l->workdir = from->workdir;
}

/* The run's command: --entrypoint's words, then CMD (words [from, n) of cmd); either one
 * replaces what the service gives. */
static void run_argv(struct compose_run *r, const struct sh_cmd *cmd, size_t from)
{
    struct launch_build *b = &r->b;
    struct gl_launch *l = b->l;
    if (!b->has_entrypoint && from >= cmd->nwords)
        return; /* the service's own command */
    l->argv = NULL;
    l->nargv = 0;
    l->argv_opaque = false;
    const struct lv *v = &b->entrypoint;
    struct gl_word *w = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; b->has_entrypoint && i < v->len;) {
        /* compose splits it as shell words: at blanks here */
        while (i < v->len && (v->text[i] == ' ' || v->text[i] == '\t'))
            i++;
        size_t j = i;
        while (j < v->len && v->text[j] != ' ' && v->text[j] != '\t')
            j++;
        if (j > i) {
            struct lv part = lv_sub(&b->doc->arena, v, i, j - i);
            *GL_APPEND(&b->doc->arena, w, n, cap) =
                gl_word_make(part.text, lv_loc(&part, 0), part.opaque);
            l->argv_opaque |= part.opaque;
        }
        i = j;
    }
    launch_set_command(b, w, n, cmd, from);
}

void launch_compose_run(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t tool_wi,
                        size_t first, const char *tool)
{
    struct compose_run r;
    memset(&r, 0, sizeof r);
    struct launch_build *b = &r.b;
    launch_begin(b, scan, GL_LAUNCH_COMPOSE, tool, cmd->words[tool_wi].loc);
    bool ambiguous;
    size_t sub = launch_walk_opts(b, cmd, first, compose_global_flags, global_opt, &ambiguous);
    if (sub >= cmd->nwords || ambiguous || strcmp(cmd->words[sub].text, "run") ||
        cmd->words[sub].opaque) {
        scan->doc->nlaunches--; /* not a run: no launch */
        return;
    }
    bool opts_opaque = b->l->opts_opaque; /* (an opaque global option hides the files) */
    size_t svc = launch_walk_opts(b, cmd, sub + 1, compose_run_flags, run_opt, &ambiguous);
    struct gl_compose_service service;
    const char *files[sizeof r.files / sizeof r.files[0]];
    size_t nfiles = opts_opaque ? 0 : project_files(&r, files);
    if (nfiles && !scan->compose_files)
        scan->compose_files = gl_arena_alloc(&scan->doc->arena, sizeof *scan->compose_files);
    bool known = svc < cmd->nwords && !ambiguous && !cmd->words[svc].opaque && nfiles &&
                 gl_compose_service_load(scan->doc, scan->compose_files, files, nfiles,
                                         cmd->words[svc].text, &service);
    b->l = &scan->doc->launches[b->index]; /* (the load may have added launches elsewhere) */
    if (known) {
        take_service(b, &service, cmd->words[svc].loc);
        b->l->name = cmd->words[svc].text;
    } else {
        b->l->fragment = true; /* only what the line says: nothing may rest on what it lacks */
        if (svc < cmd->nwords && !cmd->words[svc].opaque)
            b->l->name = cmd->words[svc].text;
    }
    b->l->opts_opaque |= opts_opaque || ambiguous;
    run_argv(&r, cmd, svc < cmd->nwords ? svc + 1 : cmd->nwords);
    if (!strcmp(cmd->sep, "&"))
        b->l->detached = true;
    if (b->l->detached)
        b->l->group = gl_launch_group(scan);
}
