/* SPDX-License-Identifier: Apache-2.0 */
/* test_shell_words.c: the shell word splitter (parsers/shell/shell_words.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parsers/shell/shell_internal.h" /* shl_clear */
#include "parsers/shell/sh_test.h"
#include "parsers/shell/shell_words.h"

static struct gl_arena A;
static struct sh_cmd *C;
static size_t N;
static struct sh_error E;

static int setup(void **state)
{
    (void)state;
    gl_arena_init(&A);
    C = NULL;
    N = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gl_arena_free(&A);
    return 0;
}

static int split_len(const char *text, size_t len, const struct sh_opts *o)
{
    return sh_split(&A, text, len, NULL, o, &C, &N, &E);
}

static int split(const char *text)
{
    struct sh_opts o = {.track_assignments = true};
    return split_len(text, strlen(text), &o);
}

/* The words of a command joined with '|'. */
static const char *words(const struct sh_cmd *c)
{
    static char buf[4096];
    size_t n = 0;
    buf[0] = 0;
    for (size_t k = 0; k < c->nwords; k++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", k ? "|" : "", c->words[k].text);
    return buf;
}

#define assert_loc(l, ln, cl)                                                          \
    do {                                                                               \
        assert_int_equal((l).line, (ln));                                              \
        assert_int_equal((l).col, (cl));                                               \
    } while (0)

/* ---- words of plain runs and quotes (the splitter's fast path for them) ---- */

#define assert_span(sp, o, sr, l)                                                      \
    do {                                                                               \
        assert_int_equal((sp).out, (o));                                               \
        assert_int_equal((sp).src, (sr));                                              \
        assert_int_equal((sp).len, (l));                                               \
        assert_true((sp).literal);                                                     \
        assert_false((sp).opaque);                                                     \
    } while (0)

static void test_quoted_words(void **state)
{
    (void)state;
    /* offsets: echo 0, "a b"'c'd 5, x"y"z 15, '' 21, "" 24, "}" 27, a}b 31 */
    assert_int_equal(split("echo \"a b\"'c'd x\"y\"z '' \"\" \"}\" a}b"), 0);
    assert_int_equal(N, 1);
    assert_string_equal(words(&C[0]), "echo|a bcd|xyz|||}|a}b");
    const struct sh_word_info *in = C[0].info;
    assert_true(in[1].quoted);
    assert_int_equal(in[1].src, 5);
    assert_int_equal(in[1].nspans, 3); /* the quotes cut the input into three pieces */
    assert_span(in[1].spans[0], 0, 6, 3);
    assert_span(in[1].spans[1], 3, 11, 1);
    assert_span(in[1].spans[2], 4, 13, 1);
    assert_loc(C[0].words[1].loc, 1, 6);
    assert_int_equal(in[2].nspans, 3);
    assert_span(in[2].spans[1], 1, 17, 1);
    assert_true(in[3].quoted); /* '' and "": empty words, no span */
    assert_int_equal(in[3].len, 0);
    assert_int_equal(in[3].nspans, 0);
    assert_true(in[4].quoted);
    assert_true(in[5].quoted);
    assert_false(in[6].quoted); /* a `}` inside a word is a literal, one piece */
    assert_int_equal(in[6].nspans, 1);
    assert_span(in[6].spans[0], 0, 31, 3);
    for (size_t k = 0; k < C[0].nwords; k++) {
        assert_false(C[0].words[k].opaque);
        assert_false(in[k].may_split);
        assert_false(in[k].from_split);
    }
    /* a quoted reserved word is a word; a first word NAME="..." is an assignment */
    assert_int_equal(split("\"if\" then fi"), 0);
    assert_string_equal(words(&C[0]), "if|then|fi");
    assert_int_equal(split("A=\"x y\" cmd \"q\" 'r'"), 0);
    assert_int_equal(C[0].nassigns, 1);
    assert_string_equal(C[0].assigns[0].value, "x y");
    assert_string_equal(words(&C[0]), "cmd|q|r");
    /* what the fast path leaves to the builder: expansions, escapes, unclosed quotes */
    assert_int_equal(split("echo \"a$VER\" 'x$VER' \"e\\\"f\" x\"y"), -1);
    assert_string_equal(C[0].words[1].text, "a$VER"); /* unset: opaque, as written */
    assert_true(C[0].words[1].opaque && C[0].info[1].quoted);
    assert_string_equal(C[0].words[2].text, "x$VER");
    assert_string_equal(C[0].words[3].text, "e\"f");
    assert_true(E.set); /* the unclosed " of x"y */
    assert_int_equal(E.offset, 29);
}

/* ---- shl_clear (the lexer's and the builder's clearing stores) ---- */

/* Every n clears exactly the n bytes at p: none before it (the overlapping last store
 * once wrote 16 - n bytes before p when n < 16), none after. */
static void test_clear_any_size(void **state)
{
    (void)state;
    unsigned char buf[96];
    for (size_t n = 0; n <= 48; n++) {
        memset(buf, 0xAA, sizeof buf);
        shl_clear(buf + 24, n);
        for (size_t k = 0; k < sizeof buf; k++)
            assert_int_equal(buf[k], k >= 24 && k < 24 + n ? 0 : 0xAA);
    }
}

/* ---- placeholders in documentation ---- */

static void test_placeholders(void **state)
{
    (void)state;
    struct sh_opts o = {.placeholders = true};
    const char *t = "docker run -v <path to imagenet>:/data <image> x.py <in.txt >out.txt";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    assert_int_equal(N, 1);
    assert_int_equal(C[0].nwords, 6);
    assert_string_equal(C[0].words[3].text, "<path to imagenet>:/data");
    assert_true(C[0].words[3].opaque);
    assert_loc(C[0].words[3].loc, 1, 15);
    assert_string_equal(C[0].words[4].text, "<image>");
    assert_true(C[0].words[4].opaque);
    assert_int_equal(C[0].nredirs, 2); /* `<in.txt >out.txt`: blank before `>` */
    /* path placeholders (xinference's README: `-v </on/your/host>:/data`) */
    t = "docker run -v </on/your/host>:</in/container> -v <~/models>:/m <./data>:/d img";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    assert_string_equal(words(&C[0]), "docker|run|-v|</on/your/host>:</in/container>|-v|"
                                      "<~/models>:/m|<./data>:/d|img");
    assert_true(C[0].words[3].opaque);
    assert_int_equal(C[0].nredirs, 0);
    /* ... but redirections stay redirections: `</dev/null >x`, `<in 2>err`, `</dev/null 2>e` */
    t = "sort </dev/null >x; sort <in 2>err; sort </dev/null 2>e";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    assert_int_equal(N, 3);
    for (size_t k = 0; k < 3; k++) {
        assert_string_equal(words(&C[k]), "sort");
        assert_int_equal(C[k].nredirs, 2);
    }
    /* prose with one aside in parentheses (Megatron-DeepSpeed's examples:
       `<Path to checkpoint (e.g /345m)>`) is one placeholder; an aside not closed before
       the `>`, a nested one, or a `(` not after a blank is none */
    t = "docker run -v <Path to ckpt (e.g /345m)>:/c img; a=<b (c (d)>; a=<b(c)>";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    assert_string_equal(C[0].words[3].text, "<Path to ckpt (e.g /345m)>:/c");
    assert_true(C[0].words[3].opaque);
    assert_int_equal(C[0].nredirs, 0);
    for (size_t k = 1; k < N; k++)
        assert_true(C[k].nredirs > 0);
    /* without the option (a shell script), `<` is a redirection */
    assert_int_equal(split("docker run <image> x.py"), 0);
    assert_string_equal(words(&C[0]), "docker|run"); /* <image, then >x.py */
    assert_int_equal(C[0].nredirs, 2);
    /* an ellipsis word (determined's docs: `docker run --gpus all ...`) may be any
       number of words; dots inside a word, two dots, and a script's `...` are text */
    t = "docker run --gpus all ... img \xe2\x80\xa6; ls a... ..b .. ...x";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    assert_int_equal(N, 2);
    assert_string_equal(C[0].words[4].text, "...");
    assert_true(C[0].words[4].opaque && C[0].info[4].may_split);
    assert_loc(C[0].words[4].loc, 1, 23);
    assert_false(C[0].words[5].opaque);
    assert_true(C[0].words[6].opaque && C[0].info[6].may_split);
    for (size_t k = 1; k < C[1].nwords; k++)
        assert_false(C[1].words[k].opaque);
    assert_int_equal(split("docker run --gpus all ..."), 0);
    assert_false(C[0].words[4].opaque);
    /* dots after an escaped blank or a continuation go on the word before: text */
    t = "docker run a\\ ... img; docker run b\\\n... img; docker run \\\n... img";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    assert_int_equal(N, 3);
    assert_string_equal(C[0].words[2].text, "a ...");
    assert_false(C[0].words[2].opaque);
    assert_string_equal(C[1].words[2].text, "b...");
    assert_false(C[1].words[2].opaque);
    assert_string_equal(C[2].words[2].text, "...");
    assert_true(C[2].words[2].opaque && C[2].info[2].may_split);
}

/* ---- quoting and escapes ---- */

static void test_simple_words_and_locs(void **state)
{
    (void)state;
    assert_int_equal(split("docker  run\t--gpus all img"), 0);
    assert_int_equal(N, 1);
    assert_string_equal(words(&C[0]), "docker|run|--gpus|all|img");
    assert_loc(C[0].loc, 1, 1);
    assert_loc(C[0].words[1].loc, 1, 9);
    assert_loc(C[0].words[2].loc, 1, 13);
    assert_string_equal(C[0].sep, "");
    assert_int_equal(C[0].depth, 0);
}

static void test_single_quotes(void **state)
{
    (void)state;
    assert_int_equal(split("echo 'a b $X \\n' x'y'z"), 0);
    assert_string_equal(words(&C[0]), "echo|a b $X \\n|xyz");
    assert_false(C[0].words[1].opaque);
    assert_true(C[0].info[1].quoted);
    assert_loc(C[0].words[1].loc, 1, 6);
}

static void test_double_quotes_escapes(void **state)
{
    (void)state;
    assert_int_equal(split("echo \"a \\\"b\\\" \\$X \\\\ \\n 'q'\""), 0);
    assert_string_equal(words(&C[0]), "echo|a \"b\" $X \\ \\n 'q'");
}

static void test_backslash_outside_quotes(void **state)
{
    (void)state;
    assert_int_equal(split("echo a\\ b \\$HOME \\'x"), 0);
    assert_string_equal(words(&C[0]), "echo|a b|$HOME|'x");
    assert_false(C[0].words[2].opaque);
}

static void test_continuation_locs(void **state)
{
    (void)state;
    assert_int_equal(split("docker run \\\n    --gpus all \\\n  img"), 0);
    assert_int_equal(N, 1);
    assert_string_equal(words(&C[0]), "docker|run|--gpus|all|img");
    assert_loc(C[0].words[2].loc, 2, 5);
    assert_loc(C[0].words[3].loc, 2, 12);
    assert_loc(C[0].words[4].loc, 3, 3);
}

static void test_continuation_inside_word(void **state)
{
    (void)state;
    assert_int_equal(split("echo ab\\\ncd \"x\\\ny\""), 0);
    assert_string_equal(words(&C[0]), "echo|abcd|xy");
    assert_loc(C[0].words[1].loc, 1, 6);
    assert_loc(sh_word_byte_loc(&C[0], 1, 2), 2, 1);
    assert_loc(sh_word_byte_loc(&C[0], 2, 1), 3, 1);
}

static void test_commented_continuation(void **state)
{
    (void)state;
    assert_int_equal(split("# docker run --gpus all \\\necho ok\nls a#b # c"), 0);
    assert_int_equal(N, 2);
    assert_string_equal(words(&C[0]), "echo|ok");
    assert_loc(C[0].loc, 2, 1);
    assert_string_equal(words(&C[1]), "ls|a#b");
}

static void test_ansi_c_quotes(void **state)
{
    (void)state;
    assert_int_equal(split("printf $'a\\tb\\x41\\101\\'' $\"q $0\""), 0);
    assert_string_equal(C[0].words[1].text, "a\tbAA'");
    assert_false(C[0].words[1].opaque);
    assert_true(C[0].words[2].opaque);
}

static void test_crlf(void **state)
{
    (void)state;
    assert_int_equal(split("docker run \\\r\n  img\r\necho x\r\n"), 0);
    assert_int_equal(N, 2);
    assert_string_equal(words(&C[0]), "docker|run|img");
    assert_string_equal(words(&C[1]), "echo|x");
}

/* ---- operators, redirections, heredocs ---- */

static void test_pipelines_and_lists(void **state)
{
    (void)state;
    assert_int_equal(split("a x && b || c | d |& e; f\ng"), 0);
    assert_int_equal(N, 7);
    const char *seps[] = {"&&", "||", "|", "|&", ";", "\n", ""};
    for (size_t k = 0; k < 7; k++)
        assert_string_equal(C[k].sep, seps[k]);
    assert_string_equal(words(&C[0]), "a|x");
    assert_loc(C[5].loc, 1, 25);
    assert_loc(C[6].loc, 2, 1);
}

static void test_background(void **state)
{
    (void)state;
    assert_int_equal(split("docker run -d img &\nwait"), 0);
    assert_int_equal(N, 2);
    assert_string_equal(C[0].sep, "&");
    assert_string_equal(words(&C[0]), "docker|run|-d|img");
}

static void test_redirections(void **state)
{
    (void)state;
    assert_int_equal(split("cmd >out 2>&1 <in a>>log &>all b 3<>f <<<str"), 0);
    assert_string_equal(words(&C[0]), "cmd|a|b");
    assert_int_equal(C[0].nredirs, 7);
    assert_string_equal(C[0].redirs[0].op, ">");
    assert_string_equal(C[0].redirs[0].target.text, "out");
    assert_int_equal(C[0].redirs[1].fd, 2);
    assert_string_equal(C[0].redirs[1].op, ">&");
    assert_string_equal(C[0].redirs[1].target.text, "1");
    assert_loc(C[0].redirs[1].loc, 1, 10);
    assert_string_equal(C[0].redirs[3].op, ">>");
    assert_string_equal(C[0].redirs[4].op, "&>");
    assert_int_equal(C[0].redirs[5].fd, 3);
    assert_string_equal(C[0].redirs[6].op, "<<<");
}

static void test_heredoc_skipped(void **state)
{
    (void)state;
    const char *t = "cat <<EOF | kubectl apply -f -\n"
                    "docker run --gpus all img\n"
                    "EOF\n"
                    "echo done";
    assert_int_equal(split(t), 0);
    assert_int_equal(N, 3);
    assert_string_equal(words(&C[0]), "cat");
    assert_string_equal(words(&C[1]), "kubectl|apply|-f|-");
    assert_string_equal(words(&C[2]), "echo|done");
    assert_loc(C[2].loc, 4, 1);
    const struct sh_redir *r = &C[0].redirs[0];
    assert_string_equal(r->op, "<<");
    assert_string_equal(r->target.text, "EOF");
    assert_string_equal(r->body, "docker run --gpus all img\n");
    assert_loc(r->body_loc, 2, 1);
    assert_false(r->quoted_delim);
}

static void test_heredoc_dash_and_quoted(void **state)
{
    (void)state;
    const char *t = "cat <<-'END' >f; cat <<\"X\"\n"
                    "\t$a\n"
                    "\tEND\n"
                    "x\n"
                    "X\n"
                    "ls";
    assert_int_equal(split(t), 0);
    assert_int_equal(N, 3);
    assert_true(C[0].redirs[0].quoted_delim);
    assert_string_equal(C[0].redirs[0].body, "\t$a\n");
    assert_string_equal(C[1].redirs[0].body, "x\n");
    assert_string_equal(words(&C[2]), "ls");
}

static void test_heredoc_unterminated(void **state)
{
    (void)state;
    assert_int_equal(split("cat <<EOF\nline\nmore"), 0);
    assert_int_equal(N, 1);
    assert_string_equal(C[0].redirs[0].body, "line\nmore");
}

/* ---- variables ---- */

static void test_var_from_assignment(void **state)
{
    (void)state;
    assert_int_equal(split("IMG=nvcr.io/nvidia/cuda:12.1.0-base\ndocker run $IMG \"${IMG}\""), 0);
    assert_int_equal(N, 2);
    assert_int_equal(C[0].nwords, 0);
    assert_int_equal(C[0].nassigns, 1);
    assert_string_equal(C[0].assigns[0].name, "IMG");
    assert_loc(C[0].assigns[0].value_loc, 1, 5);
    assert_string_equal(words(&C[1]), "docker|run|nvcr.io/nvidia/cuda:12.1.0-base|"
                                      "nvcr.io/nvidia/cuda:12.1.0-base");
    assert_false(C[1].words[2].opaque);
    assert_loc(C[1].words[2].loc, 2, 12);
}

/* Plain assignment words (no quote or expansion: read without the lexer) give what the
 * lexer gives: name, value, append, positions; an empty value before `(` is an array. */
static void test_plain_assignments(void **state)
{
    (void)state;
    assert_int_equal(split("CC=gcc-12 FLAGS+=-O2 JOBS= make\nLIST=(a b) V=1"), 0);
    assert_int_equal(N, 2);
    assert_int_equal(C[0].nassigns, 3);
    assert_string_equal(C[0].assigns[0].name, "CC");
    assert_string_equal(C[0].assigns[0].value, "gcc-12");
    assert_int_equal(C[0].assigns[0].value_len, 6);
    assert_false(C[0].assigns[0].append);
    assert_false(C[0].assigns[0].opaque);
    assert_loc(C[0].assigns[0].loc, 1, 1);
    assert_loc(C[0].assigns[0].value_loc, 1, 4);
    assert_string_equal(C[0].assigns[1].name, "FLAGS");
    assert_string_equal(C[0].assigns[1].value, "-O2");
    assert_true(C[0].assigns[1].append);
    assert_loc(C[0].assigns[1].value_loc, 1, 18);
    assert_string_equal(C[0].assigns[2].name, "JOBS");
    assert_string_equal(C[0].assigns[2].value, "");
    assert_string_equal(words(&C[0]), "make");
    assert_loc(C[0].loc, 1, 1);
    assert_int_equal(C[1].nassigns, 2);
    assert_true(C[1].assigns[0].array);
    assert_true(C[1].assigns[0].opaque);
    assert_string_equal(C[1].assigns[1].value, "1");
    assert_loc(C[1].assigns[1].value_loc, 2, 14);
}

/* Words with `$NAME` / `${NAME}` outside quotes (read without the lexer unless a value is
 * cut by field splitting) give what the lexer gives: split fields and their flags, no word
 * for an empty expansion, opaque words that may split, a reserved word made by an empty
 * expansion. */
static void test_unquoted_expansions(void **state)
{
    (void)state;
    assert_int_equal(split("A='x  y'\nB=\nC=z\n"
                           "echo ${A}.$C p$B \"\"$A $B $U ${U}s \"$C\"-$C\n"
                           "if true; then :; fi$B\necho done"), 0);
    assert_int_equal(N, 7);
    const struct sh_cmd *c = &C[3];
    assert_string_equal(words(c), "echo|x|y.z|p|x|y|$U|${U}s|z-z");
    assert_true(c->info[1].from_split && c->info[2].from_split);
    assert_loc(c->words[1].loc, 4, 6);
    assert_loc(c->words[2].loc, 4, 6);
    assert_int_equal(c->info[2].nspans, 3); /* y . z */
    assert_false(c->info[2].spans[0].literal);
    assert_false(c->info[3].from_split);
    assert_int_equal(c->info[3].nspans, 1);
    assert_true(c->info[4].quoted);
    assert_false(c->info[5].quoted);
    assert_true(c->words[6].opaque && c->info[6].may_split);
    assert_true(c->words[7].opaque && c->info[7].may_split);
    assert_false(c->words[8].opaque);
    assert_true(c->info[8].quoted);
    assert_false(c->info[8].may_split);
    assert_int_equal(c->info[8].nspans, 3);
    assert_string_equal(words(&C[6]), "echo|done");
    assert_int_equal(C[6].depth, 0); /* `fi$B` closed the if */
    /* only a word of expansions alone may be any number of words: `${U}s` is one word */
    assert_true(sh_word_may_be_words(&c->info[6]));
    assert_false(sh_word_may_be_words(&c->info[7]));
    assert_false(sh_word_may_be_words(&c->info[8]));
    assert_int_equal(split("docker run $R/a:1 ${N}:${T} $X$Y \"$Q\""), 0);
    assert_false(sh_word_may_be_words(&C[0].info[2]));
    assert_false(sh_word_may_be_words(&C[0].info[3]));
    assert_true(sh_word_may_be_words(&C[0].info[4]));
    assert_false(sh_word_may_be_words(&C[0].info[5]));
}

/* A GitHub Actions expression `${{ ... }}` is substituted before the shell runs: one
 * opaque part up to its `}}` (as a `${` it closed at the first `}`, and the second was
 * text), which may be any number of words when it stands alone and unquoted. */
static void test_github_expressions(void **state)
{
    (void)state;
    assert_int_equal(split("docker run ${{ a && '--x y' || '' }} ${{ env.R }}/app:${{ s }} "
                           "\"${{ b }}\" ${{ c }"), 0);
    assert_int_equal(N, 1);
    assert_int_equal(C[0].nwords, 6);
    assert_string_equal(C[0].words[2].text, "${{ a && '--x y' || '' }}");
    assert_int_equal(C[0].info[2].nspans, 1);
    assert_true(sh_word_may_be_words(&C[0].info[2]));
    assert_loc(C[0].words[2].loc, 1, 12);
    assert_string_equal(C[0].words[3].text, "${{ env.R }}/app:${{ s }}");
    assert_true(C[0].words[3].opaque);
    assert_false(sh_word_may_be_words(&C[0].info[3]));
    assert_true(C[0].words[4].opaque);
    assert_false(C[0].info[4].may_split);
    /* an expression not closed on its line is read as the shell reads `${` */
    assert_string_equal(C[0].words[5].text, "${{ c }");
    /* a Jinja statement (singularity-hpc's module docs template) is a template's too: the
       words it guards may be rendered or not; one not closed on its line is text */
    assert_int_equal(split("singularity run {% if b %}-B {{ b }} {% endif %}{{ img }} x "
                           "{%s} {% if"), 0);
    assert_string_equal(words(&C[0]), "singularity|run|{% if b %}-B|{{ b }}|"
                                      "{% endif %}{{ img }}|x|{%s}|{%|if");
    assert_true(C[0].words[2].opaque);
    assert_false(sh_word_may_be_words(&C[0].info[2]));
    assert_true(sh_word_may_be_words(&C[0].info[4]));
    assert_false(C[0].words[6].opaque);
    assert_false(C[0].words[7].opaque);
}

static void test_export_and_declare(void **state)
{
    (void)state;
    assert_int_equal(split("export A=1 B='x y'; declare -x C=3; readonly D=4\necho $A \"$B\" $C $D"), 0);
    assert_string_equal(words(&C[3]), "echo|1|x y|3|4");
}

static void test_unset_variable_opaque(void **state)
{
    (void)state;
    assert_int_equal(split("echo $HOME ${CUDA} $1 $@ $#"), 0);
    for (size_t k = 1; k < 6; k++)
        assert_true(C[0].words[k].opaque);
    assert_string_equal(C[0].words[1].text, "$HOME");
    assert_true(C[0].info[1].may_split);
}

static void test_default_when_unset(void **state)
{
    (void)state;
    assert_int_equal(split("echo ${X:-def} ${X-d2} \"${X:+alt}\" ${2:-all} ${Y:-a b}"), 0);
    assert_string_equal(words(&C[0]), "echo|def|d2||all|a|b");
    assert_false(C[0].words[1].opaque);
    assert_false(C[0].words[4].opaque);
}

static void test_default_when_set(void **state)
{
    (void)state;
    assert_int_equal(split("X=val; E=\necho ${X:-def} ${X:+alt} ${E:-d} ${E-d}x ${X:?err}"), 0);
    assert_string_equal(words(&C[2]), "echo|val|alt|d|x|val");
}

/* After `. FILE` or `source FILE` (a file not read), a variable never assigned in the
 * script may have been set there: its ${X:-d} / ${X:+a} are opaque, not the unset forms;
 * one assigned or unset in the script stays known. After mig-parted's systemd install.sh
 * (`. ${HACK_DIR}/golang-version.sh`, then `golang${GOLANG_VERSION:+":${GOLANG_VERSION}"}`). */
static void test_sourced_file_may_assign(void **state)
{
    (void)state;
    assert_int_equal(split("echo ${V:-d1}\n. ./versions.sh\nK=k; unset U\n"
                           "echo go${V:+:$V} ${V:-d2} ${K:-x} ${U:-u}\n"), 0);
    assert_string_equal(words(&C[0]), "echo|d1");
    const struct sh_cmd *c = &C[N - 1];
    assert_string_equal(words(c), "echo|go${V:+:$V}|${V:-d2}|k|u");
    assert_true(c->words[1].opaque);
    assert_true(c->words[2].opaque);
    assert_false(c->words[3].opaque);
    assert_false(c->words[4].opaque);
    assert_int_equal(split("source env.sh\necho ${W:-w}\n"), 0);
    assert_true(C[N - 1].words[1].opaque);
    assert_int_equal(split("s env.sh\nsourced x\necho ${W:-w}\n"), 0);
    assert_string_equal(words(&C[N - 1]), "echo|w");
}

static void test_assign_default(void **state)
{
    (void)state;
    assert_int_equal(split("echo ${GPU:=all}\ndocker run --gpus $GPU img"), 0);
    assert_string_equal(words(&C[0]), "echo|all");
    assert_string_equal(words(&C[1]), "docker|run|--gpus|all|img");
}

static void test_branch_assigned_opaque(void **state)
{
    (void)state;
    assert_int_equal(split("if [ \"$1\" = x ]; then MODE=a; else MODE=b; fi\ndocker run $MODE ${MODE:-d}"), 0);
    const struct sh_cmd *c = &C[N - 1];
    assert_string_equal(words(c), "docker|run|$MODE|${MODE:-d}");
    assert_true(c->words[2].opaque);
    assert_true(c->words[3].opaque);
}

static void test_conditional_and_pipeline_assignments(void **state)
{
    (void)state;
    assert_int_equal(split("true && A=1\nB=2 | cat\nC=3 &\necho $A $B $C"), 0);
    const struct sh_cmd *c = &C[N - 1];
    for (size_t k = 1; k < 4; k++)
        assert_true(c->words[k].opaque);
}

/* A plain assignment sets the value (the last one wins), in the text it stands in; a
 * variable given different values is opaque in a later text sharing the table (Markdown
 * blocks that are alternatives), and its values are all it was given. */
static void test_reassigned_different_value(void **state)
{
    (void)state;
    struct sh_vars v;
    sh_vars_init(&v, &A);
    struct sh_opts o = {.track_assignments = true, .vars = &v};
    const char *t = "A=1\nA=1\nB=1\nB=2\nif x; then C=1; fi\nC=3\necho $A $B $C";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    const struct sh_cmd *c = &C[N - 1];
    assert_string_equal(words(c), "echo|1|2|3");
    for (size_t k = 1; k < 4; k++)
        assert_false(c->words[k].opaque);
    assert_int_equal(split_len("echo $A $B $C", 13, &o), 0);
    assert_false(C[0].words[1].opaque); /* one value only */
    assert_true(C[0].words[2].opaque);  /* 1 or 2: rival blocks */
    assert_true(C[0].words[3].opaque);
    const char *vals[8];
    size_t lens[8];
    assert_int_equal(sh_vars_values(&v, "B", 1, vals, lens, 8), 2);
    assert_int_equal(sh_vars_values(&v, "A", 1, vals, lens, 8), 1);
    /* assigned again in the later text: known there */
    assert_int_equal(split_len("B=5\necho $B", 11, &o), 0);
    assert_string_equal(words(&C[1]), "echo|5");
    assert_false(C[1].words[1].opaque);
}

static void test_command_substitution_opaque(void **state)
{
    (void)state;
    assert_int_equal(split("echo $(date) x`id -u`y $((1+2)) \"$(echo \")\")\" <(ls) ok"), 0);
    assert_string_equal(words(&C[0]), "echo|$(date)|x`id -u`y|$((1+2))|$(echo \")\")|<(ls)|ok");
    for (size_t k = 1; k < 6; k++)
        assert_true(C[0].words[k].opaque);
    assert_false(C[0].words[6].opaque);
    assert_true(C[0].info[1].may_split);
    assert_false(C[0].info[4].may_split);
}

static void test_argv_in_unknown_variable(void **state)
{
    (void)state;
    assert_int_equal(split("docker run $args img"), 0);
    assert_string_equal(words(&C[0]), "docker|run|$args|img");
    assert_true(C[0].words[2].opaque);
    assert_true(C[0].info[2].may_split);
}

static void test_argv_in_known_variable_split(void **state)
{
    (void)state;
    assert_int_equal(split("args=\"--gpus all  --ipc=host\"\ndocker run $args \"$args\" img"), 0);
    const struct sh_cmd *c = &C[1];
    assert_string_equal(words(c), "docker|run|--gpus|all|--ipc=host|--gpus all  --ipc=host|img");
    assert_true(c->info[2].from_split);
    assert_true(c->info[4].from_split);
    assert_false(c->info[5].from_split);
    assert_loc(c->words[3].loc, 2, 12);
    assert_loc(c->words[5].loc, 2, 18);
}

static void test_empty_expansion_removed(void **state)
{
    (void)state;
    assert_int_equal(split("E=\ndocker run $E ${E} \"\" \"$E\" '' img"), 0);
    assert_string_equal(words(&C[1]), "docker|run||||img");
    assert_int_equal(C[1].nwords, 6);
}

static void test_arrays_and_append_opaque(void **state)
{
    (void)state;
    assert_int_equal(split("arr=(a b c)\nP=x\nP+=y\necho ${arr[@]} $arr $P ${#P}"), 0);
    assert_true(C[0].assigns[0].array);
    assert_true(C[0].assigns[0].opaque);
    assert_string_equal(C[0].assigns[0].value, "(a b c)");
    const struct sh_cmd *c = &C[N - 1];
    for (size_t k = 1; k < 5; k++)
        assert_true(c->words[k].opaque);
}

static void test_read_and_loop_var_opaque(void **state)
{
    (void)state;
    assert_int_equal(split("V=1\nread -r -p prompt V\necho $V"), 0);
    assert_true(C[N - 1].words[1].opaque);
}

static const char *lookup_cb(void *ctx, const char *name, size_t len)
{
    (void)ctx;
    if (len == 4 && memcmp(name, "CUDA", 4) == 0)
        return "12.1.0";
    if (len == 3 && memcmp(name, "TAG", 3) == 0)
        return sh_value_opaque;
    return NULL;
}

static void test_lookup_callback(void **state)
{
    (void)state;
    struct sh_opts o = {.lookup = lookup_cb, .track_assignments = false};
    const char *t = "pip install torch+cu${CUDA} img:$TAG ${TAG:-x} ${NONE:-y}";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    assert_string_equal(words(&C[0]), "pip|install|torch+cu12.1.0|img:$TAG|${TAG:-x}|y");
    assert_false(C[0].words[2].opaque);
    assert_true(C[0].words[3].opaque);
    assert_true(C[0].words[4].opaque);
    assert_false(C[0].words[5].opaque);
}

/* ---- "..." holding $NAME and ${NAME} (quoted_word's expansions) ---- */

static const char *lookup_q(void *ctx, const char *name, size_t len)
{
    (void)ctx;
    static const char *const known[][2] = {
        {"CUDA", "12.1.0"}, {"SP", "x  y\tz"}, {"EMPTY", ""}, {"TAG", NULL}};
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strlen(known[k][0]) == len && memcmp(name, known[k][0], len) == 0)
            return known[k][1] ? known[k][1] : sh_value_opaque;
    return NULL;
}

