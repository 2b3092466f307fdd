/* SPDX-License-Identifier: Apache-2.0 */
/* GL901 unknown-input: raised by the engine for a named path of no known type. */
#include "rules/check.h"

const struct gl_rule gl_rule_GL901 = {
    .id = "GL901",
    .name = "unknown-input",
    .severity = GL_SEV_WARNING,
    .summary = "a named path is of no known type (with --type the user can say which)",
    .explanation =
        "A path named on the command line is neither recognised by its name (Dockerfile, "
        "Containerfile, *.Dockerfile, ...) nor by its content, so gpulint did not lint it. "
        "Files found by walking a directory are skipped silently instead; only a path you "
        "name gets this warning, so that a typo or a wrong glob in a CI step is noticed. "
        "The same holds for an input that, once read, is not of the kind it looked like: an "
        "archive that holds no image, or a file named like a Dockerfile whose `# syntax=` "
        "directive hands it to another BuildKit frontend (dalec's YAML spec, ...), which "
        "docker build reads in that frontend's language, so it is no Dockerfile parse error.",
    .bad = "gpulint build/recipe.txt",
    .good = "gpulint --type dockerfile build/recipe.txt",
    .fix = "name its kind with --type",
    .check = NULL,
};
