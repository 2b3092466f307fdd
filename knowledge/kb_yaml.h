/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kb_yaml.h: the knowledge loader's view of a YAML file (internal to knowledge/).
 *
 * kb_yaml_open() refuses bracket nesting deeper than 64 (on which libyaml is quadratic),
 * loads the whole text with the project's YAML reader (parsers/yaml/yaml_tree.h,
 * yt_load_exact) into a scratch arena, and checks it is one document without duplicate
 * anchors or aliases (so every node is reached at most once and a small file cannot
 * expand into a huge table). Problems are found in the order libyaml's document loader
 * met them, and worded as it did ("YAML syntax error: ...", "invalid text: ...").
 *
 * The helpers below walk that tree; every failure is recorded once in the caller's
 * gl_kb_error with the 1-based line and byte column of the offending node, and returns
 * false / NULL so callers can just propagate. Nodes are never aliases (refused above).
 */
#ifndef GPULINT_KB_YAML_H
#define GPULINT_KB_YAML_H

#include "knowledge/kb.h"
#include "parsers/yaml/yaml_tree.h"

struct kb_yaml {
    struct gl_arena arena; /* the tree's */
    struct yt_stream s;
    struct gl_kb_error *err;
    bool failed; /* an error is recorded; later errors are ignored */
};

/* Load text. Returns false with err filled (syntax error, several documents, aliases,
 * empty file). Always call kb_yaml_close() afterwards. */
bool kb_yaml_open(struct kb_yaml *y, const char *text, size_t len, struct gl_kb_error *err);
void kb_yaml_close(struct kb_yaml *y);

struct yt_node *kb_yaml_root(struct kb_yaml *y);
/* Record an error at node (NULL: line 1). Always returns false. */
bool kb_yaml_fail(struct kb_yaml *y, const struct yt_node *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Mapping and list access: 0 / NULL for a node of another kind or an index past the end.
 * kb_yaml_get returns the value of the first pair whose key is the scalar `key` (the
 * mapping's own pairs: `<<` is a key like any other here). */
struct yt_node *kb_yaml_get(struct yt_node *map, const char *key);
size_t kb_yaml_map_size(const struct yt_node *map);
struct yt_node *kb_yaml_map_key(struct yt_node *map, size_t i);
struct yt_node *kb_yaml_map_value(struct yt_node *map, size_t i);
size_t kb_yaml_seq_size(const struct yt_node *seq);
struct yt_node *kb_yaml_seq_item(struct yt_node *seq, size_t i);

/* Scalar as a NUL-terminated arena string; NULL for null (yt_is_null). Fails (NULL +
 * error) for a non-scalar or a scalar holding a NUL byte; *ok tells the two NULLs apart. */
const char *kb_yaml_str(struct kb_yaml *y, struct yt_node *node, struct gl_arena *arena, bool *ok);

#endif
