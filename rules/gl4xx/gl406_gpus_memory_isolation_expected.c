/* SPDX-License-Identifier: Apache-2.0 */
/* GL406 gpus-memory-isolation-expected: --gpus trusted to cap GPU memory, or concurrent
 * launches sharing a GPU device with nothing that caps memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_paths.h"

/* The devices a launch's GPU requests select, as far as they are known. */
struct devset {
    bool known; /* false: nothing gpulint can compare (k8s, runtime alone, MIG, ...) */
    bool all;
    const char **ids;
    size_t n, cap;
    const struct gl_gpu_request *req; /* the request to report at */
};

enum { MAX_COUNTED_GPUS = 64 }; /* `count: N` takes devices 0..N-1; larger means all */

static void add_id(struct gl_arena *a, struct devset *d, const char *id, size_t len)
{
    while (len && *id == ' ')
        id++, len--;
    while (len && id[len - 1] == ' ')
        len--;
    if (len)
        *GL_APPEND(a, d->ids, d->n, d->cap) = gl_arena_strndup(a, id, len);
}

/* Add a comma-separated id list ("0,1", "GPU-uuid"). */
static void add_id_list(struct gl_arena *a, struct devset *d, const char *list)
{
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        add_id(a, d, p, n);
        p += n + (p[n] == ',');
    }
}

/* A count "2", "all"; false when it is not a plain count. */
static bool add_count(struct gl_arena *a, struct devset *d, const char *count)
{
    if (!strcmp(count, "all") || !strcmp(count, "-1")) {
        d->all = true;
        return true;
    }
    char *end;
    long n = strtol(count, &end, 10);
    if (*end || end == count || n < 0)
        return false;
    if (n > MAX_COUNTED_GPUS) {
        d->all = true;
        return true;
    }
    for (long k = 0; k < n; k++) {
        char id[24];
        int len = snprintf(id, sizeof id, "%ld", k);
        add_id(a, d, id, (size_t)len);
    }
    return true;
}

/* Is the value "all" or an assignment of all ("nvidia.com/gpu=all")? */
static bool names_all(const char *v)
{
    return v && (!strcmp(v, "all") || gl_has_suffix(v, "=all"));
}

static bool is_mig_id(const char *id) { return gl_has_prefix(id, "MIG-"); }

/* The devices of one request; d->known stays false for requests that do not share. */
static void request_devices(struct gl_arena *a, const struct gl_gpu_request *g, struct devset *d)
{
    switch (g->kind) {
    case GL_GPU_FLAG:
    case GL_GPU_CDI:
    case GL_GPU_COMPOSE_DEVICE:
    case GL_GPU_COMPOSE_GPUS:
    case GL_GPU_ENV_VISIBLE:
        break;
    case GL_GPU_K8S_DRA: /* a claim's devices (RULES.md second round): its id when the pod
                            names the claim (parsers/manifest/k8s_pod.c) */
        if (!g->ndevice_ids)
            return;
        break;
    case GL_GPU_DEVICE_NODE: /* /dev/nvidia3 is device 3 */
        if (g->value && gl_has_prefix(g->value, "/dev/nvidia") &&
            g->value[11] >= '0' && g->value[11] <= '9' &&
            strspn(g->value + 11, "0123456789") == strlen(g->value + 11)) {
            d->known = true;
            add_id(a, d, g->value + 11, strlen(g->value + 11));
            if (!d->req)
                d->req = g;
        }
        return;
    default:
        return; /* k8s resources are exclusive; runtime alone and apptainer say nothing */
    }
    if (g->mig || g->mps || g->mem_capped)
        return;
    struct devset one = {0};
    if (g->ndevice_ids) {
        for (size_t i = 0; i < g->ndevice_ids; i++)
            add_id_list(a, &one, g->device_ids[i]);
    } else if (g->count) {
        if (!add_count(a, &one, g->count))
            return;
    } else if (names_all(g->value) || g->kind == GL_GPU_COMPOSE_DEVICE) {
        one.all = true; /* a compose device with neither count nor device_ids: every GPU */
    } else if (g->kind == GL_GPU_ENV_VISIBLE && g->value && strcmp(g->value, "void") &&
               strcmp(g->value, "none")) {
        add_id_list(a, &one, g->value);
    } else {
        return;
    }
    for (size_t i = 0; i < one.n; i++)
        if (is_mig_id(one.ids[i]) || strchr(one.ids[i], '$'))
            return; /* MIG is isolation; an unresolved id is unknown */
    d->known = true;
    d->all |= one.all;
    for (size_t i = 0; i < one.n; i++)
        *GL_APPEND(a, d->ids, d->n, d->cap) = one.ids[i];
    if (!d->req)
        d->req = g;
}

