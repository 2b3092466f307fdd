/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kb_schema.h: the shape of the knowledge file, as data (internal to knowledge/ and
 * tools/kb_gen).
 *
 * Each table of struct gl_kb is described by a kb_spec: where it sits in the YAML (a path
 * of mapping keys from the root), how it is laid out (a list of row mappings, one mapping
 * decoded into an embedded struct, or a custom decoder for mapping-shaped data), and a
 * kb_field per struct member: the YAML key it is read from (NULL for members the loader
 * derives), how the value is checked and converted, and its C name and offset. The loader
 * (kb_load.c) decodes with these tables; the generator writes C initializers with the same
 * tables, so a member added here is loaded, compiled in and compared in one place.
 */
#ifndef GPULINT_KB_SCHEMA_H
#define GPULINT_KB_SCHEMA_H

#include "knowledge/kb_yaml.h"

#include <stddef.h>

enum kb_field_type {
    KBF_STR,          /* const char *: any scalar, NULL for null */
    KBF_VERSION,      /* const char *: a well-formed version, or null */
    KBF_VERSION_LEAD, /* const char *: the version a text starts with ("12.7 (unverified)") */
    KBF_SOURCE,       /* const char *: source key or list of keys, comma-joined, checked */
    KBF_BRANCH,       /* unsigned: "R535" or "535"; 0 for null */
    KBF_BRANCH_LEAD,  /* unsigned: leading number of a free text ("545 (as printed)"), else 0 */
    KBF_UINT,         /* unsigned: a decimal number */
    KBF_BOOL,         /* bool: true/false (the row starts out with the spec's default) */
    KBF_FLAG,         /* bool: set when true; several keys may share one flag */
    KBF_LIST,         /* struct gl_kb_strlist: list of scalars (one scalar = one item) */
    KBF_KIND,         /* enum gl_kb_branch_kind (derived only) */
};

struct kb_field {
    const char *key;   /* YAML key; NULL: derived by the loader, not read */
    enum kb_field_type type;
    const char *cname; /* member name in the C struct */
    size_t offset;
    bool required;
};

enum kb_shape {
    KB_ROWS,   /* a list of mappings, one row each */
    KB_OBJECT, /* one mapping, decoded into a struct embedded in gl_kb */
    KB_CUSTOM, /* a decoder of its own (mapping-shaped data) */
};

struct kb_loader;
/* Custom decoder: fill *rows (arena) and *count from node. */
typedef bool (*kb_custom_fn)(struct kb_loader *ld, struct yt_node *node, void **rows, size_t *count);
/* Per-row fixup after generic decoding (derive members, cross-check). */
typedef bool (*kb_post_fn)(struct kb_loader *ld, struct yt_node *row_node, void *row);

#define KB_NO_FIELD ((size_t)-1)
#define KB_PATH_MAX 4

struct kb_spec {
    const char *name;              /* member of struct gl_kb: "toolkits" (count n_toolkits) */
    const char *path[KB_PATH_MAX]; /* {"cuda_toolkit_drivers"}; unused entries NULL */
    enum kb_shape shape;
    bool required;                 /* the path must exist (KB_ROWS: and hold a row) */
    const char *c_type;            /* "struct gl_kb_toolkit" */
    size_t row_size;
    const struct kb_field *fields;
    size_t n_fields;
    size_t rows_offset;            /* in struct gl_kb: the rows pointer / embedded struct */
    size_t count_offset;           /* in struct gl_kb: the count (tables only) */
    size_t unverified_offset;      /* row's bool set by "(unverified)" texts, or KB_NO_FIELD */
    kb_custom_fn custom;
    kb_post_fn post;
};

/* State of one load: the parsed file, the kb being filled and its arena, and the sorted
 * keys of the `sources` table (read first, so every row's source can be checked). */
struct kb_loader {
    struct kb_yaml y;
    struct gl_arena *arena;
    struct gl_kb *kb;
    const char **source_keys;
    size_t n_source_keys;
    /* The KB_ROWS table kb_decode_rows is decoding: its list, its rows, their count and the
     * row a post hook is given (a hook checks across the rows at the last one). */
    struct yt_node *table;
    const void *rows;
    size_t nrows, row;
};

/* The image_releases table across its rows (kb_image_rows.c): no two rows of one image
 * give one tag (a tag row's, or an alias row's RELEASE-ALIAS) or overlapping dates. */
bool kb_image_releases_check(struct kb_loader *ld, struct yt_node *table,
                             const struct gl_kb_image_release *rows, size_t n);

/* Generic decoding by field tables (kb_decode.c). */
bool kb_decode_row(struct kb_loader *ld, const struct kb_spec *spec, struct yt_node *node,
                   void *row);
bool kb_decode_rows(struct kb_loader *ld, const struct kb_spec *spec, struct yt_node *node,
                    void **rows, size_t *count);
bool kb_decode_list(struct kb_loader *ld, struct yt_node *node, struct gl_kb_strlist *out);
/* Allocate count zeroed rows of size (fails cleanly on absurd sizes). */
void *kb_alloc_rows(struct kb_loader *ld, struct yt_node *at, size_t count, size_t size);

extern const struct kb_spec kb_specs[];
extern const size_t kb_n_specs;

/* Row array and count of a table spec in kb (count 1 for KB_OBJECT). */
const void *kb_spec_rows(const struct kb_spec *spec, const struct gl_kb *kb, size_t *count);

#endif
