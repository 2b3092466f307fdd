/* yaml_tree.c: a safe YAML loader on libyaml events, and queries (see yaml_tree.h). */
#include "parsers/yaml_tree.h"

#include <string.h>
#include <yaml.h>

#include "linter/suppress.h"

/* ---- positions ---- */

/* libyaml marks count characters; convert a character index to a byte offset with a
 * checkpoint every CHECK_EVERY characters (input is valid UTF-8 wherever libyaml got). */
#define CHECK_EVERY 256

struct charmap {
    size_t *at; /* byte offset of character k * CHECK_EVERY */
    size_t n;
};

static void charmap_build(struct charmap *cm, const char *text, size_t len)
{
    size_t cap = len / CHECK_EVERY + 2, chars = 0;
    cm->at = xmalloc(cap * sizeof *cm->at);
    cm->n = 0;
    for (size_t i = 0; i < len; i++) {
        if (((unsigned char)text[i] & 0xC0) == 0x80)
            continue;
        if (chars % CHECK_EVERY == 0 && cm->n < cap)
            cm->at[cm->n++] = i;
        chars++;
    }
    if (!cm->n)
        cm->at[cm->n++] = 0;
}

static size_t charmap_byte(const struct charmap *cm, const char *text, size_t len, size_t ch)
{
    size_t k = ch / CHECK_EVERY;
    if (k >= cm->n)
        return len;
    size_t off = cm->at[k], rest = ch % CHECK_EVERY;
    while (rest && off < len) {
        off++;
        while (off < len && ((unsigned char)text[off] & 0xC0) == 0x80)
            off++;
        rest--;
    }
    return off < len ? off : len;
}

static void lines_build(struct yt_stream *s)
{
    size_t n = 1;
    for (size_t i = 0; i < s->len; i++)
        n += s->text[i] == '\n';
    s->lines = gl_arena_alloc(s->arena, n * sizeof *s->lines);
    s->nlines = 0;
    s->lines[s->nlines++] = 0;
    for (size_t i = 0; i < s->len; i++)
        if (s->text[i] == '\n')
            s->lines[s->nlines++] = i + 1;
}

struct gl_loc yt_loc_of(const struct yt_stream *s, size_t off)
{
    if (!s->nlines)
        return (struct gl_loc){1, 1};
    if (off > s->len)
        off = s->len;
    size_t lo = 0, hi = s->nlines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    size_t col = off - s->lines[lo] + 1;
    return (struct gl_loc){(uint32_t)(lo + 1), col > UINT32_MAX ? UINT32_MAX : (uint32_t)col};
}

/* Bytes [b, e) of line `line` (1-based) without its line break. */
static bool line_span(const struct yt_stream *s, uint32_t line, size_t *b, size_t *e)
{
    if (line == 0 || line > s->nlines)
        return false;
    *b = s->lines[line - 1];
    *e = line < s->nlines ? s->lines[line] - 1 : s->len;
    if (*e > *b && s->text[*e - 1] == '\r')
        (*e)--;
    return true;
}

/* ---- anchors (per document: a slot of an older generation is empty) ---- */

struct anchor_slot {
    const char *name;
    struct yt_node *node;
    unsigned gen;
};

struct anchors {
    struct anchor_slot *slots;
    size_t cap, n;
    unsigned gen;
};

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void anchors_put(struct anchors *t, const char *name, struct yt_node *node);

static void anchors_grow(struct anchors *t)
{
    struct anchor_slot *old = t->slots;
    size_t oldcap = t->cap;
    t->cap = oldcap ? oldcap * 2 : 64;
    t->slots = xcalloc(t->cap, sizeof *t->slots);
    t->n = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].name && old[i].gen == t->gen)
            anchors_put(t, old[i].name, old[i].node);
    free(old);
}

static void anchors_put(struct anchors *t, const char *name, struct yt_node *node)
{
    if ((t->n + 1) * 2 > t->cap)
        anchors_grow(t);
    size_t i = hash_str(name) & (t->cap - 1);
    for (;; i = (i + 1) & (t->cap - 1)) {
        struct anchor_slot *sl = &t->slots[i];
        if (!sl->name || sl->gen != t->gen) {
            *sl = (struct anchor_slot){name, node, t->gen};
            t->n++;
            return;
        }
        if (!strcmp(sl->name, name)) {
            sl->node = node; /* a redefined anchor: later aliases see the new node */
            return;
        }
    }
}

