/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_cache.h: the layer-index cache, keyed by layer digest.
 *
 * A layer's file index (image_layer.h) is stored zstd-compressed as
 *   <cache dir>/layers/<algo>-<hex>.idx
 * where the cache dir is --cache-dir, else $XDG_CACHE_HOME/gpulint, else
 * $HOME/.cache/gpulint. Digests that are not "<lowercase algo>:<hex>" are never cached
 * (no path is built from hostile names).
 *
 * A registry image's config (parsers/registry/registry_input.c) is kept here too, under
 * its digest, as a one-entry index whose file `.gpulint/config.json` holds the config's
 * bytes (configs up to capture-size): the same checks, bound and eviction.
 *
 * Entries. A file is a header (magic "GLIX", format version, payload length, frame
 * length, the digest it is stored under), the zstd frame, and the sha256 of all before
 * it. Loading checks every one of those against the digest asked for, then parses the
 * payload with bounds checks; anything wrong (truncated, corrupt, another version, an
 * entry copied under another digest's name) is a miss, and the entry is rebuilt and
 * rewritten. The checksum catches accidents; forgeries are kept out by the directory's
 * permissions (below), as anyone who can write there could also compute a sha256.
 *
 * Size bound (image_cache_evict.c). The entries are kept under the limit cache-size
 * (limits.h; --cache-max, default 256 MiB), least recently used first out: a hit sets
 * the entry's mtime to now (futimens: atime is unreliable under relatime/noatime), and
 * after each store one walk of layers/ removes the oldest entries while the total is
 * over the bound, and temporary files older than an hour (left by a killed process).
 * An entry larger than the whole bound is not stored. Hits never walk the directory.
 *
 * Writes go to a new temporary file in layers/ (O_EXCL), then rename(): readers never
 * see half a file. Several gpulint processes (and threads) may share a cache: two
 * stores of one digest each rename a whole file; an entry evicted while another process
 * reads it stays readable through the open descriptor; a load that finds the entry gone
 * is a miss, never an error. Failures of the cache are silent: it only saves time.
 *
 * Safety (image_cache_dir.c). The cache dir and layers/ are created with mode 0700 and
 * used only when each is a real directory (no symbolic link), owned by the effective
 * user, and not writable by group or others; otherwise gl_layer_cache_dir() prints one
 * warning line and caching is off for the run. Entries are opened relative to the
 * layers/ descriptor with O_NOFOLLOW (O_NONBLOCK, then checked to be regular files), so
 * a symbolic link planted as an entry is neither read nor written through.
 */
#ifndef GPULINT_IMAGE_CACHE_H
#define GPULINT_IMAGE_CACHE_H

#include "linter/core/config.h"
#include "parsers/image/image_layer.h"

#define GL_CACHE_VERSION 4u /* 3: entries carry their fat-binary facts; 4: the METADATA of
                               more CUDA wheels (and a prefix of large ones) */

/* The cache directory for this run into out[outlen] (created, and checked as above), or
 * false when caching is off (--no-cache, no usable directory: one warning, once). */
bool gl_layer_cache_dir(const struct gl_config *cfg, char *out, size_t outlen);

/* Fill ix from the cache entry of `digest`, and mark it recently used; false on a miss
 * (ix is then empty). The entries are charged to the image budget as they are read: past
 * it, ix holds those read so far and ix->error names image-memory (a hit all the same). */
bool gl_layer_cache_load(const char *dir, const char *digest, struct gl_layer_index *ix);
/* Store ix (only complete indexes: no error) under `digest`, then bring the cache under
 * its bound. Failures are silent. */
void gl_layer_cache_store(const char *dir, const char *digest, const struct gl_layer_index *ix);

/* Serialize / parse the payload (exposed for tests). Parse returns false on any
 * malformation; true, with ix->error set, when it stopped at the image budget. */
void gl_layer_index_serialize(const struct gl_layer_index *ix, struct gl_buf *out);
bool gl_layer_index_parse(struct gl_layer_index *ix, const unsigned char *p, size_t n);

#endif
