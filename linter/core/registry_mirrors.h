/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registry_mirrors.h: public pull-through mirrors of the big registries, by host.
 *
 * Where Docker Hub, nvcr.io or ghcr.io are slow or blocked, projects pull the same images
 * through a public mirror and write the mirror into their files:
 * `FROM docker.m.daocloud.io/nvidia/cuda:12.8.1-devel-ubuntu22.04`,
 * `image: m.daocloud.io/docker.io/vllm/vllm-openai:v0.6.0`. The image is the upstream
 * one, byte for byte, so every fact about `nvidia/cuda:12.8.1-devel-ubuntu22.04` holds for
 * it. Two forms:
 *
 * - a mirror host stands for one upstream registry, the path is the upstream path
 *   (docker.m.daocloud.io/nvidia/cuda is docker.io/nvidia/cuda);
 * - a prefix proxy is followed by the upstream registry's host as the path's first
 *   component (m.daocloud.io/nvcr.io/nvidia/pytorch is nvcr.io/nvidia/pytorch).
 *
 * Only mirrors whose operators document the mapping are listed (sources in
 * registry_mirrors.c); a private mirror is unknown and its images stay its own.
 */
#ifndef GPULINT_REGISTRY_MIRRORS_H
#define GPULINT_REGISTRY_MIRRORS_H

#include <stdbool.h>
#include <stddef.h>

/* The upstream registry ("docker.io", "nvcr.io", ...) that host[0..n) mirrors, or NULL. */
const char *gl_registry_mirror_of(const char *host, size_t n);

/* Is host[0..n) a prefix proxy (the upstream host follows as the first path component)? */
bool gl_registry_prefix_proxy(const char *host, size_t n);

#endif