/* Split "echo W" (W taken by quoted_word) and "echo W${Z:+}" (Z unset: the same word,
 * nothing added, but the `${Z:+}` sends it to the builder) and compare the second word
 * and its info whole, and the arena's charge. */
static void same_as_builder(const char *w)
{
    struct sh_opts o = {.lookup = lookup_q};
    char t1[256], t2[256];
    snprintf(t1, sizeof t1, "echo %s", w);
    snprintf(t2, sizeof t2, "echo %s${Z:+}", w);
    gl_arena_free(&A);
    gl_arena_init(&A);
    assert_int_equal(split_len(t1, strlen(t1), &o), 0);
    assert_int_equal(N, 1);
    assert_int_equal(C[0].nwords, 2);
    struct gl_word w1 = C[0].words[1];
    struct sh_word_info i1 = C[0].info[1];
    size_t total1 = A.total;
    struct gl_arena keep = A; /* w1's bytes stay valid until the end */
    gl_arena_init(&A);
    assert_int_equal(split_len(t2, strlen(t2), &o), 0);
    assert_int_equal(C[0].nwords, 2);
    const struct gl_word *w2 = &C[0].words[1];
    const struct sh_word_info *i2 = &C[0].info[1];
    assert_string_equal(w1.text, w2->text);
    assert_int_equal(w1.len, w2->len);
    assert_loc(w1.loc, w2->loc.line, w2->loc.col);
    assert_int_equal(w1.opaque, w2->opaque);
    assert_int_equal(i1.len, i2->len);
    assert_int_equal(i1.src, i2->src);
    assert_int_equal(i1.quoted, i2->quoted);
    assert_int_equal(i1.may_split, i2->may_split);
    assert_int_equal(i1.from_split, i2->from_split);
    assert_int_equal(i1.nspans, i2->nspans);
    for (size_t k = 0; k < i1.nspans; k++) {
        assert_int_equal(i1.spans[k].out, i2->spans[k].out);
        assert_int_equal(i1.spans[k].src, i2->spans[k].src);
        assert_int_equal(i1.spans[k].len, i2->spans[k].len);
        assert_int_equal(i1.spans[k].literal, i2->spans[k].literal);
        assert_int_equal(i1.spans[k].opaque, i2->spans[k].opaque);
    }
    assert_int_equal(total1, A.total); /* the same arena block: parse-memory trips alike */
    gl_arena_free(&keep);
}

