/* SPDX-License-Identifier: Apache-2.0 */
/* k8s_sharing.c: NVIDIA device plugin configs (the file, a ConfigMap holding it, Helm
 * values of the device plugin and GPU operator charts holding it, in a values file, a Flux
 * HelmRelease or an Argo CD Application) -> doc->sharing (see k8s.h). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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

/* A string of the file that may hold a device plugin config (a ConfigMap's data value, a
 * Helm values entry): read as YAML with its positions mapped into the scalar. */
static void config_string(struct gl_doc *doc, struct yt_stream *s, struct yt_node *v)
{
    if (!yt_is_scalar(v) || !memmem(v->value, v->len, "sharing", 7))
        return;
    struct yt_stream inner;
    yt_load(&inner, &doc->arena, v->value, v->len);
    struct yt_node *root = inner.ndocs ? inner.docs[0] : NULL;
    if (!root || !is_config(&inner, root))
        return; /* (a value that is no config, or no YAML, is not this file's error) */
    struct gl_srcmap m;
    gl_srcmap_init(&m, &doc->arena);
    yt_scalar_srcmap(s, v, &m);
    k8s_sharing_config(doc, &inner, root, &m);
}

static void config_strings(struct gl_doc *doc, struct yt_stream *s, struct yt_node *map)
{
    struct yt_pair *p;
    size_t n = yt_pairs(s, map, &p);
    for (size_t i = 0; i < n; i++)
        config_string(doc, s, p[i].value);
}

/* Helm values of NVIDIA's charts that hold device plugin configs as strings: the device
 * plugin chart's `config.map.<name>`, the GPU operator chart's
 * `devicePlugin.config.data.<name>`. */
static void helm_values(struct gl_doc *doc, struct yt_stream *s, struct yt_node *values)
{
    if (!yt_is_map(values))
        return;
    config_strings(doc, s, yt_get(s, yt_get(s, values, "config", NULL), "map", NULL));
    struct yt_node *dp = yt_get(s, values, "devicePlugin", NULL);
    config_strings(doc, s, yt_get(s, yt_get(s, dp, "config", NULL), "data", NULL));
}

void k8s_sharing_object(struct k8s *k, struct yt_node *obj)
{
    struct yt_stream *s = k->s;
    struct yt_node *kind = yt_get(s, obj, "kind", NULL), *spec = yt_get(s, obj, "spec", NULL);
    if (yt_scalar_is(kind, "ConfigMap")) {
        config_strings(k->doc, s, yt_get(s, obj, "data", NULL));
    } else if (yt_scalar_is(kind, "HelmRelease")) { /* Flux: the release's values */
        helm_values(k->doc, s, yt_get(s, spec, "values", NULL));
    } else if (yt_scalar_is(kind, "Application")) { /* Argo CD: helm.valuesObject */
        helm_values(k->doc, s,
                    yt_get(s, yt_get(s, yt_get(s, spec, "source", NULL), "helm", NULL),
                           "valuesObject", NULL));
        struct yt_node *sources = yt_get(s, spec, "sources", NULL);
        for (size_t i = 0; yt_is_seq(sources) && i < sources->nitems; i++)
            helm_values(k->doc, s,
                        yt_get(s, yt_get(s, yt_item(s, sources, i), "helm", NULL),
                               "valuesObject", NULL));
    }
}

/* Does a Helm values document hold a device plugin config with sharing? */
static bool is_values(struct yt_stream *s, struct yt_node *root)
{
    struct yt_node *maps[2] = {
        yt_get(s, yt_get(s, root, "config", NULL), "map", NULL),
        yt_get(s, yt_get(s, yt_get(s, root, "devicePlugin", NULL), "config", NULL), "data", NULL)};
    for (size_t k = 0; k < 2; k++) {
        struct yt_pair *p;
        size_t n = yt_pairs(s, maps[k], &p);
        for (size_t i = 0; i < n; i++) {
            struct yt_node *v = p[i].value;
            if (yt_is_scalar(v) && memmem(v->value, v->len, "sharing", 7) &&
                memmem(v->value, v->len, "version", 7))
                return true;
        }
    }
    return false;
}

/* ---- the config file itself ---- */

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct yt_stream s;
    yt_load_doc(&s, doc, doc->text, doc->len);
    for (size_t d = 0; d < s.ndocs; d++) {
        if (!s.docs[d] || !s.docs[d]->complete)
            continue;
        if (is_config(&s, s.docs[d]))
            k8s_sharing_config(doc, &s, s.docs[d], NULL);
        else
            helm_values(doc, &s, s.docs[d]);
    }
    yt_add_pragmas(doc, &s);
    yt_report(doc, &s);
}

/* A chart's own values file is read through the chart (rendered by helm: its configs are
 * judged in the ConfigMap they render to), not a second time on its own. */
static bool chart_values(const char *path, const char *b)
{
    if (strcmp(b, "values.yaml") && strcmp(b, "values.yml"))
        return false;
    char chart[4096];
    int n = snprintf(chart, sizeof chart, "%.*sChart.yaml", (int)(b - path), path);
    struct stat st;
    return n > 0 && (size_t)n < sizeof chart && stat(chart, &st) == 0 && S_ISREG(st.st_mode);
}

static bool candidate(const char *path, const char *b)
{
    return yt_yaml_name(b) && !chart_values(path, b);
}

static bool config_stream(struct yt_stream *s)
{
    struct yt_node *root = s->ndocs ? s->docs[0] : NULL;
    return root && (is_config(s, root) ||
                    (yt_is_map(root) && !yt_get(s, root, "apiVersion", NULL) &&
                     !yt_get(s, root, "kind", NULL) && is_values(s, root)));
}

static bool by_content(const char *path, const char *data, size_t len)
{
    const char *b = path ? strrchr(path, '/') : NULL;
    if (path && chart_values(path, b ? b + 1 : path))
        return false;
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
