/* SPDX-License-Identifier: Apache-2.0 */
/*
 * yaml_tree.h: a safe YAML loader (libyaml events -> an arena node tree) and queries.
 *
 * yt_load() reads a whole stream (one or more documents) into a tree of yt_node:
 * scalars (value with its length, style, tag, position), mappings (ordered key/value
 * pairs; keys keep their positions) and sequences. Everything comes from the caller's
 * arena. Positions are gl_loc (1-based line by '\n', 1-based BYTE column) plus byte
 * offsets into the input.
 *
 * Hostile input:
 *  - aliases are kept as YT_ALIAS nodes pointing at the anchored node (never copied).
 *    Consumers follow them with yt_deref(), which charges the stream's alias budget one
 *    unit per alias to a collection followed, and one more per YT_ALIAS_UNIT_BYTES of
 *    the text the node it names spans, and of the text the aliases inside a collection
 *    name in turn (yt_node.named: a mapping that merges a big one is read whole through
 *    each alias to it, though the inner alias is one node, paid for once; a big scalar
 *    or mapping named by thousands of aliases is read, often copied, once each): at
 *    every follow of an alias to a
 *    scalar, at the first follow of each alias to a collection (a mapping that merges
 *    one is followed again at each lookup); walkers that descend into an aliased
 *    subtree charge one unit per node visited there with yt_charge(). When the budget
 *    (the limit yaml-alias-nodes, limits.h) runs out, both return NULL/false, and
 *    s->alias_exceeded and s->alias_loc say where: a billion-laughs file costs at most
 *    the budget. An alias to a short scalar costs nothing; an alias to a scalar always
 *    gives a scalar (an empty one, s->spent, past the budget): reading one twice gives
 *    a node of the same kind whatever was spent in between. An alias to a node that
 *    is still open (a recursive structure) is an error.
 *  - nesting deeper than the limit nesting-depth is an error; so is a tree that takes
 *    more than the limit parse-memory from its arena; the loader is iterative
 *    (an explicit stack), nothing recurses on input depth.
 *  - libyaml errors (bad syntax, invalid UTF-8, control characters, NUL bytes) set
 *    s->error at the first bad byte with libyaml's message; s->cause says what
 *    stopped the load, and a libyaml error keeps libyaml's own words (problem,
 *    context) for readers that word their messages themselves.
 *
 * The readers of the program's own files (the configuration file, the knowledge table)
 * load with yt_load_exact(): they report problems in the order libyaml meets them, so
 * the stream holds exactly the events libyaml gave before its first error; a mapping
 * cut short after a key keeps that key (yt_pending_key), and each document's start is
 * kept (s->doc_starts) to point at a second document. As in libyaml's document loader,
 * an alias may point to a node that encloses it (those readers refuse every alias, and
 * never follow one). These files are read before the limits are settled (the
 * configuration file sets them), so the limit nesting-depth does not apply: the reader
 * gives its own bound, or none (its walks, yt_walk, do not recurse).
 *
 * At the end of the input libyaml moves its position to a new line (when the last line
 * is not empty): a node given there (an empty scalar) has `past_end` set, as has the
 * cause of an error there; their offsets are the input's length.
 *
 * Merge keys: yt_get() looks a key up in a mapping's own pairs first, then in the
 * mappings merged by `<<: *a` or `<<: [*a, *b]` (in order, merges of merges too).
 * A key given twice in one mapping: yt_get() answers the last, as the YAML readers of
 * the tools that run these files do (Go's yaml.v2 and sigs.k8s.io/yaml, which kubectl
 * uses, so the API server sees the last; PyYAML; Ruby's Psych for GitLab CI). Formats
 * whose tool rejects the file instead (compose) say so (yt_fail_duplicate_key).
 * yt_pairs() gives the effective pairs of a mapping (own ones, then merged ones whose
 * keys are not already present), merge keys themselves left out; of a key given twice in
 * a mapping with merges, the last (where yt_get finds it); without merges, both.
 *
 * Not kept: the value of a key `openAPIV3Schema` (a CustomResourceDefinition's schema:
 * megabytes of property declarations in an operator's CRDs, which no reader looks into;
 * libyaml still reads it, its errors count). yt_load_exact keeps everything.
 *
 * yt_scalar_srcmap() maps the bytes of a scalar's value to their original positions:
 * exact for plain and quoted one-line scalars and for literal block scalars (`|`);
 * line by line for folded (`>`) and multi-line flow scalars (each source line's first
 * content byte is exact; a double-quoted escape shifts the rest of its line). It adds
 * nothing once the map's arena is over its limit (the input is then a GL900), so that a
 * big scalar named by many aliases is not mapped again for each.
 *
 * yt_add_pragmas() records `# gpulint ignore=...` comments (whole-line comments outside
 * block scalars) in doc->ignores, each covering the lines of the node that starts on
 * the next non-blank, non-comment line: the longest entry (a mapping pair from its key
 * to the end of its value, or a sequence item) starting on that line.
 */
