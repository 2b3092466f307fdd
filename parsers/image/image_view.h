/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_view.h: the final filesystem view of an image from its layers' indexes.
 *
 * gl_image_view_build() merges the layer indexes (bottom layer first) as the OCI
 * image-spec says: a later layer's entry replaces an earlier one at the same path (and a
 * later duplicate in one layer replaces an earlier one); `.wh.<name>` deletes <name> and
 * everything under it from the layers below; `.wh..wh..opq` hides everything the layers
 * below put under its directory, wherever it stands in its own layer; a non-directory
 * hides what lower layers have under the same path. Symlinks and hardlinks stay entries
 * (never followed). The result is sorted by path, allocated from `a`; each file keeps the
 * index of the layer that brought it. Linear in the number of entries (hash look-ups of
 * each entry's ancestors).
 * At most max_files files are kept (the limit `image-files` for one platform), and the
 * view's memory is charged to the image budget through *charged (image_budget.h; the
 * caller releases it when the view goes): past either the merge stops, *stopped names the
 * limit, and the files kept so far are returned (the caller reports the platform, not a
 * partial view). *stopped is GL_LIMIT_COUNT when the view is whole.
 * `waste` (may be NULL) gets the regular files of lower layers that an upper layer deletes
 * or replaces, with their bytes (model_image.h).
 */
#ifndef GPULINT_IMAGE_VIEW_H
#define GPULINT_IMAGE_VIEW_H

#include "linter/core/limits.h"
#include "parsers/image/image_layer.h"

size_t gl_image_view_build(struct gl_arena *a, const struct gl_layer_index *const *layers,
                           size_t nlayers, size_t max_files, struct gl_image_file **out,
                           enum gl_limit_id *stopped, size_t *charged,
                           struct gl_image_waste *waste);

#endif
