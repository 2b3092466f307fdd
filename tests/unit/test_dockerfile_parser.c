/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dockerfile_parser.c: positions, escapes, line endings and hostile input for the
 * Dockerfile parser, and the BuildKit-compatible word expander.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parsers/dockerfile/dockerfile.h"
#include "parsers/dockerfile/dockerfile_internal.h"

static struct gl_arena arena;

static int setup(void **state)
{
    (void)state;
    gl_arena_init(&arena);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gl_arena_free(&arena);
    return 0;
}

static struct df_file *parse(const char *s)
{
    struct df_error err;
    struct df_file *f = df_parse(&arena, s, strlen(s), &err);
    if (!f)
        print_message("parse error %u:%u %s\n", err.loc.line, err.loc.col, err.message);
    return f;
}

static void assert_loc(struct gl_loc l, uint32_t line, uint32_t col)
{
    if (l.line != line || l.col != col)
        print_message("loc %u:%u, want %u:%u\n", l.line, l.col, line, col);
    assert_int_equal(l.line, line);
    assert_int_equal(l.col, col);
}

static void assert_dump(const struct df_file *f, const char *want)
{
    struct gl_buf b;
    gl_buf_init(&b);
    df_dump(f, &b);
    assert_string_equal(gl_buf_str(&b), want);
    gl_buf_free(&b);
}

static void test_positions(void **state)
{
    (void)state;
    struct df_file *f = parse("FROM base AS b\n\n  copy --from=b --chmod=755 a /x\n"
                              "ENV A=1 B=\"two words\"\n");
    assert_non_null(f);
    assert_int_equal(f->ninstrs, 3);
    assert_loc(f->instrs[0].loc, 1, 1);
    assert_loc(f->instrs[0].args[1].loc, 1, 11);
    assert_loc(f->instrs[0].args[2].loc, 1, 14);
    const struct df_instr *cp = &f->instrs[1];
    assert_string_equal(cp->keyword, "copy");
    assert_loc(cp->loc, 3, 3);
    assert_int_equal(cp->nflags, 2);
    assert_string_equal(cp->flags[1].text, "--chmod=755");
    assert_loc(cp->flags[1].loc, 3, 17);
    assert_loc(cp->args[0].loc, 3, 29);
    assert_loc(cp->args[1].loc, 3, 31);
    const struct df_instr *env = &f->instrs[2];
    assert_int_equal(env->nkvs, 2);
    assert_string_equal(env->args[env->kvs[1].key].value, "B");
    assert_loc(env->args[env->kvs[1].key].loc, 4, 9);
    assert_string_equal(env->args[env->kvs[1].value].value, "\"two words\"");
    assert_loc(env->args[env->kvs[1].value].loc, 4, 11);
    assert_loc(env->args[env->kvs[1].sep].loc, 4, 10);
}

static void test_continued_run_offsets(void **state)
{
    (void)state;
    struct df_file *f = parse("FROM x\nRUN apt-get update \\\n# comment\n\n    && make \\\n\tinstall\n");
    assert_non_null(f);
    const struct df_instr *run = &f->instrs[1];
    assert_int_equal(run->start_line, 2);
    assert_int_equal(run->end_line, 6);
    assert_string_equal(run->args[0].value, "apt-get update     && make \tinstall");
    const char *v = run->args[0].value;
    assert_loc(df_arg_loc(run, 0, 0), 2, 5);
    assert_loc(df_arg_loc(run, 0, (size_t)(strstr(v, "update") - v)), 2, 13);
    assert_loc(df_arg_loc(run, 0, (size_t)(strstr(v, "&&") - v)), 5, 5);
    assert_loc(df_arg_loc(run, 0, (size_t)(strstr(v, "make") - v)), 5, 8);
    assert_loc(df_arg_loc(run, 0, (size_t)(strstr(v, "install") - v)), 6, 2);
    assert_int_equal(f->ncomments, 1);
    assert_string_equal(f->comments[0].text, " comment");
    assert_loc(f->comments[0].loc, 3, 1);
    assert_loc(df_arg_loc(run, 9, 0), 0, 0);
}

static void test_json_positions(void **state)
{
    (void)state;
    struct df_file *f = parse("CMD [\"a\\tb\", \\\n  \"c\"]\n");
    assert_non_null(f);
    const struct df_instr *cmd = &f->instrs[0];
    assert_true(cmd->json);
    assert_int_equal(cmd->nargs, 2);
    assert_string_equal(cmd->args[0].value, "a\tb");
    assert_loc(df_arg_loc(cmd, 0, 2), 1, 10);
    assert_loc(cmd->args[1].loc, 2, 4);
}

