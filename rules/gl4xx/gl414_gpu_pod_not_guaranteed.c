/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GL414 gpu-pod-not-guaranteed: a Kubernetes pod that requests whole GPUs is not in the
 * Guaranteed QoS class, or gives a GPU container a fractional cpu.
 *
 * The QoS class as the kubelet computes it (pkg/apis/core/v1/helper/qos): only cpu and
 * memory count; every container, init containers included, must have a cpu and a memory
 * limit above zero, and every request must equal its limit; a request left out is
 * defaulted to the limit by the API server. Whole GPUs: a literal, positive
 * `nvidia.com/gpu` or MIG (`nvidia.com/mig-*`: the kubelet allocates a MIG slice as a
 * whole device) count. Not judged: pods with shared or fractional GPUs (the
 * time-slicing name `nvidia.com/gpu.shared`, HAMi vendor keys, KAI `gpu-fraction` /
 * `gpu-memory`, DRA claims, whose devices are not known), pod-level `resources`, runtime
 * templates (their resources come from their user), and any pod with an opaque value.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_kind.h"
#include "rules/gl4xx/launch_paths.h"

/* A Kubernetes quantity ("500m", "1.5", "16Gi", "1e3") in base units; false when it is
 * none. */
static bool quantity(const char *s, double *out)
{
    static const struct {
        const char *suffix;
        double factor;
    } suffixes[] = {{"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0},
                    {"Ti", 1099511627776.0}, {"Pi", 1125899906842624.0},
                    {"Ei", 1152921504606846976.0}, {"n", 1e-9}, {"u", 1e-6}, {"m", 1e-3},
                    {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15},
                    {"E", 1e18}, {"", 1.0}};
    if (!s || !*s || strchr(s, ' '))
        return false;
    char *end;
    double v = strtod(s, &end);
    if (end == s || (*s != '+' && *s != '-' && *s != '.' && (*s < '0' || *s > '9')) ||
        strchr(s, 'x') || strchr(s, 'X') || !isfinite(v))
        return false;
    for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++)
        if (!strcmp(end, suffixes[k].suffix)) {
            *out = v * suffixes[k].factor;
            return true;
        }
    return false;
}

