/* image_manifest.c: manifest.json, index.json, OCI manifests and configs (see
 * image_manifest.h). */
#include "parsers/image_manifest.h"

#include <json-c/json.h>
#include <string.h>

#define MAX_INDEX_DEPTH 4

static struct json_object *parse_json(const char *text, size_t len)
{
    if (!text)
        return NULL;
    struct json_tokener *t = json_tokener_new_ex(64);
    if (!t)
        return NULL;
    struct json_object *o = json_tokener_parse_ex(t, text, (int)(len > 0x7fffffff ? 0x7fffffff : len));
    if (json_tokener_get_error(t) != json_tokener_success) {
        json_object_put(o);
        o = NULL;
    }
    json_tokener_free(t);
    return o;
}

static const char *get_str(struct gl_arena *a, struct json_object *o, const char *key)
{
    struct json_object *v;
    if (!o || !json_object_is_type(o, json_type_object) ||
        !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return gl_arena_strdup(a, json_object_get_string(v));
}

static struct json_object *get_typed(struct json_object *o, const char *key, json_type type)
{
    struct json_object *v;
    if (!o || !json_object_is_type(o, json_type_object) ||
        !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
        return NULL;
    return v;
}

static size_t arr_len(struct json_object *o)
{
    return o && json_object_is_type(o, json_type_array) ? json_object_array_length(o) : 0;
}

const char *gl_image_blob_path(struct gl_arena *a, const char *digest)
{
    if (!digest)
        return NULL;
    const char *colon = strchr(digest, ':');
    if (!colon || colon == digest || !colon[1] || strchr(colon + 1, '/') ||
        strchr(digest, '/') || strstr(digest, ".."))
        return NULL;
    return gl_arena_printf(a, "blobs/%.*s/%s", (int)(colon - digest), digest, colon + 1);
}

static void add_tag(struct gl_arena *a, struct gl_image_target *t, const char *tag, size_t *cap)
{
    if (!tag || !*tag)
        return;
    for (size_t i = 0; i < t->ntags; i++)
        if (!strcmp(t->tags[i], tag))
            return;
    *GL_APPEND(a, t->tags, t->ntags, *cap) = tag;
}

static const char *platform_of(struct gl_arena *a, struct json_object *p)
{
    const char *os = get_str(a, p, "os"), *arch = get_str(a, p, "architecture");
    const char *variant = get_str(a, p, "variant");
    if (!os || !arch)
        return NULL;
    return variant ? gl_arena_printf(a, "%s/%s/%s", os, arch, variant)
                   : gl_arena_printf(a, "%s/%s", os, arch);
}

static bool platform_wanted(const char *only, const char *p)
{
    if (!only || !p)
        return true;
    size_t n = strlen(only);
    /* "linux/arm64" matches "linux/arm64/v8" too */
    return !strncmp(p, only, n) && (p[n] == 0 || p[n] == '/');
}

struct resolver {
    struct gl_arena *a;
    gl_blob_fetch fetch;
    void *ctx;
    const char *only;
    struct gl_image_plan *plan;
};

static void fail(struct resolver *r, const char *msg)
{
    if (!r->plan->error)
        r->plan->error = msg;
}

/* An OCI image manifest -> one target. */
static void add_manifest(struct resolver *r, struct json_object *m, const char *platform,
                         const char *tag, const char *what)
{
    struct json_object *cfg = get_typed(m, "config", json_type_object);
    struct json_object *layers = get_typed(m, "layers", json_type_array);
    const char *cfg_name = gl_image_blob_path(r->a, get_str(r->a, cfg, "digest"));
    if (!cfg_name || !layers) {
        fail(r, gl_arena_printf(r->a, "%s: expected an image manifest with `config` and "
                                "`layers`", what));
        return;
    }
    struct gl_image_target *t = GL_APPEND(r->a, r->plan->targets, r->plan->ntargets,
                                          r->plan->cap);
    memset(t, 0, sizeof *t);
    t->platform = platform;
    t->config_name = cfg_name;
    size_t n = arr_len(layers), tagcap = 0;
    t->layers = gl_arena_alloc(r->a, (n ? n : 1) * sizeof *t->layers);
    for (size_t i = 0; i < n; i++) {
        struct json_object *d = json_object_array_get_idx(layers, i);
        const char *digest = get_str(r->a, d, "digest");
        const char *name = gl_image_blob_path(r->a, digest);
        if (!name) {
            fail(r, gl_arena_printf(r->a, "%s: layer %zu has no valid `digest`", what, i));
            return;
        }
        t->layers[t->nlayers++] = (struct gl_image_layer_ref){
            name, digest, get_str(r->a, d, "mediaType")};
    }
    add_tag(r->a, t, tag, &tagcap);
}

static bool is_index(struct json_object *o)
{
    return get_typed(o, "manifests", json_type_array) != NULL;
}

/* A tag named by an index descriptor's annotations. */
static const char *tag_of(struct gl_arena *a, struct json_object *desc, const char *inherited)
{
    struct json_object *ann = get_typed(desc, "annotations", json_type_object);
    const char *full = get_str(a, ann, "io.containerd.image.name");
    if (full)
        return full;
    const char *ref = get_str(a, ann, "org.opencontainers.image.ref.name");
    return ref ? ref : inherited;
}

static void walk_index(struct resolver *r, struct json_object *idx, const char *tag,
                       const char *what, int depth)
{
    if (depth > MAX_INDEX_DEPTH) {
        fail(r, gl_arena_printf(r->a, "%s: indexes nested deeper than %d", what,
                                MAX_INDEX_DEPTH));
        return;
    }
    struct json_object *list = get_typed(idx, "manifests", json_type_array);
    size_t n = arr_len(list);
    for (size_t i = 0; i < n; i++) {
        struct json_object *d = json_object_array_get_idx(list, i);
        const char *digest = get_str(r->a, d, "digest");
        const char *name = gl_image_blob_path(r->a, digest);
        const char *platform = platform_of(r->a, get_typed(d, "platform", json_type_object));
        const char *dtag = tag_of(r->a, d, tag);
        if (platform && (!strcmp(platform, "unknown/unknown")))
            continue; /* attestation manifests (buildx) */
        if (!platform_wanted(r->only, platform))
            continue;
        const char *where = gl_arena_printf(r->a, "%s manifests[%zu]", what, i);
        if (!name) {
            fail(r, gl_arena_printf(r->a, "%s: no valid `digest`", where));
            continue;
        }
        size_t len;
        const char *text = r->fetch(r->ctx, name, &len);
        if (!text) {
            /* a multi-platform index of which only some platforms were saved */
            if (depth > 0 || n > 1)
                continue;
            fail(r, gl_arena_printf(r->a, "%s names blob `%s`, which the archive lacks",
                                    where, name));
            continue;
        }
        struct json_object *o = parse_json(text, len);
        if (!o) {
            fail(r, gl_arena_printf(r->a, "%s: blob `%s` is not valid JSON", where, name));
            continue;
        }
        if (is_index(o))
            walk_index(r, o, dtag, name, depth + 1);
        else
            add_manifest(r, o, platform, dtag, name);
        json_object_put(o);
    }
}

/* Docker's manifest.json. */
static void walk_docker_manifest(struct resolver *r, struct json_object *list)
{
    size_t n = arr_len(list);
    for (size_t i = 0; i < n; i++) {
        struct json_object *m = json_object_array_get_idx(list, i);
        const char *cfg = get_str(r->a, m, "Config");
        struct json_object *layers = get_typed(m, "Layers", json_type_array);
        if (!cfg || !layers) {
            fail(r, gl_arena_printf(r->a, "manifest.json[%zu]: expected `Config` and "
                                    "`Layers`", i));
            continue;
        }
        struct gl_image_target *t = GL_APPEND(r->a, r->plan->targets, r->plan->ntargets,
                                              r->plan->cap);
        memset(t, 0, sizeof *t);
        t->config_name = cfg;
        size_t nl = arr_len(layers), tagcap = 0;
        t->layers = gl_arena_alloc(r->a, (nl ? nl : 1) * sizeof *t->layers);
        for (size_t k = 0; k < nl; k++) {
            struct json_object *l = json_object_array_get_idx(layers, k);
            if (!json_object_is_type(l, json_type_string))
                continue;
            const char *name = gl_arena_strdup(r->a, json_object_get_string(l));
            const char *digest = NULL;
            if (gl_has_prefix(name, "blobs/sha256/"))
                digest = gl_arena_printf(r->a, "sha256:%s", name + 13);
            t->layers[t->nlayers++] = (struct gl_image_layer_ref){name, digest, NULL};
        }
        struct json_object *tags = get_typed(m, "RepoTags", json_type_array);
        for (size_t k = 0; k < arr_len(tags); k++) {
            struct json_object *tg = json_object_array_get_idx(tags, k);
            if (json_object_is_type(tg, json_type_string))
                add_tag(r->a, t, gl_arena_strdup(r->a, json_object_get_string(tg)), &tagcap);
        }
    }
}

void gl_image_plan_resolve(struct gl_arena *a, gl_blob_fetch fetch, void *ctx,
                           const char *only_platform, struct gl_image_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    struct resolver r = {a, fetch, ctx, only_platform, plan};
    size_t len;
    const char *text = fetch(ctx, "manifest.json", &len);
    if (text) {
        struct json_object *o = parse_json(text, len);
        if (!o || !json_object_is_type(o, json_type_array))
            fail(&r, "manifest.json: expected a JSON array of images");
        else
            walk_docker_manifest(&r, o);
        json_object_put(o);
        return;
    }
    text = fetch(ctx, "index.json", &len);
    if (!text) {
        fail(&r, "neither manifest.json nor index.json: not a docker save or OCI image");
        plan->not_image = true;
        return;
    }
    struct json_object *o = parse_json(text, len);
    if (!o || !is_index(o))
        fail(&r, "index.json: expected an OCI index with `manifests`");
    else
        walk_index(&r, o, NULL, "index.json", 0);
    json_object_put(o);
}

int gl_image_config_parse(struct gl_arena *a, const char *json, size_t len,
                          struct gl_image_config *out, const char **error)
{
    memset(out, 0, sizeof *out);
    struct json_object *o = parse_json(json, len);
    if (!o || !json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        *error = "the image config is not a JSON object";
        return -1;
    }
    out->platform = platform_of(a, o);
    struct json_object *env = get_typed(get_typed(o, "config", json_type_object), "Env",
                                        json_type_array);
    size_t n = arr_len(env);
    out->env = gl_arena_alloc(a, (n ? n : 1) * sizeof *out->env);
    for (size_t i = 0; i < n; i++) {
        struct json_object *e = json_object_array_get_idx(env, i);
        if (json_object_is_type(e, json_type_string))
            out->env[out->nenv++] = gl_arena_strdup(a, json_object_get_string(e));
    }
    struct json_object *hist = get_typed(o, "history", json_type_array);
    n = arr_len(hist);
    out->created_by = gl_arena_alloc(a, (n ? n : 1) * sizeof *out->created_by);
    out->empty_layer = gl_arena_alloc(a, (n ? n : 1) * sizeof *out->empty_layer);
    for (size_t i = 0; i < n; i++) {
        struct json_object *h = json_object_array_get_idx(hist, i), *el;
        out->created_by[i] = get_str(a, h, "created_by");
        out->empty_layer[i] = (el = get_typed(h, "empty_layer", json_type_boolean)) &&
                              json_object_get_boolean(el);
        out->ncreated_by++;
    }
    struct json_object *diff = get_typed(get_typed(o, "rootfs", json_type_object), "diff_ids",
                                         json_type_array);
    n = arr_len(diff);
    out->diff_ids = gl_arena_alloc(a, (n ? n : 1) * sizeof *out->diff_ids);
    for (size_t i = 0; i < n; i++) {
        struct json_object *d = json_object_array_get_idx(diff, i);
        if (json_object_is_type(d, json_type_string))
            out->diff_ids[out->ndiff_ids++] = gl_arena_strdup(a, json_object_get_string(d));
    }
    json_object_put(o);
    return 0;
}