/* Env vars and arguments that cap a process's GPU memory (MPS, frameworks). */
static bool framework_capped(const struct gl_launch_facts *f, size_t launch)
{
    static const char *const env_caps[] = {"CUDA_MPS_PINNED_DEVICE_MEM_LIMIT",
                                           "XLA_PYTHON_CLIENT_MEM_FRACTION",
                                           "TF_GPU_MEMORY_LIMIT", NULL};
    static const char *const arg_caps[] = {"--gpu-memory-utilization", "--gpu_memory_utilization",
                                           "--mem-fraction-static", "--mem_fraction_static",
                                           "--cuda-memory-fraction", "--cuda_memory_fraction",
                                           "--per-process-gpu-memory-fraction", NULL};
    for (size_t i = 0; i < gl_launch_env_count(f, launch); i++) {
        const struct gl_env *e = gl_launch_env(f, launch, i);
        for (size_t k = 0; e->key && env_caps[k]; k++)
            if (!strcmp(e->key, env_caps[k]))
                return true;
    }
    const struct gl_launch *l = &f->doc->launches[launch];
    for (size_t i = 0; i < l->nargv; i++) {
        const char *w = l->argv[i].text;
        for (size_t k = 0; w && arg_caps[k]; k++) {
            if (w[0] != arg_caps[k][0] || w[1] != arg_caps[k][1]) /* (each is `--x...`) */
                continue;
            size_t n = strlen(arg_caps[k]);
            if (!strncmp(w, arg_caps[k], n) && (w[n] == '\0' || w[n] == '='))
                return true;
        }
    }
    return false;
}

static struct devset launch_devices(struct gl_launch_facts *f, size_t i)
{
    struct devset d = {0};
    const struct gl_launch *l = &f->doc->launches[i];
    /* a compose fragment's devices are what it contains: they count; NVIDIA's GPU plumbing
     * (device plugin, DCGM exporter, ...) shares no GPU memory (RULES.md second round) */
    if (l->mig || !l->group || framework_capped(f, i) || gl_launch_nvidia_infra(f->doc, l))
        return d;
    for (size_t k = 0; k < l->ngpus; k++)
        request_devices(&f->arena, &l->gpus[k], &d);
    return d;
}

/* Comparisons left for the concurrency search: a hostile file with a million services
 * must not take quadratic time. Real files stay far below it. */
enum { COMPARISON_BUDGET = 1 << 24 };

/* Take `cost` comparisons from the budget; false once it is spent. */
static bool spend(size_t *budget, size_t cost)
{
    if (*budget < cost) {
        *budget = 0;
        return false;
    }
    *budget -= cost;
    return true;
}

static bool sets_overlap(const struct devset *x, const struct devset *y, const char **shared,
                         size_t *budget)
{
    if (!x->known || !y->known)
        return false;
    if (x->all || y->all) {
        const struct devset *some = x->all ? y : x;
        if (!some->all && some->n == 0)
            return false;
        *shared = some->all ? "all" : some->ids[0];
        return true;
    }
    if (!spend(budget, x->n * y->n + 1))
        return false;
    for (size_t i = 0; i < x->n; i++)
        for (size_t k = 0; k < y->n; k++)
            if (!strcmp(x->ids[i], y->ids[k])) {
                *shared = x->ids[i];
                return true;
            }
    return false;
}

/* Do two comma-separated profile lists share a profile (NULL: always started)? */
static bool profiles_meet(const char *p, const char *q, size_t *budget)
{
    if (!p || !q)
        return true;
    if (!spend(budget, (strlen(p) + 1) * (strlen(q) + 1) / 8 + 1))
        return false;
    for (const char *s = p; *s;) {
        size_t n = strcspn(s, ",");
        for (const char *t = q; *t;) {
            size_t m = strcspn(t, ",");
            if (n == m && !strncmp(s, t, n))
                return true;
            t += m + (t[m] == ',');
        }
        s += n + (s[n] == ',');
    }
    return false;
}

static bool concurrent(const struct gl_launch *x, const struct gl_launch *y, size_t *budget)
{
    return x->group && y->group && !strcmp(x->group, y->group) &&
           profiles_meet(x->profile, y->profile, budget);
}

/* The error: a memory qualifier on a request that nothing enforces. True when reported. */
static bool memory_qualifier(struct gl_check *c, struct gl_arena *a, const struct gl_launch *l)
{
    for (size_t k = 0; k < l->ngpus; k++) {
        const struct gl_gpu_request *g = &l->gpus[k];
        if (!g->memory || g->mem_capped)
            continue;
        gl_report_sev(c, GL_SEV_ERROR, g->memory_loc,
                      "use MIG (`--gpus device=MIG-<uuid>`, `nvidia.com/mig-1g.10gb`) or MPS "
                      "(CUDA_MPS_PINNED_DEVICE_MEM_LIMIT) to cap GPU memory",
                      "GPU request `%s` of %s asks for `%s` of GPU memory, but device requests "
                      "never cap memory: the container can use the whole GPU",
                      g->value ? g->value : "?", gl_launch_label(a, l), g->memory);
        return true;
    }
    return false;
}

