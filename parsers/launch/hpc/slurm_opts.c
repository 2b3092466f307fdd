/* SPDX-License-Identifier: Apache-2.0 */
/* slurm_opts.c: the sbatch/srun/salloc option table, reading options, and the GPU request
 * and tasks per node they make (see slurm_opts.h). */
#include "parsers/launch/hpc/slurm_opts.h"

#include <stddef.h>
#include <string.h>

#define SB GL_SLURM_SBATCH
#define SR GL_SLURM_SRUN
#define SA GL_SLURM_SALLOC
#define PX GL_SLURM_PYXIS
#define ALL (SB | SR | SA)

/* Debian's slurm-client 22.05 (`sbatch --help`, `srun --help`, `salloc --help`), where
 * the help prints `--container` and `--wrap` without the value both require; then pyxis's
 * options (NVIDIA/pyxis args.c). */
const struct gl_slurm_flag gl_slurm_flags[] = {
    {"account", 'A', SB | SR | SA, SB | SR | SA},
    {"acctg-freq", 0, SR, SR},
    {"array", 'a', SB, SB},
    {"bb", 0, SB | SR | SA, SB | SR | SA},
    {"bbf", 0, SB | SR | SA, SB | SR | SA},
    {"bcast", 0, SR, SR},
    {"bcast-exclude", 0, SR, SR},
    {"begin", 'b', SB | SR | SA, SB | SR | SA},
    {"bell", 0, SA, 0},
    {"chdir", 'D', SB | SR | SA, SB | SR | SA},
    {"cluster-constraint", 0, SB | SR | SA, SB | SR | SA},
    {"clusters", 'M', SB | SR | SA, SB | SR | SA},
    {"comment", 0, SB | SR | SA, SB | SR | SA},
    {"compress", 0, SR, 0},
    {"constraint", 'C', SB | SR | SA, SB | SR | SA},
    {"container", 0, SB | SR | SA, SB | SR | SA},
    {"contiguous", 0, SB | SR | SA, 0},
    {"core-spec", 'S', SB | SR | SA, SB | SR | SA},
    {"cores-per-socket", 0, SB | SR | SA, SB | SR | SA},
    {"cpu-freq", 0, SB | SR | SA, SB | SR | SA},
    {"cpus-per-gpu", 0, SB | SR | SA, SB | SR | SA},
    {"cpus-per-task", 'c', SB | SR | SA, SB | SR | SA},
    {"deadline", 0, SB | SR | SA, SB | SR | SA},
    {"delay-boot", 0, SB | SR | SA, SB | SR | SA},
    {"dependency", 'd', SB | SR | SA, SB | SR | SA},
    {"disable-status", 'X', SR, 0},
    {"distribution", 'm', SB | SR | SA, SB | SR | SA},
    {"epilog", 0, SR, SR},
    {"error", 'e', SB | SR, SB | SR},
    {"exact", 0, SR, 0},
    {"exclude", 'x', SB | SR | SA, SB | SR | SA},
    {"exclusive", 0, SB | SR | SA, 0},
    {"export", 0, SB | SR, SR},
    {"export-file", 0, SB, SB},
    {"extra-node-info", 'B', SB | SR | SA, SB | SR | SA},
    {"get-user-env", 0, SB | SA, 0},
    {"gid", 0, SB | SA, SB | SA},
    {"gpu-bind", 0, SB | SR | SA, SB | SR | SA},
    {"gpu-freq", 0, SB | SR | SA, SB | SR | SA},
    {"gpus", 'G', SB | SR | SA, SB | SR | SA},
    {"gpus-per-node", 0, SB | SR | SA, SB | SR | SA},
    {"gpus-per-socket", 0, SB | SR | SA, SB | SR | SA},
    {"gpus-per-task", 0, SB | SR | SA, SB | SR | SA},
    {"gres", 0, SB | SR | SA, SB | SR | SA},
    {"gres-flags", 0, SB | SR | SA, SB | SR | SA},
    {"help", 'h', SB | SR | SA, 0},
    {"het-group", 0, SR, SR},
    {"hold", 'H', SB | SR | SA, 0},
    {"ignore-pbs", 0, SB, 0},
    {"immediate", 'I', SR | SA, 0},
    {"input", 'i', SB | SR, SB | SR},
    {"job-name", 'J', SB | SR | SA, SB | SR | SA},
    {"jobid", 0, SR, SR},
    {"kill-command", 'K', SA, 0},
    {"kill-on-bad-exit", 'K', SR, 0},
    {"label", 'l', SR, 0},
    {"licenses", 'L', SB | SR | SA, SB | SR | SA},
    {"mail-type", 0, SB | SR | SA, SB | SR | SA},
    {"mail-user", 0, SB | SR | SA, SB | SR | SA},
    {"mcs-label", 0, SB | SR | SA, SB | SR | SA},
    {"mem", 0, SB | SR | SA, SB | SR | SA},
    {"mem-per-cpu", 0, SB | SR | SA, SB | SR | SA},
    {"mem-per-gpu", 0, SB | SR | SA, SB | SR | SA},
    {"mincpus", 0, SB | SR | SA, SB | SR | SA},
    {"mpi", 0, SR, SR},
    {"multi-prog", 0, SR, 0},
    {"nice", 0, SB | SR | SA, 0},
    {"no-allocate", 'Z', SR, 0},
    {"no-bell", 0, SA, 0},
    {"no-kill", 'k', SB | SR | SA, 0},
    {"no-requeue", 0, SB, 0},
    {"nodefile", 'F', SB | SA, SB | SA},
    {"nodelist", 'w', SB | SR | SA, SB | SR | SA},
    {"nodes", 'N', SB | SR | SA, SB | SR | SA},
    {"ntasks", 'n', SB | SR | SA, SB | SR | SA},
    {"ntasks-per-core", 0, SB | SR | SA, SB | SR | SA},
    {"ntasks-per-node", 0, SB | SR | SA, SB | SR | SA},
    {"ntasks-per-socket", 0, SB | SR | SA, SB | SR | SA},
    {"output", 'o', SB | SR, SB | SR},
    {"overcommit", 'O', SB | SR | SA, 0},
    {"overlap", 0, SR, 0},
    {"oversubscribe", 's', SB | SR | SA, 0},
    {"parsable", 0, SB, 0},
    {"partition", 'p', SB | SR | SA, SB | SR | SA},
    {"power", 0, SB | SR | SA, SB | SR | SA},
    {"preserve-env", 'E', SR, 0},
    {"priority", 0, SB | SR | SA, SB | SR | SA},
    {"profile", 0, SB | SR | SA, SB | SR | SA},
    {"prolog", 0, SR, SR},
    {"propagate", 0, SB | SR, 0},
    {"pty", 0, SR, 0},
    {"qos", 'q', SB | SR | SA, SB | SR | SA},
    {"quiet", 'Q', SB | SR | SA, 0},
    {"quit-on-interrupt", 0, SR, 0},
    {"reboot", 0, SB | SR | SA, 0},
    {"relative", 'r', SR, SR},
    {"requeue", 0, SB, 0},
    {"reservation", 0, SB | SR | SA, SB | SR | SA},
    {"resv-ports", 0, SR, 0},
    {"send-libs", 0, SR, 0},
    {"signal", 0, SB | SR | SA, SB | SR | SA},
    {"slurmd-debug", 0, SR, SR},
    {"sockets-per-node", 0, SB | SR | SA, SB | SR | SA},
    {"spread-job", 0, SB | SR | SA, 0},
    {"switches", 0, SB | SR | SA, SB | SR | SA},
    {"task-epilog", 0, SR, SR},
    {"task-prolog", 0, SR, SR},
    {"thread-spec", 0, SB | SR | SA, SB | SR | SA},
    {"threads", 'T', SR, SR},
    {"threads-per-core", 0, SB | SR | SA, SB | SR | SA},
    {"time", 't', SB | SR | SA, SB | SR | SA},
    {"time-min", 0, SB | SR | SA, SB | SR | SA},
    {"tmp", 0, SB | SR | SA, SB | SR | SA},
    {"uid", 0, SB | SA, SB | SA},
    {"unbuffered", 'u', SR, 0},
    {"usage", 0, SB | SR | SA, 0},
    {"use-min-nodes", 0, SB | SR | SA, 0},
    {"verbose", 'v', SB | SR | SA, 0},
    {"version", 'V', SB | SR | SA, 0},
    {"wait", 'W', SB | SR, SR},
    {"wckey", 0, SB | SR | SA, SB | SR | SA},
    {"wrap", 0, SB, SB},
    {"container-image", 0, PX, PX},
    {"container-mounts", 0, PX, PX},
    {"container-workdir", 0, PX, PX},
    {"container-name", 0, PX, PX},
    {"container-save", 0, PX, PX},
    {"container-mount-home", 0, PX, 0},
    {"no-container-mount-home", 0, PX, 0},
    {"container-remap-root", 0, PX, 0},
    {"no-container-remap-root", 0, PX, 0},
    {"container-entrypoint", 0, PX, 0},
    {"no-container-entrypoint", 0, PX, 0},
    {"container-entrypoint-log", 0, PX, 0},
    {"container-writable", 0, PX, 0},
    {"container-readonly", 0, PX, 0},
    {"container-env", 0, PX, PX},
    {"container-unshare", 0, PX, PX},
    /* Shifter's SPANK options (the image `shifter` steps run, its modules and volumes) */
    {"image", 0, ALL, ALL},
    {"module", 0, ALL, ALL},
    {"volume", 0, ALL, ALL},
    {NULL, 0, 0, 0},
};

