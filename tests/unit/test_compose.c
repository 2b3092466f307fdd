/* SPDX-License-Identifier: Apache-2.0 */
/* test_compose.c: compose services -> launches (parsers/manifest/compose.h), with exact positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/inputs.h"
#include "parsers/manifest/compose.h"
#include "parsers/manifest/compose_service.h"
#include "tests/unit/test_support.h"

static struct gl_doc *parse(const char *text)
{
    struct gl_doc *d = test_doc_new("docker-compose.yml", GL_IN_COMPOSE, text, strlen(text));
    gl_parse_compose_doc(d, NULL);
    return d;
}

static void test_image_and_command(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  app:\n    image: \"nvidia/cuda:12.4.1-base\"\n"
                             "    command: python t.py --out /o\n");
    assert_false(d->error.set);
    assert_int_equal(d->nlaunches, 1);
    struct gl_launch *l = &d->launches[0];
    assert_loc(l->loc, 2, 3);
    assert_string_equal(l->name, "app");
    assert_string_equal(l->group, "docker-compose.yml");
    assert_int_equal(l->ref, 0);
    assert_int_equal(d->refs[0].role, GL_REF_LAUNCH);
    assert_loc(d->refs[0].loc, 3, 13);
    assert_true(d->refs[0].ok);
    assert_string_equal(d->refs[0].parsed.tag, "12.4.1-base");
    assert_int_equal(l->nargv, 4);
    assert_string_equal(l->argv[3].text, "/o");
    assert_loc(l->argv[3].loc, 4, 32);
    assert_false(l->fragment);
    test_doc_free(d);
}

static void test_command_list_and_entrypoint(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  app:\n    image: x:1\n    entrypoint: [\"torchrun\"]\n"
                             "    command:\n      - train.py\n      - --data\n      - /data\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->nargv, 4);
    assert_string_equal(l->argv[0].text, "torchrun");
    assert_loc(l->argv[0].loc, 4, 19); /* after the quote */
    assert_string_equal(l->argv[2].text, "--data");
    assert_loc(l->argv[3].loc, 8, 9);
    test_doc_free(d);
}

static void test_sh_c_spliced(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  app:\n    image: x:1\n"
                             "    command: [\"bash\", \"-c\", \"python t.py --output_dir /ckpt\"]\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->nargv, 6);
    assert_string_equal(l->argv[4].text, "--output_dir");
    assert_loc(l->argv[4].loc, 4, 42);
    test_doc_free(d);
}

static void test_build_output_and_fragment(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    build: .\n    image: me/app\n"
                             "  b:\n    environment:\n      - X=1\n  c:\n    build: .\n");
    assert_int_equal(d->nlaunches, 3);
    assert_int_equal(d->refs[0].role, GL_REF_BUILD_OUTPUT);
    assert_false(d->launches[0].fragment);
    assert_true(d->launches[1].fragment);
    assert_false(d->launches[2].fragment);
    assert_int_equal(d->launches[2].ref, -1);
    test_doc_free(d);
}

static void test_short_volumes(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    volumes:\n"
                             "      - ./data:/data:ro\n      - vol:/ckpt\n      - /cache\n"
                             "      - /h:/c:rw,z\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->nmounts, 4);
    assert_int_equal(l->mounts[0].type, GL_MOUNT_BIND);
    assert_string_equal(l->mounts[0].source, "./data");
    assert_string_equal(l->mounts[0].target, "/data");
    assert_true(l->mounts[0].readonly);
    assert_loc(l->mounts[0].loc, 5, 9);
    assert_loc(l->mounts[0].ro_loc, 5, 22);
    assert_int_equal(l->mounts[1].type, GL_MOUNT_VOLUME);
    assert_false(l->mounts[1].readonly);
    assert_loc(l->mounts[1].ro_loc, 6, 18); /* just after the target */
    assert_int_equal(l->mounts[2].type, GL_MOUNT_VOLUME);
    assert_null(l->mounts[2].source);
    assert_string_equal(l->mounts[2].target, "/cache");
    assert_false(l->mounts[3].readonly);
    test_doc_free(d);
}

