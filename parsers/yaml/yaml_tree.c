/* SPDX-License-Identifier: Apache-2.0 */
/* yaml_tree.c: a safe YAML loader on libyaml events, and queries (see yaml_tree.h). */
#include "parsers/yaml/yaml_tree.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "linter/core/hashmap.h"
#include "linter/core/newline.h"
#include "linter/core/suppress.h"
#include "linter/core/text.h"
#include "parsers/yaml/yaml_heap.h"
#include "parsers/yaml/yaml_prefill.h"
#include "parsers/yaml/yaml_template.h"

/* The most of a template expression a GL903 message shows. */
#define TEMPLATE_SHOWN 60

/* ---- positions ---- */

/* libyaml marks count characters; convert a character index to a byte offset with a
 * checkpoint every CHECK_EVERY characters (input is valid UTF-8 wherever libyaml got). */
#define CHECK_EVERY 256

struct charmap {
    bool ascii; /* no byte >= 0x80: a character index is the byte offset */
    size_t *at; /* byte offset of character k * CHECK_EVERY (NULL when ascii) */
    size_t n;
    size_t last_ch, last_off; /* the last conversion: marks mostly come in order */
};

/* Is text[0..len) all ASCII? (eight bytes at a time) */
static bool all_ascii(const char *text, size_t len)
{
    size_t i = 0;
    uint64_t any = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, text + i, 8);
        any |= w;
    }
    for (; i < len; i++)
        any |= (unsigned char)text[i];
    return !(any & 0x8080808080808080ull);
}

/* `checked`: yt_reader_chars(text, len); a text libyaml's reader takes whole is ASCII
 * when it has as many characters as bytes. */
static void charmap_build(struct charmap *cm, const char *text, size_t len, size_t checked)
{
    size_t cap = len / CHECK_EVERY + 2, chars = 0;
    cm->n = 0;
    cm->last_ch = cm->last_off = 0;
    cm->ascii = checked != (size_t)-1 ? checked == len : all_ascii(text, len);
    cm->at = NULL;
    if (cm->ascii)
        return;
    cm->at = xmalloc(cap * sizeof *cm->at);
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

static size_t charmap_byte(struct charmap *cm, const char *text, size_t len, size_t ch)
{
    if (cm->ascii)
        return ch < len ? ch : len;
    size_t k = ch / CHECK_EVERY;
    if (k >= cm->n)
        return len;
    /* from the last conversion when it lies between the checkpoint and ch */
    bool from_last = cm->last_ch <= ch && cm->last_ch >= k * CHECK_EVERY && cm->last_off < len;
    size_t off = from_last ? cm->last_off : cm->at[k];
    size_t rest = ch - (from_last ? cm->last_ch : k * CHECK_EVERY);
    while (rest && off < len) {
        off++;
        while (off < len && ((unsigned char)text[off] & 0xC0) == 0x80)
            off++;
        rest--;
    }
    if (off >= len)
        return len;
    cm->last_ch = ch;
    cm->last_off = off;
    return off;
}

/* The lines counted (sixteen bytes a step: newline.h), then their starts written in an arena
 * room of that size: no heap buffer, the index its only copy. When the room would take the
 * arena past its limit parse-memory (a text of millions of short lines), it is only charged
 * and the stream has no lines: load() stops before the parse, with a GL900 at the line
 * returned (the first whose start found no room; 0 when the index was built). */
static size_t lines_build(struct yt_stream *s)
{
    size_t n = gl_count_lines(s->text, s->len), fit;
    s->lines = gl_arena_take_table(s->arena, n, sizeof *s->lines, &fit);
    if (!s->lines)
        return fit + 1;
    s->nlines = n;
    size_t k = 0, len = s->len;
    size_t *lines = s->lines;
    lines[k++] = 0;
    for (size_t base = 0; base < len; base += 64)
        for (uint64_t b = gl_nl_window(s->text, len, base); b; b &= b - 1)
            lines[k++] = base + (size_t)__builtin_ctzll(b) + 1;
    return 0;
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
    return (struct gl_loc){(uint32_t)(lo + 1 + s->line0),
                           col > UINT32_MAX ? UINT32_MAX : (uint32_t)col};
}

/* Bytes [b, e) of line `line` (1-based) without its line break. */
static bool line_span(const struct yt_stream *s, uint32_t line, size_t *b, size_t *e)
{
    if (line <= s->line0 || line - s->line0 > s->nlines)
        return false;
    line -= s->line0; /* (the index's line) */
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

/* The slot of name s in a table of cap slots: the seeded hash (hashmap.h), since the low
 * bits of an unseeded FNV-1a can be made to collide by the names an input chooses. */
static size_t hash_str(const char *s, size_t cap)
{
    return gl_hash_slot(gl_hash_bytes(s, strlen(s)), cap);
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
    size_t i = hash_str(name, t->cap);
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
    size_t i = hash_str(name, t->cap);
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
    size_t line_hint;      /* index in s->lines of the last position looked up */
    bool marks_are_locs;   /* libyaml's line and column are gl_loc's (see node_loc) */
    bool exact;            /* yt_load_exact */
    size_t max_depth;      /* the limit nesting-depth, or yt_load_exact's bound (0: none) */
    yt_keep_fn keep;       /* NULL, or yt_load_keeping's choice of the pairs kept */
    bool skip_value;       /* the next node is the value of a pair not kept */
    size_t skipping;       /* > 0: inside such a value's collection, this deep */
    struct yt_node *skipped; /* what an alias to an anchor inside such a value names */
};

/* yt_loc_of for the loader: positions come mostly in order, so the line of the last one
 * and the few after it are tried before a binary search. */
static inline struct gl_loc loc_near(struct loader *ld, size_t off)
{
    const struct yt_stream *s = ld->s;
    size_t h = ld->line_hint;
    if (!s->nlines || off > s->len || h >= s->nlines || s->lines[h] > off)
        goto search;
    for (int k = 0; k < 8 && h + 1 < s->nlines && s->lines[h + 1] <= off; k++)
        h++;
    if (h + 1 < s->nlines && s->lines[h + 1] <= off)
        goto search;
    ld->line_hint = h;
    size_t col = off - s->lines[h] + 1;
    return (struct gl_loc){(uint32_t)(h + 1 + s->line0),
                           col > UINT32_MAX ? UINT32_MAX : (uint32_t)col};
search:;
    struct gl_loc l = yt_loc_of(s, off);
    if (s->nlines)
        ld->line_hint = l.line - 1 - s->line0;
    return l;
}

/* (inline: every node asks two; an ASCII text's answer is the mark itself) */
static inline size_t mark_off(struct loader *ld, yaml_mark_t m)
{
    size_t len = ld->s->len;
    if (ld->cm.ascii)
        return m.index < len ? m.index : len;
    return charmap_byte(&ld->cm, ld->s->text, len, m.index);
}

size_t yt_break_len(const char *t, size_t n)
{
    const unsigned char *u = (const unsigned char *)t;
    if (n && u[0] == '\r')
        return n > 1 && u[1] == '\n' ? 2 : 1;
    if (n && u[0] == '\n')
        return 1;
    if (n > 1 && u[0] == 0xC2 && u[1] == 0x85)
        return 2;
    if (n > 2 && u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xA8 || u[2] == 0xA9))
        return 3;
    return 0;
}

/* Does the text end with a line break? */
static bool ends_with_break(const struct yt_stream *s)
{
    for (size_t k = 1; k <= 3 && k <= s->len; k++)
        if (yt_break_len(s->text + s->len - k, k) == k)
            return true;
    return false;
}

/* A mark libyaml moved to a new line at the end of the input (its column is 0 where the
 * last line holds something). */
static bool mark_past_end(struct loader *ld, yaml_mark_t m)
{
    const struct yt_stream *s = ld->s;
    return m.column == 0 && s->len && mark_off(ld, m) >= s->len && !ends_with_break(s);
}

static void set_error(struct yt_stream *s, size_t off, enum yt_error_kind kind, const char *msg)
{
    if (s->error)
        return;
    s->error = true;
    s->error_loc = yt_loc_of(s, off);
    s->cause.off = off;
    s->cause.kind = kind;
    s->error_msg = msg;
}

/* Stop at a limit: the error names it. */
static void set_limit_error(struct yt_stream *s, size_t off, enum gl_limit_id id)
{
    if (s->error)
        return;
    char msg[256];
    set_error(s, off, YT_ERR_LIMIT,
              gl_arena_strdup(s->arena, gl_limit_message(id, msg, sizeof msg)));
    s->error_fix = GL_LIMIT_FIX;
}

static const char *copy_str(struct gl_arena *a, const yaml_char_t *p)
{
    return p ? gl_arena_strdup(a, (const char *)p) : NULL;
}

/* Line of the last non-blank byte in [start, end) (the start line when none). */
static uint32_t last_content_line(struct loader *ld, size_t start, size_t end)
{
    const struct yt_stream *s = ld->s;
    size_t e = end;
    while (e > start && (s->text[e - 1] == ' ' || s->text[e - 1] == '\t' ||
                         s->text[e - 1] == '\n' || s->text[e - 1] == '\r'))
        e--;
    return loc_near(ld, e > start ? e - 1 : start).line;
}

/* Position of a node's start mark m, at byte offset off. libyaml counts lines at every
 * line break (CR, LF, CR LF, NEL, LS, PS) and columns in characters; in an ASCII text
 * without CR (marks_are_locs) those are gl_loc's lines (by '\n') and byte columns, so the
 * mark is the position, and its line the hint for the next look-up. Not at the end of
 * the input, where libyaml may have moved to a line after the last (mark_past_end). */
static inline struct gl_loc node_loc(struct loader *ld, yaml_mark_t m, size_t off)
{
    if (ld->marks_are_locs && off < ld->s->len) {
        ld->line_hint = m.line;
        return (struct gl_loc){(uint32_t)m.line + 1 + ld->s->line0, (uint32_t)m.column + 1};
    }
    return loc_near(ld, off);
}

__attribute__((always_inline)) static inline struct yt_node *
new_node(struct loader *ld, enum yt_kind kind, const yaml_event_t *ev)
{
    /* (taken, not cleared, then set whole: the same bytes charged as gl_arena_alloc) */
    struct yt_node *n = gl_arena_take(ld->s->arena, sizeof *n);
    size_t start = mark_off(ld, ev->start_mark), end = mark_off(ld, ev->end_mark);
    *n = (struct yt_node){.kind = kind, .start = start, .end = end < start ? start : end};
    n->loc = node_loc(ld, ev->start_mark, n->start);
    n->last_line = n->loc.line;
    n->past_end = ev->start_mark.column == 0 && mark_past_end(ld, ev->start_mark);
    return n;
}

static inline bool is_merge_key(const struct yt_node *k);

__attribute__((always_inline)) static inline void attach(struct loader *ld, struct yt_node *n)
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
        top->merges |= is_merge_key(p->key);
        top->keymask |= p->key->kind == YT_SCALAR ? yt_key_bit(p->key->value, p->key->len)
                                                  : UINT32_MAX; /* (alias, collection) */
        ld->keys[ld->depth - 1] = NULL;
    }
}

