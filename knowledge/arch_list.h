/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arch_list.h: the syntax of build-time GPU architecture lists, into arch entries
 * (gpu_arch.h). Each reader fills a struct gl_arch_list's archs (from the arena) and
 * sets `opaque` when the value cannot be judged:
 *
 *   TORCH_CUDA_ARCH_LIST   entries X.Y (sm_XY SASS), X.Y+PTX (also compute_XY PTX), X.Ya,
 *                          separated by ';', ' ' or ','; names as PyTorch's cpp_extension
 *                          expands them (Ampere = 8.0;8.6+PTX, Hopper = 9.0+PTX, ...)
 *   CMAKE_CUDA_ARCHITECTURES, CUDAARCHS
 *                          ';'-separated: 80 (SASS and PTX), 80-real (SASS), 80-virtual
 *                          (PTX), 90a...; native, all, all-major are opaque (they cover
 *                          what the GPU or the CUDA release has); OFF builds none (opaque)
 *   TCNN_CUDA_ARCHITECTURES
 *                          ';' or ','-separated numbers; tiny-cuda-nn builds each as SASS
 *                          and PTX
 *   nvcc flags             -gencode/--generate-code arch=compute_XY,code=sm_XY or
 *                          code=[sm_XY,compute_XY] (also as -gencode=...), -arch/
 *                          --gpu-architecture sm_XY (SASS and PTX of XY, as nvcc expands
 *                          it; with -code/--gpu-code: those), compute_XY (PTX); native,
 *                          all, all-major are opaque
 *   NVCC_GENCODE           nvcc arch flags as above, separated by blanks: the variable
 *                          NCCL's and nccl-tests' Makefiles pass to nvcc (`make
 *                          NVCC_GENCODE="-gencode=arch=compute_80,code=sm_80 ..."`); a
 *                          value with no arch flag is opaque
 *
 * An entry that is none of these (a typo, a variable) makes the whole list opaque: no
 * finding may depend on it.
 */
#ifndef GPULINT_ARCH_LIST_H
#define GPULINT_ARCH_LIST_H

#include "linter/core/model.h"
#include "linter/core/util.h"

enum gl_arch_syntax {
    GL_ARCHS_TORCH,  /* TORCH_CUDA_ARCH_LIST */
    GL_ARCHS_CMAKE,  /* CMAKE_CUDA_ARCHITECTURES, CUDAARCHS */
    GL_ARCHS_TCNN,   /* TCNN_CUDA_ARCHITECTURES */
    GL_ARCHS_NVCC,   /* NVCC_GENCODE: nvcc flags */
};

/* The syntax of a variable that holds an arch list, by its name; false for other names. */
bool gl_arch_syntax_of(const char *name, enum gl_arch_syntax *out);

/* Read `value` (NULL: opaque) as an arch list of that syntax into l->archs. */
void gl_arch_list_read(struct gl_arch_list *l, struct gl_arena *a, enum gl_arch_syntax syntax,
                       const char *value);

/* Read the arch flags of one nvcc command (words[0] is nvcc). Returns the index of the
 * first arch flag word, or -1 when the command has none (then l is untouched but for
 * archs = NULL). Words that are opaque make the list opaque. */
long gl_arch_list_read_nvcc(struct gl_arch_list *l, struct gl_arena *a,
                            const struct gl_word *words, size_t n);

#endif
