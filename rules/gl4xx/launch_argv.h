/* SPDX-License-Identifier: Apache-2.0 */
/*
 * launch_argv.h: the words of a launch's command and its image, as the GL4xx helpers
 * read them: which word is the command (after VAR=value words and wrappers such as env,
 * nohup, mpirun, srun), and words compared without their directory.
 */
#ifndef GPULINT_RULES_LAUNCH_ARGV_H
#define GPULINT_RULES_LAUNCH_ARGV_H

#include "linter/core/model.h"

/* The reference launch l starts, or NULL (opaque, none). */
const struct gl_ref *gl_launch_ref(const struct gl_doc *doc, const struct gl_launch *l);
/* A word whose text is known (not opaque). */
bool gl_word_known(const struct gl_word *w);
/* The `len` bytes at `word` after their last '/' (*len is updated). */
const char *gl_word_base(const char *word, size_t *len);
/* Is the `len` bytes at `word`, without a directory, one of the NULL-terminated `names`? */
bool gl_word_in(const char *word, size_t len, const char *const *names);
/* The same for a NUL-terminated word. */
bool gl_word_named(const char *word, const char *const *names);
/* A wrapper in front of the real command (env, nohup, time, mpirun, srun, numactl, ...). */
bool gl_word_wrapper(const char *word, size_t len);
/* Is the `len` bytes at `s` a VAR=value assignment? */
bool gl_word_assignment(const char *s, size_t len);
/* The index of the command word of argv, or l->nargv when it is not known. */
size_t gl_launch_command_index(const struct gl_launch *l);

#endif
