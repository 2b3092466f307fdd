/* SPDX-License-Identifier: Apache-2.0 */
/*
 * markdown_walk.h: the launches in a Markdown text's code blocks (RULES.md: which blocks
 * are read, and how).
 *
 * Read: fenced blocks (``` or ~~~, also indented inside lists) tagged sh, bash, shell, zsh,
 * console, shell-session, sh-session; untagged fences of which any line starts (after
 * blanks and an optional `$ ` prompt) with docker, podman, nvidia-docker, nerdctl,
 * apptainer, singularity, srun, sbatch, salloc, enroot, sudo or a tool that builds and tags
 * an image (buildah, mlserver, cog, bentoml, repo2docker) (RULES.md third round: not only
 * the first line); in blocks tagged python, py, ipython, the lines that start so (a shell
 * command is never Python; `!` stripped); blocks (ini, systemd, untagged, ...) holding a
 * systemd unit's [Service] or a Quadlet's [Container]. MyST directive fences that hold
 * Markdown (```{note}, ````{tab-item}) are containers: the fences inside them are read; a
 * MyST code directive (```{code-block} bash) is a fence of its language. Inline code in
 * prose is never read, nor is a passage inside an HTML comment (`<!-- -->`).
 *
 * Prompts (`$ `, and the `user@host:~$ `, `[me@node ~]$ `, `(venv) $ ` forms of
 * doc_prompt.h): in console/shell-session blocks, and in any read block whose first line
 * that is no `#` comment starts with one, only the lines starting with one (prompt
 * stripped) and the lines that continue them (after a trailing `\`) are commands; the rest
 * is output.
 *
 * The blocks of one walk share their shell variables (a README sets IMAGE=... in one block
 * and runs it in the next), but not their detached launches: each block is a group of its
 * own. An interactive `salloc` of a block holds for the blocks of its section and
 * subsections; a heading of its section's level or above ends it. A section whose heading
 * names a Jetson (jetson, tegra, l4t, jetpack, orin, xavier) runs its launches on one.
 *
 * A walk may go over several texts (a notebook's Markdown cells, in order): sections,
 * allocations and variables go on from one to the next.
 */
#ifndef GPULINT_MARKDOWN_WALK_H
#define GPULINT_MARKDOWN_WALK_H

#include "parsers/docs/doc_blocks.h"

struct md_walk {
    struct gl_doc *doc;
    struct sh_vars vars;
    struct gl_launch_scan scan;
    int section;  /* the level of the last heading read, 0 before any */
    int alloc_at; /* the section level the allocation was made in */
    struct doc_jetson jetson;
};

/* Start a walk of doc's Markdown (w must stay where it is until md_walk_end). */
void md_walk_init(struct md_walk *w, struct gl_doc *doc);
/* Read the blocks of one text (doc_src.h); c the cursor at its start (with the line starts
 * when known). False when the doc's parse-memory ran out: the walk stops. */
bool md_walk_text(struct md_walk *w, const struct doc_src *src, struct doc_cursor c);
/* End the walk: the inline ignores of the doc's text. */
void md_walk_end(struct md_walk *w);

#endif
