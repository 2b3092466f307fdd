/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_systemd.h: container launches in systemd units.
 *
 * A service that runs a container on a GPU host is often a systemd unit whose ExecStart is
 * a `docker run`/`podman run` line (`ExecStart=/usr/bin/docker run --gpus all ...
 * vllm/vllm-openai:v0.6.3`), written as a `*.service` file, in a Markdown `ini`/`systemd`
 * block, or in a shell heredoc that writes one (`cat <<EOF > /etc/systemd/system/x.service`).
 * Its commands are made here into shell text that the launch scanner reads
 * (gl_launches_from_unit, launch_shell.h).
 *
 * What is read of the unit (systemd.unit(5), systemd.service(5), systemd.exec(5)):
 *  - lines: `[Section]` headers; `Key=Value` (blanks around `=`); a line ending in `\` is
 *    continued by the next (the `\` and the line end read as one blank); comment lines
 *    (`#` or `;` first) are skipped, between continued lines too;
 *  - in [Service]: ExecStart, ExecStartPre and ExecStartPost, each value one command line
 *    after its prefixes (`-`, `@`, `:`, `+`, `!`, `!!`); ExecStop/ExecReload are not read
 *    (they stop or signal what ExecStart started). A command line is split into words as
 *    systemd splits it, not as a shell would (systemd_words.h: its quotes, escapes and
 *    variables; `|`, `$(`, a backquote, `<<` are bytes); one whose quote is never closed
 *    is ignored, as systemd ignores it. A specifier (`%n`, `%i`, `%h`, ...) is a value
 *    systemd fills in: read as an unknown variable (the word is opaque);
 *  - Environment= assignments (quoted or not, several a line) give the values of `$NAME`
 *    and `${NAME}` in the commands, as systemd expands them; an EnvironmentFile= makes a
 *    variable the unit does not assign unknown rather than unset;
 *  - a Podman Quadlet unit (`*.container`, podman-systemd.unit(5)): its first [Container]
 *    section is the `podman run` it stands for, placed at the header: AddDevice=
 *    (`nvidia.com/gpu=all`: a CDI GPU), Volume=, Mount=, ShmSize=, Tmpfs=, Ulimit=,
 *    Network=, GroupAdd= and Environment= (one word each) as their flags, PodmanArgs= as
 *    written, Pod= as --pod (the container shares the pod's IPC namespace, so its
 *    /dev/shm), then Image= and Exec= (the last of each). An Image= naming a `.image` or
 *    `.build` unit is the image that unit pulls or builds when the unit file lies beside
 *    (quadlet_refs.h): the value of a variable written at the name, so that findings on
 *    it point there; else it is unknown: one opaque word (`$QUADLET_UNIT/NAME.image`),
 *    never an image reference of its own. A container whose
 *    PodmanArgs= or Exec= leaves a quote open is not read; the one-value keys' quotes and
 *    `\` are bytes of the value;
 *  - a Quadlet `.build` unit's [Build] section: one `podman build` with a -t for each
 *    ImageTag= (the images the project builds).
 * Every position is that of the original file (through `map`; NULL: the text is the file
 * from line 1 col 1).
 */
#ifndef GPULINT_PARSERS_LAUNCH_SYSTEMD_H
#define GPULINT_PARSERS_LAUNCH_SYSTEMD_H

#include "linter/core/srcmap.h"
#include "parsers/shell/shell_words.h"

/* Does the text hold a `[Service]` or a Quadlet `[Container]` or `[Build]` section header
 * (at a line's start)? */
bool gl_unit_runs(const char *text, size_t len);

/* The commands of a unit: the ExecStart lines' command lines, one a line, as shell text. */
struct gl_unit_cmds {
    char *text;            /* in the arena, NUL-terminated */
    size_t len;
    struct gl_srcmap map;  /* its offsets -> the unit's original positions */
    struct gl_loc stop;    /* where the arena went past its limit (line 0: it did not) */
    const char *built_image; /* a Quadlet `Image=NAME.build` resolved: the tag the `.build`
                                unit gives, an image the project builds; NULL */
    struct gl_loc built_loc;
};

/* Read the unit text[0..len) (see above): its commands into *out (from the arena), its
 * Environment= assignments into vars (a fresh table: a unit's environment is its own).
 * `expanded`: the text is a heredoc's body that the script's shell expands before systemd
 * reads it (`<<EOF`): its `$(...)` and backquotes are the script's (sd_words.expanded).
 * `unit_path`: the path of the unit file when text is that file (NULL: a heredoc, a
 * Markdown block): a Quadlet Image= naming a `.image`/`.build` unit beside it is resolved
 * (quadlet_refs.h).
 * False when it runs no command, or the arena is past its limit (then `stop` says
 * where the reading stopped). The launch scanner
 * reads them (gl_launches_from_unit, launch_shell.h). */
bool gl_unit_commands(struct gl_arena *a, const char *text, size_t len,
                      const struct gl_srcmap *map, bool expanded, const char *unit_path,
                      struct sh_vars *vars, struct gl_unit_cmds *out);

#endif
