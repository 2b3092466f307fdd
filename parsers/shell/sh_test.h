/* SPDX-License-Identifier: Apache-2.0 */
/* sh_test.h: a shell test command whose outcome its own words decide.
 *
 * `[ A = B ]`, `[ A != B ]`, `[[ A == B ]]`, `test A = B` (also `==`, `!=` in each form),
 * once expansion is done: both operands known (no opaque part; a Dockerfile's ARG default
 * makes `${TENSORFLOW_PACKAGE}` known) and free of glob bytes (`[[ $P == cu* ]]` is a
 * pattern, `[ $X = a* ]` may be expanded as a path): its exit status is a fact of the text,
 * inverted by a `!` before it. `[[ ]]` and `==` are bash's (dash fails them): only a
 * comparison bash fails too is decided in those forms. Anything else (`-z`, `-f`, `-a`, a
 * number test) is not decided. */
#ifndef GPULINT_PARSERS_SH_TEST_H
#define GPULINT_PARSERS_SH_TEST_H

#include <stdbool.h>

#include "parsers/shell/shell_words.h"

/* True when c is such a test, with *succeeds set to whether it exits 0. */
bool sh_test_known(const struct sh_cmd *c, bool *succeeds);

#endif
