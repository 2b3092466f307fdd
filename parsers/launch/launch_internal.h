/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_internal.h: the pieces shared by the launch parsers (launch_*.c), not a public
 * API. See launch_shell.h for what the launches hold.
 *
 *  - struct lv: a value cut out of one shell word (`/a:/b` of `--volume=/a:/b`), so that
 *    any byte of it can be located in the original file (sh_word_byte_loc).
 *  - launch building (launch_model.c): a new launch, its image ref, env, argv.
 *  - option values (launch_values.c): --gpus CSV, -v, --mount, --tmpfs, --device,
 *    --ulimit, sizes such as `8g`.
 *  - the two command-line families: launch_docker.c and launch_apptainer.c.
 *  - the commands that make images (launch_build.c), their options kept in variables
 *    (launch_build_vars.c).
 */
#ifndef GPULINT_PARSERS_LAUNCH_INTERNAL_H
#define GPULINT_PARSERS_LAUNCH_INTERNAL_H

#include "parsers/shell/docker_run_flags.h"
#include "parsers/launch/launch_shell.h"

/* Bytes [off, off+len) of word wi of cmd; text is a NUL-terminated arena copy. */
struct lv {
    const struct sh_cmd *cmd;
    size_t wi, off;
    const char *text;
    size_t len;
    bool opaque;
};

struct lv lv_word(struct gl_arena *a, const struct sh_cmd *cmd, size_t wi);
struct lv lv_sub(struct gl_arena *a, const struct lv *v, size_t start, size_t len);
struct gl_loc lv_loc(const struct lv *v, size_t k);   /* byte k of the value */
struct gl_loc lv_end_loc(const struct lv *v);         /* just after the last byte */
bool lv_is(const struct lv *v, const char *s);
/* Is doc's arena past parse-memory? Then the reading of v's list stops, and doc is a GL900
 * at byte k of v (where it stopped) unless it is one already. */
bool lv_over(struct gl_doc *doc, const struct lv *v, size_t k);
/* The value with each unresolved part (sh_span.opaque: `$TAG`, `$(git describe)`, a
 * documentation `<placeholder>`) as one '*': the pattern of a project image
 * (model_ref.h). An opaque value whose unresolved parts are not marked is all "*". */
const char *lv_pattern(struct gl_arena *a, const struct lv *v);

/* One launch being built: `l` stays valid until the next launch is added. */
struct launch_build {
    struct gl_launch_scan *scan;
    struct gl_doc *doc;
    int index;
    struct gl_launch *l;
    bool nvidia_runtime;   /* --runtime nvidia or nvidia-docker */
    int visible_env;       /* doc->env index of NVIDIA_VISIBLE_DEVICES, -1 */
    bool has_entrypoint;   /* --entrypoint was given (docker run/create, compose run): */
    struct lv entrypoint;  /* its value ("": the image's entrypoint is reset) */
    const struct gl_cli_flag *own_flags; /* a wrapper's own long options, looked up before
                                            the walk's table (podman-hpc's site modules
                                            before podman's); NULL: none */
};

void launch_begin(struct launch_build *b, struct gl_launch_scan *scan, enum gl_launch_kind kind,
                  const char *tool, struct gl_loc loc);
/* Record the image (a ref in doc->refs, or ref -1 when the word is opaque). For apptainer
 * the URI schemes and local files are handled (see launch_shell.h). */
void launch_set_image(struct launch_build *b, const struct lv *img);
void launch_set_apptainer_image(struct launch_build *b, const struct lv *img);
/* An env entry KEY=VALUE (or KEY alone: value unknown). Returns its doc->env index. */
int launch_add_env(struct launch_build *b, const struct lv *kv);
/* A new env entry of the launch named key[0..klen) at key_loc, its value unknown (NULL, at
 * the key) until the caller sets value and value_loc; NVIDIA_VISIBLE_DEVICES is noted as
 * b->visible_env. */
