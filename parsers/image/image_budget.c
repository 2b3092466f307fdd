/* SPDX-License-Identifier: Apache-2.0 */
/* image_budget.c: the memory image file lists hold at once (see image_budget.h). */
#include "parsers/image/image_budget.h"

#include <stdatomic.h>

#include "linter/core/limits.h"

static atomic_size_t used;

bool gl_image_budget_charge(size_t *charged, size_t bytes)
{
    size_t total;
    if (bytes >= *charged)
        total = atomic_fetch_add(&used, bytes - *charged) + (bytes - *charged);
    else
        total = atomic_fetch_sub(&used, *charged - bytes) - (*charged - bytes);
    *charged = bytes;
    return total <= gl_limit(GL_LIMIT_IMAGE_MEMORY);
}

void gl_image_budget_release(size_t *charged)
{
    atomic_fetch_sub(&used, *charged);
    *charged = 0;
}

size_t gl_image_budget_used(void) { return atomic_load(&used); }
