/* SPDX-License-Identifier: Apache-2.0 */
/* launch_shell.c: find the launches in shell text (see launch_shell.h): wrappers such as
 * sudo and env, Slurm steps (launch_slurm.c), the docker and apptainer families, `sh -c` on
 * the host, inline ignores. */
#include "parsers/launch/launch_shell.h"

#include <stdlib.h>
#include <string.h>

#include "linter/core/newline.h"
#include "linter/core/suppress.h"
#include "parsers/launch/launch_internal.h"
#include "parsers/launch/hpc/launch_slurm.h"
#include "parsers/launch/systemd/launch_systemd.h"
#include "parsers/manifest/k8s.h"
#include "parsers/yaml/yaml_tree.h"

#define MAX_SH_C_DEPTH 4
#define MAX_WRAPPERS 16

void gl_launch_scan_init(struct gl_launch_scan *s, struct gl_doc *doc, struct sh_vars *vars)
{
    memset(s, 0, sizeof *s);
    s->doc = doc;
    s->vars = vars;
    s->group = doc->path;
}

void gl_launches_from_shell(struct gl_doc *doc, const char *text, size_t len,
                            const struct gl_srcmap *map, struct sh_vars *vars)
{
    struct gl_launch_scan s;
    gl_launch_scan_init(&s, doc, vars);
    gl_launch_scan_text(&s, text, len, map);
}

void gl_launches_from_yaml_scalar(struct gl_doc *doc, struct yt_stream *s, struct yt_node *n,
                                  struct sh_vars *vars)
{
    if (!yt_is_scalar(n) || yt_is_null(n))
        return; /* (past parse-memory, the srcmap and the scan below add nothing) */
    struct gl_srcmap m;
    gl_srcmap_init(&m, &doc->arena);
    yt_scalar_srcmap(s, n, &m);
    gl_launches_from_shell(doc, n->value, n->len, &m, vars);
}

static bool is_assignment(const char *t)
{
    size_t i = 0;
    if (!((t[0] >= 'A' && t[0] <= 'Z') || (t[0] >= 'a' && t[0] <= 'z') || t[0] == '_'))
        return false;
    while ((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= 'a' && t[i] <= 'z') || t[i] == '_' ||
           (t[i] >= '0' && t[i] <= '9'))
        i++;
    return t[i] == '=';
}

/* Does option word t (of a wrapper) take the next word as its value? `shorts` lists the
 * letters that take one, `longs` the long names (NULL-terminated). */
static bool takes_value(const char *t, const char *shorts, const char *const *longs)
{
    if (t[0] == '-' && t[1] == '-') {
        if (strchr(t, '='))
            return false;
        for (size_t k = 0; longs[k]; k++)
            if (!strcmp(t + 2, longs[k]))
                return true;
        return false;
    }
    size_t n = strlen(t);
    for (size_t j = 1; j < n; j++)
        if (strchr(shorts, t[j]))
            return j + 1 == n; /* the value is the rest of the word, or the next word */
    return false;
}

/* Skip the options of a wrapper from word i; returns the index of the wrapped command. */
static size_t skip_opts(const struct sh_cmd *cmd, size_t i, const char *shorts,
                        const char *const *longs, bool assignments)
{
    while (i < cmd->nwords && !cmd->words[i].opaque) {
        const char *t = cmd->words[i].text;
        if (!strcmp(t, "--"))
            return i + 1;
        if (t[0] == '-' && t[1]) {
            i += takes_value(t, shorts, longs) ? 2 : 1;
            continue;
        }
        if (assignments && is_assignment(t)) {
            i++;
            continue;
        }
        break;
    }
    return i;
}

static const char *const sudo_long[] = {"user", "group", "chdir", "host", "prompt", "role",
                                        "type", "command-timeout", "other-user", "close-from",
                                        "chroot", NULL};
static const char *const time_long[] = {"format", "output", NULL};
static const char *const env_long[] = {"unset", "chdir", "split-string", NULL};
static const char *const none_long[] = {NULL};
static const char *const timeout_long[] = {"signal", "kill-after", NULL};
static const char *const nice_long[] = {"adjustment", NULL};
/* What the wrappers before a command do to it (skip_wrappers). */
struct wrapped {
    size_t i;              /* the wrapped command's first word */
    bool xargs;            /* xargs adds words read from its input */
    const char *replace;   /* xargs -I R: words holding R are filled in from the input */
    bool remote_script;    /* `ssh HOST 'SCRIPT'`: word i is a script for the remote shell */
};

static const char *const xargs_long[] = {"arg-file", "delimiter", "max-args", "max-procs",
                                         "max-chars", "process-slot-var", NULL};
static const char *const numactl_long[] = {"interleave", "preferred", "membind",
                                           "cpunodebind", "physcpubind", "cpubind",
                                           "preferred-many", "weighted-interleave", NULL};
static const char *const stdbuf_long[] = {"input", "output", "error", NULL};
static const char *const chrt_long[] = {"sched-runtime", "sched-period", "sched-deadline",
                                        NULL};
static const char *const ssh_long[] = {NULL};

/* xargs -I R, -iR, --replace[=R]: the replace string, or NULL. */
static const char *xargs_replace(const struct sh_cmd *cmd, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++) {
        const char *t = cmd->words[k].text;
        if (!strcmp(t, "-I") && k + 1 < to)
            return cmd->words[k + 1].text;
        if (gl_has_prefix(t, "-I") || (gl_has_prefix(t, "-i") && t[2]))
            return t + 2;
        if (!strcmp(t, "-i") || !strcmp(t, "--replace"))
            return "{}";
        if (gl_has_prefix(t, "--replace="))
            return t + 10;
    }
    return NULL;
}

