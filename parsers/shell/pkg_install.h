/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pkg_install.h: which packages a command installs.
 *
 * Given one simple command split into words (a RUN line's `apt-get install -y gcc`),
 * recognise the package managers gpulint cares about and record each package they are
 * told to install (m->pkgs) and each package index or channel they are given
 * (m->indexes), with the word's position:
 *
 *   apt-get / apt / aptitude install      yum / dnf / microdnf / tdnf install, groupinstall,
 *   apk add                               group install; zypper install / in
 *   conda / mamba / micromamba install / create (channels from -c / --channel)
 *   pip / pip3 / pipX.Y / python[3] -m pip / uv pip install (-r files, --index-url,
 *   --extra-index-url, --find-links)
 *
 * Files an install reads are entries with `requirements` set and the file as the name:
 * `pip install -r FILE`; a local project given to pip/uv (`pip install .`, `-e ./pkg`,
 * `/srv`, `.[dev]`) as DIR/pyproject.toml; `uv sync [--project|--directory DIR]` as
 * DIR/uv.lock and DIR/pyproject.toml; `conda|mamba env create|update [-f FILE]` (FILE, or
 * environment.yml, conda's default); `micromamba create|install -f FILE`; conda `--file
 * FILE`. Each is relative to the command's directory. A project's pyproject.toml entry
 * carries the extras installed with it (gl_pkg.extras: `.[dev]`, `uv sync --extra X`).
 *
 * What a command removes is recorded too (m->removals): the packages of `apt-get
 * purge|remove`, `yum|dnf|microdnf|tdnf remove|erase`, `apk del`, `zypper remove|rm`,
 * `conda remove|uninstall`, `pip uninstall`, and the paths of `rm` (not its options); an
 * `autoremove` or `--auto-remove` adds one automatic removal (model_dockerfile.h).
 *
 * Options are skipped, and so are the values of options that take one (`-o X`, `-c ch`,
 * `--virtual NAME`). Prefixes `sudo`, `env`, `time`, `nice`, `exec`, `command` and
 * assignments are looked through. Opaque words (unknown values) are never packages.
 */
#ifndef GPULINT_PARSERS_PKG_INSTALL_H
#define GPULINT_PARSERS_PKG_INSTALL_H

#include "linter/core/model.h"

/* `instr`: the instruction of every package and removal recorded (gl_pkg.instr,
 * gl_removal.instr). */
void gl_pkg_install_scan(struct gl_arena *a, struct gl_dockerfile_model *m, int stage,
                         int instr, const struct gl_word *words, size_t nwords);

#endif
