/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_cuda.h: CUDA facts from an image's files (GL_CUDA_IMAGE_FILE, and torch's CUDA
 * as GL_CUDA_FRAMEWORK), added to the doc through cuda_derive.h's gl_cuda_add_fact.
 *
 * Per platform, the first of each: usr/local/cuda-X.Y/ (a directory), a CUDA
 * version.json ("cuda": {"version": "12.4.1"}) or version.txt ("CUDA Version 11.0.228"),
 * libcudart.so.X.Y.Z (gives X.Y: Z is a build number), torch/version.py (`cuda = '12.1'`).
 * Facts carry line 0 and a label naming the file. The config's env (CUDA_VERSION,
 * NVIDIA_REQUIRE_CUDA) is not handled here: it is in doc->env with origin
 * GL_ENV_IMAGE_CONFIG, where gl_cuda_derive() picks it up like any other env.
 */
#ifndef GPULINT_IMAGE_CUDA_H
#define GPULINT_IMAGE_CUDA_H

#include "linter/core/model.h"

void gl_image_cuda_facts(struct gl_doc *doc, const struct gl_image_platform *p);

#endif
