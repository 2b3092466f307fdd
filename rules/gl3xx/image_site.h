/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_site.h: helpers for the image parts of rules (files of an image's final view).
 *
 * gl_image_site_of() names where a file is, for gl_report_image: the platform, the digest
 * of the layer that brought it, and its path. gl_image_in_dir_named() tells whether a
 * path has a directory component equal to `dir` ("stubs", "compat").
 *
 * gl_report_image_file() reports one file in the words every image finding uses:
 * "<lead>: `/<path>` (<platform>, layer <short digest>)<tail>", the parenthesis being
 * what the tty report leaves out (check.h: gl_report_image).
 * gl_report_first_image_file() reports, for each platform of the doc's image, the first
 * file a rule's predicate accepts: one finding per platform.
 */
#ifndef GPULINT_RULES_IMAGE_SITE_H
#define GPULINT_RULES_IMAGE_SITE_H

#include "rules/check.h"

struct gl_image_site gl_image_site_of(const struct gl_image_platform *p,
                                      const struct gl_image_file *f);
bool gl_image_in_dir_named(const char *path, const char *dir);

/* Reports file f of platform p at the rule's severity (fix NULL: the rule's default). */
void gl_report_image_file(struct gl_check *c, const struct gl_image_platform *p,
                          const struct gl_image_file *f, const char *fix, const char *lead,
                          const char *tail_fmt, ...) __attribute__((format(printf, 6, 7)));

/* For each platform of c->doc->image (none: nothing), reports its first file `offends`
 * accepts with gl_report_image_file(lead, tail), or with `tail_more` instead when it
 * accepts more files of that platform (tail_more NULL: the first is enough, the rest of
 * the platform is not scanned). */
void gl_report_first_image_file(struct gl_check *c, bool (*offends)(const struct gl_image_file *),
                                const char *fix, const char *lead, const char *tail,
                                const char *tail_more);

/* Is the image one of NVIDIA's GPU plumbing images (gl_imageref_nvidia_infra: the driver
 * container, the GPU operator's operands, container-toolkit), which ship driver and toolkit
 * by design (RULES.md third round)? Stage >= 0: the image that Dockerfile stage is built
 * on (the root of its FROM chain); -1: the tags of the doc's image archive. */
bool gl_image_nvidia_infra(const struct gl_doc *doc, int stage);

#endif
