/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_shell.h: container launches written as shell command lines.
 *
 * Shell text (a script, a Makefile recipe line, a Markdown code block, a CI `run:` block)
 * is split with parsers/shell/shell_words.h; every simple command that starts a container
 * becomes one gl_launch in doc->launches, its image one gl_ref (role GL_REF_LAUNCH) in
 * doc->refs and its `-e` variables gl_env entries (origin GL_ENV_LAUNCH) in doc->env.
 *
 * Recognised launches, also behind the wrappers people put before them (one place,
 * skip_wrappers in launch_shell.c, strips them for every launcher): `sudo [opts]` (-E,
 * -u USER, ...), `env [-u NAME] [A=B]`, `nohup`, `timeout [opts] DURATION`, `time`,
 * `exec`, `command`, `nice [-n N]`, `stdbuf [opts]`, `numactl [opts]`, `taskset [-c]
 * LIST` (not `taskset -p`), `chrt [opts] PRIO`, `xargs [opts]` (words
 * holding its -I/-i replace string are opaque; without one it appends words it reads: the
 * launch's argv is opaque, and its options when no image is written), `ssh [opts] HOST
 * CMD...` (one word after HOST: the remote shell reads it as a script, split again with
 * exact positions; several: the command itself), an MPI launcher (`mpirun`, `mpiexec`,
 * `mpiexec.hydra`, `orterun`, `prterun` with their options) when what it runs on every
 * rank is a container launch (`mpiexec -n 8 --ppn 4 apptainer exec ...`; before any other
 * command it stays the command: GL415 counts its ranks), after Slurm's `srun`/`salloc`/`sbatch`
 * (launch_slurm.h), and inside `sh|bash [-l] -c '...'` on the host:
 *   docker|podman|nerdctl|nvidia-docker [global opts] run|create ...; docker|podman|nerdctl
 *     container run|create (nerdctl takes docker's flags, `--gpus` included)
 *     The real flag table (parsers/shell/docker_run_flags.h) says which flags take a value, so
 *     that bundles (`-itd`, `-itv /a:/b`), `--flag=value` and `--flag value` are read as
 *     docker reads them and the image and the command are found exactly.
 *   apptainer|singularity [global opts] exec|run|shell|instance start ...
 *   kubectl [global opts] run NAME --image=IMG ... (launch_kubectl.c: a pod of one
 *     container, kind GL_LAUNCH_K8S, tool "kubectl")
 *   Manifests in heredocs: the body of a heredoc that kubectl (oc, microk8s/k3s kubectl)
 *     applies from its standard input (`kubectl apply|create|replace -f - <<EOF`,
 *     `cat|envsubst <<EOF | kubectl apply -f -`), or that is written to a `*.yaml`/`*.yml`
 *     file (`cat > pod.yaml <<EOF`, `tee`), is read as a Kubernetes manifest
 *     (gl_k8s_from_text: its pods are launches of the doc, at their lines), when the body
 *     is the file's own bytes from a line's start (a script's, an unindented Markdown
 *     fence's); a body the shell expands keeps its `$X` as written (opaque values). A
 *     YAML error in it drops the rest of it silently. Compose files in heredocs are not
 *     read.
 *   Slurm (launch_slurm.h): the `#SBATCH` lines before a text's first command are the GPU
 *     request of every `srun` in it; `srun [opts] CMD` is a launch (in a pyxis container
 *     with --container-image, else bare_metal on the host) unless CMD is a docker or
 *     apptainer launch, which then gets the step's GPU request; `salloc [opts] srun ...`;
 *     `sbatch [opts] --wrap=SCRIPT` (SCRIPT read as a batch script with those options);
 *     torchrun/deepspeed/accelerate/mpirun run by a batch script itself (tool "sbatch").
 *   enroot import docker://IMAGE (a reference), enroot start [opts] IMAGE CMD (a launch).
 * `apptainer|singularity pull|build ... docker://IMG` adds the image reference (role
 * GL_REF_DEF_FROM, as a .def `From:`: GL101/GL201/GL204 judge it) and no launch.
 *   docker|podman compose [global opts] run [opts] SERVICE [CMD...], docker-compose and
 *     podman-compose likewise (launch_compose.c, with compose's own option tables; kind
 *     GL_LAUNCH_COMPOSE, tool "docker compose run", name SERVICE): when the compose files
 *     are known (its `-f FILE`s, up to 4, merged in order; else compose.yaml, compose.yml,
 *     docker-compose.yaml or docker-compose.yml beside the text, merged with the
 *     compose.override.* / docker-compose.override.* beside it; no
 *     --project-directory/--env-file, no COMPOSE_FILE and no `cd` before), the launch is
 *     that service, found in those files or the files they `include:`
 *     (compose_service.h: image as a GL_REF_ELSEWHERE reference, mounts, GPU
 *     requests, env, ipc, shm, ulimits, command) with every fact placed at the SERVICE
 *     word, under the run's own -v, -e, -w, --entrypoint and CMD (at their tokens);
 *     otherwise it holds only what the line says and is a fragment (no finding rests on
 *     what it lacks). Compose run has no --gpus: its GPUs are the service's.
 * Commands that make images (docker/podman/nerdctl build, buildx build, tag, commit;
 * buildah bud/build/tag/commit; kaniko's executor; kustomize edit set image) add no
 * launch: the tags they give are project images of the doc (launch_build.c, model_ref.h).
 *
 * The facts of one launch (linter/core/model_launch.h), with these conventions:
 *  - loc: the tool word (`docker`); ref: the image in doc->refs, -1 when the image word is
 *    opaque or absent. An apptainer `docker://`/`oras://` image is parsed as a registry
 *    reference (ref text without the scheme, loc after it); `library://...` is a ref that
 *    is not ok; a `*.sif`/`*.simg`/`*.img` is a ref with local = true; any other path is a
 *    sandbox directory (local = true and launch.apptainer_sandbox); `--writable` sets
 *    launch.apptainer_writable.
 *  - argv: the words after the image (for `instance start`: after the instance name).
 *    docker run/create `--entrypoint X` (one word: docker takes the value whole) and
 *    compose run's (split at blanks) come first: the container runs X and those words;
 *    `--entrypoint ""` resets the image's entrypoint (the words alone); podman's JSON
 *    array form is not read (argv_opaque).
 *    A container command `sh|bash [opts] -c SCRIPT [args]` has the words of SCRIPT
 *    spliced in place of the SCRIPT word (all its simple commands, in order, separators
 *    dropped; nested `sh -c` likewise): so `img sh -c "python t.py --output_dir /out"`
 *    has argv `sh -c python t.py --output_dir /out`, each with its exact location.
 *    argv_opaque: some argv word may stand for several words (an unquoted opaque
 *    variable) or the SCRIPT word is opaque.
 *  - opts_opaque: an unquoted opaque variable stands among the options (`docker run $args
 *    img`): the launch may have options gpulint cannot see, so no finding may rest on
 *    what it lacks. `docker run $args` alone: ref -1, argv_opaque and opts_opaque.
 *  - gpus: `--gpus` (GL_GPU_FLAG, parsed as docker's CSV: quoting, count/device/
 *    capabilities/driver/options, each field as written in `csv` (or why it is not CSV), a
 *    `:10gb` device qualifier or `memory=` key in `memory`), `--device nvidia.com/gpu=X`
 *    (GL_GPU_CDI), `--device /dev/nvidiaN` (GL_GPU_DEVICE_NODE), `--runtime nvidia` and
 *    `nvidia-docker` itself (GL_GPU_RUNTIME), `-e NVIDIA_VISIBLE_DEVICES=..` with the
 *    nvidia runtime (GL_GPU_ENV_VISIBLE), apptainer `--nv`/`--nvccli`.
 *  - mounts: -v/--volume, --mount, --tmpfs; apptainer -B/--bind and --mount.
 *  - shm_bytes: `--shm-size` in bytes (docker's units: 64m, 1g, 8G, 2GiB, bytes); -1 when
 *    absent or unreadable, INT64_MAX when given as an unknown variable (large enough:
 *    no finding rests on it). env: `-e K=V`, `--env K` (value NULL: the caller's),
 *    `--env-file` records nothing; apptainer `--env A=1,B=2` and APPTAINERENV_X=v.
 *  - detached: `-d`/`--detach`, or the command ends with `&`. Detached launches get
 *    group = the scan's group (the file path by default): they run at the same time as
 *    each other. Foreground launches run one after another: group NULL.
 *
 * Positions: every location is that of the original file (through `map`, see
 * linter/core/srcmap.h; map NULL means the text is the file from line 1 col 1).
 */
#ifndef GPULINT_PARSERS_LAUNCH_SHELL_H
#define GPULINT_PARSERS_LAUNCH_SHELL_H

#include "linter/core/model.h"
#include "linter/core/srcmap.h"
#include "parsers/shell/shell_words.h"

/* Split shell text and append the launches it holds to doc (see above). `vars` is the
 * variable table shared with earlier texts of the same file (NULL: a fresh one). Shell
 * syntax errors are not reported: the commands up to them count. */
void gl_launches_from_shell(struct gl_doc *doc, const char *text, size_t len,
                            const struct gl_srcmap *map, struct sh_vars *vars);

/* The same for a YAML scalar holding shell text (a CI `run:`, an Ansible `shell:`): its
 * value with the positions of the original file (a null or non-scalar node: nothing). */
struct yt_stream;
struct yt_node;
void gl_launches_from_yaml_scalar(struct gl_doc *doc, struct yt_stream *s, struct yt_node *n,
                                  struct sh_vars *vars);

/* ---- for input parsers that want more (scripts, Makefiles, Markdown) ---- */

struct gl_launch_scan;
/* The launches of a systemd unit's text (a `*.service` file, a Markdown `ini` block): its
 * ExecStart command lines (parsers/launch/systemd/launch_systemd.h) read as shell text, with the
 * unit's Environment= values. A heredoc that a script writes to a `*.service` file (`cat
 * <<EOF > /etc/systemd/system/x.service`, `... | sudo tee x.service`) is read so too. */
void gl_launches_from_unit(struct gl_launch_scan *scan, const char *text, size_t len,
                           const struct gl_srcmap *map);

/* The original lines [first, last] of one top-level command (for inline ignores). */
struct gl_line_range {
    uint32_t first, last;
};

struct slurm_req;

struct gl_launch_scan {
    struct gl_doc *doc;
    struct slurm_req *batch;  /* the `#SBATCH` options of the text being read, NULL */
    bool in_step;             /* reading what an `srun` runs (its `sh -c` script) */
    struct slurm_req *alloc;  /* an interactive `salloc [opts]` seen earlier in the scan
                                 (a README's session): the allocation of later sruns */
    struct sh_vars *vars;     /* shared table; NULL: a fresh one per text */
    struct sh_vars *text_vars; /* the table of the text being read (vars, or its fresh one):
                                 what its variables may hold (launch_build.c) */
    const char *group;        /* group of detached launches (gl_launch_scan_init: doc->path);
                                 launches read it with gl_launch_group */
    char *group_room;         /* gl_launch_group_later's room, written at the first ask
                                 (NULL: `group` is set) */
    uint32_t group_line;
    bool report_errors;       /* a shell syntax error sets doc->error (the first one) */
    bool grammar;             /* a bash or POSIX script file (with report_errors): its
                                 grammar is checked as `bash -n` does (sh_opts.grammar) */
    bool grammar_bash;        /* with grammar: a bash script (sh_opts.grammar_bash) */
    bool placeholders;        /* documentation: `<...>` is a placeholder (sh_opts) */
    bool python_braces;       /* IPython `!` lines: `{expr}` is opaque (sh_opts) */
    bool in_unit;             /* reading a systemd unit's commands (gl_launches_from_unit):
                                 a heredoc there is not read as a unit again */
    bool jetson_section;      /* a document's section about Jetson: gl_launch.jetson_section */
    bool cwd_unknown;         /* a `cd`/`pushd` ran before: files named relative to the
                                 text's directory may be others (docker compose run) */
    struct gl_compose_files *compose_files; /* the compose files `docker compose run` lines
                                 read (manifest/compose_service.h), NULL before the first */
    struct gl_enroot_image {  /* what `enroot import docker://IMG` and `enroot create`
                                 made so far: a .sqsh file or container name and the
                                 image it holds (launch_enroot.c; the first 64) */
        const char *name, *image;
    } *enroot;
    size_t nenroot, capenroot;
    struct gl_line_range *ranges; /* every top-level command seen, in text order */
    size_t nranges, capranges;
};

void gl_launch_scan_init(struct gl_launch_scan *s, struct gl_doc *doc, struct sh_vars *vars);
/* The group of the detached launches read now ("PATH#LINE" written on the first ask after
 * gl_launch_group_later). */
const char *gl_launch_group(struct gl_launch_scan *s);
/* The launches read next are a group "PATH#LINE" (a document's code block: its blocks are
 * other examples). Its room is taken from the doc's arena now, the bytes gl_arena_printf
 * took for it (so the limit parse-memory trips where it did), and written only when a
 * launch of the block is detached and asks: most blocks have none, and a printf a block
 * cost more than reading the block's lines. */
void gl_launch_group_later(struct gl_launch_scan *s, uint32_t line);
/* Add the launches of one shell text. */
void gl_launch_scan_text(struct gl_launch_scan *s, const char *text, size_t len,
                         const struct gl_srcmap *map);
/* Record the inline ignores of doc->text: every line whose first non-blank byte is `#`
 * and that reads `# gpulint ignore=...` covers the lines of the first command that starts
 * after it (all the lines of a launch), or the next line when no command follows;
 * `# gpulint global ignore=...` covers the file. */
void gl_launch_scan_pragmas(struct gl_launch_scan *s);

#endif
