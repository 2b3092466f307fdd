/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_layer.h: one layer's file index, built by streaming the layer once.
 *
 * gl_layer_index_build() reads a layer blob (plain tar, gzip or zstd; chosen from the
 * media type, else the magic bytes) through libarchive and records each tar entry:
 * normalized path (no leading "/" or "./", ".." clamped at the root: never outside the
 * view), type, size, link target, whether it is a whiteout (`.wh.<name>`: `path` is then
 * the path it deletes) or an opaque marker (`.wh..wh..opq`: `path` is the directory),
 * and the content of the few small files rules need (gl_image_wants_content; a file
 * larger than the limit `capture-size` is listed but not read: it gives no content).
 * ELF files that may hold CUDA device code (gl_fatbin_candidate: shared objects, objects,
 * executables; the first GL_FATBIN_MAX_FILES of a layer) stream through the fat-binary
 * scanner (image_fatbin.h) in 64 KiB chunks, up to where it wants no more: their
 * architectures become the entry's `fatbin` facts. A file without readable fat binaries
 * simply has none; it is never an error of the layer.
 * Other file data is skipped, by seeking when the source can (plain
 * layers in a seekable archive). gzip goes through ISA-L (gz_isal.h), zstd through
 * libzstd's streaming API (image_zstd.h), unknown compressions through libarchive's
 * filters.
 * When the whole compressed stream was read, ix->digest is its "sha256:<hex>".
 * Failures (truncated stream, corrupt data, decompression bomb) leave ix->error set to
 * a message naming the entry ("entry 12 (`usr/lib/x`): ..."); the entries read before
 * stay valid. Limits (linter/core/limits.h) stop the reading the same way, the message naming
 * the limit: more than `layer-entries` entries; a path, or a link target, longer than
 * `name-length` (a layer is read whole or not at all: an entry is never skipped, so a
 * file cannot hide behind a long name).
 * Memory: the index lives in ix->arena (the entry array on the heap): bounded by the
 * number of entries, never by file sizes. Each call is independent: threads may build different indexes at once.
 */
#ifndef GPULINT_IMAGE_LAYER_H
#define GPULINT_IMAGE_LAYER_H

#include "linter/core/limits.h"
#include "linter/core/model.h"
#include "parsers/image/image_source.h"

/* The old names of two limits, still read by the cache's parser (image_cache.c). */
#define GL_CAPTURE_MAX gl_limit(GL_LIMIT_CAPTURE_SIZE)
#define GL_LAYER_MAX_ENTRIES gl_limit(GL_LIMIT_LAYER_ENTRIES)

enum gl_whiteout { GL_WH_NONE = 0, GL_WH_FILE = 1, GL_WH_OPAQUE = 2 };

struct gl_layer_entry {
    const char *path;
    const char *link;        /* symlink/hardlink target (normalized for hardlinks), or NULL */
    uint64_t size;
    uint8_t type;            /* enum gl_file_type */
    uint8_t whiteout;        /* enum gl_whiteout */
    uint32_t content_len;    /* (beside type: 48 bytes an entry, as many as a layer holds) */
    const char *content;     /* captured small file, or NULL */
    const struct gl_fatbin_facts *fatbin; /* an ELF file's device code (image_fatbin.h) */
};

struct gl_layer_index {
    struct gl_arena arena;
    struct gl_layer_entry *entries; /* in the arena, or (entries_on_heap) grown by realloc
                                       (no dead copies left behind as it doubles) */
    size_t n, cap;
    bool entries_on_heap;
    char digest[72];         /* sha256 of the compressed stream when read whole, else "" */
    const char *error;       /* NULL, or what went wrong (in the arena) */
    bool from_cache;
    size_t charged;          /* bytes charged to the image budget (image_budget.h) */
    size_t fatbin_files;     /* files streamed through the fat-binary scanner (at most
                                GL_FATBIN_MAX_FILES: later ones are not read) */
};

void gl_layer_index_init(struct gl_layer_index *ix);
/* Charge the index's size so far to the image budget (image_budget.h); false, with
 * ix->error set, when the budget is passed. */
bool gl_layer_index_charge(struct gl_layer_index *ix);
void gl_layer_index_free(struct gl_layer_index *ix);

/* Index the layer read from `in` (media_type may be NULL). Returns 0, or -1 with ix->error. */
int gl_layer_index_build(struct gl_layer_index *ix, struct gl_blob_reader *in,
                         const char *media_type);

/* Does the view need this file's content (CUDA version files, torch/version.py,
 * os-release, the METADATA of CUDA wheels: nvidia-*, torch, cupy-cuda*, ...)? `path` is normalized. */
bool gl_image_wants_content(const char *path);

/* Normalize an archive path into the arena (see above); "" for the root itself. */
char *gl_image_path_normalize(struct gl_arena *a, const char *raw);

#endif
