/* SPDX-License-Identifier: Apache-2.0 */
/* makefile_input.c: launches in Makefile recipes (see linter/core/inputs.h).
 *
 * `Makefile`, `makefile`, `GNUmakefile`, `*.mk`. Recipe lines (tab-indented after a rule
 * line) are shell text: their `@`, `-`, `+` prefixes are dropped, backslash continuations
 * are kept for the shell (the tab that starts a continuation line is removed, as make
 * does), `$$` becomes `$`, and make variables `$(VAR)` / `${VAR}` defined in the file
 * with `=`, `:=`, `::=`, `:::=`, `?=` or `+=` (appended with a space) are replaced by
 * their value. A variable defined inside a conditional, with `!=`, by `define`, or
 * never defined in the file (it may come from the command line or the environment), a
 * function call (`$(shell ...)`, `$(wildcard ...)`), and automatic variables (`$@`) are
 * opaque: they reach the shell as `$(...)`, which it treats as unknown. Each recipe line
 * runs in its own shell, as make runs it. The words of an expanded value are located at
 * the `$` of the reference. */
#include <string.h>

#include "linter/core/hashmap.h"
#include "linter/core/inputs.h"
#include "parsers/launch/launch_shell.h"

#define MK_MAX_DEPTH 8
/* Bytes that expansions may add to the recipe lines of one file, beyond their own text:
 * the limit expansion-size (then references are left opaque): variables that refer to
 * each other several times grow exponentially with the depth. */
#define MK_MAX_OUT ((size_t)gl_limit(GL_LIMIT_EXPANSION_SIZE))
#define MK_MAX_VALUE (1u << 13) /* a value `+=` may grow to (beyond: opaque) */

static bool by_name(const char *path, const char *base)
{
    (void)path;
    /* (each suffix has one dot: the name ends with it when its last dot starts it) */
    const char *dot = strrchr(base, '.');
    if (gl_input_other_format(base)) /* `Makefile.patch`: a diff, not a Makefile */
        return false;
    return gl_streq(base, "Makefile") || gl_streq(base, "makefile") ||
           gl_streq(base, "GNUmakefile") ||
           (dot && (gl_streq(dot, ".mk") || gl_streq(dot, ".mak") ||
                    gl_streq(dot, ".Makefile") || gl_streq(dot, ".makefile"))) ||
           ((base[0] == 'M' || base[0] == 'm') &&
            (gl_has_prefix(base, "Makefile.") || gl_has_prefix(base, "makefile.")));
}

/* Is line [s, e) a rule line: at column 0, `targets:` (not `:=`, not a comment or a
 * recipe)? */
static bool rule_line(const char *t, size_t s, size_t e)
{
    if (s == e || t[s] == '#' || t[s] == '\t' || t[s] == ' ')
        return false;
    for (size_t i = s; i < e; i++) {
        if (t[i] == '=' || t[i] == '#')
            return false;
        if (t[i] == ':')
            return i + 1 >= e || (t[i + 1] != '=' && t[i + 1] != ':');
    }
    return false;
}

/* Makefile rules with tab-indented recipes: a rule line whose next line (blank lines and
 * comments aside) starts with a tab. Only make reads such text. */
static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    bool after_rule = false;
    for (size_t i = 0; i < len && i < 65536;) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - data) : len;
        if (after_rule && e > i && data[i] == '\t')
            return true;
        if (e > i && data[i] != '#')
            after_rule = rule_line(data, i, e);
        i = e + 1;
    }
    return false;
}

/* ---- the make variable table (open addressing, last definition wins) ---- */

struct mk_var {
    const char *name;
    size_t nlen;
    const char *value;
    size_t vlen;
    bool opaque;
};

struct mk_vars {
    struct gl_arena *arena;
    struct mk_var *slots;
    size_t cap, n;
};

/* (the seeded hash: an unseeded FNV's low bits can be made to collide by a file's names) */
static size_t mk_hash(const char *s, size_t n, size_t cap)
{
    return gl_hash_slot(gl_hash_bytes(s, n), cap);
}

