/* SPDX-License-Identifier: Apache-2.0 */
/* ci_cloudbuild.c: the builds and scripts of Google Cloud Build steps (see
 * ci_cloudbuild.h). */
#include "parsers/launch/ci/ci_cloudbuild.h"

#include <string.h>

#include "linter/core/ref/imageref.h"

#include "linter/core/srcmap.h"
#include "parsers/launch/launch_shell.h"

/* A step's builder: an image reference, or a substitution (`$_BUILDER`, `${_IMAGE}`).
 * Other tools' `steps:` name their steps in words (clusterloader2's `- name: Start
 * measurements`). */
static bool builder_name(struct yt_node *name)
{
    if (!yt_is_scalar(name) || !name->len)
        return false;
    return name->value[0] == '$' || gl_imageref_valid(name->value, name->len);
}

bool ci_cloud_build_root(struct yt_stream *s, struct yt_node *root)
{
    if (!yt_is_map(root) || yt_get(s, root, "jobs", NULL))
        return false;
    struct yt_node *steps = yt_get(s, root, "steps", NULL);
    return yt_is_seq(steps) && steps->nitems && yt_is_map(yt_item(s, steps, 0)) &&
           builder_name(yt_get(s, yt_item(s, steps, 0), "name", NULL));
}

bool ci_cloud_build_name(const char *base)
{
    static const char stem[] = "cloudbuild";
    size_t n = sizeof stem - 1;
    if (strncmp(base, stem, n) || !strchr("._-", base[n]))
        return false;
    return gl_has_suffix(base, ".yaml") || gl_has_suffix(base, ".yml");
}

/* The name of image reference `v` without registry path, tag or digest: "docker" for
 * gcr.io/cloud-builders/docker:latest. */
static bool named(const char *v, const char *want)
{
    const char *slash = strrchr(v, '/'), *b = slash ? slash + 1 : v;
    size_t n = strcspn(b, ":@");
    return n == strlen(want) && !strncmp(b, want, n);
}

/* Append `a` to buf[*len...] (cap bytes) as one double-quoted shell word: `"`, `\` and
 * backquotes escaped; `$` kept, so a substitution stays an expansion the scan cannot
 * resolve. False when it does not fit. */
static bool quote_into(char *buf, size_t cap, size_t *len, const char *a, size_t alen)
{
    size_t need = 3;
    for (size_t i = 0; i < alen; i++)
        need += 1 + (a[i] == '"' || a[i] == '\\' || a[i] == '`');
    if (*len + need >= cap)
        return false;
    buf[(*len)++] = ' ';
    buf[(*len)++] = '"';
    for (size_t i = 0; i < alen; i++) {
        if (a[i] == '"' || a[i] == '\\' || a[i] == '`')
            buf[(*len)++] = '\\';
        buf[(*len)++] = a[i];
    }
    buf[(*len)++] = '"';
    return true;
}

/* A Docker builder step's args as `docker ARGS`, each byte mapped to its arg's line. */
static void docker_step(struct gl_doc *doc, struct yt_stream *s, struct yt_node *args)
{
    static const char *const subs[] = {"build", "buildx", "image", "builder", "tag", NULL};
    struct yt_node *first = yt_item(s, args, 0);
    size_t k = 0;
    while (subs[k] && !yt_scalar_is(first, subs[k]))
        k++;
    if (!subs[k])
        return;
    size_t cap = 16;
    for (size_t i = 0; i < args->nitems; i++) {
        struct yt_node *a = yt_item(s, args, i);
        if (!yt_is_scalar(a) || a->nul)
            return; /* (a list or a NUL: the words are not known) */
        cap += 2 * a->len + 3;
    }
    char *buf = gl_arena_alloc(&doc->arena, cap);
    if (!buf)
        return;
    struct gl_srcmap m;
    gl_srcmap_init(&m, &doc->arena);
    size_t len = 0;
    memcpy(buf, "docker", 6);
    len = 6;
    gl_srcmap_add(&m, 0, args->loc.line, args->loc.col);
    for (size_t i = 0; i < args->nitems; i++) {
        struct yt_node *a = yt_item(s, args, i);
        gl_srcmap_add(&m, len, a->loc.line, a->loc.col);
        if (!quote_into(buf, cap, &len, a->value, a->len))
            return;
    }
    buf[len] = 0;
    gl_launches_from_shell(doc, buf, len, &m, NULL);
}

void ci_cloud_build(struct gl_doc *doc, struct yt_stream *s, struct yt_node *root)
{
    struct yt_node *steps = yt_get(s, root, "steps", NULL);
    for (size_t i = 0; yt_is_seq(steps) && i < steps->nitems; i++) {
        struct yt_node *step = yt_item(s, steps, i);
        if (gl_arena_over(&doc->arena)) { /* parse-memory: the reading stops at this step */
            gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, step->loc);
            return;
        }
        if (!yt_is_map(step))
            continue;
        struct yt_node *name = yt_get(s, step, "name", NULL);
        struct yt_node *entry = yt_get(s, step, "entrypoint", NULL);
        struct yt_node *args = yt_get(s, step, "args", NULL);
        gl_launches_from_yaml_scalar(doc, s, yt_get(s, step, "script", NULL), NULL);
        if (yt_is_scalar(entry) && (named(entry->value, "bash") || named(entry->value, "sh"))) {
            if (yt_is_seq(args) && args->nitems == 2 && yt_scalar_is(yt_item(s, args, 0), "-c"))
                gl_launches_from_yaml_scalar(doc, s, yt_item(s, args, 1), NULL);
            continue;
        }
        bool docker = yt_is_scalar(name) && named(name->value, "docker") &&
                      (!entry || (yt_is_scalar(entry) && named(entry->value, "docker")));
        if (docker && yt_is_seq(args) && args->nitems)
            docker_step(doc, s, args);
    }
}
