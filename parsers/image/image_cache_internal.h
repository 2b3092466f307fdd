/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_cache_internal.h: what the layer-index cache's files share (image_cache.c the
 * entry format, load and store; image_cache_dir.c the directory and its checks;
 * image_cache_evict.c the size bound). Not for other modules: they use image_cache.h.
 */
#ifndef GPULINT_IMAGE_CACHE_INTERNAL_H
#define GPULINT_IMAGE_CACHE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Temporary files are "<prefix><pid>-<n>-<entry name>"; entries "<algo>-<hex>.idx". */
#define GL_CACHE_TEMP_PREFIX ".tmp-"
#define GL_CACHE_ENTRY_SUFFIX ".idx"
/* A temporary file older than this (seconds) was left by a killed process. */
#define GL_CACHE_TEMP_GRACE 3600
/* Room for a refusal reason ("PATH/layers is writable by group or others"). */
#define GL_CACHE_WHY_MAX 4400

/* The layers/ directory of the cache dir `dir`, opened (O_DIRECTORY, O_NOFOLLOW) after
 * checking both directories: real directories, owned by the effective user, not
 * writable by group or others. With `create`, missing ones are made first (mode 0700).
 * A descriptor, or -1 with the reason in why[GL_CACHE_WHY_MAX] (why may be NULL). */
int gl_cache_open_layers(const char *dir, bool create, char *why);

/* Bring the entries in the layers/ directory `layers_fd` to at most `bound` bytes,
 * removing the least recently used (oldest mtime) first, and remove temporary files
 * older than GL_CACHE_TEMP_GRACE. Safe against other processes doing the same. */
void gl_cache_evict(int layers_fd, uint64_t bound);

#endif
