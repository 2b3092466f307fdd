/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ci_containers.h: the containers CI YAML starts (ciyaml.c reads the scripts).
 *
 * GitHub Actions, per job: `container:` (an image string, or a mapping with image,
 * options, env, volumes) and each `services.<id>` (the same mapping) are launches (kind
 * GL_LAUNCH_DOCKER_RUN, tool "github-actions", name "container of job `J`" or "service
 * `S` of job `J`", loc = the image value or the key): `options:` is split as shell words
 * and read with the `docker run` flag table (--gpus, -v, --shm-size, --ipc, -e, ...);
 * `volumes:` entries as `-v` values; `env:` as `-e`. A `${{ ... }}` expression is an
 * unresolved variable: the word holding it is opaque (an image that holds one: no image
 * reference). They all run at the same time (group: the job). Every GitHub container is
 * gpu_unseen: on a runner without a GPU a CUDA image builds, it is not a job that lost its
 * GPU; a runner with GPUs may give them without any option (NVIDIA's nv-gha-runners
 * default their docker to the nvidia runtime, and the container's NVIDIA_VISIBLE_DEVICES,
 * or the CUDA image's own `all`, selects them). `NVIDIA_VISIBLE_DEVICES` in a GitHub
 * container's env is a GPU request (GL_GPU_ENV_VISIBLE): such runners select GPUs so. The
 * job container (not a service) runs the job's steps: the commands of their `run:` texts
 * (in a POSIX shell: no step `shell:`/job `defaults.run.shell`, or bash/sh) are its steps
 * (gl_launch.steps), from which GL410 and GL415 learn what job it runs.
 *
 * GitLab CI: the top-level (and `default:`) `image:` and `services:`, and each job's own:
 * an image string or a mapping with `name` (and `entrypoint`, `command` for services: the
 * launch's argv; `variables` for services: env). Tool "gitlab-ci"; every GitLab launch is
 * gpu_unseen (the runner's config.toml gives GPUs, no CI file can) and opts_opaque (that
 * config also adds volumes: no path rule rests on a missing mount). A job's image and
 * services run at the same time (group: the job; the global ones: group "default").
 * The job's CI/CD variables (its own `variables:` over the top-level ones; a mapping
 * entry's `value:`; a `!reference` to another job's `variables:` or to one variable
 * followed in the file, ci_reference.h, and when it names nothing there every variable of
 * that level is unknown) are the environment of its image and services (env entries at the
 * variable as written; a service's own `variables:` win), and `$VAR`/`${VAR}` in an image
 * is replaced by such a variable's literal value (`$$` is `$`); a variable that is not
 * literal there (a predefined `CI_*`, one from the project settings, one holding `$`)
 * leaves the image unresolved: no image reference.
 */
#ifndef GPULINT_PARSERS_CI_CONTAINERS_H
#define GPULINT_PARSERS_CI_CONTAINERS_H

#include "linter/core/model.h"
#include "parsers/yaml/yaml_tree.h"

/* The containers of GitHub Actions job `job` (named `name`). */
void ci_github_containers(struct gl_doc *doc, struct yt_stream *s, struct yt_node *job,
                          const char *name);
/* The image and services of a GitLab job (or of the top level / `default:`, name
 * "default"); `globals` is the top-level mapping (its `variables:`). */
void ci_gitlab_containers(struct gl_doc *doc, struct yt_stream *s, struct yt_node *job,
                          const char *name, struct yt_node *globals);

#endif
