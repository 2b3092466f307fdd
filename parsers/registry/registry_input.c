/* SPDX-License-Identifier: Apache-2.0 */
/* registry_input.c: an image from a registry's v2 API (see registry_input.h). */
#include "parsers/registry/registry_input.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "linter/core/imageref.h"
#include "linter/core/limits.h"
#include "parsers/image/image_cache.h"
#include "parsers/image/image_read.h"
#include "parsers/image/image_sha256.h"
#include "parsers/registry/registry_auth.h"
#include "parsers/registry/registry_stream.h"

#define MANIFEST_TYPES                                                                     \
    "application/vnd.oci.image.index.v1+json, "                                            \
    "application/vnd.docker.distribution.manifest.list.v2+json, "                          \
    "application/vnd.oci.image.manifest.v1+json, "                                         \
    "application/vnd.docker.distribution.manifest.v2+json"
#define MAX_REDIRECTS 5

struct session {
    struct gl_arena *a;
    const struct gl_config *cfg;
    const char *text;          /* the reference after docker:// */
    struct gl_imageref ref;
    const char *host;          /* asked: registry-1.docker.io for docker.io */
    const char *base;          /* "https://HOST" (or "http://HOST") */
    bool base_settled;         /* a reply came: the scheme stays */
    struct gl_http http;
    struct gl_reg_creds creds;
    const char *auth;          /* Authorization value for the registry, or NULL */
    const char *fatal;         /* the first manifest could not be had: unreachable */
    char *top; size_t top_len;
    char top_name[80];         /* "blobs/sha256/<hex>" of the first manifest */
    pthread_mutex_t lock;      /* --layers: the layer threads' requests, one at a time */
    const char *cache_dir;     /* the layer-index cache, or NULL */
};

/* ---- TLS files ---- */

static const char *file_in(struct gl_arena *a, const char *dir, const char *name)
{
    struct stat st;
    const char *p = gl_arena_printf(a, "%s/%s", dir, name);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) ? p : NULL;
}

/* ca.crt (else a *.crt), and a NAME.cert with NAME.key, of dir. */
static void tls_from_dir(struct gl_arena *a, const char *dir, struct gl_http_tls *tls)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    tls->ca_file = file_in(a, dir, "ca.crt");
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (!tls->ca_file && gl_has_suffix(n, ".crt"))
            tls->ca_file = file_in(a, dir, n);
        if (!tls->cert_file && gl_has_suffix(n, ".cert")) {
            const char *key = gl_arena_printf(a, "%.*s.key", (int)(strlen(n) - 5), n);
            if (file_in(a, dir, key)) {
                tls->cert_file = file_in(a, dir, n);
                tls->key_file = file_in(a, dir, key);
            }
        }
    }
    closedir(d);
}

static void tls_setup(struct session *s, struct gl_http_tls *tls)
{
    memset(tls, 0, sizeof *tls);
    tls->no_verify = s->cfg->tls_no_verify;
    if (s->cfg->cert_dir) {
        tls_from_dir(s->a, s->cfg->cert_dir, tls);
        return;
    }
    const char *roots[] = {"/etc/containers/certs.d", "/etc/docker/certs.d"};
    for (size_t i = 0; i < 2 && !tls->ca_file && !tls->cert_file; i++)
        tls_from_dir(s->a, gl_arena_printf(s->a, "%s/%s", roots[i], s->ref.domain), tls);
}

/* ---- requests ---- */

/* Is url on the registry's own host (and scheme)? */
static bool same_host(const struct session *s, const char *url)
{
    size_t n = strlen(s->base);
    return !strncmp(url, s->base, n) && (url[n] == '/' || !url[n]);
}

/* The next URL of a redirect (Location absolute or absolute-path), or NULL. */
static const char *redirect_target(struct session *s, const char *from, const char *loc)
{
    if (!strncasecmp(loc, "https://", 8) || !strncasecmp(loc, "http://", 7))
        return gl_arena_strdup(s->a, loc);
    if (loc[0] != '/' || loc[1] == '/')
        return NULL;
    const char *p = strstr(from, "://");
    const char *slash = p ? strchr(p + 3, '/') : NULL;
    size_t n = slash ? (size_t)(slash - from) : strlen(from);
    return gl_arena_printf(s->a, "%.*s%s", (int)n, from, loc);
}

