/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_cuda.h: CUDA facts from an image's files (GL_CUDA_IMAGE_FILE, and torch's CUDA
 * as GL_CUDA_FRAMEWORK), added to the doc through cuda_derive.h's gl_cuda_add_fact.
 *
 * Per platform, the first of each: usr/local/cuda-X.Y/ (a directory), a CUDA
 * version.json ("cuda": {"version": "12.4.1"}) or version.txt ("CUDA Version 11.0.228"),
 * libcudart.so.X.Y.Z (gives X.Y: Z is a build number), torch/version.py (`cuda = '12.1'`).
 * And every installed Python distribution of a CUDA build: the `Name:` and `Version:` of
 * each *.dist-info/METADATA the layer reader captured (torch, torchvision, torchaudio with
 * +cuNNN, nvidia-* wheels, cupy-cudaNNx, tensorrt-cuNN, jax-cudaNN-plugin, onnxruntime-gpu,
 * paddlepaddle-gpu), as the pin name==version would give it (cuda_derive.h): torch's
 * release goes with it, for GL209; a torch distribution with a CUDA local version stands
 * for torch/version.py. Several nvidia-* wheels of one CUDA major are one fact.
 * Facts carry line 0 and a label naming the file. The config's env (CUDA_VERSION,
 * NVIDIA_REQUIRE_CUDA) is not handled here: it is in doc->env with origin
 * GL_ENV_IMAGE_CONFIG, where gl_cuda_derive() picks it up like any other env.
 */
#ifndef GPULINT_IMAGE_CUDA_H
#define GPULINT_IMAGE_CUDA_H

#include "linter/core/model.h"
#include "knowledge/kb.h"

void gl_image_cuda_facts(struct gl_doc *doc, const struct gl_image_platform *p,
                         const struct gl_kb *kb);

#endif
