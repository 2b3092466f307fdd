/* kb_yaml.c: libyaml document wrapper with located errors (see kb_yaml.h). */
#include "knowledge/kb_yaml.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Byte offset of character number `index` of the text (libyaml marks count characters;
 * the text is valid UTF-8 up to any mark libyaml reports, so characters are lead bytes). */
static size_t char_index_to_offset(const char *text, size_t len, size_t index)
{
    size_t off = 0;
    for (size_t chars = 0; off < len && chars < index; chars++) {
        off++;
        while (off < len && ((unsigned char)text[off] & 0xC0) == 0x80)
            off++;
    }
    return off;
}

static struct gl_loc offset_to_loc(const char *text, size_t len, size_t off)
{
    if (off > len)
        off = len;
    struct gl_loc loc = {1, 1};
    size_t line_start = 0;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            loc.line++;
            line_start = i + 1;
        }
    }
    loc.col = (uint32_t)(off - line_start + 1);
    return loc;
}

static void set_error(struct kb_yaml *y, struct gl_loc loc, const char *fmt, va_list ap)
{
    if (y->failed)
        return;
    y->failed = true;
    y->err->loc = loc;
    vsnprintf(y->err->message, sizeof y->err->message, fmt, ap);
}

static void fail_at_offset(struct kb_yaml *y, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail_at_offset(struct kb_yaml *y, size_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(y, offset_to_loc(y->text, y->len, off), fmt, ap);
    va_end(ap);
}

bool kb_yaml_fail(struct kb_yaml *y, const yaml_node_t *node, const char *fmt, ...)
{
    size_t off = node ? char_index_to_offset(y->text, y->len, node->start_mark.index) : 0;
    va_list ap;
    va_start(ap, fmt);
    set_error(y, offset_to_loc(y->text, y->len, off), fmt, ap);
    va_end(ap);
    return false;
}

static void fail_parser(struct kb_yaml *y, const yaml_parser_t *p)
{
    const char *problem = p->problem ? p->problem : "YAML error";
    if (p->error == YAML_MEMORY_ERROR) {
        fail_at_offset(y, 0, "out of memory parsing YAML");
    } else if (p->error == YAML_READER_ERROR) {
        fail_at_offset(y, p->problem_offset, "invalid text: %s", problem);
    } else {
        size_t off = char_index_to_offset(y->text, y->len, p->problem_mark.index);
        if (p->context)
            fail_at_offset(y, off, "YAML syntax error: %s %s", p->context, problem);
        else
            fail_at_offset(y, off, "YAML syntax error: %s", problem);
    }
}

yaml_node_t *kb_yaml_root(struct kb_yaml *y)
{
    return y->have_doc ? yaml_document_get_root_node(&y->doc) : NULL;
}

static yaml_node_t *node_at(struct kb_yaml *y, int id)
{
    return yaml_document_get_node(&y->doc, id);
}

/* Every node must be referenced once at most (an alias makes a node shared). libyaml's
 * document keeps no mark of the alias itself, so the error points at the key of the pair
 * (or the list) that uses it. */
static bool check_no_aliases(struct kb_yaml *y)
{
    size_t n = (size_t)(y->doc.nodes.top - y->doc.nodes.start);
    unsigned char *refs = xcalloc(n + 1, 1);
    refs[1] = 1; /* the root (node 1) is referenced by the document */
    bool ok = true;
    for (yaml_node_t *node = y->doc.nodes.start; ok && node < y->doc.nodes.top; node++) {
        if (node->type == YAML_SEQUENCE_NODE) {
            for (yaml_node_item_t *it = node->data.sequence.items.start;
                 ok && it < node->data.sequence.items.top; it++) {
                if (*it < 1 || (size_t)*it > n || refs[*it]++)
                    ok = kb_yaml_fail(y, node, "YAML aliases are not supported (in this list)");
            }
        } else if (node->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *pr = node->data.mapping.pairs.start;
                 ok && pr < node->data.mapping.pairs.top; pr++) {
                bool key_bad = pr->key < 1 || (size_t)pr->key > n || refs[pr->key]++;
                bool value_bad = pr->value < 1 || (size_t)pr->value > n || refs[pr->value]++;
                if (key_bad || value_bad)
                    ok = kb_yaml_fail(y, key_bad ? node : node_at(y, pr->key),
                                      "YAML aliases are not supported");
            }
        }
    }
    free(refs);
    return ok;
}

/* libyaml's scanner is quadratic in the depth of flow collections ([ and {), so deep
 * nesting is refused before parsing. The count ignores quoting, which can only overcount
 * unbalanced brackets inside strings; knowledge files need a handful of levels. */