/* One GET of url, answering a 401 challenge once. */
static int get_authorized(struct session *s, const char *url, const char *accept, size_t max,
                          struct gl_http_reply *r, const char **why)
{
    const char *auth = same_host(s, url) ? s->auth : NULL;
    if (gl_http_get(&s->http, url, auth, accept, max, r) != 0)
        return -1;
    if (r->status != 401 || !same_host(s, url) || !r->www_authenticate)
        return 0;
    struct gl_reg_challenge c;
    if (gl_reg_challenge_parse(s->a, r->www_authenticate, &c) != 0)
        return 0;
    const char *value = gl_reg_authorize(s->a, &s->http, &c, &s->creds, s->ref.path, why);
    if (!value)
        return 0; /* the 401 stands, *why says what was missing */
    s->auth = value;
    gl_http_reply_free(r);
    return gl_http_get(&s->http, url, value, accept, max, r);
}

/* GET path below the registry, its body cut past `max` bytes; redirects followed for
 * blobs only. 0 with a reply (r->status says which; *final the URL that gave it), -1
 * with *why. */
static int request(struct session *s, const char *path, bool blob, size_t max,
                   struct gl_http_reply *r, const char **final, const char **why)
{
    const char *url = gl_arena_printf(s->a, "%s%s", s->base, path);
    const char *accept = blob ? NULL : MANIFEST_TYPES;
    for (int hop = 0;; hop++) {
        *why = NULL;
        *final = url;
        int rc = get_authorized(s, url, accept, max, r, why);
        if (rc != 0 && !s->base_settled && s->cfg->tls_no_verify &&
            !strncmp(s->base, "https://", 8)) {
            /* --tls-verify=false: a registry that speaks plain http */
            s->base = gl_arena_printf(s->a, "http://%s", s->host);
            url = *final = gl_arena_printf(s->a, "%s%s", s->base, path);
            gl_http_reply_free(r);
            rc = get_authorized(s, url, accept, max, r, why);
        }
        if (rc != 0) {
            *why = gl_arena_printf(s->a, "%s%s", r->tls_error ? "TLS: " : "", r->error);
            return -1;
        }
        s->base_settled = true;
        if (r->status < 300 || r->status >= 400 || !r->location)
            return 0;
        const char *next = redirect_target(s, url, r->location);
        if (!next || hop >= MAX_REDIRECTS || (!blob && !same_host(s, next))) {
            *why = !next ? "a redirect to a place that is no http(s) URL"
                 : hop >= MAX_REDIRECTS ? "too many redirects"
                                        : "a manifest redirected to another host (not followed)";
            return -1;
        }
        url = next;
        gl_http_reply_free(r);
    }
}

/* What an HTTP status means for an image, in a few words. */
static const char *status_text(struct session *s, const struct gl_http_reply *r,
                               const char *auth_why)
{
    switch (r->status) {
    case 401:
        if (auth_why)
            return gl_arena_printf(s->a, "HTTP 401 unauthorized: %s%s%s", auth_why,
                                   s->creds.helper_note ? "; " : "",
                                   s->creds.helper_note ? s->creds.helper_note : "");
        return gl_arena_printf(s->a, "HTTP 401 unauthorized%s%s%s",
                               s->creds.user ? " (credentials from " : "",
                               s->creds.user ? s->creds.source : "",
                               s->creds.user ? " were refused)" : ": give --creds USER:PASS");
    case 403: return "HTTP 403 forbidden: these credentials may not pull it";
    case 404: return "HTTP 404: the registry has no such manifest or blob";
    case 429: return "HTTP 429 too many requests (after retries)";
    default: return gl_arena_printf(s->a, "HTTP %ld", r->status);
    }
}

/* Is body the document of digest "sha256:<hex>"? */
static bool digest_matches(const char *body, size_t len, const char *hex)
{
    char out[65];
    gl_sha256_hex_of(body, len, out);
    return !strcmp(out, hex);
}

static char *take_body(struct gl_http_reply *r, size_t *len)
{
    char *b = r->body ? r->body : xasprintf("%s", "");
    *len = r->len;
    r->body = NULL;
    return b;
}

/* GET a document; `hex` NULL: the first manifest, whose digest is computed. */
static char *fetch(struct session *s, const char *path, bool blob, const char *hex,
                   size_t *len, const char **why, bool *unreachable)
{
    struct gl_http_reply r;
    const char *auth_why = NULL, *url;
    char *out = NULL;
    *unreachable = false;
    if (request(s, path, blob, gl_limit(GL_LIMIT_IMAGE_JSON_SIZE), &r, &url, &auth_why) != 0) {
        *why = auth_why;
        *unreachable = true;
    } else if (r.too_big) {
        *why = gl_image_limit_text(s->a, GL_LIMIT_IMAGE_JSON_SIZE);
    } else if (r.status != 200) {
        *why = status_text(s, &r, auth_why);
        *unreachable = true;
    } else if (hex && !digest_matches(r.body ? r.body : "", r.len, hex)) {
        *why = gl_arena_printf(s->a, "the registry's bytes do not match the digest sha256:%s",
                               hex);
    } else {
        out = take_body(&r, len);
    }
    gl_http_reply_free(&r);
    return out;
}

