/* SPDX-License-Identifier: Apache-2.0 */
/* GL415 gpu-process-count-mismatch: the processes a launch starts per node differ from the
 * whole GPUs it requests per node. */
#include <stdlib.h>
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_argv.h"
#include "rules/gl4xx/launch_paths.h"

/* A literal whole number ("8"), else -1 ("gpu", "auto", "$N", "0.5", "all"). */
static long literal(const char *s)
{
    if (!s || !*s || strlen(s) > 6 || strspn(s, "0123456789") != strlen(s))
        return -1;
    return strtol(s, NULL, 10);
}

/* The whole GPUs per node of the launch's one counted request, -1 when not literal. */
static long gpus_per_node(const struct gl_launch *l, const struct gl_gpu_request **req)
{
    const struct gl_gpu_request *found = NULL;
    for (size_t k = 0; k < l->ngpus; k++) {
        const struct gl_gpu_request *g = &l->gpus[k];
        if (g->kind == GL_GPU_RUNTIME || g->kind == GL_GPU_ENV_VISIBLE ||
            g->kind == GL_GPU_SITE_MODULE)
            continue; /* the runtime alone, a visible-devices list, a site module: no count */
        if (found || g->mig || g->count_opaque || g->kind == GL_GPU_K8S_MIG ||
            g->kind == GL_GPU_K8S_VENDOR || g->kind == GL_GPU_K8S_DRA || g->ndevice_ids)
            return -1; /* two requests, shared or partial GPUs, device lists */
        found = g;
    }
    *req = found;
    return found ? literal(found->count) : -1;
}

struct procs {
    long n;                   /* processes per node, -1 unknown, 0 no launcher */
    const struct gl_word *at; /* the option word that says it */
    long over;                /* the nodes its total is spread over (mpirun -np in a
                                 Slurm job of several nodes), 0 when it counts one node */
};

static bool known(const struct gl_word *w) { return gl_word_known(w); }

/* A benchmark of nccl-tests (all_reduce_perf, ...): each of its processes drives `-t`
 * threads of `-g` GPUs each (both 1 by default). */
static bool nccl_test(const char *word, size_t len)
{
    static const char *const names[] = {
        "all_reduce_perf", "all_gather_perf", "alltoall_perf", "broadcast_perf",
        "reduce_perf", "reduce_scatter_perf", "sendrecv_perf", "scatter_perf",
        "gather_perf", "hypercube_perf", NULL};
    return gl_word_in(word, len, names);
}

/* The value of option `names` among the options of a launcher whose name is argv[i]: the
 * words after it up to its program (a `.py` file, `-m`, an nccl-tests benchmark, or two
 * words that are no option in a row) or `end`. *at gets the option word; NULL when absent. */
static const char *option(const struct gl_launch *l, size_t i, size_t end,
                          const char *const *names, const struct gl_word **at)
{
    bool prev_opt = true;
    for (size_t k = i + 1; k < end; k++) {
        const struct gl_word *w = &l->argv[k];
        if (!known(w))
            return NULL; /* an opaque word may hold the option */
        const char *t = w->text;
        size_t n = strlen(t);
        if (!strcmp(t, "-m") || (n > 3 && !strcmp(t + n - 3, ".py")) ||
            (t[0] != '-' && !prev_opt) || nccl_test(t, n))
            return NULL;
        prev_opt = t[0] == '-';
        for (size_t j = 0; names[j]; j++) {
            size_t m = strlen(names[j]);
            if (strncmp(t, names[j], m))
                continue;
            if (t[m] == '=') {
                *at = w;
                return t + m + 1;
            }
            if (!t[m] && k + 1 < end) {
                *at = w;
                return known(&l->argv[k + 1]) ? l->argv[k + 1].text : "";
            }
        }
    }
    return NULL;
}

static bool named(const char *t, const char *name)
{
    size_t n = strlen(t);
    return gl_word_in(t, n, (const char *const[]){name, NULL});
}

/* Is argv[i] in command position in the command starting at s: its command word, a
 * wrapper before it (`mpirun`), or a word behind a wrapper with options (`mpirun -np 4
 * torchrun ...`)? An argument of another command (`pip install deepspeed`) is not. */
static bool command_position(const struct gl_launch *l, size_t s, size_t i)
{
    size_t c = gl_command_word(l, s);
    if (i <= c)
        return true;
    return c < i && c > s && gl_word_wrapper(l->argv[c - 1].text, strlen(l->argv[c - 1].text));
}

/* The processes per node the launcher of command [s, end) starts; n = 0 when there is
 * none. */
