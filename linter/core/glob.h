/* SPDX-License-Identifier: Apache-2.0 */
/*
 * glob.h: path globs for the config's `ignore-paths:` (no fnmatch: its flags and
 * locale-dependent classes make the same glob mean different things on different hosts).
 *
 * A glob and a path are both split at `/`; empty parts (`a//b`, a leading or trailing
 * `/`) are skipped, so the caller decides what a leading `/` means. A glob matches the
 * WHOLE path, part by part:
 *
 *   *        any run of characters within one part (never a `/`), also none
 *   ?        exactly one character (one UTF-8 sequence, else one byte) within a part
 *   [abc]    one byte of the set; ranges `[a-z]`; `[!...]` or `[^...]` negate; a `]`
 *            first in the set is literal; a class never matches `/`
 *   **       as a whole part: any number of parts, also none. `**` alone matches every
 *            path; `a` `/` `**` matches `a` and everything below it; `**` `/` `x`
 *            matches `x` at any depth. Inside a part (`a**`) it is a plain `*`
 *   \c       the character c itself
 *
 * Matching is byte-exact (case-sensitive, no locale) and bounded: O(glob × path) work per
 * part, no recursion, no allocation.
 */
#ifndef GPULINT_GLOB_H
#define GPULINT_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/* Is `glob` well formed? 0, or -1 with *bad_offset at the first bad byte and *why saying
 * what was expected (a static string). An empty glob (or one of only `/`) is bad. */
int gl_glob_check(const char *glob, size_t *bad_offset, const char **why);

/* Does `glob` (well formed: see gl_glob_check) match all of `path`? */
bool gl_glob_match(const char *glob, const char *path);

#endif
