/* SPDX-License-Identifier: Apache-2.0 */
/* test_ciyaml.c: CI YAML scripts -> launches (parsers/launch/ci/ciyaml.c), positions through the
 * block scalar's srcmap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "test_support.h"

/* The doc of `text`, read by the ciyaml reader. */
static struct gl_doc *parse(const char *path, const char *text)
{
    const struct gl_input_type *t = gl_input_type_named("ciyaml");
    assert_non_null(t);
    struct gl_doc *d = test_doc_new(path, GL_IN_CIYAML, text, strlen(text));
    t->parse(d, NULL);
    return d;
}

static void done(struct gl_doc *d) { test_doc_free(d); }

static void test_github_run_block(void **st)
{
    (void)st;
    const char *wf = "on: push\njobs:\n  t:\n    steps:\n      - run: |\n          echo hi\n"
                     "          docker run --gpus all -v /d:/d img:1 python t.py\n";
    assert_int_equal(gl_sniff("repo/.github/workflows/ci.yml", wf, strlen(wf), false), GL_IN_CIYAML);
    struct gl_doc *d = parse("repo/.github/workflows/ci.yml", wf);
    assert_false(d->error.set);
    assert_int_equal(d->nlaunches, 1);
    assert_int_equal(d->launches[0].loc.line, 7);
    assert_int_equal(d->launches[0].loc.col, 11);
    assert_int_equal(d->refs[0].loc.line, 7);
    assert_int_equal(d->refs[0].loc.col, 42);
    done(d);
}

static void test_gitlab_scripts(void **st)
{
    (void)st;
    const char *ci = "stages: [t]\ntrain:\n  script:\n    - IMG=img:2\n"
                     "    - docker run -d --gpus all $IMG\n";
    assert_int_equal(gl_sniff("repo/.gitlab-ci.yml", ci, strlen(ci), false), GL_IN_CIYAML);
    struct gl_doc *d = parse("repo/.gitlab-ci.yml", ci);
    assert_int_equal(d->nlaunches, 1);
    assert_int_equal(d->launches[0].loc.line, 5);
    assert_int_equal(d->launches[0].loc.col, 7);
    assert_string_equal(d->refs[0].text, "img:2"); /* one shell per job */
    done(d);
}

static void test_github_containers(void **st)
{
    (void)st;
    const char *wf = "on: push\njobs:\n  t:\n    runs-on: [self-hosted, GPU]\n"
                     "    container:\n      image: img:1\n"
                     "      options: --gpus all --shm-size ${{ inputs.shm }} -v /d:/d:ro\n"
                     "      volumes:\n        - /ckpt:/ckpt\n"
                     "      env: {NVIDIA_DRIVER_CAPABILITIES: compute}\n"
                     "    services:\n      db:\n        image: ${{ matrix.db }}\n"
                     "    steps:\n      - run: echo\n"
                     "  b:\n    runs-on: ubuntu-latest\n    container: img:2\n"
                     "    steps:\n      - run: echo\n";
    struct gl_doc *d = parse("repo/.github/workflows/ci.yml", wf);
    assert_false(d->error.set);
    assert_int_equal(d->nlaunches, 3);
    const struct gl_launch *c = &d->launches[0];
    assert_string_equal(c->tool, "github-actions");
    assert_string_equal(c->name, "container of job `t`");
    assert_true(c->gpu_unseen); /* a GPU runner may give GPUs no workflow shows */
    assert_int_equal(c->ngpus, 1);
    assert_int_equal(c->gpus[0].loc.line, 7);
    assert_int_equal(c->gpus[0].loc.col, 23);
    assert_int_equal(c->shm_bytes, INT64_MAX); /* an expression: large enough */
    assert_int_equal(c->nmounts, 2);
    assert_true(c->mounts[0].readonly);
    assert_string_equal(c->mounts[1].target, "/ckpt");
    assert_int_equal(c->mounts[1].loc.line, 9);
    assert_int_equal(c->mounts[1].loc.col, 11);
    assert_int_equal(d->nenv, 1);
    assert_int_equal(d->env[0].launch, 0);
    assert_int_equal(d->launches[1].ref, -1); /* the service's image is an expression */
    assert_string_equal(d->launches[1].group, c->group);
    assert_true(d->launches[2].gpu_unseen); /* ubuntu-latest has no GPU */
    assert_int_equal(c->nsteps, 1); /* the job's steps run in its container */
    assert_string_equal(c->steps[0].text, "echo");
    assert_int_equal(d->launches[1].nsteps, 0); /* not in its services */
    assert_int_equal(d->refs[d->launches[2].ref].loc.line, 18);
    assert_int_equal(d->refs[d->launches[2].ref].loc.col, 16);
    done(d);
}

