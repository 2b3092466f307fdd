/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the image JSON reader (parsers/image/image_json.h) on its own: check a
 * document, then walk every value through cursors and copy every string, as the manifest,
 * index and config readers do. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/image/image_json.h"

#define MAX_VISITS 100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    struct gl_json_error err;
    if (gl_json_check(text, size, 64, &err) == 0) {
        struct gl_arena a;
        gl_arena_init(&a);
        struct gl_json *todo = malloc(MAX_VISITS * sizeof *todo);
        size_t n = 0, visits = 0;
        todo[n++] = gl_json_root(text);
        while (n && visits++ < MAX_VISITS) {
            struct gl_json v = todo[--n];
            switch (gl_json_kind(v)) {
            case '{': {
                static const char *const keys[] = {"manifests", "layers", "config", "history",
                                                   "Env", "Labels", "platform", "annotations"};
                (void)gl_json_get_string(&a, v, "mediaType");
                for (size_t k = 0; k < sizeof keys / sizeof keys[0] && n < MAX_VISITS; k++)
                    if (gl_json_get(v, keys[k]).at)
                        todo[n++] = gl_json_get(v, keys[k]);
                break;
            }
            case '[':
                (void)gl_json_count(v);
                for (struct gl_json e = gl_json_first(v); e.at && n < MAX_VISITS;
                     e = gl_json_next(e))
                    todo[n++] = e;
                break;
            case '"': (void)gl_json_string(&a, v); break;
            default: break;
            }
        }
        free(todo);
        gl_arena_free(&a);
    }
    free(text);
    return 0;
}