static void test_quoted_expansions(void **state)
{
    (void)state;
    struct sh_opts o = {.lookup = lookup_q};
    /* offsets: echo 0, "${CUDA}/x" 5, "$TAG$TAG" 17, x"$SP"'$y' 28 */
    const char *t = "echo \"${CUDA}/x\" \"$TAG$TAG\" x\"$SP\"'$y'";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    assert_string_equal(words(&C[0]), "echo|12.1.0/x|$TAG$TAG|xx  y\tz$y");
    const struct sh_word_info *in = C[0].info;
    assert_false(C[0].words[1].opaque);
    assert_int_equal(in[1].nspans, 2); /* the value (from the `$`), then the literal */
    assert_int_equal(in[1].spans[0].src, 6);
    assert_int_equal(in[1].spans[0].len, 6);
    assert_false(in[1].spans[0].literal);
    assert_span(in[1].spans[1], 6, 13, 2);
    assert_true(C[0].words[2].opaque); /* opaque: as written, one opaque span of both */
    assert_int_equal(in[2].nspans, 1);
    assert_int_equal(in[2].spans[0].src, 18);
    assert_int_equal(in[2].spans[0].len, 8);
    assert_true(in[2].spans[0].literal && in[2].spans[0].opaque);
    assert_false(in[2].may_split); /* quoted: it stands for one word */
    assert_loc(C[0].words[3].loc, 1, 29);
    assert_int_equal(in[3].nspans, 3);
    /* each shape equal to the builder's word, field for field */
    same_as_builder("\"${CUDA}/x\"");
    same_as_builder("\"$TAG$TAG\"");
    same_as_builder("x\"$SP\"'$y'");
    same_as_builder("\"$EMPTY\"");
    same_as_builder("\"$EMPTY$EMPTY\"x");
    same_as_builder("\"$UNSET-${CUDA}${CUDA}\"");
    same_as_builder("--arg=\"${CUDA}\"");
    same_as_builder("\"a;b|c ${TAG}}{\"");
    same_as_builder("\"${CUDA}\"\"${CUDA}\"");
}

