/* SPDX-License-Identifier: Apache-2.0 */
/* GL401 dataset-not-bind-mounted: a dataset path the launch reads is under no mount. */
#include "rules/check.h"
#include "rules/gl4xx/launch_paths.h"

/* Only launches whose mounts are all known: apptainer binds $HOME, $PWD, /tmp and the
 * site's bind paths by default, so a path under no -B is not known to be inside the image;
 * a fragment lacks mounts that its base file may give. */
static bool judge(struct gl_check *c, const struct gl_path_use *u, void *ctx)
{
    (void)ctx;
    if (u->mount)
        return false;
    gl_report(c, u->path->loc, NULL,
              "dataset path `%s` (%s) is under no bind mount or volume of %s: every "
              "read goes through the container's OverlayFS",
              u->path->path, u->path->name, gl_launch_label(&u->facts->arena, u->launch));
    return true;
}

static void check(struct gl_check *c)
{
    gl_check_path_uses(c, GL_PATH_DATASET, GL_PATHS_MOUNTS_COMPLETE, judge, NULL);
}

const struct gl_rule gl_rule_GL401 = {
    .id = "GL401",
    .name = "dataset-not-bind-mounted",
    .severity = GL_SEV_WARNING,
    .summary = "a dataset path used by the launch is not under any bind mount or volume",
    .explanation =
        "A path named by a dataset argument (`--data-dir`, `--dataset`, ...) or env var "
        "(`DATA_DIR`) that no mount covers lives in the container's writable layer: either "
        "the data was baked into the image (large, slow pulls) or the job reads nothing. "
        "Every read goes through OverlayFS, which is markedly slower than a bind mount for "
        "the many small files of a training set. Argument and env names are configurable "
        "(`dataset-args`, `dataset-env` in .gpulint.yaml). apptainer launches are not "
        "checked: apptainer binds the home, the working directory and site paths itself.",
    .bad = "docker run --gpus all trainer python train.py --data-dir /data/imagenet",
    .good = "docker run --gpus all -v /mnt/imagenet:/data/imagenet:ro trainer \\\n"
            "    python train.py --data-dir /data/imagenet",
    .fix = "bind-mount the dataset read-only: -v /host/data:/data:ro (compose `volumes:`, "
           "Kubernetes a volumeMount)",
    .check = check,
};
