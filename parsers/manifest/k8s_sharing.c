/* SPDX-License-Identifier: Apache-2.0 */
/* k8s_sharing.c: NVIDIA device plugin configs (the file, or a ConfigMap holding it) ->
 * doc->sharing (see k8s.h). */
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/manifest/k8s_internal.h"
#include "parsers/yaml/yaml_template.h"

/* Where node n of a config stands in the file: through m when the config is a string
 * inside the file (a ConfigMap value), else as loaded. */
static struct gl_loc at(const struct yt_stream *s, const struct yt_node *n,
                        const struct gl_srcmap *m)
{
    (void)s;
    return m ? gl_srcmap_loc(m, n->start) : n->loc;
}

void k8s_sharing_config(struct gl_doc *doc, struct yt_stream *s, struct yt_node *root,
                        const struct gl_srcmap *m)
{
    struct yt_node *ts = yt_get(s, yt_get(s, root, "sharing", NULL), "timeSlicing", NULL);
    struct yt_node *res = yt_get(s, ts, "resources", NULL);
    for (size_t i = 0; yt_is_seq(res) && i < res->nitems; i++) {
        struct yt_node *r = yt_item(s, res, i);
        struct yt_node *key = NULL;
        struct yt_node *v = yt_get(s, r, "replicas", &key);
        if (!key)
            continue;
        struct gl_gpu_sharing *g = GL_APPEND(&doc->arena, doc->sharing, doc->nsharing,
                                             doc->capsharing);
        memset(g, 0, sizeof *g);
        struct yt_node *name = yt_get(s, r, "name", NULL);
        g->resource = yt_is_scalar(name) ? gl_arena_strndup(&doc->arena, name->value, name->len)
                                         : NULL;
        g->loc = at(s, key, m);
        g->value_loc = yt_is_scalar(v) ? at(s, v, m) : g->loc;
        g->replicas = yt_is_scalar(v) ? gl_arena_strndup(&doc->arena, v->value, v->len) : "";
        size_t b, e;
        g->opaque = !yt_is_scalar(v) || strchr(g->replicas, '$') ||
                    yt_template_find(g->replicas, strlen(g->replicas), strlen(g->replicas), &b,
                                     &e);
    }
}

/* Is the document a device plugin config: a top-level `version` and a `sharing` mapping
 * with `timeSlicing` or `mps`? */
static bool is_config(struct yt_stream *s, struct yt_node *root)
{
    struct yt_node *sh = yt_get(s, root, "sharing", NULL);
    return yt_is_map(root) && yt_get(s, root, "version", NULL) && yt_is_map(sh) &&
           (yt_get(s, sh, "timeSlicing", NULL) || yt_get(s, sh, "mps", NULL));
}

void k8s_configmap(struct k8s *k, struct yt_node *obj)
{
    if (!yt_scalar_is(yt_get(k->s, obj, "kind", NULL), "ConfigMap"))
        return;
    struct yt_pair *p;
    size_t n = yt_pairs(k->s, yt_get(k->s, obj, "data", NULL), &p);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *v = p[i].value;
        if (!yt_is_scalar(v) || !memmem(v->value, v->len, "sharing", 7))
            continue;
        struct yt_stream inner;
        yt_load(&inner, &k->doc->arena, v->value, v->len);
        struct yt_node *root = inner.ndocs ? inner.docs[0] : NULL;
        if (!root || !is_config(&inner, root))
            continue; /* (a value that is no config, or no YAML, is not this file's error) */
        struct gl_srcmap m;
        gl_srcmap_init(&m, &k->doc->arena);
        yt_scalar_srcmap(k->s, v, &m);
        k8s_sharing_config(k->doc, &inner, root, &m);
    }
}

/* ---- the config file itself ---- */

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct yt_stream s;
    yt_load(&s, &doc->arena, doc->text, doc->len);
    for (size_t d = 0; d < s.ndocs; d++)
        if (s.docs[d] && s.docs[d]->complete && is_config(&s, s.docs[d]))
            k8s_sharing_config(doc, &s, s.docs[d], NULL);
    yt_add_pragmas(doc, &s);
    yt_report(doc, &s);
}

static bool candidate(const char *path, const char *b)
{
    (void)path;
    return gl_has_suffix(b, ".yml") || gl_has_suffix(b, ".yaml");
}

static bool config_stream(struct yt_stream *s)
{
    return s->ndocs && s->docs[0] && is_config(s, s->docs[0]);
}

static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    return memmem(data, len, "sharing", 7) && yt_sniff(data, len, config_stream);
}

const struct gl_input_type gl_input_device_plugin = {
    .kind = GL_IN_DEVICE_PLUGIN,
    .name = "device-plugin",
    .priority = 23,
    .by_name = NULL,
    .candidate = candidate,
    .by_content = by_content,
    .parse = parse,
};