static void test_assignments_not_tracked_without_option(void **state)
{
    (void)state;
    struct sh_opts o = {0};
    const char *t = "X=1; echo $X";
    assert_int_equal(split_len(t, strlen(t), &o), 0);
    assert_true(C[1].words[1].opaque);
}

static void test_prefix_assignment(void **state)
{
    (void)state;
    assert_int_equal(split("FOO=bar CUDA_VISIBLE_DEVICES=0,1 python train.py\necho $FOO"), 0);
    assert_int_equal(C[0].nassigns, 2);
    assert_string_equal(C[0].assigns[1].name, "CUDA_VISIBLE_DEVICES");
    assert_string_equal(C[0].assigns[1].value, "0,1");
    assert_loc(C[0].assigns[1].loc, 1, 9);
    assert_string_equal(words(&C[0]), "python|train.py");
    assert_loc(C[0].loc, 1, 1);
    assert_true(C[1].words[1].opaque); /* a prefix does not set the variable */
}

static void test_shared_vars_table(void **state)
{
    (void)state;
    struct sh_vars v;
    sh_vars_init(&v, &A);
    struct sh_opts o = {.track_assignments = true, .vars = &v};
    assert_int_equal(split_len("IMG=cuda:12", 11, &o), 0);
    assert_int_equal(split_len("docker run $IMG", 15, &o), 0);
    assert_string_equal(words(&C[0]), "docker|run|cuda:12");
}

/* Split script t with its assignments tracked into the fresh table *v (options in *o). */
static void split_tracked(struct sh_vars *v, struct sh_opts *o, const char *t)
{
    sh_vars_init(v, &A);
    *o = (struct sh_opts){.track_assignments = true, .vars = v};
    assert_int_equal(split_len(t, strlen(t), o), 0);
}

/* The values a variable takes on the paths of a script: what `docker build -t "$IMG"` may
 * have tagged (launch_build.c), and what `docker build $TAG` may hold. */
