/*
 * image_cache.h: the layer-index cache, keyed by layer digest.
 *
 * A layer's file index (image_layer.h) is stored zstd-compressed as
 *   <cache dir>/layers/<algo>-<hex>.idx
 * where the cache dir is --cache-dir, else $XDG_CACHE_HOME/gpulint, else
 * $HOME/.cache/gpulint. A file is a header (magic "GLIX", format version, payload length,
 * compressed length, sha256 of the compressed bytes) and the zstd frame. Loading checks
 * every one of those and parses the payload with bounds checks; anything wrong (truncated,
 * corrupt, another version) is a miss, and the entry is rebuilt and rewritten. Writes go
 * to a temporary file in the same directory, then rename(): readers never see half a
 * file, and nothing is written outside the cache dir. Digests that are not
 * "<lowercase algo>:<hex>" are never cached (no path can be built from hostile names).
 * Thread-safe: each call works on its own files.
 */
#ifndef GPULINT_IMAGE_CACHE_H
#define GPULINT_IMAGE_CACHE_H

#include "linter/config.h"
#include "parsers/image_layer.h"

#define GL_CACHE_VERSION 1u

/* The cache directory for this run into out[outlen], or false when caching is off
 * (--no-cache, no usable directory). */
bool gl_layer_cache_dir(const struct gl_config *cfg, char *out, size_t outlen);

/* Fill ix from the cache entry of `digest`; false on a miss (ix is then empty). */
bool gl_layer_cache_load(const char *dir, const char *digest, struct gl_layer_index *ix);
/* Store ix (only complete indexes: no error) under `digest`. Failures are silent. */
void gl_layer_cache_store(const char *dir, const char *digest, const struct gl_layer_index *ix);

/* Serialize / parse the payload (exposed for tests). Parse returns false on any
 * malformation. */
void gl_layer_index_serialize(const struct gl_layer_index *ix, struct gl_buf *out);
bool gl_layer_index_parse(struct gl_layer_index *ix, const unsigned char *p, size_t n);

#endif
