/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_budget.h: the memory an image's file lists may hold at once (the limit
 * image-memory).
 *
 * Layer indexes (image_layer.h) and merged views (image_view.h) are the part of reading an
 * image that grows with what the image holds: about 100 bytes per layer entry and 150 per
 * view file. The counts are bounded one by one (layer-entries, image-files), but several
 * layers indexed at once and a view beside them multiply; this budget bounds their sum.
 * Each holder (one layer index, one view) keeps the bytes it has charged; it charges again
 * as it grows (gl_image_budget_charge, with its current size) and releases all of them
 * when it is freed. The total is process-wide and atomic: layers indexed by parallel jobs
 * see each other's charges. A holder whose charge passes the limit stops there with a
 * GL900 naming image-memory, for its layer or platform alone.
 */
#ifndef GPULINT_IMAGE_BUDGET_H
#define GPULINT_IMAGE_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

/* Set this holder's charge to `bytes` (it had *charged); false when the total now passes
 * the limit image-memory (the charge stays made: release it when the holder goes). */
bool gl_image_budget_charge(size_t *charged, size_t bytes);
/* Release this holder's charge (*charged becomes 0). */
void gl_image_budget_release(size_t *charged);
/* Bytes charged now, by every holder (tests). */
size_t gl_image_budget_used(void);

#endif