/* numactl and taskset take their CPU/node list as an operand when no option gave it:
 * `taskset 0x3 cmd`, `taskset -c 0-3 cmd` (the list is the -c option's operand). */
static size_t skip_taskset(const struct sh_cmd *cmd, size_t i)
{
    bool pid = false;
    while (i < cmd->nwords && !cmd->words[i].opaque && cmd->words[i].text[0] == '-') {
        const char *t = cmd->words[i].text;
        if (strchr(t, 'p') && t[1] != '-')
            pid = true; /* taskset -p: about a running process, nothing runs */
        i++;
    }
    return pid ? cmd->nwords : i + 1; /* the mask or list */
}

/* ssh [options] DESTINATION [COMMAND...]: the index of the command's first word. */
static size_t skip_ssh(const struct sh_cmd *cmd, size_t i, struct wrapped *w)
{
    i = skip_opts(cmd, i, "BbcDEeFIiJLlmOopQRSWw", ssh_long, false);
    if (i >= cmd->nwords || cmd->words[i].opaque)
        return cmd->nwords; /* no or an unknown destination */
    i++;
    /* one word: the remote shell reads it as a script; several: they are joined with
     * spaces, the same words for plain commands */
    w->remote_script = i + 1 == cmd->nwords;
    return i;
}

/* The options of an MPI launcher (Open MPI's mpirun/orterun/prterun, MPICH's and Intel
 * MPI's mpiexec/mpiexec.hydra, PALS' mpiexec) from word i: the index of the command it
 * runs on every rank. Options are written with one dash or two; those named here take a
 * value (`--mca K V`, `-genv K V` two; `-env K V` two, PALS' `--env K=V` one); any other
 * is a flag. */
static size_t skip_mpi(const struct sh_cmd *cmd, size_t i)
{
    static const char *const one[] = {
        "n", "np", "c", "N", "H", "host", "hosts", "hostfile", "machinefile", "f", "x",
        "map-by", "bind-to", "rank-by", "npernode", "ppn", "npersocket", "prefix", "wdir",
        "output-filename", "cpus-per-proc", "cpus-per-rank", "app", "tune", "am",
        "genvlist", "envlist", "configfile", "launcher", "iface", "outfile-pattern",
        "errfile-pattern", "d", "depth", "cpu-bind", "mem-bind", "rankfile", "timeout",
        "personality", "preload-files", "path", NULL};
    static const char *const two[] = {"mca", "gmca", "genv", NULL};
    while (i < cmd->nwords && !cmd->words[i].opaque) {
        const char *t = cmd->words[i].text;
        if (t[0] != '-' || !t[1])
            break;
        const char *name = t + 1 + (t[1] == '-');
        size_t step = 1;
        if (!strchr(name, '=')) {
            for (size_t k = 0; one[k]; k++)
                if (!strcmp(name, one[k]))
                    step = 2;
            for (size_t k = 0; two[k]; k++)
                if (!strcmp(name, two[k]))
                    step = 3;
            if (!strcmp(name, "env")) /* MPICH `-env K V`; PALS `--env K=V` */
                step = i + 1 < cmd->nwords && strchr(cmd->words[i + 1].text, '=') ? 2 : 3;
        }
        i += step;
    }
    return i;
}

static bool container_tool(const struct sh_cmd *cmd, size_t i)
{
    static const char *const tools[] = {"apptainer", "singularity", "docker", "podman",
                                        "nvidia-docker", "nerdctl", "enroot", "shifter",
                                        "podman-hpc", NULL};
    if (i >= cmd->nwords || cmd->words[i].opaque)
        return false;
    const char *n = gl_base_name(cmd->words[i].text);
    for (size_t k = 0; tools[k]; k++)
        if (gl_streq(n, tools[k]))
            return true;
    return false;
}

static struct wrapped wrappers_from(const struct sh_cmd *cmd, size_t i, int rounds);

/* n: a command word's base name */
static bool mpi_launcher(const char *n)
{
    static const char *const names[] = {"mpirun", "mpiexec", "mpiexec.hydra", "orterun",
                                        "prterun", NULL};
    for (size_t k = 0; names[k]; k++)
        if (gl_streq(n, names[k]))
            return true;
    return false;
}

/* Is word i (of base name `base`) an MPI launcher that runs a container on every rank
 * (`mpiexec -n 8 -ppn 4 apptainer exec ...`)? Then *w is what the wrappers after its
 * options (numactl, ...) wrap: the container command, found with the rounds left, so a
 * chain of launchers (`mpirun mpirun ... apptainer`) is walked once, at most `rounds` deep. An MPI launcher
 * of anything else stays the command (torchrun-style process launchers are judged as
 * such: GL415). */
static bool mpi_runs_container(const struct sh_cmd *cmd, size_t i, const char *base,
                               int rounds, struct wrapped *w)
{
    if (!mpi_launcher(base) || rounds <= 0)
        return false;
    struct wrapped in = wrappers_from(cmd, skip_mpi(cmd, i + 1), rounds);
    if (!container_tool(cmd, in.i))
        return false;
    w->i = in.i;
    w->xargs = w->xargs || in.xargs;
    if (!w->replace)
        w->replace = in.replace;
    w->remote_script = in.remote_script;
    return true;
}

/* The command that wrappers (sudo, env, time, srun, ssh, xargs, mpirun before a container
 * launch, ...) run. */