static bool has(unsigned mask, unsigned cmd_bit)
{
    return (mask & cmd_bit) || (mask & PX);
}

static const struct gl_slurm_flag *by_long(const char *name, size_t len, unsigned cmd_bit)
{
    char first = len ? name[0] : '\0'; /* most names differ there: no strlen for them */
    for (const struct gl_slurm_flag *f = gl_slurm_flags; f->name; f++)
        if (f->name[0] == first && strlen(f->name) == len && !memcmp(f->name, name, len) &&
            has(f->in, cmd_bit))
            return f;
    return NULL;
}

static const struct gl_slurm_flag *by_short(char c, unsigned cmd_bit)
{
    for (const struct gl_slurm_flag *f = gl_slurm_flags; f->name; f++)
        if (f->shorthand == c && has(f->in, cmd_bit))
            return f;
    return NULL;
}

static void set(struct slurm_opt *o, const struct lv *flag, const struct lv *v)
{
    o->flag = *flag;
    o->v = *v;
}

static void apply(struct slurm_req *r, const char *name, const struct lv *flag,
                  const struct lv *v)
{
    static const struct {
        const char *name;
        size_t off;
    } slots[] = {
        {"gres", offsetof(struct slurm_req, gres)},
        {"gpus", offsetof(struct slurm_req, gpus)},
        {"gpus-per-node", offsetof(struct slurm_req, gpus_per_node)},
        {"gpus-per-task", offsetof(struct slurm_req, gpus_per_task)},
        {"nodes", offsetof(struct slurm_req, nodes)},
        {"ntasks", offsetof(struct slurm_req, ntasks)},
        {"ntasks-per-node", offsetof(struct slurm_req, ntasks_per_node)},
        {"container-image", offsetof(struct slurm_req, image)},
        {"container-workdir", offsetof(struct slurm_req, workdir)},
        {"container-env", offsetof(struct slurm_req, env)},
        {"wrap", offsetof(struct slurm_req, wrap_value)},
        {"image", offsetof(struct slurm_req, shifter_image)},
    };
    if (!strcmp(name, "container-writable") || !strcmp(name, "container-readonly")) {
        r->writable = name[10] == 'w';
        return;
    }
    if (!strcmp(name, "no-container-mount-home") || !strcmp(name, "container-mount-home")) {
        r->no_mount_home = name[0] == 'n';
        return;
    }
    if (!strcmp(name, "exclusive")) { /* =user, =mcs, =topo share the node's devices */
        r->exclusive = !v;
        return;
    }
    if (!v)
        return;
    if (!strcmp(name, "container-mounts")) {
        if (r->nmounts < sizeof r->mounts / sizeof r->mounts[0])
            set(&r->mounts[r->nmounts++], flag, v);
        return;
    }
    for (size_t k = 0; k < sizeof slots / sizeof slots[0]; k++)
        if (gl_streq(name, slots[k].name)) {
            set((struct slurm_opt *)((char *)r + slots[k].off), flag, v);
            r->wrap |= !strcmp(name, "wrap");
        }
}