static void test_backtick_escape_and_directives(void **state)
{
    (void)state;
    struct df_file *f = parse("# syntax=docker/dockerfile:1\n# ESCAPE = `\n# check=skip=all\n"
                              "FROM windows\nRUN dir c:\\ `\n  && echo hi\n# gpulint ignore=GL101\n");
    assert_non_null(f);
    assert_int_equal(f->escape, '`');
    assert_int_equal(f->ndirectives, 3);
    assert_string_equal(f->directives[1].name, "escape");
    assert_string_equal(f->directives[1].value, "`");
    assert_loc(f->directives[1].value_loc, 2, 12);
    assert_string_equal(f->directives[2].value, "skip=all");
    assert_string_equal(f->instrs[1].args[0].value, "dir c:\\   && echo hi");
    assert_int_equal(f->ncomments, 1);
    assert_string_equal(f->comments[0].text, " gpulint ignore=GL101");
    struct df_error err;
    assert_null(df_parse(&arena, "# escape=x\nFROM a\n", 18, &err));
    assert_loc(err.loc, 1, 10);
    assert_null(df_parse(&arena, "# syntax=a\n# syntax=b\nFROM a\n", 29, &err));
    assert_loc(err.loc, 2, 1);
}

static void test_crlf_and_bom(void **state)
{
    (void)state;
    struct df_file *f = parse("\xEF\xBB\xBF" "FROM a\r\nRUN echo \\\r\n  hi\r\nENV K v\r\n");
    assert_non_null(f);
    assert_dump(f, "(from \"a\")\n(run \"echo   hi\")\n(env \"K\" \"v\" \"\")\n");
    assert_loc(f->instrs[0].loc, 1, 4);
    assert_loc(f->instrs[0].args[0].loc, 1, 9);
    assert_loc(df_arg_loc(&f->instrs[1], 0, 7), 3, 3);
}

static void test_flags_onbuild_health(void **state)
{
    (void)state;
    struct df_file *f = parse("FROM --platform=$BUILDPLATFORM a\n"
                              "RUN --mount=type=cache,target=/r --network=none make\n"
                              "ONBUILD ONBUILD RUN <<EOF\nx\nEOF\n"
                              "HEALTHCHECK --interval=5s CMD [\"curl\", \"-f\"]\n"
                              "MAINTAINER Me <me@x>\nBOGUS thing\n");
    assert_non_null(f);
    assert_dump(f, "(from [\"--platform=$BUILDPLATFORM\"] \"a\")\n"
                   "(run [\"--mount=type=cache,target=/r\" \"--network=none\"] \"make\")\n"
                   "(onbuild (onbuild (run \"<<EOF\")))\n(x \"\")\n(eof \"\")\n"
                   "(healthcheck [\"--interval=5s\"] \"CMD\" \"curl\" \"-f\")\n"
                   "(maintainer \"Me <me@x>\")\n(bogus \"\")\n");
    /* ONBUILD ONBUILD: BuildKit looks for heredocs one level down only */
    assert_int_equal(f->instrs[2].nheredocs, 0);
    assert_int_equal(f->ninstrs, 8);
}

static void test_heredocs(void **state)
{
    (void)state;
    struct df_file *f = parse("FROM a\nCOPY <<-'A' 3<<B /d\n\tone\n\tA\ntwo\nB\nONBUILD RUN <<X\nbody\nX\n");
    assert_non_null(f);
    const struct df_instr *cp = &f->instrs[1];
    assert_int_equal(cp->nheredocs, 2);
    assert_string_equal(cp->heredocs[0].name, "A");
    assert_false(cp->heredocs[0].expand);
    assert_true(cp->heredocs[0].chomp);
    assert_string_equal(cp->heredocs[0].content, "\tone\n");
    assert_loc(cp->heredocs[0].loc, 2, 6);
    assert_int_equal(cp->heredocs[1].fd, 3);
    assert_string_equal(cp->heredocs[1].content, "two\n");
    assert_loc(cp->heredocs[1].body, 5, 1);
    assert_int_equal(cp->end_line, 6);
    assert_int_equal(f->instrs[2].nheredocs, 1);
    assert_string_equal(f->instrs[2].heredocs[0].content, "body\n");
    /* JSON form and other keywords: no heredocs */
    f = parse("FROM a\nRUN [\"<<EOF\"]\nUSER <<EOF\nEOF\n");
    assert_non_null(f);
    assert_int_equal(f->ninstrs, 4);
}

