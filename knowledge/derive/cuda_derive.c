/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive.c: CUDA facts from references and env; the entry point (see cuda_derive.h). */
#include "knowledge/derive/cuda_derive_internal.h"

#include "linter/core/hashmap.h"
#include "linter/core/ref/imageref.h"

#include <string.h>

/* ---- tags ---- */

/* Does the tag hold `word` between separators (`-`, `_`, `.`) or its ends? */
static bool tag_word(const char *tag, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = tag; p && (p = strstr(p, word)); p += n)
        if ((p == tag || strchr("-_.", p[-1])) && (!p[n] || strchr("-_.", p[n])))
            return true;
    return false;
}

bool gl_cuda_ref_is_jetson(const struct gl_imageref *ref)
{
    if (gl_imageref_is_docker_hub(ref) && gl_imageref_in_namespace(ref, "dustynv"))
        return true; /* dusty-nv's jetson-containers */
    /* a component l4t* or *-l4t holds "l4t": a path without it has none (most) */
    for (const char *p = ref->path && strstr(ref->path, "l4t") ? ref->path : NULL; p && *p;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if ((n >= 3 && !memcmp(p, "l4t", 3)) || (n >= 4 && !memcmp(p + n - 4, "-l4t", 4)))
            return true;
        p = slash ? slash + 1 : p + n;
    }
    /* `...-r36.4.tegra-aarch64-...`: a build for Tegra, the Jetson SoC; `v3.10.0-cuda12-igpu`
     * (Holoscan): a build for the integrated GPU of an IGX or AGX Orin, Tegra again */
    return ref->tag && (gl_has_prefix(ref->tag, "l4t") ||
                        gl_imageref_tag_has_token(ref->tag, "l4t") ||
                        tag_word(ref->tag, "tegra") || tag_word(ref->tag, "igpu"));
}

static bool is_nvidia_cuda_repo(const struct gl_imageref *ref)
{
    if (gl_imageref_is_docker_hub(ref))
        return gl_imageref_repo_has_prefix(ref, "nvidia/cuda");
    return gl_imageref_repo_is(ref, "nvcr.io/nvidia/cuda") ||
           gl_imageref_repo_is(ref, "nvcr.io/nvidia/cudagl");
}

/* The fact's position: the tag bytes [off, off+n) when they are written there, else the
 * reference itself (a tag that came through an ARG). */
static const char *role_label(const struct gl_ref *r)
{
    switch (r->role) {
    case GL_REF_FROM:
    case GL_REF_DEF_FROM: return "base tag";
    case GL_REF_ARCHIVE: return "image tag";
    default: return "image tag";
    }
}

static struct gl_cuda_fact *ref_fact(struct cd_ctx *c, size_t ri, enum gl_cuda_source kind,
                                     const char *version, const char *label,
                                     struct gl_loc loc)
{
    const struct gl_ref *r = &c->doc->refs[ri];
    struct gl_cuda_fact *f = gl_cuda_add_fact(c->doc, kind, version, label, loc);
    f->ref = (int)ri;
    f->stage = r->df_stage;
    f->launch = r->launch;
    return f;
}

/* NGC framework name: the path below nvidia/ ("pytorch", "clara/bionemo"). */
static const char *ngc_name(const struct gl_imageref *p)
{
    const char *s = p->path;
    return gl_has_prefix(s, "nvidia/") ? s + strlen("nvidia/") : s;
}

/* An image of an NGC team (`nvidia/morpheus/morpheus`, `nvidia/nemo-microservices/
 * guardrails`) is a product of its own: a YY.MM tag is that product's release (CalVer),
 * not a month of the framework containers, and it is not built on that month's CUDA base
 * (Morpheus 24.03 and 24.06 are CUDA 12.1; the 24.03 frameworks are 12.4). */
static bool ngc_team_product(const struct gl_imageref *p)
{
    return strchr(ngc_name(p), '/') != NULL;
}

/* What a reference's parsed text alone says of its CUDA (derive_ref's conclusion, before
 * any fact is added): which kind of fact, and what it needs. */
