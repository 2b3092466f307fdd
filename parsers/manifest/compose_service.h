/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compose_service.h: one service of a compose file that another input names (a `docker
 * compose run SERVICE` line of a script, parsers/launch/launch_compose.c).
 *
 * gl_compose_service_load reads the compose file `file` (relative to the directory of the
 * input `doc`, as `extends: file:` is; absolute as it is; at most `input-size` bytes, a
 * bigger one is not read) and parses it exactly as a linted compose file is parsed
 * (compose.h: its `.env`, `extends`, several documents), into doc's arena, so that every
 * string of the result lives as long as doc; a file over GL_COMPOSE_SERVICE_MAX_BYTES (or
 * input-size) is not read, and each file is parsed once for an input (`files`). It finds the launch compose makes for the
 * service `name` and returns it with its environment entries and its image reference
 * (locations are those of the compose file: the caller places them in its own input).
 * False when the file cannot be read, does not parse (it is then the compose file's own
 * GL900, where it is linted), or has no such service.
 */
#ifndef GPULINT_PARSERS_COMPOSE_SERVICE_H
#define GPULINT_PARSERS_COMPOSE_SERVICE_H

#include "linter/core/model.h"

#define GL_COMPOSE_SERVICE_MAX_BYTES (1u << 20)

struct gl_compose_service {
    const char *path;          /* the file read (doc's directory joined with `file`) */
    struct gl_launch launch;   /* the service's launch (kind GL_LAUNCH_COMPOSE) */
    const struct gl_env *env;  /* its environment entries (launch index: the other doc's) */
    size_t nenv;
    const struct gl_ref *ref;  /* its image, NULL when it names none */
};

/* The compose files read so far for one input (each parsed once, at most
 * GL_COMPOSE_FILES_MAX of them: a further one is not read). Zero it before the first use. */
#define GL_COMPOSE_FILES_MAX 8

struct gl_compose_files {
    struct gl_compose_file {
        const char *file;          /* as named */
        bool failed;               /* could not be read or parsed */
        const char *path;
        const struct gl_launch *launches; size_t nlaunches;
        const struct gl_ref *refs; size_t nrefs;
        const struct gl_env *env;  size_t nenv;
    } f[GL_COMPOSE_FILES_MAX];
    size_t n;
};

bool gl_compose_service_load(struct gl_doc *doc, struct gl_compose_files *files,
                             const char *file, const char *name, struct gl_compose_service *out);
/* Is there a regular file `file` beside doc (relative to its directory)? */
bool gl_compose_file_exists(struct gl_doc *doc, const char *file);

#endif