static void test_unterminated_heredoc(void **state)
{
    (void)state;
    struct df_error err;
    const char *s = "FROM a\nRUN cat <<EOF\nhello\n";
    assert_null(df_parse(&arena, s, strlen(s), &err));
    assert_loc(err.loc, 2, 9);
    assert_non_null(strstr(err.message, "unterminated heredoc"));
}

static void test_errors(void **state)
{
    (void)state;
    struct df_error err;
    const char *s = "FROM a\nCMD [\"a\", 1]\n";
    assert_null(df_parse(&arena, s, strlen(s), &err));
    assert_loc(err.loc, 2, 11);
    s = "FROM a\nENV a=b c\n";
    assert_null(df_parse(&arena, s, strlen(s), &err));
    assert_loc(err.loc, 2, 9);
    s = "FROM a\nLABEL x\n";
    assert_null(df_parse(&arena, s, strlen(s), &err));
    assert_loc(err.loc, 2, 8);
    assert_null(df_parse(&arena, "", 0, &err));
    assert_int_equal(err.loc.line, 1);
    assert_null(df_parse(&arena, NULL, 0, &err));
}

static void test_hostile_bytes(void **state)
{
    (void)state;
    static const char s[] = "FROM a\0b\nRUN \xff\xfe echo\nENV k=\xc3\nLABEL \x80=\x81\n"
                            "CMD [\"\xff\"]\nCOPY --chown=\xe9 a b\n";
    struct df_error err;
    struct df_file *f = df_parse(&arena, s, sizeof s - 1, &err);
    assert_non_null(f);
    assert_int_equal(f->instrs[0].args[0].len, 3);
    assert_dump(f, "(from \"a\\x00b\")\n(run \"\\xff\\xfe echo\")\n"
                   "(env \"k\" \"\xef\xbf\xbd\" \"=\")\n(label \"\xef\xbf\xbd\" \"\xef\xbf\xbd\" \"=\")\n"
                   "(cmd \"\xef\xbf\xbd\")\n(copy [\"--chown=\xc3\xa9\"] \"a\" \"b\")\n");
    /* every prefix of a nasty input must parse or fail cleanly */
    static const char nasty[] = "# escape=`\nFROM a\nRUN <<\"E\" `\n ${x:-${y}} '\n\"E\"\nE\n"
                                "CMD [[[[\"\\ud800\"]]]]\nONBUILD ONBUILD\n";
    for (size_t n = 0; n <= sizeof nasty - 1; n++)
        (void)df_parse(&arena, nasty, n, &err);
}