static struct wrapped wrappers_from(const struct sh_cmd *cmd, size_t i, int rounds)
{
    struct wrapped w = {0};
    for (int round = 0; round < rounds && i < cmd->nwords && !w.remote_script; round++) {
        if (cmd->words[i].opaque)
            break;
        const char *n = gl_base_name(cmd->words[i].text);
        size_t start = i + 1;
        if (gl_streq(n, "sudo"))
            i = skip_opts(cmd, start, "ugCDhprtTU", sudo_long, true);
        else if (gl_streq(n, "exec"))
            i = skip_opts(cmd, start, "a", none_long, false);
        else if (gl_streq(n, "time"))
            i = skip_opts(cmd, start, "fo", time_long, false);
        else if (gl_streq(n, "env"))
            i = skip_opts(cmd, start, "uCS", env_long, true);
        else if (gl_streq(n, "nohup") || gl_streq(n, "command"))
            i = skip_opts(cmd, start, "", none_long, false);
        else if (gl_streq(n, "nice"))
            i = skip_opts(cmd, start, "n", nice_long, false);
        else if (gl_streq(n, "stdbuf"))
            i = skip_opts(cmd, start, "ioe", stdbuf_long, false);
        else if (gl_streq(n, "numactl"))
            i = skip_opts(cmd, start, "imNpCP", numactl_long, false);
        else if (gl_streq(n, "chrt")) {
            i = skip_opts(cmd, start, "TPD", chrt_long, false);
            i++; /* the priority */
        } else if (gl_streq(n, "taskset"))
            i = skip_taskset(cmd, start);
        else if (gl_streq(n, "timeout")) {
            i = skip_opts(cmd, start, "sk", timeout_long, false);
            i++; /* the duration */
        } else if (gl_streq(n, "xargs")) {
            i = skip_opts(cmd, start, "adEILnPs", xargs_long, false);
            w.xargs = true;
            if (!w.replace)
                w.replace = xargs_replace(cmd, start, i);
        } else if (gl_streq(n, "ssh"))
            i = skip_ssh(cmd, start, &w);
        else {
            /* an MPI launcher walked the rest: its result is the whole walk's */
            if (mpi_runs_container(cmd, i, n, rounds - round - 1, &w))
                return w;
            break;
        }
    }
    w.i = i;
    return w;
}

static struct wrapped skip_wrappers(const struct sh_cmd *cmd, size_t i)
{
    return wrappers_from(cmd, i, MAX_WRAPPERS);
}

static const char *const docker_global_long[] = {"host", "context", "config", "log-level",
                                                 "tlscacert", "tlscert", "tlskey", "url",
                                                 "connection", "root", "runroot",
                                                 "storage-driver", "cgroup-manager",
                                                 "events-backend", "identity", "module",
                                                 NULL};

/* podman-hpc's own options before its subcommand (podman_hpc.py), then podman's */
static const char *const podman_hpc_global_long[] = {"additional-stores", "squash-dir",
                                                     "log-level", NULL};

static const char *const buildah_global_long[] = {"cgroup-manager", "log-level", "registries-conf",
                                                  "registries-conf-dir", "root", "runroot",
                                                  "storage-driver", "storage-opt",
                                                  "userns-gid-map", "userns-uid-map",
                                                  "short-name-alias-conf", NULL};

static void shell_cmd(struct gl_launch_scan *s, const struct sh_cmd *cmd, int depth);

/* The options of a split of the scan's text: its variable table (else `fresh`, made
 * here), its documentation and IPython readings. */
static void split_opts(struct gl_launch_scan *s, struct sh_opts *o, struct sh_vars *fresh)
{
    *o = (struct sh_opts){.track_assignments = true, .vars = s->vars,
                          .placeholders = s->placeholders, .python_braces = s->python_braces};
    if (!o->vars) {
        sh_vars_init(fresh, &s->doc->arena);
        o->vars = fresh;
    }
}

/* The launches in word wi of cmd read as a shell script (`sh -c SCRIPT`, `ssh HOST
 * SCRIPT`). */
static void script_word(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t wi,
                        int depth)
{
    if (cmd->words[wi].opaque || depth >= MAX_SH_C_DEPTH)
        return;
    struct sh_vars fresh;
    struct sh_opts o;
    split_opts(s, &o, &fresh);
    struct sh_cmd *inner;
    size_t n;
    struct sh_error err;
    sh_split_word_again(&s->doc->arena, cmd, wi, &o, &inner, &n, &err);
    struct sh_vars *outer = s->text_vars;
    s->text_vars = o.vars;
    for (size_t k = 0; k < n; k++)
        shell_cmd(s, &inner[k], depth + 1);
    s->text_vars = outer;
}

/* `sh -c SCRIPT` on the host: the launches in SCRIPT. */
static void host_sh_c(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t i, int depth)
{
    struct sh_cmd view = *cmd;
    view.words += i;
    view.info += i;
    view.nwords -= i;
    long sc = sh_dash_c_index(&view);
    if (sc >= 0)
        script_word(s, &view, (size_t)sc, depth);
}

static void run_family(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t i,
                       const char *tool)
{
    size_t n = cmd->nwords;
    bool hpc = gl_streq(tool, "podman-hpc");
    size_t j = skip_opts(cmd, i + 1, hpc ? "" : "Hcl",
                         hpc ? podman_hpc_global_long : docker_global_long, false);
    if (j < n && gl_streq(cmd->words[j].text, "compose")) {
        launch_compose_run(s, cmd, i, j + 1,
                           gl_streq(tool, "podman") ? "podman compose run" : "docker compose run");
        return;
    }
    if (j < n && gl_streq(cmd->words[j].text, "container"))
        j++; /* docker|podman|nerdctl container run */
    const char *sub = j < n ? cmd->words[j].text : "";
    /* (podman-hpc's shared-run: one container a node, the tasks exec'd into it; run's
       options, podman_hpc.py) */
    if (gl_streq(sub, "run") || gl_streq(sub, "create") || (hpc && gl_streq(sub, "shared-run"))) {
        launch_docker(s, cmd, i, j + 1, tool);
    } else {
        launch_docker_copy_out(s, cmd, j);
        launch_build_docker(s, cmd, j);
    }
}