enum ref_kind { RC_NONE, RC_BASE_TAG, RC_NGC, RC_NGC_NEWER, RC_RELEASE, RC_TOKEN };
struct ref_cuda {
    enum ref_kind kind;
    size_t n;        /* RC_BASE_TAG: the version's length at the tag's start; RC_TOKEN: the
                        torch release's (pytorch/pytorch:2.3.0-cuda12.1-...), 0 for none */
    const struct gl_kb_ngc_release *rel; /* RC_NGC: its row; RC_NGC_NEWER: the newest row */
    const struct gl_kb_image_release *release; /* RC_RELEASE: the product image's row */
    unsigned major;  /* RC_NGC_NEWER: the newest row's CUDA major */
    size_t off, len; /* RC_TOKEN: the version's bytes in the tag; RC_RELEASE: the bytes the
                        row reads (the alias word of an alias row, else the whole tag) */
    char version[32]; /* RC_TOKEN: the token's CUDA version */
};

/* Is the tag's YY.MM (`27.01-py3`) a month after the table's newest? A container of a
 * later month is built on at least the newest month's CUDA major: a major-only fact
 * (judged by that major's driver floor, as the decisions of RULES.md ask). */
static bool ngc_month_after_table(const struct gl_kb *kb, const char *t, struct ref_cuda *out)
{
    const struct gl_kb_ngc_release *newest = gl_kb_ngc_newest(kb);
    bool month = gl_ngc_month_tag(t) &&
                 (t[3] == '0' ? t[4] != '0' : t[3] == '1' && t[4] <= '2');
    unsigned major;
    if (!month || !newest || !newest->cuda || strncmp(t, newest->tag, 5) <= 0 ||
        !gl_version_field(newest->cuda, 0, &major))
        return false;
    *out = (struct ref_cuda){.kind = RC_NGC_NEWER, .rel = newest, .major = major};
    return true;
}

/* The conclusion for a parsed reference with a tag (a function of p and kb only). */
static void conclude(const struct gl_kb *kb, const struct gl_imageref *p, struct ref_cuda *out)
{
    *out = (struct ref_cuda){.kind = RC_NONE};
    if (gl_cuda_ref_is_jetson(p))
        return;
    if (is_nvidia_cuda_repo(p)) {
        size_t n = gl_version_prefix_len(p->tag);
        char v[GL_IMAGEREF_TAG_MAX + 1];
        if (n && n < sizeof v && (p->tag[n] == '\0' || p->tag[n] == '-')) {
            memcpy(v, p->tag, n);
            v[n] = '\0';
            unsigned major;
            if (gl_version_valid(v) && gl_version_field(v, 0, &major) && major >= 1) {
                *out = (struct ref_cuda){.kind = RC_BASE_TAG, .n = n};
                return;
            }
        }
    }
    size_t tok_len = 0;
    long tok = gl_imageref_cuda_token(p->tag, &tok_len);
    char tok_version[32] = "";
    size_t digits = 0;
    bool have_tok = tok >= 0 && gl_cuda_token_version(p->tag + tok, tok_len, tok_version,
                                                      sizeof tok_version, &digits);
    /* a product's release image of the table (tensorrt-llm/release:1.0.0, an alias tag
       rayproject/ray:2.9.0-gpu at a release it pins): its row */
    size_t off = 0, len = 0;
    const struct gl_kb_image_release *release =
        gl_kb_image_release(kb, p->familiar, p->tag, &off, &len);
    if (release) {
        *out = (struct ref_cuda){.kind = RC_RELEASE, .release = release, .off = off, .len = len};
        return;
    }
    if (gl_imageref_in_namespace(p, "nvcr.io/nvidia") && !gl_imageref_nvidia_infra(p) &&
        !ngc_team_product(p)) {
        const struct gl_kb_ngc_release *rel = gl_kb_ngc_release(kb, p->tag);
        int same = 0;
        if (rel && rel->cuda && gl_version_valid(rel->cuda) &&
            (!have_tok || (gl_version_compare(rel->cuda, tok_version, 2, &same) && same == 0))) {
            *out = (struct ref_cuda){.kind = RC_NGC, .rel = rel};
            return;
        }
        if (!rel && ngc_month_after_table(kb, p->tag, out))
            return;
    }
    if (have_tok) {
        *out = (struct ref_cuda){.kind = RC_TOKEN, .off = (size_t)tok + digits,
                                 .len = tok_len - digits};
        memcpy(out->version, tok_version, sizeof out->version);
        size_t n = gl_version_prefix_len(p->tag);
        if (!strcmp(p->familiar, "pytorch/pytorch") && n && p->tag[n] == '-')
            out->n = n;
        return;
    }
}