static void test_long_volumes_and_tmpfs(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    volumes:\n"
                             "      - type: bind\n        source: /srv/data\n        target: /data\n"
                             "        read_only: true\n      - type: volume\n        source: ck\n"
                             "        target: /ckpt\n    tmpfs: /scratch:size=1g\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->nmounts, 3);
    assert_int_equal(l->mounts[0].type, GL_MOUNT_BIND);
    assert_true(l->mounts[0].readonly);
    assert_loc(l->mounts[0].loc, 5, 9);
    assert_loc(l->mounts[0].ro_loc, 8, 9);
    assert_int_equal(l->mounts[1].type, GL_MOUNT_VOLUME);
    assert_string_equal(l->mounts[1].target, "/ckpt");
    assert_int_equal(l->mounts[2].type, GL_MOUNT_TMPFS);
    assert_string_equal(l->mounts[2].target, "/scratch");
    assert_loc(l->mounts[2].loc, 12, 12);
    test_doc_free(d);
}

static void test_deploy_devices(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    deploy:\n      resources:\n"
                             "        reservations:\n          devices:\n"
                             "            - driver: nvidia\n              count: all\n"
                             "              capabilities: [gpu]\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->ngpus, 1);
    assert_int_equal(l->gpus[0].kind, GL_GPU_COMPOSE_DEVICE);
    assert_string_equal(l->gpus[0].count, "all");
    assert_loc(l->gpus[0].loc, 8, 15);
    assert_int_equal(l->gpus[0].ncapabilities, 1);
    assert_null(test_gl412(d, 0, NULL));
    test_doc_free(d);
}

static void test_device_count_and_ids_invalid(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    deploy:\n      resources:\n"
                             "        reservations:\n          devices:\n"
                             "            - count: 1\n              device_ids: ['0', '2']\n"
                             "              capabilities: [gpu]\n");
    struct gl_gpu_request *g = &d->launches[0].gpus[0];
    struct gl_loc at;
    assert_non_null(test_gl412(d, 0, &at));
    assert_loc(at, 9, 15);
    assert_loc(g->count_key_loc, 8, 15); /* the facts it rests on */
    assert_loc(g->device_ids_key_loc, 9, 15);
    assert_int_equal(g->ndevice_ids, 2);
    assert_string_equal(g->device_ids[1], "2");
    test_doc_free(d);
}

static void test_device_without_capabilities_invalid(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    deploy:\n      resources:\n"
                             "        reservations:\n          devices:\n"
                             "            - driver: nvidia\n              count: 1\n");
    struct gl_gpu_request *g = &d->launches[0].gpus[0];
    struct gl_loc at;
    assert_non_null(test_gl412(d, 0, &at));
    assert_loc(at, 8, 15);
    assert_int_equal(g->ncapabilities, 0); /* the facts it rests on */
    assert_int_equal(g->capabilities_key_loc.line, 0);
    test_doc_free(d);
}

static void test_compute_utility_valid(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    deploy:\n      resources:\n"
                             "        reservations:\n          devices:\n"
                             "            - capabilities: [compute, utility]\n");
    assert_int_equal(d->launches[0].ngpus, 1);
    assert_null(test_gl412(d, 0, NULL));
    test_doc_free(d);
}

static void test_device_memory_option(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    deploy:\n      resources:\n"
                             "        reservations:\n          devices:\n"
                             "            - capabilities: [gpu]\n              options:\n"
                             "                memory: 10gb\n");
    struct gl_gpu_request *g = &d->launches[0].gpus[0];
    assert_string_equal(g->memory, "10gb");
    assert_loc(g->memory_loc, 10, 17);
    test_doc_free(d);
}