static struct yt_node *anchors_get(const struct anchors *t, const char *name)
{
    if (!t->cap)
        return NULL;
    size_t i = hash_str(name) & (t->cap - 1);
    for (;; i = (i + 1) & (t->cap - 1)) {
        const struct anchor_slot *sl = &t->slots[i];
        if (!sl->name || sl->gen != t->gen)
            return NULL;
        if (!strcmp(sl->name, name))
            return sl->node;
    }
}

/* ---- the loader ---- */

struct loader {
    struct yt_stream *s;
    struct charmap cm;
    struct anchors anchors;
    struct yt_node **stack;
    struct yt_node **keys; /* pending key of each open mapping */
    size_t depth, capstack;
};

static size_t mark_off(struct loader *ld, yaml_mark_t m)
{
    return charmap_byte(&ld->cm, ld->s->text, ld->s->len, m.index);
}

static void set_error(struct yt_stream *s, size_t off, const char *msg)
{
    if (s->error)
        return;
    s->error = true;
    s->error_loc = yt_loc_of(s, off);
    s->error_msg = msg;
}

static const char *copy_str(struct gl_arena *a, const yaml_char_t *p)
{
    return p ? gl_arena_strdup(a, (const char *)p) : NULL;
}

/* Line of the last non-blank byte in [start, end) (the start line when none). */
static uint32_t last_content_line(const struct yt_stream *s, size_t start, size_t end)
{
    size_t e = end;
    while (e > start && (s->text[e - 1] == ' ' || s->text[e - 1] == '\t' ||
                         s->text[e - 1] == '\n' || s->text[e - 1] == '\r'))
        e--;
    return yt_loc_of(s, e > start ? e - 1 : start).line;
}

static struct yt_node *new_node(struct loader *ld, enum yt_kind kind, const yaml_event_t *ev)
{
    struct yt_node *n = gl_arena_alloc(ld->s->arena, sizeof *n);
    n->kind = kind;
    n->start = mark_off(ld, ev->start_mark);
    n->end = mark_off(ld, ev->end_mark);
    if (n->end < n->start)
        n->end = n->start;
    n->loc = yt_loc_of(ld->s, n->start);
    n->last_line = n->loc.line;
    return n;
}

static void attach(struct loader *ld, struct yt_node *n)
{
    struct yt_stream *s = ld->s;
    if (!ld->depth) {
        *GL_APPEND(s->arena, s->docs, s->ndocs, s->capdocs) = n;
        return;
    }
    struct yt_node *top = ld->stack[ld->depth - 1];
    if (top->kind == YT_SEQ) {
        *GL_APPEND(s->arena, top->items, top->nitems, top->capitems) = n;
    } else if (!ld->keys[ld->depth - 1]) {
        ld->keys[ld->depth - 1] = n;
    } else {
        struct yt_pair *p = GL_APPEND(s->arena, top->pairs, top->npairs, top->cappairs);
        p->key = ld->keys[ld->depth - 1];
        p->value = n;
        ld->keys[ld->depth - 1] = NULL;
    }
}

static bool push(struct loader *ld, struct yt_node *n)
{
    if (ld->depth >= YT_MAX_DEPTH) {
        set_error(ld->s, n->start, "expected at most 10000 nested collections");
        return false;
    }
    if (ld->depth == ld->capstack) {
        ld->capstack = ld->capstack ? ld->capstack * 2 : 64;
        ld->stack = xrealloc(ld->stack, ld->capstack * sizeof *ld->stack);
        ld->keys = xrealloc(ld->keys, ld->capstack * sizeof *ld->keys);
    }
    ld->stack[ld->depth] = n;
    ld->keys[ld->depth] = NULL;
    ld->depth++;
    return true;
}

static void pop(struct loader *ld, const yaml_event_t *ev)
{
    if (!ld->depth)
        return;
    struct yt_node *n = ld->stack[--ld->depth];
    size_t end = mark_off(ld, ev->end_mark);
    uint32_t last = n->loc.line;
    size_t count = n->kind == YT_MAP ? n->npairs : n->nitems;
    for (size_t i = 0; i < count; i++) {
        const struct yt_node *c = n->kind == YT_MAP ? n->pairs[i].value : n->items[i];
        if (c->last_line > last)
            last = c->last_line;
        if (n->kind == YT_MAP && n->pairs[i].key->last_line > last)
            last = n->pairs[i].key->last_line;
        if (!n->flow && i == count - 1)
            end = c->end; /* a block collection ends with its last child */
    }
    n->end = end < n->start ? n->start : end;
    if (!count)
        last = last_content_line(ld->s, n->start, n->end);
    n->last_line = last;
    n->complete = true;
}