static struct procs command_launcher(const struct gl_launch *l, size_t s, size_t end)
{
    static const char *const nproc[] = {"--nproc_per_node", "--nproc-per-node", NULL};
    static const char *const ngpus[] = {"--num_gpus", "--num-gpus", NULL};
    static const char *const nprocs[] = {"--num_processes", "--num-processes", NULL};
    static const char *const machines[] = {"--num_machines", "--num-machines", NULL};
    static const char *const config[] = {"--config_file", "--config-file", NULL};
    static const char *const np[] = {"-np", "-n", "--np", "-c", NULL};
    static const char *const hosts[] = {"-H", "--host", "-host", "--hostfile", "-hostfile",
                                        "--machinefile", "-machinefile", "-f", "-npernode",
                                        "--npernode", "-N", "--map-by", "-ppn", NULL};
    struct procs p = {0, NULL, 0};
    for (size_t i = s; i < end; i++) {
        const struct gl_word *w = &l->argv[i];
        if (!known(w) || !command_position(l, s, i))
            continue;
        const char *t = w->text, *v = NULL;
        const struct gl_word *at = NULL, *none = NULL;
        if (named(t, "torchrun") ||
            (!strncmp(t, "python", 6) && i + 2 < end && !strcmp(l->argv[i + 1].text, "-m") &&
             (!strcmp(l->argv[i + 2].text, "torch.distributed.run") ||
              !strcmp(l->argv[i + 2].text, "torch.distributed.launch")))) {
            size_t from = named(t, "torchrun") ? i : i + 2;
            v = option(l, from, end, nproc, &at);
        } else if (named(t, "deepspeed")) {
            v = option(l, i, end, ngpus, &at);
        } else if (named(t, "accelerate") && i + 1 < end &&
                   !strcmp(l->argv[i + 1].text, "launch")) {
            const char *m = option(l, i + 1, end, machines, &none);
            if ((m && literal(m) != 1) || (!m && option(l, i + 1, end, config, &none)))
                return (struct procs){-1, NULL, 0}; /* several machines, or a config */
            v = option(l, i + 1, end, nprocs, &at);
        } else if (named(t, "mpirun") || named(t, "mpiexec")) {
            for (size_t h = 0; hosts[h]; h++)
                if (option(l, i, end, (const char *const[]){hosts[h], NULL}, &none))
                    return (struct procs){-1, NULL, 0}; /* more than one node */
            if (l->nodes < 0)
                return (struct procs){-1, NULL, 0}; /* a Slurm job of nodes not known */
            v = option(l, i, end, np, &at);
            long total = at ? literal(v) : -1;
            if (l->nodes > 1 && total >= 0) /* in a Slurm job, -np counts every node's */
                return total % l->nodes ? (struct procs){-1, NULL, 0}
                                        : (struct procs){total / l->nodes, at, l->nodes};
        } else {
            continue;
        }
        if (!at)
            return (struct procs){-1, NULL, 0}; /* the default: not judged */
        p.n = literal(v);
        p.at = at;
        return p;
    }
    return p;
}

/* The processes per node the first launcher among the launch's commands starts. */
static struct procs launcher(const struct gl_launch *l)
{
    for (size_t s = 0; s < l->nargv; s = gl_launch_next_command(l, s)) {
        struct procs p = command_launcher(l, s, gl_launch_next_command(l, s));
        if (p.n)
            return p;
    }
    return (struct procs){0, NULL, 0};
}

/* The value of nccl-tests' option -X / --long (`-g 2`, `-g2`, `--ngpus=2`, `--ngpus 2`)
 * in word k (and k + 1): its text, NULL when word k is not that option; *k moves past a
 * separate value, which is "" when opaque. */
static const char *short_or_long(const struct gl_launch *l, size_t *k, size_t end, char x,
                                 const char *lng)
{
    const char *t = l->argv[*k].text;
    size_t n = strlen(lng);
    if (t[0] == '-' && t[1] == x && t[2]) /* -g2 */
        return t + 2;
    if (!strncmp(t, lng, n) && t[n] == '=') /* --ngpus=2 */
        return t + n + 1;
    if (!(t[0] == '-' && t[1] == x && !t[2]) && strcmp(t, lng))
        return NULL;
    if (*k + 1 >= end)
        return "";
    *k += 1;
    return known(&l->argv[*k]) ? l->argv[*k].text : "";
}

/* The GPUs each process of the launch drives: nccl-tests' -t x -g for its benchmark, 1 for
 * any other program, -1 when a value is not literal. */