static void test_gpus_cdi_runtime_env(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    gpus: all\n    devices:\n"
                             "      - nvidia.com/gpu=all\n      - /dev/nvidia0:/dev/nvidia0\n"
                             "      - /dev/nvidiactl\n    runtime: nvidia\n    environment:\n"
                             "      NVIDIA_VISIBLE_DEVICES: \"0\"\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->ngpus, 5);
    bool cdi = false, node = false, rt = false, env = false, gpus = false;
    for (size_t i = 0; i < l->ngpus; i++) {
        struct gl_gpu_request *g = &l->gpus[i];
        if (g->kind == GL_GPU_COMPOSE_GPUS) {
            gpus = true;
            assert_string_equal(g->value, "all");
            assert_loc(g->loc, 4, 11);
        } else if (g->kind == GL_GPU_CDI) {
            cdi = true;
            assert_loc(g->loc, 6, 9);
        } else if (g->kind == GL_GPU_DEVICE_NODE) {
            node = true;
            assert_loc(g->loc, 7, 9);
        } else if (g->kind == GL_GPU_RUNTIME) {
            rt = true;
            assert_loc(g->loc, 9, 14);
        } else if (g->kind == GL_GPU_ENV_VISIBLE) {
            env = true;
            assert_string_equal(g->value, "0");
            assert_loc(g->loc, 11, 32);
        }
    }
    assert_true(cdi && node && rt && env && gpus);
    test_doc_free(d);
}

static void test_gpus_list(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    gpus:\n"
                             "      - driver: nvidia\n        device_ids: ['1']\n");
    struct gl_gpu_request *g = &d->launches[0].gpus[0];
    assert_int_equal(g->kind, GL_GPU_COMPOSE_GPUS);
    assert_int_equal(g->ndevice_ids, 1);
    assert_null(test_gl412(d, 0, NULL));
    test_doc_free(d);
}

static void test_shm_ipc_memlock(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    shm_size: '8gb'\n    ipc: host\n"
                             "    ulimits:\n      memlock: -1\n  b:\n    image: x:1\n    ulimits:\n"
                             "      memlock:\n        soft: -1\n        hard: -1\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->shm_bytes, 8LL << 30);
    assert_loc(l->shm_loc, 4, 16);
    assert_string_equal(l->ipc, "host");
    assert_loc(l->ipc_loc, 5, 10);
    assert_string_equal(l->memlock, "-1");
    assert_loc(l->memlock_loc, 7, 16);
    assert_string_equal(d->launches[1].memlock, "-1:-1");
    assert_int_equal(d->launches[1].shm_bytes, -1);
    test_doc_free(d);
}

static void test_environment_forms(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    environment:\n"
                             "      - DATA_DIR=/data\n      - HOME\n      - OUT=${OUT}\n"
                             "  b:\n    image: x:1\n    environment:\n      K: v\n      E:\n");
    assert_int_equal(d->nenv, 5);
    assert_string_equal(d->env[0].key, "DATA_DIR");
    assert_string_equal(d->env[0].value, "/data");
    assert_loc(d->env[0].key_loc, 5, 9);
    assert_loc(d->env[0].value_loc, 5, 18);
    assert_int_equal(d->env[0].launch, 0);
    assert_int_equal(d->env[0].origin, GL_ENV_LAUNCH);
    assert_null(d->env[1].value);
    assert_null(d->env[2].value); /* unknown variable */
    assert_string_equal(d->env[3].value, "v");
    assert_int_equal(d->env[3].launch, 1);
    assert_null(d->env[4].value);
    test_doc_free(d);
}

static void test_interpolation(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: nvcr.io/nvidia/pytorch:${TAG:-24.05}-py3\n"
                             "    command: echo $$HOME ${X-dflt} ${Y:+alt}\n"
                             "  b:\n    image: ${IMAGE}\n");
    assert_string_equal(d->refs[0].text, "nvcr.io/nvidia/pytorch:24.05-py3");
    assert_false(d->refs[0].unresolved);
    assert_loc(d->refs[0].loc, 3, 12);
    struct gl_launch *l = &d->launches[0];
    assert_string_equal(l->argv[2].text, "dflt");
    assert_loc(l->argv[2].loc, 4, 30);
    assert_true(l->argv[1].opaque); /* $HOME for the shell */
    assert_true(d->refs[1].unresolved);
    test_doc_free(d);
}