/* conclude() for the built-in table, remembered per thread for the last references seen
 * (a run meets the same base images again and again; a reference's conclusion depends on
 * its text and the table alone, and the built-in table's rows never move). Each thread
 * has its own: no lock, nothing shared. A loaded table is not remembered (it may be freed
 * and another loaded at its address). */
/* A power of two (gl_hash_slot). One slot a reference text: two frequent references that
 * share a slot evict each other at every turn, so the slots are many times the distinct
 * references a corpus holds (a few dozen: 128 slots missed 400 of 1,449 look-ups on 999
 * Dockerfiles, 512 miss only the first sight of each). 512 x 272 bytes a thread. */
#define REF_MEMO_SLOTS 512
#define REF_MEMO_KEY 192
struct ref_memo_slot {
    char raw[REF_MEMO_KEY]; /* the reference text; "" for a free slot */
    struct ref_cuda rc;
};
static _Thread_local struct ref_memo_slot ref_memo[REF_MEMO_SLOTS];

static void conclude_memo(const struct gl_kb *kb, const struct gl_imageref *p,
                          struct ref_cuda *out)
{
    size_t n = p->raw ? strlen(p->raw) : 0;
    if (kb != gl_kb_builtin() || !n || n >= REF_MEMO_KEY) {
        conclude(kb, p, out);
        return;
    }
    struct ref_memo_slot *slot =
        &ref_memo[gl_hash_slot(gl_hash_bytes(p->raw, n), REF_MEMO_SLOTS)];
    if (!memcmp(slot->raw, p->raw, n + 1)) {
        *out = slot->rc;
        return;
    }
    conclude(kb, p, out);
    memcpy(slot->raw, p->raw, n + 1);
    slot->rc = *out;
}

static void derive_ref(struct cd_ctx *c, size_t ri)
{
    struct gl_doc *doc = c->doc;
    const struct gl_ref *r = &doc->refs[ri];
    /* (a compose `image:` beside `build:` is still the image that runs: RULES.md second
       round, "Image without a run") */
    if (!r->ok || r->unresolved || r->scratch || r->stage || r->local ||
        r->role == GL_REF_COPY_FROM)
        return;
    const struct gl_imageref *p = &r->parsed;
    if (!p->tag)
        return;
    struct ref_cuda rc;
    conclude_memo(c->kb, p, &rc);
    struct gl_arena *a = &doc->arena;
    switch (rc.kind) {
    case RC_NONE:
        return;
    case RC_BASE_TAG:
        ref_fact(c, ri, GL_CUDA_BASE_TAG, gl_arena_strndup(a, p->tag, rc.n),
                 CD_JOIN(a, role_label(r), " ", p->familiar, ":", p->tag),
                 gl_ref_tag_loc(r, 0, 0));
        return;
    case RC_NGC:
        ref_fact(c, ri, GL_CUDA_NGC_TAG, rc.rel->cuda,
                 CD_JOIN(a, "NGC ", ngc_name(p), " ", rc.rel->tag), gl_ref_tag_loc(r, 0, 0));
        return;
    case RC_NGC_NEWER:
        ref_fact(c, ri, GL_CUDA_NGC_TAG, gl_arena_printf(a, "%u", rc.major),
                 gl_arena_printf(a, "NGC %s %.5s, newer than the table's %s", ngc_name(p),
                                 p->tag, rc.rel->tag),
                 gl_ref_tag_loc(r, 0, 0));
        return;
    case RC_RELEASE: { /* judged as an NGC tag is: a release table's row, at the tag (at
                          the alias word of an alias row) */
        const struct gl_kb_image_release *rel = rc.release;
        ref_fact(c, ri, GL_CUDA_NGC_TAG, rel->cuda,
                 CD_JOIN(a, p->familiar, ":", p->tag, rel->base ? ", built on " : "",
                         rel->base ? rel->base : "", rel->alias ? ", whose `-" : "",
                         rel->alias ? rel->alias : "",
                         rel->alias ? "` stands for the release's CUDA image" : ""),
                 rel->alias ? gl_ref_tag_loc(r, rc.off, rc.len) : gl_ref_tag_loc(r, 0, 0));
        return;
    }
    case RC_TOKEN: {
        struct gl_cuda_fact *f =
            ref_fact(c, ri, GL_CUDA_TAG, gl_arena_strdup(a, rc.version),
                     CD_JOIN(a, role_label(r), " ", p->familiar, ":", p->tag),
                     gl_ref_tag_loc(r, rc.off, rc.len));
        if (rc.n)
            f->torch = gl_arena_strndup(a, p->tag, rc.n);
        return;
    }
    }
}