static void load_scalar(struct loader *ld, const yaml_event_t *ev)
{
    struct yt_node *n = new_node(ld, YT_SCALAR, ev);
    size_t len = ev->data.scalar.length;
    char *v = gl_arena_alloc(ld->s->arena, len + 1);
    memcpy(v, ev->data.scalar.value, len);
    n->value = v;
    n->len = len;
    n->tag = copy_str(ld->s->arena, ev->data.scalar.tag);
    n->anchor = copy_str(ld->s->arena, ev->data.scalar.anchor);
    switch (ev->data.scalar.style) {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: n->style = YT_SINGLE; break;
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: n->style = YT_DOUBLE; break;
    case YAML_LITERAL_SCALAR_STYLE: n->style = YT_LITERAL; break;
    case YAML_FOLDED_SCALAR_STYLE: n->style = YT_FOLDED; break;
    default: n->style = YT_PLAIN; break;
    }
    n->last_line = last_content_line(ld->s, n->start, n->end);
    n->complete = true;
    if (n->anchor)
        anchors_put(&ld->anchors, n->anchor, n);
    attach(ld, n);
}

static bool load_alias(struct loader *ld, const yaml_event_t *ev)
{
    struct yt_node *n = new_node(ld, YT_ALIAS, ev);
    n->target = anchors_get(&ld->anchors, (const char *)ev->data.alias.anchor);
    if (!n->target) {
        set_error(ld->s, n->start, "expected an alias to a defined anchor");
        return false;
    }
    if (!n->target->complete) {
        set_error(ld->s, n->start,
                  "expected an alias to a complete node, not to one that encloses it");
        return false;
    }
    attach(ld, n);
    return true;
}

static bool load_collection(struct loader *ld, const yaml_event_t *ev, enum yt_kind kind)
{
    struct yt_node *n = new_node(ld, kind, ev);
    const yaml_char_t *tag =
        kind == YT_MAP ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
    const yaml_char_t *anchor =
        kind == YT_MAP ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
    n->tag = copy_str(ld->s->arena, tag);
    n->anchor = copy_str(ld->s->arena, anchor);
    n->flow = kind == YT_MAP ? ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                             : ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
    if (n->anchor)
        anchors_put(&ld->anchors, n->anchor, n);
    attach(ld, n);
    return push(ld, n);
}

static void libyaml_error(struct loader *ld, const yaml_parser_t *p)
{
    size_t off;
    if (p->error == YAML_READER_ERROR)
        off = p->problem_offset;
    else if (p->error == YAML_SCANNER_ERROR || p->error == YAML_PARSER_ERROR)
        off = mark_off(ld, p->problem_mark);
    else
        off = 0;
    const char *problem = p->problem ? p->problem : "invalid YAML";
    const char *msg;
    if (p->context)
        msg = gl_arena_printf(ld->s->arena, "%s %s", p->context, problem);
    else
        msg = gl_arena_strdup(ld->s->arena, problem);
    set_error(ld->s, off, msg);
}

int yt_load(struct yt_stream *s, struct gl_arena *a, const char *text, size_t len)
{
    memset(s, 0, sizeof *s);
    s->arena = a;
    s->text = text;
    s->len = len;
    s->alias_budget = YT_ALIAS_BUDGET;
    lines_build(s);

    struct loader ld = {.s = s};
    charmap_build(&ld.cm, text, len);
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        set_error(s, 0, "expected memory for the YAML parser");
        free(ld.cm.at);
        return -1;
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    bool done = false;
    size_t docs_before = 0;
    while (!done && !s->error) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            libyaml_error(&ld, &p);
            break;
        }
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = true; break;
        case YAML_DOCUMENT_START_EVENT:
            ld.anchors.gen++;
            ld.anchors.n = 0;
            docs_before = s->ndocs;
            break;
        case YAML_DOCUMENT_END_EVENT:
            if (s->ndocs == docs_before) /* an empty document */
                *GL_APPEND(s->arena, s->docs, s->ndocs, s->capdocs) = NULL;
            break;
        case YAML_SCALAR_EVENT: load_scalar(&ld, &ev); break;
        case YAML_ALIAS_EVENT: load_alias(&ld, &ev); break;
        case YAML_SEQUENCE_START_EVENT: load_collection(&ld, &ev, YT_SEQ); break;
        case YAML_MAPPING_START_EVENT: load_collection(&ld, &ev, YT_MAP); break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: pop(&ld, &ev); break;
        default: break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    free(ld.cm.at);
    free(ld.anchors.slots);
    free(ld.stack);
    free(ld.keys);
    return s->error ? -1 : 0;
}
