/* SPDX-License-Identifier: Apache-2.0 */
/* test_yaml_tree.c: the safe YAML loader (parsers/yaml/yaml_tree.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/yaml/yaml_tree.h"
#include "tests/unit/test_support.h"

struct fx {
    struct gl_arena a;
    struct yt_stream s;
    int rc;
};

static struct fx *load(const char *text, size_t len)
{
    struct fx *f = calloc(1, sizeof *f);
    gl_arena_init(&f->a);
    f->rc = yt_load(&f->s, &f->a, text, len);
    return f;
}

static void done(struct fx *f)
{
    gl_arena_free(&f->a);
    free(f);
}

static void test_positions_bytes(void **st)
{
    (void)st;
    const char *t = "# c\nx:\n  é: 'it''s'\n  k: \"a\\tb\"\n";
    struct fx *f = load(t, strlen(t));
    assert_int_equal(f->rc, 0);
    assert_int_equal(f->s.ndocs, 1);
    struct yt_node *x = yt_get(&f->s, f->s.docs[0], "x", NULL);
    struct yt_node *key = NULL;
    struct yt_node *v = yt_get(&f->s, x, "é", &key);
    assert_loc(key->loc, 3, 3);
    assert_loc(v->loc, 3, 7); /* é is two bytes */
    assert_string_equal(v->value, "it's");
    assert_int_equal(v->style, YT_SINGLE);
    /* byte 3 of "it's" is 's', after the doubled quote */
    assert_loc(yt_scalar_loc_at(&f->s, v, 3), 3, 12);
    struct yt_node *k = yt_get(&f->s, x, "k", NULL);
    assert_string_equal(k->value, "a\tb");
    assert_loc(yt_scalar_loc_at(&f->s, k, 2), 4, 10);
    done(f);
}

static void test_literal_srcmap_exact(void **st)
{
    (void)st;
    const char *t = "run: |\n  echo a\n    indented x\n\n  last\nnext: 1\n";
    struct fx *f = load(t, strlen(t));
    struct yt_node *r = yt_get(&f->s, f->s.docs[0], "run", NULL);
    assert_int_equal(r->style, YT_LITERAL);
    assert_string_equal(r->value, "echo a\n  indented x\n\nlast\n");
    assert_loc(yt_scalar_loc_at(&f->s, r, 0), 2, 3);
    assert_loc(yt_scalar_loc_at(&f->s, r, 5), 2, 8);      /* 'a' */
    assert_loc(yt_scalar_loc_at(&f->s, r, 7 + 2), 3, 5);  /* 'i' of indented */
    assert_loc(yt_scalar_loc_at(&f->s, r, 21), 5, 3);     /* 'l' of last */
    assert_int_equal(r->last_line, 5);
    done(f);
}

/* yt_scalar_loc_at asked for every line of a long block scalar (a caller walking a
 * `build-contexts: |` list) builds its map once: the arena grows by one map, not one a
 * line (20,000 lines took a workflow past parse-memory before); asked in turn about two
 * scalars, each answer is still that scalar's own. */
static void test_loc_at_map_once(void **st)
{
    (void)st;
    enum { LINES = 20000 };
    struct gl_buf t;
    gl_buf_init(&t);
    gl_buf_adds(&t, "a: |\n");
    for (int i = 0; i < LINES; i++)
        gl_buf_printf(&t, "  n%05d=x\n", i);
    gl_buf_adds(&t, "b: |\n  one\n  two\n");
    struct fx *f = load(t.data, t.len);
    assert_int_equal(f->rc, 0);
    struct yt_node *a = yt_get(&f->s, f->s.docs[0], "a", NULL);
    struct yt_node *b = yt_get(&f->s, f->s.docs[0], "b", NULL);
    assert_loc(yt_scalar_loc_at(&f->s, a, 0), 2, 3);
    size_t before = f->a.total;
    for (size_t i = 0; i < LINES; i++) {
        struct gl_loc l = yt_scalar_loc_at(&f->s, a, i * 9 + 1);
        assert_int_equal(l.line, i + 2);
        assert_int_equal(l.col, 4);
    }
    assert_true(f->a.total - before < 4096); /* no map built again */
    assert_loc(yt_scalar_loc_at(&f->s, b, 4), LINES + 4, 3); /* 't' of two */
    assert_loc(yt_scalar_loc_at(&f->s, a, 9), 3, 3);
    assert_loc(yt_scalar_loc_at(&f->s, b, 0), LINES + 3, 3);
    done(f);
    gl_buf_free(&t);
}

static void test_folded_srcmap(void **st)
{
    (void)st;
    const char *t = "cmd: >\n  python t.py\n  --out /o\n";
    struct fx *f = load(t, strlen(t));
    struct yt_node *r = yt_get(&f->s, f->s.docs[0], "cmd", NULL);
    assert_string_equal(r->value, "python t.py --out /o\n");
    assert_loc(yt_scalar_loc_at(&f->s, r, 12), 3, 3);
    done(f);
}

static void test_multiline_plain(void **st)
{
    (void)st;
    const char *t = "cmd: python t.py\n  --out /o\n";
    struct fx *f = load(t, strlen(t));
    struct yt_node *r = yt_get(&f->s, f->s.docs[0], "cmd", NULL);
    assert_string_equal(r->value, "python t.py --out /o");
    assert_loc(yt_scalar_loc_at(&f->s, r, 12), 2, 3);
    assert_loc(yt_scalar_loc_at(&f->s, r, 18), 2, 9);
    done(f);
}

