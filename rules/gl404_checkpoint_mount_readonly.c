/* GL404 checkpoint-mount-readonly: a checkpoint/output path is only under a read-only mount. */
#include "linter/check.h"
#include "linter/launch_paths.h"

static void check(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    struct gl_launch_facts f;
    gl_launch_facts_init(&f, doc, c->cfg);
    for (size_t i = 0; i < doc->nlaunches; i++) {
        struct gl_launch_path *paths;
        size_t n = gl_launch_paths(&f, i, &paths);
        for (size_t k = 0; k < n; k++) {
            const struct gl_launch_path *p = &paths[k];
            if (p->role != GL_PATH_CHECKPOINT)
                continue;
            const struct gl_mount *m = gl_launch_mount_for(&f, i, p->path);
            if (!m || !m->readonly)
                continue;
            gl_report(c, p->loc, NULL,
                      "output path `%s` (%s) is under the read-only mount `%s`: every write "
                      "fails with \"Read-only file system\"",
                      p->path, p->name, m->target ? m->target : "?");
            break;
        }
    }
    gl_launch_facts_free(&f);
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
