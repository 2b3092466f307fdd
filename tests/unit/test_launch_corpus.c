/* SPDX-License-Identifier: Apache-2.0 */
/* test_launch_corpus.c: every real file of tests/corpus/files/runlines and apptainer
 * through the launch parsers: none may fail to parse (GL900), and the traps the corpus
 * README names must hold. Prints the launches found per file (run with -v... the output
 * is always printed: it is the record of what the parsers see). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdlib.h>

#include "tests/unit/test_launch_util.h"

extern const struct gl_input_type gl_input_shell, gl_input_makefile, gl_input_markdown,
    gl_input_apptainer_def;

static const struct gl_input_type *type_of(const char *base, const char *data, size_t len)
{
    const struct gl_input_type *types[] = {&gl_input_apptainer_def, &gl_input_markdown,
                                           &gl_input_makefile, &gl_input_shell};
    for (size_t i = 0; i < 4; i++)
        if (types[i]->by_name(base, base))
            return types[i];
    if (gl_has_suffix(base, ".def") && gl_input_apptainer_def.by_content(base, data, len))
        return &gl_input_apptainer_def;
    if (gl_input_shell.by_content(base, data, len))
        return &gl_input_shell;
    return NULL;
}

static char *data_of_file;

/* Parse one corpus file into D; returns its type (NULL: none of ours). */
static const struct gl_input_type *load(const char *dir, const char *base)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", GPULINT_CORPUS_DIR, dir, base);
    size_t len;
    free(data_of_file);
    data_of_file = NULL;
    assert_int_equal(gl_read_file(path, &data_of_file, &len), 0);
    const struct gl_input_type *t = type_of(base, data_of_file, len);
    if (!t)
        return NULL;
    D.path = base;
    D.text = data_of_file;
    D.len = len;
    t->parse(&D, NULL);
    return t;
}

static void report(const char *dir, const char *base, const struct gl_input_type *t)
{
    printf("%-10s %-90s %-14s launches=%zu refs=%zu\n", dir, base, t ? t->name : "-",
           D.nlaunches, D.nrefs);
    for (size_t i = 0; i < D.nlaunches; i++) {
        const struct gl_launch *l = &D.launches[i];
        printf("    %u:%u %s image=%s gpus=%zu mounts=%zu argv=%zu%s%s%s%s\n", l->loc.line,
               l->loc.col, l->tool, image(i), l->ngpus, l->nmounts, l->nargv,
               l->detached ? " detached" : "", l->argv_opaque ? " argv-opaque" : "",
               l->opts_opaque ? " opts-opaque" : "", l->apptainer_nv ? " nv" : "");
    }
}

static void each_file(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", GPULINT_CORPUS_DIR, dir);
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        const char *base = names[i]->d_name;
        if (base[0] != '.' && strcmp(base, "SOURCES.tsv")) {
            doc_setup(NULL);
            const struct gl_input_type *t = load(dir, base);
            report(dir, base, t);
            if (D.error.set)
                printf("    GL900 at %u:%u: %s\n", D.error.loc.line, D.error.loc.col,
                       D.error.message);
            assert_false(D.error.set);
            doc_teardown(NULL);
        }
        free(names[i]);
    }
    free(names);
}

static void t_runlines(void **s)
{
    (void)s;
    each_file("runlines");
}

static void t_apptainer(void **s)
{
    (void)s;
    each_file("apptainer");
}

/* `--gpus "0,1"` in coqui's FAQ belongs to trainer.distribute, not docker. */
static void t_trap_coqui(void **s)
{
    (void)s;
    load("runlines", "coqui-ai__TTS__docs__source__faq.md");
    for (size_t i = 0; i < D.nlaunches; i++)
        for (size_t k = 0; k < D.launches[i].ngpus; k++)
            assert_string_not_equal(D.launches[i].gpus[k].value, "0,1");
}

/* detectron2's wheel build: a docker run with no GPU request. */
static void t_trap_detectron2(void **s)
{
    (void)s;
    load("runlines", "facebookresearch__detectron2__dev__packaging__build_all_wheels.sh");
    assert_true(D.nlaunches >= 1);
    for (size_t i = 0; i < D.nlaunches; i++)
        assert_int_equal(D.launches[i].ngpus, 0);
}

/* fixtures/launch: one file per input type, with the launches each must give. */
static void t_fixtures(void **s)
{
    (void)s;
    static const struct {
        const char *file;
        size_t launches, refs;
    } want[] = {{"train.sh", 3, 3}, {"Makefile", 1, 1}, {"README.md", 2, 2},
                {"pytorch.def", 0, 1}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/fixtures/launch/%s", GPULINT_SOURCE_DIR, want[i].file);
        size_t len;
        free(data_of_file);
        assert_int_equal(gl_read_file(path, &data_of_file, &len), 0);
        doc_setup(NULL);
        const struct gl_input_type *t = type_of(want[i].file, data_of_file, len);
        assert_non_null(t);
        D.path = want[i].file;
        D.text = data_of_file;
        D.len = len;
        t->parse(&D, NULL);
        report("fixtures", want[i].file, t);
        assert_false(D.error.set);
        assert_int_equal(D.nlaunches, want[i].launches);
        assert_int_equal(D.nrefs, want[i].refs);
        if (!strcmp(want[i].file, "train.sh")) {
            assert_true(L(0)->detached && L(1)->detached && !L(2)->detached);
            assert_null(test_gl412(&D, 4, NULL));     /* L(0): --gpus '"device=0,1"' */
            assert_non_null(test_gl412(&D, 5, NULL)); /* L(1): --gpus device=0,1 */
            assert_string_equal(argv_of(2), "sh|-c|python|train.py|--data|/data|--output_dir|/out");
            assert_int_equal(D.nignores, 1);
            assert_int_equal(D.ignores[0].first, 7);
            assert_int_equal(D.ignores[0].last, 9);
        }
        doc_teardown(NULL);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_runlines),
        cmocka_unit_test(t_apptainer),
        cmocka_unit_test(t_fixtures),
        cmocka_unit_test_setup_teardown(t_trap_coqui, doc_setup, doc_teardown),
        cmocka_unit_test_setup_teardown(t_trap_detectron2, doc_setup, doc_teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(data_of_file);
    return rc;
}
