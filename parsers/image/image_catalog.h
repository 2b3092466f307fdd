/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_catalog.h: the entries of an image archive or OCI layout directory, read once.
 *
 * gl_catalog_open() learns what an input holds without ever holding a layer in memory:
 *  - a plain tar in a regular file (docker save, skopeo oci-archive/docker-archive): one
 *    pass over the headers that seeks past all data, recording each entry's data offset
 *    and size. Nothing else is read then: a JSON document is read when the plan asks for
 *    it (gl_catalog_json), a layer when a job indexes it (image_jobs.h). A blob no
 *    manifest names is never read, hashed or decompressed.
 *  - an OCI layout directory: blobs are files, opened on demand below the directory's
 *    descriptor, one path component at a time (openat with O_NOFOLLOW; every component
 *    but the last a directory, the last a regular file). Only `index.json`,
 *    `manifest.json`, `oci-layout` and `blobs/<algorithm>/<encoded>` of a valid digest
 *    are ever opened: no `..`, absolute path or symbolic link leads out of the layout.
 *  - anything else (stdin, a .tar.gz / .tar.zst outer archive): one streaming pass in
 *    whatever entry order. Since the documents that name blobs may come last, the JSON
 *    documents (each at most `image-json-size`) are kept as they pass, and each layer is
 *    indexed as it goes by (its sha256 computed on the way; a layer whose digest is in the
 *    cache is skipped): in a stream, a layer no manifest names is still read.
 * Symlinked entries (docker save's shared layers) are resolved inside the archive only;
 * a blob name is only ever looked up among the archive's entries, never joined into a
 * filesystem path. JSON blobs stored under blobs/sha256/<hex> are checked against their
 * digest when read.
 * Limits (linter/core/limits.h): `archive-entries` entries, each name at most `name-length`
 * bytes, and what the entries keep (their names; in a stream, the JSON documents) within
 * the doc arena's `parse-memory`; reaching any stops the catalog with `error` naming the
 * entry and the limit.
 * Errors name the entry ("entry 7 `blobs/sha256/ab..`: ..."); see `error`.
 */
#ifndef GPULINT_IMAGE_CATALOG_H
#define GPULINT_IMAGE_CATALOG_H

#include "linter/core/config.h"
#include "parsers/image/image_layer.h"
#include "linter/core/hashmap.h"

enum gl_catalog_mode { GL_CAT_SEEKABLE, GL_CAT_DIR, GL_CAT_STREAM };

struct gl_catalog_blob {
    const char *name;          /* normalized path inside the archive / directory */
    const char *link;          /* symlink target resolved against the entry's dir, or NULL */
    size_t entry;              /* 1-based position in the archive */
    uint64_t off, size;        /* GL_CAT_SEEKABLE: where the data is */
    bool sparse;               /* GL_CAT_SEEKABLE: a sparse entry, whose data is not at
                                  [off, off+size): never read */
    char *json; size_t json_len;    /* GL_CAT_STREAM: a JSON document kept as it passed */
    const char *not_json;           /* GL_CAT_STREAM: why no document was kept, or NULL */
    struct gl_layer_index *ix;      /* GL_CAT_STREAM: the layer, indexed as it passed */
    size_t job;                     /* image_input.c: its layer job + 1, or 0 */
};

struct gl_catalog {
    enum gl_catalog_mode mode;
    struct gl_arena *a;        /* the doc's arena */
    const char *path;
    int fd;                    /* GL_CAT_SEEKABLE: the archive; GL_CAT_DIR: the layout
                                  directory; else -1 */
    uint64_t file_size;        /* GL_CAT_SEEKABLE: its size */
    const char *cache_dir;     /* NULL: no cache */
    bool trust_digests;        /* layers are not hashed, nor cached (--trust-digests) */
    bool verify_digests;       /* plain layers named by their digest are hashed too
                                  (--verify-digests; set after gl_catalog_open) */
    struct gl_catalog_blob **blobs; size_t n, cap; /* each blob stays where it is */
    struct gl_map names;       /* name -> the last blob of that name */
    const char *error;
};

/* Open and catalog `path`, or the stream open on stream_fd when it is >= 0 (standard
 * input, a FIFO; `path` names it; `head` was already read from it: it is read once, never
 * reopened). cache_dir: the layer-index cache, or NULL; trust_digests: see struct
 * gl_catalog. */
void gl_catalog_open(struct gl_catalog *c, struct gl_arena *a, const char *path,
                     int stream_fd, const void *head, size_t head_len, const char *cache_dir,
                     bool trust_digests);
void gl_catalog_close(struct gl_catalog *c);

/* The blob at `name`, following symlinks (bounded); NULL when absent. */
struct gl_catalog_blob *gl_catalog_find(struct gl_catalog *c, const char *name);
/* The JSON document at `name`: a gl_blob_fetch (image_manifest.h) over the catalog. */
char *gl_catalog_json(void *catalog, const char *name, size_t *len, const char **why);

/* Where a blob's bytes are: fd (of the archive, or the blob's own file, which `owned`
 * says gl_catalog_blob_close closes), offset and size. */
struct gl_blob_span {
    int fd;
    bool owned;
    uint64_t off, size;
};
/* 0, or -1 with *why when the blob cannot be read (GL_CAT_DIR: gone, or no regular
 * file; a sparse archive entry). */
int gl_catalog_blob_open(struct gl_catalog *c, const struct gl_catalog_blob *b,
                         struct gl_blob_span *s, const char **why);
void gl_catalog_blob_close(struct gl_blob_span *s);

/* Is the head of a file (its first bytes) an archive gpulint reads as an image:
 * tar ("ustar" at 257), gzip or zstd? */
bool gl_image_head_is_archive(const unsigned char *p, size_t n);
/* Is dir an OCI image layout (it holds an `oci-layout` file)? */
bool gl_image_dir_is_layout(const char *dir);
/* Is `name` a path an OCI layout directory may hold (see above)? */
bool gl_image_layout_name_ok(const char *name);

#endif
