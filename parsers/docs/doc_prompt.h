/* SPDX-License-Identifier: Apache-2.0 */
/* doc_prompt.h: the shell prompt written before a command in documentation.
 *
 * A README or an HPC guide shows a command after the prompt the author's terminal printed,
 * not only after a bare `$ `: `user@gpu-box:~$ docker run ...`, `host1$ nvidia-docker run`,
 * `[me@login01 ~]$ singularity exec ...`, `root@5c2f:/workspace# python ...`, and a conda
 * or virtualenv name before any of them (`(base) $ ...`, `(venv) me@box:~$ ...`). The
 * prompt is not part of the command: a reader skips it as the reader of the page does.
 *
 * A prompt is, at the line's start: an optional `(NAME) ` (NAME of letters, digits, `_`,
 * `.`, `-`), then either `$`, or `[TEXT]` closed by `$` or `#`, or a WORD (letters, digits
 * and `_.@:~/+-`, at least one letter or digit) closed by `$` or `#`; then a blank (a
 * space after a WORD). A bare
 * `# ` is a comment, never a prompt; a word with `=` or a quote is shell, never a prompt. */
#ifndef GPULINT_DOC_PROMPT_H
#define GPULINT_DOC_PROMPT_H

#include <stddef.h>

/* The length of the prompt that starts t[s, e), its blank included; 0 when none does. */
size_t doc_prompt_len(const char *t, size_t s, size_t e);

#endif
