/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stat_memo.h: what the file system said of a path, remembered per thread for the run.
 *
 * The Dockerfiles of one directory ask for the same files beside them (requirements.txt,
 * pyproject.toml, uv.lock: the build-context facts gl_doc_probe gathers), and the next
 * file of the directory asks again: on the 999 Dockerfiles of bench/text.sh, 2,277 of
 * 3,316 lstat calls failed, most of them a question already answered for the file
 * before. gl_stat_memo asks lstat (stat when follow) once per path and thread and keeps
 * the answer in a small direct-mapped table; a path that lands on a taken slot replaces
 * the older answer, and a path longer than GL_STAT_MEMO_KEY bytes is asked every time.
 *
 * The answers are those of the first question in the run: gpulint reads a snapshot of
 * the tree and writes nothing into it. Per thread, so no lock: the files of a directory
 * go to the workers in turn, and each remembers what it asked.
 */
#ifndef GPULINT_STAT_MEMO_H
#define GPULINT_STAT_MEMO_H

#include <stdbool.h>
#include <stdint.h>

#define GL_STAT_MEMO_KEY 120 /* bytes of a path remembered; longer ones are asked each time */

/* lstat(path) (stat when follow) as remembered: true and *mode, *size when it found the
 * entry; false when it did not (whatever the reason). */
bool gl_stat_memo(const char *path, bool follow, uint32_t *mode, int64_t *size);

#endif