static void test_merge_keys(void **st)
{
    (void)st;
    const char *t = "a: &a {x: 1, y: 2}\nb: &b {z: 3}\nc:\n  <<: [*a, *b]\n  x: 9\n";
    struct fx *f = load(t, strlen(t));
    struct yt_node *c = yt_get(&f->s, f->s.docs[0], "c", NULL);
    assert_string_equal(yt_get(&f->s, c, "x", NULL)->value, "9");
    assert_string_equal(yt_get(&f->s, c, "y", NULL)->value, "2");
    assert_string_equal(yt_get(&f->s, c, "z", NULL)->value, "3");
    struct yt_pair *p;
    assert_int_equal(yt_pairs(&f->s, c, &p), 3);
    assert_string_equal(p[0].key->value, "x");
    assert_string_equal(p[0].value->value, "9");
    done(f);
}

/* More merge sources than a lookup visits (MERGE_VISITS, 256): the first ones are kept,
 * whose keys win (the last 256 were kept, so k was the 45th source's), in one `<<` list
 * or in as many `<<` keys; a lookup follows no alias past the visits. */
static void test_merge_sources_past_visits(void **st)
{
    (void)st;
    struct gl_buf b;
    gl_buf_init(&b);
    for (int i = 0; i < 300; i++)
        gl_buf_printf(&b, "a%d: &a%d {k: v%d}\n", i, i, i);
    gl_buf_adds(&b, "l:\n  <<: [");
    for (int i = 0; i < 300; i++)
        gl_buf_printf(&b, "%s*a%d", i ? ", " : "", i);
    gl_buf_adds(&b, "]\nm:\n");
    for (int i = 0; i < 300; i++)
        gl_buf_printf(&b, "  <<: *a%d\n", i);
    gl_buf_adds(&b, "n: {<<: [*a0, *a1], k: own}\n");
    struct fx *f = load(b.data, b.len);
    assert_int_equal(f->rc, 0);
    const char *const maps[] = {"l", "m"};
    for (size_t i = 0; i < 2; i++) {
        struct yt_node *map = yt_get(&f->s, f->s.docs[0], maps[i], NULL);
        uint64_t used = f->s.alias_used;
        assert_string_equal(yt_get(&f->s, map, "k", NULL)->value, "v0");
        assert_null(yt_get(&f->s, map, "none", NULL));
        assert_true(f->s.alias_used - used <= 2 * 256);
    }
    assert_string_equal(yt_get(&f->s, yt_get(&f->s, f->s.docs[0], "n", NULL), "k", NULL)->value,
                        "own");
    done(f);
    gl_buf_free(&b);
}

/* A key given twice in one mapping: the last is the value (kubectl, PyYAML, Psych), in a
 * mapping's own pairs and in one merged from an anchor; an own key still beats a merged one. */
/* YAML templates filled in by envsubst or sed are read by content; other template
 * syntaxes (Jinja, Terraform) and names that only contain a suffix are not. */