size_t slurm_read_opts(struct gl_arena *a, const struct sh_cmd *cmd, size_t i, unsigned cmd_bit,
                       struct slurm_req *req)
{
    while (i < cmd->nwords) {
        const char *t = cmd->words[i].text;
        struct lv flag = lv_word(a, cmd, i);
        if (t[0] != '-' || !t[1]) {
            if (!cmd->words[i].opaque || !sh_word_may_be_words(&cmd->info[i]))
                return i; /* (`$VENV/bin/torchrun`: one word, the command) */
            req->opaque = true; /* `srun $ARGS cmd`: options gpulint cannot see */
            i++;
            continue;
        }
        if (!strcmp(t, "--"))
            return i + 1;
        if (t[1] == '-') {
            const char *eq = strchr(t, '=');
            size_t len = eq ? (size_t)(eq - t - 2) : strlen(t + 2);
            const struct gl_slurm_flag *f = by_long(t + 2, len, cmd_bit);
            i++;
            if (!f)
                continue; /* unknown: taken as taking no value */
            if (eq) {
                struct lv v = lv_sub(a, &flag, len + 3, flag.len - (len + 3));
                apply(req, f->name, &flag, &v);
            } else if (has(f->value, cmd_bit) && i < cmd->nwords) {
                struct lv v = lv_word(a, cmd, i++);
                apply(req, f->name, &flag, &v);
            } else {
                apply(req, f->name, &flag, NULL);
            }
            continue;
        }
        i++;
        for (size_t j = 1; t[j]; j++) {
            const struct gl_slurm_flag *f = by_short(t[j], cmd_bit);
            if (!f)
                break;
            if (!has(f->value, cmd_bit)) {
                apply(req, f->name, &flag, NULL);
                continue;
            }
            if (t[j + 1]) {
                struct lv v = lv_sub(a, &flag, j + 1, flag.len - (j + 1));
                apply(req, f->name, &flag, &v);
            } else if (i < cmd->nwords) {
                struct lv v = lv_word(a, cmd, i++);
                apply(req, f->name, &flag, &v);
            }
            break;
        }
    }
    return i;
}