static void test_var_values_on_paths(void **state)
{
    (void)state;
    struct sh_vars v;
    struct sh_opts o;
    split_tracked(&v, &o,
                  "IMG=app\nNAME=x\n"
                  "case \"$1\" in\n  --gpu) IMG=app-gpu ;;\n  --dev) IMG=\"$(id -un)/app\" ;;\n"
                  "  *) IMG=app ;;\nesac\n");
    const char *vals[8];
    size_t lens[8];
    size_t n = sh_vars_values(&v, "IMG", 3, vals, lens, 8);
    assert_int_equal(n, 2); /* app, app-gpu; not the command substitution */
    assert_true((lens[0] == 7 && !memcmp(vals[0], "app-gpu", 7) && lens[1] == 3 &&
                 !memcmp(vals[1], "app", 3)) ||
                (lens[1] == 7 && !memcmp(vals[1], "app-gpu", 7) && lens[0] == 3 &&
                 !memcmp(vals[0], "app", 3)));
    assert_int_equal(sh_vars_values(&v, "NAME", 4, vals, lens, 8), 1); /* known: its value */
    assert_int_equal(lens[0], 1);
    assert_int_equal(sh_vars_values(&v, "NONE", 4, vals, lens, 8), 0);
    /* bounded: a ninth value is not kept */
    struct gl_buf b;
    gl_buf_init(&b);
    for (int k = 0; k < 20; k++)
        gl_buf_printf(&b, "if x; then V=v%d; fi\n", k);
    assert_int_equal(split_len(b.data, b.len, &o), 0);
    assert_int_equal(sh_vars_values(&v, "V", 1, vals, lens, 8), SH_VAR_MAX_ALTS);
    gl_buf_free(&b);
    /* values that are not all literal, kept as written: the options a build command takes
     * from `$TAG` / `$CONTEXTS` (launch_build_vars.c); literal values are not among them */
    split_tracked(&v, &o,
                  "SRC=$(pwd)\nCTX=\"--build-context src=$SRC\"\nLIT=\"--tag app:1\"\n"
                  "if x; then CTX=\"--build-context src=$2\"; fi\nALL=\"$CTX $LIT\"\n");
    n = sh_vars_raw_values(&v, "CTX", 3, vals, lens, 8);
    assert_int_equal(n, 2);
    assert_int_equal(lens[1], 24);
    assert_memory_equal(vals[1], "--build-context src=$SRC", 24);
    assert_int_equal(lens[0], 22);
    assert_memory_equal(vals[0], "--build-context src=$2", 22);
    assert_int_equal(sh_vars_raw_values(&v, "LIT", 3, vals, lens, 8), 0); /* literal */
    assert_int_equal(sh_vars_raw_values(&v, "ALL", 3, vals, lens, 8), 1);
    assert_int_equal(lens[0], 16);
    assert_memory_equal(vals[0], "$CTX --tag app:1", 16); /* the known part expanded */
    assert_int_equal(sh_vars_raw_values(&v, "NONE", 4, vals, lens, 8), 0);
}

static void test_expansion_bomb_bounded(void **state)
{
    (void)state;
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_adds(&b, "Y0=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n");
    for (int k = 0; k < 40; k++) /* Y doubles every line */
        gl_buf_printf(&b, "Y%d=\"$Y%d$Y%d\"\n", k + 1, k, k);
    assert_int_equal(split_len(b.data, b.len, &(struct sh_opts){.track_assignments = true}), 0);
    assert_true(A.total < (size_t)512 << 20);
    gl_buf_free(&b);
}

/* ---- sh -c ---- */

static void test_sh_c_resplit(void **state)
{
    (void)state;
    const char *t = "RUN=1; sh -c \"docker run --gpus all img\"";
    assert_int_equal(split(t), 0);
    long k = sh_dash_c_index(&C[1]);
    assert_int_equal(k, 2);
    struct sh_cmd *in;
    size_t nin;
    assert_int_equal(sh_split_word_again(&A, &C[1], (size_t)k, NULL, &in, &nin, &E), 0);
    assert_int_equal(nin, 1);
    assert_string_equal(words(&in[0]), "docker|run|--gpus|all|img");
    assert_loc(in[0].words[0].loc, 1, 15);
    assert_loc(in[0].words[2].loc, 1, 26);
    assert_loc(in[0].words[4].loc, 1, 37);
}

static void test_sh_c_resplit_escapes_and_lines(void **state)
{
    (void)state;
    const char *t = "bash -ec \\\n  \"echo \\\"a b\\\" &&\n  docker run \\$X img\"";
    assert_int_equal(split(t), 0);
    long k = sh_dash_c_index(&C[0]);
    assert_int_equal(k, 2);
    struct sh_cmd *in;
    size_t nin;
    assert_int_equal(sh_split_word_again(&A, &C[0], (size_t)k, NULL, &in, &nin, &E), 0);
    assert_int_equal(nin, 2);
    assert_string_equal(words(&in[0]), "echo|a b");
    assert_loc(in[0].words[0].loc, 2, 4);
    assert_loc(in[0].words[1].loc, 2, 10); /* the escaped quote */
    assert_string_equal(in[0].sep, "&&");
    assert_string_equal(words(&in[1]), "docker|run|$X|img");
    assert_loc(in[1].words[0].loc, 3, 3);
    assert_loc(in[1].words[2].loc, 3, 15);
    assert_loc(in[1].words[3].loc, 3, 18);
}

static void test_dash_c_index_variants(void **state)
{
    (void)state;
    assert_int_equal(split("/bin/sh -o pipefail -c 'x'; sh script.sh; bash -l -- -c; zsh -xc y z; ls -c x"), 0);
    assert_int_equal(sh_dash_c_index(&C[0]), 4);
    assert_int_equal(sh_dash_c_index(&C[1]), -1);
    assert_int_equal(sh_dash_c_index(&C[2]), -1);
    assert_int_equal(sh_dash_c_index(&C[3]), 2);
    assert_int_equal(sh_dash_c_index(&C[4]), -1);
    /* the shell told by its base name: 2 to 4 bytes ending in "sh", one of the list */
    assert_int_equal(split("/usr/bin/mksh -c x; bin/ash -c y; crash -c z; fish -c w; /sh/ -c v; "
                           "a/b/dash -ec u"), 0);
    assert_int_equal(N, 6);
    assert_int_equal(sh_dash_c_index(&C[0]), 2);
    assert_int_equal(sh_dash_c_index(&C[1]), 2);
    assert_int_equal(sh_dash_c_index(&C[2]), -1);
    assert_int_equal(sh_dash_c_index(&C[3]), -1);
    assert_int_equal(sh_dash_c_index(&C[4]), -1);
    assert_int_equal(sh_dash_c_index(&C[5]), 2);
}

/* ---- compound commands ---- */

static void test_if_command(void **state)
{
    (void)state;
    assert_int_equal(split("if docker run --gpus all img; then\n  echo ok\nelif true; then :\nelse echo no; fi"), 0);
    assert_int_equal(N, 5);
    assert_string_equal(words(&C[0]), "docker|run|--gpus|all|img");
    assert_loc(C[0].loc, 1, 4);
    assert_int_equal(C[0].depth, 1);
    assert_string_equal(words(&C[1]), "echo|ok");
    assert_string_equal(words(&C[3]), ":");
    assert_string_equal(words(&C[4]), "echo|no");
    /* the arms: condition and then-body 0, each elif and the else one more */
    assert_int_equal(C[0].branch, 1);
    assert_int_equal(C[0].arm, 0);
    assert_int_equal(C[1].arm, 0);
    assert_int_equal(C[2].arm, 1); /* the elif's condition */
    assert_int_equal(C[3].arm, 1);
    assert_int_equal(C[4].arm, 2);
    assert_int_equal(C[4].branch, 1);
}

/* The innermost if/case of a command and its arm there (sh_cmd.branch, .arm): a nested
 * one has its own number, and the outer arm goes on after it closes. */
static void test_branch_arms(void **state)
{
    (void)state;
    const char *t = "echo top\n"
                    "if a; then\n"
                    "  case $X in 12) i12 ;; 13|14) i13 ;; esac\n"
                    "  after\n"
                    "else\n"
                    "  if b; then nested; fi\n"
                    "fi\n"
                    "if c; then second; fi; last";
    assert_int_equal(split(t), 0);
    assert_int_equal(N, 10);
    assert_int_equal(C[0].branch, 0); /* echo top */
    assert_int_equal(C[1].branch, 1); /* a */
    assert_int_equal(C[2].branch, 2); /* i12 */
    assert_int_equal(C[2].arm, 1);
    assert_int_equal(C[3].branch, 2); /* i13 */
    assert_int_equal(C[3].arm, 2);
    assert_string_equal(words(&C[4]), "after");
    assert_int_equal(C[4].branch, 1);
    assert_int_equal(C[4].arm, 0);
    assert_int_equal(C[5].branch, 3); /* b: the inner if of the else */
    assert_int_equal(C[6].branch, 3);
    assert_int_equal(C[6].arm, 0);
    assert_string_equal(words(&C[8]), "second");
    assert_int_equal(C[8].branch, 4);
    assert_int_equal(C[9].branch, 0); /* last */
}

/* An if's condition (sh_cmd.condition: up to its `then`, and an elif's) and a `!` before a
 * command (sh_cmd.negated); and the tests whose outcome the words decide (sh_test.h). */
/* sh_opts.branches: where each if and case stands (the innermost one open, its arm). */
static void test_branch_parents(void **state)
{
    (void)state;
    struct sh_branches t = {NULL, 0, 0};
    struct sh_opts o = {.branches = &t};
    const char *text = "if a; then if b; then x; fi; else case y in p) if c; then z; fi;; "
                       "q) :;; esac; fi; if d; then :; fi";
    assert_int_equal(split_len(text, strlen(text), &o), 0);
    assert_int_equal(t.n, 5);
    static const uint32_t parent[] = {0, 1, 1, 3, 0};
    static const uint8_t arm[] = {0, 0, 1, 1, 0};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(t.items[i].branch, parent[i]);
        assert_int_equal(t.items[i].arm, arm[i]);
    }
}

