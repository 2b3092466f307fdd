/* SPDX-License-Identifier: Apache-2.0 */
/* test_yaml_prefill.c: libyaml gives the same events and errors with its input prefilled
 * (parsers/yaml/yaml_prefill.h) as when its reader reads it: on every YAML file of the
 * repository (fixtures/, tests/) and on mutations of each (bytes changed, inserted,
 * the text cut short), with valid and invalid UTF-8, control characters and NULs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parsers/yaml/yaml_prefill.h"

static void mark_eq(yaml_mark_t a, yaml_mark_t b)
{
    assert_int_equal(a.index, b.index);
    assert_int_equal(a.line, b.line);
    assert_int_equal(a.column, b.column);
}

static void str_eq(const yaml_char_t *a, const yaml_char_t *b)
{
    assert_true((a == NULL) == (b == NULL));
    if (a)
        assert_string_equal((const char *)a, (const char *)b);
}

/* A collection's start (the same members in either kind). */
#define collection_eq(kind)                                                          \
    do {                                                                             \
        str_eq(a->data.kind.anchor, b->data.kind.anchor);                            \
        str_eq(a->data.kind.tag, b->data.kind.tag);                                  \
        assert_int_equal(a->data.kind.implicit, b->data.kind.implicit);              \
        assert_int_equal(a->data.kind.style, b->data.kind.style);                    \
    } while (0)

static void event_eq(const yaml_event_t *a, const yaml_event_t *b)
{
    assert_int_equal(a->type, b->type);
    mark_eq(a->start_mark, b->start_mark);
    mark_eq(a->end_mark, b->end_mark);
    switch (a->type) {
    case YAML_STREAM_START_EVENT:
        assert_int_equal(a->data.stream_start.encoding, b->data.stream_start.encoding);
        break;
    case YAML_DOCUMENT_START_EVENT:
        assert_int_equal(a->data.document_start.implicit, b->data.document_start.implicit);
        assert_true((a->data.document_start.version_directive == NULL) ==
                    (b->data.document_start.version_directive == NULL));
        assert_int_equal(a->data.document_start.tag_directives.end -
                             a->data.document_start.tag_directives.start,
                         b->data.document_start.tag_directives.end -
                             b->data.document_start.tag_directives.start);
        break;
    case YAML_DOCUMENT_END_EVENT:
        assert_int_equal(a->data.document_end.implicit, b->data.document_end.implicit);
        break;
    case YAML_ALIAS_EVENT: str_eq(a->data.alias.anchor, b->data.alias.anchor); break;
    case YAML_SCALAR_EVENT:
        str_eq(a->data.scalar.anchor, b->data.scalar.anchor);
        str_eq(a->data.scalar.tag, b->data.scalar.tag);
        assert_int_equal(a->data.scalar.length, b->data.scalar.length);
        assert_memory_equal(a->data.scalar.value, b->data.scalar.value, a->data.scalar.length);
        assert_int_equal(a->data.scalar.plain_implicit, b->data.scalar.plain_implicit);
        assert_int_equal(a->data.scalar.quoted_implicit, b->data.scalar.quoted_implicit);
        assert_int_equal(a->data.scalar.style, b->data.scalar.style);
        break;
    case YAML_SEQUENCE_START_EVENT: collection_eq(sequence_start); break;
    case YAML_MAPPING_START_EVENT: collection_eq(mapping_start); break;
    default: break;
    }
}

static size_t prefilled, texts;

