/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the one YAML reader (parsers/yaml/yaml_tree.h) on its own: load a stream,
 * then visit every node through the queries the readers use (merge keys, aliases under
 * the budget, scalar positions), as compose, Kubernetes and CI YAML do. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/yaml/yaml_tree.h"

#define MAX_VISITS 100000

static void visit(struct yt_stream *s, struct yt_node *root)
{
    struct yt_node **todo = malloc(MAX_VISITS * sizeof *todo);
    size_t n = 0, visits = 0;
    todo[n++] = root;
    while (n && visits++ < MAX_VISITS) {
        struct yt_node *x = yt_deref(s, todo[--n]);
        if (!x || !yt_charge(s, 1, x->loc))
            continue;
        if (yt_is_scalar(x)) {
            (void)yt_is_null(x);
            (void)yt_is_true(x);
            if (x->len)
                (void)yt_scalar_loc_at(s, x, x->len - 1);
        } else if (yt_is_map(x)) {
            struct yt_pair *pairs;
            size_t np = yt_pairs(s, x, &pairs);
            (void)yt_get(s, x, "kind", NULL);
            for (size_t i = 0; i < np && n < MAX_VISITS; i++)
                todo[n++] = pairs[i].value;
        } else if (yt_is_seq(x)) {
            for (size_t i = 0; i < x->nitems && n < MAX_VISITS; i++)
                todo[n++] = yt_item(s, x, i) ? x->items[i] : NULL;
        }
    }
    free(todo);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gl_arena a;
    gl_arena_init(&a);
    struct yt_stream s;
    yt_load(&s, &a, (const char *)data, size);
    for (size_t d = 0; d < s.ndocs; d++)
        if (s.docs[d])
            visit(&s, s.docs[d]);
    gl_arena_free(&a);
    return 0;
}
