/* SPDX-License-Identifier: Apache-2.0 */
/* kustomize_input.c: kustomization files as an input type (see linter/core/inputs.h;
 * RULES.md "Kustomize").
 *
 * `kustomization.yaml`, `kustomization.yml` and `Kustomization`, by name only (kustomize
 * reads no other name). Each entry of the top-level `images:` list that has a `name` and
 * a `newName`, `newTag` or `digest` rewrites every image of that name in the bases:
 *  - the name becomes a project image (model_ref.h) at its `name:` value: GL_PROJECT_RENAMED
 *    with newName, GL_PROJECT_RETAGGED with newTag or digest. The engine makes findings on
 *    the bases' references of that name moot (their tag or name is not what runs);
 *  - the image the entry sets is a reference (GL_REF_KUSTOMIZE), judged like any other:
 *    newName (else name), `:newTag`, `@digest`, located at the newTag value (else the
 *    digest, else newName). An entry with newName and neither newTag nor digest keeps the
 *    tag of each base reference, which this file does not know: its reference is
 *    unresolved (no rule judges it), and the bases' references keep their tag findings
 *    (GL101, GL103 stay with them; GL102, GL201, GL204 and GL407, which judge the name,
 *    are moot there).
 * A value holding `$` (envsubst, a shell variable), `{{` (a template) or `<` (a
 * documentation placeholder) is unresolved: an entry whose name is unresolved rewrites
 * nothing known; an unresolved newName, newTag or digest still rewrites, and its
 * reference is unresolved. A `newTag` written as a YAML number (`newTag: 1.10`) keeps its
 * text. Inline ignores: yt_add_pragmas; a YAML error is GL900 (yt_report).
 */
#include <string.h>

#include "linter/core/ref/imageref.h"
#include "linter/core/inputs.h"
#include "linter/core/limits.h"
#include "parsers/yaml/yaml_tree.h"

static bool by_name(const char *path, const char *base)
{
    (void)path;
    return gl_streq(base, "kustomization.yaml") || gl_streq(base, "kustomization.yml") ||
           gl_streq(base, "Kustomization");
}

/* A scalar value of the entry, NULL when absent, empty or not a scalar. */
static struct yt_node *field(struct yt_stream *s, struct yt_node *entry, const char *key)
{
    struct yt_node *v = yt_deref(s, yt_get(s, entry, key, NULL));
    return yt_is_scalar(v) && !yt_is_null(v) && v->len ? v : NULL;
}

static bool unresolved(const struct yt_node *v)
{
    return v && (memchr(v->value, '$', v->len) || memmem(v->value, v->len, "{{", 2) ||
                 memchr(v->value, '<', v->len));
}

static void entry(struct gl_doc *doc, struct yt_stream *s, struct yt_node *e)
{
    struct yt_node *name = field(s, e, "name"), *new_name = field(s, e, "newName");
    struct yt_node *new_tag = field(s, e, "newTag"), *digest = field(s, e, "digest");
    if (!name || unresolved(name) || (!new_name && !new_tag && !digest))
        return;
    unsigned what = (new_name ? GL_PROJECT_RENAMED : 0) |
                    (new_tag || digest ? GL_PROJECT_RETAGGED : 0);
    gl_project_add(doc, what, name->value, NULL, yt_scalar_loc_at(s, name, 0), "kustomization");
    struct yt_node *at = new_tag ? new_tag : digest ? digest : new_name;
    bool unknown = unresolved(new_name) || unresolved(new_tag) || unresolved(digest) ||
                   (!new_tag && !digest);
    const char *text = gl_arena_printf(&doc->arena, "%s%s%s%s%s",
                                       (new_name ? new_name : name)->value, new_tag ? ":" : "",
                                       new_tag ? new_tag->value : "", digest ? "@" : "",
                                       digest ? digest->value : "");
    gl_ref_add(doc, text, yt_scalar_loc_at(s, at, 0), GL_REF_KUSTOMIZE, unknown);
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct yt_stream s;
    yt_load_doc(&s, doc, doc->text, doc->len);
    struct yt_node *root = s.ndocs && s.docs[0] && s.docs[0]->complete ? s.docs[0] : NULL;
    struct yt_node *images = yt_deref(&s, yt_get(&s, root, "images", NULL));
    for (size_t i = 0; yt_is_seq(images) && i < images->nitems; i++) {
        struct yt_node *e = yt_item(&s, images, i);
        if (yt_is_map(e))
            entry(doc, &s, e);
        if (gl_arena_over(&doc->arena)) { /* (the entry that took the rest: stop there) */
            gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, e->loc);
            break;
        }
    }
    yt_add_pragmas(doc, &s);
    yt_report(doc, &s);
}

const struct gl_input_type gl_input_kustomize = {
    .kind = GL_IN_KUSTOMIZE,
    .name = "kustomize",
    .priority = 14,
    .by_name = by_name,
    .candidate = NULL,
    .by_content = NULL,
    .parse = parse,
};