#ifndef GPULINT_PARSERS_YAML_TREE_H
#define GPULINT_PARSERS_YAML_TREE_H

#include "linter/core/model.h"
#include "linter/core/srcmap.h"
#include "linter/core/util.h"


enum yt_kind { YT_SCALAR, YT_MAP, YT_SEQ, YT_ALIAS };
enum yt_style { YT_PLAIN, YT_SINGLE, YT_DOUBLE, YT_LITERAL, YT_FOLDED };

struct yt_node;

struct yt_pair {
    struct yt_node *key, *value;
};

struct yt_keyindex;
/* A mapping of this many own pairs or more is looked up through a hash of its keys: a
 * reader that looks names up in one big mapping once per entry (compose services by
 * name, `extends` hops among them) made n^2 key compares (20,000 services: 28 s). */
enum { YT_KEY_INDEX_MIN = 32 };
/* The key whose value no load but yt_load_exact keeps (see above). */
#define YT_SCHEMA_KEY "openAPIV3Schema"
#define YT_SCHEMA_KEY_LEN (sizeof YT_SCHEMA_KEY - 1)
/* The bytes of text that cost one unit of the alias budget (see "Hostile input"). */
enum { YT_ALIAS_UNIT_BYTES = 16 };

struct yt_node {
    enum yt_kind kind;
    struct gl_loc loc;       /* first byte of the node (a block scalar: its `|`/`>`) */
    uint32_t keymask;        /* YT_MAP: yt_key_bit of each key (all bits when a key is no
                                plain scalar node); in the padding after loc, so a node
                                takes the room it took before */
    size_t start, end;       /* byte offsets [start, end) in the input */
    uint32_t last_line;      /* last line holding content of this node */
    enum yt_style style;     /* YT_SCALAR (beside last_line: no padding after either) */
    const char *tag;         /* as written (libyaml expands shorthands), NULL when none */
    const char *anchor;      /* NULL when none */
    /* YT_SCALAR */
    const char *value;       /* NUL-terminated, holds none (GL_NUL_SHOWN) */
    union {
        size_t len;          /* YT_SCALAR: of value */
        size_t named;        /* YT_MAP, YT_SEQ: the bytes of text that the aliases among
                                its nodes name, with what aliases in those name in turn
                                (saturating): what a reader of it reads beyond its own
                                text, which an alias to it pays for (yt_deref_alias) */
    };
    /* YT_MAP */
    struct yt_keyindex *index; /* NULL, or its keys hashed: made by the first yt_get_n in
                                  a complete mapping of YT_KEY_INDEX_MIN pairs or more */
    struct yt_pair *pairs;
    size_t npairs, cappairs;
    /* YT_SEQ */
    struct yt_node **items;
    size_t nitems, capitems;
    /* YT_ALIAS */
    struct yt_node *target;
    bool flow;               /* a flow collection ([...] / {...}) */
    bool past_end;           /* libyaml placed it on a new line after the input's end */
    bool merges;             /* YT_MAP: a key of its pairs is a merge key (`<<`) */
    bool nul;                /* YT_SCALAR: an escape made a NUL (GL_NUL_SHOWN in value) */
    uint16_t charged;        /* YT_ALIAS to a collection: the yt_stream.gen in which the
                                text it names was paid for (yt_deref_alias charges it at
                                the first follow in a stream) */
    /* loader state */
    bool complete;
};

/* What stopped a load (s->cause.kind). */
enum yt_error_kind {
    YT_ERR_NONE,
    YT_ERR_READER,          /* a bad byte (libyaml's reader): invalid UTF-8, NUL, ... */
    YT_ERR_SYNTAX,          /* libyaml's scanner or parser */
    YT_ERR_MEMORY,          /* libyaml ran out of memory */
    YT_ERR_UNDEFINED_ALIAS, /* an alias to an anchor not (yet) defined in its document */
    YT_ERR_ENCLOSING_ALIAS, /* an alias to a node that encloses it */
    YT_ERR_LIMIT,           /* a limit (nesting-depth, parse-memory) */
};

