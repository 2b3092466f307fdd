/* SPDX-License-Identifier: Apache-2.0 */
/*
 * slurm_opts.h: the command-line options of Slurm's sbatch, srun and salloc (and the
 * pyxis plugin's --container-* options they gain), as data, and what a Slurm job step asks
 * for: its GPUs, nodes, tasks and pyxis container.
 *
 * The table (slurm_opts.c) is that of Debian's slurm-client (`sbatch --help`, `srun
 * --help`, `salloc --help`; tests/slurm_options.sh compares them with the installed
 * client) plus pyxis's options (its args.c). Each entry stands on one line in the form
 *     {"name", 's', SB | SR | SA, SR},
 * (the commands that have it, then those where it takes a value; shorthand 0 when none):
 * the test reads the source, so keep that form. Options whose value is optional
 * (`--exclusive[=user]`) take one only after '=': they are listed as taking none.
 *
 * Reading options is getopt_long's: `--name=value`, `--name value`, `-N2`, `-N 2`,
 * bundles of flags (`-lK`); `--` or the first operand ends them. An `#SBATCH` line is
 * read with the same table (its options end at the first word that is not one).
 */
#ifndef GPULINT_PARSERS_SLURM_OPTS_H
#define GPULINT_PARSERS_SLURM_OPTS_H

#include "parsers/launch/launch_internal.h"

enum {
    GL_SLURM_SBATCH = 1,
    GL_SLURM_SRUN = 2,
    GL_SLURM_SALLOC = 4,
    GL_SLURM_PYXIS = 8, /* a pyxis option (all three commands have it with the plugin) */
};

struct gl_slurm_flag {
    const char *name;
    char shorthand;
    unsigned char in;    /* GL_SLURM_* commands that have it */
    unsigned char value; /* ... and those where it takes a value */
};

extern const struct gl_slurm_flag gl_slurm_flags[]; /* NULL-name terminated */

/* One option value of a step, with where it is written (text NULL when not given). */
struct slurm_opt {
    struct lv v;
    struct lv flag;          /* the option word ("--gres=gpu:4" or "--gres") */
};

/* What the options of one command (or an #SBATCH block) ask for. */
struct slurm_req {
    struct slurm_opt gres, gpus, gpus_per_node, gpus_per_task, nodes, ntasks,
        ntasks_per_node;
    /* pyxis */
    struct slurm_opt image, workdir, env;
    struct slurm_opt mounts[16]; size_t nmounts;
    /* Shifter's SPANK option: the image `shifter` runs in this job or step */
    struct slurm_opt shifter_image;
    bool writable, no_mount_home;
    bool exclusive;          /* --exclusive with no value: the whole node is the job's */
    bool opaque;             /* an unquoted opaque word among the options */
    bool wrap;               /* sbatch --wrap given: `wrap_value` holds it */
    struct slurm_opt wrap_value;
};

/* Read the options of command `cmd_bit` (GL_SLURM_*) from word i of cmd into req (values
 * given again replace earlier ones). Returns the index of the first operand (the program
 * run, the batch script), cmd->nwords when none. */
size_t slurm_read_opts(struct gl_arena *a, const struct sh_cmd *cmd, size_t i, unsigned cmd_bit,
                       struct slurm_req *req);

/* `over` on top of `base` (a step's options over its allocation's): into *out. */
void slurm_req_merge(struct slurm_req *out, const struct slurm_req *base,
                     const struct slurm_req *over);

/* A whole node with no GPU option (`--exclusive`, no --gres/--gpus*): the job gets every
 * device of the node, so whether its GPUs are visible depends on the cluster's cgroup
 * configuration (ConstrainDevices), not on anything the script says. */
bool slurm_req_whole_node(const struct slurm_req *r);

/* Add the GPU request of req to the launch being built (kind GL_GPU_SLURM, count the
 * whole GPUs per node when the options tell), and the processes per node of a step.
 * Nothing when req asks for no GPU. */
void slurm_add_gpus(struct launch_build *b, const struct slurm_req *req);
void slurm_set_tasks(struct launch_build *b, const struct slurm_req *req);

#endif
