/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: image references. */
#include <stdint.h>

#include "linter/core/ref/imageref.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gl_arena a;
    gl_arena_init(&a);
    struct gl_imageref ref;
    struct gl_imageref_error err;
    if (gl_imageref_parse(&a, (const char *)data, size, (struct gl_loc){1, 1}, &ref, &err) == 0) {
        gl_imageref_cuda_bearing(&ref);
        gl_imageref_full_name(&a, &ref);
    }
    gl_arena_free(&a);
    return 0;
}
