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
 *    is a project image too.
 * HCL and JSON are read by one tolerant scanner (comments `#`, `//`, C-style block comments,
 * strings with escapes; `tags` / `"tags"` followed by `=` or `:` and a list): a file it
 * cannot follow adds fewer facts, never a finding. Bounded: linear in the file.
 */
#include <ctype.h>
#include <string.h>

#include "linter/core/inputs.h"

static bool by_name(const char *path, const char *base)
{
    (void)path;
    return gl_has_prefix(base, "docker-bake") &&
           (gl_has_suffix(base, ".hcl") || gl_has_suffix(base, ".json"));
}

struct scan {
    struct gl_doc *doc;
    const char *s;
    size_t n, i;
    uint32_t line, col;
};

static void step(struct scan *c)
{
    if (c->s[c->i] == '\n') {
        c->line++;
        c->col = 1;
    } else if (((unsigned char)c->s[c->i] & 0xC0) != 0x80) {
        c->col++;
    }
    c->i++;
}

/* Skip blanks and comments. */
static void skip_space(struct scan *c)
{
    while (c->i < c->n) {
        char ch = c->s[c->i];
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == ',') {
            step(c);
        } else if (ch == '#' || (ch == '/' && c->i + 1 < c->n && c->s[c->i + 1] == '/')) {
            while (c->i < c->n && c->s[c->i] != '\n')
                step(c);
        } else if (ch == '/' && c->i + 1 < c->n && c->s[c->i + 1] == '*') {
            step(c);
            step(c);
            while (c->i < c->n && !(c->s[c->i] == '*' && c->i + 1 < c->n && c->s[c->i + 1] == '/'))
                step(c);
            if (c->i < c->n) {
                step(c);
                step(c);
            }
        } else {
            return;
        }
    }
}

/* The string at c->i (its opening quote): its text with each `${...}` as '*' in *pattern
 * (NULL when it has none), its position in *loc. The text is the literal bytes. */
static const char *string(struct scan *c, const char **pattern, struct gl_loc *loc)
{
    struct gl_buf text, pat;
    gl_buf_init(&text);
    gl_buf_init(&pat);
    step(c);
    *loc = (struct gl_loc){c->line, c->col};
    bool interp = false;
    while (c->i < c->n && c->s[c->i] != '"' && c->s[c->i] != '\n') {
        char ch = c->s[c->i];
        if (ch == '\\' && c->i + 1 < c->n) {
            step(c);
            ch = c->s[c->i];
        } else if (ch == '$' && c->i + 1 < c->n && c->s[c->i + 1] == '{') {
            while (c->i < c->n && c->s[c->i] != '}' && c->s[c->i] != '"' && c->s[c->i] != '\n') {
                gl_buf_addc(&text, c->s[c->i]);
                step(c);
            }
            if (c->i < c->n && c->s[c->i] == '}') {
                gl_buf_addc(&text, '}');
                step(c);
            }
            if (!pat.len || pat.data[pat.len - 1] != '*')
                gl_buf_addc(&pat, '*');
            interp = true;
            continue;
        }
        gl_buf_addc(&text, ch);
        gl_buf_addc(&pat, ch);
        step(c);
    }
    if (c->i < c->n && c->s[c->i] == '"')
        step(c);
    const char *t = gl_arena_strdup(&c->doc->arena, gl_buf_str(&text));
    *pattern = interp ? gl_arena_strdup(&c->doc->arena, gl_buf_str(&pat)) : NULL;
    gl_buf_free(&text);
    gl_buf_free(&pat);
    return t;
}

/* A word or a string key at c->i: its text (NULL when neither), position in *loc. */
static const char *key(struct scan *c, struct gl_loc *loc)
{
    if (c->s[c->i] == '"') {
        const char *pattern;
        return string(c, &pattern, loc);
    }
    size_t from = c->i;
    *loc = (struct gl_loc){c->line, c->col};
    while (c->i < c->n && (isalnum((unsigned char)c->s[c->i]) || c->s[c->i] == '_' || c->s[c->i] == '-' ||
                           c->s[c->i] == '.'))
        step(c);
    return c->i > from ? gl_arena_strndup(&c->doc->arena, c->s + from, c->i - from) : NULL;
}

static bool assign(struct scan *c)
{
    skip_space(c);
    if (c->i < c->n && (c->s[c->i] == '=' || c->s[c->i] == ':')) {
        step(c);
        skip_space(c);
        return true;
    }
    return false;
}

/* Past the limit parse-memory (a list of a million tags): the scan stops here, GL900. */
static bool stopped(struct scan *c)
{
    if (!gl_arena_over(&c->doc->arena))
        return false;
    gl_doc_fail_limit(c->doc, GL_LIMIT_PARSE_MEMORY, (struct gl_loc){c->line, c->col});
    c->i = c->n;
    return true;
}

/* `tags = [ "a", "b" ]`: each string a build output. */
static void tags(struct scan *c)
{
    if (c->i >= c->n || c->s[c->i] != '[')
        return;
    step(c);
    for (skip_space(c); c->i < c->n && c->s[c->i] == '"' && !stopped(c); skip_space(c)) {
        const char *pattern;
        struct gl_loc loc;
        const char *t = string(c, &pattern, &loc);
        if (*t)
            gl_project_add(c->doc, GL_PROJECT_BUILT, t, pattern, loc, "docker buildx bake");
    }
}

/* `contexts = { name = "target:x" }`: each key a context FROM may name. */
static void contexts(struct scan *c)
{
    if (c->i >= c->n || c->s[c->i] != '{')
        return;
    step(c);
    for (skip_space(c); c->i < c->n && c->s[c->i] != '}' && !stopped(c); skip_space(c)) {
        struct gl_loc loc;
        size_t before = c->i;
        const char *k = key(c, &loc);
        if (!k || !assign(c) || c->i >= c->n || c->s[c->i] != '"') {
            if (c->i == before)
                step(c);
            continue;
        }
        const char *pattern;
        struct gl_loc vloc;
        string(c, &pattern, &vloc);
        gl_project_add(c->doc, GL_PROJECT_BUILT, k, NULL, loc, "docker buildx bake context");
    }
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct scan c = {doc, doc->text, doc->len, 0, 1, 1};
    while (c.i < c.n) {
        skip_space(&c);
        if (c.i >= c.n || stopped(&c))
            break;
        size_t before = c.i;
        struct gl_loc loc;
        const char *k = c.s[c.i] == '"' || isalnum((unsigned char)c.s[c.i]) || c.s[c.i] == '_'
                            ? key(&c, &loc) : NULL;
        if (k && (!strcmp(k, "tags") || !strcmp(k, "contexts")) && assign(&c)) {
            if (!strcmp(k, "tags"))
                tags(&c);
            else
                contexts(&c);
        }
        if (c.i == before)
            step(&c);
    }
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
