/*
 * kb_yaml.h: the knowledge loader's view of a YAML file (internal to knowledge/).
 *
 * kb_yaml_open() parses a whole text with libyaml's document API into a node graph (after
 * refusing bracket nesting deeper than 64, on which libyaml is quadratic) and checks it
 * is one document without aliases (so every node is reached at most once and a
 * small file cannot expand into a huge table). The helpers below walk that graph; every
 * failure is recorded once in the caller's gl_kb_error with the 1-based line and byte
 * column of the offending node (libyaml counts characters; the mark is converted back to
 * bytes of the text), and returns false / NULL so callers can just propagate.
 */
#ifndef GPULINT_KB_YAML_H
#define GPULINT_KB_YAML_H

#include "knowledge/kb.h"

#include <yaml.h>

struct kb_yaml {
    yaml_document_t doc;
    bool have_doc;
    const char *text;
    size_t len;
    struct gl_kb_error *err;
    bool failed; /* an error is recorded; later errors are ignored */
};

/* Parse text. Returns false with err filled (syntax error, several documents, aliases,
 * empty file). Always call kb_yaml_close() afterwards. */
bool kb_yaml_open(struct kb_yaml *y, const char *text, size_t len, struct gl_kb_error *err);
void kb_yaml_close(struct kb_yaml *y);

yaml_node_t *kb_yaml_root(struct kb_yaml *y);
/* Record an error at node (NULL: line 1). Always returns false. */
bool kb_yaml_fail(struct kb_yaml *y, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Mapping access. kb_yaml_get returns the value node of the first pair whose key is the
 * scalar `key`, or NULL (also when map is not a mapping). */
yaml_node_t *kb_yaml_get(struct kb_yaml *y, yaml_node_t *map, const char *key);
size_t kb_yaml_map_size(const yaml_node_t *map);
yaml_node_t *kb_yaml_map_key(struct kb_yaml *y, yaml_node_t *map, size_t i);
yaml_node_t *kb_yaml_map_value(struct kb_yaml *y, yaml_node_t *map, size_t i);
size_t kb_yaml_seq_size(const yaml_node_t *seq);
yaml_node_t *kb_yaml_seq_item(struct kb_yaml *y, yaml_node_t *seq, size_t i);

/* A plain null (~, null, empty) or absent node. */
bool kb_yaml_is_null(const yaml_node_t *node);
/* Scalar as a NUL-terminated arena string; NULL for null. Fails (NULL + error) for a
 * non-scalar or a scalar holding a NUL byte; *ok tells the two NULLs apart. */
const char *kb_yaml_str(struct kb_yaml *y, yaml_node_t *node, struct gl_arena *arena, bool *ok);
/* Scalar equal to s? */
bool kb_yaml_scalar_is(const yaml_node_t *node, const char *s);

#endif
