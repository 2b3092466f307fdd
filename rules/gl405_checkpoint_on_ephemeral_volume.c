/* GL405 checkpoint-on-ephemeral-volume: a checkpoint/output path is on emptyDir or tmpfs. */
#include "linter/check.h"
#include "linter/launch_paths.h"

static void check(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    struct gl_launch_facts f;
    gl_launch_facts_init(&f, doc, c->cfg);
    for (size_t i = 0; i < doc->nlaunches; i++) {
        const struct gl_launch *l = &doc->launches[i];
        struct gl_launch_path *paths;
        size_t n = gl_launch_paths(&f, i, &paths);
        for (size_t k = 0; k < n; k++) {
            const struct gl_launch_path *p = &paths[k];
            if (p->role != GL_PATH_CHECKPOINT)
                continue;
            const struct gl_mount *m = gl_launch_mount_for(&f, i, p->path);
            if (!m || (m->type != GL_MOUNT_EMPTYDIR && m->type != GL_MOUNT_EMPTYDIR_MEMORY &&
                       m->type != GL_MOUNT_TMPFS))
                continue;
            const char *what = m->type == GL_MOUNT_TMPFS ? "a tmpfs" : "an emptyDir";
            gl_report(c, p->loc, NULL,
                      "output path `%s` (%s) is on %s mounted at `%s`: the checkpoints are "
                      "lost when the %s goes",
                      p->path, p->name, what, m->target ? m->target : "?",
                      l->kind == GL_LAUNCH_K8S ? "pod" : "container");
            break;
        }
    }
    gl_launch_facts_free(&f);
}

const struct gl_rule gl_rule_GL405 = {
    .id = "GL405",
    .name = "checkpoint-on-ephemeral-volume",
    .severity = GL_SEV_WARNING,
    .summary = "a checkpoint/output path is on an emptyDir (or tmpfs)",
    .explanation =
        "An emptyDir lives and dies with its pod, a tmpfs with its container: a preempted, "
        "evicted or rescheduled job restarts from nothing. `medium: Memory` and tmpfs also "
        "count the checkpoints against the memory limit. Write checkpoints to a "
        "PersistentVolumeClaim, a bind mount or object storage.",
    .bad = "volumeMounts: [{name: scratch, mountPath: /ckpt}]\n"
           "volumes: [{name: scratch, emptyDir: {}}]\nargs: [--checkpoint-dir, /ckpt]",
    .good = "volumes: [{name: scratch, persistentVolumeClaim: {claimName: ckpt}}]",
    .fix = "put the output path on a PersistentVolumeClaim or a bind mount",
    .check = check,
};
