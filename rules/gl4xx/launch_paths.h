/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_paths.h: what the GL4xx rules ask of a launch (see model_launch.h).
 *
 *  - The dataset and checkpoint/output paths a launch uses: the values of its container
 *    arguments whose names match cfg->dataset_args / cfg->checkpoint_args (`--data-dir
 *    /x` and `--data-dir=/x`), and of its env vars whose names match cfg->dataset_env /
 *    cfg->checkpoint_env. A name is matched as written and with `_` and `-` swapped.
 *    A value is a path when it is absolute, or relative with a `/` in it (`./out`,
 *    `data/train`) and the launch's workdir is known and absolute (it is then resolved
 *    against it); an output path relative to an unknown workdir is one, as written, when
 *    the launch mounts nothing (docker, compose, Kubernetes: then no mount serves it
 *    wherever the workdir is). Opaque words, unknown env values, URLs (`s3://...`), `~` and `$`
 *    values are never paths: no finding may depend on what gpulint cannot know.
 *  - The mount a container path falls under: the longest mount target that is a prefix
 *    of the path on a component boundary.
 *  - Facts about the launch: does it request a GPU, does its image need CUDA, is its
 *    command a PyTorch-style job, are its options all known.
 *  - The walks every GL4xx check is made of: each launch of the doc (gl_check_launches),
 *    or each dataset or checkpoint path a launch uses with the mount serving it
 *    (gl_check_path_uses). A rule gives only its judgement and its message.
 *
 * Paths are normalized lexically (`//`, `/./`, `..`, a trailing `/`); strings come from
 * the arena the caller passes. Everything is linear in the input size.
 */
#ifndef GPULINT_LAUNCH_PATHS_H
#define GPULINT_LAUNCH_PATHS_H

#include "linter/core/config.h"
#include "linter/core/model.h"
#include "rules/gl4xx/launch_argv.h"

struct gl_check;
struct gl_mount_index;

/* What the GL4xx rules look up for the launches of one doc, indexed once per check so
 * that a lookup costs what the launch itself holds, never the size of the whole doc
 * (a hostile file may hold a million launches, env entries or mounts). */
struct gl_launch_facts {
    const struct gl_doc *doc;
    const struct gl_config *cfg;
    struct gl_arena arena;     /* scratch for results and labels; freed with the facts */
    size_t *env_start;         /* env of launch i: env_items[env_start[i] .. env_start[i+1]) */
    size_t *env_items;         /* indexes into doc->env */
    bool *has_cuda;            /* a CUDA fact names launch i */
    struct gl_mount_index **mounts; /* built on first use, per launch */
    struct gl_launch_path **paths;  /* gl_launch_paths of launch i as gl_check_path_uses
                                       made it on first use (the model does not change
                                       while rules read it) */
    size_t *npaths;
    bool *paths_made;
    signed char *infra;        /* gl_launch_infrastructure of launch i for the path rules:
                                  -1 not asked yet, else 0 or 1 */
};

void gl_launch_facts_init(struct gl_launch_facts *f, const struct gl_doc *doc,
                          const struct gl_config *cfg);
void gl_launch_facts_free(struct gl_launch_facts *f);

/* The env entries (origin GL_ENV_LAUNCH) of launch i: count, and the k-th of them. */
size_t gl_launch_env_count(const struct gl_launch_facts *f, size_t launch);
const struct gl_env *gl_launch_env(const struct gl_launch_facts *f, size_t launch, size_t k);

enum gl_path_role { GL_PATH_DATASET, GL_PATH_CHECKPOINT };

struct gl_launch_path {
    enum gl_path_role role;
    const char *name;      /* the argument or env name: "--data-dir", "DATA_DIR" */
    const char *value;     /* the value as given */
    const char *path;      /* absolute and normalized */
    struct gl_loc loc;     /* the word or env value that names the path */
    bool from_env;
};

/* The dataset and checkpoint paths of launch i, in argv order then env order. Returns the
 * count; *out is an array from f->arena (NULL when none). */
size_t gl_launch_paths(struct gl_launch_facts *f, size_t launch, struct gl_launch_path **out);

/* Normalize an absolute path lexically into `a` ("/a//b/./c/../d/" -> "/a/b/d");
 * NULL when `path` is not absolute. */
const char *gl_path_normalize(struct gl_arena *a, const char *path);

/* The mount of launch i whose target is the longest prefix of the absolute, normalized
 * `path` (on a component boundary; of equal targets the last written), or NULL when
 * none covers it. Costs O(length of path x log mounts) after a first O(mounts log mounts). */
const struct gl_mount *gl_launch_mount_for(struct gl_launch_facts *f, size_t launch,
                                           const char *path);

/* The image the launch starts (NULL when unknown) and the location to report image
 * findings at (the image word; the launch itself when there is no image). */
struct gl_loc gl_launch_image_loc(const struct gl_doc *doc, const struct gl_launch *l);

/* Does the launch get a GPU (a gl_gpu_request other than a zero count and
 * NVIDIA_VISIBLE_DEVICES=void/none/empty, or apptainer --nv)? */
bool gl_launch_uses_gpu(const struct gl_launch *l);
/* A GPU request for no GPU (`nvidia.com/gpu: 0`, `--gpus 0`): no GPU request at all. */
bool gl_gpu_request_zero(const struct gl_gpu_request *g);
/* Does the launch ask for a GPU in any way (a zero count does not; a void
 * NVIDIA_VISIBLE_DEVICES does, as it is GL205's to judge)? */
