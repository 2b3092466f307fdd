/* SPDX-License-Identifier: Apache-2.0 */
/* GL900 parse-error: raised by the engine when a parser gives up (see engine.c), and
 * here for each platform of an image that could not be read while the others were
 * (linter/core/model_image.h: problems). */
#include "rules/check.h"

static void check(struct gl_check *c)
{
    const struct gl_image_model *im = c->doc->image;
    for (size_t i = 0; im && i < im->nproblems; i++) {
        const struct gl_image_problem *p = &im->problems[i];
        struct gl_image_site at = {p->platform, NULL, NULL};
        struct gl_buf said;
        gl_buf_init(&said);
        if (p->platform)
            gl_buf_printf(&said, "platform %s: ", p->platform);
        gl_report_image(c, c->rule->severity, &at,
                        "repair or export the image again; its other platforms were linted",
                        "cannot parse: ", gl_buf_str(&said), p->message);
        gl_buf_free(&said);
    }
}

const struct gl_rule gl_rule_GL900 = {
    .id = "GL900",
    .name = "parse-error",
    .severity = GL_SEV_ERROR,
    .summary = "an input could not be parsed; the finding points at the first bad byte",
    .explanation =
        "gpulint could not read this input as the kind of file it is (a Dockerfile, an image "
        "archive, YAML, ...). The finding points at the first byte that breaks the syntax "
        "and says what was expected there. Nothing else is checked in this input; the "
        "other inputs of the run are still linted. In an image of several platforms, a "
        "platform that cannot be read is one GL900 of its own (line 0, naming the platform "
        "and the layer or manifest), and the other platforms are linted. A shell script "
        "file is GL900 where `bash -n` refuses it: a quote or substitution left open, a "
        "`fi`, `done`, `esac`, `}`, `)` or `;;` that closes nothing, or a compound command "
        "still open at the end (then the finding is at its `if`, `while`, `{`...); pieces of "
        "scripts (RUN lines, Markdown fences, YAML commands) may be fragments and are not "
        "judged for their shell syntax. A file that is not meant to be read can "
        "be left out of the run, or named with --type if gpulint guessed its kind wrong.",
    .bad = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV CUDA_HOME",
    .good = "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENV CUDA_HOME=/usr/local/cuda",
    .fix = "fix the syntax at this position",
    .check = check,
};
