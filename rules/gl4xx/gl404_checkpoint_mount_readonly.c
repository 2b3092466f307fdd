/* SPDX-License-Identifier: Apache-2.0 */
/* GL404 checkpoint-mount-readonly: a checkpoint/output path is only under a read-only mount. */
#include "rules/check.h"
#include "rules/gl4xx/launch_paths.h"

static bool judge(struct gl_check *c, const struct gl_path_use *u, void *ctx)
{
    (void)ctx;
    const struct gl_mount *m = u->mount;
    if (!m || !m->readonly)
        return false;
    gl_report(c, u->path->loc, NULL,
              "output path `%s` (%s) is under the read-only mount `%s`: every write "
              "fails with \"Read-only file system\"",
              u->path->path, u->path->name, m->target ? m->target : "?");
    return true;
}

static void check(struct gl_check *c)
{
    gl_check_path_uses(c, GL_PATH_CHECKPOINT, GL_PATHS_EVERY_LAUNCH, judge, NULL);
}

const struct gl_rule gl_rule_GL404 = {
    .id = "GL404",
    .name = "checkpoint-mount-readonly",
    .severity = GL_SEV_ERROR,
    .summary = "a checkpoint/output path is only under read-only mounts",
    .explanation =
        "The innermost mount that holds the output path is read-only (`:ro`, `readonly`, "
        "`readOnly: true`): the first checkpoint save fails with EROFS, often hours into "
        "the run. Mount a writable directory at (or below) the output path; a writable "
        "mount nested inside a read-only one wins, as the longest mount prefix decides.",
    .bad = "docker run --gpus all -v /scratch:/work:ro trainer \\\n"
           "    python train.py --output_dir /work/run1",
    .good = "docker run --gpus all -v /scratch:/work:ro -v /scratch/run1:/work/run1 trainer \\\n"
            "    python train.py --output_dir /work/run1",
    .fix = "mount a writable directory at the output path (drop `:ro` there, or add a "
           "writable mount below it)",
    .check = check,
};
