/* SPDX-License-Identifier: Apache-2.0 */
/*
 * quadlet_refs.h: the image a Podman Quadlet `.container` unit runs when its Image= names
 * another unit (podman-systemd.unit(5), podman-image.unit(5), podman-build.unit(5)):
 *  - `Image=NAME.image`: the image the `NAME.image` unit pulls, the Image= of its [Image]
 *    section (the last one; `docker://` dropped). An archive or a directory (`oci-archive:`,
 *    `docker-archive:`, `oci:`, `dir:`, ...) is no registry image: unknown.
 *  - `Image=NAME.build`: the image the `NAME.build` unit builds, its first ImageTag= of its
 *    [Build] section: an image the project builds (RULES.md "Images built by the project").
 * The unit is read only beside the `.container` file (the same directory, NAME without
 * `/`), at most QUADLET_UNIT_MAX bytes of it: a larger file, an unreadable one, or a value
 * gpulint cannot take as written (blanks, quotes, `\`, `$`, `%` specifiers, a line
 * continued) leaves the image unknown, as before.
 */
#ifndef GPULINT_PARSERS_LAUNCH_QUADLET_REFS_H
#define GPULINT_PARSERS_LAUNCH_QUADLET_REFS_H

#include <stdbool.h>
#include <stddef.h>

#include "linter/core/util.h"

#define QUADLET_UNIT_MAX (64 * 1024)

struct quadlet_image {
    const char *text; /* the image reference (in the arena) */
    bool built;       /* a `.build` unit's tag: the project builds it */
};

/* The image of unit name[0..n) (`vllm.image`, `app.build`) beside the unit file at
 * `unit_path`; false when it is unknown (see above). */
bool quadlet_sibling_image(struct gl_arena *a, const char *unit_path, const char *name,
                           size_t n, struct quadlet_image *out);

#endif