static long gpus_per_process(const struct gl_launch *l)
{
    for (size_t s = 0; s < l->nargv; s = gl_launch_next_command(l, s)) {
        /* (any word of the command: the benchmark follows its launcher's options, which
         * the command-word search does not all know: `mpirun -np 2 --allow-run-as-root`) */
        size_t end = gl_launch_next_command(l, s), b = s;
        while (b < end && !(known(&l->argv[b]) &&
                            nccl_test(l->argv[b].text, strlen(l->argv[b].text))))
            b++;
        if (b >= end)
            continue;
        long each = 1;
        for (size_t k = b + 1; k < end; k++) {
            if (!known(&l->argv[k]))
                return -1; /* an opaque word may hold -g */
            const char *v = short_or_long(l, &k, end, 'g', "--ngpus");
            if (!v)
                v = short_or_long(l, &k, end, 't', "--nthreads");
            long x = v ? literal(v) : 1;
            if (x <= 0)
                return -1;
            each *= x;
        }
        return each;
    }
    return 1;
}

/* A container engine's client (docker, podman, podman-hpc, nerdctl): a Slurm task that
 * runs one starts or manages containers (`docker run -d ... tail -f /dev/null`), and the
 * GPU processes are the containers', judged as their own launches. */
static bool engine_client(const char *word, size_t len)
{
    static const char *const names[] = {"docker", "podman", "podman-hpc", "nerdctl", NULL};
    return gl_word_in(word, len, names);
}

/* Is the launch's one command an interactive shell: a shell given no script, no -c and
 * no other operand (`srun --pty ... bash --rcfile F`, `bash -l`)? Slurm tasks that run
 * one are a session the user types into, not the job's GPU processes (bigscience's
 * `srun --pty --ntasks=4 --gres=gpu:1 bash`, then one training run inside). */
static bool interactive_shell(const struct gl_launch *l)
{
    static const char *const shells[] = {"bash", "sh", "zsh", "dash", "ksh", "fish", NULL};
    static const char *const valued[] = {"--rcfile", "--init-file", "-O", "+O", "-o", "+o",
                                         NULL};
    size_t c = gl_command_word(l, 0);
    if (c >= l->nargv || gl_launch_next_command(l, 0) < l->nargv || !known(&l->argv[c]) ||
        !gl_word_named(l->argv[c].text, shells))
        return false;
    for (size_t k = c + 1; k < l->nargv; k++) {
        const char *t = l->argv[k].text;
        if (!known(&l->argv[k]) || t[0] != '-' || (t[1] != '-' && strchr(t, 'c')))
            return false; /* an operand (a script), -c, or a word that may be either */
        if (gl_word_named(t, valued))
            k++; /* its value, whatever it is */
    }
    return true;
}

/* The request as its input writes it. */
static const char *request_text(struct gl_arena *a, const struct gl_gpu_request *g)
{
    const char *v = g->count ? g->count : "?";
    switch (g->kind) {
    case GL_GPU_FLAG: return gl_arena_printf(a, "--gpus %s", g->value ? g->value : v);
    case GL_GPU_K8S_RESOURCE: return gl_arena_printf(a, "nvidia.com/gpu: %s", v);
    case GL_GPU_COMPOSE_DEVICE: return gl_arena_printf(a, "count: %s", v);
    case GL_GPU_COMPOSE_GPUS: return gl_arena_printf(a, "gpus: %s", v);
    default: return g->value ? g->value : v;
    }
}

