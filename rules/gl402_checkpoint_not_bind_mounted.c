/* GL402 checkpoint-not-bind-mounted: a checkpoint/output path is under no mount. */
#include "linter/check.h"
#include "linter/launch_paths.h"

static void check(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    struct gl_launch_facts f;
    gl_launch_facts_init(&f, doc, c->cfg);
    for (size_t i = 0; i < doc->nlaunches; i++) {
        const struct gl_launch *l = &doc->launches[i];
        /* see GL401: apptainer binds paths itself; a fragment's base may mount */
        if (l->kind == GL_LAUNCH_APPTAINER || l->fragment || !gl_launch_options_known(l))
            continue;
        struct gl_launch_path *paths;
        size_t n = gl_launch_paths(&f, i, &paths);
        for (size_t k = 0; k < n; k++) {
            const struct gl_launch_path *p = &paths[k];
            if (p->role != GL_PATH_CHECKPOINT || gl_launch_mount_for(&f, i, p->path))
                continue;
            gl_report(c, p->loc, NULL,
                      "output path `%s` (%s) is under no mount of %s: writes pay "
                      "copy-on-write and are lost with the container%s",
                      p->path, p->name, gl_launch_label(&f.arena, l),
                      l->remove ? " (at once: --rm)" : "");
            break;
        }
    }
    gl_launch_facts_free(&f);
}

const struct gl_rule gl_rule_GL402 = {
    .id = "GL402",
    .name = "checkpoint-not-bind-mounted",
    .severity = GL_SEV_ERROR,
    .summary = "a checkpoint/output path is not under any mount",
    .explanation =
        "Checkpoints, logs and results written to a path no mount covers go into the "
        "container's writable layer: every write pays OverlayFS copy-on-write, and the "
        "files vanish when the container is removed (at once with `--rm`, with the pod in "
        "Kubernetes). A day of training is lost with them. Argument and env names are "
        "configurable (`checkpoint-args`, `checkpoint-env` in .gpulint.yaml).",
    .bad = "docker run --rm --gpus all trainer python train.py --output_dir /out",
    .good = "docker run --rm --gpus all -v /scratch/run1:/out trainer \\\n"
            "    python train.py --output_dir /out",
    .fix = "mount a host directory or a volume there: -v /host/out:/out (compose `volumes:`, "
           "Kubernetes a PVC volumeMount)",
    .check = check,
};
