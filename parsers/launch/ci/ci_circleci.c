/* SPDX-License-Identifier: Apache-2.0 */
/* ci_circleci.c: CircleCI configs -> the launches of their run steps (see ci_circleci.h). */
#include <string.h>

#include "parsers/launch/ci/ci_circleci.h"
#include "parsers/launch/launch_shell.h"

#define STEP_DEPTH 4

/* Does the mapping of a job hold one of CircleCI's executor keys? */
static bool circleci_job(struct yt_stream *s, struct yt_node *job)
{
    static const char *const keys[] = {"docker", "machine", "macos", "executor",
                                       "resource_class", NULL};
    for (size_t k = 0; keys[k]; k++)
        if (yt_get(s, job, keys[k], NULL))
            return true;
    return false;
}

bool ci_circleci_name(const char *path, const char *base)
{
    size_t dir = (size_t)(base - path);
    return dir >= 10 && !memcmp(base - 10, ".circleci/", 10) && (dir == 10 || base[-11] == '/');
}

bool ci_circleci_root(struct yt_stream *s, struct yt_node *root, const char *path)
{
    if (path && (!strncmp(path, ".circleci/", 10) || strstr(path, "/.circleci/")))
        return true;
    struct yt_pair *jobs;
    size_t n = yt_pairs(s, yt_get(s, root, "jobs", NULL), &jobs);
    for (size_t j = 0; j < n; j++)
        if (circleci_job(s, yt_deref(s, jobs[j].value)))
            return true;
    return false;
}

/* The length of a pipeline parameter `<< parameters.x >>` (pipeline., matrix.) at t, or 0. */
static size_t parameter_len(const char *t, size_t left)
{
    static const char *const scopes[] = {"parameters.", "pipeline.", "matrix."};
    size_t k = 2;
    while (k < left && (t[k] == ' ' || t[k] == '\t'))
        k++;
    size_t name = k;
    for (size_t i = 0; i < sizeof scopes / sizeof scopes[0]; i++) {
        size_t m = strlen(scopes[i]);
        if (left - k > m && !memcmp(t + k, scopes[i], m)) {
            k += m;
            break;
        }
    }
    if (k == name)
        return 0;
    while (k < left && t[k] && ((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z') ||
                                (t[k] >= '0' && t[k] <= '9') || strchr("_.-", t[k])))
        k++;
    while (k < left && (t[k] == ' ' || t[k] == '\t'))
        k++;
    return k + 1 < left && t[k] == '>' && t[k + 1] == '>' ? k + 2 : 0;
}

/* The launches of run text n, its parameters turned into unset variables of the same
 * length (`${PPPPPPPP}`). */
static void run_text(struct gl_doc *doc, struct yt_stream *s, struct yt_node *n)
{
    n = yt_deref(s, n);
    if (yt_is_map(n)) /* run: {name: ..., command: ...} */
        n = yt_deref(s, yt_get(s, n, "command", NULL));
    if (!yt_is_scalar(n) || yt_is_null(n) || gl_arena_over(&doc->arena))
        return;
    char *t = gl_arena_strndup(&doc->arena, n->value, n->len);
    for (char *p = t; (p = memmem(p, n->len - (size_t)(p - t), "<<", 2));) {
        size_t len = parameter_len(p, n->len - (size_t)(p - t));
        if (!len) {
            p += 2;
            continue;
        }
        p[0] = '$';
        p[1] = '{';
        memset(p + 2, 'P', len - 3);
        p[len - 1] = '}';
        p += len;
    }
    struct gl_srcmap m;
    gl_srcmap_init(&m, &doc->arena);
    yt_scalar_srcmap(s, n, &m);
    gl_launches_from_shell(doc, t, n->len, &m, NULL);
}

/* The run steps of list `steps`, and of the steps of its when/unless blocks. */
static void steps_of(struct gl_doc *doc, struct yt_stream *s, struct yt_node *steps, int depth)
{
    for (size_t i = 0; yt_is_seq(steps) && i < steps->nitems; i++) {
        struct yt_node *step = yt_item(s, steps, i);
        run_text(doc, s, yt_get(s, step, "run", NULL));
        for (int k = 0; depth < STEP_DEPTH && k < 2; k++) {
            struct yt_node *block = yt_get(s, step, k ? "unless" : "when", NULL);
            steps_of(doc, s, yt_get(s, block, "steps", NULL), depth + 1);
        }
    }
}

/* Does the job run on a host with no GPU: a docker executor, or a machine of a class that
 * is none of the gpu.* ones? */
static bool cpu_host(struct yt_stream *s, struct yt_node *job)
{
    if (yt_get(s, job, "docker", NULL))
        return true;
    struct yt_node *rc = yt_deref(s, yt_get(s, job, "resource_class", NULL));
    if (!yt_get(s, job, "machine", NULL) || (rc && !yt_is_scalar(rc)))
        return false;
    return !rc || strncmp(rc->value, "gpu.", 4);
}

void ci_circleci(struct gl_doc *doc, struct yt_stream *s, struct yt_node *root)
{
    struct yt_pair *p;
    size_t n = yt_pairs(s, yt_get(s, root, "jobs", NULL), &p);
    for (size_t j = 0; j < n; j++) {
        size_t first = doc->nlaunches;
        struct yt_node *job = yt_deref(s, p[j].value);
        steps_of(doc, s, yt_get(s, job, "steps", NULL), 0);
        bool cpu = yt_is_map(job) && cpu_host(s, job);
        for (size_t k = first; cpu && k < doc->nlaunches; k++)
            doc->launches[k].gpu_unseen = doc->launches[k].no_gpu_host = true;
    }
    n = yt_pairs(s, yt_get(s, root, "commands", NULL), &p);
    for (size_t c = 0; c < n; c++)
        steps_of(doc, s, yt_get(s, p[c].value, "steps", NULL), 0);
}