static void test_anchors_and_merge(void **st)
{
    (void)st;
    struct gl_doc *d = parse("x-common: &common\n  image: base:1\n  shm_size: 2g\n"
                             "services:\n  a:\n    <<: *common\n    command: run\n"
                             "  b:\n    <<: *common\n    image: other:2\n");
    assert_int_equal(d->nlaunches, 2);
    assert_string_equal(d->refs[0].text, "base:1");
    assert_loc(d->refs[0].loc, 2, 10);
    assert_int_equal(d->launches[0].shm_bytes, 2LL << 30);
    assert_string_equal(d->refs[1].text, "other:2");
    assert_int_equal(d->launches[1].shm_bytes, 2LL << 30);
    test_doc_free(d);
}

static void test_profiles_and_workdir(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  a:\n    image: x:1\n    profiles: [train, gpu]\n"
                             "    working_dir: /w\n  b:\n    image: x:1\n");
    assert_string_equal(d->launches[0].profile, "train,gpu");
    assert_string_equal(d->launches[0].workdir, "/w");
    assert_null(d->launches[1].profile);
    test_doc_free(d);
}

static void test_pragma_and_error(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  # gpulint ignore=GL411\n  a:\n    image: x:1\n  b:\n"
                             "    image: y:1\n");
    assert_int_equal(d->nignores, 1);
    assert_int_equal(d->ignores[0].first, 3);
    assert_int_equal(d->ignores[0].last, 4);
    test_doc_free(d);
    d = parse("services:\n  a:\n    image: [x\n");
    assert_true(d->error.set);
    assert_int_equal(d->error.loc.line, 4);
    test_doc_free(d);
}

static void test_recognition(void **st)
{
    (void)st;
    const char *c = "services:\n  a:\n    image: x\n";
    assert_int_equal(gl_sniff("dir/docker-compose.gpu.yml", c, strlen(c), false), GL_IN_COMPOSE);
    assert_int_equal(gl_sniff("dir/stack.yml", c, strlen(c), false), GL_IN_COMPOSE);
    const char *gl = "services:\n  - docker:dind\njob:\n  script: x\n";
    assert_int_not_equal(gl_sniff("dir/ci.yml", gl, strlen(gl), false), GL_IN_COMPOSE);
    const char *k = "apiVersion: v1\nkind: Pod\nspec:\n  containers: []\n";
    assert_int_not_equal(gl_sniff("dir/pod.yml", k, strlen(k), false), GL_IN_COMPOSE);
}

/* One compose file of the corpus: parses without GL900; launch counts printed. */
static void corpus_file(const char *name, const char *path, const char *text, size_t len)
{
    struct gl_doc *d = test_doc_new(path, GL_IN_COMPOSE, text, len);
    gl_parse_compose_doc(d, NULL);
    size_t gpus = 0;
    for (size_t i = 0; i < d->nlaunches; i++)
        gpus += d->launches[i].ngpus;
    printf("  %-72s launches %zu gpu-requests %zu\n", name, d->nlaunches, gpus);
    if (d->error.set)
        printf("    GL900 %u:%u %s\n", d->error.loc.line, d->error.loc.col, d->error.message);
    assert_false(d->error.set);
    assert_true(d->nlaunches > 0);
    test_doc_free(d);
}

static void test_corpus(void **st)
{
    (void)st;
    assert_true(test_each_yaml_file(GPULINT_CORPUS_DIR "/compose", corpus_file) >= 16);
}

/* compose's merge tags across documents (as across -f files): `!reset` unsets a key of
 * the layers below, `!override` keeps only that layer's value. */
