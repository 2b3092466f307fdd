/* SPDX-License-Identifier: Apache-2.0 */
/* image_manifest.c: manifest.json, index.json, OCI manifests and configs (see
 * image_manifest.h). */
#include "parsers/image/image_manifest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/limits.h"
#include "parsers/image/image_json.h"
#include "linter/core/hashmap.h"

#define NAMED_MAX 4
#define QUOTE_MAX 100

/* ---- digests and names ---- */

static bool lower_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool algorithm_valid(const char *s, size_t n)
{
    bool after_sep = true; /* a component must start here */
    for (size_t i = 0; i < n; i++) {
        if (lower_alnum(s[i]))
            after_sep = false;
        else if (!after_sep && strchr("+._-", s[i]))
            after_sep = true;
        else
            return false;
    }
    return n > 0 && !after_sep;
}

static bool encoded_valid(const char *alg, size_t alen, const char *enc)
{
    size_t hexlen = alen == 6 && !memcmp(alg, "sha256", 6)   ? 64
                    : alen == 6 && !memcmp(alg, "sha512", 6) ? 128
                                                             : 0;
    size_t n = 0;
    for (; enc[n]; n++) {
        char c = enc[n];
        bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        bool any = hex || (c >= 'A' && c <= 'Z') || (c >= 'g' && c <= 'z') || c == '=' ||
                   c == '_' || c == '-';
        if (hexlen ? !hex : !any)
            return false;
    }
    return n > 0 && (!hexlen || n == hexlen);
}

bool gl_image_digest_valid(const char *digest)
{
    const char *colon = digest ? strchr(digest, ':') : NULL;
    return colon && algorithm_valid(digest, (size_t)(colon - digest)) &&
           encoded_valid(digest, (size_t)(colon - digest), colon + 1);
}

const char *gl_image_blob_path(struct gl_arena *a, const char *digest)
{
    if (!gl_image_digest_valid(digest))
        return NULL;
    const char *colon = strchr(digest, ':');
    return gl_arena_printf(a, "blobs/%.*s/%s", (int)(colon - digest), digest, colon + 1);
}

const char *gl_image_quote(struct gl_arena *a, const char *name)
{
    size_t n = strlen(name);
    return n <= QUOTE_MAX ? name : gl_arena_printf(a, "%.64s... (%zu bytes)", name, n);
}

static bool too_long(const char *name)
{
    return strlen(name) > gl_limit(GL_LIMIT_NAME_LENGTH);
}

const char *gl_image_limit_text(struct gl_arena *a, enum gl_limit_id id)
{
    char buf[160];
    return gl_arena_strdup(a, gl_limit_message(id, buf, sizeof buf));
}

const char *gl_image_json_error(struct gl_arena *a, const char *json, size_t len)
{
    struct gl_json_error e;
    if (gl_json_check(json, len, gl_limit(GL_LIMIT_NESTING_DEPTH), &e) == 0)
        return NULL;
    if (e.too_deep)
        return gl_arena_printf(a, "collections nested too deep at byte %zu: %s", e.offset,
                               gl_image_limit_text(a, GL_LIMIT_NESTING_DEPTH));
    return gl_arena_printf(a, "not valid JSON: %s at byte %zu", e.what, e.offset);
}

void gl_image_plan_problem(struct gl_arena *a, struct gl_image_plan *plan,
                           const char *platform, const char *message)
{
    *GL_APPEND(a, plan->problems, plan->nproblems, plan->capproblems) =
        (struct gl_image_problem){platform, message};
}

/* ---- the walk ---- */

/* What r->seen holds for a document: a target's index + 1, or DONE (an index, or a
 * document that could not be read: nothing more to do when named again). */
#define DONE ((void *)UINTPTR_MAX)

struct resolver {
    struct gl_arena *a;
    gl_blob_fetch fetch;
    void *ctx;
    const char *only;
    struct gl_image_plan *plan;
    struct gl_map seen;     /* documents read: see DONE */
    struct gl_map pairs;    /* "<document> <platform>" and "<target>\n<tag>" already met */
    size_t manifests;       /* distinct manifests met (read or not) */
    bool full;              /* image-manifests was reached: the walk stopped */
};

static void fail(struct resolver *r, const char *msg)
{
    if (!r->plan->error)
        r->plan->error = msg;
}

static void problem(struct resolver *r, const char *platform, const char *msg)
{
    gl_image_plan_problem(r->a, r->plan, platform, msg);
}

