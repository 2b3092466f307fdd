/* SPDX-License-Identifier: Apache-2.0 */
/* imageref.c: container image reference parsing and matching (see imageref.h). */
#include "linter/core/ref/imageref.h"
#include "linter/core/hashmap.h"
#include "linter/core/ref/docker_official.h"
#include "linter/core/ref/registry_mirrors.h"

#include <string.h>

#define DEFAULT_DOMAIN "docker.io"
#define LEGACY_DEFAULT_DOMAIN "index.docker.io"
#define OFFICIAL_REPO_PREFIX "library/"
#define OFFICIAL_REPO_PREFIX_LEN (sizeof OFFICIAL_REPO_PREFIX - 1)

#define MSG_FORMAT "invalid reference format"
#define MSG_EMPTY "invalid reference format: repository name must have at least one component"
#define MSG_HEX_ID "invalid repository name: cannot specify 64-byte hexadecimal strings"
#define MSG_LOWERCASE "invalid reference format: repository name must be lowercase"
#define MSG_TOO_LONG "invalid reference format: repository name must not be more than 255 characters"
#define MSG_DOMAIN "invalid reference format: expected a registry host[:port] before the first '/'"
#define MSG_PATH_COMPONENT "invalid reference format: expected a path component ([a-z0-9] after '/' or at the start)"
#define MSG_SEPARATOR "invalid reference format: expected [a-z0-9] after a separator ('.', '_', '__', '-')"
#define MSG_NAME_END "invalid reference format: expected ':' (tag), '@' (digest) or end after the name"
#define MSG_TAG_EMPTY "invalid reference format: tag must not be empty"
#define MSG_TAG_CHAR "invalid reference format: tag may only hold [A-Za-z0-9_.-] and must not start with '.' or '-'"
#define MSG_TAG_LONG "invalid reference format: tag must not be more than 128 characters"
#define MSG_DIGEST_ALGO "invalid reference format: expected a digest algorithm like 'sha256:'"
#define MSG_DIGEST_HEX "invalid reference format: digest must be at least 32 hex digits"
#define MSG_DIGEST_UNSUPPORTED "unsupported digest algorithm (expected sha256, sha384 or sha512)"
#define MSG_DIGEST_LENGTH "invalid checksum digest length"
#define MSG_DIGEST_CASE "invalid checksum digest format: hex digits must be lowercase"

/* ---- character classes (ASCII only: every other byte is outside the grammar) ---- */

