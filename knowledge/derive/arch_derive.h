/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arch_derive.h: derive build-time GPU architecture lists (doc->archlists, model_cuda.h)
 * from the parsed model, for GL210.
 *
 * The engine calls gl_arch_derive() on every doc after parsing, beside gl_cuda_derive().
 * Sources, each read with arch_list.h:
 *   - environment variables TORCH_CUDA_ARCH_LIST, CMAKE_CUDA_ARCHITECTURES, CUDAARCHS,
 *     TCNN_CUDA_ARCHITECTURES: Dockerfile ENV, launch env (docker run -e, compose, pods),
 *     an image's config env;
 *   - the same names as Dockerfile ARGs (their resolved value) and RUN-line assignments
 *     (`TORCH_CUDA_ARCH_LIST="8.0;8.6" pip install ...`), and as arguments of export, env,
 *     declare in a RUN line;
 *   - cmake commands in RUN lines: -DCMAKE_CUDA_ARCHITECTURES=V (also :STRING, `-D NAME=V`);
 *   - nvcc commands in RUN lines: their -gencode / -arch / -code flags (one list each).
 * A value gpulint could not resolve is an opaque list (never judged).
 */
#ifndef GPULINT_ARCH_DERIVE_H
#define GPULINT_ARCH_DERIVE_H

#include "linter/core/model.h"

void gl_arch_derive(struct gl_doc *doc);

#endif