/* Add a tag to t (dropped, with a problem, when longer than name-length). */
static void add_tag(struct resolver *r, struct gl_image_target *t, const char *tag,
                    const char *platform)
{
    if (!tag || !*tag)
        return;
    if (too_long(tag)) {
        problem(r, platform, gl_arena_printf(r->a, "%s: a tag of %zu bytes, dropped: %s",
                                             t->manifest, strlen(tag),
                                             gl_image_limit_text(r->a, GL_LIMIT_NAME_LENGTH)));
        return;
    }
    bool added;
    gl_map_puts(&r->pairs, gl_arena_printf(r->a, "%s\n%s", t->manifest, tag), &added);
    if (added)
        *GL_APPEND(r->a, t->tags, t->ntags, t->captags) = tag;
}

/* Record that a descriptor of `platform` names target t (stored under `doc`). */
static void add_named(struct resolver *r, struct gl_image_target *t, const char *doc,
                      const char *platform)
{
    if (!platform)
        return;
    bool added;
    gl_map_puts(&r->pairs, gl_arena_printf(r->a, "%s %s", doc, platform), &added);
    if (!added)
        return;
    if (t->nnamed < NAMED_MAX)
        t->named[t->nnamed++] = platform;
    else
        t->more_named++;
}

static struct gl_image_target *new_target(struct resolver *r, const char *doc,
                                          const char *manifest)
{
    struct gl_image_target *t = GL_APPEND(r->a, r->plan->targets, r->plan->ntargets,
                                          r->plan->cap);
    memset(t, 0, sizeof *t);
    t->manifest = manifest;
    *gl_map_puts(&r->seen, doc, NULL) = (void *)(uintptr_t)r->plan->ntargets;
    return t;
}

/* The target stored under doc, or NULL (not a target, or never seen). */
static struct gl_image_target *target_of(struct resolver *r, const char *doc)
{
    void *v = gl_map_gets(&r->seen, doc);
    return v && v != DONE ? &r->plan->targets[(uintptr_t)v - 1] : NULL;
}

/* One more distinct manifest: false (and the walk stops) past image-manifests. */
static bool room_for_manifest(struct resolver *r, const char *where, const char *platform)
{
    if (r->manifests++ < gl_limit(GL_LIMIT_IMAGE_MANIFESTS))
        return true;
    problem(r, platform, gl_arena_printf(r->a, "%s: one manifest too many, the rest of the "
                                         "index is not read: %s", where,
                                         gl_image_limit_text(r->a, GL_LIMIT_IMAGE_MANIFESTS)));
    r->full = true;
    return false;
}

/* Can a list of n layers be one image's? (problem when not) */
static bool layers_fit(struct resolver *r, size_t n, const char *where, const char *platform)
{
    if (n <= gl_limit(GL_LIMIT_IMAGE_LAYERS))
        return true;
    problem(r, platform, gl_arena_printf(r->a, "%s: %zu layers: %s", where, n,
                                         gl_image_limit_text(r->a, GL_LIMIT_IMAGE_LAYERS)));
    return false;
}

/* An OCI image manifest (stored under doc) -> one target. */
static void add_manifest(struct resolver *r, struct gl_json m, const char *doc,
                         const char *digest, const char *platform, const char *tag)
{
    struct gl_arena *a = r->a;
    struct gl_json layers = gl_json_get_kind(m, "layers", '[');
    const char *cfg = gl_image_blob_path(a, gl_json_get_string(
                                               a, gl_json_get_kind(m, "config", '{'), "digest"));
    if (!cfg || !layers.at) {
        problem(r, platform, gl_arena_printf(a, "%s: expected an image manifest with "
                                             "`config` and `layers`", doc));
        return;
    }
    size_t n = gl_json_count(layers), k = 0;
    if (!layers_fit(r, n, doc, platform))
        return;
    struct gl_image_layer_ref *refs = gl_arena_alloc(a, (n ? n : 1) * sizeof *refs);
    for (struct gl_json d = gl_json_first(layers); d.at; d = gl_json_next(d), k++) {
        const char *ld = gl_json_get_string(a, d, "digest");
        const char *name = gl_image_blob_path(a, ld);
        if (!name) {
            problem(r, platform, gl_arena_printf(a, "%s: layer %zu has no valid `digest`",
                                                 doc, k));
            return;
        }
        refs[k] = (struct gl_image_layer_ref){name, ld, gl_json_get_string(a, d, "mediaType")};
    }
    struct gl_image_target *t = new_target(r, doc, digest);
    t->config_name = cfg;
    t->layers = refs;
    t->nlayers = n;
    add_named(r, t, doc, platform);
    add_tag(r, t, tag, platform);
}

static bool is_index(struct gl_json o)
{
    return gl_json_get_kind(o, "manifests", '[').at != NULL;
}

