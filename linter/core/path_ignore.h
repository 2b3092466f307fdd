/* SPDX-License-Identifier: Apache-2.0 */
/*
 * path_ignore.h: the config's `ignore-paths:`: globs (glob.h) naming paths that are not
 * linted at all, or whose findings of some rules are dropped.
 *
 * Where a glob starts: relative globs are relative to the directory of the config file
 * that gave them (`base`). A path is matched as it lies below `base`: a relative path is
 * joined to the working directory, then `.` and `..` parts are resolved lexically (no
 * symbolic link is followed), and the part below `base` is matched. So with the config
 * file in the working directory a glob matches the path as gpulint reports it, without a
 * leading `./`; with the config file found in a parent directory, `svc/Dockerfile` names
 * the same file from anywhere in the tree. A path outside `base`, and `base` itself, is
 * never matched by a relative glob. A glob starting with `/` matches the absolute path.
 * A glob that matches a directory covers everything below it (`vendor` also names
 * `vendor/x/Dockerfile`). Standard input (`-`) is never matched.
 *
 * Everything is allocated from the arena given (the config's).
 */
#ifndef GPULINT_PATH_IGNORE_H
#define GPULINT_PATH_IGNORE_H

#include "linter/core/util.h"

struct gl_path_ignore {
    const char *glob;        /* as written */
    bool whole;              /* matching paths are not linted (nor walked into) */
    const char **rules;      /* else: these rules' findings are dropped for matching paths */
    size_t nrules, caprules;
};

struct gl_path_ignores {
    const char *base;        /* absolute directory relative globs start from; NULL: the
                                working directory */
    const char *cwd;         /* the absolute working directory; NULL: unknown (paths are then
                                matched as given, without a leading ./) */
    struct gl_path_ignore *items;
    size_t n, cap;
};

/* Set base to the directory of `config_file` and cwd to the working directory. */
void gl_path_ignores_set_base(struct gl_path_ignores *pi, struct gl_arena *a,
                              const char *config_file);
/* Add a glob (gl_glob_check'ed by the caller); add rule ids to it when it is not whole. */
struct gl_path_ignore *gl_path_ignores_add(struct gl_path_ignores *pi, struct gl_arena *a,
                                           const char *glob, bool whole);
void gl_path_ignore_add_rule(struct gl_path_ignore *item, struct gl_arena *a, const char *id);

/* Is `path` (as the engine names it) not to be linted at all? */
bool gl_path_ignored(const struct gl_path_ignores *pi, const char *path);
/* Are findings of rule `id` in `path` to be dropped? (ids compare case-insensitively) */
bool gl_path_rule_ignored(const struct gl_path_ignores *pi, const char *path, const char *id);

/* The lexical absolute form of `path` seen from `cwd` ("/a/b", "/" for the root), and
 * from it the part below `base` into *rel (NULL when `path` is not below base). Both
 * point into `out`'s storage. Exposed for tests. */
void gl_path_ignore_rebase(const char *base, const char *cwd, const char *path,
                           struct gl_buf *out, const char **abs, const char **rel);

#endif