static bool is_lower_alnum(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
static bool is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static bool is_alnum(unsigned char c) { return is_lower_alnum(c) || is_upper(c); }
static bool is_word(unsigned char c) { return is_alnum(c) || c == '_'; }
static bool is_hex(unsigned char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static bool is_lower_hex(unsigned char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }

/* Result of one scanner: the end offset on success, or the first bad offset. */
struct scan {
    bool ok;
    size_t pos; /* end when ok, first bad byte otherwise */
    const char *message;
};

static struct scan scan_ok(size_t end) { return (struct scan){true, end, NULL}; }
static struct scan scan_bad(size_t pos, const char *message)
{
    return (struct scan){false, pos, message};
}

static bool span_eq(const char *s, size_t len, const char *lit)
{
    return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* ---- grammar pieces; each scans s[from..end) ---- */

/* domain := (domain-name | "[" ipv6 "]") [":" digits], which must fill s[from..end). */
static struct scan scan_domain(const char *s, size_t from, size_t end)
{
    size_t i = from;
    if (i < end && s[i] == '[') {
        size_t start = ++i;
        while (i < end && (is_hex((unsigned char)s[i]) || s[i] == ':'))
            i++;
        if (i == start || i >= end || s[i] != ']')
            return scan_bad(i, MSG_DOMAIN);
        i++;
    } else {
        for (;;) {
            if (i >= end || !is_alnum((unsigned char)s[i]))
                return scan_bad(i, MSG_DOMAIN);
            while (i < end && (is_alnum((unsigned char)s[i]) || s[i] == '-'))
                i++;
            if (s[i - 1] == '-')
                return scan_bad(i - 1, MSG_DOMAIN);
            if (i < end && s[i] == '.') {
                i++;
                continue;
            }
            break;
        }
    }
    if (i < end && s[i] == ':') {
        size_t start = ++i;
        while (i < end && is_digit((unsigned char)s[i]))
            i++;
        if (i == start)
            return scan_bad(i, MSG_DOMAIN);
    }
    if (i != end)
        return scan_bad(i, MSG_DOMAIN);
    return scan_ok(i);
}

static bool is_path_char(unsigned char c, bool allow_upper)
{
    return is_lower_alnum(c) || (allow_upper && is_upper(c));
}

/* One path component from `from`; with allow_upper, A-Z count as [a-z] (used to tell a
 * would-be domain that is really a path component). Stops at the first byte that cannot
 * continue the component. */
static struct scan scan_path_component(const char *s, size_t from, size_t len, bool allow_upper)
{
    size_t i = from;
    if (i >= len || !is_path_char((unsigned char)s[i], allow_upper))
        return scan_bad(i, MSG_PATH_COMPONENT);
    while (i < len && is_path_char((unsigned char)s[i], allow_upper))
        i++;
    while (i < len && (s[i] == '.' || s[i] == '_' || s[i] == '-')) {
        if (s[i] == '.') {
            i++;
        } else if (s[i] == '_') {
            i++;
            if (i < len && s[i] == '_')
                i++;
        } else {
            while (i < len && s[i] == '-')
                i++;
        }
        if (i >= len || !is_path_char((unsigned char)s[i], allow_upper))
            return scan_bad(i, MSG_SEPARATOR);
        while (i < len && is_path_char((unsigned char)s[i], allow_upper))
            i++;
    }
    return scan_ok(i);
}

/* path := component ("/" component)*; ends at the first byte after the last component. */
static struct scan scan_path(const char *s, size_t from, size_t len)
{
    size_t i = from;
    for (;;) {
        struct scan c = scan_path_component(s, i, len, false);
        if (!c.ok)
            return c;
        i = c.pos;
        if (i < len && s[i] == '/') {
            i++;
            continue;
        }
        return scan_ok(i);
    }
}

/* tag := [\w][\w.-]{0,127}, ending at '@' or the end. */
static struct scan scan_tag(const char *s, size_t from, size_t len)
{
    size_t i = from;
    if (i >= len || s[i] == '@')
        return scan_bad(i, MSG_TAG_EMPTY);
    if (!is_word((unsigned char)s[i]))
        return scan_bad(i, MSG_TAG_CHAR);
    while (i < len && (is_word((unsigned char)s[i]) || s[i] == '.' || s[i] == '-')) {
        if (i - from == GL_IMAGEREF_TAG_MAX)
            return scan_bad(i, MSG_TAG_LONG);
        i++;
    }
    if (i < len && s[i] != '@')
        return scan_bad(i, MSG_TAG_CHAR);
    return scan_ok(i);
}

/* digest := algo ":" hex, to the end of s; then go-digest's checks of the algorithm and
 * the encoded length and case. */
static struct scan scan_digest(const char *s, size_t from, size_t len)
{
    size_t i = from;
    /* algorithm: [A-Za-z][A-Za-z0-9]* ([-_+.][A-Za-z][A-Za-z0-9]*)* */
    for (;;) {
        if (i >= len || !(is_upper((unsigned char)s[i]) || (s[i] >= 'a' && s[i] <= 'z')))
            return scan_bad(i, MSG_DIGEST_ALGO);
        while (i < len && is_alnum((unsigned char)s[i]))
            i++;
        if (i < len && (s[i] == '-' || s[i] == '_' || s[i] == '+' || s[i] == '.')) {
            i++;
            continue;
        }
        break;
    }
    if (i >= len || s[i] != ':')
        return scan_bad(i, MSG_DIGEST_ALGO);
    size_t algo_end = i++;
    size_t hex_start = i;
    while (i < len && is_hex((unsigned char)s[i]))
        i++;
    if (i < len)
        return scan_bad(i, i - hex_start < 32 ? MSG_DIGEST_HEX : MSG_FORMAT);
    size_t hex_len = i - hex_start;
    if (hex_len < 32)
        return scan_bad(i, MSG_DIGEST_HEX);

    size_t want;
    if (span_eq(s + from, algo_end - from, "sha256"))
        want = 64;
    else if (span_eq(s + from, algo_end - from, "sha384"))
        want = 96;
    else if (span_eq(s + from, algo_end - from, "sha512"))
        want = 128;
    else
        return scan_bad(from, MSG_DIGEST_UNSUPPORTED);
    if (hex_len != want)
        return scan_bad(hex_start, MSG_DIGEST_LENGTH);
    for (i = hex_start; i < len; i++)
        if (!is_lower_hex((unsigned char)s[i]))
            return scan_bad(i, MSG_DIGEST_CASE);
    return scan_ok(len);
}

/* ---- the parse ---- */

static uint32_t col_add(uint32_t col, size_t offset)
{
    if (offset >= (size_t)(UINT32_MAX - col))
        return UINT32_MAX;
    return col + (uint32_t)offset;
}

static struct gl_loc loc_at(struct gl_loc loc, size_t offset)
{
    return (struct gl_loc){loc.line, col_add(loc.col, offset)};
}

static bool is_hex_identifier(const char *s, size_t len)
{
    if (len != 64)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!is_lower_hex((unsigned char)s[i]))
            return false;
    return true;
}

/* splitDockerDomain: is s[0..slash) taken as a domain? */
static bool looks_like_domain(const char *s, size_t slash)
{
    if (span_eq(s, slash, "localhost"))
        return true;
    for (size_t i = 0; i < slash; i++)
        if (s[i] == '.' || s[i] == ':' || is_upper((unsigned char)s[i]))
            return true;
    return false;
}

/* What the scan decided, as offsets into s. */
struct ref_spans {
    bool has_domain;        /* domain text is s[0..domain_end) */
    bool hub_domain;        /* the domain is Docker Hub (none given, docker.io, index...) */
    bool official;          /* a one-component Docker Hub path: "library/" is prepended */
    size_t domain_end;
    size_t path_start, path_end;
    bool has_tag, has_digest;
    size_t tag_start, tag_end, digest_start;
    /* A public mirror (registry_mirrors.h) holds the image: s[0..via_end) names the mirror
     * ("docker.m.daocloud.io", "m.daocloud.io/nvcr.io"; 0: none) and the domain is the
     * upstream registry: `upstream`, or s[up_start..via_end) behind a prefix proxy. */
    size_t via_end, up_start;
    const char *upstream;
};

/* The domain s[0..domain_end) is a known public mirror: the upstream registry becomes the
 * domain, and behind a prefix proxy the upstream host (the path's first component, which
 * must then look like a domain and scan as one) leaves the path. Docker reads the
 * reference as the mirror's own (scan_reference judges it so): the upstream host is a
 * component of its path, so one that is no path component (`localhost:5000`, `[::1]`)
 * names no mirror, and the path scan refuses it as docker does. */
static void through_mirror(const char *s, size_t len, struct ref_spans *r)
{
    size_t end = r->domain_end;
    const char *up = gl_registry_mirror_of(s, end);
    if (up) {
        r->via_end = end;
        r->upstream = up;
        r->hub_domain = !strcmp(up, DEFAULT_DOMAIN);
        return;
    }
    if (!gl_registry_prefix_proxy(s, end))
        return;
    const char *slash = memchr(s + end + 1, '/', len - end - 1);
    size_t b = end + 1, e = slash ? (size_t)(slash - s) : 0;
    if (!slash || !looks_like_domain(s + b, e - b) || !scan_domain(s, b, e).ok)
        return;
    struct scan c = scan_path_component(s, b, e, false);
    if (!c.ok || c.pos != e)
        return;
    r->via_end = e;
    r->up_start = b;
    r->path_start = e + 1;
    r->hub_domain = span_eq(s + b, e - b, DEFAULT_DOMAIN) ||
                    span_eq(s + b, e - b, LEGACY_DEFAULT_DOMAIN);
}

static struct scan scan_reference(const char *s, size_t len, struct ref_spans *r)
{
    memset(r, 0, sizeof *r);
    if (len == 0)
        return scan_bad(0, MSG_EMPTY);
    if (is_hex_identifier(s, len))
        return scan_bad(0, MSG_HEX_ID);

    /* 1. Split off the domain the way splitDockerDomain does. */
    const char *slash = memchr(s, '/', len);
    size_t first_end = slash ? (size_t)(slash - s) : 0;
    bool domain_like = slash && looks_like_domain(s, first_end);
    r->hub_domain = true;
    r->path_start = domain_like ? first_end + 1 : 0;

    /* 2. ParseNormalizedNamed: the remote name (up to the first ':') must be lowercase. */
    for (size_t i = r->path_start; i < len && s[i] != ':'; i++)
        if (is_upper((unsigned char)s[i]))
            return scan_bad(i, MSG_LOWERCASE);

    /* 3. Validate the domain (Parse); a non-domain may still be a path component. */
    if (domain_like) {
        struct scan d = scan_domain(s, 0, first_end);
        if (d.ok) {
            r->has_domain = true;
            r->domain_end = first_end;
            r->hub_domain = span_eq(s, first_end, DEFAULT_DOMAIN) ||
                            span_eq(s, first_end, LEGACY_DEFAULT_DOMAIN);
            through_mirror(s, len, r);
        } else {
            struct scan p = scan_path_component(s, 0, first_end, true);
            if (!p.ok || p.pos != first_end)
                return d;
            for (size_t i = 0; i < first_end; i++)
                if (is_upper((unsigned char)s[i]))
                    return scan_bad(i, MSG_LOWERCASE);
            r->hub_domain = false;
            r->path_start = 0;
        }
    }

    /* 4. The path, and its normalized length: docker's, whose path through a mirror is
     *    the mirror's (a prefix proxy's upstream host leads it, no `library/` is added). */
    struct scan p = scan_path(s, r->path_start, len);
    if (!p.ok)
        return p;
    r->path_end = p.pos;
    r->official = r->hub_domain && !memchr(s + r->path_start, '/', r->path_end - r->path_start);
    size_t from = r->up_start ? r->up_start : r->path_start;
    size_t prefix = r->official && !r->via_end ? OFFICIAL_REPO_PREFIX_LEN : 0;
    if (prefix + (r->path_end - from) > GL_IMAGEREF_PATH_MAX)
        return scan_bad(from + GL_IMAGEREF_PATH_MAX - prefix, MSG_TOO_LONG);

    /* 5. Tag and digest. */
    size_t i = r->path_end;
    if (i < len && s[i] == ':') {
        struct scan t = scan_tag(s, i + 1, len);
        if (!t.ok)
            return t;
        r->has_tag = true;
        r->tag_start = i + 1;
        r->tag_end = t.pos;
        i = t.pos;
    }
    if (i < len && s[i] == '@') {
        struct scan d = scan_digest(s, i + 1, len);
        if (!d.ok)
            return d;
        r->has_digest = true;
        r->digest_start = i + 1;
        i = len;
    }
    if (i < len)
        return scan_bad(i, MSG_NAME_END);
    return scan_ok(len);
}

/* scan_reference, remembered per thread for the last references scanned (a run meets the
 * same base images in file after file, and a scan depends on the bytes alone): a slot a
 * hash of the bytes picks, taken only when its bytes are the same. _Thread_local: no lock,
 * nothing shared between the workers. What is built from the scan (the arena strings) is
 * built every time, so the arena is charged as before. */
#define SCAN_MEMO_SLOTS 256 /* a power of two (gl_hash_slot) */
#define SCAN_MEMO_KEY 128
struct scan_memo_slot {
    size_t len; /* 0: free */
    char s[SCAN_MEMO_KEY];
    struct scan result;
    struct ref_spans spans;
};
static _Thread_local struct scan_memo_slot scan_memo[SCAN_MEMO_SLOTS];

static struct scan scan_reference_memo(const char *s, size_t len, struct ref_spans *r)
{
    if (!len || len > SCAN_MEMO_KEY)
        return scan_reference(s, len, r);
    struct scan_memo_slot *slot = &scan_memo[gl_hash_slot(gl_hash_bytes(s, len), SCAN_MEMO_SLOTS)];
    if (slot->len == len && !memcmp(slot->s, s, len)) {
        *r = slot->spans;
        return slot->result;
    }
    struct scan result = scan_reference(s, len, r);
    slot->len = len;
    memcpy(slot->s, s, len);
    slot->result = result;
    slot->spans = *r;
    return result;
}

static const char *familiar_name(struct gl_arena *a, const struct gl_imageref *ref)
{
    if (!ref->domain)
        return ref->path;
    if (strcmp(ref->domain, DEFAULT_DOMAIN) != 0)
        return gl_arena_cat3(a, ref->domain, strlen(ref->domain), "/", 1, ref->path,
                             strlen(ref->path));
    const char *short_path = ref->path + OFFICIAL_REPO_PREFIX_LEN;
    if (gl_has_prefix(ref->path, OFFICIAL_REPO_PREFIX) && !strchr(short_path, '/'))
        return short_path;
    return ref->path;
}

int gl_imageref_parse(struct gl_arena *a, const char *s, size_t len, struct gl_loc loc,
                      struct gl_imageref *out, struct gl_imageref_error *err)
{
    memset(out, 0, sizeof *out);
    out->loc = loc;
    if (err)
        memset(err, 0, sizeof *err);

    struct ref_spans r;
    struct scan result = scan_reference_memo(s, len, &r);
    if (!result.ok) {
        if (err) {
            err->offset = result.pos;
            err->loc = loc_at(loc, result.pos);
            err->message = result.message;
        }
        return -1;
    }

    out->raw = gl_arena_strndup(a, s, len);
    if (r.hub_domain)
        out->domain = gl_arena_strdup(a, DEFAULT_DOMAIN);
    else if (r.upstream)
        out->domain = gl_arena_strdup(a, r.upstream);
    else if (r.via_end)
        out->domain = gl_arena_strndup(a, s + r.up_start, r.via_end - r.up_start);
    else if (r.has_domain)
        out->domain = gl_arena_strndup(a, s, r.domain_end);
    out->path = gl_arena_cat3(a, OFFICIAL_REPO_PREFIX, r.official ? OFFICIAL_REPO_PREFIX_LEN : 0,
                              s + r.path_start,
                              strnlen(s + r.path_start, r.path_end - r.path_start), "", 0);
    if (r.has_tag) {
        out->tag = gl_arena_strndup(a, s + r.tag_start, r.tag_end - r.tag_start);
        out->tag_loc = loc_at(loc, r.tag_start);
    }
    if (r.has_digest) {
        out->digest = gl_arena_strndup(a, s + r.digest_start, len - r.digest_start);
        out->digest_loc = loc_at(loc, r.digest_start);
    }
    out->familiar = familiar_name(a, out);
    out->exact = true;
    return 0;
}

/* Is the domain s[0, n) (a port allowed) a cluster's own registry, which serves only the
 * images the cluster's builds push (OpenShift's image streams: 4.x's
 * `image-registry.openshift-image-registry.svc`, 3.x's `docker-registry.default.svc`)? */
static bool cluster_registry(const char *s, size_t n)
{
    static const char *const hosts[] = {"image-registry.openshift-image-registry.svc",
                                        "docker-registry.default.svc"};
    const char *colon = memchr(s, ':', n);
    size_t host = colon ? (size_t)(colon - s) : n;
    for (size_t k = 0; k < sizeof hosts / sizeof hosts[0]; k++)
        if (span_eq(s, host, hosts[k]))
            return true;
    return false;
}

bool gl_imageref_text_local_only(const char *s, size_t len)
{
    struct ref_spans r;
    if (!scan_reference_memo(s, len, &r).ok)
        return false;
    if (!r.hub_domain)
        return r.has_domain && cluster_registry(s, r.domain_end);
    const char *name = s + r.path_start;
    size_t n = r.path_end - r.path_start;
    if (!r.official) { /* written `library/NAME` */
        if (n <= OFFICIAL_REPO_PREFIX_LEN || memcmp(name, OFFICIAL_REPO_PREFIX,
                                                    OFFICIAL_REPO_PREFIX_LEN))
            return false;
        name += OFFICIAL_REPO_PREFIX_LEN;
        n -= OFFICIAL_REPO_PREFIX_LEN;
        if (memchr(name, '/', n))
            return false;
    }
    return !gl_docker_official(name, n);
}

bool gl_imageref_valid(const char *s, size_t len)
{
    struct ref_spans r;
    return scan_reference_memo(s, len, &r).ok;
}

size_t gl_imageref_via_len(const char *s, size_t len)
{
    struct ref_spans r;
    return scan_reference_memo(s, len, &r).ok ? r.via_end : 0;
}

/* Does the byte c end a reference as written (what strchr(" \t\r\n\"'", c) found: NUL too)? */
static bool ref_text_end(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '"' || c == '\'' || c == 0;
}

struct gl_ref *gl_ref_add(struct gl_doc *doc, const char *text, struct gl_loc loc,
                          enum gl_ref_role role, bool unresolved)
{
    struct gl_ref *r = GL_APPEND(&doc->arena, doc->refs, doc->nrefs, doc->caprefs);
    memset(r, 0, sizeof *r);
    r->text = text;
    r->loc = loc;
    r->role = role;
    r->unresolved = unresolved;
    r->df_stage = -1;
    r->launch = -1;
    r->parsed.loc = loc;
    size_t n = 0;
    if (!unresolved && text) {
        n = strlen(text);
        r->ok = gl_imageref_parse(&doc->arena, text, n, loc, &r->parsed, NULL) == 0;
    }
    size_t at = gl_doc_offset(doc, loc);
    bool exact = r->ok && gl_doc_text_is(doc, at, text, n); /* as written in the file */
    if (at != SIZE_MAX) {
        /* The written reference runs to the first ref_text_end byte. A reference that
         * parsed holds none (the grammar has no blank, quote or NUL), so when it stands
         * there as written the search starts after it. */
        size_t end = exact ? at + n : at;
        while (end < doc->len && !ref_text_end(doc->text[end]))
            end++;
        r->written = doc->text + at;
        r->written_len = end - at;
    }
    if (r->ok && !exact) {
        r->parsed.exact = false;
        if (r->parsed.tag)
            r->parsed.tag_loc = loc;
        if (r->parsed.digest)
            r->parsed.digest_loc = loc;
    }
    return r;
}
