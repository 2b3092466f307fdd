/* SPDX-License-Identifier: Apache-2.0 */
/* test_yaml_budget.c: every YAML reader stays sound whenever the alias budget runs out.
 *
 * The budget (limit yaml-alias-nodes) can run out at any alias a reader follows; from
 * then on look-ups through aliases fail. A reader that read a value once and reads it
 * again must not assume the second read succeeds (a `kind` that was a scalar became
 * NULL and was dereferenced: SIGSEGV). So every text reader runs on every YAML fixture
 * of the repository with the budget set to every value from 1 to SWEEP, and on
 * alias-heavy documents to every value from 1 to DOC_SWEEP (an alias costs a unit per
 * 16 bytes of what it names too, so these small documents spend hundreds), each sweep
 * ending at the first budget that is not run out of: the budget runs out at each alias
 * in turn. Under ASan and UBSan
 * (CI runs the unit tests there too) any read of a node that is not there fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <string.h>

#include "linter/core/config.h"
#include "linter/core/inputs.h"
#include "linter/core/limits.h"
#include "tests/unit/test_support.h"

#define SWEEP 300
#define DOC_SWEEP 1500

static struct gl_config cfg;

/* Parse text with every text reader; true when some reader hit the alias budget. */
static bool parse_all(const char *name, const char *text, size_t len)
{
    bool hit = false;
    for (size_t t = 0; gl_input_table[t]; t++) {
        const struct gl_input_type *type = gl_input_table[t];
        if (!type->parse)
            continue;
        struct gl_doc *d = test_doc_new(name, type->kind, text, len);
        type->parse(d, &cfg);
        hit |= d->error.set && d->error.message &&
               strstr(d->error.message, "yaml-alias-nodes") != NULL;
        test_doc_free(d);
    }
    return hit;
}

static void set_budget(uint64_t n)
{
    char v[32];
    snprintf(v, sizeof v, "%llu", (unsigned long long)n);
    assert_int_equal(gl_limit_set(GL_LIMIT_YAML_ALIAS_NODES, v, NULL), 0);
}

/* Every budget from 1 to max, up to the first the text does not run out of (a larger
 * budget reads the text as that one does: what is spent does not depend on the budget
 * until it runs out, so no later budget meets a new point of running out); returns
 * whether the last budget tried still ran out. Most fixtures name nothing through an
 * alias: one parse each instead of max (under ASan the sweep took over 300 s). */
static bool sweep(const char *name, const char *text, size_t len, uint64_t max)
{
    bool hit = true;
    for (uint64_t b = 1; b <= max && hit; b++) {
        set_budget(b);
        hit = parse_all(name, text, len);
    }
    gl_limits_reset();
    return hit;
}

/* Alias-heavy documents: each reader's keys reached through aliases to collections and
 * scalars, read more than once (merge keys, shared containers, a List whose kind is an
 * alias). None needs more than DOC_SWEEP units, so the sweep reaches past its last
 * alias. */
static const char *const docs[][2] = {
    {"list.yaml", "apiVersion: v1\nkind: List\nx: &x v\nitems: [*x, *x, *x]\n---\n"
                  "k: &k List\nit: &it []\napiVersion: v1\nkind: *k\nitems: *it\n"},
    {"pod.yaml",
     "apiVersion: &v v1\nkind: &k Pod\nmetadata: &m {name: p, annotations: {a: b}}\n"
     "x-c: &c {name: c, image: &img nvidia/cuda:12.4.1-base-ubuntu22.04,\n"
     "  command: &cmd [python, t.py, --data, /data, --output, /out],\n"
     "  env: &env [{name: DATA_DIR, value: /data}],\n"
     "  resources: &r {limits: &l {nvidia.com/gpu: 1, memory: 1Gi}, requests: *l},\n"
     "  volumeMounts: &vm [{name: d, mountPath: /data, readOnly: true}]}\n"
     "spec: &s\n  containers: [*c, *c, {<<: *c, name: c2}]\n"
     "  initContainers: [{<<: *c, name: i, command: *cmd}]\n"
     "  volumes: &vols [{name: d, hostPath: {path: /d}}, {name: e, emptyDir: {}}]\n"
     "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"
     "t: &t {metadata: {labels: {a: b}}, spec: {containers: [{name: x, image: &i2 "
     "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime, args: &a2 [--ckpt, /ck]}]}}\n"
     "spec: {replicas: 2, template: *t}\n"},
    {"compose.yaml",
     "x-gpu: &gpu {resources: {reservations: {devices: [{driver: nvidia, count: 1,\n"
     "  capabilities: [gpu]}]}}}\nx-vol: &v [/d:/data]\nservices:\n"
     "  a: &a {image: nvidia/cuda:12.4.1-base-ubuntu22.04, command: [python, t.py, --data,\n"
     "    /data], deploy: *gpu, volumes: *v, shm_size: &shm 8g}\n"
     "  b: {<<: *a, environment: &e {DATA_DIR: /data}, shm_size: *shm}\n"
     "  c: *a\n  d: {<<: [*a, *gpu], image: ubuntu}\n"},
    {".github/workflows/ci.yml",
     "x: &steps [{run: \"docker run --gpus all nvidia/cuda:12.4.1-base-ubuntu22.04 python "
     "t.py --output /o\"}]\non: &on [push]\njobs:\n  a: &job {runs-on: gpu, steps: *steps}\n"
     "  b: *job\n  c: {<<: *job, container: {image: &ci nvidia/cuda:12.4.1-base-ubuntu22.04}}\n"},
    {".gitlab-ci.yml",
     ".t: &t {image: nvidia/cuda:12.4.1-base-ubuntu22.04, script: &sc [\"docker run "
     "nvidia/cuda:12.4.1-base-ubuntu22.04\"]}\na: *t\nb: {<<: *t, script: *sc}\n"},
};

static void test_alias_heavy_documents(void **st)
{
    (void)st;
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        const char *text = docs[i][1];
        /* the smallest budget runs out in every document... */
        set_budget(1);
        assert_true(parse_all(docs[i][0], text, strlen(text)));
        /* ...and the sweep passes the last alias (every point of running out was met) */
        if (sweep(docs[i][0], text, strlen(text), DOC_SWEEP))
            fail_msg("%s: the alias budget still runs out at %d", docs[i][0], DOC_SWEEP);
    }
}

static size_t files_swept;

static int one_file(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (flag != FTW_F || !(gl_has_suffix(path, ".yml") || gl_has_suffix(path, ".yaml")))
        return 0;
    char *text;
    size_t len;
    assert_int_equal(gl_read_file(path, &text, &len), 0);
    sweep(path, text, len, SWEEP);
    free(text);
    files_swept++;
    return 0;
}

static void test_every_yaml_fixture(void **st)
{
    (void)st;
    assert_int_equal(nftw("fixtures", one_file, 16, FTW_PHYS), 0);
    assert_true(files_swept >= 40); /* the fixtures are there (run from the source dir) */
}

int main(void)
{
    gl_config_init(&cfg);
    if (gl_config_finish(&cfg) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alias_heavy_documents),
        cmocka_unit_test(test_every_yaml_fixture),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    gl_config_free(&cfg);
    return rc;
}
