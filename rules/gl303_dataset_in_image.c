/* GL303 dataset-in-image: datasets, checkpoints or weights copied into the image. */
#include <string.h>

#include "linter/check.h"

static void check(struct gl_check *c)
{
    const struct gl_dockerfile_model *m = c->doc->df;
    if (!m || !c->cfg->data_path)
        return;
    for (size_t i = 0; i < m->ncopies; i++) {
        const struct gl_copy_src *s = &m->copies[i];
        if (!gl_df_stage_shipped(c->doc, s->stage))
            continue;
        /* match the path without a trailing slash too: `COPY data/ /data` */
        size_t n = strlen(s->path);
        if (!gl_pattern_match(c->cfg->data_path, s->path, n))
            continue;
        gl_report(c, s->loc, NULL,
                  "`%s %s` bakes data into the image: every rebuild and pull copies it, "
                  "and it is read through OverlayFS", s->add ? "ADD" : "COPY", s->path);
    }
}

const struct gl_rule gl_rule_GL303 = {
    .id = "GL303",
    .name = "dataset-in-image",
    .severity = GL_SEV_WARNING,
    .summary = "COPY/ADD brings dataset, checkpoint or weight paths into the image (data/, "
               "datasets/, checkpoints/, *.ckpt, *.pt, *.safetensors, ...), or an image's "
               "layers hold such files over a size threshold",
    .explanation =
        "Datasets and weights in an image make every layer push, pull and cache miss move "
        "gigabytes, tie the data's version to the code's, and are read through the "
        "container's OverlayFS instead of a local or network filesystem. Mount them at run "
        "time instead (`docker run -v /datasets/imagenet:/data:ro`, a Kubernetes volume), "
        "and keep them out of the build context with .dockerignore. The path patterns are "
        "configurable.",
    .bad = "FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\nCOPY data/ /workspace/data/\n"
           "COPY model.safetensors /workspace/",
    .good = "FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\n"
            "# docker run -v /datasets:/workspace/data:ro -v /models:/workspace/models:ro ...",
    .fix = "mount the data read-only at run time and add it to .dockerignore",
    .check = check,
};