static bool same(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* One resource (cpu or memory) of one container, the request defaulted to the limit. */
struct res {
    const struct gl_quantity *limit, *request; /* request: the limit when not written */
    double lim, req;
    bool has_limit;
};

/* false: a value is opaque or no quantity (nothing may be judged on it). */
static bool read_res(const struct gl_quantity *lim, const struct gl_quantity *req, struct res *r)
{
    memset(r, 0, sizeof *r);
    if ((lim->value && lim->opaque) || (req->value && req->opaque))
        return false;
    if (lim->value && !quantity(lim->value, &r->lim))
        return false;
    if (req->value && !quantity(req->value, &r->req))
        return false;
    r->limit = lim;
    r->has_limit = lim->value && r->lim > 0;
    r->request = req->value ? req : lim;
    if (!req->value)
        r->req = r->lim;
    return true;
}

enum verdict { SHARED, WHOLE, NONE };

/* What GPUs the pod's containers get: whole devices, shared ones, or none known. */
static enum verdict pod_gpus(const struct gl_doc *doc, size_t from, size_t to,
                             size_t *gpu_launch, const struct gl_gpu_request **gpu)
{
    enum verdict v = NONE;
    for (size_t i = from; i < to; i++) {
        const struct gl_launch *l = &doc->launches[i];
        for (size_t k = 0; k < l->ngpus; k++) {
            const struct gl_gpu_request *g = &l->gpus[k];
            if (g->kind == GL_GPU_ENV_VISIBLE || gl_gpu_request_zero(g))
                continue;
            bool whole = (g->kind == GL_GPU_K8S_RESOURCE || g->kind == GL_GPU_K8S_MIG) &&
                         g->value && strcmp(g->value, "nvidia.com/gpu.shared") &&
                         !g->count_opaque && g->count && g->count[0] &&
                         strspn(g->count, "0123456789") == strlen(g->count);
            if (!whole)
                return SHARED; /* shared, fractional, DRA or unknown: not judged */
            if (v == NONE) {
                *gpu_launch = i;
                *gpu = g;
            }
            v = WHOLE;
        }
    }
    return v;
}

static bool uses_gpu(const struct gl_launch *l)
{
    for (size_t k = 0; k < l->ngpus; k++)
        if (l->gpus[k].kind != GL_GPU_ENV_VISIBLE && !gl_gpu_request_zero(&l->gpus[k]))
            return true;
    return false;
}

struct why {
    const struct gl_launch *l;
    struct gl_loc at;
    const char *what;      /* "sets no memory limit", ... */
    bool fractional;
};

/* The first reason container l keeps its pod from Guaranteed (or has a fractional cpu);
 * false when a value is opaque. */
static bool container_reason(struct gl_arena *a, const struct gl_launch *l, struct why *w)
{
    struct res cpu, mem;
    const struct gl_pod_facts *p = &l->pod;
    if (l->pod.opaque || !read_res(&p->cpu_limit, &p->cpu_request, &cpu) ||
        !read_res(&p->memory_limit, &p->memory_request, &mem))
        return false;
    const struct res *rs[2] = {&cpu, &mem};
    static const char *const names[2] = {"cpu", "memory"};
    for (size_t k = 0; k < 2 && !w->l; k++) {
        const struct res *r = rs[k];
        if (!r->has_limit) {
            *w = (struct why){l, r->limit->value ? r->limit->loc : p->resources_loc,
                              gl_arena_printf(a, "sets no %s limit", names[k]), false};
        } else if (!same(r->req, r->lim)) {
            *w = (struct why){l, r->request->loc,
                              gl_arena_printf(a, "requests %s `%s` but its limit is `%s`",
                                              names[k], r->request->value, r->limit->value),
                              false};
        }
    }
    if (!w->l && uses_gpu(l) && !same(cpu.lim, floor(cpu.lim)))
        *w = (struct why){l, cpu.request->loc,
                          gl_arena_printf(a, "asks for a fractional cpu `%s`",
                                          cpu.request->value),
                          true};
    return true;
}

/* The pod of launches [from, to). */
static void judge_pod(struct gl_check *c, struct gl_arena *a, size_t from, size_t to)
{
    const struct gl_doc *doc = c->doc;
    size_t gi = 0;
    const struct gl_gpu_request *g = NULL;
    if (pod_gpus(doc, from, to, &gi, &g) != WHOLE)
        return;
    struct why first = {0};
    bool any_res = false;
    for (size_t i = from; i < to; i++) {
        const struct gl_launch *l = &doc->launches[i];
        if (l->pod.pod_resources || l->fragment || gl_launch_runtime_template(l))
            return;
        struct why w = {0};
        if (!container_reason(a, l, &w))
            return; /* an opaque value: nothing is judged */
        const struct gl_pod_facts *p = &l->pod;
        any_res |= p->cpu_limit.value || p->cpu_request.value || p->memory_limit.value ||
                   p->memory_request.value;
        /* a reason that keeps the pod from Guaranteed goes before a fractional cpu */
        if (w.l && (!first.l || (first.fractional && !w.fractional)))
            first = w;
    }
    if (!first.l)
        return;
    const struct gl_launch *gl = &doc->launches[gi];
    const char *who = gl_launch_label(a, first.l);
    if (first.fractional)
        gl_report(c, first.at, "give the GPU container a whole number of cpus (requests = limits)",
                  "%s requests whole GPUs (`%s: %s`) but %s: the kubelet's static CPU manager "
                  "gives it no exclusive cores, so the topology manager cannot align its CPUs "
                  "with its GPUs' NUMA node",
                  who, g->value, g->count, first.what);
    else
        gl_report(c, first.at, NULL,
                  "%s requests whole GPUs (`%s: %s`) but its pod is %s, not Guaranteed: %s "
                  "%s; the kubelet's static CPU and topology managers give it no exclusive "
                  "cores and no NUMA alignment with its GPUs",
                  gl_launch_label(a, gl), g->value, g->count, any_res ? "Burstable" : "BestEffort",
                  first.l == gl ? "it" : who, first.what);
}

static void check(struct gl_check *c)
{
    struct gl_arena a;
    gl_arena_init(&a);
    /* the containers of a pod are consecutive launches */
    const struct gl_doc *doc = c->doc;
    for (size_t i = 0, j; i < doc->nlaunches; i = j) {
        unsigned pod = doc->launches[i].pod.pod;
        for (j = i + 1; j < doc->nlaunches && doc->launches[j].pod.pod == pod; j++)
            ;
        if (pod && doc->launches[i].kind == GL_LAUNCH_K8S)
            judge_pod(c, &a, i, j);
    }
    gl_arena_free(&a);
}

const struct gl_rule gl_rule_GL414 = {
    .id = "GL414",
    .name = "gpu-pod-not-guaranteed",
    .severity = GL_SEV_INFO,
    .summary = "a Kubernetes pod with whole GPUs is not Guaranteed QoS, or its GPU container "
               "asks for a fractional cpu",
    .explanation =
        "The kubelet's static CPU manager gives exclusive cores only to containers of "
        "Guaranteed pods that ask for a whole number of cpus, and its topology manager can "
        "align CPUs and GPUs on one NUMA node only for them. A pod is Guaranteed when every "
        "container, init containers included, has cpu and memory limits and requests equal "
        "to them (a request left out defaults to the limit). Otherwise the GPU job's "
        "threads float over all cores and host-to-GPU copies cross sockets. Whole GPUs are "
        "`nvidia.com/gpu` and MIG resources (a MIG slice is a whole device to the kubelet); "
        "pods with shared or fractional GPUs (`nvidia.com/gpu.shared`, HAMi keys, KAI "
        "`gpu-fraction`/`gpu-memory`, DRA claims), pod-level resources and templated values "
        "are not judged.",
    .bad = "resources:\n  limits:\n    nvidia.com/gpu: 1\n  requests:\n    cpu: 500m\n"
           "    memory: 8Gi",
    .good = "resources:\n  limits:\n    nvidia.com/gpu: 1\n    cpu: 8\n    memory: 64Gi\n"
            "  requests:\n    cpu: 8\n    memory: 64Gi",
    .fix = "set cpu and memory limits on every container, with requests equal to them (a "
           "whole number of cpus for the GPU container)",
    .check = check,
};