static bool gpu_opt_set(const struct slurm_req *r)
{
    return r->gres.v.text || r->gpus.v.text || r->gpus_per_node.v.text || r->gpus_per_task.v.text;
}

bool slurm_req_whole_node(const struct slurm_req *r) { return r->exclusive && !gpu_opt_set(r); }

void slurm_req_merge(struct slurm_req *out, const struct slurm_req *base,
                     const struct slurm_req *over)
{
    struct slurm_req m = *base;
    struct slurm_opt *const mo[] = {&m.gres, &m.gpus, &m.gpus_per_node, &m.gpus_per_task,
                                    &m.nodes, &m.ntasks, &m.ntasks_per_node};
    const struct slurm_opt *const oo[] = {&over->gres, &over->gpus, &over->gpus_per_node,
                                          &over->gpus_per_task, &over->nodes, &over->ntasks,
                                          &over->ntasks_per_node};
    if (gpu_opt_set(over)) /* a step that asks for GPUs asks for all it gets */
        for (size_t k = 0; k < 4; k++)
            memset(mo[k], 0, sizeof *mo[k]);
    for (size_t k = 0; k < sizeof mo / sizeof mo[0]; k++)
        if (oo[k]->v.text)
            *mo[k] = *oo[k];
    m.opaque |= over->opaque;
    m.exclusive |= over->exclusive;
    /* the container is the step's own (pyxis options of sbatch run the batch step in it) */
    m.image = over->image;
    m.workdir = over->workdir;
    m.env = over->env;
    memcpy(m.mounts, over->mounts, sizeof m.mounts);
    m.nmounts = over->nmounts;
    m.writable = over->writable;
    m.no_mount_home = over->no_mount_home;
    m.wrap = over->wrap;
    m.wrap_value = over->wrap_value;
    if (over->shifter_image.v.text) /* (a step's own --image, else the job's) */
        m.shifter_image = over->shifter_image;
    *out = m;
}

/* A literal count (`4`), or -1 (opaque, a range `2-4`, a suffix). */
static long number(const struct lv *v, size_t off, size_t len)
{
    if (!v->text || v->opaque || !len || len > 6)
        return -1;
    long n = 0;
    for (size_t k = off; k < off + len; k++) {
        if (v->text[k] < '0' || v->text[k] > '9')
            return -1;
        n = n * 10 + (v->text[k] - '0');
    }
    return n;
}

static long whole(const struct slurm_opt *o) { return number(&o->v, 0, o->v.len); }

/* `[type:]N`: the offset of N (after the last ':'). */
static size_t count_off(const struct lv *v)
{
    const char *c = strrchr(v->text, ':');
    return c ? (size_t)(c - v->text) + 1 : 0;
}

/* --gres=LIST: the count of its `gpu[:type][:N]` entry (1 when none is written), at *off;
 * -2 when the list has no gpu entry, -1 when unknown. */
