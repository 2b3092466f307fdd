/* SPDX-License-Identifier: Apache-2.0 */
/* GL902 ignored-rule-unknown: raised by the engine for an ignore naming no rule. */
#include "rules/check.h"

const struct gl_rule gl_rule_GL902 = {
    .id = "GL902",
    .name = "ignored-rule-unknown",
    .severity = GL_SEV_WARNING,
    .summary = "an inline ignore or config names a rule id that does not exist",
    .explanation =
        "An ignore that names no rule suppresses nothing: usually a typo (GL10 for GL101) or "
        "a rule id from another linter (DL3008). The finding points at the id, so that the "
        "ignore you meant to write does what you think.",
    .bad = "# gpulint ignore=GL1010\nFROM nvidia/cuda:latest",
    .good = "# gpulint ignore=GL101\nFROM nvidia/cuda:latest",
    .fix = "name a rule listed by `gpulint --list-rules`",
    .check = NULL,
};