bool gl_launch_requests_gpu(const struct gl_launch *l);

/* Does the launch start no CUDA by design: an image that compiles (gl_launch_compile_image: a
 * builder image, a devel dev container) or a build-only command (gl_launch_build_only),
 * with no GPU request, options all known, and no GPU the host may give unseen (gpu_unseen)?
 * `docker run --rm -v $PWD:/ws IMG-builder:cuda13 bash -c "make"` compiles with the toolkit
 * and never loads the driver, so the target driver does not judge its CUDA (GL201, GL204,
 * GL208, GL209), as for a CI job on a CPU runner; run with `--gpus all` it is judged. */
bool gl_launch_cpu_by_design(const struct gl_doc *doc, const struct gl_launch *l);

/* Does the launch start one of NVIDIA's GPU plumbing images (gl_imageref_nvidia_infra)? */
bool gl_launch_nvidia_infra(const struct gl_doc *doc, const struct gl_launch *l);

/* Does the launched image need CUDA: a known reference of a CUDA-bearing family (not one
 * of NVIDIA's infrastructure images), or a CUDA fact recorded for this launch? */
bool gl_launch_needs_cuda(const struct gl_launch_facts *f, size_t launch);

/* An infrastructure container (RULES.md second and third rounds): one of NVIDIA's GPU
 * plumbing images, or a container that requests no GPU and runs no CUDA image (a database,
 * a benchmark client, a metrics exporter). It is no dataset or checkpoint user: the path
 * rules (GL401-GL405, gl_check_path_uses) pass it by. */
bool gl_launch_infrastructure(const struct gl_launch_facts *f, size_t launch);

/* Is every option of the launch known? False when options may hide in an opaque word
 * (`docker run $args ...`): rules that fire on something *missing* must then be silent. */
bool gl_launch_options_known(const struct gl_launch *l);

/* Is the container command a PyTorch-style job: python, python3[.N], torchrun,
 * accelerate, deepspeed, horovodrun, lightning, composer, pytest, `python -m torch.distributed.*`..., directly or
 * behind env/nohup/time/mpirun/srun/numactl, or as the first word of a `sh -c` /
 * `bash -c` string? False when the command is unknown (the image default, opaque). */
bool gl_launch_pytorch_style(const struct gl_launch *l);
/* The word that makes it one (`python3` of `sh -c "cd /app && python3 ..."`), NULL when
 * none is found so. */
const struct gl_word *gl_launch_pytorch_word(const struct gl_launch *l);
/* The command word of the command of a CI job's steps (gl_launch_steps_view) that best
 * shows it runs a PyTorch-style job: the first launcher (torchrun, pytest, ...) or `python
 * -m MODULE`, else the first other python command; never a Python tool
 * (gl_command_python_tool). NULL when there is none. */
const struct gl_word *gl_launch_steps_pytorch_job(const struct gl_launch *l);

/* Are all the mounts of the launch written where gpulint reads it? Not for apptainer (it
 * binds $HOME, $PWD, /tmp and the site's paths itself), a Slurm step on the host (no
 * container: every path is the host's), a fragment (its base file may mount more), a
 * launch that mounts another container's volumes (--volumes-from, compose volumes_from:
 * their targets are written elsewhere) or one whose options may hide in an opaque word. */
bool gl_launch_mounts_complete(const struct gl_launch *l);

/* ---- the walks of a check ---- */

/* Judges launch `launch` of f->doc and reports through `c` (labels may come from
 * f->arena). */
typedef void (*gl_launch_judge)(struct gl_check *c, struct gl_launch_facts *f, size_t launch);

/* Calls `judge` for each launch of c->doc in order, with the facts of the doc (built
 * by the doc's first GL4xx walk, shared by its rules, freed by gl_check_end). */
void gl_check_launches(struct gl_check *c, gl_launch_judge judge);

/* One use of a dataset or checkpoint path by a launch, and the mount serving it. */
struct gl_path_use {
    struct gl_launch_facts *facts;
    size_t index;                       /* of the launch in facts->doc->launches */
    const struct gl_launch *launch;
    const struct gl_launch_path *path;
    const struct gl_mount *mount;       /* gl_launch_mount_for(path->path); NULL: none */
    const struct gl_launch_path *paths; /* every path of the launch, both roles */
    size_t npaths;
};

/* Judges one path use with the rule's `ctx`; true when it reported it. */
typedef bool (*gl_path_judge)(struct gl_check *c, const struct gl_path_use *use, void *ctx);

enum gl_path_scope {
    GL_PATHS_EVERY_LAUNCH,    /* every launch */
    GL_PATHS_MOUNTS_COMPLETE, /* only launches where gl_launch_mounts_complete() */
};

/* Calls `judge` for each path of role `role` of each launch in `scope` (infrastructure
 * containers left out), in launch order
 * then gl_launch_paths() order, until it reports one: at most one finding a launch. */
void gl_check_path_uses(struct gl_check *c, enum gl_path_role role, enum gl_path_scope scope,
                        gl_path_judge judge, void *ctx);

/* A short label for messages: `service "web"`, `container "trainer"`, `docker run at
 * line 12` (arena string). */
const char *gl_launch_label(struct gl_arena *a, const struct gl_launch *l);

#endif
