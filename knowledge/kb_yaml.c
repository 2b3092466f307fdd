/* SPDX-License-Identifier: Apache-2.0 */
/* kb_yaml.c: the knowledge file as a yaml_tree, checked and walked with located errors
 * (see kb_yaml.h). */
#include "knowledge/kb_yaml.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "linter/core/hashmap.h"
#include "linter/core/limits.h"

static void set_error(struct kb_yaml *y, struct gl_loc loc, const char *fmt, va_list ap)
{
    if (y->failed)
        return;
    y->failed = true;
    y->err->loc = loc;
    vsnprintf(y->err->message, sizeof y->err->message, fmt, ap);
}

static bool fail_at(struct kb_yaml *y, struct gl_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail_at(struct kb_yaml *y, struct gl_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(y, loc, fmt, ap);
    va_end(ap);
    return false;
}

bool kb_yaml_fail(struct kb_yaml *y, const struct yt_node *node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(y, node ? node->loc : (struct gl_loc){1, 1}, fmt, ap);
    va_end(ap);
    return false;
}

/* The load's error, in the words of libyaml's document loader. */
static bool fail_load(struct kb_yaml *y)
{
    const struct yt_stream *s = &y->s;
    const struct yt_cause *c = &s->cause;
    const char *problem = c->problem ? c->problem : "YAML error";
    switch (c->kind) {
    case YT_ERR_READER: return fail_at(y, s->error_loc, "invalid text: %s", problem);
    case YT_ERR_SYNTAX:
        if (c->context)
            return fail_at(y, s->error_loc, "YAML syntax error: %s %s", c->context, problem);
        return fail_at(y, s->error_loc, "YAML syntax error: %s", problem);
    case YT_ERR_MEMORY: return kb_yaml_fail(y, NULL, "out of memory parsing YAML");
    case YT_ERR_UNDEFINED_ALIAS:
        return fail_at(y, s->error_loc, "YAML syntax error: found undefined alias");
    default: return fail_at(y, s->error_loc, "%s", s->error_msg);
    }
}

/* libyaml's scanner is quadratic in the depth of flow collections ([ and {), so deep
 * nesting is refused before parsing. The count ignores quoting, which can only overcount
 * unbalanced brackets inside strings; knowledge files need a handful of levels. */
#define KB_MAX_FLOW_DEPTH 64

static bool check_flow_depth(struct kb_yaml *y, const char *text, size_t len)
{
    size_t depth = 0, line_start = 0;
    uint32_t line = 1;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\n') {
            line++;
            line_start = i + 1;
        } else if ((c == '[' || c == '{') && ++depth > KB_MAX_FLOW_DEPTH) {
            return fail_at(y, (struct gl_loc){line, (uint32_t)(i - line_start + 1)},
                           "brackets nested deeper than %d levels", KB_MAX_FLOW_DEPTH);
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return true;
}

/* ---- anchors and aliases (libyaml's document loader refused the first, this reader
 * the second; each document is walked in the order libyaml met its nodes) ---- */

struct node_check {
    struct kb_yaml *y;
    struct gl_map seen; /* anchor -> times referenced (anchors are unique in a document) */
};

static bool first_anchor(struct yt_node *n, void *ctx)
{
    struct node_check *c = ctx;
    bool added;
    if (!n->anchor)
        return true;
    gl_map_puts(&c->seen, n->anchor, &added);
    return added || kb_yaml_fail(c->y, n, "YAML syntax error: found duplicate anchor; first "
                                          "occurrence second occurrence");
}

/* The node a reference stands for: an alias's anchored node. */
static struct yt_node *referenced(struct yt_node *n)
{
    return n->kind == YT_ALIAS ? n->target : n;
}

/* Count a reference to n; true when n was referenced before (only an anchored node can
 * be: an alias refers to it). */
static bool referenced_again(struct node_check *c, struct yt_node *n)
{
    n = referenced(n);
    if (!n->anchor)
        return false;
    void **count = gl_map_puts(&c->seen, n->anchor, NULL);
    *count = (void *)((uintptr_t)*count + 1);
    return (uintptr_t)*count > 1;
}

/* The references a collection makes. The error points at the list, or at the key of the
 * pair (at the collection when the key itself is the second reference). */
static bool referenced_once(struct yt_node *n, void *ctx)
{
    struct node_check *c = ctx;
    for (size_t i = 0; n->kind == YT_SEQ && i < n->nitems; i++)
        if (referenced_again(c, n->items[i]))
            return kb_yaml_fail(c->y, n, "YAML aliases are not supported (in this list)");
    for (size_t i = 0; n->kind == YT_MAP && i < n->npairs; i++) {
        bool key_bad = referenced_again(c, n->pairs[i].key);
        bool value_bad = referenced_again(c, n->pairs[i].value);
        if (key_bad || value_bad)
            return kb_yaml_fail(c->y, key_bad ? n : referenced(n->pairs[i].key),
                                "YAML aliases are not supported");
    }
    return true;
}

/* Walk a document with `visit`; when `root_referenced`, the root counts as referenced
 * once already (by its document). */
static bool check_nodes(struct kb_yaml *y, struct yt_node *root,
                        bool (*visit)(struct yt_node *n, void *ctx), bool root_referenced)
{
    struct node_check c = {.y = y};
    gl_map_init(&c.seen);
    if (root_referenced && root && root->anchor)
        *gl_map_puts(&c.seen, root->anchor, NULL) = (void *)(uintptr_t)1;
    bool ok = yt_walk(&y->s, root, visit, &c);
    gl_map_free(&c.seen);
    return ok;
}

/* What libyaml's loader said first: a duplicate anchor or a load error in the first
 * document, an empty file, the same in a second document, or that document itself
 * (once libyaml reached its end). */
static bool check_documents(struct kb_yaml *y)
{
    const struct yt_stream *s = &y->s;
    for (size_t d = 0; d < s->ndocs && d < 2; d++)
        if (!check_nodes(y, s->docs[d], first_anchor, false))
            return false;
    if (s->ndoc_ends > 1 && s->ndocs > 1 && s->docs[1])
        return kb_yaml_fail(y, s->docs[1],
                            "expected a single YAML document, found another one here");
    if (s->error)
        return fail_load(y);
    if (!kb_yaml_root(y))
        return kb_yaml_fail(y, NULL, "empty file: expected a mapping of knowledge tables");
    return true;
}

bool kb_yaml_open(struct kb_yaml *y, const char *text, size_t len, struct gl_kb_error *err)
{
    memset(y, 0, sizeof *y);
    gl_arena_init(&y->arena);
    /* the tree takes ~24 bytes a byte of text: parse-memory bounds it as it bounds an
     * input's (the reader stops at the event where it is reached and says so there) */
    y->arena.limit = gl_limit(GL_LIMIT_PARSE_MEMORY);
    y->err = err;
    if (!check_flow_depth(y, text, len))
        return false;
    yt_load_exact(&y->s, &y->arena, text, len, 0); /* flow depth bounded above */
    return check_documents(y) && check_nodes(y, kb_yaml_root(y), referenced_once, true);
}

void kb_yaml_close(struct kb_yaml *y)
{
    gl_arena_free(&y->arena);
}

struct yt_node *kb_yaml_root(struct kb_yaml *y)
{
    return y->s.ndocs ? y->s.docs[0] : NULL;
}

size_t kb_yaml_map_size(const struct yt_node *map)
{
    return yt_is_map(map) ? map->npairs : 0;
}

struct yt_node *kb_yaml_map_key(struct yt_node *map, size_t i)
{
    return i < kb_yaml_map_size(map) ? map->pairs[i].key : NULL;
}

struct yt_node *kb_yaml_map_value(struct yt_node *map, size_t i)
{
    return i < kb_yaml_map_size(map) ? map->pairs[i].value : NULL;
}

size_t kb_yaml_seq_size(const struct yt_node *seq)
{
    return yt_is_seq(seq) ? seq->nitems : 0;
}

struct yt_node *kb_yaml_seq_item(struct yt_node *seq, size_t i)
{
    return i < kb_yaml_seq_size(seq) ? seq->items[i] : NULL;
}

struct yt_node *kb_yaml_get(struct yt_node *map, const char *key)
{
    size_t n = kb_yaml_map_size(map);
    for (size_t i = 0; i < n; i++) {
        if (yt_scalar_is(map->pairs[i].key, key))
            return map->pairs[i].value;
    }
    return NULL;
}

const char *kb_yaml_str(struct kb_yaml *y, struct yt_node *node, struct gl_arena *arena, bool *ok)
{
    *ok = true;
    if (yt_is_null(node))
        return NULL;
    if (node->kind != YT_SCALAR) {
        *ok = kb_yaml_fail(y, node, "expected a single value here, found a %s",
                           node->kind == YT_MAP ? "mapping" : "list");
        return NULL;
    }
    if (node->nul) { /* (an escape's NUL, which the value shows as U+2400) */
        *ok = kb_yaml_fail(y, node, "NUL byte in a value");
        return NULL;
    }
    return gl_arena_strndup(arena, node->value, node->len);
}