static void test_conditions_and_tests(void **state)
{
    (void)state;
    const char *t = "if ! [ a = b ]; then x; elif [[ c == d ]] && y\nthen\n  ! ! z\n"
                    "else w; fi; if test e != e; [ f = f ]; then v; fi";
    assert_int_equal(split(t), 0);
    assert_int_equal(N, 9);
    static const bool cond[] = {1, 0, 1, 1, 0, 0, 1, 1, 0};
    static const bool neg[] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < 9; i++) {
        assert_int_equal(C[i].condition, cond[i]);
        assert_int_equal(C[i].negated, neg[i]);
    }
    bool ok = false;
    assert_true(sh_test_known(&C[0], &ok)); /* ! [ a = b ] */
    assert_true(ok);
    assert_true(sh_test_known(&C[2], &ok)); /* [[ c == d ]]: fails in bash and in dash */
    assert_false(ok);
    assert_false(sh_test_known(&C[4], &ok)); /* ! ! z: no test */
    assert_true(sh_test_known(&C[6], &ok)); /* test e != e */
    assert_false(ok);
    assert_true(sh_test_known(&C[7], &ok));
    assert_true(ok);
    static const char *const undecided[] = {
        "[[ a == a ]]",   /* holds in bash, fails in dash */
        "[ a == a ]",     /* the same */
        "[[ a != b ]]",   /* the same */
        "[[ $V == cu* ]]", "[ a = a* ]", "[ -z a ]", "[ a -eq a ]", "[ \"$U\" = a ]",
        "[ a = b -o c = c ]", "[ a = b", "echo = b ]",
    };
    for (size_t i = 0; i < sizeof undecided / sizeof undecided[0]; i++) {
        assert_int_equal(split(undecided[i]), 0);
        if (N != 1 || sh_test_known(&C[0], &ok))
            fail_msg("`%s` decided", undecided[i]);
    }
}

static void test_for_loop(void **state)
{
    (void)state;
    assert_int_equal(split("x=img\nfor x in a b; do docker run $x; done\necho $x"), 0);
    assert_int_equal(N, 3);
    assert_string_equal(words(&C[1]), "docker|run|$x");
    assert_true(C[1].words[2].opaque);
    assert_int_equal(C[1].depth, 1);
    assert_int_equal(C[2].depth, 0);
    assert_true(C[2].words[1].opaque);
}

static void test_for_arith_and_while(void **state)
{
    (void)state;
    assert_int_equal(split("for ((i=0; i<3; i++)); do run $i; done\nwhile read -r l; do echo \"$l\"; done < f\n((n++))\nls"), 0);
    assert_int_equal(N, 4);
    assert_string_equal(words(&C[0]), "run|$i");
    assert_string_equal(words(&C[1]), "read|-r|l");
    assert_string_equal(words(&C[2]), "echo|$l");
    assert_string_equal(words(&C[3]), "ls");
    assert_int_equal(C[3].depth, 0);
}

static void test_case_command(void **state)
{
    (void)state;
    const char *t = "case \"$1\" in\n"
                    "  train|t) docker run -d img train ;;\n"
                    "  (eval) M=1; echo e ;&\n"
                    "  *) echo usage\n"
                    "esac\n"
                    "echo $M";
    assert_int_equal(split(t), 0);
    assert_int_equal(N, 5);
    assert_string_equal(words(&C[0]), "docker|run|-d|img|train");
    assert_string_equal(C[0].sep, ";;");
    assert_int_equal(C[0].depth, 1);
    assert_int_equal(C[1].nassigns, 1);
    assert_string_equal(words(&C[2]), "echo|e");
    assert_string_equal(C[2].sep, ";&");
    assert_string_equal(words(&C[3]), "echo|usage");
    assert_string_equal(words(&C[4]), "echo|$M");
    assert_int_equal(C[4].depth, 0);
    assert_true(C[4].words[1].opaque);
}

static void test_functions(void **state)
{
    (void)state;
    const char *t = "run() {\n  docker run \"$@\"\n}\n"
                    "function setup { V=1; }\n"
                    "function other() ( echo sub )\n"
                    "run x; echo $V";
    assert_int_equal(split(t), 0);
    assert_int_equal(N, 5);
    assert_string_equal(words(&C[0]), "docker|run|$@");
    assert_int_equal(C[0].depth, 1);
    assert_int_equal(C[1].depth, 1); /* V=1 in a function body */
    assert_int_equal(C[2].depth, 1);
    assert_string_equal(words(&C[2]), "echo|sub");
    assert_string_equal(words(&C[3]), "run|x");
    assert_int_equal(C[3].depth, 0);
    assert_true(C[4].words[1].opaque);
}

static void test_groups_and_subshells(void **state)
{
    (void)state;
    assert_int_equal(split("{ A=1; echo a; } && (cd d && B=2; docker run x) ; echo $A $B"), 0);
    assert_int_equal(N, 6);
    assert_string_equal(words(&C[1]), "echo|a");
    assert_int_equal(C[1].depth, 0);
    assert_false(C[1].subshell);
    assert_string_equal(words(&C[2]), "cd|d");
    assert_true(C[2].subshell);
    assert_string_equal(words(&C[4]), "docker|run|x");
    assert_string_equal(C[4].sep, ")");
    assert_false(C[5].subshell);
    assert_string_equal(C[5].words[1].text, "1");
    assert_true(C[5].words[2].opaque);
}

static void test_reserved_words_only_in_command_position(void **state)
{
    (void)state;
    assert_int_equal(split("echo if then fi; \"if\" x; ! docker run a; time docker run b"), 0);
    assert_int_equal(N, 4);
    assert_string_equal(words(&C[0]), "echo|if|then|fi");
    assert_string_equal(words(&C[1]), "if|x");
    assert_string_equal(words(&C[2]), "docker|run|a");
    assert_string_equal(words(&C[3]), "docker|run|b");
}

/* ---- errors and hostile input ---- */

static void test_unterminated_single_quote(void **state)
{
    (void)state;
    assert_int_equal(split("echo ok\ndocker run 'abc\nmore"), -1);
    assert_true(E.set);
    assert_loc(E.loc, 2, 12);
    assert_int_equal(E.offset, 19);
    assert_non_null(strstr(E.message, "expected"));
    assert_int_equal(N, 2);
    assert_string_equal(words(&C[0]), "echo|ok");
    assert_true(C[1].words[2].opaque);
}

static void test_unterminated_double_quote_and_subst(void **state)
{
    (void)state;
    assert_int_equal(split("a \"b $(c"), -1); /* the innermost open construct */
    assert_loc(E.loc, 1, 6);
    assert_int_equal(split("a \"b $c"), -1);
    assert_loc(E.loc, 1, 3);
    assert_int_equal(split("a b $(c \"d\"\n e"), -1);
    assert_loc(E.loc, 1, 5);
    assert_int_equal(split("x ${y"), -1);
    assert_loc(E.loc, 1, 3);
    assert_int_equal(split("x `y"), -1);
    assert_loc(E.loc, 1, 3);
}

static void test_nul_bytes(void **state)
{
    (void)state;
    const char t[] = "docker\0run 'a\0b' \"\0\" x\0";
    assert_int_equal(split_len(t, sizeof t - 1, NULL), 0);
    assert_int_equal(N, 1);
    assert_int_equal(C[0].nwords, 4);
    assert_int_equal(C[0].info[0].len, 10);
    assert_int_equal(C[0].info[1].len, 3);
    assert_int_equal(memcmp(C[0].words[1].text, "a\0b", 3), 0);
    assert_loc(C[0].words[2].loc, 1, 18);
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    const char *t = "echo \xff\xfe \"\xc3(\" caf\xc3\xa9 x";
    assert_int_equal(split(t), 0);
    assert_int_equal(C[0].nwords, 5);
    assert_string_equal(C[0].words[1].text, "\xff\xfe");
    assert_loc(C[0].words[4].loc, 1, 20);
}

static void test_srcmap_given(void **state)
{
    (void)state;
    /* A RUN line joined across a continuation: "apt-get install -y  cuda" where the
     * second piece starts at line 8 col 5. */
    const char *t = "apt-get install -y  cuda";
    struct gl_srcmap m;
    gl_srcmap_init(&m, &A);
    gl_srcmap_add(&m, 0, 7, 5);
    gl_srcmap_add(&m, 19, 8, 5);
    assert_int_equal(sh_split(&A, t, strlen(t), &m, NULL, &C, &N, &E), 0);
    assert_loc(C[0].words[0].loc, 7, 5);
    assert_loc(C[0].words[2].loc, 7, 21);
    assert_loc(C[0].words[3].loc, 8, 6);
}

/* One word past the cap ends the split with an error at that word; memory stays bounded. */
static void test_too_many_words(void **state)
{
    (void)state;
    size_t words = (1u << 20) + 1, len = words * 2;
    char *t = malloc(len + 1);
    for (size_t k = 0; k < len; k++)
        t[k] = k % 2 ? ' ' : 'w';
    t[len] = 0;
    assert_int_equal(split_len(t, len, NULL), -1);
    assert_true(E.set);
    assert_loc(E.loc, 1, (uint32_t)(len - 1));
    free(t);
}

