/* SPDX-License-Identifier: Apache-2.0 */
/* GL403 dataset-mount-writable: the mount serving a dataset path is not read-only. */
#include "rules/check.h"
#include "rules/gl4xx/launch_paths.h"
#include "rules/gl4xx/launch_writes.h"

/* The mounts of one launch that hold an output path or a path its commands write (a
 * data-download job fills its dataset mount): those must stay writable. Marked on first
 * need and kept while the walk stays on that launch. */
struct output_mounts {
    size_t launch;
    bool *marked; /* NULL: not marked yet for `launch` */
    struct gl_launch_facts *facts;
};

static void mark_written(const char *path, void *ctx)
{
    struct output_mounts *o = ctx;
    const struct gl_mount *m = gl_launch_mount_for(o->facts, o->launch, path);
    if (m)
        o->marked[m - o->facts->doc->launches[o->launch].mounts] = true;
}

static const bool *output_mounts(struct output_mounts *o, const struct gl_path_use *u)
{
    if (o->marked && o->launch == u->index)
        return o->marked;
    const struct gl_launch *l = u->launch;
    o->launch = u->index;
    o->marked = gl_arena_alloc(&u->facts->arena, (l->nmounts + 1) * sizeof *o->marked);
    for (size_t k = 0; k < u->npaths; k++) {
        const struct gl_mount *m = u->paths[k].role == GL_PATH_CHECKPOINT
                                       ? gl_launch_mount_for(u->facts, u->index, u->paths[k].path)
                                       : NULL;
        if (m)
            o->marked[m - l->mounts] = true;
    }
    o->facts = u->facts;
    gl_launch_each_written(u->facts, u->index, mark_written, o);
    return o->marked;
}

static bool judge(struct gl_check *c, const struct gl_path_use *u, void *ctx)
{
    const struct gl_mount *m = u->mount;
    if (!m || m->readonly || (m->type != GL_MOUNT_BIND && m->type != GL_MOUNT_VOLUME) ||
        output_mounts(ctx, u)[m - u->launch->mounts])
        return false;
    gl_report(c, m->loc, NULL,
              "mount `%s` serves the dataset path `%s` (%s) but is writable: a bug "
              "or a stray script can change the dataset",
              m->target ? m->target : "?", u->path->path, u->path->name);
    return true;
}

static void check(struct gl_check *c)
{
    struct output_mounts outputs = {0};
    gl_check_path_uses(c, GL_PATH_DATASET, GL_PATHS_EVERY_LAUNCH, judge, &outputs);
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
        "path of the same launch, or a path its own commands write (a job that downloads "
        "or unpacks the dataset there: `mkdir`, `unzip -d`, `tar -C`, `wget -P`, `cp`).",
    .bad = "docker run --gpus all -v /mnt/imagenet:/data trainer python train.py --data /data",
    .good = "docker run --gpus all -v /mnt/imagenet:/data:ro trainer python train.py --data /data",
    .fix = "mount it read-only: `-v src:dst:ro`, `--mount ...,readonly`, `readOnly: true`, "
           "apptainer `--bind src:dst:ro`",
    .check = check,
};