static char *repeat(const char *prefix, const char *unit, size_t times, const char *suffix)
{
    size_t pl = strlen(prefix), ul = strlen(unit), sl = strlen(suffix);
    char *s = xmalloc(pl + ul * times + sl + 1);
    memcpy(s, prefix, pl);
    for (size_t i = 0; i < times; i++)
        memcpy(s + pl + i * ul, unit, ul);
    memcpy(s + pl + ul * times, suffix, sl + 1);
    return s;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_huge_line(void **state)
{
    (void)state;
    char *s = repeat("FROM a\nRUN ", "echo x; ", 10 * 1024 * 1024 / 8, "\nENV ");
    char *s2 = repeat("FROM a\nENV ", "k=v ", 2 * 1024 * 1024 / 4, "\n");
    struct df_error err;
    double t0 = now();
    /* BuildKit's scanner refuses lines over 64 KiB */
    assert_null(df_parse(&arena, s, strlen(s), &err));
    assert_loc(err.loc, 2, 65536);
    struct df_file *f = df_parse_ex(&arena, s, strlen(s), DF_PARSE_NO_LINE_LIMIT, &err);
    assert_non_null(f);
    assert_int_equal(f->instrs[1].args[0].len, 10 * 1024 * 1024 - 1);
    f = df_parse_ex(&arena, s2, strlen(s2), DF_PARSE_NO_LINE_LIMIT, &err);
    assert_non_null(f);
    assert_int_equal(f->instrs[1].nkvs, 2 * 1024 * 1024 / 4);
    double dt = now() - t0;
    print_message("10 MB RUN line + 2 MB ENV line parsed in %.2fs\n", dt);
    assert_true(dt < 20.0);
    free(s);
    free(s2);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    struct df_error err;
    char *onb = repeat("", "ONBUILD ", 200000, "RUN x\n");
    struct df_file *f = df_parse_ex(&arena, onb, strlen(onb), DF_PARSE_NO_LINE_LIMIT, &err);
    assert_non_null(f);
    struct gl_buf b;
    gl_buf_init(&b);
    df_dump(f, &b);
    assert_true(b.len > 200000 * 10);
    gl_buf_free(&b);
    char *json = repeat("CMD ", "[", 1000000, "\n");
    f = df_parse_ex(&arena, json, strlen(json), DF_PARSE_NO_LINE_LIMIT, &err);
    assert_non_null(f);
    assert_false(f->instrs[0].json);
    char *var = repeat("FROM a\nRUN ", "${a:-", 100000, "<<EOF\n");
    f = df_parse_ex(&arena, var, strlen(var), DF_PARSE_NO_LINE_LIMIT, &err);
    assert_non_null(f);
    free(onb);
    free(json);
    free(var);
}

/* ---- expander ---- */
static const char *lookup(void *ctx, const char *name, size_t len)
{
    (void)ctx;
    if (len == 4 && memcmp(name, "CUDA", 4) == 0)
        return "12.4";
    if (len == 5 && memcmp(name, "EMPTY", 5) == 0)
        return "";
    return NULL;
}

static void expect_expand(const char *in, char esc, const char *want, bool want_unresolved)
{
    char *out;
    size_t len;
    bool unresolved;
    struct df_error err;
    assert_true(df_expand_word(&arena, in, strlen(in), esc, lookup, NULL, &out, &len,
                               &unresolved, &err));
    if (strcmp(out, want) != 0)
        print_message("expand(%s) = [%s], want [%s]\n", in, out, want);
    assert_string_equal(out, want);
    assert_int_equal(unresolved, want_unresolved);
}

static void test_expand(void **state)
{
    (void)state;
    expect_expand("nvidia/cuda:$CUDA-base", '\\', "nvidia/cuda:12.4-base", false);
    expect_expand("${CUDA}x", '\\', "12.4x", false);
    expect_expand("${NOPE:-11.8}", '\\', "11.8", false);
    expect_expand("${EMPTY:-d}|${EMPTY-d}", '\\', "d|", false);
    expect_expand("${CUDA:+on}|${NOPE:+on}|${EMPTY+set}", '\\', "on||set", false);
    expect_expand("$NOPE/x", '\\', "/x", true);
    expect_expand("'$CUDA' \"$CUDA\" \\$CUDA", '\\', "$CUDA 12.4 $CUDA", false);
    expect_expand("`$CUDA \"a`\"b\"", '`', "$CUDA a\"b", false);
    expect_expand("${CUDA%.4}-${CUDA#12.}", '\\', "12-4", false);
    expect_expand("$ $1 a$", '\\', "$  a$", true);
    char *out;
    size_t len;
    bool unresolved;
    struct df_error err;
    assert_false(df_expand_word(&arena, "${CUDA", 6, '\\', lookup, NULL, &out, &len,
                                &unresolved, &err));
    assert_false(df_expand_word(&arena, "${}", 3, '\\', lookup, NULL, &out, &len, &unresolved, &err));
    assert_false(df_expand_word(&arena, "'abc", 4, '\\', lookup, NULL, &out, &len, &unresolved, &err));
    assert_false(df_expand_word(&arena, "${CUDA:=x}", 10, '\\', lookup, NULL, &out, &len,
                                &unresolved, &err));
}

/* df_expand_text gives what df_expand_word gives, for words with a quote, `$`, either
 * escape, a NUL or a non-ASCII byte at every position of a long word (its literal test
 * reads eight bytes a step): a literal word is returned as it is, any other is expanded. */
static void test_expand_text(void **state)
{
    (void)state;
    static const char specials[] = {'$', '\'', '"', '\\', '`', 0, (char)0xC3, '\t', '<'};
    struct gl_buf scratch; /* (every other word: a reused buffer) */
    gl_buf_init(&scratch);
    for (size_t n = 1; n <= 40; n++) /* (every length: the test reads 16, 8 or 4 bytes a load) */
    for (size_t k = 0; k < sizeof specials; k++)
        for (size_t at = 0; at < n; at++)
            for (int escape = 0; escape < 2; escape++) {
                char esc = escape ? '`' : '\\';
                char word[48];
                memset(word, 'a', n);
                word[at] = specials[k];
                if (specials[k] == (char)0xC3 && at + 1 < n)
                    word[at + 1] = (char)0xA9; /* a whole rune: é */
                if ((specials[k] == '\\' || specials[k] == '`') && at + 1 == n)
                    word[at] = '='; /* (a trailing escape has nothing to escape) */
                word[n] = 0;
                char *want;
                const char *got;
                size_t want_len, got_len;
                bool want_u, got_u;
                struct df_error e1, e2;
                bool ok1 = df_expand_word(&arena, word, n, esc, lookup, NULL, &want, &want_len,
                                          &want_u, &e1);
                bool ok2 = df_expand_text(&arena, word, n, esc, lookup, NULL,
                                          at % 2 ? &scratch : NULL, &got, &got_len, &got_u, &e2);
                assert_int_equal(ok1, ok2);
                if (!ok1)
                    continue;
                assert_int_equal(want_len, got_len);
                assert_memory_equal(want, got, want_len);
                assert_int_equal(want_u, got_u);
                char c = word[at]; /* what the lexer copies unchanged: no rune to
                                      re-encode, no quote, `$` or escape */
                bool literal = c == '\t' || c == '<' || c == '=' || (c == '\\' && esc == '`') ||
                               (c == '`' && esc == '\\');
                if (literal) /* returned as it is, not copied */
                    assert_ptr_equal(got, word);
                else
                    assert_ptr_not_equal(got, word);
            }
    gl_buf_free(&scratch);
}

/* The next number of a test's fixed pseudo-random sequence (a linear congruential
 * generator: every run draws the same words). */
static uint32_t next_random(uint32_t *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 16;
}

/* A random word into w: 1 to `most` pieces drawn from pieces[0, npieces), joined (w holds
 * `most` of the longest); its length (not terminated). */
static size_t random_word(uint32_t *seed, const char *const *pieces, size_t npieces,
                          size_t most, char *w)
{
    size_t n = 0, count = 1 + next_random(seed) % most;
    for (size_t k = 0; k < count; k++) {
        const char *pc = pieces[next_random(seed) % npieces];
        size_t pl = strlen(pc);
        memcpy(w + n, pc, pl);
        n += pl;
    }
    return n;
}

/* The words of ARG, ENV, LABEL, FROM and COPY on one line (taken as spans of the line at
 * once) equal those of the same logical line split over two physical lines (taken one by
 * one, with the builder): random ASCII words with quotes, escapes, blanks, `=`, NUL, DEL
 * and flags, the same texts, the same pairs and flags, or the same error. */
static void test_words_one_line(void **state)
{
    (void)state;
    static const char *const kws[] = {"ARG", "ENV", "LABEL", "FROM", "COPY"};
    static const char *const bits[] = {"a", "b=c", "=", " ", "  ", "\t", "'", "\"", "\\",
                                       "\\ ", "\\\"", "`", "x y", "\x7f", "-", "k=\"v w\"",
                                       "\x01", "#", "--from=x ", "--chown=\"a b\" ", "-- ",
                                       "--link "};
    uint32_t seed = 777;
    for (int iter = 0; iter < 20000; iter++) {
        char w[200];
        size_t n = random_word(&seed, bits, sizeof bits / sizeof bits[0], 10, w);
        w[n] = 0;
        size_t cut = 1 + next_random(&seed) % n;
        /* the cut makes a second physical line that is an instruction's continuation:
         * no escape before the cut, none at the end, not blank, no comment */
        const char *rest = w + cut;
        while (*rest == ' ' || *rest == '\t')
            rest++;
        if (w[cut - 1] == '\\' || w[n - 1] == '\\' || !*rest || *rest == '#' || w[0] == ' ' ||
            w[0] == '\t' || memchr(w, '\n', n))
            continue;
        const char *kw = kws[iter % 5];
        char one[256], two[256];
        int l1 = snprintf(one, sizeof one, "%s %s\n", kw, w);
        int l2 = snprintf(two, sizeof two, "%s %.*s\\\n%s\n", kw, (int)cut, w, w + cut);
        struct df_error e1, e2;
        struct df_file *f1 = df_parse_ex(&arena, one, (size_t)l1, 0, &e1);
        struct df_file *f2 = df_parse_ex(&arena, two, (size_t)l2, 0, &e2);
        assert_int_equal(f1 != NULL, f2 != NULL);
        if (!f1) {
            assert_string_equal(e1.message, e2.message);
            continue;
        }
        const struct df_instr *a = &f1->instrs[0], *b = &f2->instrs[0];
        assert_int_equal(a->line_len, b->line_len);
        assert_memory_equal(a->line, b->line, a->line_len);
        assert_int_equal(a->nargs, b->nargs);
        assert_int_equal(a->nkvs, b->nkvs);
        assert_int_equal(a->nflags, b->nflags);
        for (size_t i = 0; i < a->nflags; i++) {
            assert_int_equal(a->flags[i].len, b->flags[i].len);
            assert_memory_equal(a->flags[i].text, b->flags[i].text, a->flags[i].len + 1);
            /* on the one line, the flag starts at its column (the split one's may be on
             * line 2), as written when it has no quote or escape */
            const struct df_flag *fl = &a->flags[i];
            assert_int_equal(fl->loc.line, 1);
            assert_int_equal(one[fl->loc.col - 1], '-');
            bool as_written = true;
            for (size_t j = 0; j < fl->len; j++)
                as_written &= !strchr("\"'\\`", one[fl->loc.col - 1 + j]);
            if (as_written)
                assert_memory_equal(one + fl->loc.col - 1, fl->text, fl->len);
        }
        for (size_t i = 0; i < a->nargs; i++) {
            assert_int_equal(a->args[i].len, b->args[i].len);
            assert_memory_equal(a->args[i].value, b->args[i].value, a->args[i].len);
            assert_int_equal(a->args[i].value[a->args[i].len], 0);
            assert_int_equal(a->args[i].map.n, 1);
        }
        for (size_t i = 0; i < a->nkvs; i++) {
            assert_int_equal(a->kvs[i].key, b->kvs[i].key);
            assert_int_equal(a->kvs[i].equals, b->kvs[i].equals);
        }
    }
}

/* A lookup that records the names it is asked for, in order (the model's lookups charge
 * an expansion budget: the fast path must ask for the same names in the same order). */
struct asked {
    char names[512];
    size_t len;
};

static const char *recording_lookup(void *ctx, const char *name, size_t len)
{
    struct asked *a = ctx;
    if (a->len + len + 1 < sizeof a->names) {
        memcpy(a->names + a->len, name, len);
        a->len += len;
        a->names[a->len++] = ',';
    }
    return lookup(NULL, name, len);
}

/* df_expand_text's simple words (runs, `$NAME`, `${NAME}`, double quotes) give what the
 * lexer (df_expand_word) gives, the same names looked up in the same order, for random
 * words built from pieces that include every case the fast path must leave to the lexer
 * (modifiers, `$1`, `$@`, a lone `$`, single quotes, escapes, non-ASCII, NUL, unclosed
 * quotes and braces). */
static void test_expand_simple(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "a", "/usr/bin", ":", " ", "<", "<<", "'", "\"", "$", "$CUDA", "${CUDA}", "$NOPE",
        "${NOPE}", "$EMPTY", "${EMPTY}", "${", "}", "$1", "$@", "${CUDA:-x}", "${A-b}",
        "\\", "`", "\xC3\xA9", "$CUDA\xC3\xA9", "-", "_x", "$_a1", "{", "${9}", "$$",
        "\t", "=",
    };
    struct gl_buf scratch;
    gl_buf_init(&scratch);
    uint32_t seed = 12345;
    for (int iter = 0; iter < 20000; iter++) {
        char word[256];
        size_t n = random_word(&seed, pieces, sizeof pieces / sizeof pieces[0], 8, word);
        if (iter % 97 == 0)
            word[n++] = 0; /* (a NUL inside) */
        word[n] = 0;
        char esc = iter % 3 ? '\\' : '`';
        struct asked a1 = {{0}, 0}, a2 = {{0}, 0};
        char *want;
        const char *got;
        size_t want_len, got_len;
        bool want_u = false, got_u = false;
        struct df_error e1, e2;
        bool ok1 = df_expand_word(&arena, word, n, esc, recording_lookup, &a1, &want,
                                  &want_len, &want_u, &e1);
        bool ok2 = df_expand_text(&arena, word, n, esc, recording_lookup, &a2,
                                  iter % 2 ? &scratch : NULL, &got, &got_len, &got_u, &e2);
        assert_int_equal(ok1, ok2);
        assert_int_equal(a1.len, a2.len);
        assert_memory_equal(a1.names, a2.names, a1.len);
        if (!ok1)
            continue;
        assert_int_equal(want_len, got_len);
        assert_memory_equal(want, got, want_len);
        assert_int_equal(want_u, got_u);
    }
    gl_buf_free(&scratch);
}