#define KB_MAX_FLOW_DEPTH 64

static bool check_flow_depth(struct kb_yaml *y)
{
    size_t depth = 0;
    for (size_t i = 0; i < y->len; i++) {
        char c = y->text[i];
        if (c == '[' || c == '{') {
            if (++depth > KB_MAX_FLOW_DEPTH) {
                fail_at_offset(y, i, "brackets nested deeper than %d levels", KB_MAX_FLOW_DEPTH);
                return false;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return true;
}

bool kb_yaml_open(struct kb_yaml *y, const char *text, size_t len, struct gl_kb_error *err)
{
    memset(y, 0, sizeof *y);
    y->text = text;
    y->len = len;
    y->err = err;
    if (!check_flow_depth(y))
        return false;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fail_at_offset(y, 0, "out of memory");
        return false;
    }
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    bool ok = false;
    if (!yaml_parser_load(&parser, &y->doc)) {
        fail_parser(y, &parser);
    } else {
        y->have_doc = true;
        yaml_document_t next;
        if (!kb_yaml_root(y)) {
            fail_at_offset(y, 0, "empty file: expected a mapping of knowledge tables");
        } else if (!yaml_parser_load(&parser, &next)) {
            fail_parser(y, &parser);
        } else {
            yaml_node_t *extra = yaml_document_get_root_node(&next);
            if (extra)
                fail_at_offset(y, char_index_to_offset(text, len, extra->start_mark.index),
                               "expected a single YAML document, found another one here");
            else
                ok = check_no_aliases(y);
            yaml_document_delete(&next);
        }
    }
    yaml_parser_delete(&parser);
    return ok;
}

void kb_yaml_close(struct kb_yaml *y)
{
    if (y->have_doc)
        yaml_document_delete(&y->doc);
    y->have_doc = false;
}

size_t kb_yaml_map_size(const yaml_node_t *map)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return 0;
    return (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

yaml_node_t *kb_yaml_map_key(struct kb_yaml *y, yaml_node_t *map, size_t i)
{
    return i < kb_yaml_map_size(map) ? node_at(y, map->data.mapping.pairs.start[i].key) : NULL;
}

yaml_node_t *kb_yaml_map_value(struct kb_yaml *y, yaml_node_t *map, size_t i)
{
    return i < kb_yaml_map_size(map) ? node_at(y, map->data.mapping.pairs.start[i].value) : NULL;
}

size_t kb_yaml_seq_size(const yaml_node_t *seq)
{
    if (!seq || seq->type != YAML_SEQUENCE_NODE)
        return 0;
    return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

yaml_node_t *kb_yaml_seq_item(struct kb_yaml *y, yaml_node_t *seq, size_t i)
{
    return i < kb_yaml_seq_size(seq) ? node_at(y, seq->data.sequence.items.start[i]) : NULL;
}

bool kb_yaml_scalar_is(const yaml_node_t *node, const char *s)
{
    if (!node || node->type != YAML_SCALAR_NODE)
        return false;
    size_t n = strlen(s);
    return node->data.scalar.length == n && memcmp(node->data.scalar.value, s, n) == 0;
}

yaml_node_t *kb_yaml_get(struct kb_yaml *y, yaml_node_t *map, const char *key)
{
    size_t n = kb_yaml_map_size(map);
    for (size_t i = 0; i < n; i++) {
        if (kb_yaml_scalar_is(kb_yaml_map_key(y, map, i), key))
            return kb_yaml_map_value(y, map, i);
    }
    return NULL;
}

bool kb_yaml_is_null(const yaml_node_t *node)
{
    if (!node)
        return true;
    if (node->type != YAML_SCALAR_NODE || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
    for (size_t i = 0; i < sizeof nulls / sizeof *nulls; i++) {
        if (kb_yaml_scalar_is(node, nulls[i]))
            return true;
    }
    return false;
}

const char *kb_yaml_str(struct kb_yaml *y, yaml_node_t *node, struct gl_arena *arena, bool *ok)
{
    *ok = true;
    if (kb_yaml_is_null(node))
        return NULL;
    if (node->type != YAML_SCALAR_NODE) {
        *ok = kb_yaml_fail(y, node, "expected a single value here, found a %s",
                           node->type == YAML_MAPPING_NODE ? "mapping" : "list");
        return NULL;
    }
    const char *v = (const char *)node->data.scalar.value;
    size_t n = node->data.scalar.length;
    if (memchr(v, 0, n)) {
        *ok = kb_yaml_fail(y, node, "NUL byte in a value");
        return NULL;
    }
    return gl_arena_strndup(arena, v, n);
}
