/* SPDX-License-Identifier: Apache-2.0 */
/* GL405 checkpoint-on-ephemeral-volume: a checkpoint/output path is on emptyDir or tmpfs. */
#include "rules/check.h"
#include "rules/gl4xx/launch_paths.h"

static bool judge(struct gl_check *c, const struct gl_path_use *u, void *ctx)
{
    (void)ctx;
    const struct gl_mount *m = u->mount;
    if (!m || (m->type != GL_MOUNT_EMPTYDIR && m->type != GL_MOUNT_EMPTYDIR_MEMORY &&
               m->type != GL_MOUNT_TMPFS))
        return false;
    const char *what = m->type == GL_MOUNT_TMPFS ? "a tmpfs" : "an emptyDir";
    gl_report(c, u->path->loc, NULL,
              "output path `%s` (%s) is on %s mounted at `%s`: the checkpoints are "
              "lost when the %s goes",
              u->path->path, u->path->name, what, m->target ? m->target : "?",
              u->launch->kind == GL_LAUNCH_K8S ? "pod" : "container");
    return true;
}

static void check(struct gl_check *c)
{
    gl_check_path_uses(c, GL_PATH_CHECKPOINT, GL_PATHS_EVERY_LAUNCH, judge, NULL);
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
