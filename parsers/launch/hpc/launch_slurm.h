/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_slurm.h: Slurm job steps and their GPU requests as launches (launch_slurm.c),
 * for launch_shell.c; not a public API.
 *
 *  - slurm_directives: the `#SBATCH` lines before a text's first command are the batch
 *    request (scan->batch; NULL when there are none). `#SBATCH --container-image` makes
 *    the batch step itself a pyxis launch (tool "sbatch", at the first directive).
 *  - slurm_step: the options of `srun`/`salloc`/`sbatch` at word i; an srun inside an
 *    allocation (a batch script, `salloc ... srun`) takes the allocation's request and
 *    overrides what it gives again (a step that names any GPU option names all its GPUs).
 *    A `salloc [opts]` with no command opens an interactive allocation: the later sruns
 *    of the scan (a README's next blocks too, up to the end of its section) are in it
 *    (scan->alloc).
 *    Returns the index of the command the step runs.
 *  - launch_slurm_step: one GL_LAUNCH_SLURM launch: loc the `srun` word; with pyxis
 *    `--container-image` its image (`nvcr.io#nvidia/x:tag` read as `nvcr.io/nvidia/x:tag`,
 *    `docker://` and `user@` dropped, a `.sqsh`/`.sqfs` or a path a local image), the
 *    `--container-mounts` bind mounts (`:ro` among `+`-joined flags), the home mount
 *    pyxis adds unless `--no-container-mount-home` (target /home), `--container-workdir`,
 *    `--container-env=NAME[,NAME]` (env entries of the launch, values from the job: NULL);
 *    without an image it is bare_metal. Always host_ipc; gpus_outside when no allocation
 *    of the file holds it.
 *  - slurm_attach: the request on a launch made by another family (`srun apptainer exec`).
 */
#ifndef GPULINT_PARSERS_LAUNCH_SLURM_H
#define GPULINT_PARSERS_LAUNCH_SLURM_H

#include "parsers/launch/hpc/slurm_opts.h"

void slurm_directives(struct gl_launch_scan *s, const char *text, size_t len,
                      const struct gl_srcmap *map);
/* The batch step run in a pyxis container (`#SBATCH --container-image`, `sbatch
 * --container-image=IMG --wrap=...`): a launch at `at` with its image, mounts and GPUs. */
void slurm_batch_container(struct gl_launch_scan *s, const struct slurm_req *r, struct gl_loc at);
size_t slurm_step(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t i,
                  struct slurm_req *out, bool *in_alloc);
void launch_slurm_step(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t srun_wi,
                       size_t first, const struct slurm_req *r, bool in_alloc);
void slurm_attach(struct gl_launch_scan *s, size_t launch, const struct slurm_req *r);

/* enroot at word tool_wi (launch_enroot.c): `import docker://IMAGE` adds the image
 * reference (role GL_REF_LAUNCH, no launch); `start [opts] NAME|IMAGE [CMD...]` is a
 * GL_LAUNCH_ENROOT launch: -m/--mount bind mounts (fstab fields, `ro` among the options),
 * -e/--env, a `.sqsh` or path image as a local ref (a container NAME: ref -1), host_ipc;
 * `step` is the srun it runs under (its GPUs), NULL: gpus_outside. */
void launch_enroot(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t tool_wi,
                   const struct slurm_req *step);

/* Shifter (launch_shifter.c): `shifter [-i IMG] [-V SRC:DST[:ro][;...]] [-e K=V] CMD` at
 * word tool_wi is a GL_LAUNCH_ENROOT launch (tool "shifter") of its --image, else of the
 * image `step` (the srun's request, or the batch's when the script runs it) names with
 * Shifter's SPANK option (`#SBATCH --image=docker:IMG`; the `docker:` type dropped, `id:`,
 * `custom:`, `local:` images no reference); -V bind mounts, host_ipc, the step's GPUs
 * (NULL: gpus_outside), and under `srun` (srun true) the step's tasks per node.
 * `shifterimg pull IMG` adds the image reference (no launch). */
void launch_shifter(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t tool_wi,
                    const struct slurm_req *step, bool srun);
void launch_shifterimg(struct gl_launch_scan *s, const struct sh_cmd *cmd, size_t tool_wi);

/* Shared with launch_enroot.c: an enroot/pyxis image URI, one SRC:DST[:FLAGS] mount in
 * bytes [start, end) of v, and a pyxis container's image, mounts and workdir. */
void slurm_set_image(struct launch_build *b, const struct lv *img);
void slurm_mount(struct launch_build *b, const struct lv *v, size_t start, size_t end);
/* Each mount of a list of them separated by `sep` (pyxis `,`, Shifter `;`). */
void slurm_mount_list(struct launch_build *b, const struct lv *v, char sep);
void slurm_container(struct launch_build *b, const struct slurm_req *r);

#endif
