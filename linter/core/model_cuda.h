/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_cuda.h: CUDA requirements with provenance (part of the model, see model.h).
 *
 * A gl_cuda_fact says "this image needs CUDA X" (or "this framework was built for CUDA
 * X"), and where that was learnt: the kind of source, a label for messages ("base tag",
 * "ENV CUDA_VERSION", "torch==2.1.0+cu121") and the position. The subject it belongs to
 * is a Dockerfile stage, a launch, or the image of an archive. Sources in order of trust
 * are listed in RULES.md (GL2xx).
 */
#ifndef GPULINT_MODEL_CUDA_H
#define GPULINT_MODEL_CUDA_H

enum gl_cuda_source {
    GL_CUDA_IMAGE_FILE,      /* usr/local/cuda-X.Y, version.json, libcudart.so.X.Y.Z */
    GL_CUDA_IMAGE_ENV,       /* image config CUDA_VERSION */
    GL_CUDA_ENV,             /* Dockerfile ENV CUDA_VERSION */
    GL_CUDA_ARG,             /* Dockerfile ARG default */
    GL_CUDA_BASE_TAG,        /* nvidia/cuda:12.4.1-... */
    GL_CUDA_NGC_TAG,         /* nvcr.io/nvidia/pytorch:24.05-py3 via the release table */
    GL_CUDA_TAG,             /* a cudaX.Y / cuXYZ token in another image's tag */
    GL_CUDA_OS_PACKAGE,      /* cuda-toolkit-12-6 */
    GL_CUDA_FRAMEWORK,       /* torch+cu121, pytorch-cuda=, cudatoolkit=, jax[cuda12] ... */
    GL_CUDA_PIP_NVIDIA,      /* nvidia-*-cu12 (major only) */
    GL_CUDA_REQUIRE,         /* NVIDIA_REQUIRE_CUDA constraint (see `require`) */
};

struct gl_cuda_fact {
    const char *version;     /* "12.4.1", "12.1", "12" (major only); NULL for REQUIRE */
    enum gl_cuda_source kind;
    const char *label;       /* for messages: "base tag", "torch==2.1.0+cu121" */
    const char *framework;   /* "torch", "tensorflow", "jax", "pytorch-cuda", ...; NULL */
    const char *require;     /* the NVIDIA_REQUIRE_CUDA expression, for GL_CUDA_REQUIRE */
    struct gl_loc loc;       /* the token: in the doc, or in `file` when that is set */
    const char *file;        /* NULL: loc is in the doc itself; else a file the doc names
                                (a `pip install -r requirements.txt`), path as opened */
    struct gl_loc via_loc;   /* with `file`: where the doc names that file (the -r word) */
    int instr;               /* Dockerfile instruction (index in the file) of a package pin
                                or index, else -1: rules report once per instruction */
    int stage;               /* Dockerfile stage index, else -1 */
    int launch;              /* launch index, else -1 */
    int ref;                 /* the reference it was derived from, else -1 */
};

#endif
