/* SPDX-License-Identifier: Apache-2.0 */
/* kb_decode.c: decode YAML mappings into knowledge rows by field tables (see kb_schema.h). */
#include "knowledge/kb_schema.h"

#include <stdlib.h>
#include <string.h>

void *kb_alloc_rows(struct kb_loader *ld, struct yt_node *at, size_t count, size_t size)
{
    if (size && count > ((size_t)1 << 40) / size) {
        kb_yaml_fail(&ld->y, at, "table too large");
        return NULL;
    }
    return gl_arena_alloc(ld->arena, count * size + 1);
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool source_known(struct kb_loader *ld, const char *key)
{
    if (ld->n_source_keys == 0)
        return false;
    return bsearch(&key, ld->source_keys, ld->n_source_keys, sizeof *ld->source_keys, cmp_key) != NULL;
}

bool kb_decode_list(struct kb_loader *ld, struct yt_node *node, struct gl_kb_strlist *out)
{
    out->items = NULL;
    out->count = 0;
    if (yt_is_null(node))
        return true;
    bool ok;
    if (yt_is_scalar(node)) {
        const char **items = gl_arena_alloc(ld->arena, sizeof *items);
        items[0] = kb_yaml_str(&ld->y, node, ld->arena, &ok);
        out->items = items;
        out->count = 1;
        return ok;
    }
    if (!yt_is_seq(node))
        return kb_yaml_fail(&ld->y, node, "expected a list of values");
    size_t n = kb_yaml_seq_size(node);
    const char **items = kb_alloc_rows(ld, node, n, sizeof *items);
    if (!items)
        return false;
    for (size_t i = 0; i < n; i++) {
        struct yt_node *item = kb_yaml_seq_item(node, i);
        items[i] = kb_yaml_str(&ld->y, item, ld->arena, &ok);
        if (!ok)
            return false;
        if (!items[i])
            return kb_yaml_fail(&ld->y, item, "null in a list of values");
    }
    out->items = items;
    out->count = n;
    return true;
}

/* "R535" or "535" -> 535. */
static bool parse_branch(const char *s, unsigned *out)
{
    if (*s == 'R' || *s == 'r')
        s++;
    return gl_version_prefix_len(s) == strlen(s) && strchr(s, '.') == NULL &&
           gl_version_field(s, 0, out);
}

/* Source keys: one key or a list of keys, each a key of `sources`; joined by commas. */
static bool decode_source(struct kb_loader *ld, struct yt_node *node, const char **out)
{
    struct gl_kb_strlist keys;
    if (!kb_decode_list(ld, node, &keys))
        return false;
    struct gl_buf b;
    gl_buf_init(&b);
    bool ok = true;
    for (size_t i = 0; ok && i < keys.count; i++) {
        if (!source_known(ld, keys.items[i]))
            ok = kb_yaml_fail(&ld->y, node, "source '%.80s' is not a key of the sources table",
                              keys.items[i]);
        if (i)
            gl_buf_addc(&b, ',');
        gl_buf_adds(&b, keys.items[i]);
    }
    *out = ok && keys.count ? gl_arena_strndup(ld->arena, b.data, b.len) : NULL;
    gl_buf_free(&b);
    return ok;
}

static void set_flag(void *row, size_t offset)
{
    if (offset != KB_NO_FIELD)
        *(bool *)((char *)row + offset) = true;
}

static bool decode_field(struct kb_loader *ld, const struct kb_spec *spec, const struct kb_field *f,
                         struct yt_node *node, void *row)
{
    void *dst = (char *)row + f->offset;
    struct kb_yaml *y = &ld->y;
    if (f->type == KBF_LIST)
        return kb_decode_list(ld, node, dst);
    if (f->type == KBF_SOURCE)
        return decode_source(ld, node, dst);
    bool ok;
    const char *s = kb_yaml_str(y, node, ld->arena, &ok);
    if (!ok)
        return false;
    switch (f->type) {
    case KBF_STR:
        *(const char **)dst = s;
        return true;
    case KBF_VERSION:
        if (s && !gl_version_valid(s))
            return kb_yaml_fail(y, node, "%s: expected a version like 12.4.1, found '%.80s'", f->key, s);
        *(const char **)dst = s;
        return true;
    case KBF_VERSION_LEAD: {
        size_t n = s ? gl_version_prefix_len(s) : 0;
        if (s && n == 0)
            return kb_yaml_fail(y, node, "%s: expected text starting with a version, found '%.80s'",
                                f->key, s);
        *(const char **)dst = s ? gl_arena_strndup(ld->arena, s, n) : NULL;
        if (s && strstr(s + n, "unverified"))
            set_flag(row, spec->unverified_offset);
        return true;
    }
    case KBF_BRANCH: {
        unsigned v = 0;
        if (s && !parse_branch(s, &v))
            return kb_yaml_fail(y, node, "%s: expected a driver branch like R535, found '%.80s'", f->key, s);
        *(unsigned *)dst = v;
        return true;
    }
    case KBF_BRANCH_LEAD: {
        unsigned v = 0;
        size_t n = s ? gl_version_prefix_len(s) : 0;
        if (n && !memchr(s, '.', n)) {
            char *num = gl_arena_strndup(ld->arena, s, n);
            if (!gl_version_field(num, 0, &v))
                v = 0;
        }
        *(unsigned *)dst = v;
        return true;
    }
    case KBF_UINT: {
        unsigned v = 0;
        if (!s || strchr(s, '.') || !gl_version_field(s, 0, &v))
            return kb_yaml_fail(y, node, "%s: expected a number", f->key);
        *(unsigned *)dst = v;
        return true;
    }
    case KBF_BOOL:
    case KBF_FLAG: {
        bool v;
        if (s && strcmp(s, "true") == 0)
            v = true;
        else if (s && strcmp(s, "false") == 0)
            v = false;
        else
            return kb_yaml_fail(y, node, "%s: expected true or false", f->key);
        if (f->type == KBF_BOOL || v)
            *(bool *)dst = v;
        return true;
    }
    default:
        return kb_yaml_fail(y, node, "internal error: field type");
    }
}

bool kb_decode_row(struct kb_loader *ld, const struct kb_spec *spec, struct yt_node *node,
                   void *row)
{
    if (!yt_is_map(node))
        return kb_yaml_fail(&ld->y, node, "%s: expected a mapping of fields", spec->name);
    for (size_t k = 0; k < spec->n_fields; k++) {
        if (spec->fields[k].key && spec->fields[k].type == KBF_BOOL)
            *(bool *)((char *)row + spec->fields[k].offset) = true; /* absent = true */
    }
    uint64_t seen = 0; /* fields are at most 64 per spec */
    size_t n = kb_yaml_map_size(node);
    for (size_t i = 0; i < n; i++) {
        struct yt_node *key = kb_yaml_map_key(node, i);
        struct yt_node *value = kb_yaml_map_value(node, i);
        for (size_t k = 0; k < spec->n_fields && k < 64; k++) {
            const struct kb_field *f = &spec->fields[k];
            if (!f->key || !yt_scalar_is(key, f->key))
                continue;
            if (seen & ((uint64_t)1 << k))
                return kb_yaml_fail(&ld->y, key, "duplicate key '%s'", f->key);
            seen |= (uint64_t)1 << k;
            if (!decode_field(ld, spec, f, value, row))
                return false;
        }
    }
    for (size_t k = 0; k < spec->n_fields && k < 64; k++) {
        const struct kb_field *f = &spec->fields[k];
        if (!f->required)
            continue;
        bool missing = !(seen & ((uint64_t)1 << k));
        if (!missing && (f->type == KBF_STR || f->type == KBF_VERSION || f->type == KBF_VERSION_LEAD ||
                         f->type == KBF_SOURCE))
            missing = *(const char **)((char *)row + f->offset) == NULL;
        if (missing)
            return kb_yaml_fail(&ld->y, node, "%s: missing required field '%s'", spec->name, f->key);
    }
    return !spec->post || spec->post(ld, node, row);
}

bool kb_decode_rows(struct kb_loader *ld, const struct kb_spec *spec, struct yt_node *node,
                    void **rows, size_t *count)
{
    if (!yt_is_seq(node))
        return kb_yaml_fail(&ld->y, node, "%s: expected a list of rows", spec->name);
    size_t n = kb_yaml_seq_size(node);
    char *out = kb_alloc_rows(ld, node, n, spec->row_size);
    if (!out)
        return false;
    ld->table = node;
    ld->rows = out;
    ld->nrows = n;
    for (size_t i = 0; i < n; i++) {
        ld->row = i;
        if (!kb_decode_row(ld, spec, kb_yaml_seq_item(node, i), out + i * spec->row_size))
            return false;
    }
    *rows = out;
    *count = n;
    return true;
}
