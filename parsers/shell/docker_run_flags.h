/* SPDX-License-Identifier: Apache-2.0 */
/*
 * docker_run_flags.h: the options of `docker run` (and `docker create`, `podman run`), as
 * data: for each, its long name, its one-letter shorthand and whether it takes a value.
 *
 * Knowing which options take a value is what finds the image in `docker run -it -v a:b
 * --gpus all img cmd`: after the options, the first word that is no option's value is the
 * image, and everything after it is the command. The table (docker_run_flags.c) is the
 * docker CLI's own (`docker run --help`, plus its hidden aliases) and the podman options
 * that docker lacks; tests/docker_flags.sh compares it with the docker installed on the
 * machine. Each entry stands on one line of docker_run_flags.c in the form
 *     {"name", 's', GL_FLAG_VALUE, GL_FLAG_DOCKER},
 * (shorthand 0 when none): the test reads the source, so keep that form.
 *
 * The same entry type serves other command-line tables (apptainer, srun, sudo).
 */
#ifndef GPULINT_PARSERS_DOCKER_RUN_FLAGS_H
#define GPULINT_PARSERS_DOCKER_RUN_FLAGS_H

#include <stdbool.h>
#include <stddef.h>

enum gl_flag_arity {
    GL_FLAG_BOOL,  /* no value; `--rm=false` may still give one after '=' */
    GL_FLAG_VALUE, /* `--name value`, `--name=value`, `-n value`, `-nvalue`, `-n=value` */
};

enum gl_flag_origin {
    GL_FLAG_DOCKER,        /* listed by `docker run --help` */
    GL_FLAG_DOCKER_HIDDEN, /* accepted by docker, not listed (deprecated aliases) */
    GL_FLAG_PODMAN,        /* podman run only */
    GL_FLAG_OTHER,         /* entries of the other tools' tables */
    GL_FLAG_MISTAKE,       /* no CLI has it: a frequent misspelling (`--gpu` for `--gpus`),
                              read as what it means so that the image after it is found;
                              the CLI stops at it (`unknown flag: --gpu`) */
    GL_FLAG_SITE_MODULE,   /* a wrapper's switch that turns on one of the site's modules
                              (podman-hpc `--gpu`, `--mpi`): what it gives the container is
                              the wrapper's to say (launch_podman_hpc.c) */
};

struct gl_cli_flag {
    const char *name;  /* long name without the dashes */
    char shorthand;    /* one letter, 0 when none */
    enum gl_flag_arity arity;
    enum gl_flag_origin origin;
};

/* The `docker run` / `podman run` table, NULL-name terminated. */
extern const struct gl_cli_flag gl_docker_run_flags[];

/* The first entry of `table` (NULL-name terminated) with long name name[0..len), or NULL
 * (the docker table is looked up through a hash index built on first use). */
const struct gl_cli_flag *gl_cli_flag_long(const struct gl_cli_flag *table, const char *name,
                                           size_t len);
/* The first entry with this shorthand letter, or NULL (the docker table: by the index). */
const struct gl_cli_flag *gl_cli_flag_short(const struct gl_cli_flag *table, char letter);

/* Does capability name cap[0..len) (a `--cap-add` value, a compose `cap_add` item: any case,
 * with or without `CAP_`; podman's comma list) give CAP_IPC_LOCK? `IPC_LOCK` and `ALL` do.
 * A holder of CAP_IPC_LOCK is not bound by RLIMIT_MEMLOCK (mlock, RDMA memory registration). */
bool gl_cap_locks_memory(const char *cap, size_t len);

#endif
