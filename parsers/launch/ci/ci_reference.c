/* SPDX-License-Identifier: Apache-2.0 */
/* ci_reference.c: GitLab CI's `!reference` tag (see ci_reference.h). */
#include "parsers/launch/ci/ci_reference.h"

#include <string.h>

bool ci_is_reference(const struct yt_node *n)
{
    return yt_is_seq(n) && n->tag && !strcmp(n->tag, "!reference");
}

/* The node the path of reference `ref` names in `root`, NULL when it names nothing. */
static struct yt_node *follow(struct yt_stream *s, struct yt_node *root, struct yt_node *ref)
{
    if (!ref->nitems || ref->nitems > CI_REFERENCE_PATH || !yt_charge(s, ref->nitems, ref->loc))
        return NULL;
    struct yt_node *at = root;
    for (size_t i = 0; i < ref->nitems; i++) {
        struct yt_node *key = yt_deref(s, yt_item(s, ref, i));
        if (!yt_is_map(at) || !yt_is_scalar(key))
            return NULL;
        at = yt_get_n(s, at, key->value, key->len, NULL);
    }
    return at;
}

struct yt_node *ci_resolve(struct yt_stream *s, struct yt_node *root, struct yt_node *n)
{
    n = yt_deref(s, n);
    for (int depth = 0; ci_is_reference(n); depth++) {
        if (depth == CI_REFERENCE_DEPTH)
            return NULL;
        n = yt_deref(s, follow(s, root, n));
    }
    return n;
}