static void test_merge_tags(void **st)
{
    (void)st;
    struct gl_doc *d = parse("services:\n  app:\n    image: img:1\n    gpus: all\n"
                             "    volumes: [/a:/a, /b:/b]\n    environment: {A: 1, B: 2}\n"
                             "    devices: [nvidia.com/gpu=all]\n"
                             "---\nservices:\n  app:\n    gpus: !reset null\n"
                             "    volumes: !override [/c:/c]\n    environment: {C: 3}\n"
                             "    devices: !reset []\n");
    assert_false(d->error.set);
    assert_int_equal(d->nlaunches, 1);
    const struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->ngpus, 0); /* gpus and devices reset */
    assert_int_equal(l->nmounts, 1);
    assert_string_equal(l->mounts[0].target, "/c");
    assert_loc(l->mounts[0].loc, 12, 25);
    assert_int_equal(d->nenv, 3); /* environment merged: no tag */
    test_doc_free(d);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Leave non-zero bytes in the stack below the caller, where the next call's locals go. */
static void __attribute__((noinline)) dirty_stack(void)
{
    volatile unsigned char junk[16384];
    memset((void *)junk, 0xa5, sizeof junk);
}

/* A service without a GPU whose namesake in a compose file beside it has one is its CPU
 * variant (secondary_role); one whose namesake has none, or that has no namesake, is not. */
static void test_gpu_variants(void **st)
{
    (void)st;
    char dir[] = "/tmp/gpulint-compose-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char base[64], gpu[64], other[64];
    snprintf(base, sizeof base, "%s/docker-compose.yml", dir);
    snprintf(gpu, sizeof gpu, "%s/docker-compose.gpu.yml", dir);
    snprintf(other, sizeof other, "%s/notes.yml", dir);
    const char *text = "services:\n  app:\n    image: img:1\n    environment: [A=1]\n"
                       "  db:\n    image: db:1\n  web:\n    image: web:1\n";
    write_file(base, text);
    write_file(gpu, "services:\n  app:\n    gpus: all\n    environment: [B=2, C=3]\n"
                    "  db:\n    environment: [D=4]\n");
    write_file(other, "services:\n  web:\n    gpus: all\n"); /* no compose name */
    struct gl_doc *d = test_doc_new(base, GL_IN_COMPOSE, text, strlen(text));
    gl_parse_compose_doc(d, NULL);
    dirty_stack(); /* (what the comparison reads must be its own, not stale stack) */
    gl_compose_gpu_variants(d);
    assert_int_equal(d->nlaunches, 3);
    assert_true(d->launches[0].secondary_role);  /* app: gpus in docker-compose.gpu.yml */
    assert_false(d->launches[1].secondary_role); /* db: its namesake has no GPU */
    assert_false(d->launches[2].secondary_role); /* web: notes.yml is no compose file */
    test_doc_free(d);
    unlink(base);
    unlink(gpu);
    unlink(other);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_image_and_command),
        cmocka_unit_test(test_command_list_and_entrypoint),
        cmocka_unit_test(test_sh_c_spliced),
        cmocka_unit_test(test_build_output_and_fragment),
        cmocka_unit_test(test_short_volumes),
        cmocka_unit_test(test_long_volumes_and_tmpfs),
        cmocka_unit_test(test_deploy_devices),
        cmocka_unit_test(test_device_count_and_ids_invalid),
        cmocka_unit_test(test_device_without_capabilities_invalid),
        cmocka_unit_test(test_compute_utility_valid),
        cmocka_unit_test(test_device_memory_option),
        cmocka_unit_test(test_gpus_cdi_runtime_env),
        cmocka_unit_test(test_gpus_list),
        cmocka_unit_test(test_shm_ipc_memlock),
        cmocka_unit_test(test_environment_forms),
        cmocka_unit_test(test_interpolation),
        cmocka_unit_test(test_anchors_and_merge),
        cmocka_unit_test(test_profiles_and_workdir),
        cmocka_unit_test(test_pragma_and_error),
        cmocka_unit_test(test_recognition),
        cmocka_unit_test(test_merge_tags),
        cmocka_unit_test(test_gpu_variants),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
