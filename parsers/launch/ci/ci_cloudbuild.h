/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ci_cloudbuild.h: Google Cloud Build configs (`cloudbuild.yaml`; ciyaml.c types and
 * parses them with the other CI files).
 *
 * A config is a mapping whose `steps:` is a list of mappings with a `name:` (the builder
 * image). Two kinds of step are read:
 *  - a Docker builder step (`name:` gcr.io/cloud-builders/docker, docker, or any image
 *    named docker, with no other `entrypoint:`) whose `args:` start with build, buildx,
 *    image, builder or tag: its args are the words of `docker ARGS` (each one word, as
 *    Cloud Build passes them; a `$_SUB` / `${_SUB}` substitution is an unknown part), so
 *    a `--tag` is a project image and `--build-arg K=V -f F CTX` a build of F that sets K
 *    (launch_build.c); the working directory is the build's source, where the config
 *    usually is (a build's paths may lie there or above, as for a script). No other
 *    docker command is read: Cloud Build runs no GPU, and `docker run` there is a CPU job.
 *  - a shell step (`entrypoint:` bash or sh with `args: [-c, SCRIPT]`, or a `script:`):
 *    the script's launches, as a CI `run:` text.
 */
#ifndef GPULINT_PARSERS_LAUNCH_CI_CLOUDBUILD_H
#define GPULINT_PARSERS_LAUNCH_CI_CLOUDBUILD_H

#include "linter/core/model.h"
#include "parsers/yaml/yaml_tree.h"

/* Is `root` a Cloud Build config (a `steps:` list whose first item has a `name:`, and no
 * GitHub `jobs:`)? */
bool ci_cloud_build_root(struct yt_stream *s, struct yt_node *root);
/* Read the steps of the config `root`. */
void ci_cloud_build(struct gl_doc *doc, struct yt_stream *s, struct yt_node *root);
/* A file name Cloud Build's docs give configs: cloudbuild.yaml / .yml, and cloudbuild-*,
 * cloudbuild_* or cloudbuild.* variants with a YAML extension. */
bool ci_cloud_build_name(const char *base);

#endif
