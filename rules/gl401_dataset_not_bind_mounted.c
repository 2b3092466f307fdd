/* GL401 dataset-not-bind-mounted: a dataset path the launch reads is under no mount. */
#include "linter/check.h"
#include "linter/launch_paths.h"

static void check(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    struct gl_launch_facts f;
    gl_launch_facts_init(&f, doc, c->cfg);
    for (size_t i = 0; i < doc->nlaunches; i++) {
        const struct gl_launch *l = &doc->launches[i];
        /* apptainer binds $HOME, $PWD, /tmp and the site's bind paths by default: a path
         * under no -B is not known to be inside the image. A fragment lacks mounts that
         * its base file may give. */
        if (l->kind == GL_LAUNCH_APPTAINER || l->fragment || !gl_launch_options_known(l))
            continue;
        struct gl_launch_path *paths;
        size_t n = gl_launch_paths(&f, i, &paths);
        for (size_t k = 0; k < n; k++) {
            const struct gl_launch_path *p = &paths[k];
            if (p->role != GL_PATH_DATASET || gl_launch_mount_for(&f, i, p->path))
                continue;
            gl_report(c, p->loc, NULL,
                      "dataset path `%s` (%s) is under no bind mount or volume of %s: every "
                      "read goes through the container's OverlayFS",
                      p->path, p->name, gl_launch_label(&f.arena, l));
            break;
        }
    }
    gl_launch_facts_free(&f);
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