/* What stopped a load, in detail (s->cause). */
struct yt_cause {
    enum yt_error_kind kind;
    size_t off;              /* byte offset of error_loc */
    bool past_end;           /* libyaml placed it on a new line after the input's end */
    const char *problem, *context; /* libyaml's words (READER, SYNTAX; a NULL problem for
                                MEMORY); context may be NULL */
};

/* A mapping that a load stopped inside after reading a key, and that key. */
struct yt_pending {
    struct yt_node *map, *key;
};

struct yt_stream {
    struct gl_arena *arena;
    const char *text;
    size_t len;
    uint32_t line0;          /* the line before the text's first (yt_load_at), else 0 */
    struct yt_node **docs;   /* root node of each document (an empty document is a null
                                scalar); a root that is not `complete` was cut short by
                                an error */
    size_t ndocs, capdocs;
    /* alias budget */
    uint64_t alias_used, alias_budget;
    bool alias_exceeded;
    struct gl_loc alias_loc;
    struct yt_node *spent;   /* NULL, or the empty scalar aliases give past the budget */
    struct gl_doc *doc;      /* NULL, or the document read (yt_load_doc): the budget's
                                GL900 goes to it when spent, so that a limit a reader hits
                                later (parse-memory) does not take the first one's place */
    uint64_t *alias_shared;  /* NULL, or the count of a file whose texts share one budget
                                (yt_load_at: doc->yaml_alias_used), kept equal to
                                alias_used */
    uint16_t gen;            /* the aliases paid for in this stream: yt_node.charged equal
                                to it (each copy of a sniffed stream, for a judge or the
                                parse that adopts it, has its own: what one paid for is
                                not free to the next, which reads it again) */
    /* the first error */
    bool error;
    struct gl_loc error_loc;
    const char *error_msg;
    const char *error_fix;   /* NULL, or how to get past a limit that stopped the load */
    struct yt_cause cause;
    /* yt_load_exact only: the mappings the load stopped inside after a key
       (yt_pending_key) */
    struct yt_pending *pending;
    size_t npending;
    /* yt_load_exact only: byte offset where each document starts (its `---`, or its
       first token when the start is implicit), one per document begun */
    size_t *doc_starts;
    size_t ndoc_starts, capdoc_starts;
    size_t ndoc_ends;        /* documents whose end libyaml reached */
    /* line starts, for offset -> loc */
    size_t *lines;
    size_t nlines;
    /* yt_scalar_loc_at's map of the last multi-line scalar asked about: one map a node,
       not one a call (a caller walking a block scalar's lines asks for each line's) */
    const struct yt_node *loc_node;
    struct gl_srcmap loc_map;
};

/* Does a file name end in `.yml` or `.yaml`? (one strlen: every YAML input type asks it
 * of every file name) */
static inline bool yt_yaml_name(const char *base)
{
    size_t n = strlen(base);
    return (n >= 4 && !memcmp(base + n - 4, ".yml", 4)) ||
           (n >= 5 && !memcmp(base + n - 5, ".yaml", 5));
}

/* Does a file name end in a YAML name and then one template suffix (`vllm-k8s.yaml.template`,
 * `deployment.yml.tmpl`)? Such files are filled in by envsubst or sed and applied
 * (`envsubst < vllm-k8s.yaml.template | kubectl apply -f -`): the walk reads them, and their
 * content decides what they are (their `${VAR}` values are opaque). Other suffixes are not:
 * `.j2`/`.jinja` (Jinja control blocks), `.tpl` (Terraform `%{ }` directives), `.in`. */
static inline bool yt_yaml_template_name(const char *base)
{
    static const char *const sfx[] = {".template", ".tmpl"};
    size_t n = strlen(base);
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        size_t k = strlen(sfx[i]);
        if (n > k && !memcmp(base + n - k, sfx[i], k)) {
            size_t m = n - k;
            return (m >= 4 && !memcmp(base + m - 4, ".yml", 4)) ||
                   (m >= 5 && !memcmp(base + m - 5, ".yaml", 5));
        }
    }
    return false;
}

