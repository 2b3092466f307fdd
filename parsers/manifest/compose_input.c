/* SPDX-License-Identifier: Apache-2.0 */
/* compose_input.c: the compose input: which files are compose files, and the parse of a
 * linted one (see compose.h). */
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/manifest/compose.h"
#include "parsers/manifest/compose_service.h"
#include "parsers/yaml/yaml_tree.h"

/* A YAML name, or a YAML template's (`compose.yaml.template`: content decides). */
static bool yaml_ext(const char *b)
{
    return yt_yaml_name(b) || yt_yaml_template_name(b);
}

static bool by_name(const char *path, const char *b)
{
    (void)path;
    return gl_compose_named(b);
}

/* A YAML name, or a name that says nothing (RULES.md second round: its first bytes
 * decide, as for `podspec`, `deploy-gpu`). */
static bool candidate(const char *path, const char *b)
{
    return yaml_ext(b) || gl_input_bare_candidate(path, b);
}

static bool looks_like_service(struct yt_stream *s, struct yt_node *svc)
{
    static const char *const keys[] = {"image", "build", "command", "entrypoint", "deploy",
                                       "volumes", "environment", "gpus", "runtime", "devices"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (yt_get(s, svc, keys[i], NULL))
            return true;
    return false;
}

/* A document that is a compose file: no Kubernetes or CI keys, a service. */
static bool compose_root(struct yt_stream *s, struct yt_node *root)
{
    if (!yt_is_map(root) || yt_get(s, root, "apiVersion", NULL) ||
        yt_get(s, root, "kind", NULL) || yt_get(s, root, "jobs", NULL) ||
        yt_get(s, root, "on", NULL))
        return false;
    struct yt_pair *p;
    size_t n = yt_pairs(s, yt_get(s, root, "services", NULL), &p);
    for (size_t i = 0; i < n; i++)
        if (yt_is_map(p[i].value) && looks_like_service(s, p[i].value))
            return true;
    return false;
}

static bool compose_stream(struct yt_stream *s)
{
    for (size_t d = 0; d < s->ndocs; d++)
        if (compose_root(s, s->docs[d]))
            return true;
    return false;
}

static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    return gl_mem_has(data, len, "services", 8, 4) && yt_sniff(data, len, compose_stream);
}

/* A linted compose file: its services, then those that are the CPU variant of a GPU
 * service of a compose file beside it. */
static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    gl_parse_compose_doc(doc, cfg);
    gl_compose_gpu_variants(doc);
}

const struct gl_input_type gl_input_compose = {
    .kind = GL_IN_COMPOSE,
    .name = "compose",
    .priority = 20,
    .by_name = by_name,
    .candidate = candidate,
    .by_content = by_content,
    .parse = parse,
};