/* Parse text both ways, event by event; the same events, then the same end or error. */
static void same_both_ways(const char *text, size_t len)
{
    yaml_parser_t a, b;
    assert_true(yaml_parser_initialize(&a));
    assert_true(yaml_parser_initialize(&b));
    yaml_parser_set_input_string(&a, (const unsigned char *)text, len);
    yaml_parser_set_input_string(&b, (const unsigned char *)text, len);
    yaml_parser_set_encoding(&a, YAML_UTF8_ENCODING);
    yaml_parser_set_encoding(&b, YAML_UTF8_ENCODING);
    bool did = yt_prefill(&b, text, len, yt_reader_chars(text, len));
    prefilled += did;
    texts++;
    /* a text is prefilled exactly when it fits and every character passes the reader */
    if (len + 16 < 16384 * 3)
        assert_int_equal(did, yt_reader_chars(text, len) != (size_t)-1);
    for (int guard = 0; guard < 1000000; guard++) {
        yaml_event_t ea, eb;
        int ra = yaml_parser_parse(&a, &ea), rb = yaml_parser_parse(&b, &eb);
        assert_int_equal(ra, rb);
        if (!ra) {
            assert_int_equal(a.error, b.error);
            assert_true((a.problem == NULL) == (b.problem == NULL));
            if (a.problem)
                assert_string_equal(a.problem, b.problem);
            assert_true((a.context == NULL) == (b.context == NULL));
            if (a.context)
                assert_string_equal(a.context, b.context);
            mark_eq(a.problem_mark, b.problem_mark);
            mark_eq(a.context_mark, b.context_mark);
            if (a.error == YAML_READER_ERROR) {
                assert_false(did); /* a text the reader refuses is never prefilled */
                assert_int_equal(a.problem_offset, b.problem_offset);
                assert_int_equal(a.problem_value, b.problem_value);
            }
            break;
        }
        event_eq(&ea, &eb);
        bool end = ea.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ea);
        yaml_event_delete(&eb);
        if (end)
            break;
    }
    yaml_parser_delete(&a);
    yaml_parser_delete(&b);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Bytes a mutation puts in: YAML's indicators, blanks, line breaks, control bytes, parts
 * of UTF-8 sequences (valid, overlong, surrogate, out of range), NEL, BOM. */
static const char *const pieces[] = {
    ":", " ", "-", "\n", "\r\n", "\t", "'", "\"", "#", "&a", "*a", "!t", "|", ">", "[", "]",
    "{", "}", ",", "?", "---", "...", "%YAML 1.1\n", "\\", "\x01", "\x7f", "\0", "\x1b",
    "\xc3\xa9", "\xc3", "\xa9", "\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
    "\xef\xbf\xbe", "\xef\xbf\xbd", "\xf0\x9f\x99\x82", "\xc2\x85", "\xc2\x80", "\xef\xbb\xbf",
    "\xe2\x80\xa8"};

static void mutations(const char *text, size_t len)
{
    size_t cap = len + 64;
    char *m = malloc(cap);
    assert_non_null(m);
    for (int round = 0; round < 24; round++) {
        size_t n = len;
        memcpy(m, text, len);
        int kind = (int)(next_rand() % 3);
        size_t at = len ? (size_t)(next_rand() % (len + 1)) : 0;
        if (kind == 0) {
            n = at; /* cut short */
        } else {
            const char *piece = pieces[next_rand() % (sizeof pieces / sizeof pieces[0])];
            size_t pl = piece[0] ? strlen(piece) : 1;
            if (kind == 1 && at + pl <= len) { /* bytes changed */
                memcpy(m + at, piece, pl);
            } else { /* bytes inserted */
                memmove(m + at + pl, m + at, len - at);
                memcpy(m + at, piece, pl);
                n = len + pl;
            }
        }
        same_both_ways(m, n);
    }
    free(m);
}

static char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

static bool yaml_name(const char *name)
{
    size_t l = strlen(name);
    return (l > 4 && !strcmp(name + l - 4, ".yml")) || (l > 5 && !strcmp(name + l - 5, ".yaml"));
}

/* Every .yml/.yaml file under dir, recursively. */
static size_t each_file(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return 0;
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st))
            continue;
        if (S_ISDIR(st.st_mode)) {
            files += each_file(path);
        } else if (S_ISREG(st.st_mode) && yaml_name(e->d_name)) {
            size_t len;
            char *text = read_whole(path, &len);
            if (!text)
                continue;
            same_both_ways(text, len);
            mutations(text, len);
            free(text);
            files++;
        }
    }
    closedir(dp);
    return files;
}

static void test_repository_files(void **st)
{
    (void)st;
    prefilled = texts = 0;
    size_t files = each_file(GPULINT_SOURCE_DIR "/fixtures") + each_file(GPULINT_SOURCE_DIR "/tests");
    assert_true(files > 100);
    /* most are prefilled; the mutations give many that are not */
    assert_true(prefilled > files / 2);
    assert_true(prefilled < texts);
}

