/*
 * image_site.h: helpers for the image parts of rules (files of an image's final view).
 *
 * gl_image_site_of() names where a file is, for gl_report_image: the platform, the digest
 * of the layer that brought it, and its path. gl_image_short_layer() shortens a layer
 * digest for messages ("sha256:0123456789ab"). gl_image_in_dir_named() tells whether a
 * path has a directory component equal to `dir` ("stubs", "compat").
 */
#ifndef GPULINT_RULES_IMAGE_SITE_H
#define GPULINT_RULES_IMAGE_SITE_H

#include "linter/check.h"

struct gl_image_site gl_image_site_of(const struct gl_image_platform *p,
                                      const struct gl_image_file *f);
/* Into buf (>= 24 bytes): "sha256:" and 12 hex digits, or the digest as it is. */
const char *gl_image_short_layer(const char *digest, char *buf, size_t len);
bool gl_image_in_dir_named(const char *path, const char *dir);
/* The last component of a path. */
const char *gl_image_base(const char *path);

#endif
