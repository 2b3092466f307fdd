/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_history.h: an image config's history as facts rules read (model_image.h).
 *
 * Each `history` entry keeps its `created_by` and the layer it made (the entries without
 * `empty_layer` name the layers in order). An entry is a RUN when the builder wrote it
 * as one:
 *   BuildKit   `RUN /bin/sh -c apt-get install -y x # buildkit`, with build arguments
 *              `RUN |2 A=1 B=2 /bin/sh -c ...`, exec form `RUN apt-get install x # buildkit`,
 *              the RUN's flags (`RUN --mount=type=cache,... /bin/sh -c ...`) skipped
 *   classic    `/bin/sh -c apt-get install -y x` (`|1 A=1 /bin/sh -c ...`); its other
 *              instructions are `/bin/sh -c #(nop) ENV ...`, a comment to the shell
 *   others     a command line with no instruction word (an exec-form RUN, a tool's note)
 * An entry whose first word is another instruction (`ENV`, `COPY`, `ADD`, `LABEL`, ...:
 * a word of capitals) is not a RUN. A RUN's shell text is split as a Dockerfile's RUN
 * line is (shell_words.h) and read by run_commands.h into the platform's `run` model, with
 * `instr` the entry's index; its variables are the entry's `|N` build arguments, then the
 * config's Env (an ENV before the RUN is in the final Env unless a later ENV changed it);
 * a variable known to neither is opaque. Bounded by the config's size limit and the
 * input's parse memory (parse-memory): past it the reading stops.
 */
#ifndef GPULINT_IMAGE_HISTORY_H
#define GPULINT_IMAGE_HISTORY_H

#include "linter/core/model.h"
#include "parsers/image/image_manifest.h"

/* The history of config `c` (entries, and the RUN facts into *run, allocated here);
 * false when the arena passed its limit (the entries up to there are kept). */
bool gl_image_history_read(struct gl_arena *a, const struct gl_image_config *c,
                           struct gl_image_history **out, size_t *nout,
                           struct gl_dockerfile_model **run);

#endif
