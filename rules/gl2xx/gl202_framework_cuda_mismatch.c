/* SPDX-License-Identifier: Apache-2.0 */
/* GL202 framework-cuda-mismatch: a framework's CUDA build differs in major.minor from the
 * image's CUDA. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/gl2xx/cuda_check.h"

/* Facts that say which CUDA the image itself carries (not a framework's build). */
static bool image_cuda_kind(enum gl_cuda_source k)
{
    switch (k) {
    case GL_CUDA_IMAGE_FILE:
    case GL_CUDA_IMAGE_ENV:
    case GL_CUDA_ENV:
    case GL_CUDA_ARG:
    case GL_CUDA_BASE_TAG:
    case GL_CUDA_NGC_TAG:
    case GL_CUDA_TAG:
    case GL_CUDA_OS_PACKAGE: return true;
    default: return false;
    }
}

/* Same CUDA release line: major.minor when both give a minor, else the major. */
static bool same_line(const char *a, const char *b)
{
    unsigned fields = strchr(a, '.') && strchr(b, '.') ? 2 : 1;
    int r;
    return gl_version_compare(a, b, fields, &r) && r == 0;
}

#define IMAGE_FACTS_MAX 256 /* distinct image CUDA facts compared (hostile inputs) */

/* The image CUDA facts that count, one per version for the shipped Dockerfile image:
 * fills list (doc->cuda indices), returns the count. Linear in the facts. */
static size_t image_facts(const struct gl_doc *doc, size_t *list)
{
    size_t n = 0;
    for (size_t k = 0; k < doc->ncuda && n < IMAGE_FACTS_MAX; k++) {
        const struct gl_cuda_fact *f = &doc->cuda[k];
        if (!image_cuda_kind(f->kind) || !f->version || !gl_version_valid(f->version) ||
            !gl_cuda_fact_counts(doc, f))
            continue;
        bool dup = false;
        for (size_t i = 0; i < n && !dup && f->stage >= 0; i++) {
            const struct gl_cuda_fact *g = &doc->cuda[list[i]];
            dup = g->stage >= 0 && !strcmp(g->version, f->version) && g->kind <= f->kind;
        }
        if (!dup)
            list[n++] = k;
    }
    return n;
}

static void check(struct gl_check *c)
{
    const struct gl_doc *doc = c->doc;
    size_t list[IMAGE_FACTS_MAX];
    size_t nlist = image_facts(doc, list);
    if (!nlist)
        return;
    /* instructions already reported: made at the first report (most docs have none) */
    bool *done = NULL;
    for (size_t i = 0; i < doc->ncuda; i++) {
        const struct gl_cuda_fact *fw = &doc->cuda[i];
        if (fw->kind != GL_CUDA_FRAMEWORK || !fw->version || !gl_version_valid(fw->version) ||
            !gl_cuda_fact_counts(doc, fw) || (done && fw->instr >= 0 && done[fw->instr]))
            continue;
        const struct gl_cuda_fact *image = NULL;
        bool matched = false;
        for (size_t k = 0; k < nlist && !matched; k++) {
            const struct gl_cuda_fact *f = &doc->cuda[list[k]];
            if (!gl_cuda_same_subject(doc, fw, f))
                continue;
            if (same_line(fw->version, f->version))
                matched = true;
            else if (!image || f->kind < image->kind)
                image = f;
        }
        if (matched || !image)
            continue;
        if (!done)
            done = gl_cuda_instr_flags(doc);
        gl_cuda_instr_claim(done, fw);
        char fw_where[512], img_where[512];
        gl_cuda_fact_where(c->doc, fw, fw_where, sizeof fw_where);
        gl_cuda_fact_where(c->doc, image, img_where, sizeof img_where);
        int newer = 0;
        gl_version_compare(fw->version, image->version, 2, &newer);
        const char *name = fw->framework ? fw->framework : "the framework";
        if (fw->loads_image_cuda) /* (it ships no runtime: it loads the image's) */
            gl_report(c, gl_cuda_fact_report_loc(fw),
                      "pin the release tested with the image's CUDA, or use a base image of "
                      "the CUDA this one was tested with (or its [and-cuda] form, which "
                      "brings its own libraries)",
                      "%s (%s) was tested with CUDA %s but loads the image's CUDA %s "
                      "libraries (%s): a build it was not tested with, whose library "
                      "versions it may not find",
                      name, fw_where, fw->version, image->version, img_where);
        else
            gl_report(c, gl_cuda_fact_report_loc(fw), NULL,
                      "%s (%s) is built for CUDA %s but the image's CUDA is %s (%s): two "
                      "CUDA runtimes ship and the image's toolkit is dead weight%s",
                      name, fw_where, fw->version, image->version, img_where,
                      newer > 0 ? ", and the framework's newer CUDA raises the driver floor"
                                : "");
    }
    free(done);
}