/* df_skip_plain never passes a byte that is blank, a control byte, DEL or above, or one of
 * the three it is given, wherever it stands in a run (it reads eight bytes a step). */
static void test_skip_plain(void **state)
{
    (void)state;
    static const unsigned char stops[] = {' ', '\t', 0, 0x1F, 0x20, 0x7F, 0x80, 0xFF, '"',
                                          '\'', '`'};
    for (size_t k = 0; k < sizeof stops; k++)
        for (size_t at = 0; at < 40; at++)
            for (size_t from = 0; from <= at; from++) {
                char buf[40];
                memset(buf, 'x', sizeof buf);
                buf[at] = (char)stops[k];
                size_t r = df_skip_plain(buf, from, sizeof buf, '"', '\'', '`');
                assert_true(r >= from && r <= at);
                for (size_t i = from; i < r; i++) /* all skipped bytes are plain */
                    assert_int_equal(buf[i], 'x');
            }
    char plain[40];
    memset(plain, '~', sizeof plain); /* 0x7E: plain */
    assert_true(df_skip_plain(plain, 0, sizeof plain, 'a', 'b', 'c') >= sizeof plain - 7);
    /* df_skip_quoted: only bytes >= 0x80, the quote and the escape stop it */
    static const unsigned char qstops[] = {0x80, 0xFF, '"', '\\'};
    for (size_t k = 0; k < sizeof qstops; k++)
        for (size_t at = 0; at < 40; at++) {
            char buf[40];
            for (size_t i = 0; i < sizeof buf; i++)
                buf[i] = (char)(i % 3 ? ' ' : 0x01); /* blanks and controls pass */
            buf[at] = (char)qstops[k];
            size_t r = df_skip_quoted(buf, 0, sizeof buf, '"', '\\');
            assert_true(r <= at && at - r < 8);
        }
}