static void judge(struct gl_check *c, struct gl_launch_facts *f, size_t i)
{
    const struct gl_launch *l = &c->doc->launches[i];
    const struct gl_gpu_request *g = NULL;
    long gpus = gpus_per_node(l, &g);
    if (gpus <= 0 || l->fragment)
        return;
    struct procs p = launcher(l);
    struct gl_launch steps; /* a CI job container: the launcher among its steps */
    const struct gl_launch *run = l;
    if (!p.n && gl_launch_steps_view(l, &steps))
        p = launcher(run = &steps);
    long tasks = literal(l->tasks_per_node);
    if (p.n < 0 || (p.n == 0 && tasks <= 1))
        return; /* nothing literal; one task per node may drive every GPU (JAX, a launcher) */
    if (p.n == 0 && gl_launch_may_run(l, engine_client))
        return; /* the tasks set up containers: they are not the GPU processes */
    if (p.n == 0 && interactive_shell(l))
        return; /* the tasks are shells of an interactive session */
    if (p.n == 0 && g->per_task)
        return; /* `--gpus-per-task=K`: each task is given K GPUs, and drives what it is given */
    long per_node = p.n ? p.n * (tasks > 0 ? tasks : 1) : tasks;
    long each = gpus_per_process(run); /* (one process may drive several GPUs) */
    if (each < 0 || per_node * each == gpus)
        return;
    struct gl_loc at = p.n ? p.at->loc : l->tasks_loc;
    const char *opt = !p.n ? NULL
                      : strchr(p.at->text, '=')
                          ? gl_arena_printf(&f->arena, "`%s`", p.at->text)
                          : gl_arena_printf(&f->arena, "`%s %ld`", p.at->text,
                                            p.over ? p.n * p.over : p.n);
    if (p.over && opt)
        opt = gl_arena_printf(&f->arena, "%s over %ld nodes", opt, p.over);
    const char *how =
        p.n && tasks > 1
            ? gl_arena_printf(&f->arena, "%ld tasks per node at line %u, x %s", tasks,
                              (unsigned)l->tasks_loc.line, opt)
        : p.n ? opt
              : gl_arena_printf(&f->arena, "%ld tasks per node at line %u", tasks,
                                (unsigned)l->tasks_loc.line);
    const char *where = g->loc.line && g->loc.line != at.line
                            ? gl_arena_printf(&f->arena, " at line %u", (unsigned)g->loc.line)
                            : "";
    const char *drives =
        each > 1 ? gl_arena_printf(&f->arena, ", each driving %ld GPUs", each) : "";
    gl_report(c, at, NULL,
              "%s starts %ld process%s per node (%s)%s but requests %ld GPU%s per node "
              "(`%s`%s): %s",
              gl_launch_label(&f->arena, l), per_node, per_node == 1 ? "" : "es", how, drives,
              gpus, gpus == 1 ? "" : "s", request_text(&f->arena, g), where,
              per_node * each > gpus ? "processes share a GPU (out of memory, or NCCL refuses "
                                       "two ranks on one device)"
                                     : "GPUs sit idle");
}

static void check(struct gl_check *c) { gl_check_launches(c, judge); }

const struct gl_rule gl_rule_GL415 = {
    .id = "GL415",
    .name = "gpu-process-count-mismatch",
    .severity = GL_SEV_WARNING,
    .summary = "the processes a launch starts per node differ from the GPUs it requests per "
               "node",
    .explanation =
        "Distributed training starts one process per GPU: `torchrun --nproc_per_node`, "
        "`deepspeed --num_gpus`, `accelerate launch --num_processes` (on one machine), "
        "`mpirun -np` (on one node; in a Slurm job of N nodes, -np / N), or Slurm's tasks per node (`srun --ntasks-per-node`, "
        "times the processes a launcher in each task starts; not when the tasks run a "
        "container engine's client, `docker run -d ...`, whose containers are the GPU "
        "processes and are judged as their own launches); for a GitHub Actions job "
        "`container:`, the launcher among the commands of the job's steps, which run in it. "
        "When that number differs "
        "from the whole GPUs the same launch requests per node (`--gpus N`, "
        "`nvidia.com/gpu: N`, a compose `count`, `#SBATCH --gres=gpu:N`, "
        "`--gpus-per-node=N`), GPUs sit idle or several processes share one GPU (out of "
        "memory, or NCCL's \"Duplicate GPU detected\"). Judged only when both numbers are "
        "literal (`--nproc_per_node=gpu`/`auto`, `--gpus all`, a variable, MIG or shared "
        "GPUs are never judged), per node for multi-node jobs; one Slurm task per node "
        "alone is not judged (one process may drive every GPU of its node), nor are Slurm "
        "tasks given their GPUs by `--gpus-per-task=K` (each drives the K it is given; a "
        "launcher in each task is still judged against them), nor tasks that run an "
        "interactive shell (`srun --pty ... bash`: a session, not the job). A process of "
        "an nccl-tests benchmark (`all_reduce_perf`, ...) drives `-t` threads of `-g` GPUs "
        "each: it counts as that many.",
    .bad = "docker run --gpus 4 --ipc=host nvcr.io/nvidia/pytorch:24.05-py3 \\\n"
           "    torchrun --nproc_per_node=8 train.py",
    .good = "docker run --gpus 4 --ipc=host nvcr.io/nvidia/pytorch:24.05-py3 \\\n"
            "    torchrun --nproc_per_node=4 train.py",
    .fix = "start one process per requested GPU (or request as many GPUs as processes)",
    .check = check,
};