/* The Slurm step a command runs in: the srun/salloc/sbatch before it (slurm_prefix). */
struct step {
    struct slurm_req req;  /* (2 KiB: cleared by slurm_prefix at a Slurm word, read only
                              after one, so a command without one never clears it) */
    size_t srun_wi;  /* the `srun` word, cmd->nwords when none */
    bool in_alloc;
    size_t before;   /* doc->nlaunches before the command */
};

static void launcher(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t i, int depth,
                     struct step *st)
{
    size_t n = cmd->nwords;
    bool srun = st->srun_wi < n;
    const char *tool = gl_base_name(cmd->words[i].text);
    static const char *const run_tools[] = {"docker", "podman", "nvidia-docker", "nerdctl",
                                            "podman-hpc"};
    for (size_t k = 0; k < sizeof run_tools / sizeof run_tools[0]; k++)
        if (gl_streq(tool, run_tools[k])) {
            run_family(s, cmd, i, run_tools[k]); /* each with its own table (--gpu) */
            return;
        }
    if (gl_streq(tool, "docker-compose") || gl_streq(tool, "podman-compose")) {
        launch_compose_run(s, cmd, i, i + 1,
                           tool[0] == 'd' ? "docker-compose run" : "podman-compose run");
        return;
    }
    if (gl_streq(tool, "buildah")) {
        launch_build_buildah(s, cmd, skip_opts(cmd, i + 1, "", buildah_global_long, false));
        return;
    }
    if (gl_streq(tool, "executor") && strstr(cmd->words[i].text, "kaniko")) {
        launch_build_kaniko(s, cmd, i + 1); /* /kaniko/executor */
        return;
    }
    if (gl_streq(tool, "kustomize")) {
        launch_build_kustomize(s, cmd, i + 1);
        return;
    }
    if (launch_build_other(s, cmd, i, tool))
        return;
    if (gl_streq(tool, "apptainer") || gl_streq(tool, "singularity")) {
        size_t j = skip_opts(cmd, i + 1, "", none_long, false);
        const char *t = gl_streq(tool, "apptainer") ? "apptainer" : "singularity";
        if (j >= n)
            return;
        const char *sub = cmd->words[j].text;
        if (gl_streq(sub, "exec") || gl_streq(sub, "run") || gl_streq(sub, "shell"))
            launch_apptainer(s, cmd, i, j + 1, t, false);
        else if (gl_streq(sub, "instance") && j + 1 < n && gl_streq(cmd->words[j + 1].text, "start"))
            launch_apptainer(s, cmd, i, j + 2, t, true);
        else if (gl_streq(sub, "pull") || gl_streq(sub, "build"))
            launch_apptainer_fetch(s, cmd, j + 1);
        /* srun apptainer exec: the step's GPUs are the container's; run by the batch
         * script itself: the batch step's */
        const struct slurm_req *step = srun                      ? &st->req
                                       : s->batch && !s->in_step ? s->batch
                                                                 : NULL;
        for (size_t k = st->before; step && k < s->doc->nlaunches; k++)
            slurm_attach(s, k, step);
        return;
    }
    if (gl_streq(tool, "enroot")) {
        launch_enroot(s, cmd, i, srun ? &st->req : NULL);
        return;
    }
    if (gl_streq(tool, "shifter")) { /* the batch script's own runs are the batch step's */
        launch_shifter(s, cmd, i, srun ? &st->req : s->batch && !s->in_step ? s->batch : NULL,
                       srun);
        return;
    }
    if (gl_streq(tool, "shifterimg")) {
        launch_shifterimg(s, cmd, i);
        return;
    }
    if (gl_streq(tool, "kubectl")) {
        launch_kubectl(s, cmd, i, i + 1);
        return;
    }
    bool outer = s->in_step;
    if (srun) {
        launch_slurm_step(s, cmd, st->srun_wi, i, &st->req, st->in_alloc);
        s->in_step = true; /* what `srun sh -c` runs is that step's, not the batch step's */
    }
    host_sh_c(s, cmd, i, depth);
    s->in_step = outer;
}

/* xargs fills words holding its replace string from its input: they are opaque. */
/* A copy of cmd whose words the caller may change (in the arena). */
static struct sh_cmd *cmd_view(struct gl_arena *a, const struct sh_cmd *cmd)
{
    struct sh_cmd *v = gl_arena_alloc(a, sizeof *v);
    *v = *cmd;
    v->words = gl_arena_alloc(a, cmd->nwords * sizeof *v->words);
    memcpy(v->words, cmd->words, cmd->nwords * sizeof *v->words);
    return v;
}

static const struct sh_cmd *xargs_view(struct gl_arena *a, const struct sh_cmd *cmd,
                                       const char *replace)
{
    struct sh_cmd *v = cmd_view(a, cmd);
    for (size_t k = 0; k < cmd->nwords; k++)
        if (replace[0] && strstr(v->words[k].text, replace))
            v->words[k].opaque = true;
    return v;
}

/* A view of cmd whose word i, a command named through a variable only in its directory
 * (`$VENV/bin/torchrun`, "${CONDA_PREFIX}/bin/python"), is its known base name, placed at
 * that name; NULL when some unknown part stands in the name itself (`$TOOL`, `bin/$X`). */
