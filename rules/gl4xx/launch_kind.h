/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_kind.h: what kind of job a launch runs, where RULES.md's decisions make the
 * GL4xx rules judge it differently:
 *
 *  - a smoke test (`nvidia-smi` with any flags, also under `watch [-n N]`, `deviceQuery`,
 *    `bandwidthTest`, or a
 *    `python -c` one-liner that only imports, prints and asserts, or calls a module's
 *    `init()` or `print_*()` report with no arguments; beside commands that only
 *    wait or print, and package installs before it: apt-get/yum/dnf/apk, pip, `uv pip`,
 *    conda install): GL410 and GL411 never fire on it;
 *  - a serving launch (a Kubernetes ServingRuntime, ClusterServingRuntime or
 *    InferenceService; an image or command of tritonserver, torchserve, kserve/...,
 *    vllm/vllm-openai, text-generation-inference, sglang, ollama): its --model-dir,
 *    --model_dir, --model-repository, --model-store name the model it reads, not a
 *    checkpoint it writes;
 *  - a runtime template (Kubeflow TrainingRuntime / ClusterTrainingRuntime, KServe
 *    ServingRuntime / ClusterServingRuntime): its GPU resources come from the job or
 *    service that uses it, so GL407 and GL410 never fire on it;
 *  - a Jetson launch (an L4T image: `l4t-*`, `nvcr.io/nvidia/l4t-*`, `dustynv/...`, a tag
 *    word `tegra` or `igpu`; a docker run in a text that runs jetson-containers,
 *    doc->jetson_tools, or in a document's section about Jetson,
 *    gl_launch.jetson_section; or a launch
 *    that binds a host file only Jetsons have, `/etc/nv_tegra_release` or the Argus
 *    camera socket `/tmp/argus_socket`, whatever its image), where
 *    `--runtime nvidia` is the documented way to the GPU (no GL413) and the GPU shares the
 *    system memory (no GL411).
 */
#ifndef GPULINT_RULES_LAUNCH_KIND_H
#define GPULINT_RULES_LAUNCH_KIND_H

#include "linter/core/model.h"

bool gl_launch_smoke_test(const struct gl_launch *l);
/* Does the python command of argv[i, end) (i its command word) run no job of its own: a
 * smoke test, a version print (`-V`, `--version`), `setup.py`, or a packaging or checking
 * tool (`-m pip`, `venv`, `build`, `twine`, `pre_commit`, `flake8`, `mypy`, ...)? The steps
 * of a CI job run many such commands beside its real work. */
bool gl_command_python_tool(const struct gl_launch *l, size_t i, size_t end);
/* Does the launch run a model server: a serving kind (InferenceService, ServingRuntime), a
 * serving image (vllm-openai, tritonserver, ...) whose command is no load generator
 * (gl_launch_serving_client), or a server command (tritonserver, torchserve, ...)? */
bool gl_launch_serving(const struct gl_doc *doc, const struct gl_launch *l);
/* The model server built on PyTorch that the launch runs, as a command to name in a
 * message (NULL when none): `vllm serve` or `vllm run-batch` (said "vllm serve"),
 * `trtllm-serve`, at a command's place (behind wrappers, in a spliced `sh -c`); or the
 * vllm/vllm-openai or vllm/vllm-omni image run on its own entrypoint (the OpenAI server: no
 * command, or its arguments only, an option or a model id such as `Qwen/Qwen3-8B` first;
 * not in a Ray object, RayCluster, RayJob, RayService..., whose operator gives the
 * command). Such a server
 * shares tensors between its worker processes through /dev/shm (vLLM's Docker guide:
 * "use the ipc=host flag or --shm-size flag"), as PyTorch jobs do. */
const char *gl_launch_pytorch_server(const struct gl_doc *doc, const struct gl_launch *l);
/* Does argument `name` of a serving launch name the model it serves? */
bool gl_serving_model_arg(const char *name);
bool gl_launch_runtime_template(const struct gl_launch *l);
bool gl_launch_jetson(const struct gl_doc *doc, const struct gl_launch *l);
/* A launch that only builds: its last command compiles (`make` with no target but all,
 * install, build or clean; cmake, ninja, nvcc, meson; pip or `python setup.py`/`-m pip`)
 * and no python, torchrun, deepspeed, accelerate, mpirun or pytest job runs before it
 * (`bash -c "cd /src && git clone ... && make MPI=1"`): compiling CUDA code needs the
 * toolkit in the image, not a device, so GL407 does not ask for one. */
bool gl_launch_build_only(const struct gl_launch *l);
/* A launch that only drives a server elsewhere: its last command is a serving benchmark
 * client (`python3 -m sglang.bench_serving`, `benchmark_serving.py`, `vllm bench serve`,
 * `genai-perf`, `guidellm`), run from the server's image for its tools, on the CPU on
 * purpose; no other job runs before it. */
bool gl_launch_serving_client(const struct gl_launch *l);
/* An image that needs no GPU itself (no GL407): a client or SDK image
 * (`tritonserver:24.05-py3-sdk`, a `-client` tag or repository) talks to a GPU server; a
 * builder image (`pytorch/manylinux-builder:cuda12.1`, a repository named `*-builder` or
 * `builder`) compiles CUDA code, which needs the toolkit, not a device; so does a dev
 * container (devcontainer.json) on a development flavour (`nvidia/cuda:12.4.1-devel-*`,
 * `pytorch/pytorch:*-devel`): a compile environment, on a machine without GPUs too. */
bool gl_launch_tool_image(const struct gl_doc *doc, const struct gl_launch *l);
/* The tool images of them that compile CUDA code (a builder image, a devel dev container),
 * not the clients and SDKs, which may open the device (CUDA shared memory). */
bool gl_launch_compile_image(const struct gl_doc *doc, const struct gl_launch *l);

#endif
