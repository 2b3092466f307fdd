/* SPDX-License-Identifier: Apache-2.0 */
/* bake_input.c: Docker Buildx bake files as an input type (see linter/core/inputs.h;
 * RULES.md "Images built by the project").
 *
 * `docker-bake.hcl`, `docker-bake.json` and their `.override` forms, by name (what
 * `docker buildx bake` reads by default). They launch nothing; they say which images the
 * project builds, as facts for the run (model_ref.h):
 *  - every string of a `tags` list is a build output (GL_PROJECT_BUILT), at its position;
 *    an `${VAR}` inside it is one '*' of its pattern (any value);
 *  - every key of a `contexts` map names a build context that a Dockerfile's `FROM KEY`
 *    takes instead of a registry image (`contexts = { base = "target:base" }`): the key
 *    is a project image too;
 *  - every target that is not a template builds a Dockerfile with the ARGs its `args` set
 *    (bake_targets.h).
 * HCL and JSON are read by one tolerant scanner (comments `#`, `//`, C-style block comments,
 * strings with escapes; `tags` / `"tags"` followed by `=` or `:` and a list): a file it
 * cannot follow adds fewer facts, never a finding. Bounded: linear in the file.
 */
#include <ctype.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/bake/bake_scan.h"
#include "parsers/bake/bake_targets.h"

static bool by_name(const char *path, const char *base)
{
    (void)path;
    return gl_has_prefix(base, "docker-bake") &&
           (gl_has_suffix(base, ".hcl") || gl_has_suffix(base, ".json"));
}

/* `tags = [ "a", "b" ]`: each string a build output. */
static void tags(struct bake_scan *c)
{
    if (c->i >= c->n || c->s[c->i] != '[')
        return;
    bake_step(c);
    for (bake_skip_space(c); c->i < c->n && c->s[c->i] == '"' && !bake_stopped(c);
         bake_skip_space(c)) {
        const char *pattern;
        struct gl_loc loc;
        const char *t = bake_string(c, &pattern, &loc);
        if (*t)
            gl_project_add(c->doc, GL_PROJECT_BUILT, t, pattern, loc, "docker buildx bake");
    }
}

/* `contexts = { name = "target:x" }`: each key a context FROM may name. */
static void contexts(struct bake_scan *c)
{
    if (c->i >= c->n || c->s[c->i] != '{')
        return;
    bake_step(c);
    for (bake_skip_space(c); c->i < c->n && c->s[c->i] != '}' && !bake_stopped(c);
         bake_skip_space(c)) {
        struct gl_loc loc;
        size_t before = c->i;
        const char *k = bake_key(c, &loc);
        if (!k || !bake_assign(c) || c->i >= c->n || c->s[c->i] != '"') {
            if (c->i == before)
                bake_step(c);
            continue;
        }
        const char *pattern;
        struct gl_loc vloc;
        bake_string(c, &pattern, &vloc);
        gl_project_add(c->doc, GL_PROJECT_BUILT, k, NULL, loc, "docker buildx bake context");
    }
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct bake_scan c = {doc, doc->text, doc->len, 0, 1, 1};
    while (c.i < c.n) {
        bake_skip_space(&c);
        if (c.i >= c.n || bake_stopped(&c))
            break;
        size_t before = c.i;
        struct gl_loc loc;
        const char *k = c.s[c.i] == '"' || isalnum((unsigned char)c.s[c.i]) || c.s[c.i] == '_'
                            ? bake_key(&c, &loc) : NULL;
        if (k && (!strcmp(k, "tags") || !strcmp(k, "contexts")) && bake_assign(&c)) {
            if (!strcmp(k, "tags"))
                tags(&c);
            else
                contexts(&c);
        }
        if (c.i == before)
            bake_step(&c);
    }
    if (!doc->error.set) /* (a scan stopped by parse-memory: its builds are not read) */
        gl_bake_builds(doc);
}

const struct gl_input_type gl_input_bake = {
    .kind = GL_IN_BAKE,
    .name = "bake",
    .priority = 13,
    .by_name = by_name,
    .candidate = NULL,
    .by_content = NULL,
    .parse = parse,
};
