/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compose.h: docker compose files (the compose specification) -> launches.
 *
 * Recognition (gl_input_compose, compose_input.c): by name docker-compose*.yml|yaml, compose*.yml|yaml,
 * *.compose.yml|yaml; by content, for .yml and .yaml candidates: a document whose
 * top-level `services:` is a mapping holding at least one service mapping with image,
 * build, command, entrypoint, deploy, volumes, environment, gpus, runtime or devices,
 * and with no `apiVersion`/`kind` (Kubernetes) nor `jobs`/`on` (GitHub workflows).
 *
 * Every document is read; a service is one gl_launch (kind GL_LAUNCH_COMPOSE, tool
 * "compose", loc and name = the service key, group = the file path: the services of one file run at the same
 * time; profile = its `profiles` joined with ","):
 *  - image: a gl_ref (GL_REF_LAUNCH; GL_REF_BUILD_OUTPUT beside `build:`), loc = first
 *    byte of the reference; a service with neither image nor build is an override
 *    fragment (launch.fragment). build.args are not followed.
 *  - command/entrypoint: argv = entrypoint words then command words; a string is split
 *    as shell words (parsers/shell/shell_words.h), a list gives one word per item; the script
 *    of `sh -c SCRIPT` is spliced in (compose_common.h).
 *  - volumes (short `src:dst[:ro]`, `vol:/dst`, `/dst`; long type/source/target/
 *    read_only), tmpfs; for a short volume without `:ro`, ro_loc is just after it.
 *  - GPUs: deploy.resources.reservations.devices (GL_GPU_COMPOSE_DEVICE: count, device_ids,
 *    capabilities, an option whose name holds "mem" in .memory, and where the count,
 *    device_ids and capabilities keys are written, if they are; a device whose driver is not
 *    nvidia and whose capabilities name no gpu/compute/utility/graphics/video/display
 *    is not a GPU), service `gpus:` (GL_GPU_COMPOSE_GPUS), `devices:` CDI names
 *    (GL_GPU_CDI) and /dev/nvidiaN (GL_GPU_DEVICE_NODE), `runtime: nvidia`
 *    (GL_GPU_RUNTIME), environment NVIDIA_VISIBLE_DEVICES (GL_GPU_ENV_VISIBLE), Swarm
 *    reservations.generic_resources whose discrete_resource_spec kind names a GPU
 *    (GL_GPU_SWARM_GENERIC, its value the count).
 *  - shm_size (bytes; -1 with shm_loc set when the size is unknown), ipc,
 *    ulimits.memlock (-1, a number, or "soft:hard" from {soft, hard}), environment
 *    (list or map; `KEY` alone and interpolations without a value give value NULL),
 *    working_dir.
 *  - pod.init: a service that another service of the file waits for to complete
 *    (`depends_on: {NAME: {condition: service_completed_successfully}}`): it prepares that
 *    service, as an init container prepares a pod.
 * built from its layers (compose_extends.h: later documents override earlier ones,
 * `extends` is followed in the same file and in `file:`; a cycle, a missing base or a
 * chain deeper than 8 makes the service a fragment).
 * Interpolation (compose_env.h): variables come from the `.env` beside the file only
 * (never the process environment); ${VAR:-d} and ${VAR-d} give d when VAR is unset;
 * an unset variable without a default is unknown: the value is opaque (an image ref is
 * then `unresolved`, a word opaque, an env value NULL).
 * A key given twice in one mapping is GL900 at the second (yt_fail_duplicate_key).
 * `include:` is not followed: an included file is linted on its own (the walk finds
 * it), and its services are not peers of this file's for GL406.
 * A linted compose file is then compared with the compose files beside it
 * (gl_compose_gpu_variants, compose_service.h): a service with no GPU whose namesake
 * there requests GPUs is the CPU variant of a GPU service (secondary_role).
 * Anchors, aliases and merge keys are applied (parsers/yaml/yaml_tree.h); `x-` keys are
 * extensions and skipped. Inline ignores: yt_add_pragmas.
 */
#ifndef GPULINT_PARSERS_COMPOSE_H
#define GPULINT_PARSERS_COMPOSE_H

#include "linter/core/config.h"
#include "linter/core/model.h"

void gl_parse_compose_doc(struct gl_doc *doc, const struct gl_config *cfg);
/* Is `base` (a file name without its directory) a compose file's name? */
bool gl_compose_named(const char *base);

#endif