static const struct sh_cmd *named_by_base_view(struct gl_arena *a, const struct sh_cmd *cmd,
                                               size_t i)
{
    if (!cmd->info || i >= cmd->nwords)
        return NULL;
    const struct gl_word *w = &cmd->words[i];
    const struct sh_word_info *in = &cmd->info[i];
    const char *slash = memrchr(w->text, '/', in->len);
    size_t base = slash ? (size_t)(slash - w->text) + 1 : 0;
    if (!base || base >= in->len || memchr(w->text + base, '\0', in->len - base))
        return NULL;
    for (size_t k = 0; k < in->nspans; k++)
        if (in->spans[k].opaque && in->spans[k].out + in->spans[k].len > base - 1)
            return NULL;
    struct sh_cmd *v = cmd_view(a, cmd);
    v->words[i] = (struct gl_word){.text = w->text + base,
                                   .len = gl_word_len_of(in->len - base),
                                   .loc = sh_word_byte_loc(cmd, i, base), .opaque = false};
    return v;
}

static void scan_split(struct gl_launch_scan *s, const char *text, size_t len,
                       const struct gl_srcmap *map, int depth);

/* `sbatch --wrap=SCRIPT`: SCRIPT is a batch script with the options of the sbatch line. */
static void sbatch_wrap(struct gl_launch_scan *s, const struct slurm_req *req, int depth)
{
    const struct lv *v = &req->wrap_value.v;
    if (v->opaque || depth >= MAX_SH_C_DEPTH || v->len > (1u << 16))
        return;
    struct gl_arena *a = &s->doc->arena;
    struct gl_srcmap *map = gl_arena_alloc(a, sizeof *map); /* the words keep it */
    gl_srcmap_init(map, a);
    struct gl_loc prev = {0, 0};
    for (size_t k = 0; k < v->len; k++) {
        struct gl_loc l = lv_loc(v, k);
        if (!k || l.line != prev.line || l.col != prev.col + 1 || v->text[k - 1] == '\n')
            gl_srcmap_add(map, k, l.line, l.col);
        prev = l;
    }
    if (req->image.v.text)
        slurm_batch_container(s, req, lv_loc(&req->image.flag, 0));
    struct slurm_req *outer = s->batch, *mine = gl_arena_alloc(a, sizeof *mine);
    *mine = *req;
    mine->wrap = false;
    s->batch = mine;
    scan_split(s, v->text, v->len, map, depth + 1);
    s->batch = outer;
}

/* A command a batch step runs on its first node that starts processes on its GPUs. */
static bool process_launcher(const struct sh_cmd *cmd, size_t i)
{
    static const char *const names[] = {"torchrun", "deepspeed", "accelerate", "mpirun",
                                        "mpiexec", NULL};
    const char *w = gl_base_name(cmd->words[i].text);
    for (size_t k = 0; names[k]; k++)
        if (gl_streq(w, names[k]))
            return true;
    return gl_has_prefix(w, "python") && i + 2 < cmd->nwords &&
           gl_streq(cmd->words[i + 1].text, "-m") &&
           gl_has_prefix(cmd->words[i + 2].text, "torch.distributed.");
}

/* srun/salloc/sbatch at word *i: their options into st; *i becomes the command they run
 * (after its own wrappers). Returns false when nothing is left to read (sbatch --wrap
 * read, a script submitted). */
static bool slurm_prefix(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t *i,
                         struct step *st, int depth)
{
    for (int round = 0; round < 4 && *i < cmd->nwords && !cmd->words[*i].opaque; round++) {
        const char *w = gl_base_name(cmd->words[*i].text);
        bool srun = gl_streq(w, "srun");
        if (!srun && !gl_streq(w, "salloc") && !gl_streq(w, "sbatch"))
            break;
        if (round == 0) /* the first Slurm word: its options go into a clear request */
            memset(&st->req, 0, sizeof st->req);
        if (srun)
            st->srun_wi = *i;
        *i = skip_wrappers(cmd, slurm_step(s, cmd, *i, &st->req, &st->in_alloc)).i;
        if (gl_streq(w, "sbatch")) {
            if (st->req.wrap)
                sbatch_wrap(s, &st->req, depth);
            return false;
        }
    }
    return true;
}

/* Does the command from word i run jetson-containers: its command word, or a word that
 * substitutes its output (`-v $(jetson-containers data):/data`)? (Its `autotag` helper is
 * not asked for: other tools go by that name.) */
static bool jetson_tools(const struct sh_cmd *cmd, size_t i)
{
    static const char tool[] = "jetson-containers";
    const size_t n = sizeof tool - 1;
    if (i < cmd->nwords && !cmd->words[i].opaque && gl_streq(cmd->words[i].text, tool))
        return true;
    for (size_t k = i; k < cmd->nwords; k++) {
        const char *sub = cmd->words[k].opaque ? strstr(cmd->words[k].text, "$(") : NULL;
        if (sub && !strncmp(sub + 2, tool, n) && (sub[2 + n] == ' ' || sub[2 + n] == ')'))
            return true;
    }
    return false;
}