const struct gl_rule gl_rule_GL202 = {
    .id = "GL202",
    .name = "framework-cuda-mismatch",
    .severity = GL_SEV_WARNING,
    .summary = "a framework's CUDA build (torch +cuNNN, PyTorch wheel index, conda "
               "pytorch-cuda/cudatoolkit, jax[cudaNN], TensorFlow's tested CUDA, cupy-cudaNNx, "
               "tensorrt-cuNN, onnxruntime-gpu, paddlepaddle-gpu) differs in major.minor from "
               "the image's CUDA",
    .explanation =
        "A framework wheel or conda package built for one CUDA release brings its own CUDA "
        "runtime libraries. When the image's CUDA (its base tag, ENV CUDA_VERSION, an NGC "
        "release, or cuda-X-Y OS packages) is another major.minor, two CUDA runtimes ship: "
        "the image's toolkit is dead weight (often gigabytes), the libraries that actually "
        "load are not the ones the image was chosen for, and a framework built for a newer "
        "CUDA raises the driver the container needs above what the base image promises. "
        "Only the shipped image counts (the final Dockerfile stage and the stages it is "
        "built FROM); when the image carries several CUDA versions, the framework must match "
        "one of them. Facts with a major only (jax[cuda12], cupy-cuda12x, tensorrt-cu12) are "
        "compared by major. onnxruntime-gpu counts when pinned, by the CUDA major of PyPI's "
        "wheel of that release (or ONNX Runtime's CUDA 12 feed when the command names it): "
        "it loads the image's CUDA libraries of that major. So does TensorFlow without "
        "[and-cuda] (tensorflow, tensorflow-gpu, tf-nightly X.Y.Z.devN as X.Y.Z), in an image "
        "that has its own CUDA: it was tested with one CUDA release, and another one's "
        "library versions may not be found. Besides RUN lines, the pins are "
        "read from the files an install reads, where the Dockerfile copies or bind-mounts them: "
        "requirements files (pip install -r), conda environment files (conda env create|"
        "update -f, micromamba -f) and --file spec lists, pyproject.toml (pip install ., "
        "uv sync, uv pip install -r pyproject.toml: its dependencies, those of the extras the "
        "command installs, and the PyTorch index [tool.uv.sources] names for torch, for those "
        "extras) and uv.lock (uv sync: the locked torch +cuNNN "
        "and CUDA wheels). In an image archive the installed distributions are read from "
        "their dist-info METADATA (Name and Version: torch 2.5.1+cu124, cupy-cuda12x, "
        "nvidia-*), against the image's own CUDA files. Alternatives chosen at install time (several PyTorch indexes for "
        "extras or markers, a lock forked into several torch builds) are not judged.",
    .bad = "FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04\n"
           "RUN pip install torch==2.1.0+cu121 --index-url https://download.pytorch.org/whl/cu121",
    .good = "FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n"
            "RUN pip install torch==2.1.0+cu121 --index-url https://download.pytorch.org/whl/cu121",
    .fix = "pick the framework build for the image's CUDA (or a base image of the framework's "
           "CUDA, or a plain OS base: the wheel brings its own runtime)",
    .check = check,
};
