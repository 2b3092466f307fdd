/* GL412 gpu-request-invalid: a GPU request the runtime rejects. */
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_paths.h"

/* A Kubernetes quantity that is a whole number of devices ("1", "8"). */
static bool whole_count(const char *q)
{
    size_t n = strspn(q, "0123456789");
    return n > 0 && q[n] == '\0';
}

/* Kubernetes device resources: limits required, requests equal to limits, whole counts.
 * Sets *at and returns the reason, or NULL when valid. */
static const char *k8s_problem(struct gl_arena *a, const struct gl_gpu_request *g,
                               struct gl_loc *at)
{
    if (g->kind != GL_GPU_K8S_RESOURCE && g->kind != GL_GPU_K8S_MIG)
        return NULL;
    const char *res = g->value ? g->value : "nvidia.com/gpu";
    if (g->limit && !whole_count(g->limit)) {
        *at = g->limit_loc;
        return gl_arena_printf(a, "`%s: %s` in limits is not a whole number of devices "
                                  "(GPUs are not divisible this way)", res, g->limit);
    }
    if (g->request && !whole_count(g->request)) {
        *at = g->request_loc;
        return gl_arena_printf(a, "`%s: %s` in requests is not a whole number of devices "
                                  "(GPUs are not divisible this way)", res, g->request);
    }
    if (g->request && !g->limit) {
        *at = g->request_loc;
        return gl_arena_printf(a, "`%s: %s` is in requests but not in limits: extended "
                                  "resources must be set in limits", res, g->request);
    }
    if (g->request && g->limit && strcmp(g->request, g->limit)) {
        *at = g->request_loc;
        return gl_arena_printf(a, "`%s` requests %s but limits %s: extended resources need "
                                  "requests equal to limits", res, g->request, g->limit);
    }
    return NULL;
}

/* Compose device reservations: count and device_ids exclude each other. */
static const char *compose_problem(struct gl_arena *a, const struct gl_gpu_request *g,
                                   struct gl_loc *at)
{
    if (g->kind != GL_GPU_COMPOSE_DEVICE)
        return NULL;
    *at = g->loc;
    if (g->count && g->ndevice_ids)
        return gl_arena_printf(a, "compose GPU device sets both `count: %s` and `device_ids`: "
                                  "Docker rejects the pair", g->count);
    return NULL;
}

static void judge(struct gl_check *c, struct gl_launch_facts *f, size_t i)
{
    const struct gl_launch *l = &c->doc->launches[i];
    for (size_t k = 0; k < l->ngpus; k++) {
        const struct gl_gpu_request *g = &l->gpus[k];
        struct gl_loc at = g->loc;
        const char *why = NULL;
        if (g->kind == GL_GPU_K8S_VENDOR || g->mem_capped)
            continue; /* HAMi and other vendor keys: enforced caps, not device counts */
        if (g->invalid) {
            why = g->invalid;
            at = g->invalid_loc.line ? g->invalid_loc : g->loc;
        } else if (!(why = k8s_problem(&f->arena, g, &at))) {
            why = compose_problem(&f->arena, g, &at);
        }
        if (!why)
            continue;
        gl_report(c, at, NULL, "GPU request `%s` is rejected: %s", g->value ? g->value : "?",
                  why);
        return;
    }
}

static void check(struct gl_check *c) { gl_check_launches(c, judge); }

const struct gl_rule gl_rule_GL412 = {
    .id = "GL412",
    .name = "gpu-request-invalid",
    .severity = GL_SEV_ERROR,
    .summary = "a GPU request the runtime rejects",
    .explanation =
        "Kubernetes extended resources such as `nvidia.com/gpu` and MIG resources must be "
        "whole numbers, set in `limits` (requests, when given, must equal limits): a pod "
        "with `nvidia.com/gpu: 0.5` or with the GPU only in requests is rejected. "
        "`docker run --gpus device=0,2` unquoted is read as CSV: `device=0` and a bare `2` "
        "(a count), and the daemon fails with \"cannot set both Count and DeviceIDs\"; "
        "quote it: `--gpus '\"device=0,2\"'`. A compose GPU device with both `count` and "
        "`device_ids`, or without `capabilities`, is refused by Docker Compose.",
    .bad = "resources:\n  requests:\n    nvidia.com/gpu: 1",
    .good = "resources:\n  limits:\n    nvidia.com/gpu: 1",
    .fix = "write a request the runtime accepts (see the message)",
    .check = check,
};
