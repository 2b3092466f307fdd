/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuda_derive.h: derive CUDA facts (doc->cuda, model_cuda.h) from the parsed model.
 *
 * The engine calls gl_cuda_derive() on every doc after parsing and before the rules: it
 * reads what parsers put in the model (image references, ENV, package installs, package
 * indexes, launches) and adds one gl_cuda_fact per token that names a CUDA version, with
 * the exact position of that token. Rules (GL201/GL202/GL204, GL205, GL407) only read the
 * facts. Sources and their kinds (enum gl_cuda_source):
 *
 *   GL_CUDA_BASE_TAG    nvidia/cuda*, nvcr.io/nvidia/cuda* tags: the leading X.Y[.Z]
 *                       (every flavor and OS); loc = the version bytes of the tag
 *   GL_CUDA_NGC_TAG     nvcr.io/nvidia/<any>:YY.MM-... through the knowledge base's release
 *                       table (every framework of a release shares its CUDA); not an
 *                       NGC team's image (nvidia/<team>/<name>: its YY.MM is its own CalVer);
 *                       label "NGC pytorch 24.05"; loc = the YY.MM bytes
 *   GL_CUDA_TAG         a cudaX.Y[.Z] / cuda-X.Y / cuXYZ token in any other tag
 *                       (pytorch/pytorch:2.3.0-cuda12.1-..., ...-cu126-...); loc = digits
 *   GL_CUDA_ENV         Dockerfile ENV CUDA_VERSION=X.Y.Z (GL_CUDA_IMAGE_ENV for an image
 *                       config's env, through gl_cuda_derive_env)
 *   GL_CUDA_REQUIRE     NVIDIA_REQUIRE_CUDA (Dockerfile ENV, launch env, image config):
 *                       `require` holds the expression, version is NULL
 *   GL_CUDA_OS_PACKAGE  apt/yum/dnf/zypper packages cuda-X-Y, cuda-toolkit-X-Y,
 *                       cuda-runtime-X-Y, cuda-libraries[-dev]-X-Y, cuda-cudart[-dev]-X-Y, ...
 *                       and their RPM -devel spellings (cuda-cudart-devel-X-Y)
 *   GL_CUDA_FRAMEWORK   pip/uv torch|torchvision|torchaudio==V+cuNNN (loc: the '+'),
 *                       --index-url/--extra-index-url/-f .../whl/cuNNN for the torch
 *                       packages of that command (loc: the cuNNN), jax[cudaNN],
 *                       jax-cudaNN-plugin, tensorflow[and-cuda]==V / tensorflow-gpu==V
 *                       (TF's tested CUDA), conda/mamba/micromamba pytorch-cuda=,
 *                       cudatoolkit=, cuda-version=, cuda-toolkit= (loc: the version;
 *                       a `channel::` prefix is looked through), NVIDIA's label channel
 *                       nvidia/label/cuda-X.Y.Z (`-c` it, or `it::cuda-nvcc`) for the
 *                       unversioned cuda / cuda-* packages of the command
 *                       cupy-cuda12x (major) / cupy-cuda110 (release), tensorrt-cu12[-libs]
 *                       (major), onnxruntime-gpu==V (the major of PyPI's CUDA of V from the
 *                       knowledge table; 12 from ONNX Runtime's CUDA 12 feed; nothing from
 *                       another index), paddlepaddle-gpu==V.postNNN, paddlepaddle-gpu from an index
 *                       with a cuNNN segment, uv --torch-backend=cuNNN for torch packages
 *   GL_CUDA_PIP_NVIDIA  nvidia-*-cu11/-cu12/-cu13 wheels (version is the major only), and
 *                       CUDA 13's unsuffixed components pinned to a 13.x version
 *                       (nvidia-cuda-runtime==13.0.96, nvidia-cublas, -cuda-nvrtc,
 *                       -cuda-cupti, -nvjitlink: the names the table lists)
 *
 * Requirements files named by `pip install -r FILE` are read when FILE lies inside the
 * build context (the Dockerfile's directory; no "..", no absolute paths, symlinks must
 * stay inside; regular files up to 1 MiB); their facts carry `file` and `via_loc`. FILE is
 * the image path: the latest COPY/ADD of the stage (or a stage it is built FROM) that put
 * a file there names the context file (`COPY deps/req.txt /tmp/r.txt`, `COPY . /app`,
 * `COPY requirements*.txt ./`, through WORKDIR and a literal `cd /dir` earlier in the RUN);
 * else FILE itself, relative to the context. The same for the other files installs read:
 * conda environment files (`conda|mamba env create|update [-f FILE]`, environment.yml by
 * default; `micromamba create|install -f FILE`) and conda `--file` spec lists; and, only
 * where a COPY/ADD put them, the project files of `pip install .|-e DIR`, `uv pip install
 * -r pyproject.toml` and `uv sync` (pyproject.toml; uv.lock up to 8 MiB): see
 * cuda_derive_internal.h for what is read from each.
 * Not sources: PyPI-default wheels (no +cuNNN), third-party wheel indexes, a bare `-gpu`
 * tag, Jetson/L4T images, local build outputs. Global ARGs used in FROM are seen through
 * the resolved reference (one fact, at the FROM's tag).
 *
 * Version strings are "X.Y.Z", "X.Y" or "X" (major only); malformed versions give no fact.
 * Threads: gl_cuda_derive may run on several docs at once. What a reference's text alone
 * says (which fact, which version) is remembered per thread for the last references seen
 * with the built-in table (_Thread_local, cuda_derive.c); each fact is still made from its
 * own reference (position, stage, label).
 * Other producers (the image-archive parser) add facts with gl_cuda_add_fact() and feed
 * config env through gl_cuda_derive_env().
 */
#ifndef GPULINT_CUDA_DERIVE_H
#define GPULINT_CUDA_DERIVE_H

#include "linter/core/config.h"
#include "linter/core/model.h"
#include "knowledge/kb.h"

/* Derive every fact of the doc (idempotent only on a doc without facts: call once). */
void gl_cuda_derive(struct gl_doc *doc, const struct gl_config *cfg);

/* Append a fact (strings are not copied: pass arena strings or literals). stage, launch
 * and ref start at -1, file at NULL; the caller sets them. */
struct gl_cuda_fact *gl_cuda_add_fact(struct gl_doc *doc, enum gl_cuda_source kind,
                                      const char *version, const char *label,
                                      struct gl_loc loc);

/* The fact of one installed Python distribution (an image's *.dist-info METADATA: its Name
 * and Version), as the pin `name==version` would give it: torch 2.5.1+cu124, nvidia-*-cu12,
 * an unsuffixed CUDA 13 component (by its version), cupy-cuda12x, ... (kb NULL: the
 * builtin table). Line 0, `label` as given (strings not copied); NULL when it names no
 * CUDA. */
struct gl_cuda_fact *gl_cuda_derive_dist(struct gl_doc *doc, const struct gl_kb *kb,
                                         const char *name, const char *version,
                                         const char *label);

/* Facts of one image reference doc->refs[ref] (tag versions, NGC releases, tag tokens). */
void gl_cuda_derive_ref(struct gl_doc *doc, const struct gl_kb *kb, size_t ref);

/* Facts of one environment variable (CUDA_VERSION, NVIDIA_REQUIRE_CUDA). */
void gl_cuda_derive_env(struct gl_doc *doc, const struct gl_env *e);

/* Jetson / L4T images (out of the CUDA driver checks): dustynv/..., an l4t path or tag
 * token, a tag word `tegra` or `igpu` (an integrated GPU: Tegra). */
bool gl_cuda_ref_is_jetson(const struct gl_imageref *ref);

/* The length of a package name before its CUDA release suffix `-X-Y` (two fields of 1 or 2
 * digits: cuda-toolkit-12-6, libcublas-dev-12-4), or the whole length when it has none. */
size_t gl_cuda_release_stem(const char *name);

#endif
