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
    const char *torch;       /* the torch release of a torch build when known ("2.1.0" from
                                torch==2.1.0+cu121 or pytorch/pytorch:2.1.0-cuda12.1-...),
                                else NULL (GL209 reads its arch list) */
    struct gl_loc loc;       /* the token: in the doc, or in `file` when that is set */
    const char *file;        /* NULL: loc is in the doc itself; else a file the doc names
                                (a `pip install -r requirements.txt`), path as opened */
    struct gl_loc via_loc;   /* with `file`: where the doc names that file (the -r word) */
    int instr;               /* Dockerfile instruction (index in the file) of a package pin
                                or index, else -1: rules report once per instruction */
    int stage;               /* Dockerfile stage index, else -1 */
    int launch;              /* launch index, else -1 */
    int ref;                 /* the reference it was derived from, else -1 */
    bool loads_image_cuda;   /* GL_CUDA_FRAMEWORK: a build that brings no CUDA runtime of its
                                own and loads the image's libraries (a plain tensorflow,
                                tensorflow-gpu or tf-nightly pin), so `version` is the CUDA
                                it was tested with, not one it ships */
};

/* One piece of device code, or one target of an arch list: SASS (`sm_XY`, a cubin) or PTX
 * (`compute_XY`), plain or with an `a` (arch-specific) / `f` (family) suffix. `sm` is the
 * compute capability as major*10 + minor (90 = 9.0). knowledge/gpu_arch.h says where
 * each runs. */
enum gl_arch_code {
    GL_ARCH_SASS, /* sm_XY: machine code */
    GL_ARCH_PTX,  /* compute_XY: JIT-compiled by the driver */
};

struct gl_arch {
    unsigned sm;            /* 90 for sm_90 / compute_90 */
    enum gl_arch_code code;
    char suffix;            /* 0, 'a' (arch-specific) or 'f' (family-specific) */
};

/* A build-time architecture list (GL210): the value of TORCH_CUDA_ARCH_LIST,
 * CMAKE_CUDA_ARCHITECTURES, CUDAARCHS or TCNN_CUDA_ARCHITECTURES (Dockerfile ENV, ARG, a
 * RUN-line assignment or -D flag, launch env), or the -gencode/-arch flags of one nvcc
 * command. Derived by knowledge/derive/arch_derive.h. */
struct gl_arch_list {
    const char *name;        /* "TORCH_CUDA_ARCH_LIST", "CMAKE_CUDA_ARCHITECTURES", "nvcc" */
    const char *value;       /* as given: "8.0;8.6+PTX", "-gencode arch=compute_80,code=sm_80" */
    struct gl_loc loc;       /* the value's first byte (nvcc: the first arch flag) */
    struct gl_arch *archs;   size_t narchs;
    bool opaque;             /* native, all, all-major, an unknown entry or an unresolved
                                value: never judged */
    int stage, launch, instr; /* Dockerfile stage / launch / instruction, else -1 */
};

#endif