/* Load text[0..len) (need not be NUL-terminated). Returns 0, or -1 with s->error set;
 * the documents completed before the error are kept. */
int yt_load(struct yt_stream *s, struct gl_arena *a, const char *text, size_t len);
/* yt_load into doc's arena, for a reader of doc: when the alias budget is spent, doc->error
 * says so at once (unless set already or the load failed: yt_report decides those). */
int yt_load_doc(struct yt_stream *s, struct gl_doc *doc, const char *text, size_t len);

/* yt_load_doc of a text inside doc that starts at the first column of its line `line` (a
 * shell heredoc's body): nodes, errors and yt_loc_of give doc's lines (columns are the
 * text's, which are doc's). Its comments give no pragmas (yt_add_pragmas does nothing):
 * doc's own reader reads them. The alias budget (yaml-alias-nodes) is the file's,
 * shared by all its texts (doc->yaml_alias_used). No sniffed stream is adopted. */
int yt_load_at(struct yt_stream *s, struct gl_doc *doc, const char *text, size_t len,
               uint32_t line);

/* Which pairs of a mapping yt_load_keeping keeps: called with each key that is a scalar
 * (its text, len bytes) and the depth of its mapping (the root collection is 1); false
 * drops the pair, and nothing of its value is kept (libyaml still reads it: its errors
 * count). */
typedef bool (*yt_keep_fn)(size_t depth, const char *key, size_t len);
/* yt_load_doc keeping only the pairs `keep` chooses, for a reader that needs few of a
 * large input's nodes (a notebook's cells and not their outputs): the tree's memory is
 * that of what is kept. An alias to an anchor inside a dropped value names an empty
 * scalar. No sniffed stream is adopted. */
int yt_load_keeping(struct yt_stream *s, struct gl_doc *doc, const char *text, size_t len,
                    yt_keep_fn keep);

/* As yt_load, for a reader of the program's own files (see the top of this file): no
 * second pass over the lines before a bad byte, aliases to enclosing nodes, pending keys
 * and s->doc_starts kept; a collection nested more than max_depth deep stops the load
 * (YT_ERR_LIMIT), 0 for no bound (libyaml takes time quadratic in the depth of flow
 * collections). */
int yt_load_exact(struct yt_stream *s, struct gl_arena *a, const char *text, size_t len,
                  size_t max_depth);

/* Bytes of the line break at t[0..n) as libyaml reads it (CR LF, CR, LF, NEL, LS, PS), 0
 * for none. */
size_t yt_break_len(const char *t, size_t n);

/* After yt_load_exact: the key a mapping cut short by the load's error had read without
 * its value; NULL when none (the mapping is complete, or stopped between pairs). */
struct yt_node *yt_pending_key(const struct yt_stream *s, const struct yt_node *map);

/* Visit n and every node under it in document order (a collection, then its items, or
 * each key and then its value, then a mapping's pending key), without recursion; aliases
 * are visited, not followed. Stops when visit returns false; returns false then. */
bool yt_walk(const struct yt_stream *s, struct yt_node *n,
             bool (*visit)(struct yt_node *n, void *ctx), void *ctx);

/* For an input type's by_content: loads data[0..len) into a scratch arena (the last
 * text sniffed stays loaded while small, for the next input type asking) and returns what `judge` says of the stream (called even when the load
 * failed part way: it sees the documents read before the error). When it says no to a
 * text that failed and holds template expressions, it judges the text again with them
 * blanked out (yaml_template.h): a template is recognised as what it renders to. */
bool yt_sniff(const char *data, size_t len, bool (*judge)(struct yt_stream *s));
/* The memo is one a thread: a thread that sniffed frees its memo with this before it ends
 * (the main thread's is dropped with the process). */
void yt_sniff_thread_end(void);

/* Position of a byte offset of the input. */
struct gl_loc yt_loc_of(const struct yt_stream *s, size_t off);

/* Follow an alias (charging the budget); NULL for NULL or when the budget is spent. */
struct yt_node *yt_deref_alias(struct yt_stream *s, struct yt_node *n);
/* Follow aliases: n itself unless it is one (inline: the readers ask for every node they
 * read, and nearly none is an alias). */