static void test_yaml_template_names(void **state)
{
    (void)state;
    static const char *const yes[] = {"vllm-k8s.yaml.template", "compose.yml.tmpl",
                                      "a.b.yaml.tmpl", ".yml.template"};
    static const char *const no[] = {"vllm.yaml", "values.yaml.j2", "job.yaml.tpl",
                                     "meta.yaml.in", "x.template", "yaml.template",
                                     "a.yamltemplate", ".template", "a.yaml.template.bak"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        assert_true(yt_yaml_template_name(yes[i]));
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        assert_false(yt_yaml_template_name(no[i]));
}

static void test_repeated_key_last(void **st)
{
    (void)st;
    const char *t = "a: &a {x: 1, x: 2, w: 5}\nc:\n  <<: *a\n  y: 3\n  y: 4\n  w: 6\n  w: 7\n";
    struct fx *f = load(t, strlen(t));
    struct yt_node *c = yt_get(&f->s, f->s.docs[0], "c", NULL);
    assert_string_equal(yt_get(&f->s, c, "x", NULL)->value, "2");
    assert_string_equal(yt_get(&f->s, c, "y", NULL)->value, "4");
    assert_string_equal(yt_get(&f->s, c, "w", NULL)->value, "7");
    struct yt_node *a = yt_get(&f->s, f->s.docs[0], "a", NULL), *key = NULL;
    assert_string_equal(yt_get(&f->s, a, "x", &key)->value, "2");
    assert_int_equal(key->loc.col, 14);
    /* yt_pairs keeps the pairs yt_get finds (the own y and w, the merged x), in order */
    struct yt_pair *pairs = NULL;
    assert_int_equal(yt_pairs(&f->s, c, &pairs), 3);
    assert_string_equal(pairs[0].key->value, "y");
    assert_string_equal(pairs[0].value->value, "4");
    assert_string_equal(pairs[1].key->value, "w");
    assert_string_equal(pairs[1].value->value, "7");
    assert_string_equal(pairs[2].key->value, "x");
    assert_string_equal(pairs[2].value->value, "2");
    done(f);
}

static void test_multi_document(void **st)
{
    (void)st;
    const char *t = "a: 1\n---\n---\nb: 2\n";
    struct fx *f = load(t, strlen(t));
    assert_int_equal(f->rc, 0);
    assert_int_equal(f->s.ndocs, 3);
    assert_true(yt_is_null(f->s.docs[1]));
    assert_loc(f->s.docs[2]->loc, 4, 1);
    done(f);
}

static void test_alias_bomb_bounded(void **st)
{
    (void)st;
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_adds(&b, "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (char c = 'b'; c <= 'j'; c++) {
        gl_buf_printf(&b, "%c: &%c [", c, c);
        for (int i = 0; i < 9; i++)
            gl_buf_printf(&b, "%s*%c", i ? ", " : "", c - 1);
        gl_buf_adds(&b, "]\n");
    }
    struct fx *f = load(b.data, b.len);
    assert_int_equal(f->rc, 0);
    /* walk j fully through aliases: must stop at the budget */
    struct yt_node *stack[64];
    size_t n = 0;
    stack[n++] = yt_get(&f->s, f->s.docs[0], "j", NULL);
    uint64_t visited = 0;
    while (n && visited < 100000000) {
        struct yt_node *x = yt_deref(&f->s, stack[--n]);
        if (!x || !yt_charge(&f->s, 1, stack[n]->loc))
            break;
        visited++;
        for (size_t i = 0; x->kind == YT_SEQ && i < x->nitems && n < 64; i++)
            stack[n++] = x->items[i];
    }
    assert_true(f->s.alias_exceeded);
    assert_true(visited <= gl_limit(GL_LIMIT_YAML_ALIAS_NODES) + 1);
    struct gl_doc doc = {0};
    yt_report(&doc, &f->s);
    assert_true(doc.error.set);
    assert_true(doc.error.loc.line >= 1 && doc.error.loc.line <= 10);
    assert_non_null(strstr(doc.error.message, "yaml-alias-nodes"));
    gl_arena_free(&doc.arena);
    gl_buf_free(&b);
    done(f);
}

static void test_deep_nesting_error(void **st)
{
    (void)st;
    size_t depth = 100000;
    char *t = malloc(depth * 2 + 1);
    memset(t, '[', depth);
    memset(t + depth, ']', depth);
    t[depth * 2] = 0;
    struct fx *f = load(t, depth * 2);
    assert_int_equal(f->rc, -1);
    assert_true(f->s.error);
    assert_loc(f->s.error_loc, 1, gl_limit(GL_LIMIT_NESTING_DEPTH) + 1);
    done(f);
    free(t);
}

static void test_invalid_yaml_location(void **st)
{
    (void)st;
    const char *t = "a: 1\nb: [1, 2\nc: 3\n";
    struct fx *f = load(t, strlen(t));
    assert_int_equal(f->rc, -1);
    assert_int_equal(f->s.error_loc.line, 3);
    assert_non_null(strstr(f->s.error_msg, "expected"));
    done(f);
    const char *t2 = "a: 1\n  b: 2\n";
    f = load(t2, strlen(t2));
    assert_int_equal(f->rc, -1);
    assert_loc(f->s.error_loc, 2, 4);
    done(f);
}

static void test_nul_and_bad_utf8(void **st)
{
    (void)st;
    struct fx *f = load("a: 1\nb: x\0y\n", 12);
    assert_int_equal(f->rc, -1);
    assert_loc(f->s.error_loc, 2, 5);
    done(f);
    f = load("a: \"x\xff\"\n", 8);
    assert_int_equal(f->rc, -1);
    assert_loc(f->s.error_loc, 1, 6);
    done(f);
}

/* A NUL that an escape makes (\0, \x00, \u0000) is U+2400 in the value, which stays a
 * whole C string; the bytes after it keep their positions. */
static void test_escaped_nul_shown(void **st)
{
    (void)st;
    const char *t = "k: \"a\\0b\\x00c\\u0000d\"\n";
    struct fx *f = load(t, strlen(t));
    assert_int_equal(f->rc, 0);
    struct yt_node *k = yt_get(&f->s, f->s.docs[0], "k", NULL);
    assert_string_equal(k->value, "a\xe2\x90\x80" "b\xe2\x90\x80" "c\xe2\x90\x80" "d");
    assert_int_equal(k->len, strlen(k->value));
    assert_true(k->nul);
    assert_loc(yt_scalar_loc_at(&f->s, k, 4), 1, 8);   /* b */
    assert_loc(yt_scalar_loc_at(&f->s, k, 8), 1, 13);  /* c */
    assert_loc(yt_scalar_loc_at(&f->s, k, 12), 1, 20); /* d */
    done(f);
}

/* A bad byte deep in the text: the error stays at it, and the lines before it still load
 * (libyaml alone rejects the whole chunk before scanning any of it). */
static void test_bad_byte_keeps_lines_before(void **st)
{
    (void)st;
    static const char text[] = "kind: Pod\nspec:\n  image: ok\n---\nkind: Job\nname: x\0y\nz: 1\n";
    struct fx *f = load(text, sizeof text - 1);
    assert_int_equal(f->rc, -1);
    assert_loc(f->s.error_loc, 6, 8);
    assert_string_equal(f->s.error_msg, "control characters are not allowed");
    assert_int_equal(f->s.ndocs, 2);
    struct yt_node *kind = yt_get(&f->s, f->s.docs[0], "kind", NULL);
    assert_non_null(kind);
    assert_true(yt_scalar_is(kind, "Pod"));
    kind = yt_get(&f->s, f->s.docs[1], "kind", NULL);
    assert_non_null(kind);
    assert_true(yt_scalar_is(kind, "Job"));
    assert_null(yt_get(&f->s, f->s.docs[1], "name", NULL)); /* the bad line is not read */
    assert_true(f->s.docs[0]->complete);
    assert_false(f->s.docs[1]->complete); /* cut short by the bad line */
    done(f);
    /* a real error before the bad byte is the one reported */
    static const char early[] = "a: *nope\nb: 1\nc: x\0\n";
    f = load(early, sizeof early - 1);
    assert_int_equal(f->rc, -1);
    assert_loc(f->s.error_loc, 1, 4);
    done(f);
    /* on the first line: nothing before it, no document */
    f = load("a: \xff\n", 5);
    assert_int_equal(f->rc, -1);
    assert_int_equal(f->s.ndocs, 0);
    done(f);
}

static void test_recursive_and_undefined_alias(void **st)
{
    (void)st;
    struct fx *f = load("a: &x [*x]\n", 11);
    assert_int_equal(f->rc, -1);
    assert_loc(f->s.error_loc, 1, 8);
    done(f);
    f = load("a: *nope\n", 9);
    assert_int_equal(f->rc, -1);
    assert_loc(f->s.error_loc, 1, 4);
    done(f);
}

/* An alias costs a unit per YT_ALIAS_UNIT_BYTES of the text it names (a collection one
 * more, a short scalar nothing): a 1,600-byte scalar named 1,001 times spends a budget of
 * 100,000 units at its 1,001st alias, from which on an alias to it reads as an empty scalar
 * at that alias (still a scalar) and one to a mapping as nothing; a short scalar is still
 * read as it is. */
/* b: fmt with its one %s a run of 1,600 x's (the big text the alias tests name). */
static void big_text(struct gl_buf *b, const char *fmt)
{
    char big[1601];
    memset(big, 'x', 1600);
    big[1600] = 0;
    gl_buf_init(b);
    gl_buf_printf(b, fmt, big);
}

/* yt_load_keeping: the keep choice drops pairs by key and depth (nothing of a dropped
 * value is in the tree, its nodes cost no arena), an alias to an anchor inside a dropped
 * value names an empty scalar, and an error inside a dropped value still stops the load
 * where it is. */
static bool keep_cells(size_t depth, const char *key, size_t len)
{
    if (depth == 1)
        return len == 5 && !memcmp(key, "cells", 5);
    return !(len == 7 && !memcmp(key, "outputs", 7));
}

static void test_load_keeping(void **st)
{
    (void)st;
    char big[4096];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    char *t = NULL;
    assert_true(asprintf(&t, "{\"meta\": {\"a\": 1}, \"cells\": [{\"source\": \"s\", "
                             "\"outputs\": [\"%s\", &o {\"k\": [1, 2]}], \"n\": *o}]}",
                         big) > 0);
    struct gl_doc *d = test_doc_new("n.ipynb", GL_IN_NOTEBOOK, t, strlen(t));
    struct yt_stream s;
    assert_int_equal(yt_load_keeping(&s, d, t, strlen(t), keep_cells), 0);
    struct yt_node *root = s.docs[0];
    assert_int_equal(root->npairs, 1); /* `meta` dropped */
    struct yt_node *cells = yt_get(&s, root, "cells", NULL);
    assert_true(yt_is_seq(cells) && cells->nitems == 1);
    struct yt_node *cell = cells->items[0];
    assert_int_equal(cell->npairs, 2); /* `outputs` dropped, `source` and `n` kept */
    assert_true(yt_scalar_is(yt_get(&s, cell, "source", NULL), "s"));
    struct yt_node *n = yt_deref(&s, yt_get(&s, cell, "n", NULL));
    assert_true(yt_is_scalar(n) && n->len == 0);
    assert_true(d->arena.total < sizeof big); /* the 4 KB string was not copied */
    struct gl_loc at = yt_get(&s, cell, "source", NULL)->loc;
    assert_int_equal(at.line, 1);
    assert_int_equal(at.col, (uint32_t)(strstr(t, "\"s\"") - t + 1));
    test_doc_free(d);
    free(t);
    /* a syntax error inside a dropped value stops the load there */
    const char *bad = "{\"cells\": [{\"outputs\": [1, 2,, 3]}]}";
    d = test_doc_new("n.ipynb", GL_IN_NOTEBOOK, bad, strlen(bad));
    assert_int_equal(yt_load_keeping(&s, d, bad, strlen(bad), keep_cells), -1);
    assert_int_equal(s.error_loc.line, 1);
    assert_int_equal(s.error_loc.col, (uint32_t)(strstr(bad, ",,") - bad + 2));
    test_doc_free(d);
}

/* yt_load_at: a text inside a file from the first column of its line 40: every position
 * is the file's (nodes, a block scalar's lines through its srcmap, an error), and a limit
 * is the only error yt_report_limit reports. */
static void test_load_at_line(void **st)
{
    (void)st;
    const char *t = "kind: Pod\nspec:\n  script: |\n    echo a\n    echo b\n  bad: [\n";
    struct gl_doc *d = test_doc_new("run.sh", GL_IN_SHELL, t, strlen(t));
    struct yt_stream s;
    assert_int_equal(yt_load_at(&s, d, t, strlen(t), 40), -1);
    assert_int_equal(s.error_loc.line, 46); /* (the flow sequence never closed) */
    yt_report_limit(d, &s);
    assert_false(d->error.set); /* a syntax error inside a file's text is not the file's */
    test_doc_free(d);
    const char *ok = "kind: Pod\nspec:\n  script: |\n    echo a\n    echo b\n";
    d = test_doc_new("run.sh", GL_IN_SHELL, ok, strlen(ok));
    assert_int_equal(yt_load_at(&s, d, ok, strlen(ok), 40), 0);
    struct yt_node *root = s.docs[0];
    assert_int_equal(yt_get(&s, root, "kind", NULL)->loc.line, 40);
    struct yt_node *script = yt_get(&s, yt_get(&s, root, "spec", NULL), "script", NULL);
    assert_int_equal(script->loc.line, 42);
    assert_int_equal(script->last_line, 44);
    struct gl_loc b = yt_scalar_loc_at(&s, script, strlen("echo a\ne"));
    assert_int_equal(b.line, 44);
    assert_int_equal(b.col, 6);
    assert_int_equal(yt_loc_of(&s, strlen("kind: Pod\nsp")).line, 41);
    test_doc_free(d);
}

/* A CRD's openAPIV3Schema value is not kept by yt_load (its pair is dropped, the rest
 * of the object stays); yt_load_exact keeps it. */
static void test_schema_not_kept(void **st)
{
    (void)st;
    const char *t = "kind: CustomResourceDefinition\nspec:\n  versions:\n  - name: v1\n"
                    "    schema:\n      openAPIV3Schema:\n        type: object\n"
                    "    served: true\n";
    struct fx *f = load(t, strlen(t));
    assert_int_equal(f->rc, 0);
    struct yt_node *v = yt_item(&f->s, yt_get(&f->s, yt_get(&f->s, f->s.docs[0], "spec", NULL),
                                              "versions", NULL), 0);
    struct yt_node *schema = yt_get(&f->s, v, "schema", NULL);
    assert_true(yt_is_map(schema) && schema->npairs == 0);
    assert_true(yt_scalar_is(yt_get(&f->s, v, "served", NULL), "true"));
    done(f);
    struct gl_arena a;
    gl_arena_init(&a);
    struct yt_stream s;
    assert_int_equal(yt_load_exact(&s, &a, t, strlen(t), 0), 0);
    v = yt_item(&s, yt_get(&s, yt_get(&s, s.docs[0], "spec", NULL), "versions", NULL), 0);
    assert_non_null(yt_get(&s, yt_get(&s, v, "schema", NULL), "openAPIV3Schema", NULL));
    gl_arena_free(&a);
}

static void test_alias_cost_by_size(void **st)
{
    (void)st;
    struct gl_buf b;
    big_text(&b, "big: &b %s\nm: &m {k: v}\ns: &s ok\nl:\n");
    for (int i = 0; i < 1002; i++)
        gl_buf_adds(&b, "- *b\n");
    gl_buf_adds(&b, "- *m\n- *s\n");
    struct fx *f = load(b.data, b.len);
    assert_int_equal(f->rc, 0);
    f->s.alias_budget = 100000;
    struct yt_node *l = yt_get(&f->s, f->s.docs[0], "l", NULL);
    for (size_t i = 0; i < 1002; i++) {
        struct yt_node *v = yt_item(&f->s, l, i);
        assert_true(yt_is_scalar(v));
        assert_int_equal(v->len, i < 1000 ? 1600 : 0);
        assert_int_equal(f->s.alias_exceeded, i >= 1000);
    }
    assert_loc(f->s.alias_loc, 1005, 3);
    assert_loc(yt_item(&f->s, l, 1001)->loc, 1005, 3);
    assert_null(yt_item(&f->s, l, 1002));
    assert_true(yt_scalar_is(yt_item(&f->s, l, 1003), "ok"));
    done(f);
    gl_buf_free(&b);
}

/* An alias to a collection pays at its first follow for the text the aliases inside it
 * name too (yt_node.named): `f` merges (or lists) the 1,600-byte `e`, so each alias to
 * `f`, a few bytes of text, reads e's 1,600 bytes; the inner `*e` is one node, paid for
 * once. Aliases of aliases add up; the billion laughs saturates. */
static void test_alias_cost_through_aliases(void **st)
{
    (void)st;
    struct gl_buf b;
    big_text(&b, "e: &e {k: %s}\nf: &f {<<: *e}\ng: &g [*e, [*f]]\nl: [*f, *f, *g]\n");
    struct fx *f = load(b.data, b.len);
    assert_int_equal(f->rc, 0);
    struct yt_node *e = yt_get(&f->s, f->s.docs[0], "e", NULL);
    assert_int_equal(e->named, 0);
    struct yt_node *fm = f->s.docs[0]->pairs[1].value, *g = f->s.docs[0]->pairs[2].value;
    struct yt_node *l = f->s.docs[0]->pairs[3].value, *inner = g->items[1];
    size_t se = e->end - e->start, sf = fm->end - fm->start, sg = g->end - g->start;
    assert_true(se > 1600 && sf < 16 && sg < 32);
    assert_int_equal(fm->named, se);
    assert_int_equal(inner->named, sf + se);
    assert_int_equal(g->named, se + sf + se);
    assert_int_equal(l->named, 2 * (sf + se) + (sg + 2 * se + sf));
    f->s.alias_used = 0;
    assert_ptr_equal(yt_item(&f->s, l, 0), fm);
    assert_int_equal(f->s.alias_used, 1 + (sf + se) / YT_ALIAS_UNIT_BYTES);
    assert_ptr_equal(yt_item(&f->s, l, 0), fm); /* (followed again: a unit) */
    assert_int_equal(f->s.alias_used, 2 + (sf + se) / YT_ALIAS_UNIT_BYTES);
    assert_ptr_equal(yt_item(&f->s, l, 2), g);
    assert_int_equal(f->s.alias_used, 3 + (sf + se) / YT_ALIAS_UNIT_BYTES +
                                          (sg + 2 * se + sf) / YT_ALIAS_UNIT_BYTES);
    done(f);
    gl_buf_free(&b);
    /* ten levels of ten aliases: named saturates, the first follow spends the budget */
    gl_buf_init(&b);
    gl_buf_adds(&b, "a0: &a0 [x]\n");
    for (int i = 1; i < 30; i++) {
        gl_buf_printf(&b, "a%d: &a%d [", i, i);
        for (int k = 0; k < 10; k++)
            gl_buf_printf(&b, "%s*a%d", k ? ", " : "", i - 1);
        gl_buf_adds(&b, "]\n");
    }
    gl_buf_adds(&b, "top: *a29\n");
    f = load(b.data, b.len);
    assert_int_equal(f->rc, 0);
    assert_int_equal(yt_get(&f->s, f->s.docs[0], "a29", NULL)->named, SIZE_MAX);
    assert_null(yt_get(&f->s, f->s.docs[0], "top", NULL));
    assert_true(f->s.alias_exceeded);
    assert_loc(f->s.alias_loc, 31, 6);
    done(f);
    gl_buf_free(&b);
}

/* ---- yt_load_exact: what libyaml gave before its first error, nothing more ---- */

static struct fx *load_exact(const char *text, size_t len, size_t max_depth)
{
    struct fx *f = calloc(1, sizeof *f);
    gl_arena_init(&f->a);
    f->rc = yt_load_exact(&f->s, &f->a, text, len, max_depth);
    return f;
}

static void test_exact_errors(void **st)
{
    (void)st;
    /* a bad byte: no second pass, libyaml's words kept */
    static const char bad[] = "a: 1\nb: x\0y\n";
    struct fx *f = load_exact(bad, sizeof bad - 1, 0);
    assert_int_equal(f->rc, -1);
    assert_int_equal(f->s.cause.kind, YT_ERR_READER);
    assert_int_equal(f->s.ndocs, 0);
    assert_loc(f->s.error_loc, 2, 5);
    assert_string_equal(f->s.cause.problem, "control characters are not allowed");
    done(f);
    /* a key whose value never came */
    const char *t = "drivr: \"abc";
    f = load_exact(t, strlen(t), 0);
    assert_int_equal(f->s.cause.kind, YT_ERR_SYNTAX);
    assert_string_equal(f->s.cause.problem, "found unexpected end of stream");
    assert_string_equal(f->s.cause.context, "while scanning a quoted scalar");
    assert_int_equal(f->s.docs[0]->npairs, 0);
    assert_false(f->s.docs[0]->complete);
    assert_true(yt_scalar_is(yt_pending_key(&f->s, f->s.docs[0]), "drivr"));
    done(f);
    /* nested deeper than the bound */
    f = load_exact("[[[[x]]]]", 9, 2);
    assert_int_equal(f->s.cause.kind, YT_ERR_LIMIT);
    assert_loc(f->s.error_loc, 1, 3);
    done(f);
    f = load_exact("a: *nope\n", 9, 0);
    assert_int_equal(f->s.cause.kind, YT_ERR_UNDEFINED_ALIAS);
    done(f);
}

static void test_exact_documents_and_ends(void **st)
{
    (void)st;
    const char *t = "a: 1\n--- b\n";
    struct fx *f = load_exact(t, strlen(t), 0);
    assert_int_equal(f->rc, 0);
    assert_int_equal(f->s.ndoc_starts, 2);
    assert_int_equal(f->s.doc_starts[1], 5); /* the `---` */
    assert_int_equal(f->s.ndoc_ends, 2);
    done(f);
    /* the second root is read, but libyaml fails before that document's end */
    t = "a: 1\n--- b: c\n";
    f = load_exact(t, strlen(t), 0);
    assert_int_equal(f->rc, -1);
    assert_int_equal(f->s.ndocs, 2);
    assert_int_equal(f->s.ndoc_ends, 1);
    done(f);
    /* at the end of the input libyaml moves to a new line */
    t = "a: {b";
    f = load_exact(t, strlen(t), 0);
    struct yt_node *b = f->s.docs[0]->pairs[0].value;
    assert_true(b->pairs[0].value->past_end);
    assert_false(b->pairs[0].key->past_end);
    assert_true(f->s.cause.past_end);
    done(f);
    f = load_exact("a:", 2, 0);
    assert_false(f->s.docs[0]->pairs[0].value->past_end);
    done(f);
}

static bool collect(struct yt_node *n, void *ctx)
{
    struct gl_buf *b = ctx;
    gl_buf_adds(b, n->kind == YT_SCALAR ? n->value
                   : n->kind == YT_MAP  ? "{"
                   : n->kind == YT_SEQ  ? "["
                                        : "*");
    return true;
}

static void test_exact_aliases_and_walk(void **st)
{
    (void)st;
    /* an alias to a node that encloses it, as libyaml's document loader allows */
    struct fx *f = load_exact("a: &x [*x]\n", 11, 0);
    assert_int_equal(f->rc, 0);
    struct yt_node *seq = f->s.docs[0]->pairs[0].value;
    assert_ptr_equal(seq->items[0]->target, seq);
    done(f);
    /* document order, aliases not followed, a pending key last */
    const char *t = "d: &x e\na: [b, {c: *x}]\nf: \"g";
    f = load_exact(t, strlen(t), 0);
    struct gl_buf b;
    gl_buf_init(&b);
    assert_true(yt_walk(&f->s, f->s.docs[0], collect, &b));
    assert_string_equal(gl_buf_str(&b), "{dea[b{c*f");
    gl_buf_free(&b);
    done(f);
}

static void test_pragmas(void **st)
{
    (void)st;
    const char *t = "a:\n  # gpulint ignore=GL403\n  b:\n    c: 1\n    d: 2\n  e: 3\n"
                    "# gpulint global ignore=GL411\n";
    struct gl_doc doc = {0};
    gl_arena_init(&doc.arena);
    doc.text = t;
    doc.len = strlen(t);
    struct yt_stream s;
    yt_load(&s, &doc.arena, t, strlen(t));
    yt_add_pragmas(&doc, &s);
    assert_int_equal(doc.nignores, 2);
    assert_int_equal(doc.ignores[0].first, 3);
    assert_int_equal(doc.ignores[0].last, 5);
    assert_string_equal(doc.ignores[0].ids[0], "GL403");
    assert_int_equal(doc.ignores[1].first, 0);
    gl_arena_free(&doc.arena);
}


/* yt_sniff keeps the last text loaded for the next judge: a judge must still get the
 * stream as loaded (the alias budget another judge spent does not carry over), and a
 * different text in the same buffer (same address, same length) must be loaded anew. */
static bool judge_spend(struct yt_stream *s)
{
    yt_charge(s, UINT64_MAX / 2, (struct gl_loc){1, 1});
    return s->alias_exceeded;
}

static bool judge_fresh(struct yt_stream *s) { return !s->alias_exceeded && !s->alias_used; }

static bool judge_has_a(struct yt_stream *s)
{
    return s->ndocs && yt_get(s, s->docs[0], "a", NULL) != NULL;
}

/* Follow l's alias to the 1,600-byte m: what it cost (each copy of the memo's stream pays
 * for m's text again; the nodes are shared, the charged marks were not to be) */
static uint64_t follow_cost;
static bool judge_follow(struct yt_stream *s)
{
    uint64_t before = s->alias_used;
    struct yt_node *m = yt_item(s, yt_get(s, s->docs[0], "l", NULL), 0);
    follow_cost = s->alias_used - before;
    return yt_is_map(m);
}

static void test_sniff_memo(void **st)
{
    (void)st;
    char buf[] = "a: 1\n";
    assert_true(yt_sniff(buf, strlen(buf), judge_spend));
    assert_true(yt_sniff(buf, strlen(buf), judge_fresh));
    assert_true(yt_sniff(buf, strlen(buf), judge_has_a));
    buf[0] = 'b'; /* same buffer, same length, another text */
    assert_false(yt_sniff(buf, strlen(buf), judge_has_a));
    buf[0] = 'a';
    assert_true(yt_sniff(buf, strlen(buf), judge_has_a));
    char big[1700];
    snprintf(big, sizeof big, "m: &m {k: %01600d}\nl: [*m]\n", 0);
    uint64_t want = 1 + (strchr(big, '}') + 1 - strchr(big, '{')) / YT_ALIAS_UNIT_BYTES;
    for (int judge = 0; judge < 3; judge++) {
        assert_true(yt_sniff(big, strlen(big), judge_follow));
        assert_int_equal(follow_cost, want);
    }
    struct gl_arena a;
    gl_arena_init(&a);
    struct yt_stream s; /* (the parse adopts the memo's tree) */
    assert_int_equal(yt_load(&s, &a, big, strlen(big)), 0);
    assert_true(judge_follow(&s));
    assert_int_equal(follow_cost, want);
    assert_true(judge_follow(&s)); /* (in one stream, paid once) */
    assert_int_equal(follow_cost, 1);
    gl_arena_free(&a);
    yt_sniff_thread_end();
}

/* Every node's position is that of its first byte, and a scalar's last line the line of
 * its last non-blank byte, whichever way the loader found them (libyaml's marks for an
 * ASCII text without CR, the line index otherwise). */
static bool check_node(struct yt_node *n, void *ctx)
{
    const struct yt_stream *s = ctx;
    if (!n->past_end) {
        struct gl_loc at = yt_loc_of(s, n->start);
        assert_loc(n->loc, at.line, at.col);
    }
    if (n->kind == YT_SCALAR) {
        size_t e = n->end;
        while (e > n->start && strchr(" \t\n\r", s->text[e - 1]))
            e--;
        assert_int_equal(n->last_line, yt_loc_of(s, e > n->start ? e - 1 : n->start).line);
    }
    return true;
}

static void check_positions(const char *text, size_t len)
{
    struct fx *f = load(text, len);
    for (size_t d = 0; d < f->s.ndocs; d++)
        yt_walk(&f->s, f->s.docs[d], check_node, &f->s);
    done(f);
}

static void corpus_positions(const char *name, const char *path, const char *text, size_t len)
{
    (void)name;
    (void)path;
    check_positions(text, len);
}

static void test_node_positions(void **st)
{
    (void)st;
    static const char *const texts[] = {
        "a: b\nc:\n  - d\n  - 'e\n    f'\n", "a: b\r\nc: |\r\n  x\r\n  y\r\n",
        "é: ü\nk: [x, y]\n", "k: v\n  # c\nl: >\n  folded\n\n  more\n\nm: end",
        "- a\n- b", "a:\n  b:\n    c: d   \n", "x: \"a\n  b\"\ny: z\n"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        check_positions(texts[i], strlen(texts[i]));
    assert_true(test_each_yaml_file(GPULINT_CORPUS_DIR "/compose", corpus_positions) > 0);
    assert_true(test_each_yaml_file(GPULINT_CORPUS_DIR "/k8s", corpus_positions) > 0);
}

/* yt_duplicate_key: the earliest key that repeats one of its mapping, and the key it
 * repeats, on random mappings of 2 to 20 keys (small ones compare each pair, larger ones
 * sort), against every pair compared here. */
static bool expect_dup(struct yt_node *n, void *ctx)
{
    struct yt_node **best = ctx; /* best[0]: the duplicate, best[1]: the key it repeats */
    for (size_t j = 0; n->kind == YT_MAP && j < n->npairs; j++)
        for (size_t i = 0; i < j; i++) {
            struct yt_node *a = n->pairs[i].key, *b = n->pairs[j].key;
            if (a->kind == YT_SCALAR && b->kind == YT_SCALAR && a->len == b->len &&
                !memcmp(a->value, b->value, a->len) && strcmp(a->value, "<<") &&
                (!best[0] || b->start < best[0]->start)) {
                best[0] = b;
                best[1] = a;
            }
        }
    return true;
}

static void test_duplicate_keys(void **st)
{
    (void)st;
    uint64_t r = 12345;
    char text[4096];
    for (int round = 0; round < 400; round++) {
        size_t n = 0;
        for (int m = 0; m < 3; m++) {
            n += (size_t)snprintf(text + n, sizeof text - n, "m%d:\n", m);
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            int keys = 2 + (int)((r >> 33) % 19);
            for (int k = 0; k < keys; k++) {
                r = r * 6364136223846793005ull + 1442695040888963407ull;
                unsigned v = (unsigned)(r >> 33) % (unsigned)(keys * 3);
                n += (size_t)snprintf(text + n, sizeof text - n, "  k%u: %d\n", v, k);
            }
        }
        struct fx *f = load(text, n);
        struct yt_node *best[2] = {NULL, NULL}, *first = NULL;
        for (size_t d = 0; d < f->s.ndocs; d++)
            yt_walk(&f->s, f->s.docs[d], expect_dup, best);
        struct yt_node *dup = yt_duplicate_key(&f->s, &first);
        assert_ptr_equal(dup, best[0]);
        assert_ptr_equal(first, best[1]);
        done(f);
    }
}

/* The value and key a scan finds for name in map's own pairs (merge keys skipped), or in
 * the pairs of the mapping it merges (the test's merges name one, merged: no merges of
 * its own). */
static struct yt_node *scan_get(struct fx *f, struct yt_node *map, struct yt_node *merged,
                                const char *name, struct yt_node **key)
{
    for (struct yt_node *m = map; m; m = m == map ? merged : NULL) {
        for (size_t i = m->npairs; i-- > 0;) { /* (the last of equal keys) */
            struct yt_node *k = yt_deref(&f->s, m->pairs[i].key);
            if (yt_is_scalar(k) && k->len == strlen(name) && !memcmp(k->value, name, k->len) &&
                !(k->len == 2 && !memcmp(k->value, "<<", 2) && k->style == YT_PLAIN)) {
                *key = m->pairs[i].key;
                return yt_deref(&f->s, m->pairs[i].value);
            }
        }
    }
    *key = NULL;
    return NULL;
}

/* yt_get answers from a mapping's own pairs as a scan of them would, present keys and
 * absent ones (of the same lengths and first bytes too: the keymask only rules out keys
 * no pair can hold), with an alias or a collection among the keys as well, and with a
 * merge key whose mapping is big too (both looked up through their key hashes). */
static void test_get_against_scan(void **st)
{
    (void)st;
    static const char *const names[] = {"a", "b", "ab", "ba", "image", "imagf", "jmage", "env",
                                        "envx", "", "args", "argv", "k1", "k2", "resources",
                                        "v", "g5", "<<"};
    size_t nn = sizeof names / sizeof names[0];
    uint64_t r = 99;
    char text[8192];
    /* from round 150 on, mappings of 30 to 99 pairs: most past YT_KEY_INDEX_MIN, so
       looked up through their key hash (repeated names: the last of equal keys wins;
       an alias or a sequence among the keys, at any place: the alias found as the scalar
       it names, the sequence never), with fillers `f<k>` */
    for (int round = 0; round < 300; round++) {
        size_t n = (size_t)snprintf(text, sizeof text, "x: &x v\nm: &m {image: i, v: w");
        for (int g = 0; g < 40; g++)
            n += (size_t)snprintf(text + n, sizeof text - n, ", g%d: %d", g, g);
        n += (size_t)snprintf(text + n, sizeof text - n, "}\n");
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        int keys = round < 150 ? 1 + (int)((r >> 33) % 8) : 30 + (int)((r >> 33) % 70);
        int odd_at = (int)((r >> 20) % (unsigned)keys);
        for (int k = 0; k < keys; k++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            if (round >= 150 && (r >> 40) % 3 == 0)
                n += (size_t)snprintf(text + n, sizeof text - n, "f%d: %d\n", k, k);
            else
                n += (size_t)snprintf(text + n, sizeof text - n, "\"%s\": %d\n",
                                      names[(r >> 33) % nn], k);
            if (k == odd_at && round % 5 == 1)
                n += (size_t)snprintf(text + n, sizeof text - n, "*x : alias\n");
            if (k == odd_at && round % 5 == 2)
                n += (size_t)snprintf(text + n, sizeof text - n, "? [c, d]\n: seq\n");
            if (k == odd_at && round % 5 == 3)
                n += (size_t)snprintf(text + n, sizeof text - n, "<<: *m\n");
        }
        struct fx *f = load(text, n);
        struct yt_node *map = f->s.docs[0];
        assert_true(yt_is_map(map));
        struct yt_node *merged = map->merges ? yt_get(&f->s, map, "m", NULL) : NULL;
        for (size_t q = 0; q < nn; q++) {
            struct yt_node *want_key, *key = NULL;
            struct yt_node *want = scan_get(f, map, merged, names[q], &want_key);
            assert_ptr_equal(yt_get(&f->s, map, names[q], &key), want);
            assert_ptr_equal(key, want_key);
        }
        done(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_positions_bytes),
        cmocka_unit_test(test_literal_srcmap_exact),
        cmocka_unit_test(test_folded_srcmap),
        cmocka_unit_test(test_multiline_plain),
        cmocka_unit_test(test_merge_keys),
        cmocka_unit_test(test_merge_sources_past_visits),
        cmocka_unit_test(test_repeated_key_last),
        cmocka_unit_test(test_yaml_template_names),
        cmocka_unit_test(test_multi_document),
        cmocka_unit_test(test_alias_bomb_bounded),
        cmocka_unit_test(test_deep_nesting_error),
        cmocka_unit_test(test_invalid_yaml_location),
        cmocka_unit_test(test_nul_and_bad_utf8),
        cmocka_unit_test(test_escaped_nul_shown),
        cmocka_unit_test(test_bad_byte_keeps_lines_before),
        cmocka_unit_test(test_recursive_and_undefined_alias),
        cmocka_unit_test(test_load_keeping),
        cmocka_unit_test(test_load_at_line),
        cmocka_unit_test(test_schema_not_kept),
        cmocka_unit_test(test_alias_cost_by_size),
        cmocka_unit_test(test_alias_cost_through_aliases),
        cmocka_unit_test(test_pragmas),
        cmocka_unit_test(test_exact_errors),
        cmocka_unit_test(test_exact_documents_and_ends),
        cmocka_unit_test(test_exact_aliases_and_walk),
        cmocka_unit_test(test_sniff_memo),
        cmocka_unit_test(test_node_positions),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_get_against_scan),
        cmocka_unit_test(test_loc_at_map_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