struct gl_env *launch_env_entry(struct launch_build *b, const char *key, size_t klen,
                                struct gl_loc key_loc);
/* argv = words [from, nwords) of cmd, with `sh -c SCRIPT` scripts spliced in. */
void launch_set_argv(struct launch_build *b, const struct sh_cmd *cmd, size_t from);
/* argv = the words head[0, nhead) (an entrypoint given on the command line), then words
 * [from, nwords) of cmd, as one command: when the head is a shell and the words give its
 * `-c SCRIPT`, SCRIPT is spliced in; otherwise the head, then what launch_set_argv makes
 * of the words. */
void launch_set_command(struct launch_build *b, const struct gl_word *head, size_t nhead,
                        const struct sh_cmd *cmd, size_t from);
/* steps (gl_launch.steps) = the words of cmds[0, ncmds), each a command of its own, with
 * their `sh -c SCRIPT` scripts spliced in. */
void launch_set_steps(struct launch_build *b, const struct sh_cmd *cmds, size_t ncmds);
struct gl_mount *launch_add_mount(struct launch_build *b);
struct gl_gpu_request *launch_add_gpu(struct launch_build *b, enum gl_gpu_kind kind,
                                      const struct lv *v);

/* Option values (launch_values.c). */
struct gl_gpu_request *value_gpus(struct launch_build *b, const struct lv *v);
void value_volume(struct launch_build *b, const struct lv *v);
void value_mount(struct launch_build *b, const struct lv *v);
void value_tmpfs(struct launch_build *b, const struct lv *v);
void value_device(struct launch_build *b, const struct lv *v);
void value_ulimit(struct launch_build *b, const struct lv *v);
void value_apptainer_bind(struct launch_build *b, const struct lv *v);
/* docker's units.RAMInBytes: "64m", "1g", "8G", "2GiB", "1073741824" -> bytes; -1 if bad. */
int64_t value_size_bytes(const char *s, size_t len);
/* Is the text a path (bind source) rather than a volume name: / . ~ $ first? */
bool value_is_host_path(const char *s, size_t len);

/* The option walk both families share (launch_opts.c): pflag rules (`--name=value`,
 * `--name value`, bundles `-itd`, `-v/a:/b`, `-e=X`, `--` ends the options). `apply` gets
 * each option (f NULL for an unknown one, which is taken as taking no value) with its
 * value (NULL for a flag without `=value`). Returns the index of the first operand (the
 * image) or cmd->nwords when none. An unquoted opaque word among the options (it may be
 * any number of words) sets opts_opaque; when what follows it cannot tell whether it was
 * options or the image, it is taken as the image and *ambiguous is set. */
typedef void (*launch_opt_fn)(struct launch_build *b, const struct gl_cli_flag *f,
                              const struct lv *flag, const struct lv *value);
size_t launch_walk_opts(struct launch_build *b, const struct sh_cmd *cmd, size_t i,
                        const struct gl_cli_flag *table, launch_opt_fn apply, bool *ambiguous);

/* The families: parse cmd from word `first` (the word after the subcommand). */
void launch_docker(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t tool_wi,
                   size_t first, const char *tool);
/* podman-hpc (launch_podman_hpc.c): its site-module switches, GL_FLAG_SITE_MODULE entries
 * for b->own_flags, and what the one at `flag` gives the launch (the node's GPUs, the
 * host's IPC namespace, privileges), as NERSC's etc/modules.d files say. */
extern const struct gl_cli_flag launch_podman_hpc_modules[];
void launch_podman_hpc_module(struct launch_build *b, const struct gl_cli_flag *f,
                              const struct lv *flag);
/* After a docker launch's options: `--runtime nvidia` with NVIDIA_VISIBLE_DEVICES set is a
 * GL_GPU_ENV_VISIBLE request (cmd: any command of the launch, for the request's value). */