/* The first manifest, fetched once: its bytes kept, its digest computed (and checked
 * against the reference's). */
static bool fetch_top(struct session *s, const char **why)
{
    if (s->top || s->fatal)
        return s->top != NULL;
    const char *at = s->ref.digest ? s->ref.digest : s->ref.tag ? s->ref.tag : "latest";
    const char *want = s->ref.digest ? s->ref.digest + 7 : NULL;
    bool unreachable;
    s->top = fetch(s, gl_arena_printf(s->a, "/v2/%s/manifests/%s", s->ref.path, at), false, want,
                   &s->top_len, why, &unreachable);
    if (!s->top) {
        if (unreachable)
            s->fatal = *why;
        return false;
    }
    char hex[65];
    gl_sha256_hex_of(s->top, s->top_len, hex);
    snprintf(s->top_name, sizeof s->top_name, "blobs/sha256/%s", hex);
    return true;
}

/* ---- the two document callbacks of gl_image_read ---- */

static char *copy_of(const char *p, size_t n, size_t *len)
{
    char *c = xmalloc(n + 1);
    memcpy(c, p, n);
    c[n] = 0;
    *len = n;
    return c;
}

static char *index_doc(void *ctx, const char *name, size_t *len, const char **why)
{
    struct session *s = ctx;
    *why = NULL;
    if (!strcmp(name, "manifest.json"))
        return NULL;
    if (!fetch_top(s, why))
        return NULL;
    if (!strcmp(name, "index.json")) {
        char *doc = xasprintf("{\"schemaVersion\":2,\"manifests\":[{\"digest\":\"sha256:%s\"}]}",
                              s->top_name + 13);
        *len = strlen(doc);
        return doc;
    }
    if (!strcmp(name, s->top_name))
        return copy_of(s->top, s->top_len, len);
    if (!gl_has_prefix(name, "blobs/sha256/"))
        return NULL;
    bool unreachable;
    return fetch(s, gl_arena_printf(s->a, "/v2/%s/manifests/sha256:%s", s->ref.path, name + 13),
                 false, name + 13, len, why, &unreachable);
}

/* Configs in the layer-index cache, under their digest: a one-entry index whose file
 * CONFIG_ENTRY holds the config's bytes (only configs up to capture-size; stored once
 * their digest was checked). A tag is always asked of the registry (tags move); what a
 * digest names never changes. */
#define CONFIG_ENTRY ".gpulint/config.json"

static char *cached_config(struct session *s, const char *digest, size_t *len)
{
    struct gl_layer_index ix;
    gl_layer_index_init(&ix);
    char *out = NULL;
    if (s->cache_dir && gl_layer_cache_load(s->cache_dir, digest, &ix) && ix.n == 1 &&
        !strcmp(ix.entries[0].path, CONFIG_ENTRY) && ix.entries[0].content)
        out = copy_of(ix.entries[0].content, ix.entries[0].content_len, len);
    gl_layer_index_free(&ix);
    return out;
}

static void cache_config(struct session *s, const char *digest, const char *body, size_t len)
{
    if (!s->cache_dir || len > GL_CAPTURE_MAX)
        return;
    struct gl_layer_index ix;
    gl_layer_index_init(&ix);
    ix.entries = gl_arena_alloc(&ix.arena, sizeof *ix.entries);
    ix.n = ix.cap = 1;
    ix.entries[0] = (struct gl_layer_entry){.path = CONFIG_ENTRY, .size = len,
                                            .type = GL_FILE_REG, .content = body,
                                            .content_len = (uint32_t)len};
    gl_layer_cache_store(s->cache_dir, digest, &ix);
    gl_layer_index_free(&ix);
}

static char *blob_doc(void *ctx, const char *name, size_t *len, const char **why)
{
    struct session *s = ctx;
    *why = NULL;
    if (!gl_has_prefix(name, "blobs/sha256/"))
        return NULL;
    const char *digest = gl_arena_printf(s->a, "sha256:%s", name + 13);
    char *doc = gl_image_digest_valid(digest) ? cached_config(s, digest, len) : NULL;
    if (doc)
        return doc;
    bool unreachable;
    doc = fetch(s, gl_arena_printf(s->a, "/v2/%s/blobs/sha256:%s", s->ref.path, name + 13),
                true, name + 13, len, why, &unreachable);
    if (doc && gl_image_digest_valid(digest)) /* (fetch checked it against the digest) */
        cache_config(s, digest, doc, *len);
    return doc;
}

/* ---- layers as streams (--layers) ---- */

/* Resolve the blob's URL (the auth challenge answered, redirects followed: a GET cut at
 * its first byte), then stream it on a handle of its own. The session is shared by the
 * layer threads: the resolving is one at a time. */
