/*
 * image_manifest.h: what an image archive's JSON documents say (json-c).
 *
 * An archive names its images in one of two ways: Docker's `manifest.json` (a list of
 * {Config, RepoTags, Layers} with blob paths inside the archive) or an OCI `index.json`
 * (descriptors of manifests or nested indexes, by digest, with platforms and annotations).
 * gl_image_plan_resolve() reads either (index.json first when both are there and it
 * resolves; Docker's RepoTags are merged in) and produces one gl_image_target per image
 * platform: its config blob, its layers (blob path, digest, media type) and its tags.
 * Blobs are fetched through a callback by their path in the archive
 * ("blobs/sha256/<hex>" for OCI). Nested indexes are followed to a fixed depth.
 * gl_image_config_parse() reads a config blob: platform, Env, history.
 * Errors are messages naming the document and what was expected.
 */
#ifndef GPULINT_IMAGE_MANIFEST_H
#define GPULINT_IMAGE_MANIFEST_H

#include "linter/util.h"

/* Returns the bytes of the blob at `name` (NUL-terminated, owned by the caller of the
 * plan), or NULL when the archive has no such small document. */
typedef const char *(*gl_blob_fetch)(void *ctx, const char *name, size_t *len);

struct gl_image_layer_ref {
    const char *name;        /* blob path in the archive */
    const char *digest;      /* descriptor digest (OCI), else the config's diff_id, or NULL */
    const char *media_type;  /* NULL when unknown (docker manifest.json) */
};

struct gl_image_target {
    const char *platform;    /* "linux/amd64" from the index or the config, or NULL */
    const char *config_name;
    struct gl_image_layer_ref *layers; size_t nlayers;
    const char **tags; size_t ntags;
};

struct gl_image_plan {
    struct gl_image_target *targets; size_t ntargets, cap;
    const char *error;       /* NULL, or why the archive's images could not be resolved */
    bool not_image;          /* the archive holds no image at all (no manifest or index) */
};

/* Blob path of an OCI digest ("sha256:ab.." -> "blobs/sha256/ab.."), NULL if malformed. */
const char *gl_image_blob_path(struct gl_arena *a, const char *digest);

/* `only_platform`: keep that platform only ("linux/amd64"; NULL = all). */
void gl_image_plan_resolve(struct gl_arena *a, gl_blob_fetch fetch, void *ctx,
                           const char *only_platform, struct gl_image_plan *plan);

struct gl_image_config {
    const char *platform;    /* os/arch[/variant] */
    const char **env; size_t nenv;
    const char **created_by; size_t ncreated_by;  /* every history entry */
    bool *empty_layer;                            /* per history entry */
    const char **diff_ids; size_t ndiff_ids;
};

/* 0, or -1 with *error set. */
int gl_image_config_parse(struct gl_arena *a, const char *json, size_t len,
                          struct gl_image_config *out, const char **error);

#endif