void launch_docker_finish(struct launch_build *b, const struct sh_cmd *cmd);
/* `docker cp NAME:PATH DEST` and `docker commit NAME` (sub: the subcommand's word): a
 * gl_copy_out of the doc. Other subcommands add nothing. */
void launch_docker_copy_out(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t sub);
/* Words of cmd, all of them, as `docker run` options (a CI job container's `options:`). */
void launch_docker_options(struct launch_build *b, const struct sh_cmd *cmd);
void launch_apptainer(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t tool_wi,
                      size_t first, const char *tool, bool instance_start);

/* `docker compose [global opts] run [opts] SERVICE [CMD...]` (launch_compose.c); word
 * `first` is the first after `compose` (or after `docker-compose`); tool the label
 * ("docker compose run"). Other compose subcommands add nothing. */
void launch_compose_run(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t tool_wi,
                        size_t first, const char *tool);
/* `apptainer|singularity pull|build ... docker://IMG` (launch_apptainer.c): the docker://
 * operand is an image reference (GL_REF_DEF_FROM, as a .def `From:`), no launch. */
void launch_apptainer_fetch(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t first);
/* Does cmd (its tool at word tool_wi) apply the manifests on its standard input:
 * `kubectl [global opts] apply|create|replace ... -f -` (`--filename=-`, `-f /dev/stdin`;
 * also `oc`, `microk8s kubectl`, `k3s kubectl`)? (launch_kubectl.c) */
bool launch_kubectl_applies_stdin(const struct sh_cmd *cmd, size_t tool_wi);
/* `kubectl [global opts] run NAME --image=IMG ...` (launch_kubectl.c): word `first` is the
 * first after `kubectl`. */
void launch_kubectl(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t tool_wi,
                    size_t first);

/* Commands that make images (launch_build.c): `sub` is the index of the subcommand word
 * (`build`, `buildx`, `tag`, `commit`, `edit`), `first` that of kaniko's first option.
 * A `docker [buildx] build --build-context NAME=VALUE` adds NAME as a project image too. */
void launch_build_docker(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t sub);
/* The same for an engine whose name is a variable (`${CONTAINER_ENGINE} build -t X`), whose
 * words from `sub` read as docker's: the tags of `build`/`buildx build` and `tag` only (it may
 * be another program, so its operands are no build of a Dockerfile). */
void launch_build_engine_var(struct gl_launch_scan *scan, const struct sh_cmd *cmd,
                             size_t sub);
/* The tags and build contexts of a build command's words from `first` that are each one
 * unquoted variable holding options (`docker build $TAG $CONTEXT_ARGS .`, launch_build_vars.c):
 * project images too. */
void launch_build_var_options(struct gl_launch_scan *scan, const struct sh_cmd *cmd,
                              size_t first, const char *tool);
/* The values word i of a build command may stand for when it is exactly one variable that
 * holds options (launch_build_vars.c): an unquoted `$ARGS` (each value it takes on some
 * path, literal or as written: `--build-arg K=$V`), or an array `"${ARGS[@]}"` (one value:
 * the parts of its assignments joined, `NAME+=(--build-arg K=V)` each). At most max (at
 * least 2 * SH_VAR_MAX_ALTS); 0 when it is no such word or nothing is known of it. */
size_t launch_build_var_alts(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t i,
                             const char **vals, size_t *lens, size_t max);
void launch_build_buildah(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t sub);
void launch_build_kaniko(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t first);
void launch_build_kustomize(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t sub);
/* Other tools that build and tag a local image (mlserver build, cog build, bentoml
 * containerize, repo2docker, minikube image build) with the command word at i, of base name `tool`: true when
 * cmd is one. */
bool launch_build_other(struct gl_launch_scan *scan, const struct sh_cmd *cmd, size_t i,
                        const char *tool);

/* Boolean option value: "false", "0" -> false; anything else true. */
bool value_true(const char *s);

#endif