/* The line starts df_parse_lines hands on are the index gl_lines would build from the text
 * (0, then the offset after each '\n'), whatever the lines hold: continuations, comments,
 * heredoc bodies, CRLF, a BOM, a missing last newline. A text the parser rejects gives
 * none. */
static void test_line_starts(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "FROM a\nRUN b\n",
        "FROM a\nRUN b",
        "\xEF\xBB\xBF# syntax=docker/dockerfile:1\r\nFROM a\r\n\r\nRUN x \\\r\n  # c\r\n\r\n  y\r\n",
        "FROM a\nRUN <<EOF\nline 1\n\nEOF\nCOPY <<A <<B /x\na\nA\nb\nB\n\n\n",
        "\n\n# only\nFROM a\nENV A=1 \\\n    B=2\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        const char *t = texts[i];
        size_t len = strlen(t), n, nwant = 0;
        uint32_t *starts, want[64];
        want[nwant++] = 0;
        for (size_t k = 0; k < len; k++)
            if (t[k] == '\n')
                want[nwant++] = (uint32_t)(k + 1);
        struct df_error err;
        assert_non_null(df_parse_lines(&arena, t, len, 0, &err, &starts, &n, NULL, 0));
        assert_int_equal(n, nwant);
        assert_memory_equal(starts, want, n * sizeof *starts);
        free(starts);
        /* in a caller's room, while it holds them (of 4: the longer texts spill over) */
        uint32_t room[4];
        assert_non_null(df_parse_lines(&arena, t, len, 0, &err, &starts, &n, room, 4));
        assert_int_equal(n, nwant);
        assert_memory_equal(starts, want, n * sizeof *starts);
        assert_true(n <= 4 ? starts == room : starts != room);
        if (starts != room)
            free(starts);
    }
    struct df_error err;
    uint32_t *starts = (uint32_t *)&err;
    size_t n = 7;
    assert_null(df_parse_lines(&arena, "# none\n", 7, 0, &err, &starts, &n, NULL, 0));
    assert_null(starts);
    assert_null(df_parse_lines(&arena, "FROM a\nRUN <<EOF\nx\n", 20, 0, &err, &starts, &n,
                               NULL, 0));
    assert_null(starts);
}

