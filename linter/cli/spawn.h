/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spawn.h: run a helper program (helm) and take what it prints, bounded.
 *
 * The program is started with posix_spawn (no shell: argv goes to it as it is), with
 * standard input from /dev/null and its output on two pipes. At most out_cap bytes of
 * its standard output and err_cap of its standard error are kept; a program that writes
 * more output than out_cap, or runs past timeout_ms, is killed (SIGKILL) and reaped, and
 * the result says so. Memory is bounded by the caps whatever the program does.
 */
#ifndef GPULINT_SPAWN_H
#define GPULINT_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

struct gl_spawn_result {
    char *out;          /* standard output (NUL-terminated, heap) */
    size_t out_len;
    bool out_over;      /* it wrote more than out_cap: stopped there */
    char *err;          /* the first err_cap bytes of standard error (NUL-terminated) */
    size_t err_len;
    bool timed_out;     /* still running at the deadline: killed */
    int exit_code;      /* its exit status; -1 when it was killed or did not start */
    int spawn_errno;    /* 0, or why it could not be started */
};

/* Run `path` with argv (argv[0] first, NULL-terminated) and wait for it. */
void gl_spawn_capture(const char *path, char *const argv[], size_t out_cap, size_t err_cap,
                      int timeout_ms, struct gl_spawn_result *r);
void gl_spawn_result_free(struct gl_spawn_result *r);

#endif
