/* SPDX-License-Identifier: Apache-2.0 */
/* GL402 checkpoint-not-bind-mounted: a checkpoint/output path is under no mount. */
#include <string.h>

#include "rules/check.h"
#include "rules/gl4xx/launch_paths.h"

/* Is a path the container wrote taken out of it after the run? A `docker cp NAME:P` (or a
 * `docker commit NAME`) of the doc names the launch's container (`--name NAME`, kept after
 * it exits: no --rm) and P holds the output path or lies inside it. */
static bool copied_out(const struct gl_doc *doc, const struct gl_launch *l, const char *out)
{
    if (!l->name || l->remove || out[0] != '/')
        return false;
    size_t olen = strlen(out);
    while (olen > 1 && out[olen - 1] == '/')
        olen--;
    for (size_t i = 0; i < doc->ncopyouts; i++) {
        const struct gl_copy_out *c = &doc->copyouts[i];
        size_t plen = strlen(c->path);
        if (strcmp(c->container, l->name))
            continue;
        size_t m = plen < olen ? plen : olen; /* the shorter is the other's directory */
        const char *longer = plen < olen ? out : c->path;
        if (!memcmp(out, c->path, m) && (plen == olen || longer[m] == '/'))
            return true;
    }
    return false;
}

/* Only launches whose mounts are all known (see GL401). */
static bool judge(struct gl_check *c, const struct gl_path_use *u, void *ctx)
{
    (void)ctx;
    if (u->mount || copied_out(c->doc, u->launch, u->path->path))
        return false;
    gl_report(c, u->path->loc, NULL,
              "output path `%s` (%s) is under no mount of %s: writes pay "
              "copy-on-write and are lost with the container%s",
              u->path->path, u->path->name, gl_launch_label(&u->facts->arena, u->launch),
              u->launch->remove ? " (at once: --rm)" : "");
    return true;
}

static void check(struct gl_check *c)
{
    gl_check_path_uses(c, GL_PATH_CHECKPOINT, GL_PATHS_MOUNTS_COMPLETE, judge, NULL);
}

const struct gl_rule gl_rule_GL402 = {
    .id = "GL402",
    .name = "checkpoint-not-bind-mounted",
    .severity = GL_SEV_ERROR,
    .summary = "a checkpoint/output path is not under any mount",
    .explanation =
        "Checkpoints, logs and results written to a path no mount covers go into the container's "
        "writable layer: every write pays OverlayFS copy-on-write, and the files vanish when the "
        "container is removed (at once with `--rm`, with the pod in Kubernetes). A day of "
        "training is lost with them. Argument and env names are configurable (`checkpoint-args`, "
        "`checkpoint-env` in .gpulint.yaml). In a serving launch (tritonserver, torchserve, vLLM, "
        "TGI, SGLang, Ollama, KServe runtimes) `--model-dir`, `--model-repository` and "
        "`--model-store` name the model it reads, not a checkpoint. A path a `docker cp "
        "NAME:PATH` (or `docker commit NAME`) of the same file takes out of the launch's named "
        "container (`--name NAME`, no `--rm`) is kept: CI jobs write results inside and copy them "
        "out.",
    .bad = "docker run --rm --gpus all trainer python train.py --output_dir /out",
    .good = "docker run --rm --gpus all -v /scratch/run1:/out trainer \\\n"
            "    python train.py --output_dir /out",
    .fix = "mount a host directory or a volume there: -v /host/out:/out (compose `volumes:`, "
           "Kubernetes a PVC volumeMount)",
    .check = check,
};
