/* SPDX-License-Identifier: Apache-2.0 */
/*
 * history_pkgs.h: judging what an image config's history installs (GL203, GL301, GL302).
 *
 * A platform's `run` model (model_image.h) holds the packages its history's RUN entries
 * install, read as a Dockerfile's RUN lines are; a rule asks the same package matcher of
 * them as of a Dockerfile. gl_history_first_pkg() finds, for one platform, the first
 * package an OS package manager installs that `wanted` accepts and that still ships:
 * not removed by name in the same or a later entry, and not installed by an entry that
 * also removes packages itself (`apt-get purge --auto-remove`, `apk del .build-deps`: what
 * stays is unknown, so it is not judged). gl_report_history_pkg() reports it as
 * "<lead>`<spec>` in history entry N: `RUN <the entry, shortened>`" (N counts from 1,
 * oldest first), then " (<platform>, layer <short digest>)" (what the tty report leaves
 * out: check.h), then the tail.
 *
 * When a platform's files show the same fact (a driver library, nvcc, a compiler), the
 * file finding wins: it names a path (gl_image_has_file()); rules report the history
 * only for platforms whose files do not show it (config-only reads have no files).
 */
#ifndef GPULINT_RULES_HISTORY_PKGS_H
#define GPULINT_RULES_HISTORY_PKGS_H

#include "rules/check.h"

/* The first wanted package of p's history that ships, or NULL; *more: how many other
 * such packages follow (more may be NULL). */
const struct gl_pkg *gl_history_first_pkg(const struct gl_image_platform *p,
                                          bool (*wanted)(const struct gl_pkg *), size_t *more);

void gl_report_history_pkg(struct gl_check *c, const struct gl_image_platform *p,
                           const struct gl_pkg *pkg, const char *fix, const char *lead,
                           const char *tail);

/* Does p's view hold a file `offends` accepts? */
bool gl_image_has_file(const struct gl_image_platform *p,
                       bool (*offends)(const struct gl_image_file *));

/* For each platform whose files `offends` accepts none of, its first wanted history
 * package, reported with gl_report_history_pkg(lead, tail). */
void gl_report_history_pkgs(struct gl_check *c, bool (*offends)(const struct gl_image_file *),
                            bool (*wanted)(const struct gl_pkg *), const char *fix,
                            const char *lead, const char *tail);

#endif
