/* SPDX-License-Identifier: Apache-2.0 */
/*
 * suppress.h: inline ignores.
 *
 * Parsers find pragma comments (`# gpulint ignore=GL101,GL403`, `# gpulint global
 * ignore=GL411`) with gl_pragma_parse() and record them in doc->ignores with the line
 * range they cover. The engine drops findings they cover (gl_suppressed) and reports
 * ids that name no rule (GL902).
 */
#ifndef GPULINT_SUPPRESS_H
#define GPULINT_SUPPRESS_H

#include "linter/core/finding.h"
#include "linter/core/model.h"

/* If the comment text (what follows `#`, as written) is a gpulint pragma, add it to
 * doc->ignores covering lines [first, last] (a global pragma covers the whole file) and
 * return true. `loc` is the position of the comment text's first byte. */
bool gl_pragma_parse(struct gl_doc *doc, const char *text, size_t len, struct gl_loc loc,
                     uint32_t first, uint32_t last);

/* Is this finding covered by one of the doc's ignores? */
bool gl_suppressed(const struct gl_doc *doc, const struct gl_finding *f);

#endif