static struct mk_var *mk_slot(struct mk_vars *v, const char *name, size_t n, bool create)
{
    if (create && (v->n + 1) * 2 > v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        struct mk_var *s = gl_arena_alloc(v->arena, cap * sizeof *s);
        for (size_t i = 0; i < v->cap; i++)
            if (v->slots[i].name) {
                size_t h = mk_hash(v->slots[i].name, v->slots[i].nlen, cap);
                while (s[h].name)
                    h = (h + 1) & (cap - 1);
                s[h] = v->slots[i];
            }
        v->slots = s;
        v->cap = cap;
    }
    if (!v->cap)
        return NULL;
    size_t h = mk_hash(name, n, v->cap);
    while (v->slots[h].name) {
        if (v->slots[h].nlen == n && !memcmp(v->slots[h].name, name, n))
            return &v->slots[h];
        h = (h + 1) & (v->cap - 1);
    }
    if (!create)
        return NULL;
    v->n++;
    v->slots[h].name = gl_arena_strndup(v->arena, name, n);
    v->slots[h].nlen = n;
    return &v->slots[h];
}

/* ---- expansion into shell text ---- */

struct mk_out {
    struct gl_buf text;
    struct gl_srcmap map;
    size_t limit; /* text.len beyond which references stay opaque */
    bool full;
};

static bool name_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '-';
}

/* The end of the reference $( or ${ at s[i] (index of the closing paren), or n. */
static size_t ref_end(const char *s, size_t i, size_t n)
{
    char open = s[i + 1], close = open == '(' ? ')' : '}';
    int depth = 0;
    for (size_t k = i + 1; k < n; k++) {
        if (s[k] == open)
            depth++;
        else if (s[k] == close && --depth == 0)
            return k;
    }
    return n;
}

static void emit_opaque(struct mk_out *o, const char *inner, size_t n)
{
    bool safe = n > 0 && n < 200;
    for (size_t k = 0; safe && k < n; k++)
        safe = name_char(inner[k]) || strchr("@<^*?%+/: =,", inner[k]);
    gl_buf_adds(&o->text, "$(");
    if (safe)
        gl_buf_add(&o->text, inner, n);
    else
        gl_buf_adds(&o->text, "make-expansion");
    gl_buf_addc(&o->text, ')');
}

static void expand(struct mk_vars *vars, struct mk_out *o, const char *s, size_t n,
                   const struct gl_loc *pos, struct gl_loc ref, int depth);

/* Output one reference $(...)/${...}/$X at s[i]; returns the index after it. */
static size_t reference(struct mk_vars *vars, struct mk_out *o, const char *s, size_t i,
                        size_t n, struct gl_loc ref, int depth)
{
    if (i + 1 >= n) {
        gl_buf_addc(&o->text, '$');
        return n;
    }
    char c = s[i + 1];
    if (c == '$') {
        gl_buf_addc(&o->text, '$');
        return i + 2;
    }
    if (c != '(' && c != '{') {
        emit_opaque(o, s + i + 1, 1);
        return i + 2;
    }
    size_t e = ref_end(s, i, n);
    if (e >= n) { /* unterminated: the rest as it is */
        gl_buf_add(&o->text, s + i, n - i);
        return n;
    }
    const char *inner = s + i + 2;
    size_t len = e - i - 2;
    bool simple = len > 0;
    for (size_t k = 0; simple && k < len; k++)
        simple = name_char(inner[k]);
    struct mk_var *v = simple ? mk_slot(vars, inner, len, false) : NULL;
    if (o->text.len > o->limit)
        o->full = true; /* from here on every reference is opaque */
    if (v && !v->opaque && depth < MK_MAX_DEPTH && !o->full)
        expand(vars, o, v->value, v->vlen, NULL, ref, depth + 1);
    else
        emit_opaque(o, inner, len);
    return e + 1;
}

/* Expand s[0..n) into o. `pos` given: s is file text starting at *pos (one line);
 * otherwise s is a variable's value, every word of which is located at `ref`. */