static void test_long_line_linear(void **state)
{
    (void)state;
    size_t len = 8u << 20; /* 2^20 words: the most one text may hold */
    char *t = malloc(len + 1);
    for (size_t k = 0; k < len; k++)
        t[k] = (k % 8 == 7) ? ' ' : "ab\\c'd\"e"[k % 8 == 2 ? 0 : k % 2];
    t[len] = 0;
    clock_t c0 = clock();
    assert_int_equal(split_len(t, len, NULL), 0);
    double small_secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    assert_int_equal(N, 1);
    assert_int_equal(C[0].nwords, len / 8);
    /* one huge quoted word too */
    memset(t, 'x', len);
    t[0] = '"';
    t[len - 1] = '"';
    c0 = clock();
    assert_int_equal(split_len(t, len, NULL), 0);
    assert_int_equal(C[0].info[0].len, len - 2);
    double big_secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    assert_true(small_secs < 10.0 && big_secs < 5.0);
    free(t);
}

static void test_deep_command_substitution(void **state)
{
    (void)state;
    size_t depth = 100000;
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_adds(&b, "echo ");
    for (size_t k = 0; k < depth; k++)
        gl_buf_adds(&b, "$( ");
    for (size_t k = 0; k < depth; k++)
        gl_buf_adds(&b, ") ");
    gl_buf_adds(&b, "; ls");
    assert_int_equal(split_len(b.data, b.len, NULL), 0);
    assert_int_equal(N, 2);
    assert_true(C[0].words[1].opaque);
    assert_string_equal(words(&C[1]), "ls");
    gl_buf_free(&b);
}

static void test_deep_nesting_everything(void **state)
{
    (void)state;
    size_t depth = 100000;
    struct gl_buf b;
    gl_buf_init(&b);
    for (size_t k = 0; k < depth; k++)
        gl_buf_adds(&b, "\"${X:-");
    gl_buf_adds(&b, "v");
    for (size_t k = 0; k < depth; k++)
        gl_buf_adds(&b, "}\"");
    gl_buf_adds(&b, "\n");
    for (size_t k = 0; k < depth; k++)
        gl_buf_adds(&b, "( if { ");
    gl_buf_adds(&b, "echo deep");
    assert_int_equal(split_len(b.data, b.len, NULL), 0);
    assert_int_equal(N, 2);
    assert_true(C[0].words[0].opaque);
    assert_string_equal(words(&C[1]), "echo|deep");
    assert_int_equal(C[1].depth, (int)depth);
    gl_buf_free(&b);
}

static void test_garbage_never_crashes(void **state)
{
    (void)state;
    const char *inputs[] = {"", "\\", "$", "${", "${}", "$(", "`", "'", "\"", "<<", "2>",
                            "))))", "fi done esac }", "case", "for", "function", "()",
                            "a=(", "${x:-", "$'\\", "$'\\x", "<(", "((", "for ((", "<<-",
                            "cat <<\n", "x\\", "f() ", ";;&;;", "|&|&", "a \\\n", NULL};
    for (size_t k = 0; inputs[k]; k++) {
        split(inputs[k]);
        split_len(inputs[k], strlen(inputs[k]) + 1, NULL); /* with a trailing NUL */
    }
    srand(7);
    char buf[256];
    const char alphabet[] = "ab $(){}\"'`\\;&|<>#\n=:-+?!\t0";
    for (int round = 0; round < 3000; round++) {
        size_t n = (size_t)(rand() % 255);
        for (size_t k = 0; k < n; k++)
            buf[k] = alphabet[rand() % (int)(sizeof alphabet - 1)];
        split_len(buf, n, NULL);
        split_len(buf, n, &(struct sh_opts){.track_assignments = true});
        for (size_t c = 0; c < N; c++) {
            long d = sh_dash_c_index(&C[c]);
            for (size_t w = 0; w < C[c].nwords; w++) {
                struct sh_cmd *in;
                size_t nin;
                sh_split_word_again(&A, &C[c], w, NULL, &in, &nin, NULL);
                sh_word_byte_loc(&C[c], w, C[c].info[w].len / 2);
            }
            (void)d;
        }
    }
}


/* A word built by the lexer's builder (quotes, expansions) longer than its first room on
 * sh_split's stack goes on on the heap: nothing lost at the seam. */
static void test_long_built_word(void **state)
{
    (void)state;
    char text[1200];
    size_t n = (size_t)snprintf(text, sizeof text, "x=1; echo \"${x}");
    for (size_t k = 0; k < 700; k++)
        text[n++] = (char)('a' + k % 26);
    text[n++] = '"';
    text[n] = 0;
    assert_int_equal(split(text), 0);
    assert_int_equal(N, 2);
    assert_int_equal(C[1].nwords, 2);
    assert_int_equal(C[1].info[1].len, 701);
    assert_int_equal(C[1].words[1].text[0], '1');
    for (size_t k = 0; k < 700; k++)
        assert_int_equal(C[1].words[1].text[k + 1], 'a' + (int)(k % 26));
    assert_int_equal(C[1].words[1].text[701], 0);
}

/* sh_opts.words_only: the same commands, words, positions, errors and arena charges as a
 * split without it (so the parse-memory limit trips at the same token), infos kept only
 * for a `sh -c` and then equal, spans included (a plain word's span is written late). */
static void split_both(const char *text, size_t len, size_t limit)
{
    struct gl_arena a1, a2;
    gl_arena_init(&a1);
    gl_arena_init(&a2);
    a1.limit = a2.limit = limit;
    struct sh_cmd *c1, *c2;
    size_t n1, n2;
    struct sh_error e1, e2;
    struct sh_opts o1 = {.track_assignments = true}, o2 = o1;
    o2.words_only = true;
    int r1 = sh_split(&a1, text, len, NULL, &o1, &c1, &n1, &e1);
    int r2 = sh_split(&a2, text, len, NULL, &o2, &c2, &n2, &e2);
    assert_int_equal(r1, r2);
    assert_int_equal(n1, n2);
    assert_int_equal(a1.total, a2.total);
    assert_int_equal(a1.over, a2.over);
    assert_int_equal(e1.set, e2.set);
    assert_int_equal(e1.offset, e2.offset);
    for (size_t c = 0; c < n1; c++) {
        assert_int_equal(c1[c].nwords, c2[c].nwords);
        long d = sh_dash_c_index(&c1[c]);
        assert_int_equal(d, c2[c].info ? sh_dash_c_index(&c2[c]) : -1);
        assert_int_equal(d >= 0, c2[c].info != NULL);
        for (size_t w = 0; w < c1[c].nwords; w++) {
            const struct gl_word *w1 = &c1[c].words[w], *w2 = &c2[c].words[w];
            assert_int_equal(w1->opaque, w2->opaque);
            assert_loc(w1->loc, w2->loc.line, w2->loc.col);
            if (!c2[c].info) {
                assert_string_equal(w1->text, w2->text);
                continue;
            }
            const struct sh_word_info *i1 = &c1[c].info[w], *i2 = &c2[c].info[w];
            assert_int_equal(i1->len, i2->len);
            assert_memory_equal(w1->text, w2->text, i1->len + 1);
            assert_int_equal(i1->src, i2->src);
            assert_int_equal(i1->nspans, i2->nspans);
            assert_int_equal(i1->quoted, i2->quoted);
            assert_int_equal(i1->may_split, i2->may_split);
            assert_int_equal(i1->from_split, i2->from_split);
            for (size_t k = 0; k < i1->nspans; k++) {
                assert_int_equal(i1->spans[k].out, i2->spans[k].out);
                assert_int_equal(i1->spans[k].src, i2->spans[k].src);
                assert_int_equal(i1->spans[k].len, i2->spans[k].len);
                assert_int_equal(i1->spans[k].literal, i2->spans[k].literal);
                assert_int_equal(i1->spans[k].opaque, i2->spans[k].opaque);
            }
        }
    }
    gl_arena_free(&a1);
    gl_arena_free(&a2);
}

/* sh_opts.grammar (a whole script): a closer that closes nothing is an error at it, a
 * compound command still open at the end an error at its opener; without it (a piece of
 * a script: a RUN line, a Markdown fence) neither is; `sh -c` strings never. */
static int split_grammar(const char *text, bool grammar)
{
    struct sh_opts o = {.track_assignments = true, .grammar = grammar};
    memset(&E, 0, sizeof E);
    return split_len(text, strlen(text), &o);
}