static long gres_gpus(const struct lv *v, size_t *off)
{
    if (v->opaque && !strstr(v->text, "gpu"))
        return -1;
    for (size_t s = 0; s < v->len;) {
        size_t e = s;
        while (e < v->len && v->text[e] != ',')
            e++;
        if (e - s >= 3 && !memcmp(v->text + s, "gpu", 3) && (e - s == 3 || v->text[s + 3] == ':')) {
            size_t c = e;
            while (c > s && v->text[c - 1] != ':')
                c--;
            *off = c > s ? c : s;
            if (c == s || (v->text[c] < '0' || v->text[c] > '9')) {
                *off = s; /* `gpu`, `gpu:a100`: one per node */
                return v->opaque ? -1 : 1;
            }
            return number(v, c, e - c);
        }
        s = e + 1;
    }
    return -2;
}

static struct gl_gpu_request *request(struct launch_build *b, const struct slurm_opt *o,
                                      size_t off, long count)
{
    struct gl_arena *a = &b->doc->arena;
    struct lv at = lv_sub(a, &o->v, off, o->v.len - off);
    struct gl_gpu_request *g = launch_add_gpu(b, GL_GPU_SLURM, &at);
    const char *ft = o->flag.text;
    g->value = ft[1] == '-' && strchr(ft, '=') ? ft
               : ft[1] == '-' ? gl_arena_printf(a, "%s=%s", ft, o->v.text)
                              : gl_arena_printf(a, "%.2s %s", ft, o->v.text);
    g->count = count >= 0 ? gl_arena_printf(a, "%ld", count) : NULL;
    g->count_opaque = o->v.opaque;
    return g;
}

static long tasks_per_node(const struct slurm_req *r, const struct slurm_opt **at);

void slurm_add_gpus(struct launch_build *b, const struct slurm_req *r)
{
    long nodes = r->nodes.v.text ? whole(&r->nodes) : -1;
    const struct slurm_opt *at;
    long tpn = tasks_per_node(r, &at);
    if (r->gpus_per_node.v.text) {
        size_t off = count_off(&r->gpus_per_node.v);
        request(b, &r->gpus_per_node, off,
                number(&r->gpus_per_node.v, off, r->gpus_per_node.v.len - off));
        return;
    }
    size_t off = 0;
    long n = r->gres.v.text ? gres_gpus(&r->gres.v, &off) : -2;
    if (n != -2) {
        request(b, &r->gres, off, n);
        return;
    }
    if (r->gpus.v.text) {
        off = count_off(&r->gpus.v);
        long total = number(&r->gpus.v, off, r->gpus.v.len - off);
        long per = total == 0 ? 0 : total > 0 && nodes > 0 && total % nodes == 0 ? total / nodes : -1;
        request(b, &r->gpus, off, per);
        return;
    }
    if (r->gpus_per_task.v.text) {
        off = count_off(&r->gpus_per_task.v);
        long per_task = number(&r->gpus_per_task.v, off, r->gpus_per_task.v.len - off);
        request(b, &r->gpus_per_task, off,
                per_task == 0 ? 0 : per_task > 0 && tpn > 0 ? per_task * tpn : -1)
            ->per_task = true;
    }
}

/* Tasks per node: --ntasks takes precedence over --ntasks-per-node, which is then a
 * maximum (`srun -n4 -N1` in a batch of --ntasks-per-node=8 starts 4); -1 when unknown. */
static long tasks_per_node(const struct slurm_req *r, const struct slurm_opt **at)
{
    long tpn = r->ntasks_per_node.v.text ? whole(&r->ntasks_per_node) : -1;
    long n = r->ntasks.v.text ? whole(&r->ntasks) : -1;
    long nodes = r->nodes.v.text ? whole(&r->nodes) : -1;
    *at = &r->ntasks_per_node;
    if (!r->ntasks.v.text)
        return tpn;
    if (n < 0)
        return -1;
    long per = nodes > 0 && n % nodes == 0 ? n / nodes : nodes > 0 ? -1 : n;
    if (tpn >= 0 && (per < 0 || per > tpn))
        return nodes > 0 && per < 0 ? -1 : tpn;
    if (nodes <= 0 && tpn < 0)
        return -1; /* -n alone: Slurm spreads the tasks over the nodes it picks */
    *at = &r->ntasks;
    return per;
}

void slurm_set_tasks(struct launch_build *b, const struct slurm_req *r)
{
    const struct slurm_opt *o;
    b->l->nodes = r->nodes.v.text ? whole(&r->nodes) : 0;
    long n = tasks_per_node(r, &o);
    if (n < 0)
        return;
    b->l->tasks_per_node = gl_arena_printf(&b->doc->arena, "%ld", n);
    b->l->tasks_loc = lv_loc(&o->v, 0);
}