static void shell_cmd(struct gl_launch_scan *s, const struct sh_cmd *cmd, int depth)
{
    struct wrapped w = skip_wrappers(cmd, 0);
    size_t n = cmd->nwords, i = w.i;
    if (!s->doc->jetson_tools && jetson_tools(cmd, i))
        s->doc->jetson_tools = true;
    if (i < n && cmd->words[i].opaque && i + 1 < n) {
        /* `${CONTAINER_ENGINE} build -t X .`, `$(DOCKER) tag A X`: an engine in a variable
         * still makes the images it tags (launch_build.c); it starts no launch we know */
        launch_build_engine_var(s, cmd, i + 1);
        return;
    }
    if (i >= n || cmd->words[i].opaque)
        return;
    if (gl_streq(cmd->words[i].text, "cd") || gl_streq(cmd->words[i].text, "pushd"))
        s->cwd_unknown = true;
    if (w.remote_script) {
        script_word(s, cmd, i, depth);
        return;
    }
    struct step st; /* (its request is cleared by slurm_prefix when it is used) */
    st.srun_wi = n;
    st.in_alloc = false;
    st.before = s->doc->nlaunches;
    if (!slurm_prefix(s, cmd, &i, &st, depth) || i >= n)
        return;
    if (cmd->words[i].opaque && !(cmd = named_by_base_view(&s->doc->arena, cmd, i)))
        return;
    if (st.srun_wi == n && s->batch && !s->in_step && process_launcher(cmd, i)) {
        launch_slurm_step(s, cmd, i, i, s->batch, true); /* torchrun in the batch step */
        s->doc->launches[s->doc->nlaunches - 1].tool = "sbatch";
        return;
    }
    if (w.replace && cmd->nwords)
        cmd = xargs_view(&s->doc->arena, cmd, w.replace);
    launcher(s, cmd, i, depth, &st);
    /* xargs without -I appends the words it reads: the command line goes on unseen */
    for (size_t k = st.before; w.xargs && !w.replace && k < s->doc->nlaunches; k++) {
        s->doc->launches[k].argv_opaque = true;
        if (s->doc->launches[k].ref < 0)
            s->doc->launches[k].opts_opaque = true;
    }
}

/* The last line of a command: that of its last word's last byte, or of a redirection. */
static uint32_t last_line(const struct sh_cmd *cmd)
{
    uint32_t last = cmd->loc.line;
    if (cmd->nwords) {
        size_t k = cmd->nwords - 1;
        size_t len = cmd->info[k].len;
        struct gl_loc l = sh_word_byte_loc(cmd, k, len ? len - 1 : 0);
        if (l.line > last)
            last = l.line;
    }
    for (size_t r = 0; r < cmd->nredirs; r++)
        if (cmd->redirs[r].target.loc.line > last)
            last = cmd->redirs[r].target.loc.line;
    return last;
}

void gl_launch_scan_text(struct gl_launch_scan *s, const char *text, size_t len,
                         const struct gl_srcmap *map)
{
    /* past the doc's parse-memory, no more texts: a YAML file that names one big script
     * through many aliases would otherwise scan it again for each. The doc is a GL900:
     * at this text when what took the arena past the limit said nothing (a job's other
     * keys, the launches of the text before) */
    if (gl_arena_over(&s->doc->arena)) {
        struct gl_loc at = map ? gl_srcmap_loc(map, 0) : (struct gl_loc){1, 1};
        if (at.line) /* (a text made of no place in the file says nothing) */
            gl_doc_fail_limit(s->doc, GL_LIMIT_PARSE_MEMORY, at);
        return;
    }
    slurm_directives(s, text, len, map);
    scan_split(s, text, len, map, 0);
}

/* The map of bytes [from, to) of `text` (mapped by `map`, or the file itself from 1:1):
 * a command substitution's body, split on its own. */
static struct gl_srcmap *subst_map(struct gl_launch_scan *s, const char *text,
                                   const struct gl_srcmap *map, size_t from, size_t to,
                                   struct gl_text_cursor *at)
{
    struct gl_srcmap *sub = gl_arena_alloc(&s->doc->arena, sizeof *sub); /* words keep it */
    gl_srcmap_init(sub, &s->doc->arena);
    if (map) {
        gl_srcmap_append(sub, 0, map, from, to);
        return sub;
    }
    struct gl_loc l = gl_text_cursor_loc(at, text, from);
    gl_srcmap_identity(sub, text + from, to - from, l.line, l.col);
    return sub;
}

static bool unit_file(const char *path) { return gl_has_suffix(path, ".service"); }
static bool yaml_file(const char *path) { return yt_yaml_name(gl_base_name(path)); }

/* Does the command write a file `named` takes: `[sudo] tee [-a] PATH`? */
static bool tee_to(const struct sh_cmd *c, bool (*named)(const char *))
{
    size_t i = c->nwords && gl_streq(c->words[0].text, "sudo") ? 1 : 0;
    if (i >= c->nwords || c->words[i].opaque || !gl_streq(c->words[i].text, "tee"))
        return false;
    for (size_t k = i + 1; k < c->nwords; k++)
        if (!c->words[k].opaque && named(c->words[k].text))
            return true;
    return false;
}

/* The heredoc (<< or <<-) of c, or NULL. */
static const struct sh_redir *heredoc_of(const struct sh_cmd *c)
{
    const struct sh_redir *body = NULL;
    for (size_t r = 0; r < c->nredirs; r++) {
        const struct sh_redir *x = &c->redirs[r];
        if (x->body && x->op[0] == '<' && x->op[1] == '<' && x->op[2] != '<')
            body = x;
    }
    return body;
}

/* The heredoc of cmds[k] when it is written to a file `named` takes: `cat > X <<EOF`,
 * `tee X <<EOF`, `cat <<EOF | sudo tee X`; else NULL. */