static int layer_open(void *ctx, const char *digest, struct gl_byte_src *src, void **handle,
                      const char **why)
{
    struct session *s = ctx;
    if (!gl_has_prefix(digest, "sha256:") || !gl_image_digest_valid(digest)) {
        *why = "not a sha256 digest";
        return -1;
    }
    pthread_mutex_lock(&s->lock);
    struct gl_http_reply r;
    const char *auth_why = NULL, *url, *auth = NULL;
    int rc = request(s, gl_arena_printf(s->a, "/v2/%s/blobs/%s", s->ref.path, digest), true, 0,
                     &r, &url, &auth_why);
    if (rc != 0)
        *why = auth_why;
    else if (r.status != 200)
        *why = status_text(s, &r, auth_why), rc = -1;
    else
        auth = same_host(s, url) ? s->auth : NULL;
    gl_http_reply_free(&r);
    struct gl_http_stream *st = rc == 0 ? gl_http_stream_open(&s->http, url, auth, why) : NULL;
    pthread_mutex_unlock(&s->lock);
    if (!st)
        return -1;
    *src = gl_http_stream_src(st);
    *handle = st;
    return 0;
}

static void layer_close(void *ctx, void *handle, char *why, size_t n)
{
    (void)ctx;
    gl_http_stream_close(handle, why, n);
}

/* ---- the input ---- */

static void unreachable(struct gl_doc *doc, const char *msg)
{
    doc->error.set = true;
    doc->error.unreachable = true;
    doc->error.loc = (struct gl_loc){0, 0};
    doc->error.message = msg;
}

/* A reference through a public mirror (ref.via) is read from the mirror: the host is
 * via's first component, and a prefix proxy's upstream host leads the repository path
 * ("m.daocloud.io/docker.io" + "library/busybox"). The credentials and TLS files are
 * the mirror's. */
static void through_mirror(struct session *s)
{
    const char *slash = strchr(s->ref.via, '/');
    s->host = slash ? gl_arena_strndup(s->a, s->ref.via, (size_t)(slash - s->ref.via))
                    : s->ref.via;
    if (slash)
        s->ref.path = gl_arena_printf(s->a, "%s/%s", slash + 1, s->ref.path);
    s->ref.domain = s->host;
}

void gl_registry_read(struct gl_doc *doc, const char *path, const struct gl_config *cfg)
{
    struct session s = {.a = &doc->arena, .cfg = cfg};
    s.text = path + strlen(GL_REGISTRY_TRANSPORT);
    struct gl_imageref_error err;
    if (gl_imageref_parse(s.a, s.text, strlen(s.text), (struct gl_loc){0, 0}, &s.ref, &err) != 0 ||
        !s.ref.domain) {
        unreachable(doc, gl_arena_printf(s.a, "not an image reference: %s",
                                         s.ref.domain || !err.message ? "no registry host"
                                                                      : err.message));
        return;
    }
    if (s.ref.via) /* a mirror is asked as written: its host, the rest before the path */
        through_mirror(&s);
    else
        s.host = !strcmp(s.ref.domain, "docker.io") ? "registry-1.docker.io" : s.ref.domain;
    s.base = gl_arena_printf(s.a, "https://%s", s.host);
    struct gl_http_tls tls;
    tls_setup(&s, &tls);
    long total = cfg->timeout_ms > 0 ? cfg->timeout_ms : 30000;
    gl_http_init(&s.http, &tls, total < 10000 ? total : 10000, total, 3);
    gl_reg_creds_find(s.a, cfg->creds, s.ref.domain, s.ref.path, &s.creds);

    struct gl_image_docs src = {index_doc, blob_doc, &s, NULL, NULL};
    char cache_dir[4096];
    if (gl_layer_cache_dir(cfg, cache_dir, sizeof cache_dir))
        s.cache_dir = cache_dir;
    struct gl_layer_streams streams = {layer_open, layer_close, &s, s.cache_dir};
    if (cfg->registry_layers) /* the layers too, through the archive's reader and cache */
        src.streams = &streams;
    pthread_mutex_init(&s.lock, NULL);
    gl_image_read(doc, &src, cfg);
    pthread_mutex_destroy(&s.lock);
    if (s.fatal) {
        unreachable(doc, s.fatal);
    } else if (!doc->error.set || doc->image) {
        struct gl_ref *r = gl_ref_add(doc, s.text, (struct gl_loc){0, 0}, GL_REF_REGISTRY,
                                      false);
        r->parsed.tag_loc = r->parsed.digest_loc = r->parsed.loc = (struct gl_loc){0, 0};
    }
    gl_http_free(&s.http);
    free(s.top);
}
