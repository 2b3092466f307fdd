/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_write_opts.h: the commands launch_writes.c reads and their option tables: which
 * options take a value (so that a value is never read as an operand: `git clone URL DIR
 * --depth 1`), and which values are written (`cp -t DIR`, `curl -o FILE`). The tables are
 * the tools' own: `git clone -h` and git's global options, `curl --help all` (7.88),
 * `cp`/`mv`/`install`/`mkdir --help` (GNU coreutils 9.1), `tar --help`, `wget --help`,
 * unzip's usage, rsync's popt table (options.c), huggingface-cli's argparse.
 *
 * A value is written after its option (`-t DIR`, `--target-directory DIR`), attached to a
 * short one (`-tDIR`, the last of a bundle `-sSLo FILE`), or after `=` on a long one
 * (`--target-directory=DIR`) where the tool's parser takes that form (getopt, git,
 * popt, argparse: curl does not).
 */
#ifndef GPULINT_RULES_LAUNCH_WRITE_OPTS_H
#define GPULINT_RULES_LAUNCH_WRITE_OPTS_H

#include <stdbool.h>
#include <stddef.h>

/* How a command names where it writes: only by its destination options (`unzip -d X`),
 * or also by its last operand (`cp a b DEST`, unless a target option names it), or by
 * every operand (`mkdir a b`). */
enum gl_dest_form { GL_DEST_OPTION, GL_DEST_LAST, GL_DEST_ALL };

/* The options of one parser: short letters and long names (without the dashes) that take
 * a value, and whether `--name=value` is read. */
struct gl_opt_table {
    const char *short_vals;
    const char *const *long_vals;
    bool long_eq;
};

/* A command that writes (every member but name may be 0/NULL: none). */
struct gl_writer {
    const char *name;               /* the command word: "cp" */
    enum gl_dest_form form;         /* 0: GL_DEST_OPTION */
    struct gl_opt_table opts;
    const char *dest_short;         /* of the value options: those whose value is written */
    const char *const *dest_long;
    const char *sub;                /* the subcommand that writes ("clone"), else NULL; */
    const struct gl_opt_table *pre; /* then the program's options before it */
    const char *all_short;          /* flags that make every operand a destination */
    const char *const *all_long;    /* (install -d, --directory) */
    const char *const *base_long;   /* the value option naming a directory that the written
                                       values are in (curl --output-dir) */
    const char *into_base_short;    /* flags that write a file named by the server into */
    const char *const *into_base_long; /* that directory (curl -O, --remote-name) */
};

/* The writer whose name is `len` bytes at `name`, or NULL. */
const struct gl_writer *gl_writer_named(const char *name, size_t len);

/* Is the long option `len` bytes at `name` one of the NULL-terminated `list` (may be
 * NULL)? */
bool gl_opt_listed(const char *const *list, const char *name, size_t len);

#endif