static const struct sh_redir *heredoc_to(const struct sh_cmd *cmds, size_t n, size_t k,
                                         bool (*named)(const char *))
{
    const struct sh_cmd *c = &cmds[k];
    bool to_file = tee_to(c, named) ||
                   (!strcmp(c->sep, "|") && k + 1 < n && tee_to(&cmds[k + 1], named));
    for (size_t r = 0; r < c->nredirs && !to_file; r++) {
        const struct sh_redir *x = &c->redirs[r];
        to_file = x->op[0] == '>' && !x->target.opaque && x->target.text && named(x->target.text);
    }
    return to_file ? heredoc_of(c) : NULL;
}

/* The heredoc of cmds[k] when it holds manifests: applied by kubectl (`kubectl apply -f -
 * <<EOF`, `cat <<EOF | kubectl apply -f -`, through envsubst too) or written to a YAML
 * file (`cat > pod.yaml <<EOF`, which the script then applies); else NULL. */
static const struct sh_redir *manifest_heredoc(const struct sh_cmd *cmds, size_t n, size_t k)
{
    const struct sh_cmd *c = &cmds[k];
    const struct sh_redir *body = heredoc_of(c);
    if (!body)
        return NULL;
    size_t i = skip_wrappers(c, 0).i;
    if (launch_kubectl_applies_stdin(c, i) || heredoc_to(cmds, n, k, yaml_file))
        return body;
    bool feeds = i < c->nwords && !c->words[i].opaque &&
                 (gl_streq(c->words[i].text, "cat") || gl_streq(c->words[i].text, "envsubst"));
    return feeds && !strcmp(c->sep, "|") && k + 1 < n &&
                   launch_kubectl_applies_stdin(&cmds[k + 1], skip_wrappers(&cmds[k + 1], 0).i)
               ? body
               : NULL;
}

/* Is doc line [a, e) the heredoc's line [b, b + n) under `indent` spaces (a Markdown fence
 * in a list item is read without its indent)? A blank body line: any blank line. */
static bool same_line(const char *a, const char *e, const char *b, size_t n, size_t indent)
{
    if (!n) {
        while (a < e && (*a == ' ' || *a == '\t' || *a == '\r'))
            a++;
        return a == e;
    }
    if ((size_t)(e - a) != indent + n)
        return false;
    for (size_t k = 0; k < indent; k++)
        if (a[k] != ' ')
            return false;
    return !memcmp(a + indent, b, n);
}

/* The Kubernetes objects of a heredoc's body (manifest_heredoc), when its lines are the
 * file's own (a script's; a Markdown fence's, under the same indent each): read from the
 * file's bytes, whose positions are then the YAML's. (A body the script's shell expands
 * keeps its `$X` as written: opaque values.) */
static void manifests_from_heredoc(struct gl_launch_scan *s, const struct sh_redir *h)
{
    struct gl_doc *doc = s->doc;
    if (!h->body_loc.line || !h->body_loc.col)
        return;
    size_t indent = h->body_loc.col - 1;
    size_t start = gl_doc_offset(doc, (struct gl_loc){h->body_loc.line, 1});
    if (start == SIZE_MAX)
        return;
    const char *t = doc->text, *end = doc->text + doc->len, *a = t + start;
    const char *b = h->body, *be = h->body + h->body_len;
    while (b < be) {
        const char *bn = memchr(b, '\n', (size_t)(be - b)), *an;
        if (a >= end)
            return;
        an = memchr(a, '\n', (size_t)(end - a));
        if (!same_line(a, an ? an : end, b, (size_t)((bn ? bn : be) - b), indent) || (bn && !an))
            return;
        a = bn ? an + 1 : an ? an : end;
        b = bn ? bn + 1 : be;
    }
    gl_k8s_from_text(doc, t + start, (size_t)(a - (t + start)), h->body_loc.line);
}

static void launches_from_unit(struct gl_launch_scan *s, const char *text, size_t len,
                               const struct gl_srcmap *map, bool expanded);

/* The commands of one text (depth 0: a file's own text, whose commands inline ignores
 * cover; deeper: an `sbatch --wrap` script, a command substitution's body). */
static void scan_split(struct gl_launch_scan *s, const char *text, size_t len,
                       const struct gl_srcmap *map, int depth)
{
    struct sh_vars fresh;
    struct sh_opts o;
    split_opts(s, &o, &fresh);
    o.grammar = s->grammar && !depth;
    o.grammar_bash = s->grammar_bash && !depth;
    struct sh_substs substs = {NULL, 0, 0};
    if (depth < MAX_SH_C_DEPTH)
        o.substs = &substs;
    struct sh_cmd *cmds;
    size_t n;
    struct sh_error err;
    /* (a limit that stopped the split is reported wherever the text came from) */
    if (sh_split(&s->doc->arena, text, len, map, &o, &cmds, &n, &err) < 0 &&
        ((s->report_errors && !depth) || gl_limit_said(err.message)) && !s->doc->error.set &&
        err.set) {
        s->doc->error.set = true;
        s->doc->error.loc = err.loc;
        s->doc->error.message = err.message;
    }
    struct sh_vars *outer = s->text_vars;
    s->text_vars = o.vars;
    struct gl_text_cursor unit_at = GL_TEXT_CURSOR_INIT;
    for (size_t k = 0; k < n; k++) {
        const struct sh_cmd *c = &cmds[k];
        const struct sh_redir *unit = s->in_unit ? NULL : heredoc_to(cmds, n, k, unit_file);
        const struct sh_redir *yaml = s->in_unit ? NULL : manifest_heredoc(cmds, n, k);
        if (yaml)
            manifests_from_heredoc(s, yaml);
        if (unit && unit->body_off + unit->body_len <= len) {
            launches_from_unit(s, unit->body, unit->body_len,
                               subst_map(s, text, map, unit->body_off,
                                         unit->body_off + unit->body_len, &unit_at),
                               !unit->quoted_delim);
        }
        if (!c->nwords && !c->nassigns)
            continue;
        if (!depth) {
            struct gl_line_range *r =
                GL_APPEND(&s->doc->arena, s->ranges, s->nranges, s->capranges);
            r->first = c->loc.line;
            r->last = last_line(c);
        }
        if (c->nwords)
            shell_cmd(s, c, depth);
        if (gl_arena_over(&s->doc->arena)) { /* (the command that took the rest: there) */
            gl_doc_fail_limit(s->doc, GL_LIMIT_PARSE_MEMORY, c->loc);
            break;
        }
    }
    s->text_vars = outer;
    /* the commands inside command substitutions (`ID=$(docker run -d --gpus all ...)`) are
       commands of the script too, in a subshell: their launches are read after the text's */
    struct gl_text_cursor at = GL_TEXT_CURSOR_INIT;
    for (size_t k = 0; k < substs.n && !gl_arena_over(&s->doc->arena); k++) {
        size_t from = substs.items[k].from, to = substs.items[k].to;
        scan_split(s, text + from, to - from, subst_map(s, text, map, from, to, &at),
                   depth + 1);
    }
}