static bool push(struct loader *ld, struct yt_node *n)
{
    if (ld->max_depth && ld->depth >= ld->max_depth) {
        if (!ld->exact)
            set_limit_error(ld->s, n->start, GL_LIMIT_NESTING_DEPTH);
        else
            set_error(ld->s, n->start, YT_ERR_LIMIT,
                      gl_arena_printf(ld->s->arena, "expected collections nested at most %zu deep",
                                      ld->max_depth));
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

/* a + b, at most SIZE_MAX (the text a billion-laughs collection names) */
static inline size_t add_sat(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

/* The bytes a reader of node c reads beyond its own text (yt_node.named): for an alias,
 * all of what it names; for a collection, its own count (complete before its parent). */
static inline size_t named_through(const struct yt_node *c)
{
    if (c->kind == YT_ALIAS) {
        const struct yt_node *t = c->target; /* (set: the loader refuses an alias without) */
        return add_sat(t->end - t->start, t->kind == YT_SCALAR ? 0 : t->named);
    }
    return c->kind == YT_SCALAR ? 0 : c->named;
}

static void pop(struct loader *ld, const yaml_event_t *ev)
{
    if (!ld->depth)
        return;
    struct yt_node *n = ld->stack[--ld->depth];
    size_t end = mark_off(ld, ev->end_mark);
    uint32_t last = n->loc.line;
    size_t count = n->kind == YT_MAP ? n->npairs : n->nitems, named = 0;
    for (size_t i = 0; i < count; i++) {
        const struct yt_node *c = n->kind == YT_MAP ? n->pairs[i].value : n->items[i];
        if (c->last_line > last)
            last = c->last_line;
        named = add_sat(named, named_through(c));
        if (n->kind == YT_MAP && n->pairs[i].key->last_line > last)
            last = n->pairs[i].key->last_line;
        if (n->kind == YT_MAP)
            named = add_sat(named, named_through(n->pairs[i].key));
        if (!n->flow && i == count - 1)
            end = c->end; /* a block collection ends with its last child */
    }
    n->end = end < n->start ? n->start : end;
    if (!count)
        last = last_content_line(ld, n->start, n->end);
    n->last_line = last;
    n->named = named;
    n->complete = true;
}

/* Is this scalar a key whose pair yt_load_keeping's choice drops? (then its value is
 * skipped: ld->skip_value) */
static inline bool key_dropped(struct loader *ld, const char *v, size_t len)
{
    bool schema = len == YT_SCHEMA_KEY_LEN && !ld->exact && !memcmp(v, YT_SCHEMA_KEY, len);
    if (__builtin_expect(!ld->keep && !schema, 1) || !ld->depth)
        return false;
    const struct yt_node *top = ld->stack[ld->depth - 1];
    if (top->kind != YT_MAP || ld->keys[ld->depth - 1])
        return false; /* (a value, or a sequence's item) */
    return schema || !ld->keep(ld->depth, v, len);
}

static void load_scalar(struct loader *ld, const yaml_event_t *ev)
{
    size_t len = ev->data.scalar.length;
    const char *v = (const char *)ev->data.scalar.value;
    if (key_dropped(ld, v, len)) {
        ld->skip_value = true;
        return;
    }
    struct yt_node *n = new_node(ld, YT_SCALAR, ev);
    /* (not zeroed first: every byte is written; a NUL, which only an escape of a
       double-quoted scalar makes (libyaml's reader refuses a raw one), is GL_NUL_SHOWN,
       which escape_out counts: the other styles are not searched for one) */
    n->nul = ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE && strlen(v) != len;
    n->value = __builtin_expect(!n->nul, 1) ? gl_arena_strndup(ld->s->arena, v, len)
                                            : gl_arena_nul_shown(ld->s->arena, v, &len);
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
    /* a scalar that ends before the next line starts ends on its first line (new_node
     * left line_hint at it) */
    size_t h = ld->line_hint;
    if (h + 1 >= ld->s->nlines || n->end > ld->s->lines[h + 1])
        n->last_line = last_content_line(ld, n->start, n->end);
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
        set_error(ld->s, n->start, YT_ERR_UNDEFINED_ALIAS,
                  "expected an alias to a defined anchor");
        return false;
    }
    if (!n->target->complete && !ld->exact) {
        set_error(ld->s, n->start, YT_ERR_ENCLOSING_ALIAS,
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

/* An event inside the value of a pair not kept: nothing of it is kept; its anchors name
 * an empty scalar. False when the event is not one (the loader takes it). */
static bool skip_event(struct loader *ld, const yaml_event_t *ev)
{
    if (!ld->skip_value && !ld->skipping)
        return false;
    const yaml_char_t *anchor = NULL;
    switch (ev->type) {
    case YAML_SCALAR_EVENT: anchor = ev->data.scalar.anchor; break;
    case YAML_SEQUENCE_START_EVENT: anchor = ev->data.sequence_start.anchor; break;
    case YAML_MAPPING_START_EVENT: anchor = ev->data.mapping_start.anchor; break;
    default: break;
    }
    if (anchor) {
        if (!ld->skipped) {
            ld->skipped = new_node(ld, YT_SCALAR, ev);
            ld->skipped->value = "";
            ld->skipped->complete = true;
        }
        anchors_put(&ld->anchors, copy_str(ld->s->arena, anchor), ld->skipped);
    }
    if (ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT)
        ld->skipping++;
    else if (ev->type == YAML_SEQUENCE_END_EVENT || ev->type == YAML_MAPPING_END_EVENT)
        ld->skipping--;
    ld->skip_value = false;
    return true;
}

static void libyaml_error(struct loader *ld, const yaml_parser_t *p)
{
    size_t off = 0;
    enum yt_error_kind kind = YT_ERR_MEMORY;
    if (p->error == YAML_READER_ERROR) {
        off = p->problem_offset;
        kind = YT_ERR_READER;
    } else if (p->error == YAML_SCANNER_ERROR || p->error == YAML_PARSER_ERROR) {
        off = mark_off(ld, p->problem_mark);
        kind = YT_ERR_SYNTAX;
    }
    const char *problem = p->problem ? p->problem : "invalid YAML";
    const char *msg;
    if (p->context)
        msg = gl_arena_printf(ld->s->arena, "%s %s", p->context, problem);
    else
        msg = gl_arena_strdup(ld->s->arena, problem);
    set_error(ld->s, off, kind, msg);
    ld->s->cause.problem = p->problem; /* libyaml's static strings */
    ld->s->cause.context = p->context;
    ld->s->cause.past_end = kind == YT_ERR_SYNTAX && mark_past_end(ld, p->problem_mark);
}

/* Keep the key each still-open mapping read without its value (yt_pending_key). */
static void keep_pending(struct loader *ld)
{
    struct yt_stream *s = ld->s;
    s->npending = 0;
    size_t cap = 0;
    for (size_t d = 0; d < ld->depth; d++)
        if (ld->keys[d])
            *GL_APPEND(s->arena, s->pending, s->npending, cap) =
                (struct yt_pending){ld->stack[d], ld->keys[d]};
}

/* Parse text[0..len) (`chars`: yt_reader_chars of it) into ld->s's documents. Returns
 * libyaml's error kind (YAML_NO_ERROR when the stream ended cleanly); the first error is
 * recorded in ld->s. */
static yaml_error_type_t parse_stream(struct loader *ld, const char *text, size_t len,
                                      size_t chars)
{
    struct yt_stream *s = ld->s;
    yaml_parser_t p;
    yt_heap_begin(); /* libyaml's token strings from the thread's pool (yaml_heap.h) */
    if (!yaml_parser_initialize(&p)) {
        yt_heap_end();
        set_error(s, 0, YT_ERR_MEMORY, "expected memory for the YAML parser");
        return YAML_MEMORY_ERROR;
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    yt_prefill(&p, text, len, chars); /* the text whole, when libyaml's reader takes it all */
    yaml_error_type_t kind = YAML_NO_ERROR;
    bool done = false;
    size_t docs_before = 0;
    while (!done && !s->error) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            kind = p.error;
            libyaml_error(ld, &p);
            break;
        }
        switch (skip_event(ld, &ev) ? YAML_NO_EVENT : ev.type) {
        case YAML_STREAM_END_EVENT: done = true; break;
        case YAML_DOCUMENT_START_EVENT:
            ld->anchors.gen++;
            ld->anchors.n = 0;
            docs_before = s->ndocs;
            if (ld->exact)
                *GL_APPEND(s->arena, s->doc_starts, s->ndoc_starts, s->capdoc_starts) =
                    mark_off(ld, ev.start_mark);
            break;
        case YAML_DOCUMENT_END_EVENT:
            if (s->ndocs == docs_before) /* an empty document */
                *GL_APPEND(s->arena, s->docs, s->ndocs, s->capdocs) = NULL;
            s->ndoc_ends++;
            break;
        case YAML_SCALAR_EVENT: load_scalar(ld, &ev); break;
        case YAML_ALIAS_EVENT: load_alias(ld, &ev); break;
        case YAML_SEQUENCE_START_EVENT: load_collection(ld, &ev, YT_SEQ); break;
        case YAML_MAPPING_START_EVENT: load_collection(ld, &ev, YT_MAP); break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: pop(ld, &ev); break;
        default: break;
        }
        if (gl_arena_over(s->arena))
            set_limit_error(s, ev.start_mark.index, GL_LIMIT_PARSE_MEMORY);
        yt_heap_event_delete(&ev);
    }
    if (s->error && kind == YAML_NO_ERROR)
        kind = YAML_COMPOSER_ERROR; /* ours: an alias bomb, too deep, ... */
    if (ld->exact)
        keep_pending(ld);
    yaml_parser_delete(&p);
    yt_heap_end(); /* (all of libyaml's memory freed: the pool's blocks go back) */
    return kind;
}

/* The error of `from` in `to` (error_fix is left as it is). */
static void copy_error(struct yt_stream *to, const struct yt_stream *from)
{
    to->error = from->error;
    to->error_loc = from->error_loc;
    to->error_msg = from->error_msg;
    to->cause = from->cause;
}

/* libyaml checks the characters of a whole input chunk before it scans any of it, so
 * one bad byte (a NUL, invalid UTF-8) deep in a file leaves no document at all. The
 * lines before the bad one are parsed again on their own: the error stays where it was,
 * and the documents before it can still be recognised and linted (the last one stays
 * incomplete: input types lint only complete documents). */
static void parse_before_bad_line(struct loader *ld, const char *text, size_t cut)
{
    struct yt_stream *s = ld->s;
    struct yt_stream first = *s;
    s->error = false;
    s->ndocs = s->ndoc_ends = 0;
    s->alias_used = 0;
    s->alias_exceeded = false;
    s->spent = NULL;
    ld->depth = ld->skipping = 0;
    ld->skip_value = false;
    ld->anchors.n = 0;
    parse_stream(ld, text, cut, yt_reader_chars(text, cut));
    /* the document the bad line belongs to is cut short, whatever libyaml closed */
    if (s->ndocs && s->docs[s->ndocs - 1])
        s->docs[s->ndocs - 1]->complete = false;
    /* an error before the bad line (libyaml never reached it) is the first one */
    if (!s->error || s->error_loc.line >= first.error_loc.line)
        copy_error(s, &first);
}

static int load(struct yt_stream *s, struct gl_arena *a, const char *text, size_t len,
                bool exact, size_t max_depth, yt_keep_fn keep, uint32_t line0)
{
    memset(s, 0, sizeof *s);
    s->line0 = line0;
    s->arena = a;
    s->text = text;
    s->len = len;
    s->alias_budget = gl_limit(GL_LIMIT_YAML_ALIAS_NODES);
    s->gen = 1; /* (new nodes: none is charged) */
    size_t stop = lines_build(s);
    if (stop) { /* (its line index alone took the arena past parse-memory) */
        set_limit_error(s, gl_line_start_of(text, len, stop - 1), GL_LIMIT_PARSE_MEMORY);
        s->error_loc = (struct gl_loc){(uint32_t)stop + s->line0, 1}; /* (no index) */
        return -1;
    }

    struct loader ld = {.s = s, .exact = exact, .keep = keep};
    ld.max_depth = exact ? max_depth : (size_t)gl_limit(GL_LIMIT_NESTING_DEPTH);
    size_t chars = yt_reader_chars(text, len);
    charmap_build(&ld.cm, text, len, chars);
    ld.marks_are_locs = ld.cm.ascii && len <= UINT32_MAX && !memchr(text, '\r', len);
    yaml_error_type_t kind = parse_stream(&ld, text, len, chars);
    size_t cut = s->error ? s->lines[s->error_loc.line - 1 - s->line0] : 0;
    if (kind == YAML_READER_ERROR && cut > 0 && !exact)
        parse_before_bad_line(&ld, text, cut);
    free(ld.cm.at);
    free(ld.anchors.slots);
    free(ld.stack);
    free(ld.keys);
    return s->error ? -1 : 0;
}

static bool sniff_adopt(struct yt_stream *s, struct gl_arena *a, const char *text,
                        size_t len);

int yt_load(struct yt_stream *s, struct gl_arena *a, const char *text, size_t len)
{
    if (sniff_adopt(s, a, text, len))
        return s->error ? -1 : 0;
    return load(s, a, text, len, false, 0, NULL, 0);
}

int yt_load_doc(struct yt_stream *s, struct gl_doc *doc, const char *text, size_t len)
{
    int rc = yt_load(s, &doc->arena, text, len);
    s->doc = doc;
    return rc;
}

int yt_load_keeping(struct yt_stream *s, struct gl_doc *doc, const char *text, size_t len,
                    yt_keep_fn keep)
{
    int rc = load(s, &doc->arena, text, len, false, 0, keep, 0);
    s->doc = doc;
    return rc;
}

int yt_load_at(struct yt_stream *s, struct gl_doc *doc, const char *text, size_t len,
               uint32_t line)
{
    int rc = load(s, &doc->arena, text, len, false, 0, NULL, line ? line - 1 : 0);
    s->doc = doc;
    s->alias_used = doc->yaml_alias_used; /* (what the file's other texts spent counts) */
    s->alias_shared = &doc->yaml_alias_used;
    return rc;
}

int yt_load_exact(struct yt_stream *s, struct gl_arena *a, const char *text, size_t len,
                  size_t max_depth)
{
    return load(s, a, text, len, true, max_depth, NULL, 0);
}

struct yt_node *yt_pending_key(const struct yt_stream *s, const struct yt_node *map)
{
    for (size_t i = 0; i < s->npending; i++)
        if (s->pending[i].map == map)
            return s->pending[i].key;
    return NULL;
}

bool yt_walk(const struct yt_stream *s, struct yt_node *n,
             bool (*visit)(struct yt_node *n, void *ctx), void *ctx)
{
    if (!n)
        return true;
    struct yt_node **stack = xmalloc(sizeof *stack);
    size_t depth = 0, cap = 1;
    bool go = true;
    stack[depth++] = n;
    while (go && depth) {
        n = stack[--depth];
        go = visit(n, ctx);
        size_t count = n->kind == YT_MAP ? n->npairs * 2 : n->kind == YT_SEQ ? n->nitems : 0;
        struct yt_node *pending = n->complete ? NULL : yt_pending_key(s, n);
        if (depth + count + 1 > cap) {
            while (depth + count + 1 > cap)
                cap *= 2;
            stack = xrealloc(stack, cap * sizeof *stack);
        }
        /* pushed last first, so that they come off in document order */
        if (pending)
            stack[depth++] = pending;
        for (size_t i = count; i-- > 0;)
            stack[depth++] = n->kind == YT_SEQ ? n->items[i]
                             : i % 2             ? n->pairs[i / 2].value
                                                 : n->pairs[i / 2].key;
    }
    free(stack);
    return go;
}

/* ---- queries ---- */

/* The alias budget spent (s->alias_exceeded): doc's GL900, unless it has one. */
static void alias_report(struct gl_doc *doc, const struct yt_stream *s)
{
    if (doc->error.set)
        return;
    doc->error.set = true;
    doc->error.loc = s->alias_loc;
    char msg[256];
    doc->error.message = gl_arena_strdup(
        &doc->arena, gl_limit_message(GL_LIMIT_YAML_ALIAS_NODES, msg, sizeof msg));
    doc->error.fix = "an alias bomb? Expand fewer aliases, or raise the limit if the "
                     "input is trusted";
}

bool yt_charge(struct yt_stream *s, uint64_t n, struct gl_loc at)
{
    if (s->alias_exceeded)
        return false;
    s->alias_used += n;
    if (s->alias_shared)
        *s->alias_shared = s->alias_used;
    if (s->alias_used > s->alias_budget) {
        s->alias_exceeded = true;
        s->alias_loc = at;
        if (s->doc && !s->error) /* (a load error: yt_report weighs it, templates too) */
            alias_report(s->doc, s);
        return false;
    }
    return true;
}

/* What following alias n to t costs: one per YT_ALIAS_UNIT_BYTES of the text t spans
 * (what a reader of t reads or copies: a scalar of a megabyte named by 5,000 aliases is
 * 5 GB of reading, which one unit an alias let through), at every follow for a scalar
 * (a short one costs nothing); for a collection, a unit at every follow (aliases of
 * aliases: the billion laughs) and its text at the first follow of each alias only, with
 * the text its own aliases name (yt_node.named: 5,000 aliases to `&f {<<: *e}` read an
 * 800 KB `e` 5,000 times, 15 s and 3.9 GB as a Kubernetes env, for a unit each). A
 * lookup in a mapping that merges `<<: *common` follows the alias once a key: charging
 * the merged text each time made 120 services of a compose file that merge a 4 KB
 * anchor an alias bomb. */
static inline uint64_t alias_cost(const struct yt_stream *s, const struct yt_node *n,
                                  const struct yt_node *t)
{
    if (t->kind == YT_SCALAR)
        return (t->end - t->start) / YT_ALIAS_UNIT_BYTES;
    /* and the text the aliases inside it name (each of those a node followed once: paid
     * for at its first follow only, but read again through every alias to t) */
    return 1 + (n->charged == s->gen ? 0
                                     : add_sat(t->end - t->start, t->named) / YT_ALIAS_UNIT_BYTES);
}

/* The scalar an alias to a scalar gives once the budget is spent: empty, at the alias
 * that spent it (one a stream). */
static struct yt_node *spent_scalar(struct yt_stream *s)
{
    if (!s->spent) {
        s->spent = gl_arena_alloc(s->arena, sizeof *s->spent);
        *s->spent = (struct yt_node){.kind = YT_SCALAR, .loc = s->alias_loc, .value = "",
                                     .last_line = s->alias_loc.line, .complete = true};
    }
    return s->spent;
}

struct yt_node *yt_deref_alias(struct yt_stream *s, struct yt_node *n)
{
    struct yt_node *t = n->target;
    if (!t)
        return NULL;
    uint64_t cost = alias_cost(s, n, t);
    if (!cost || yt_charge(s, cost, n->loc)) {
        n->charged = s->gen;
        return t; /* never an alias itself: aliases carry no anchors */
    }
    /* past the budget, an alias to a scalar still gives a scalar (so that one read twice
     * keeps its `kind` whatever was spent in between), an empty one */
    return t->kind == YT_SCALAR ? spent_scalar(s) : NULL;
}

bool yt_is_null(const struct yt_node *n)
{
    if (!n)
        return true;
    if (n->kind != YT_SCALAR || n->style != YT_PLAIN)
        return false;
    return n->len == 0 || yt_scalar_is(n, "~") || yt_scalar_is(n, "null") ||
           yt_scalar_is(n, "Null") || yt_scalar_is(n, "NULL");
}

bool yt_scalar_is(const struct yt_node *n, const char *str)
{
    return n && n->kind == YT_SCALAR && n->len == strlen(str) && !memcmp(n->value, str, n->len);
}

bool yt_is_true(const struct yt_node *n)
{
    if (!yt_is_scalar(n))
        return false;
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On",
                                      "ON"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (yt_scalar_is(n, yes[i]))
            return true;
    return false;
}

static inline bool is_merge_key(const struct yt_node *k)
{
    return k && k->kind == YT_SCALAR &&
           ((k->style == YT_PLAIN && k->len == 2 && k->value[0] == '<' && k->value[1] == '<') ||
            (k->tag && !strcmp(k->tag, "tag:yaml.org,2002:merge")));
}

/* The scalar a key is (an alias to a scalar followed), or NULL: a collection as a key is
 * never a name looked up (key_is). */
static const struct yt_node *scalar_key(const struct yt_node *k)
{
    if (k->kind == YT_ALIAS)
        k = k->target;
    return k && k->kind == YT_SCALAR ? k : NULL;
}

/* The hash of a big mapping's own keys (yt_node.index): open addressing, each slot 1 + a
 * pair's index (0: empty), the last of equal keys only (the one a lookup answers); keys that
 * are no scalar are left out (no lookup finds them). It also lists the pairs whose key is
 * a merge key, so that merge_order need not scan every pair for them. In the arena, once
 * per mapping: 8 bytes or less a pair. */
struct yt_keyindex {
    size_t cap;           /* a power of two, at least twice the pairs */
    const uint32_t *mpairs; /* the merge pairs' indexes, in order */
    size_t nmpairs;
    uint32_t slot[];
};

/* Is a mapping looked up through its key index (see YT_KEY_INDEX_MIN)? */
static inline bool big_map(const struct yt_node *map)
{
    return map->npairs >= YT_KEY_INDEX_MIN && map->complete;
}

static const struct yt_keyindex *key_index(struct yt_stream *s, struct yt_node *map)
{
    if (map->index)
        return map->index;
    size_t cap = 2 * YT_KEY_INDEX_MIN, nm = 0;
    while (cap < 2 * map->npairs)
        cap *= 2;
    struct yt_keyindex *ix = gl_arena_alloc(s->arena, sizeof *ix + cap * sizeof *ix->slot);
    ix->cap = cap;
    for (size_t i = 0; i < map->npairs; i++) {
        const struct yt_node *k = scalar_key(map->pairs[i].key);
        nm += is_merge_key(map->pairs[i].key);
        if (!k)
            continue;
        size_t j = gl_hash_slot(gl_hash_bytes(k->value, k->len), cap);
        for (; ix->slot[j]; j = (j + 1) & (cap - 1)) {
            const struct yt_node *o = scalar_key(map->pairs[ix->slot[j] - 1].key);
            if (o->len == k->len && !memcmp(o->value, k->value, k->len))
                break; /* a later equal key: it takes the slot */
        }
        ix->slot[j] = (uint32_t)i + 1;
    }
    if (nm) {
        uint32_t *mp = gl_arena_alloc(s->arena, nm * sizeof *mp);
        for (size_t i = 0; i < map->npairs; i++)
            if (is_merge_key(map->pairs[i].key))
                mp[ix->nmpairs++] = (uint32_t)i;
        ix->mpairs = mp;
    }
    return map->index = ix;
}

#define MERGE_VISITS 256

/* The mappings whose pairs `map` holds, in lookup order: map itself, then what it
 * merges (depth first), the first MERGE_VISITS of them; returns the count. A mapping's
 * sources are taken in order, as many as may still be visited (the first ones: of two
 * that give a key, the first wins), and entries the stack then has no room for are the
 * last in that order, dropped from its bottom: `<<: [*a1, ..., *a300]` kept the last 256
 * and followed every alias at each lookup. */
static size_t merge_order(struct yt_stream *s, struct yt_node *map, struct yt_node **out)
{
    struct yt_node *todo[MERGE_VISITS], *src[MERGE_VISITS];
    size_t ntodo = 0, nout = 0;
    todo[ntodo++] = map;
    while (ntodo && nout < MERGE_VISITS) {
        struct yt_node *m = todo[--ntodo];
        out[nout++] = m;
        size_t keep = MERGE_VISITS - nout, nsrc = 0;
        /* (a big mapping's key index lists its merge pairs: no other pair is read) */
        const struct yt_keyindex *ix = big_map(m) ? key_index(s, m) : NULL;
        size_t np = ix ? ix->nmpairs : m->npairs;
        for (size_t r = 0; r < np && nsrc < keep; r++) {
            size_t i = ix ? ix->mpairs[r] : r;
            if (!ix && !is_merge_key(m->pairs[i].key))
                continue;
            struct yt_node *v = yt_deref(s, m->pairs[i].value);
            if (yt_is_map(v))
                src[nsrc++] = v;
            for (size_t j = 0; yt_is_seq(v) && j < v->nitems && nsrc < keep; j++) {
                struct yt_node *one = yt_deref(s, v->items[j]);
                if (yt_is_map(one))
                    src[nsrc++] = one;
            }
        }
        if (ntodo + nsrc > keep) {
            size_t drop = ntodo + nsrc - keep;
            memmove(todo, todo + drop, (ntodo - drop) * sizeof *todo);
            ntodo -= drop;
        }
        while (nsrc) /* pushed last first, so that the first is visited first */
            todo[ntodo++] = src[--nsrc];
    }
    return nout;
}

/* (the loader noted it as it added the pairs) */
static bool has_merge(const struct yt_node *map) { return map->merges; }

/* Is node k (an alias followed) the scalar key[0..klen)? */
static inline bool key_is(struct yt_stream *s, struct yt_node *k, const char *key, size_t klen)
{
    if (k->kind == YT_ALIAS)
        k = yt_deref(s, k);
    return k && k->kind == YT_SCALAR && k->len == klen && (!klen || k->value[0] == key[0]) &&
           !memcmp(k->value, key, klen);
}

/* What yt_get_n answers for pair p (NULL: none): its value, dereferenced, and its key. */
static struct yt_node *found(struct yt_stream *s, const struct yt_pair *p,
                             struct yt_node **key_out)
{
    if (!p)
        return NULL;
    if (key_out)
        *key_out = p->key;
    return yt_deref(s, p->value);
}

/* The first pair of key[0..klen) in a big mapping, through its key index, or NULL. */
static const struct yt_pair *indexed_pair(struct yt_stream *s, struct yt_node *map,
                                          const char *key, size_t klen)
{
    const struct yt_keyindex *ix = key_index(s, map);
    for (size_t j = gl_hash_slot(gl_hash_bytes(key, klen), ix->cap); ix->slot[j];
         j = (j + 1) & (ix->cap - 1)) {
        const struct yt_pair *p = &map->pairs[ix->slot[j] - 1];
        const struct yt_node *k = scalar_key(p->key);
        if (k->len == klen && !memcmp(k->value, key, klen))
            return p;
    }
    return NULL;
}

/* yt_get_n in a mapping that merges none: its own pairs, none of them a merge key (the
 * loader sets `merges` at the first), in a loop of its own (no merge order kept); through
 * its key index when it is big. */
static struct yt_node *get_own(struct yt_stream *s, struct yt_node *map, const char *key,
                               size_t klen, struct yt_node **key_out)
{
    if (big_map(map))
        return found(s, indexed_pair(s, map, key, klen), key_out);
    for (struct yt_pair *p = map->pairs + map->npairs; p-- > map->pairs;) /* the last */
        if (key_is(s, p->key, key, klen))
            return found(s, p, key_out);
    return NULL;
}

/* yt_get_n in a mapping that merges others: its pairs, then theirs, each big one through
 * its key index (out of line: its merge order takes a stack array that the common lookup
 * need not set up) */
__attribute__((noinline)) static struct yt_node *get_merged(struct yt_stream *s,
                                                            struct yt_node *map,
                                                            const char *key, size_t klen,
                                                            struct yt_node **key_out)
{
    struct yt_node *order[MERGE_VISITS];
    size_t n = merge_order(s, map, order);
    for (size_t m = 0; m < n; m++) {
        if (big_map(order[m])) {
            const struct yt_pair *p = indexed_pair(s, order[m], key, klen);
            if (!p)
                continue;
            if (!is_merge_key(p->key))
                return found(s, p, key_out);
            /* (the last equal key is a merge key: the scan below finds the one before) */
        }
        for (size_t i = order[m]->npairs; i-- > 0;) { /* (the last of equal keys) */
            struct yt_pair *p = &order[m]->pairs[i];
            /* (a merge key `<<` is never a key looked up, even when asked for) */
            if (key_is(s, p->key, key, klen) && !is_merge_key(p->key))
                return found(s, p, key_out);
        }
    }
    return NULL;
}

struct yt_node *yt_get_n(struct yt_stream *s, struct yt_node *map, const char *key,
                         size_t klen, struct yt_node **key_out)
{
    map = yt_deref(s, map);
    if (!yt_is_map(map))
        return NULL;
    if (has_merge(map))
        return get_merged(s, map, key, klen, key_out);
    /* no key of the mapping has this one's length and first byte (one with an alias
     * among its keys has every bit set, and follows the alias in get_own as before) */
    return map->keymask & yt_key_bit(key, klen) ? get_own(s, map, key, klen, key_out) : NULL;
}

/* Set of key strings already present (for yt_pairs with merges). */
struct keyset {
    const char **v;
    size_t cap;
};

static bool keyset_add(struct keyset *ks, const char *k)
{
    size_t i = hash_str(k, ks->cap);
    for (; ks->v[i]; i = (i + 1) & (ks->cap - 1))
        if (!strcmp(ks->v[i], k))
            return false;
    ks->v[i] = k;
    return true;
}

size_t yt_pairs(struct yt_stream *s, struct yt_node *map, struct yt_pair **out)
{
    *out = NULL;
    map = yt_deref(s, map);
    if (!yt_is_map(map))
        return 0;
    if (!has_merge(map)) {
        /* no merge key and no alias among the pairs: they are the answer as they are (no
           copy: a caller that asks for the pairs of one big mapping once per entry, as a
           lookup by name does, must not take memory for each ask) */
        size_t i = 0;
        while (i < map->npairs && (!map->pairs[i].key || map->pairs[i].key->kind != YT_ALIAS) &&
               (!map->pairs[i].value || map->pairs[i].value->kind != YT_ALIAS))
            i++;
        if (i == map->npairs) {
            *out = map->pairs;
            return map->npairs;
        }
    }
    struct yt_node *order[MERGE_VISITS];
    size_t nm = has_merge(map) ? merge_order(s, map, order) : (order[0] = map, 1);
    size_t total = 0;
    for (size_t m = 0; m < nm; m++)
        total += order[m]->npairs;
    struct yt_pair *res = gl_arena_alloc(s->arena, (total ? total : 1) * sizeof *res);
    struct keyset ks = {NULL, 16};
    if (nm > 1) {
        while (ks.cap < total * 2)
            ks.cap *= 2;
        ks.v = xcalloc(ks.cap, sizeof *ks.v);
    }
    size_t n = 0;
    for (size_t m = 0; m < nm; m++) {
        /* a mapping's pairs from its last (of a key given twice, the last stays, as
           yt_get answers), then put back in their order */
        size_t from = n;
        for (size_t i = order[m]->npairs; i-- > 0;) {
            struct yt_pair p = order[m]->pairs[i];
            if (is_merge_key(p.key))
                continue;
            struct yt_node *k = p.key->kind == YT_ALIAS ? yt_deref(s, p.key) : p.key;
            if (nm > 1 && yt_is_scalar(k) && !keyset_add(&ks, k->value))
                continue; /* shadowed by an earlier mapping's key, or a later equal one */
            p.value = yt_deref(s, p.value);
            res[n++] = p;
        }
        for (size_t i = from, j = n; i + 1 < j; i++, j--) {
            struct yt_pair t = res[i];
            res[i] = res[j - 1];
            res[j - 1] = t;
        }
    }
    free(ks.v);
    *out = res;
    return n;
}

/* The last text sniffed, kept loaded: the input types that sniff YAML (Kubernetes,
 * compose, CI) ask about the same file in turn, and each load costs more than the
 * judging. Kept only while small (SNIFF_KEEP), so a large input is never held twice. A
 * judge gets a fresh copy of the stream as it was loaded (an alias budget one judge
 * spends does not reach the next, nor what it paid for: each copy has a generation of its
 * own, yt_stream.gen); the blanked text's load is made the first time it is
 * needed, in the same arena after the first load, as without the memo.
 * The parser of the type that said yes then loads the same text (yt_load): it is handed
 * the memo's tree instead, with its arena's blocks (sniff_adopt), so a file sniffed is
 * loaded once. One memo a thread: inputs are linted on several threads, each sniffing and
 * parsing its own (yt_sniff_thread_end frees a thread's). */
#define SNIFF_KEEP (1u << 20)
static _Thread_local struct {
    bool valid, blank_tried, has_blank;
    struct gl_arena a;
    char *text; /* a copy of the text, to know it again (heap: the arena's use is as
                   before), made when the memo is kept */
    const char *at; /* where the text was when it was sniffed */
    size_t len;
    size_t loaded;  /* bytes the load took of the arena (judges may take more) */
    bool load_over; /* the load reached the arena's limit */
    struct yt_stream s, blank;
    uint16_t gen;   /* the last generation a copy of s or blank was given */
} sniff_memo;

/* A copy of a stream of the memo (its nodes shared), with a generation of its own: aliases
 * another copy paid for are paid for again. (A text is judged a handful of times: the
 * generations never come round to one given before.) */
static struct yt_stream memo_copy(const struct yt_stream *s)
{
    struct yt_stream c = *s;
    if (sniff_memo.gen == UINT16_MAX)
        sniff_memo.gen = 1;
    c.gen = ++sniff_memo.gen;
    return c;
}

static void sniff_forget(void)
{
    if (sniff_memo.valid) {
        gl_arena_free(&sniff_memo.a);
        free(sniff_memo.text);
    }
    sniff_memo.valid = false;
}

/* The memo's load of text[0..len) into a, when it is that load as a fresh one would make
 * it: the same bytes where they were sniffed, no blanked text loaded beside it, no limit
 * reached on the way (a's limit taking what a holds already into account). */
void yt_sniff_thread_end(void) { sniff_forget(); }

static bool sniff_adopt(struct yt_stream *s, struct gl_arena *a, const char *text, size_t len)
{
    bool same = sniff_memo.valid && sniff_memo.at == text && sniff_memo.len == len &&
                !sniff_memo.blank_tried && !sniff_memo.load_over &&
                (!a->limit || a->total + sniff_memo.loaded <= a->limit) &&
                !memcmp(sniff_memo.text, text, len);
    if (same) {
        *s = memo_copy(&sniff_memo.s);
        s->arena = a;
        gl_arena_adopt(a, &sniff_memo.a, sniff_memo.loaded);
        sniff_forget();
    }
    return same;
}

bool yt_sniff(const char *data, size_t len, bool (*judge)(struct yt_stream *s))
{
    if (!sniff_memo.valid || sniff_memo.len != len || memcmp(sniff_memo.text, data, len)) {
        sniff_forget();
        gl_arena_init(&sniff_memo.a);
        sniff_memo.a.limit = (size_t)gl_limit(GL_LIMIT_PARSE_MEMORY);
        sniff_memo.valid = true;
        sniff_memo.blank_tried = sniff_memo.has_blank = false;
        sniff_memo.len = len;
        sniff_memo.text = NULL; /* (copied below, once the memo is known to be kept) */
        load(&sniff_memo.s, &sniff_memo.a, data, len, false, 0, NULL, 0);
        sniff_memo.gen = sniff_memo.s.gen;
        sniff_memo.loaded = sniff_memo.a.total;
        sniff_memo.load_over = sniff_memo.a.over;
    }
    /* the same bytes may stand elsewhere now (another file of the same content): the
     * stream reads them where they are */
    sniff_memo.at = data;
    sniff_memo.s.text = data;
    struct yt_stream s = memo_copy(&sniff_memo.s);
    bool yes = judge(&s);
    /* a template is recognised by what it says once its expressions are blanked out */
    if (!yes && s.error) {
        if (!sniff_memo.blank_tried) {
            sniff_memo.blank_tried = true;
            const char *blanked = yt_template_blank(&sniff_memo.a, data, len);
            if (blanked) {
                load(&sniff_memo.blank, &sniff_memo.a, blanked, len, false, 0, NULL, 0);
                sniff_memo.has_blank = true;
            }
        }
        if (sniff_memo.has_blank) {
            s = memo_copy(&sniff_memo.blank);
            yes = judge(&s);
        }
    }
    if (sniff_memo.a.total > SNIFF_KEEP) {
        sniff_forget();
    } else if (!sniff_memo.text) { /* kept: its text copied to know it again (a large
                                      text, never kept, is not held twice while loaded) */
        sniff_memo.text = xmalloc(len ? len : 1);
        memcpy(sniff_memo.text, data, len);
    }
    return yes;
}

struct yt_node *yt_item(struct yt_stream *s, struct yt_node *seq, size_t i)
{
    if (!yt_is_seq(seq) || i >= seq->nitems)
        return NULL;
    return yt_deref(s, seq->items[i]);
}

/* ---- scalar positions ---- */

static size_t utf8_len(unsigned long cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* Bytes of the value produced by the double-quoted escape at src[i] == '\\'; *used gets
 * the source bytes it takes. */
static size_t escape_out(const char *src, size_t i, size_t end, size_t *used)
{
    if (i + 1 >= end) {
        *used = 1;
        return 0;
    }
    char c = src[i + 1];
    size_t digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    if (digits) {
        unsigned long cp = 0;
        size_t k = 0;
        for (; k < digits && i + 2 + k < end && gl_hex_value(src[i + 2 + k]) >= 0; k++)
            cp = cp * 16 + (unsigned long)gl_hex_value(src[i + 2 + k]);
        *used = 2 + k;
        return cp ? utf8_len(cp) : GL_NUL_SHOWN_LEN; /* (a NUL: load_scalar) */
    }
    *used = 2;
    if (c == '0')
        return GL_NUL_SHOWN_LEN;
    if (c == 'N' || c == '_')
        return 2;
    if (c == 'L' || c == 'P')
        return 3;
    return 1;
}

/* Literal block: value line k is source line (header + 1 + k); its content ends where
 * the source line ends, so its column is the source length minus the value length. */
static void literal_map(const struct yt_stream *s, const struct yt_node *n, struct gl_srcmap *m)
{
    size_t o = 0;
    uint32_t line = n->loc.line + 1;
    while (o < n->len) {
        const char *nl = memchr(n->value + o, '\n', n->len - o);
        size_t l = nl ? (size_t)(nl - (n->value + o)) : n->len - o;
        size_t b, e;
        if (!line_span(s, line, &b, &e))
            break;
        size_t src_len = e - b;
        gl_srcmap_add(m, o, line, src_len >= l ? (uint32_t)(src_len - l + 1) : 1);
        o += l + 1;
        line++;
    }
}

/* Folded block: content lines joined by one separator; indentation is the smallest of
 * the non-blank lines. */
static void folded_map(const struct yt_stream *s, const struct yt_node *n, struct gl_srcmap *m)
{
    size_t indent = SIZE_MAX;
    for (uint32_t line = n->loc.line + 1; line <= n->last_line; line++) {
        size_t b, e, k = 0;
        if (!line_span(s, line, &b, &e))
            break;
        while (b + k < e && s->text[b + k] == ' ')
            k++;
        if (b + k < e && k < indent)
            indent = k;
    }
    if (indent == SIZE_MAX)
        return;
    size_t p = 0;
    for (uint32_t line = n->loc.line + 1; line <= n->last_line && p < n->len; line++) {
        size_t b, e;
        if (!line_span(s, line, &b, &e))
            break;
        if (e - b <= indent) { /* blank line: a kept line break */
            if (n->value[p] == '\n')
                p++;
            continue;
        }
        gl_srcmap_add(m, p, line, (uint32_t)indent + 1);
        p += e - b - indent;
        if (p < n->len && (n->value[p] == ' ' || n->value[p] == '\n'))
            p++;
    }
}

/* Flow scalars (plain, quoted), one source line at a time. */
static void flow_map(const struct yt_stream *s, const struct yt_node *n, struct gl_srcmap *m)
{
    bool quoted = n->style == YT_SINGLE || n->style == YT_DOUBLE;
    size_t sp = n->start + (quoted ? 1 : 0);
    size_t end = n->end > n->start && quoted ? n->end - 1 : n->end;
    if (end > s->len)
        end = s->len;
    size_t vp = 0;
    bool first = true;
    while (sp < end && vp <= n->len) {
        const char *nl = memchr(s->text + sp, '\n', end - sp);
        size_t le = nl ? (size_t)(nl - s->text) : end;
        size_t b = sp;
        if (!first)
            while (b < le && (s->text[b] == ' ' || s->text[b] == '\t'))
                b++;
        size_t e = le;
        if (nl) /* a folded line loses its trailing blanks */
            while (e > b && (s->text[e - 1] == ' ' || s->text[e - 1] == '\t' ||
                             s->text[e - 1] == '\r'))
                e--;
        if (e == b && !first) {
            if (vp < n->len && n->value[vp] == '\n')
                vp++;
        } else {
            struct gl_loc at = yt_loc_of(s, b);
            gl_srcmap_add(m, vp, at.line, at.col);
            for (size_t i = b; i < e;) {
                size_t used = 1, out = 1;
                if (n->style == YT_SINGLE && s->text[i] == '\'' && i + 1 < e &&
                    s->text[i + 1] == '\'')
                    used = 2;
                else if (n->style == YT_DOUBLE && s->text[i] == '\\')
                    out = escape_out(s->text, i, e, &used);
                i += used;
                vp += out;
                if (used != out && i < e) {
                    struct gl_loc next = yt_loc_of(s, i);
                    gl_srcmap_add(m, vp, next.line, next.col);
                }
            }
            if (nl && vp < n->len && (n->value[vp] == ' ' || n->value[vp] == '\n'))
                vp++;
        }
        first = false;
        if (!nl)
            break;
        sp = le + 1;
    }
}

void yt_scalar_srcmap(const struct yt_stream *s, const struct yt_node *n, struct gl_srcmap *m)
{
    if (!n || gl_arena_over(m->arena))
        return; /* (past its arena's limit: the input is a GL900, no more maps) */
    if (n->kind != YT_SCALAR) {
        gl_srcmap_add(m, 0, n->loc.line, n->loc.col);
        return;
    }
    size_t before = m->n;
    if (n->style == YT_LITERAL)
        literal_map(s, n, m);
    else if (n->style == YT_FOLDED)
        folded_map(s, n, m);
    else
        flow_map(s, n, m);
    if (m->n == before) /* nothing mapped: point at the scalar */
        gl_srcmap_add(m, 0, n->loc.line, n->loc.col);
}

struct gl_loc yt_scalar_loc_at(struct yt_stream *s, const struct yt_node *n, size_t off)
{
    if (!n)
        return (struct gl_loc){0, 0};
    if (n->kind == YT_SCALAR && n->style == YT_PLAIN && n->last_line == n->loc.line)
        return (struct gl_loc){n->loc.line, n->loc.col + (uint32_t)off};
    if (s->loc_node != n) {
        s->loc_node = n;
        gl_srcmap_init(&s->loc_map, s->arena);
        yt_scalar_srcmap(s, n, &s->loc_map);
    }
    return gl_srcmap_loc(&s->loc_map, off);
}

/* ---- pragmas ---- */

void yt_add_pragmas(struct gl_doc *doc, struct yt_stream *s)
{
    /* (gl_pragma_parse takes only a comment that says `gpulint`; its `g` is its rarest
     * byte in YAML: memchr for it, then a compare) */
    if (s->line0 || !memchr(s->text, '#', s->len) ||
        !gl_mem_has(s->text, s->len, "gpulint", 7, 0))
        return; /* (a text inside a file, yt_load_at, has none: its file's reader reads them) */
    size_t nl = s->nlines + 2;
    uint32_t *span_end = xcalloc(nl, sizeof *span_end); /* last line of nodes starting here */
    bool *in_block = xcalloc(nl, sizeof *in_block);     /* a block scalar's content line */
    struct yt_node **stack = NULL;
    size_t depth = 0, cap = 0;
    for (size_t d = 0; d < s->ndocs; d++) {
        if (!s->docs[d])
            continue;
        if (depth == cap) {
            cap = cap ? cap * 2 : 64;
            stack = xrealloc(stack, cap * sizeof *stack);
        }
        stack[depth++] = s->docs[d];
        while (depth) {
            struct yt_node *n = stack[--depth];
            /* entries (pairs, sequence items) are what a pragma covers, not collections */
            if (n->kind == YT_SEQ)
                for (size_t i = 0; i < n->nitems; i++) {
                    uint32_t il = n->items[i]->loc.line;
                    if (il < nl && n->items[i]->last_line > span_end[il])
                        span_end[il] = n->items[i]->last_line;
                }
            if (n->kind == YT_SCALAR && (n->style == YT_LITERAL || n->style == YT_FOLDED))
                for (uint32_t l = n->loc.line + 1; l <= n->last_line && l < nl; l++)
                    in_block[l] = true;
            size_t count = n->kind == YT_MAP ? n->npairs * 2 : n->kind == YT_SEQ ? n->nitems : 0;
            if (depth + count > cap) {
                while (depth + count > cap)
                    cap *= 2;
                stack = xrealloc(stack, cap * sizeof *stack);
            }
            for (size_t i = 0; n->kind == YT_MAP && i < n->npairs; i++) {
                struct yt_pair *p = &n->pairs[i];
                uint32_t kl = p->key->loc.line;
                if (kl < nl && p->value->last_line > span_end[kl])
                    span_end[kl] = p->value->last_line;
                stack[depth++] = p->key;
                stack[depth++] = p->value;
            }
            for (size_t i = 0; n->kind == YT_SEQ && i < n->nitems; i++)
                stack[depth++] = n->items[i];
        }
    }
    free(stack);
    for (uint32_t line = 1; line <= s->nlines; line++) {
        size_t b, e;
        if (in_block[line] || !line_span(s, line, &b, &e))
            continue;
        while (b < e && (s->text[b] == ' ' || s->text[b] == '\t'))
            b++;
        if (b >= e || s->text[b] != '#')
            continue;
        /* the node that starts on the next line holding anything but comments */
        uint32_t next = line + 1;
        for (; next <= s->nlines; next++) {
            size_t nb = 0, ne = 0;
            if (!line_span(s, next, &nb, &ne))
                continue;
            while (nb < ne && (s->text[nb] == ' ' || s->text[nb] == '\t'))
                nb++;
            if (nb < ne && s->text[nb] != '#')
                break;
        }
        uint32_t last = next;
        if (next < nl && span_end[next] > last)
            last = span_end[next];
        struct gl_loc at = yt_loc_of(s, b + 1);
        gl_pragma_parse(doc, s->text + b + 1, e - b - 1, at, next, last);
    }
    free(span_end);
    free(in_block);
}

/* A syntax error on or after a template expression: the input is a template (recorded
 * for GL903, the facts read before the error dropped), not a parse error. */
static bool template_error(struct gl_doc *doc, const struct yt_stream *s)
{
    if (s->error_fix || !s->error_loc.line || s->error_loc.line > s->nlines || s->line0)
        return false; /* a limit stopped the load: that is no template's doing */
    size_t end = s->lines[s->error_loc.line - 1];
    while (end < s->len && s->text[end] != '\n')
        end++;
    size_t start, stop;
    if (!yt_template_find(s->text, s->len, end, &start, &stop))
        return false;
    size_t shown = stop - start;
    const char *nl = memchr(s->text + start, '\n', shown);
    if (nl)
        shown = (size_t)(nl - (s->text + start));
    bool cut = shown > TEMPLATE_SHOWN || nl;
    if (shown > TEMPLATE_SHOWN)
        shown = TEMPLATE_SHOWN;
    gl_doc_drop_facts(doc);
    doc->tmpl.kind = GL_TEMPLATE_FILE;
    doc->tmpl.loc = yt_loc_of(s, start);
    doc->tmpl.expr = gl_arena_printf(&doc->arena, "%.*s%s", (int)shown, s->text + start,
                                     cut ? "..." : "");
    return true;
}

void yt_report_limit(struct gl_doc *doc, const struct yt_stream *s)
{
    if (!s->error || s->error_fix) /* (error_fix: said only of a limit) */
        yt_report(doc, s);
}

void yt_report(struct gl_doc *doc, const struct yt_stream *s)
{
    if (doc->error.set)
        return;
    if (s->error && template_error(doc, s))
        return;
    if (s->error) {
        doc->error.set = true;
        doc->error.loc = s->error_loc;
        doc->error.message = s->error_msg;
        doc->error.fix = s->error_fix;
    } else if (s->alias_exceeded) {
        alias_report(doc, s);
    }
}
