/* GL403 dataset-mount-writable: the mount serving a dataset path is not read-only. */
#include "linter/check.h"
#include "linter/launch_paths.h"

/* Marks the mounts of launch i that hold an output path (those must stay writable). */
static bool *output_mounts(struct gl_launch_facts *f, size_t i,
                           const struct gl_launch_path *paths, size_t n)
{
    const struct gl_launch *l = &f->doc->launches[i];
    bool *out = gl_arena_alloc(&f->arena, (l->nmounts + 1) * sizeof *out);
    for (size_t k = 0; k < n; k++) {
        const struct gl_mount *m = paths[k].role == GL_PATH_CHECKPOINT
                                       ? gl_launch_mount_for(f, i, paths[k].path)
                                       : NULL;
        if (m)
            out[m - l->mounts] = true;
    }
    return out;
}

static void check(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    struct gl_launch_facts f;
    gl_launch_facts_init(&f, doc, c->cfg);
    for (size_t i = 0; i < doc->nlaunches; i++) {
        const struct gl_launch *l = &doc->launches[i];
        struct gl_launch_path *paths;
        size_t n = gl_launch_paths(&f, i, &paths);
        bool *holds_output = NULL;
        for (size_t k = 0; k < n; k++) {
            const struct gl_launch_path *p = &paths[k];
            if (p->role != GL_PATH_DATASET)
                continue;
            const struct gl_mount *m = gl_launch_mount_for(&f, i, p->path);
            if (!m || m->readonly || (m->type != GL_MOUNT_BIND && m->type != GL_MOUNT_VOLUME))
                continue;
            if (!holds_output)
                holds_output = output_mounts(&f, i, paths, n);
            if (holds_output[m - l->mounts])
                continue;
            gl_report(c, m->loc, NULL,
                      "mount `%s` serves the dataset path `%s` (%s) but is writable: a bug "
                      "or a stray script can change the dataset",
                      m->target ? m->target : "?", p->path, p->name);
            break;
        }
    }
    gl_launch_facts_free(&f);
}

const struct gl_rule gl_rule_GL403 = {
    .id = "GL403",
    .name = "dataset-mount-writable",
    .severity = GL_SEV_INFO,
    .summary = "a mount serving a dataset path is not read-only",
    .explanation =
        "A training job reads its dataset; it has no reason to write it. A read-write "
        "mount lets a bug, a preprocessing step or a stray `rm` change the data every "
        "later run depends on, and on some filesystems a read-only mount is also cheaper. "
        "Only mounts that serve a path named by a dataset argument or env var count (not "
        "any mount whose name looks like data), and not a mount that also holds an output "
        "path of the same launch.",
    .bad = "docker run --gpus all -v /mnt/imagenet:/data trainer python train.py --data /data",
    .good = "docker run --gpus all -v /mnt/imagenet:/data:ro trainer python train.py --data /data",
    .fix = "mount it read-only: `-v src:dst:ro`, `--mount ...,readonly`, `readOnly: true`, "
           "apptainer `--bind src:dst:ro`",
    .check = check,
};