static void test_small_texts(void **st)
{
    (void)st;
    static const char *const texts_[] = {
        "", "a", "a: b", "a: b\n", "- x\n- y\n", "k: |\n  line\n", "? a\n: b\n", "---\n...\n",
        "--", "---", "a: 'x", "[a, b", "{a: 1}", "&a x: *a", "a: b\n  c: d\n", "\xef\xbb\xbfk: v\n",
        "k: v\r\nj: w\r\n", "a:\tb\n", "é: ü\n", "k: \xc2\x85x\n", "#c", "a: b #c", "x: \"\\u00e9\"\n",
        "a: \x01\n", "a: \xc3\n", "a: \xed\xa0\x80\n", "a: \x7f\n", "a: \xef\xbf\xbe\n"};
    for (size_t i = 0; i < sizeof texts_ / sizeof texts_[0]; i++)
        same_both_ways(texts_[i], strlen(texts_[i]));
    /* ends of every length up to 40 of a text with each kind of node */
    const char *t = "a: &x [1, 'two', \"th\\tree\"]\nb: *x\nc: >\n  folded\n  text\nd:\n  - e\n";
    for (size_t n = 0; n <= strlen(t); n++)
        same_both_ways(t, n);
}

static void test_reader_chars(void **st)
{
    (void)st;
    assert_int_equal(yt_reader_chars("", 0), 0);
    assert_int_equal(yt_reader_chars("a: b\n", 5), 5);
    assert_int_equal(yt_reader_chars("é", 2), 1);
    assert_int_equal(yt_reader_chars("x\xf0\x9f\x99\x82y", 6), 3);
    assert_int_equal(yt_reader_chars("\xc2\x85", 2), 1);      /* NEL */
    assert_int_equal(yt_reader_chars("\xef\xbb\xbf", 3), 1);  /* BOM */
    size_t bad = (size_t)-1;
    assert_int_equal(yt_reader_chars("a\0b", 3), bad);
    assert_int_equal(yt_reader_chars("\x1b", 1), bad);
    assert_int_equal(yt_reader_chars("\x7f", 1), bad);
    assert_int_equal(yt_reader_chars("\xc2\x80", 2), bad);    /* C1 control */
    assert_int_equal(yt_reader_chars("\xc0\x80", 2), bad);    /* overlong */
    assert_int_equal(yt_reader_chars("\xed\xa0\x80", 3), bad); /* surrogate */
    assert_int_equal(yt_reader_chars("\xef\xbf\xbe", 3), bad); /* U+FFFE */
    assert_int_equal(yt_reader_chars("\xf4\x90\x80\x80", 4), bad);
    assert_int_equal(yt_reader_chars("\xe2\x80", 2), bad);    /* cut short */
    assert_int_equal(yt_reader_chars("\x80", 1), bad);
    /* a long ASCII run (the sixteen-byte steps) with one bad byte at each place */
    char buf[100];
    memset(buf, 'a', sizeof buf);
    assert_int_equal(yt_reader_chars(buf, sizeof buf), sizeof buf);
    for (size_t i = 0; i < sizeof buf; i++) {
        buf[i] = '\x05';
        assert_int_equal(yt_reader_chars(buf, sizeof buf), bad);
        buf[i] = '\n';
        assert_int_equal(yt_reader_chars(buf, sizeof buf), sizeof buf);
        buf[i] = 'a';
    }
}

static void test_long_text_not_prefilled(void **st)
{
    (void)st;
    /* longer than libyaml's working buffer: libyaml reads it in its chunks */
    size_t n = 200000;
    char *t = malloc(n);
    for (size_t i = 0; i < n; i += 10)
        memcpy(t + i, "- abcdefg\n", 10);
    yaml_parser_t p;
    assert_true(yaml_parser_initialize(&p));
    yaml_parser_set_input_string(&p, (const unsigned char *)t, n);
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    assert_false(yt_prefill(&p, t, n, yt_reader_chars(t, n)));
    yaml_parser_delete(&p);
    same_both_ways(t, n);
    same_both_ways(t, 40000);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_chars),
        cmocka_unit_test(test_small_texts),
        cmocka_unit_test(test_long_text_not_prefilled),
        cmocka_unit_test(test_repository_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