static inline struct yt_node *yt_deref(struct yt_stream *s, struct yt_node *n)
{
    return n && n->kind == YT_ALIAS ? yt_deref_alias(s, n) : n;
}
/* Charge n visited nodes; false once the budget is spent. */
bool yt_charge(struct yt_stream *s, uint64_t n, struct gl_loc at);

/* Type tests on a dereferenced node (NULL-safe). */
static inline bool yt_is_map(const struct yt_node *n) { return n && n->kind == YT_MAP; }
static inline bool yt_is_seq(const struct yt_node *n) { return n && n->kind == YT_SEQ; }
static inline bool yt_is_scalar(const struct yt_node *n) { return n && n->kind == YT_SCALAR; }
/* A plain scalar `null`, `Null`, `NULL`, `~` or empty, or a missing node. */
bool yt_is_null(const struct yt_node *n);
/* Scalar equal to str. */
bool yt_scalar_is(const struct yt_node *n, const char *str);
/* Plain/quoted `true` (and yes/on for YAML 1.1 readers such as compose). */
bool yt_is_true(const struct yt_node *n);

/* A key's bit in a mapping's keymask: from its length and first byte (a key whose bit is
 * not set is not among the mapping's own keys). */
static inline uint32_t yt_key_bit(const char *key, size_t len)
{
    return 1u << ((len * 7u + (len ? (unsigned char)key[0] : 0u)) & 31u);
}

/* Value of key[0..klen) in mapping `map` (merge keys applied; of a key given twice, the
 * last), dereferenced; NULL when absent. *key_out (may be NULL) gets the key node. */
struct yt_node *yt_get_n(struct yt_stream *s, struct yt_node *map, const char *key,
                         size_t klen, struct yt_node **key_out);
/* The same for a NUL-terminated key (inline: the readers pass literals, whose length
 * folds). */
static inline struct yt_node *yt_get(struct yt_stream *s, struct yt_node *map,
                                     const char *key, struct yt_node **key_out)
{
    return yt_get_n(s, map, key, strlen(key), key_out);
}
/* Effective pairs (own, then merged), values dereferenced; returns count. The array is
 * the mapping's own (no copy) when it has no merge key and no alias among its keys and
 * values, else a new arena array: read it, never write it. */
size_t yt_pairs(struct yt_stream *s, struct yt_node *map, struct yt_pair **out);
/* Item i of a sequence, dereferenced. */
struct yt_node *yt_item(struct yt_stream *s, struct yt_node *seq, size_t i);

/* Map a scalar's value bytes to original positions (see the top of this file). */
void yt_scalar_srcmap(const struct yt_stream *s, const struct yt_node *n, struct gl_srcmap *m);
/* Position of byte `off` of a scalar's value. A multi-line scalar's srcmap is built once
 * and kept in the stream for the next call on the same node, so that asking for every
 * line of a block scalar costs its map once (not once a line: memory quadratic in it). */
struct gl_loc yt_scalar_loc_at(struct yt_stream *s, const struct yt_node *n, size_t off);

/* The second of two equal scalar keys of one mapping (the earliest such in the stream),
 * NULL when none; *first (may be NULL) gets the key it repeats. Aliases are not followed;
 * merge keys (`<<`) do not count (yaml_dupkey.c). */
struct yt_node *yt_duplicate_key(const struct yt_stream *s, struct yt_node **first);
/* GL900 (doc->error) at that second key, for a format whose tool rejects it: `rejects`
 * ends the message ("compose rejects the file"). Nothing when doc->error is set or the
 * stream's syntax error comes first (the first bad byte is reported: call it before
 * yt_report). */
void yt_fail_duplicate_key(struct gl_doc *doc, const struct yt_stream *s, const char *rejects);

/* Record the gpulint pragmas of the stream's text in doc->ignores. */
void yt_add_pragmas(struct gl_doc *doc, struct yt_stream *s);

/* Set doc->error from the stream's load error or alias-budget exhaustion (if any, and
 * only if doc->error is not set yet). A syntax error on a line at or after a template
 * expression (yaml_template.h) is no error: the doc is then a template (doc->tmpl, for
 * GL903) and the facts read before the error are dropped (it is linted once rendered). */
void yt_report(struct gl_doc *doc, const struct yt_stream *s);
/* yt_report of a limit alone (parse-memory, nesting-depth, the alias budget): for a text
 * inside a file (yt_load_at), whose syntax errors are not the file's. */
void yt_report_limit(struct gl_doc *doc, const struct yt_stream *s);

#endif