/* gl_launches_from_unit; `expanded`: the unit is a heredoc's body the script's shell
 * expands (`<<EOF`, not `<<'EOF'`: gl_unit_commands) */
static void launches_from_unit(struct gl_launch_scan *s, const char *text, size_t len,
                               const struct gl_srcmap *map, bool expanded)
{
    struct sh_vars vars;
    sh_vars_init(&vars, &s->doc->arena);
    struct gl_unit_cmds u = {0};
    /* (the unit file itself, not a heredoc or a block: its sibling units can be read) */
    const char *unit_path = !map && text == s->doc->text ? s->doc->path : NULL;
    if (s->in_unit ||
        !gl_unit_commands(&s->doc->arena, text, len, map, expanded, unit_path, &vars, &u)) {
        if (u.stop.line) /* (the arena went past parse-memory there) */
            gl_doc_fail_limit(s->doc, GL_LIMIT_PARSE_MEMORY, u.stop);
        return;
    }
    struct sh_vars *outer = s->vars;
    /* a heredoc body the script's shell expands (`<<EOF`): its `$X` are the script's,
       substituted before systemd reads the unit, so its Environment= sets none of them */
    s->vars = expanded && outer ? outer : &vars;
    if (u.built_image) /* `Image=NAME.build`: the image the project builds */
        gl_project_add(s->doc, GL_PROJECT_BUILT, u.built_image, NULL, u.built_loc,
                       "quadlet .build");
    s->in_unit = true;
    gl_launch_scan_text(s, u.text, u.len, &u.map);
    s->in_unit = false;
    s->vars = outer;
}

void gl_launches_from_unit(struct gl_launch_scan *s, const char *text, size_t len,
                           const struct gl_srcmap *map)
{
    launches_from_unit(s, text, len, map, false);
}

static int range_cmp(const void *a, const void *b)
{
    const struct gl_line_range *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first ? 1 : 0;
}

/* Count the line breaks in t[from, to). */
static uint32_t breaks_in(const char *t, size_t from, size_t to)
{
    return (uint32_t)gl_nl_count(t + from, to - from);
}

/* Only lines whose first non-blank byte is `#` followed by blanks and `gpulint` can hold a
 * pragma: the scan jumps from one `#` to the next (memchr), and counts lines only up to a
 * line that holds one. */
void gl_launch_scan_pragmas(struct gl_launch_scan *s)
{
    struct gl_doc *doc = s->doc;
    const char *t = doc->text;
    size_t len = doc->len, i = 0, next = 0, counted = 0;
    uint32_t line = 1; /* the line of byte `counted` */
    bool sorted = false; /* the ranges, sorted at the first pragma (most texts have none) */
    if (!t)
        return;
    while (i < len) {
        const char *hash = memchr(t + i, '#', len - i);
        if (!hash)
            break;
        size_t p = (size_t)(hash - t), bol = p;
        while (bol > i && (t[bol - 1] == ' ' || t[bol - 1] == '\t'))
            bol--;
        /* (a `#` later on this line has this one before it: the search goes on after it,
         * and finds the line's end only for a pragma's line) */
        i = p + 1;
        if (bol > 0 && t[bol - 1] != '\n')
            continue; /* a `#` after other text on its line */
        size_t q = p + 1; /* a pragma is `#`, blanks, `gpulint` (gl_pragma_parse) */
        while (q < len && (t[q] == ' ' || t[q] == '\t'))
            q++;
        if (len - q < 7 || memcmp(t + q, "gpulint", 7))
            continue;
        const char *nl = memchr(t + p, '\n', len - p);
        size_t eol = nl ? (size_t)(nl - t) : len;
        i = eol + 1;
        if (!sorted && s->nranges > 1)
            qsort(s->ranges, s->nranges, sizeof *s->ranges, range_cmp);
        sorted = true;
        line += breaks_in(t, counted, bol);
        counted = bol;
        while (next < s->nranges && s->ranges[next].first <= line)
            next++;
        uint32_t first = line + 1, last = line + 1;
        if (next < s->nranges) {
            first = s->ranges[next].first;
            last = s->ranges[next].last < first ? first : s->ranges[next].last;
        }
        gl_pragma_parse(doc, t + p + 1, eol - p - 1,
                        (struct gl_loc){line, (uint32_t)(p - bol) + 2}, first, last);
    }
}
