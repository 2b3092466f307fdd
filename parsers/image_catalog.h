/*
 * image_catalog.h: the entries of an image archive or OCI layout directory, read once.
 *
 * gl_catalog_open() learns what an input holds without ever holding a layer in memory:
 *  - a plain tar in a regular file (docker save, skopeo oci-archive/docker-archive): one
 *    pass over the headers that seeks past the data, recording each entry's data offset
 *    and size, and reading the small JSON documents (manifest.json, index.json, configs,
 *    manifests) into memory; layers are then read later, in parallel, with pread;
 *  - an OCI layout directory: blobs are files, read on demand;
 *  - anything else (stdin, a .tar.gz / .tar.zst outer archive): one streaming pass in
 *    whatever entry order, keeping the JSON documents and indexing each layer as it goes
 *    by (its sha256 computed on the way; a layer whose digest is in the cache is skipped).
 * Symlinked entries (docker save's shared layers) are resolved inside the archive only.
 * JSON blobs stored under blobs/<algo>/<hex> are checked against their digest.
 * Errors name the entry ("entry 7 `blobs/sha256/ab..`: ..."); see `error`.
 */
#ifndef GPULINT_IMAGE_CATALOG_H
#define GPULINT_IMAGE_CATALOG_H

#include "linter/config.h"
#include "parsers/image_layer.h"

#define GL_JSON_MAX (16u << 20)

enum gl_catalog_mode { GL_CAT_SEEKABLE, GL_CAT_DIR, GL_CAT_STREAM };

struct gl_catalog_blob {
    const char *name;          /* normalized path inside the archive / directory */
    const char *link;          /* symlink target resolved against the entry's dir, or NULL */
    size_t entry;              /* 1-based position in the archive */
    uint64_t off, size;        /* GL_CAT_SEEKABLE: where the data is */
    char *json; size_t json_len;    /* small JSON documents */
    struct gl_layer_index *ix;      /* GL_CAT_STREAM: the layer, indexed as it passed */
};

struct gl_catalog {
    enum gl_catalog_mode mode;
    struct gl_arena *a;        /* the doc's arena */
    const char *path;
    int fd;                    /* GL_CAT_SEEKABLE: the archive, else -1 */
    uint64_t file_size;        /* GL_CAT_SEEKABLE: its size */
    const char *cache_dir;     /* NULL: no cache */
    bool trust_digests;        /* layers are not hashed, nor cached (--trust-digests) */
    struct gl_catalog_blob **blobs; size_t n, cap; /* each blob stays where it is */
    const char *error;
};

/* Open and catalog `path` ("-": standard input, of which `head` was already read).
 * cache_dir: the layer-index cache, or NULL; trust_digests: see struct gl_catalog. */
void gl_catalog_open(struct gl_catalog *c, struct gl_arena *a, const char *path,
                     const void *head, size_t head_len, const char *cache_dir,
                     bool trust_digests);
void gl_catalog_close(struct gl_catalog *c);

/* The blob at `name`, following symlinks (bounded); NULL when absent. */
struct gl_catalog_blob *gl_catalog_find(struct gl_catalog *c, const char *name);
/* The JSON document at `name` (for gl_image_plan_resolve), NULL when absent. */
const char *gl_catalog_json(void *catalog, const char *name, size_t *len);

/* Is the head of a file (its first bytes) an archive gpulint reads as an image:
 * tar ("ustar" at 257), gzip or zstd? */
bool gl_image_head_is_archive(const unsigned char *p, size_t n);
/* Is dir an OCI image layout (it holds an `oci-layout` file)? */
bool gl_image_dir_is_layout(const char *dir);

#endif