static void test_github_steps(void **st)
{
    (void)st;
    const char *wf = "jobs:\n  t:\n    runs-on: gpu\n    defaults: {run: {shell: bash}}\n"
                     "    container: img:1\n    steps:\n"
                     "      - uses: actions/checkout@v4\n"
                     "      - run: |\n          cd ${{ github.workspace }}\n"
                     "          bash -c 'pip install . && torchrun --nproc_per_node=2 t.py'\n"
                     "      - shell: python\n        run: print(1)\n"
                     "      - shell: pwsh\n        run: echo 2\n"
                     "      - shell: sh -e {0}\n        run: python -m pytest\n";
    struct gl_doc *d = parse("repo/.github/workflows/ci.yml", wf);
    assert_false(d->error.set);
    assert_int_equal(d->nlaunches, 1);
    const struct gl_launch *c = &d->launches[0];
    /* cd X | bash -c | pip install . | torchrun ... | python -m pytest */
    assert_int_equal(c->nsteps, 2 + 2 + 3 + 3 + 3);
    assert_true(c->steps[1].opaque); /* the expression */
    assert_int_equal(c->steps[1].loc.line, 9);
    assert_int_equal(c->steps[1].loc.col, 14);
    assert_non_null(c->steps_next);
    assert_true(c->steps_next[2]);  /* bash */
    assert_true(c->steps_next[4]);  /* pip: the spliced script's first command */
    assert_true(c->steps_next[7]);  /* torchrun */
    assert_string_equal(c->steps[7].text, "torchrun");
    assert_int_equal(c->steps[7].loc.line, 10);
    assert_int_equal(c->steps[7].loc.col, 37);
    assert_true(c->steps_next[10]); /* python: the sh step; python and pwsh steps skipped */
    assert_string_equal(c->steps[10].text, "python");
    assert_int_equal(c->steps[10].loc.line, 16);
    assert_int_equal(c->nargv, 0); /* the steps are not the container's arguments */
    done(d);
}

static void test_gitlab_images(void **st)
{
    (void)st;
    const char *gl = "image: img:1\nstages: [t]\nj:\n  stage: t\n"
                     "  image: {name: img:2, entrypoint: [\"\"]}\n"
                     "  services:\n    - img:3\n    - name: img:4\n      command: [--model, m]\n"
                     "  script: [echo]\n";
    struct gl_doc *d = parse(".gitlab-ci.yml", gl);
    assert_int_equal(d->nlaunches, 4);
    for (size_t i = 0; i < 4; i++)
        assert_true(d->launches[i].gpu_unseen);
    assert_int_equal(d->refs[d->launches[1].ref].loc.line, 5);
    assert_int_equal(d->refs[d->launches[1].ref].loc.col, 17);
    assert_int_equal(d->launches[3].nargv, 2);
    assert_string_equal(d->launches[3].argv[0].text, "--model");
    done(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_github_run_block),
        cmocka_unit_test(test_gitlab_scripts),
        cmocka_unit_test(test_github_containers),
        cmocka_unit_test(test_github_steps),
        cmocka_unit_test(test_gitlab_images),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
