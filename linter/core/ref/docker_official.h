/* SPDX-License-Identifier: Apache-2.0 */
/*
 * docker_official.h: the names of Docker Hub's official images ("ubuntu", "python").
 *
 * A reference of one path component on Docker Hub (`bart_pyt`, `docker.io/ubuntu`) names
 * `library/NAME`, and only the official images live there: Docker curates the namespace
 * (docker-library/official-images, one file under library/ per image). So `docker run
 * bart_pyt` can only run an image built or loaded on that machine: no registry serves
 * it. The list holds every name that was ever an official image (deprecated ones such as
 * centos or java can still be pulled), as the official-images repository's history has
 * them; a name added to Docker Hub after it is taken as a local image (a miss of GL101
 * at worst, never a false finding).
 */
#ifndef GPULINT_DOCKER_OFFICIAL_H
#define GPULINT_DOCKER_OFFICIAL_H

#include <stdbool.h>
#include <stddef.h>

/* Was name[0..n) ever an official Docker Hub image (library/NAME)? */
bool gl_docker_official(const char *name, size_t n);

#endif
