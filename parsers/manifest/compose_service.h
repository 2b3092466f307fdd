/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compose_service.h: one service of a compose file that another input names (a `docker
 * compose run SERVICE` line of a script, parsers/launch/launch_compose.c).
 *
 * gl_compose_service_load reads the compose files `names` (relative to the directory of
 * the input `doc`, as `extends: file:` is; absolute as they are): several files make one
 * project as compose merges its -f files (each later file a later document, which
 * overrides the earlier ones; the project's directory, its `.env`, is the first file's).
 * They are parsed exactly as a linted compose file is parsed (compose.h: its `.env`,
 * `extends`, several documents), into doc's arena, so that every string of the result
 * lives as long as doc; files over GL_COMPOSE_SERVICE_MAX_BYTES together (or input-size)
 * are not read, and each project is parsed once for an input (`files`). It finds the
 * launch compose makes for the service `name`, else looks for it in the files the project
 * `include:`s (relative to the first file's directory; each project once, so a cycle
 * ends; a service with no GPU whose GPU variant is in a compose file beside the project's
 * files is marked as gl_compose_gpu_variants marks a linted one), and returns it with its environment entries and its image reference (locations
 * are those of the compose file: the caller places them in its own input). False when the
 * files cannot be read, do not parse (that is the compose file's own GL900, where it is
 * linted), or hold no such service.
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

/* The compose projects read so far for one input (each parsed once, at most
 * GL_COMPOSE_FILES_MAX of them: a further one is not read). Zero it before the first use. */
#define GL_COMPOSE_FILES_MAX 8

struct gl_compose_files {
    struct gl_compose_file {
        const char *file;          /* as named (several files: joined with newlines) */
        bool failed;               /* could not be read or parsed */
        const char *path;
        const struct gl_launch *launches; size_t nlaunches;
        const struct gl_ref *refs; size_t nrefs;
        const struct gl_env *env;  size_t nenv;
        const char *const *includes; size_t nincludes; /* its `include:` files */
    } f[GL_COMPOSE_FILES_MAX];
    size_t n;
};

bool gl_compose_service_load(struct gl_doc *doc, struct gl_compose_files *files,
                             const char *const *names, size_t n, const char *name,
                             struct gl_compose_service *out);
/* Mark the CPU variants among the services of compose file doc: a service with no GPU
 * request whose namesake in another compose file of its directory (by name,
 * gl_compose_named; the first GL_COMPOSE_FILES_MAX in name order) requests GPUs, as a GPU
 * override file (`docker-compose.gpu.yml`, compose.override.yaml) or a GPU variant of the
 * whole file does: the service without it is run so on purpose, on hosts without GPUs
 * (launch.secondary_role, as a CPU head beside GPU workers). */
void gl_compose_gpu_variants(struct gl_doc *doc);
/* Is there a regular file `file` beside doc (relative to its directory)? */
bool gl_compose_file_exists(struct gl_doc *doc, const char *file);

#endif
