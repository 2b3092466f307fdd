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
/* A wrapper in front of the real command (env, nohup, time, timeout, sudo, xargs, mpirun,
 * srun, numactl, ...). */
bool gl_word_wrapper(const char *word, size_t len);
/* Is the `len` bytes at `s` a VAR=value assignment? */
bool gl_word_assignment(const char *s, size_t len);
/* The index of the command word of argv, or l->nargv when it is not known. */
size_t gl_launch_command_index(const struct gl_launch *l);

/* A launch whose command is a shell script spliced into its argv (`sh -c "a; b && c"` in
 * a pod or compose command) holds several commands, each starting at a word marked
 * next_command. Walk them with
 *     for (size_t s = 0; s < l->nargv; s = gl_launch_next_command(l, s))
 * and take each one's command word with gl_command_word(l, s). */
size_t gl_launch_next_command(const struct gl_launch *l, size_t start);
/* The command word of the command that starts at `start` (after VAR=value words and
 * wrappers), or l->nargv when it is not known or the command has none. */
size_t gl_command_word(const struct gl_launch *l, size_t start);
/* A test on one command word (`len` bytes at `word`). */
typedef bool (*gl_word_test)(const char *word, size_t len);
/* The word of the command [start, end) that passes `test`: its command word, or behind a
 * wrapper with options (`mpirun -np 4 python ...`) the first later word that does; end
 * when none. */
size_t gl_command_find(const struct gl_launch *l, size_t start, size_t end, gl_word_test test);
/* Does a shell script run a command whose word passes `test`: the first word, or one after
 * `&&`, `||`, `;`, `|`, `(`, a newline, an assignment or a wrapper? A light scan over
 * blank-separated words, not a shell parser. */
bool gl_script_runs(const char *script, gl_word_test test);
/* Does some command of the launch run such a command: its command word, a word behind a
 * wrapper with options (`mpirun -np 4 python ...`), or a command of a `sh -c` script (one
 * word, or spliced into the argv)? */
bool gl_launch_runs(const struct gl_launch *l, gl_word_test test);
/* The same, reading a `sh -c` script whose text holds unknown parts (`docker run ...
 * "${IMG}"`) as well: its literal command words still run. For the safe side of a rule
 * that stays silent when a command may run, never for one that fires on it. */
bool gl_launch_may_run(const struct gl_launch *l, gl_word_test test);

/* The commands of a CI job's steps that run in its container (gl_launch.steps) seen as a
 * launch: *view is a copy of l whose argv (with next_command, argv_opaque) they are.
 * False, *view untouched, when l has none. For rules that ask what kind of job the
 * container runs (GL410, GL415), never for the path rules. */
bool gl_launch_steps_view(const struct gl_launch *l, struct gl_launch *view);

/* Is the command of [i, end) only a shell with options (`bash -c`, `sh -ec`): the prefix
 * of a spliced script, which runs nothing of its own? */
bool gl_command_shell_prefix(const struct gl_launch *l, size_t i, size_t end);

#endif
