/* SPDX-License-Identifier: Apache-2.0 */
/* test_llamaswap.c: llama-swap configurations -> launches (parsers/launch/
 * llamaswap_input.c): recognition by shape, one command of a cmd's lines, comments,
 * macros, positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "test_support.h"

static struct gl_doc *parse(const char *text)
{
    const struct gl_input_type *t = gl_input_type_named("llama-swap");
    assert_non_null(t);
    struct gl_doc *d = test_doc_new("config.yaml", GL_IN_LLAMASWAP, text, strlen(text));
    t->parse(d, NULL);
    return d;
}

static enum gl_input_kind sniff(const char *path, const char *text)
{
    return gl_sniff(path, text, strlen(text), false);
}

static void test_recognition(void **st)
{
    (void)st;
    assert_int_equal(sniff("config.yaml", "# c\nmodels:\n  a:\n    cmd: llama-server -m x\n"),
                     GL_IN_LLAMASWAP);
    assert_int_equal(sniff("x.yml", "logLevel: info\nmodels:\n  \"a b\":\n    cmd: |\n"
                                    "      docker run img:1\n"),
                     GL_IN_LLAMASWAP);
    /* the shape decides: models without a cmd, a cmd elsewhere, a nested models:, compose */
    assert_int_not_equal(sniff("x.yml", "models:\n  a:\n    path: /m\n"), GL_IN_LLAMASWAP);
    assert_int_not_equal(sniff("x.yml", "tasks:\n  a:\n    cmd: docker run img:1\n"),
                         GL_IN_LLAMASWAP);
    assert_int_not_equal(sniff("x.yml", "x:\n  models:\n    a:\n      cmd: docker run i:1\n"),
                         GL_IN_LLAMASWAP);
    assert_int_not_equal(sniff("x.yml", "models:\n  - cmd: docker run img:1\n"), GL_IN_LLAMASWAP);
    assert_int_equal(sniff("x.yml", "services:\n  a:\n    image: img:1\nmodels:\n  m:\n"
                                    "    cmd: x\n"),
                     GL_IN_COMPOSE);
}

static void test_one_command(void **st)
{
    (void)st;
    struct gl_doc *d = parse("macros:\n"
                             "  \"dock-gpu\": docker run --rm --gpus all\n"
                             "  img: example/server:1.2   \n"
                             "  odd: \"a 'b'\"\n"
                             "models:\n"
                             "  one:\n"
                             "    cmdStop: docker run other:9\n"
                             "    cmd: |\n"
                             "      # docker run commented:1\n"
                             "      docker run --rm --name x \\\n"
                             "        -p ${PORT}:80 # docker run comment:2\n"
                             "        example/app:3 serve --port 80\n"
                             "  two:\n"
                             "    cmd: ${dock-gpu} ${img} --model ${odd}\n"
                             "  three:\n"
                             "    macros:\n"
                             "      img: example/own:4\n"
                             "    cmd: docker run ${img}\n");
    assert_int_equal(d->nlaunches, 3);
    /* one: the lines are one command, its comments dropped */
    assert_string_equal(d->refs[d->launches[0].ref].text, "example/app:3");
    assert_int_equal(d->refs[d->launches[0].ref].loc.line, 12);
    assert_int_equal(d->refs[d->launches[0].ref].loc.col, 9);
    assert_int_equal(d->launches[0].nargv, 3);
    /* two: the macros are substituted (a `-` in a name too); a quoted one is unknown */
    assert_int_equal(d->launches[1].ngpus, 1);
    assert_string_equal(d->refs[d->launches[1].ref].text, "example/server:1.2");
    assert_int_equal(d->refs[d->launches[1].ref].loc.col, 22);
    assert_true(d->launches[1].argv[1].opaque);
    /* three: the model's own macro first */
    assert_string_equal(d->refs[d->launches[2].ref].text, "example/own:4");
    test_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recognition),
        cmocka_unit_test(test_one_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