void gl_cuda_derive_ref(struct gl_doc *doc, const struct gl_kb *kb, size_t ref)
{
    if (ref >= doc->nrefs)
        return;
    struct cd_ctx c;
    cd_ctx_init(&c, doc, kb ? kb : gl_kb_builtin(), doc->text, doc->len);
    derive_ref(&c, ref);
}

/* ---- env ---- */

void gl_cuda_derive_env(struct gl_doc *doc, const struct gl_env *e)
{
    if (!e->key || !e->value)
        return;
    bool image = e->origin == GL_ENV_IMAGE_CONFIG;
    if (gl_streq(e->key, "CUDA_VERSION") && e->origin != GL_ENV_LAUNCH) {
        size_t n = gl_version_prefix_len(e->value);
        /* "12.4.1" (nvidia/cuda images); trailing text such as "-1" is not a version */
        if (!n || e->value[n] != '\0' || !gl_version_valid(e->value))
            return;
        struct gl_cuda_fact *f = gl_cuda_add_fact(
            doc, image ? GL_CUDA_IMAGE_ENV : GL_CUDA_ENV, e->value,
            image ? "image config ENV CUDA_VERSION" : "ENV CUDA_VERSION", e->value_loc);
        f->stage = e->stage;
        f->launch = e->launch;
    } else if (gl_streq(e->key, "NVIDIA_REQUIRE_CUDA") && *e->value) {
        const char *label = image ? "image config NVIDIA_REQUIRE_CUDA"
                            : e->origin == GL_ENV_LAUNCH ? "launch env NVIDIA_REQUIRE_CUDA"
                                                         : "ENV NVIDIA_REQUIRE_CUDA";
        struct gl_cuda_fact *f = gl_cuda_add_fact(doc, GL_CUDA_REQUIRE, NULL, label,
                                                  e->value_loc);
        f->require = e->value;
        f->stage = e->stage;
        f->launch = e->launch;
    }
}

/* ---- installed Python distributions ---- */

struct gl_cuda_fact *gl_cuda_derive_dist(struct gl_doc *doc, const struct gl_kb *kb,
                                         const char *name, const char *version,
                                         const char *label)
{
    if (!name || !version || !*name || !*version || strpbrk(name, " \t;[=<>") ||
        strpbrk(version, " \t;,"))
        return NULL;
    struct cd_ctx c;
    cd_ctx_init(&c, doc, kb ? kb : gl_kb_builtin(), NULL, 0);
    const char *spec = gl_arena_printf(&doc->arena, "%s==%s", name, version);
    struct gl_cuda_fact *f = cd_pkg_spec(&c, GL_PKG_PIP, spec, (struct gl_loc){0, 0}, -1);
    if (f)
        f->label = label;
    return f;
}

/* ---- entry ---- */

void gl_cuda_derive(struct gl_doc *doc, const struct gl_config *cfg)
{
    if (doc->error.set)
        return;
    struct cd_ctx c;
    cd_ctx_init(&c, doc, cfg && cfg->kb ? cfg->kb : gl_kb_builtin(), doc->text, doc->len);
    for (size_t i = 0; i < doc->nrefs; i++)
        derive_ref(&c, i);
    for (size_t i = 0; i < doc->nenv; i++)
        gl_cuda_derive_env(doc, &doc->env[i]);
    if (doc->df) {
        cd_derive_runfiles(&c);
        cd_derive_pkgs(&c);
        cd_derive_requirements(&c);
    }
}
