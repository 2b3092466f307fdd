/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_manifest.h: what an image archive's JSON documents say (image_json.h).
 *
 * An archive names its images in one of two ways: Docker's `manifest.json` (a list of
 * {Config, RepoTags, Layers} with blob paths inside the archive) or an OCI `index.json`
 * (descriptors of manifests or nested indexes, by digest, with platforms and annotations).
 * gl_image_plan_resolve() reads manifest.json when there is one, else index.json, and
 * produces one gl_image_target per image: its config blob, its layers (blob path, digest,
 * media type), its platforms and its tags. Documents are fetched through a callback by
 * their path in the archive ("blobs/sha256/<hex>" for OCI), one at a time, and released
 * once read. What is no image is skipped without a word: buildx's attestation manifests
 * (platform unknown/unknown) and artifacts kept beside the images (cosign signatures and
 * attestations, SBOMs: an `artifactType`, or layers none of which is a tar).
 *
 * Fan-out and deduplication: every document is read at most once, however often it is
 * named. An index named again adds nothing. A manifest (or, in manifest.json, a config)
 * named again is the same target: it is linted once, and the platforms of every
 * descriptor that names it are its platform, "linux/arm64, linux/arm64/v8" (distinct
 * names in index order; past four, "and N more"); their tags are added to it.
 *
 * Limits (linter/core/limits.h), each a GL900 naming it: a document larger than
 * `image-json-size` or nested deeper than `nesting-depth` is refused; indexes nested
 * deeper than `image-index-depth` are not followed; past `image-manifests` distinct
 * manifests the walk stops; a manifest of more than `image-layers` layers is refused.
 * Long names: a tag (an index's ref.name / io.containerd.image.name annotation, a
 * RepoTags entry) or a blob path longer than `name-length` is never kept: the tag is
 * dropped, the image that names such a blob is refused; either is a GL900 saying so.
 *
 * Fault isolation: what goes wrong below index.json / manifest.json (a missing, corrupt
 * or refused manifest, a nested index too deep, a limit) is a problem of the platform
 * that descriptor names (`problems`: one GL900 each); the other platforms are resolved.
 * Only an unreadable index.json / manifest.json fails the whole input (`error`).
 */
#ifndef GPULINT_IMAGE_MANIFEST_H
#define GPULINT_IMAGE_MANIFEST_H

#include "linter/core/limits.h"
#include "linter/core/model.h"

/* The JSON document at `name`, in a heap buffer the caller frees (NUL-terminated), or
 * NULL: *why is then NULL when the archive has no such document, else why it was
 * refused ("... the limit `image-json-size` ...", a digest mismatch). */
typedef char *(*gl_blob_fetch)(void *ctx, const char *name, size_t *len, const char **why);

struct gl_image_layer_ref {
    const char *name;        /* blob path in the archive */
    const char *digest;      /* descriptor digest (OCI), else the config's diff_id, or NULL */
    const char *media_type;  /* NULL when unknown (docker manifest.json) */
};

struct gl_image_target {
    const char *platform;    /* "linux/amd64" (see above), or NULL: the config says */
    const char *manifest;    /* the manifest's digest, or "manifest.json[i]": messages */
    const char *config_name;
    struct gl_image_layer_ref *layers; size_t nlayers;
    const char **tags; size_t ntags, captags;
    const char *named[4]; size_t nnamed, more_named; /* platforms of its descriptors */
};

struct gl_image_plan {
    struct gl_image_target *targets; size_t ntargets, cap;
    struct gl_image_problem *problems; size_t nproblems, capproblems;
    const char *error;       /* NULL, or why the archive's images could not be resolved */
    bool not_image;          /* the archive holds no image at all (no manifest or index) */
};

/* Is `digest` an OCI digest "<algorithm>:<encoded>" (algorithm: lowercase components
 * joined by + . _ -; encoded: [A-Za-z0-9=_-]; sha256 / sha512: lowercase hex of their
 * length)? Nothing else becomes a blob path. */
bool gl_image_digest_valid(const char *digest);
/* Blob path of a valid digest ("sha256:ab.." -> "blobs/sha256/ab.."), else NULL. */
const char *gl_image_blob_path(struct gl_arena *a, const char *digest);
/* gl_limit_message() of a limit, into the arena. */
const char *gl_image_limit_text(struct gl_arena *a, enum gl_limit_id id);
/* A name as messages quote it: itself, or for a long one its first 64 bytes, "..." and
 * its length. */
const char *gl_image_quote(struct gl_arena *a, const char *name);

/* `only_platform`: keep that platform only ("linux/amd64"; NULL = all). */
void gl_image_plan_resolve(struct gl_arena *a, gl_blob_fetch fetch, void *ctx,
                           const char *only_platform, struct gl_image_plan *plan);
/* Add a problem to the plan. */
void gl_image_plan_problem(struct gl_arena *a, struct gl_image_plan *plan,
                           const char *platform, const char *message);

struct gl_image_config {
    const char *platform;    /* os/arch[/variant] */
    const char **env; size_t nenv;
    const char **created_by; size_t ncreated_by;  /* every history entry */
    bool *empty_layer;                            /* per history entry */
    const char **diff_ids; size_t ndiff_ids;
    /* the history as facts (image_history.h), once the image reader has read it */
    struct gl_image_history *history; size_t nhistory;
    struct gl_dockerfile_model *run;
};

/* 0, or -1 with *error set (a JSON error names its byte, or the limit). */
int gl_image_config_parse(struct gl_arena *a, const char *json, size_t len,
                          struct gl_image_config *out, const char **error);

/* Check a fetched document as JSON (nesting-depth limit): NULL, or what is wrong. */
const char *gl_image_json_error(struct gl_arena *a, const char *json, size_t len);

#endif