static void test_grammar_of_a_script(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t offset; /* of the error; SIZE_MAX: none */
    } cases[] = {
        {"echo a\nfi\n", 7},
        {"echo a; done\n", 8},
        {"then echo\n", 0},
        {"x=1\n  esac\n", 6},
        {"echo a )\n", 7},
        {"echo ;;\n", 5},
        {"{ echo; }\n}\n", 10},
        {"true\nif a; then\n  b\n", 5},
        {"f() {\n echo\n", 4},
        {"while x; do\n case y in\n  z) :;;\n esac\n", 0},
        {"if a; then b; elif c; then d; else e; fi\n", SIZE_MAX},
        {"f() if a; then b; fi\n{ g() (( 1 )); }\n", SIZE_MAX},
        {"[[ ( -n a ) && b =~ ^(c|d)$ ]]\narr=( 1 2 )\n", SIZE_MAX},
        {"case x in (a) b ;; c|d) if e; then f; fi ;; esac\n", SIZE_MAX},
        {"for ((i = 0; i < 2; i++)) do :; done; for x do :; done\n", SIZE_MAX},
        /* a case in a command substitution: its patterns' `)` close no `$(` */
        {"v=$(case $n in 1) a ;; *) b ;; esac)\necho $(case a in esac) $(echo case x)\n",
         SIZE_MAX},
        {"v=$(if a; then case $n in (1) a ;; esac; fi) $(for w in case; do :; done)\n",
         SIZE_MAX},
        {"v=$(case a in a) echo esac ;; esac); fi\n", 37},
        /* coproc [NAME] compound | simple command (bash -n's verdicts) */
        {"coproc w { cat; }\ncoproc ( a )\ncoproc \"n\" while a; do b; done\n", SIZE_MAX},
        {"coproc cat file\ncoproc n\n{ b; }\necho | coproc if a; then b; fi\n", SIZE_MAX},
        {"coproc n [[ a ]]; coproc n (( 1 )); coproc time { :; }\n", SIZE_MAX},
        {"coproc n m { b; }\n", 16},
        {"x=1 coproc { b; }\n", 16},
        {"coproc }\n", 7},
        /* a redirection with no target (not in [[ ]], nor before >(...) or a CR) */
        {"echo a >\necho b\n", 7},
        {"echo a 2>&\n", 7},
        {"cat < ;\n", 4},
        {"f() { :; } >>\n", 11},
        {"cat <<\n", 4},
        {"echo > | cat\n", 5},
        {"echo a > >(cat) 2> >(cat); cat < <(ls)\n[[ a > b && c =~ ^[<>]*$ ]]\n", SIZE_MAX},
        {"echo a >| b >&- 2>& 1\n", SIZE_MAX},
        /* CRLF line ends: where bash takes a CR into a reserved word or after `)`, `;;`
           (one error, at the first CR line end) */
        {"a\r\nif b; then c; fi\r\n", 1},
        {"case a in\r\n b) c;;\r\nesac\r\n", 9},
        {"x\r\nfor i in a; do b; done\r\n", 1},
        {"x\r\n( a )\r\n", 1},
        {"x\r\n{\r\n a; }\n", 1},
        {"a\r\necho >\r\nif b; then c; else\r\n d; fi\n", SIZE_MAX},
        {"case a\r\nin b) c\r\n;; esac\nfor x in a b\r\ndo :; done\n", SIZE_MAX},
        {"for x in a; { :; }\nfor ((i = 0; i < 1; i++)) { :; }\n", SIZE_MAX},
        {"for x in a; {\n :;\n", 0},
        {"while { read x; }; do :; done\n", SIZE_MAX},
        {"for /r %i in (*.gz) do pip wheel %i\n", 7},
        {"sh -c 'fi'\n", SIZE_MAX},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int rc = split_grammar(cases[k].text, true);
        if (cases[k].offset == SIZE_MAX) {
            if (rc != 0)
                fail_msg("case %zu: %s", k, E.message);
        } else {
            if (rc != -1 || !E.set)
                fail_msg("case %zu: no error, expected one at %zu", k, cases[k].offset);
            if (E.offset != cases[k].offset)
                fail_msg("case %zu: error at %zu, expected %zu (%s)", k, E.offset,
                         cases[k].offset, E.message);
        }
        assert_int_equal(split_grammar(cases[k].text, false), 0); /* a piece: lenient */
    }
    /* the word shown is cut at a character's start (39 bytes, not 40: the first of the
       two bytes of an e acute) */
    assert_int_equal(split_grammar("for x aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9 do\n",
                                   true), -1);
    assert_non_null(strstr(E.message, "aaa`: `in`"));
    /* a brace-form loop left open misses its `}`, not a `done` */
    assert_int_equal(split_grammar("for x in a; {\n :;\n", true), -1);
    assert_non_null(strstr(E.message, "`}` is missing"));
    /* the words of `sh -c` are split again without the grammar */
    assert_int_equal(split_grammar("sh -c 'fi'\n", true), 0);
    struct sh_cmd *in;
    size_t nin;
    struct sh_opts o = {.grammar = true};
    assert_int_equal(sh_split_word_again(&A, &C[0], 2, &o, &in, &nin, &E), 0);
}

static void test_words_only_same_split(void **state)
{
    (void)state;
    const char *texts[] = {
        "sh -c 'apt-get install -y x' && bash -ec \"echo $HOME\" plain",
        "/bin/sh -c true; x=1 export A=b; bash -o pipefail -c 'a | b'",
        "apt-get update && apt-get install -y --no-install-recommends curl \\\n    git",
        NULL};
    for (size_t k = 0; texts[k]; k++)
        split_both(texts[k], strlen(texts[k]), 0);
    /* random texts of shell-ish tokens, with and without a memory limit */
    static const char *const toks[] = {"sh", "bash", "-c", "-ec", "-o", "pipefail", "--",
                                       "'a b'", "\"c $d\"", "x=1", "export", "e=f", "$V",
                                       "${W:-w}", "&&", "||", ";", "|", "\n", "(", ")",
                                       "if", "then", "fi", "for", "in", "do", "done",
                                       "2>&1", ">", "f", "<<E", "E", "\\\n", "#c", "{",
                                       "}", "apt-get", "install", "-y", "pkg=1.0", "`x`"};
    srand(11);
    char buf[1024];
    for (int round = 0; round < 4000; round++) {
        size_t n = 0, ntok = (size_t)(rand() % 40);
        for (size_t t = 0; t < ntok; t++) {
            const char *tk = toks[rand() % (int)(sizeof toks / sizeof toks[0])];
            size_t l = strlen(tk);
            if (n + l + 2 >= sizeof buf)
                break;
            memcpy(buf + n, tk, l);
            n += l;
            buf[n++] = rand() % 4 ? ' ' : '\t';
        }
        split_both(buf, n, 0);
        split_both(buf, n, (size_t)(rand() % 4096));
    }
}

/* Here-documents inside $(...), `...` and <(...): their bodies are text to the end of the
 * delimiter line, so a quote or a parenthesis in a body neither ends nor opens anything
 * (bash -n accepts all of these; the body used to run away and hide what followed). */
static void test_heredoc_inside_substitution(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "x=$(cat <<EOF\nhello \"world\nEOF\n)\ndocker run img\n",
        "x=$(cat <<'EOF'\nit's ) here\nEOF\n)\ndocker run img\n",
        "x=$(cat <<-EOF\n\tit's\n\tEOF\n)\ndocker run img\n",
        "x=`cat <<EOF\n\"\nEOF\n`\ndocker run img\n",
        "diff <(cat <<A <<B\n(\nA\n'\nB\n) y\ndocker run img\n",
        "x=$(cat <<\"E O\"\n$(\nE O\n)\ndocker run img\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        print_message("%s", texts[i]);
        assert_int_equal(split(texts[i]), 0);
        assert_false(E.set);
        assert_string_equal(words(&C[N - 1]), "docker|run|img");
    }
    /* arithmetic shifts are no here-documents */
    assert_int_equal(split("x=$(( 1 << 2 ))\ny=$(echo \"a\")\ndocker run img\n"), 0);
    assert_string_equal(words(&C[N - 1]), "docker|run|img");
    /* a body that never ends leaves the substitution open: still an error */
    assert_int_equal(split("x=$(cat <<EOF\n)\n"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_simple_words_and_locs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_github_expressions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_var_values_on_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_single_quotes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_double_quotes_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backslash_outside_quotes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_continuation_locs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_continuation_inside_word, setup, teardown),
        cmocka_unit_test_setup_teardown(test_commented_continuation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ansi_c_quotes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crlf, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipelines_and_lists, setup, teardown),
        cmocka_unit_test_setup_teardown(test_background, setup, teardown),
        cmocka_unit_test_setup_teardown(test_redirections, setup, teardown),
        cmocka_unit_test_setup_teardown(test_heredoc_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_heredoc_dash_and_quoted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_heredoc_unterminated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_var_from_assignment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_export_and_declare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unset_variable_opaque, setup, teardown),
        cmocka_unit_test_setup_teardown(test_default_when_unset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_default_when_set, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sourced_file_may_assign, setup, teardown),
        cmocka_unit_test_setup_teardown(test_assign_default, setup, teardown),
        cmocka_unit_test_setup_teardown(test_branch_assigned_opaque, setup, teardown),
        cmocka_unit_test_setup_teardown(test_conditional_and_pipeline_assignments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reassigned_different_value, setup, teardown),
        cmocka_unit_test_setup_teardown(test_command_substitution_opaque, setup, teardown),
        cmocka_unit_test_setup_teardown(test_argv_in_unknown_variable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_argv_in_known_variable_split, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_expansion_removed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arrays_and_append_opaque, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plain_assignments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unquoted_expansions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_and_loop_var_opaque, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lookup_callback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_assignments_not_tracked_without_option, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefix_assignment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shared_vars_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quoted_words, setup, teardown),
        cmocka_unit_test_setup_teardown(test_quoted_expansions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_placeholders, setup, teardown),
        cmocka_unit_test_setup_teardown(test_expansion_bomb_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sh_c_resplit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sh_c_resplit_escapes_and_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dash_c_index_variants, setup, teardown),
        cmocka_unit_test_setup_teardown(test_if_command, setup, teardown),
        cmocka_unit_test_setup_teardown(test_branch_arms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_conditions_and_tests, setup, teardown),
        cmocka_unit_test_setup_teardown(test_branch_parents, setup, teardown),
        cmocka_unit_test_setup_teardown(test_for_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_for_arith_and_while, setup, teardown),
        cmocka_unit_test_setup_teardown(test_case_command, setup, teardown),
        cmocka_unit_test_setup_teardown(test_functions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_groups_and_subshells, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reserved_words_only_in_command_position, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unterminated_single_quote, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unterminated_double_quote_and_subst, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nul_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_utf8, setup, teardown),
        cmocka_unit_test_setup_teardown(test_srcmap_given, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_line_linear, setup, teardown),
        cmocka_unit_test_setup_teardown(test_too_many_words, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_command_substitution, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_nesting_everything, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage_never_crashes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_heredoc_inside_substitution, setup, teardown),
        cmocka_unit_test_setup_teardown(test_words_only_same_split, setup, teardown),
        cmocka_unit_test_setup_teardown(test_grammar_of_a_script, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_built_word, setup, teardown),
        cmocka_unit_test(test_clear_any_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