/* Every instruction word, as written in three cases, is looked up to its keyword and
 * lowered spelling; an unknown word, a long one and a non-ASCII one keep their lowered
 * text (Go's ToLower: the Kelvin sign lowers to an ASCII k). */
static void test_keywords(void **state)
{
    (void)state;
    static const struct { const char *word; enum df_keyword kw; } known[] = {
        {"add", DF_KW_ADD}, {"arg", DF_KW_ARG}, {"cmd", DF_KW_CMD}, {"copy", DF_KW_COPY},
        {"entrypoint", DF_KW_ENTRYPOINT}, {"env", DF_KW_ENV}, {"expose", DF_KW_EXPOSE},
        {"from", DF_KW_FROM}, {"healthcheck", DF_KW_HEALTHCHECK}, {"label", DF_KW_LABEL},
        {"maintainer", DF_KW_MAINTAINER}, {"onbuild", DF_KW_ONBUILD}, {"run", DF_KW_RUN},
        {"shell", DF_KW_SHELL}, {"stopsignal", DF_KW_STOPSIGNAL}, {"user", DF_KW_USER},
        {"volume", DF_KW_VOLUME}, {"workdir", DF_KW_WORKDIR},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        char up[16], mixed[16], line[64];
        size_t n = strlen(known[i].word);
        for (size_t j = 0; j <= n; j++) {
            char c = known[i].word[j];
            up[j] = c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
            mixed[j] = j == 0 ? up[j] : c;
        }
        const char *forms[] = {known[i].word, up, mixed};
        for (size_t f = 0; f < 3; f++) {
            /* "a=b" is one word every keyword takes (ONBUILD: an unknown child) */
            snprintf(line, sizeof line, "%s a=b\n", forms[f]);
            struct df_file *file = parse(line);
            assert_non_null(file);
            assert_int_equal(file->ninstrs, 1);
            assert_int_equal(file->instrs[0].kw, known[i].kw);
            assert_string_equal(file->instrs[0].keyword, known[i].word);
            assert_string_equal(file->instrs[0].keyword_orig, forms[f]);
        }
    }
    static const struct { const char *line, *keyword, *orig; } other[] = {
        {"FOOBAR x\n", "foobar", "FOOBAR"},
        {"RUNS x\n", "runs", "RUNS"},
        {"VERYLONGUNKNOWNWORD x\n", "verylongunknownword", "VERYLONGUNKNOWNWORD"},
        {"R\xC3\x9CN x\n", "r\xC3\xBCn", "R\xC3\x9CN"},
        {"\xE2\x84\xAAUN x\n", "kun", "\xE2\x84\xAAUN"},
        /* a control byte or a byte >= 0x80 after the letters is part of the word (the
         * keyword read as one eight-byte word must not stop there) */
        {"RUN\x01 x\n", "run\x01", "RUN\x01"},
        {"COPY\x85 x\n", "copy\xEF\xBF\xBD", "COPY\x85"},
        {"R@N x y z\n", "r@n", "R@N"},
        {"run\x1fx a\n", "run\x1fx", "run\x1fx"},
    };
    /* a known keyword, then a blank, a tab, the line's end or trailing blanks */
    static const struct { const char *line; enum df_keyword kw; const char *orig; } ended[] = {
        {"rUn\tx\n", DF_KW_RUN, "rUn"}, {"WORKDIR\v/x\n", DF_KW_WORKDIR, "WORKDIR"},
        {"onbuild\r\n", DF_KW_ONBUILD, "onbuild"}, {"ADD   \n", DF_KW_ADD, "ADD"},
        {"Expose\xC2\xA0\n", DF_KW_EXPOSE, "Expose"}, {"USER", DF_KW_USER, "USER"},
    };
    for (size_t i = 0; i < sizeof ended / sizeof ended[0]; i++) {
        struct df_file *file = parse(ended[i].line);
        assert_non_null(file);
        assert_int_equal(file->instrs[0].kw, ended[i].kw);
        assert_string_equal(file->instrs[0].keyword_orig, ended[i].orig);
    }
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        struct df_file *file = parse(other[i].line);
        assert_non_null(file);
        assert_int_equal(file->instrs[0].kw, DF_KW_UNKNOWN);
        assert_string_equal(file->instrs[0].keyword, other[i].keyword);
        assert_string_equal(file->instrs[0].keyword_orig, other[i].orig);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_positions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_continued_run_offsets, setup, teardown),
        cmocka_unit_test_setup_teardown(test_json_positions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backtick_escape_and_directives, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crlf_and_bom, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flags_onbuild_health, setup, teardown),
        cmocka_unit_test_setup_teardown(test_heredocs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unterminated_heredoc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_huge_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_nesting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_expand, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keywords, setup, teardown),
        cmocka_unit_test_setup_teardown(test_expand_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_expand_simple, setup, teardown),
        cmocka_unit_test_setup_teardown(test_words_one_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_skip_plain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_line_starts, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
