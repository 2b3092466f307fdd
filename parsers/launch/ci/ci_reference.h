/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ci_reference.h: GitLab CI's `!reference [job, key, ...]` custom tag.
 *
 * GitLab replaces a sequence tagged `!reference` by the node its path names: the top-level
 * entry `job` (a job, a hidden `.template`, `default`...), then `key` in it, and so on down
 * mappings. The named node may itself hold references (GitLab nests them up to 10 levels);
 * a reference that names nothing in the file (a job of an `include:`d file, a path through
 * a non-mapping) is opaque: its value is unknown, never guessed. A reference reads the
 * job's own keys, as written, not what `extends:` would merge in (GitLab resolves the
 * references before `extends:`).
 * Bounds: CI_REFERENCE_DEPTH references followed in a chain, CI_REFERENCE_PATH steps in
 * one path (a longer one is opaque), and every look-up charges the stream's alias budget.
 */
#ifndef GPULINT_PARSERS_CI_REFERENCE_H
#define GPULINT_PARSERS_CI_REFERENCE_H

#include <stdbool.h>

#include "parsers/yaml/yaml_tree.h"

enum { CI_REFERENCE_DEPTH = 10, CI_REFERENCE_PATH = 16 };

/* Is n (dereferenced) a sequence tagged `!reference`? */
bool ci_is_reference(const struct yt_node *n);

/* n dereferenced, with a `!reference` replaced by what it names in the top-level mapping
 * `root` (followed through references to references); n itself when it is no reference;
 * NULL when a reference is opaque (see above) or n is NULL. */
struct yt_node *ci_resolve(struct yt_stream *s, struct yt_node *root, struct yt_node *n);

#endif