static const char *platform_of(struct gl_arena *a, struct gl_json p)
{
    const char *os = gl_json_get_string(a, p, "os");
    const char *arch = gl_json_get_string(a, p, "architecture");
    const char *variant = gl_json_get_string(a, p, "variant");
    if (!os || !arch || too_long(os) || too_long(arch) || (variant && too_long(variant)))
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

/* A tag named by an index descriptor's annotations. */
static const char *tag_of(struct gl_arena *a, struct gl_json desc, const char *inherited)
{
    struct gl_json ann = gl_json_get_kind(desc, "annotations", '{');
    const char *full = gl_json_get_string(a, ann, "io.containerd.image.name");
    if (full)
        return full;
    const char *ref = gl_json_get_string(a, ann, "org.opencontainers.image.ref.name");
    return ref ? ref : inherited;
}

/* Where a descriptor stands, for messages. */
struct site {
    const char *index;   /* the index document */
    size_t i;            /* its position in `manifests` */
    size_t depth;        /* of the index: 0 for index.json */
    bool partial_ok;     /* an absent blob is a platform that was not saved */
};

static void walk_index(struct resolver *r, struct gl_json idx, const char *tag,
                       const char *what, size_t depth);

/* Is manifest m an artifact stored beside the images (a cosign signature or attestation,
 * an SBOM, a Helm chart pushed with oras): it says so by `artifactType`, or every layer
 * has a media type and none is a filesystem (`...tar`, `...tar+gzip`, Docker's
 * `rootfs.diff.tar.gzip`)? It holds no root filesystem to lint. A layer with no media
 * type is taken for a filesystem, as before. */
static bool is_artifact(struct gl_arena *a, struct gl_json m)
{
    if (gl_json_get_string(a, m, "artifactType"))
        return true;
    struct gl_json layers = gl_json_get_kind(m, "layers", '[');
    size_t n = 0;
    for (struct gl_json d = gl_json_first(layers); d.at; d = gl_json_next(d), n++) {
        const char *type = gl_json_get_string(a, d, "mediaType");
        if (!type || strstr(type, ".tar"))
            return false;
    }
    return n > 0;
}

/* Why the document doc could not be taken: absent (why and bad NULL), refused by the
 * fetch (why), or no valid JSON (bad). */
static const char *unreadable(struct gl_arena *a, const char *where, const char *doc,
                              const char *why, const char *bad)
{
    if (!why && !bad)
        return gl_arena_printf(a, "%s names blob `%s`, which the archive lacks", where, doc);
    return gl_arena_printf(a, "%s: blob `%s`: %s", where, doc, bad ? bad : why);
}

/* The document a descriptor names, read and followed (doc: its blob path). Every
 * distinct document but an index counts towards image-manifests, read or not. */
static void follow(struct resolver *r, const struct site *at, const char *doc,
                   const char *digest, const char *platform, const char *tag)
{
    struct gl_arena *a = r->a;
    const char *where = gl_arena_printf(a, "%s manifests[%zu]", at->index, at->i);
    size_t len;
    const char *why = NULL;
    char *text = r->fetch(r->ctx, doc, &len, &why);
    if (!text && !why && at->partial_ok)
        return; /* a platform of the index that was not saved */
    const char *bad = text ? gl_image_json_error(a, text, len) : NULL;
    struct gl_json o = text && !bad ? gl_json_root(text) : (struct gl_json){NULL};
    size_t depth = at->depth + 1;
    if (is_index(o) && depth <= gl_limit(GL_LIMIT_IMAGE_INDEX_DEPTH))
        walk_index(r, o, tag, doc, depth);
    else if (is_index(o))
        problem(r, platform, gl_arena_printf(a, "%s: index `%s` is nested %zu deep, not read: "
                                             "%s", where, doc, depth,
                                             gl_image_limit_text(a, GL_LIMIT_IMAGE_INDEX_DEPTH)));
    else if (room_for_manifest(r, where, platform) && o.at) {
        if (!is_artifact(a, o)) /* (counted all the same: a document read) */
            add_manifest(r, o, doc, digest, platform, tag);
    } else if (!r->full)
        problem(r, platform, unreadable(a, where, doc, why, bad));
    free(text);
}

static void walk_descriptor(struct resolver *r, struct gl_json d, const struct site *at,
                            const char *tag)
{
    struct gl_arena *a = r->a;
    const char *platform = platform_of(a, gl_json_get_kind(d, "platform", '{'));
    if (platform && !strcmp(platform, "unknown/unknown"))
        return; /* attestation manifests (buildx) */
    if (!platform_wanted(r->only, platform))
        return;
    const char *digest = gl_json_get_string(a, d, "digest");
    const char *doc = gl_image_blob_path(a, digest);
    const char *dtag = tag_of(a, d, tag);
    if (!doc) {
        problem(r, platform, gl_arena_printf(a, "%s manifests[%zu]: no valid `digest`",
                                             at->index, at->i));
        return;
    }
    bool added;
    void **seen = gl_map_puts(&r->seen, doc, &added);
    if (added) {
        *seen = DONE; /* (until it proves to be a manifest: new_target) */
        follow(r, at, doc, digest, platform, dtag);
        return;
    }
    struct gl_image_target *t = target_of(r, doc);
    if (t) { /* a manifest named again: one more platform and tag of the same image */
        add_named(r, t, doc, platform);
        add_tag(r, t, dtag, platform);
    }
}

static void walk_index(struct resolver *r, struct gl_json idx, const char *tag,
                       const char *what, size_t depth)
{
    struct gl_json list = gl_json_get_kind(idx, "manifests", '[');
    struct gl_json first = gl_json_first(list);
    bool several = first.at && gl_json_next(first).at;
    struct site at = {what, 0, depth, depth > 0 || several};
    for (struct gl_json d = gl_json_first(list); d.at && !r->full; d = gl_json_next(d), at.i++)
        walk_descriptor(r, d, &at, tag);
}

/* "linux/amd64, linux/arm64 and 2 more" from the platforms that name a target. */
static void name_platform(struct gl_arena *a, struct gl_image_target *t)
{
    if (!t->nnamed)
        return;
    struct gl_buf b;
    gl_buf_init(&b);
    for (size_t i = 0; i < t->nnamed; i++)
        gl_buf_printf(&b, "%s%s", i ? ", " : "", t->named[i]);
    if (t->more_named)
        gl_buf_printf(&b, " and %zu more", t->more_named);
    t->platform = gl_arena_strdup(a, gl_buf_str(&b));
    gl_buf_free(&b);
}

/* ---- Docker's manifest.json ---- */

static const char *docker_where(struct gl_arena *a, size_t i)
{
    return gl_arena_printf(a, "manifest.json[%zu]", i);
}

/* The layer paths of one manifest.json entry, or NULL (a problem said why). */
static struct gl_image_layer_ref *docker_layers(struct resolver *r, struct gl_json layers,
                                                size_t i, size_t *n)
{
    struct gl_arena *a = r->a;
    size_t count = gl_json_count(layers), k = 0;
    if (!layers_fit(r, count, docker_where(a, i), NULL))
        return NULL;
    struct gl_image_layer_ref *refs = gl_arena_alloc(a, (count ? count : 1) * sizeof *refs);
    for (struct gl_json l = gl_json_first(layers); l.at; l = gl_json_next(l)) {
        const char *name = gl_json_string(a, l);
        if (!name)
            continue;
        if (too_long(name)) {
            problem(r, NULL, gl_arena_printf(a, "%s: layer `%s`: %s", docker_where(a, i),
                                             gl_image_quote(a, name),
                                             gl_image_limit_text(a, GL_LIMIT_NAME_LENGTH)));
            return NULL;
        }
        const char *digest = gl_has_prefix(name, "blobs/sha256/")
                                 ? gl_arena_printf(a, "sha256:%s", name + 13) : NULL;
        refs[k++] = (struct gl_image_layer_ref){name, digest, NULL};
    }
    *n = k;
    return refs;
}

/* One entry of manifest.json: a target per distinct Config. */
static void docker_entry(struct resolver *r, struct gl_json m, size_t i)
{
    struct gl_arena *a = r->a;
    const char *cfg = gl_json_get_string(a, m, "Config");
    struct gl_json layers = gl_json_get_kind(m, "Layers", '[');
    if (!cfg || !layers.at || too_long(cfg)) {
        fail(r, cfg && layers.at ? gl_arena_printf(a, "%s: Config `%s`: %s", docker_where(a, i),
                                                   gl_image_quote(a, cfg),
                                                   gl_image_limit_text(a, GL_LIMIT_NAME_LENGTH))
                                 : gl_arena_printf(a, "%s: expected `Config` and `Layers`",
                                                   docker_where(a, i)));
        return;
    }
    struct gl_image_target *t = target_of(r, cfg);
    if (!t && gl_map_gets(&r->seen, cfg))
        return; /* refused before */
    if (!t) {
        *gl_map_puts(&r->seen, cfg, NULL) = DONE;
        size_t n = 0;
        struct gl_image_layer_ref *refs = docker_layers(r, layers, i, &n);
        if (!refs || !room_for_manifest(r, docker_where(a, i), NULL))
            return;
        t = new_target(r, cfg, docker_where(a, i));
        t->config_name = cfg;
        t->layers = refs;
        t->nlayers = n;
    }
    struct gl_json tags = gl_json_get_kind(m, "RepoTags", '[');
    for (struct gl_json tg = gl_json_first(tags); tg.at; tg = gl_json_next(tg))
        add_tag(r, t, gl_json_string(a, tg), NULL);
}

static void walk_docker_manifest(struct resolver *r, struct gl_json list)
{
    size_t i = 0;
    for (struct gl_json m = gl_json_first(list); m.at && !r->full; m = gl_json_next(m), i++)
        docker_entry(r, m, i);
}

/* ---- the top ---- */

/* Read a top-level document (manifest.json, index.json): 1 read and walked, 0 absent,
 * -1 failed (plan->error). */
static int walk_top(struct resolver *r, const char *name)
{
    size_t len;
    const char *why = NULL;
    char *text = r->fetch(r->ctx, name, &len, &why);
    if (!text) {
        if (why)
            fail(r, gl_arena_printf(r->a, "%s: %s", name, why));
        return why ? -1 : 0;
    }
    const char *bad = gl_image_json_error(r->a, text, len);
    struct gl_json o = gl_json_root(text);
    bool docker = !strcmp(name, "manifest.json");
    if (bad)
        fail(r, gl_arena_printf(r->a, "%s: %s", name, bad));
    else if (docker && gl_json_kind(o) != '[')
        fail(r, "manifest.json: expected a JSON array of images");
    else if (!docker && !is_index(o))
        fail(r, "index.json: expected an OCI index with `manifests`");
    else if (docker)
        walk_docker_manifest(r, o);
    else
        walk_index(r, o, NULL, "index.json", 0);
    free(text);
    return bad ? -1 : 1;
}

void gl_image_plan_resolve(struct gl_arena *a, gl_blob_fetch fetch, void *ctx,
                           const char *only_platform, struct gl_image_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    struct resolver r = {a, fetch, ctx, only_platform, plan, {0}, {0}, 0, false};
    gl_map_init(&r.seen);
    gl_map_init(&r.pairs);
    if (walk_top(&r, "manifest.json") == 0 && walk_top(&r, "index.json") == 0) {
        fail(&r, "neither manifest.json nor index.json: not a docker save or OCI image");
        plan->not_image = true;
    }
    for (size_t i = 0; i < plan->ntargets; i++)
        name_platform(a, &plan->targets[i]);
    gl_map_free(&r.seen);
    gl_map_free(&r.pairs);
}

/* ---- configs ---- */

/* The strings of an array (others skipped), into *out; returns their number. */
static size_t strings_of(struct gl_arena *a, struct gl_json arr, const char ***out)
{
    size_t n = gl_json_count(arr), k = 0;
    *out = gl_arena_alloc(a, (n ? n : 1) * sizeof **out);
    for (struct gl_json e = gl_json_first(arr); e.at; e = gl_json_next(e)) {
        const char *s = gl_json_string(a, e);
        if (s)
            (*out)[k++] = s;
    }
    return k;
}

int gl_image_config_parse(struct gl_arena *a, const char *json, size_t len,
                          struct gl_image_config *out, const char **error)
{
    memset(out, 0, sizeof *out);
    const char *bad = gl_image_json_error(a, json, len);
    struct gl_json o = bad ? (struct gl_json){NULL} : gl_json_root(json);
    if (gl_json_kind(o) != '{') {
        *error = bad ? bad : "the image config is not a JSON object";
        return -1;
    }
    out->platform = platform_of(a, o);
    out->nenv = strings_of(a, gl_json_get_kind(gl_json_get_kind(o, "config", '{'), "Env", '['),
                           &out->env);
    struct gl_json hist = gl_json_get_kind(o, "history", '[');
    size_t n = gl_json_count(hist);
    out->created_by = gl_arena_alloc(a, (n ? n : 1) * sizeof *out->created_by);
    out->empty_layer = gl_arena_alloc(a, (n ? n : 1) * sizeof *out->empty_layer);
    for (struct gl_json h = gl_json_first(hist); h.at; h = gl_json_next(h)) {
        out->created_by[out->ncreated_by] = gl_json_get_string(a, h, "created_by");
        out->empty_layer[out->ncreated_by++] = gl_json_kind(gl_json_get(h, "empty_layer")) == 't';
    }
    out->ndiff_ids = strings_of(
        a, gl_json_get_kind(gl_json_get_kind(o, "rootfs", '{'), "diff_ids", '['), &out->diff_ids);
    return 0;
}
