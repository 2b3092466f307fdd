/* SPDX-License-Identifier: Apache-2.0 */
/* GL412 gpu-request-invalid: a GPU request the runtime rejects. */
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_paths.h"

#define SHOWN 80 /* bytes of a value a message quotes */

/* s (n bytes) as the message quotes it: whole up to SHOWN bytes, else its first SHOWN
 * bytes (not splitting a UTF-8 sequence) and "...": a --gpus value may be a whole
 * file's worth, and the finding's position points at the byte that is wrong. */
static const char *shown(struct gl_arena *a, const char *s, size_t n)
{
    if (n <= SHOWN)
        return gl_arena_strndup(a, s, n);
    size_t cut = SHOWN;
    while (cut && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    return gl_arena_printf(a, "%.*s...", (int)cut, s);
}

/* A whole number of devices as Kubernetes reads a quantity ("1", "8"; not "0.5", "500m"). */
static bool whole_count(const char *q)
{
    size_t n = strspn(q, "0123456789");
    return n > 0 && q[n] == '\0';
}

/* Kubernetes GPU and MIG resources: set in limits, requests (when given) equal to limits,
 * whole counts. Sets *at and returns the reason, or NULL when accepted. */
static const char *k8s_problem(const struct gl_gpu_request *g, struct gl_loc *at)
{
    if (g->kind != GL_GPU_K8S_RESOURCE && g->kind != GL_GPU_K8S_MIG)
        return NULL;
    if (g->request && !g->limit) {
        *at = g->request_loc;
        return "a GPU resource in requests must also be in limits";
    }
    if (g->count_opaque)
        return NULL; /* a template expression: its value is not known here */
    if (g->request && strcmp(g->request, g->limit)) {
        *at = g->request_loc;
        return "GPU requests and limits differ (they must be equal)";
    }
    if (g->limit && !whole_count(g->limit)) { /* requests, if any, are the same */
        *at = g->limit_loc;
        return "a GPU count must be a whole number";
    }
    return NULL;
}

/* A compose device mapping: count and device_ids exclude each other; a device of
 * deploy.resources.reservations.devices needs capabilities. */
static const char *compose_problem(const struct gl_gpu_request *g, struct gl_loc *at)
{
    if (g->kind != GL_GPU_COMPOSE_DEVICE && g->kind != GL_GPU_COMPOSE_GPUS)
        return NULL;
    struct gl_loc c = g->count_key_loc, d = g->device_ids_key_loc;
    if (c.line && d.line) { /* at the later of the two keys */
        *at = c.line > d.line || (c.line == d.line && c.col > d.col) ? c : d;
        return "a GPU device sets both count and device_ids";
    }
    if (g->kind == GL_GPU_COMPOSE_DEVICE && !g->ncapabilities) {
        *at = g->capabilities_key_loc.line ? g->capabilities_key_loc : g->loc;
        return "a GPU device without capabilities (add capabilities: [gpu])";
    }
    return NULL;
}

/* A docker --gpus count: "all" or an integer. */
static bool docker_count(const char *s, size_t n)
{
    if (n == 3 && !memcmp(s, "all", 3))
        return true;
    size_t i = (n && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (i == n)
        return false;
    for (; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* docker --gpus as the CLI and the daemon read its CSV fields: the first field they
 * refuse, in the order written, else a count beside device IDs. */
static const char *flag_problem(struct gl_arena *a, const struct gl_gpu_request *g,
                                struct gl_loc *at)
{
    if (g->kind != GL_GPU_FLAG)
        return NULL;
    if (g->bad_flag) { /* the CLI stops at the option itself, before reading its value */
        *at = g->bad_flag_loc;
        return gl_arena_printf(a, "unknown flag: %s (the option is --gpus; nothing starts)",
                               shown(a, g->bad_flag, strlen(g->bad_flag)));
    }
    if (g->csv.error) {
        *at = g->csv.error_loc;
        return gl_arena_printf(a, "cannot parse the GPU request: %s", g->csv.error);
    }
    const struct gl_gpu_field *count = NULL;
    for (size_t i = 0; i < g->csv.nfields; i++) {
        const struct gl_gpu_field *f = &g->csv.fields[i];
        *at = f->loc;
        if (f->repeated)
            return gl_arena_printf(a, "gpu request key '%s' can be specified only once",
                                   shown(a, f->name, strlen(f->name)));
        if (f->key == GL_GPU_KEY_OTHER)
            return gl_arena_printf(a, "unexpected key '%s' in '%s'",
                                   shown(a, f->name, strlen(f->name)), shown(a, f->text, f->len));
        if (f->key != GL_GPU_KEY_COUNT)
            continue;
        count = f;
        if (!docker_count(f->value, f->value_len)) {
            *at = f->value_loc;
            return "count must be an integer";
        }
    }
    if (!count || !g->ndevice_ids)
        return NULL;
    *at = count->loc;
    return "cannot set both Count and DeviceIDs on device request";
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
        if (!(why = k8s_problem(g, &at)) && !(why = compose_problem(g, &at)))
            why = flag_problem(&f->arena, g, &at);
        if (!why)
            continue;
        const char *value = g->value ? shown(&f->arena, g->value, strlen(g->value)) : "?";
        gl_report(c, at.line ? at : g->loc, NULL, "GPU request `%s` is rejected: %s", value,
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
        "quote it: `--gpus '\"device=0,2\"'`. `--gpu all` is no option at all: the CLI "
        "stops with \"unknown flag: --gpu\". A compose GPU device with both `count` and "
        "`device_ids`, or without `capabilities`, is refused by Docker Compose.",
    .bad = "resources:\n  requests:\n    nvidia.com/gpu: 1",
    .good = "resources:\n  limits:\n    nvidia.com/gpu: 1",
    .fix = "write a request the runtime accepts (see the message)",
    .check = check,
};