/* Device plugin time-slicing: each GPU advertised `replicas` times, memory not isolated
 * (the plugin's MPS sharing caps each client's memory: not a gl_gpu_sharing). */
static void time_slicing(struct gl_check *c)
{
    for (size_t i = 0; i < c->doc->nsharing; i++) {
        const struct gl_gpu_sharing *s = &c->doc->sharing[i];
        char *end;
        long n = s->opaque ? 0 : strtol(s->replicas, &end, 10);
        if (s->opaque || *end || end == s->replicas || n <= 1)
            continue;
        gl_report_sev(c, GL_SEV_WARNING, s->loc,
                      "use MIG, or the device plugin's MPS sharing (`sharing.mps`), which "
                      "caps each client's memory; or a framework memory cap in every pod",
                      "the device plugin time-slices each GPU of `%s` into %ld replicas: pods "
                      "given replicas of one GPU share its memory with no isolation, and one "
                      "can take all of it",
                      s->resource ? s->resource : "nvidia.com/gpu", n);
    }
}

static void check(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    time_slicing(c);
    if (!doc->nlaunches)
        return; /* no pair of launches to compare: no facts to build */
    struct gl_launch_facts f;
    gl_launch_facts_init(&f, doc, c->cfg);
    struct devset *sets = gl_arena_alloc(&f.arena, (doc->nlaunches + 1) * sizeof *sets);
    for (size_t i = 0; i < doc->nlaunches; i++)
        sets[i] = launch_devices(&f, i);
    size_t budget = COMPARISON_BUDGET;
    for (size_t i = 0; i < doc->nlaunches; i++) {
        const struct gl_launch *l = &doc->launches[i];
        if (memory_qualifier(c, &f.arena, l) || !sets[i].known)
            continue;
        for (size_t j = 0; j < i && spend(&budget, 1); j++) {
            const char *shared = NULL;
            if (!sets[j].known || !concurrent(&doc->launches[j], l, &budget) ||
                !sets_overlap(&sets[j], &sets[i], &shared, &budget))
                continue;
            const struct gl_gpu_request *g = sets[i].req;
            bool every = !strcmp(shared, "all");
            gl_report_sev(c, GL_SEV_WARNING, g->loc, NULL,
                          "%s requests `%s` and shares %s%s with %s, which runs at the same "
                          "time; no MIG, MPS or framework cap limits GPU memory, so either can "
                          "take all of it",
                          gl_launch_label(&f.arena, l), g->value ? g->value : "?",
                          every ? "every GPU" : "GPU ", every ? "" : shared,
                          gl_launch_label(&f.arena, &doc->launches[j]));
            break;
        }
    }
    gl_launch_facts_free(&f);
}

const struct gl_rule gl_rule_GL406 = {
    .id = "GL406",
    .name = "gpus-memory-isolation-expected",
    .severity = GL_SEV_ERROR,
    .summary = "--gpus or a device request is expected to cap GPU memory (error), or launches "
               "running at the same time share a GPU with no MIG/MPS/framework cap (warning)",
    .explanation =
        "`--gpus`, compose device reservations and CDI devices select which GPUs a "
        "container sees; they never limit how much of a GPU's memory it takes. A memory "
        "qualifier (`--gpus device=0:10gb`, a compose device `memory` option) is not "
        "enforced by anything (error). Two detached containers, two compose services or "
        "two pods that share a device compete for its memory, and the second to allocate "
        "dies with CUDA out-of-memory (warning). Foreground runs in a script run one after "
        "another and do not count; services in different compose profiles do not start "
        "together, nor do the launches of two code blocks of a Markdown or reStructuredText "
        "document (each block is an example of its own); Kubernetes `nvidia.com/gpu` devices are exclusive, unless the NVIDIA "
        "device plugin's config time-slices them (`sharing.timeSlicing` replicas above 1: "
        "warning at that key); a DRA claim's devices are shared by the pods that name one "
        "ResourceClaim and by the containers of one pod that use one claim (not by an init "
        "container, which runs first). MIG devices, MPS with a pinned memory limit (also "
        "the device plugin's `sharing.mps`), HAMi memory keys, KAI `gpu-fraction`/`gpu-memory` "
        "annotations and framework caps (vLLM "
        "`--gpu-memory-utilization`, XLA_PYTHON_CLIENT_MEM_FRACTION) are isolation.",
    .bad = "docker run -d --gpus device=0 llm-a\ndocker run -d --gpus device=0 llm-b",
    .good = "docker run -d --gpus device=MIG-<uuid-a> llm-a\n"
            "docker run -d --gpus device=MIG-<uuid-b> llm-b",
    .fix = "give each its own GPU, or isolate: MIG, MPS (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT) or "
           "a framework memory cap",
    .check = check,
};
