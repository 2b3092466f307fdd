/* GL900 parse-error: raised by the engine when a parser gives up (see engine.c). */
#include "linter/check.h"

const struct gl_rule gl_rule_GL900 = {
    .id = "GL900",
    .name = "parse-error",
    .severity = GL_SEV_ERROR,
    .summary = "an input could not be parsed; the finding points at the first bad byte",
    .explanation =
        "gpulint could not read this input as the kind of file it is (a Dockerfile, an image "
        "archive, YAML, ...). The finding points at the first byte that breaks the syntax "
        "and says what was expected there. Nothing else is checked in this input; the "
        "other inputs of the run are still linted. A file that is not meant to be read can "
        "be left out of the run, or named with --type if gpulint guessed its kind wrong.",
    .bad = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV CUDA_HOME",
    .good = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV CUDA_HOME=/usr/local/cuda",
    .fix = "fix the syntax at this position",
    .check = NULL,
};