static void expand(struct mk_vars *vars, struct mk_out *o, const char *s, size_t n,
                   const struct gl_loc *pos, struct gl_loc ref, int depth)
{
    size_t i = 0;
    if (pos)
        gl_srcmap_add(&o->map, o->text.len, pos->line, pos->col);
    while (i < n) {
        if (s[i] == '$') {
            struct gl_loc at = pos ? (struct gl_loc){pos->line, pos->col + (uint32_t)i} : ref;
            gl_srcmap_add(&o->map, o->text.len, at.line, at.col);
            i = reference(vars, o, s, i, n, at, depth);
            if (pos)
                gl_srcmap_add(&o->map, o->text.len, pos->line, pos->col + (uint32_t)i);
            continue;
        }
        if (!pos && i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
            gl_srcmap_add(&o->map, o->text.len, ref.line, ref.col);
        gl_buf_addc(&o->text, s[i++]);
    }
}

/* ---- lines ---- */

struct mk_parser {
    struct gl_doc *doc;
    struct mk_vars vars;
    struct gl_launch_scan scan;
    int cond_depth;
    size_t expanded; /* bytes the recipe lines so far came to */
};

static size_t line_end(const char *t, size_t len, size_t i)
{
    while (i < len && t[i] != '\n')
        i++;
    return i;
}

static bool continued(const char *t, size_t s, size_t e)
{
    size_t k = e;
    while (k > s && t[k - 1] == '\r')
        k--;
    size_t bs = 0;
    while (k > s && t[k - 1] == '\\') {
        bs++;
        k--;
    }
    return bs % 2 == 1;
}

/* A recipe line starting at line `line`, offset i (its tab); returns the offset after it. */
static size_t recipe(struct mk_parser *p, size_t i, uint32_t *line)
{
    const char *t = p->doc->text;
    size_t len = p->doc->len;
    struct mk_out o;
    gl_buf_init(&o.text);
    gl_srcmap_init(&o.map, &p->doc->arena);
    size_t budget = len + MK_MAX_OUT;
    o.limit = p->expanded < budget ? budget - p->expanded : 0;
    o.full = false;
    bool first = true;
    for (;;) {
        if (gl_arena_over(&p->doc->arena)) { /* the limit parse-memory: stop at this line */
            gl_doc_fail_limit(p->doc, GL_LIMIT_PARSE_MEMORY, (struct gl_loc){*line, 1});
            gl_buf_free(&o.text);
            return len;
        }
        size_t e = line_end(t, len, i);
        size_t s = i;
        if (s < e && t[s] == '\t')
            s++;
        if (first)
            while (s < e && (t[s] == '@' || t[s] == '-' || t[s] == '+' || t[s] == ' ' ||
                             t[s] == '\t'))
                s++;
        struct gl_loc pos = {*line, (uint32_t)(s - i) + 1};
        expand(&p->vars, &o, t + s, e - s, &pos, pos, 0);
        gl_buf_addc(&o.text, '\n');
        first = false;
        bool more = continued(t, i, e) && e < len;
        i = e + 1;
        if (!more)
            break;
        (*line)++;
    }
    p->expanded += o.text.len;
    if (o.text.len) {
        const char *copy = gl_arena_strndup(&p->doc->arena, o.text.data, o.text.len);
        gl_launch_scan_text(&p->scan, copy, o.text.len, &o.map);
    }
    gl_buf_free(&o.text);
    return i;
}

static bool word_is(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    return n >= k && !memcmp(s, w, k) && (n == k || s[k] == ' ' || s[k] == '\t' || s[k] == '(');
}

/* A variable definition or a rule line (logical line s[0..n), continuations joined).
 * Returns true for a rule line. */
static bool directive(struct mk_parser *p, const char *s, size_t n)
{
    static const char *const prefixes[] = {"export", "override", "private"};
    for (size_t k = 0; k < 3; k++)
        if (word_is(s, n, prefixes[k])) {
            size_t l = strlen(prefixes[k]);
            s += l;
            n -= l;
            while (n && (*s == ' ' || *s == '\t'))
                s++, n--;
        }
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '(' || c == '{')
            depth++;
        else if ((c == ')' || c == '}') && depth)
            depth--;
        if (depth || (c != '=' && c != ':'))
            continue;
        size_t name_end = i, val = i + 1;
        char op = '=';
        if (c == ':') {
            size_t k = i;
            while (k < n && s[k] == ':')
                k++;
            if (k >= n || s[k] != '=' || k - i > 3)
                return true; /* a rule */
            op = ':';
            val = k + 1;
        } else if (i > 0 && (s[i - 1] == '?' || s[i - 1] == '+' || s[i - 1] == '!')) {
            op = s[i - 1];
            name_end = i - 1;
        }
        while (name_end > 0 && (s[name_end - 1] == ' ' || s[name_end - 1] == '\t'))
            name_end--;
        while (val < n && (s[val] == ' ' || s[val] == '\t'))
            val++;
        size_t vend = n;
        while (vend > val && (s[vend - 1] == ' ' || s[vend - 1] == '\t' || s[vend - 1] == '\r'))
            vend--;
        if (!name_end)
            return false;
        struct mk_var *v = mk_slot(&p->vars, s, name_end, op != '?');
        if (op == '?') {
            if (v)
                return false;
            v = mk_slot(&p->vars, s, name_end, true);
        }
        struct gl_arena *a = &p->doc->arena;
        if (op == '+' && (v->opaque || v->vlen > MK_MAX_VALUE)) {
            v->opaque = true; /* opaque stays opaque; a value grown huge becomes so */
        } else if (op == '+' && v->value) {
            v->value = gl_arena_printf(a, "%.*s %.*s", (int)v->vlen, v->value, (int)(vend - val),
                                       s + val);
            v->vlen = strlen(v->value);

        } else {
            v->value = gl_arena_strndup(a, s + val, vend - val);
            v->vlen = vend - val;
            v->opaque = false;
        }
        if (op == '!' || p->cond_depth > 0)
            v->opaque = true;
        return false;
    }
    return false;
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct mk_parser p = {.doc = doc};
    p.vars.arena = &doc->arena;
    gl_launch_scan_init(&p.scan, doc, NULL); /* each recipe line: its own shell */
    const char *t = doc->text;
    size_t len = doc->len, i = 0;
    bool in_rule = false, in_define = false;
    struct gl_buf logical;
    gl_buf_init(&logical);
    for (uint32_t line = 1; i < len; line++) {
        if (gl_arena_over(&doc->arena)) { /* the limit parse-memory: stop at this line */
            gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, (struct gl_loc){line, 1});
            break;
        }
        size_t e = line_end(t, len, i);
        if (in_define) {
            size_t s = i;
            while (s < e && (t[s] == ' ' || t[s] == '\t'))
                s++;
            if (word_is(t + s, e - s, "endef"))
                in_define = false;
            i = e + 1;
            continue;
        }
        if (t[i] == '\t' && in_rule) {
            i = recipe(&p, i, &line);
            continue;
        }
        /* a logical line: continuations joined with a space */
        logical.len = 0;
        for (;;) {
            gl_buf_add(&logical, t + i, e - i);
            bool more = continued(t, i, e) && e < len;
            i = e + 1;
            if (!more)
                break;
            logical.len--; /* the backslash */
            gl_buf_addc(&logical, ' ');
            line++;
            e = line_end(t, len, i);
        }
        const char *s = gl_buf_str(&logical);
        size_t n = logical.len;
        while (n && (*s == ' ' || *s == '\t'))
            s++, n--;
        if (!n || *s == '#' || (n == 1 && *s == '\r'))
            continue; /* blank lines and comments do not end a rule */
        if (word_is(s, n, "define") || word_is(s, n, "export define") ||
            word_is(s, n, "override define")) {
            const char *name = s + 6;
            size_t nl = 0;
            while (name < s + n && (*name == ' ' || *name == '\t'))
                name++;
            while (name + nl < s + n && name_char(name[nl]))
                nl++;
            if (nl) {
                struct mk_var *v = mk_slot(&p.vars, name, nl, true);
                v->opaque = true;
            }
            in_define = true;
            in_rule = false;
        } else if (word_is(s, n, "ifeq") || word_is(s, n, "ifneq") || word_is(s, n, "ifdef") ||
                   word_is(s, n, "ifndef")) {
            p.cond_depth++;
        } else if (word_is(s, n, "endif")) {
            if (p.cond_depth)
                p.cond_depth--;
        } else if (word_is(s, n, "else")) {
            /* same depth */
        } else {
            in_rule = directive(&p, s, n);
        }
    }
    gl_buf_free(&logical);
    gl_launch_scan_pragmas(&p.scan);
}

const struct gl_input_type gl_input_makefile = {
    .kind = GL_IN_MAKEFILE,
    .name = "makefile",
    .priority = 40,
    .by_name = by_name,
    .candidate = gl_input_bare_candidate,
    .by_content = by_content,
    .parse = parse,
};
