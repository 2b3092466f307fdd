/* SPDX-License-Identifier: Apache-2.0 */
/* test_k8s.c: Kubernetes pod specs -> launches (parsers/manifest/k8s.h), with exact positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/manifest/k8s.h"
#include "tests/unit/test_support.h"

static struct gl_doc *parse_len(const char *text, size_t len)
{
    struct gl_doc *d = test_doc_new("pod.yaml", GL_IN_K8S, text, len);
    gl_parse_k8s_doc(d, NULL);
    return d;
}

static struct gl_doc *parse(const char *text) { return parse_len(text, strlen(text)); }

#define POD "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"

static void test_pod_basics(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: nvidia/cuda:12.4.1-base\n"
                                 "      command: [\"python\", \"t.py\"]\n      args:\n"
                                 "        - --out\n        - /o\n      workingDir: /w\n");
    assert_false(d->error.set);
    assert_int_equal(d->nlaunches, 1);
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->kind, GL_LAUNCH_K8S);
    assert_loc(l->loc, 7, 13);
    assert_string_equal(l->name, "c");
    assert_string_equal(l->group, "pod.yaml");
    assert_loc(d->refs[0].loc, 8, 14);
    assert_int_equal(d->refs[0].launch, 0);
    assert_int_equal(l->nargv, 4);
    assert_string_equal(l->argv[2].text, "--out");
    assert_loc(l->argv[3].loc, 12, 11);
    assert_string_equal(l->workdir, "/w");
    test_doc_free(d);
}

static void test_gpu_limits(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n      resources:\n"
                                 "        limits:\n          nvidia.com/gpu: 2\n");
    struct gl_gpu_request *g = &d->launches[0].gpus[0];
    assert_int_equal(d->launches[0].ngpus, 1);
    assert_int_equal(g->kind, GL_GPU_K8S_RESOURCE);
    assert_string_equal(g->value, "nvidia.com/gpu");
    assert_loc(g->loc, 11, 11);
    assert_string_equal(g->limit, "2");
    assert_loc(g->limit_loc, 11, 27);
    assert_string_equal(g->count, "2");
    assert_null(g->request);
    assert_null(test_gl412(d, 0, NULL));
    test_doc_free(d);
}

static void test_requests_without_limits(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n      resources:\n"
                                 "        requests:\n          nvidia.com/gpu: 1\n");
    struct gl_gpu_request *g = &d->launches[0].gpus[0];
    struct gl_loc at;
    assert_non_null(test_gl412(d, 0, &at));
    assert_loc(at, 11, 27);
    assert_loc(g->loc, 11, 11);
    test_doc_free(d);
}

static void test_requests_differ_from_limits(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n      resources:\n"
                                 "        limits:\n          nvidia.com/gpu: 2\n"
                                 "        requests:\n          nvidia.com/gpu: 1\n");
    assert_int_equal(d->launches[0].ngpus, 1);
    struct gl_gpu_request *g = &d->launches[0].gpus[0];
    assert_string_equal(g->request, "1");
    assert_string_equal(g->limit, "2");
    struct gl_loc at;
    assert_non_null(test_gl412(d, 0, &at));
    assert_loc(at, 13, 27);
    assert_loc(g->loc, 11, 11);
    test_doc_free(d);
}

/* Long lists are looked up through maps of their names (k8s_pod.c SCAN_MAX), short ones
 * scanned: both answer the same. 40 MIG profiles in limits then in requests (the map is
 * made mid-way, from the requests so far) are 40 requests, each with its limit and its
 * request; a $(VAR) of a 40-entry env takes its first entry of that name; a mount names
 * the first of two volumes of one name among 40. */
static void test_long_lists_by_name(void **st)
{
    (void)st;
    struct gl_buf t;
    gl_buf_init(&t);
    gl_buf_adds(&t, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  volumes:\n");
    for (int i = 0; i < 40; i++)
        gl_buf_printf(&t, "  - {name: v%d, hostPath: {path: /h%d}}\n", i % 39, i);
    gl_buf_adds(&t, "  containers:\n  - name: c\n    image: x:1\n    env:\n");
    for (int i = 0; i < 40; i++)
        gl_buf_printf(&t, "    - {name: E%d, value: e%d}\n", i % 39, i);
    gl_buf_adds(&t, "    args: [$(E0), $(E38)]\n    volumeMounts:\n"
                    "    - {name: v0, mountPath: /m}\n    resources:\n");
    for (int r = 0; r < 2; r++) {
        gl_buf_adds(&t, r ? "      requests:\n" : "      limits:\n");
        for (int i = 0; i < 40; i++)
            gl_buf_printf(&t, "        nvidia.com/mig-%dg.5gb: %d\n", i, r ? 1 : 2);
    }
    struct gl_doc *d = parse_len(t.data, t.len);
    const struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->ngpus, 40);
    for (size_t i = 0; i < l->ngpus; i++) {
        char want[48];
        snprintf(want, sizeof want, "nvidia.com/mig-%zug.5gb", i);
        assert_string_equal(l->gpus[i].value, want);
        assert_string_equal(l->gpus[i].limit, "2");
        assert_string_equal(l->gpus[i].request, "1");
    }
    assert_string_equal(l->argv[0].text, "e0");
    assert_string_equal(l->argv[1].text, "e38");
    assert_int_equal(l->nmounts, 1);
    assert_string_equal(l->mounts[0].source, "/h0");
    test_doc_free(d);
    gl_buf_free(&t);
}

static void test_half_gpu(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n      resources:\n"
                                 "        limits:\n          nvidia.com/gpu: 0.5\n");
    struct gl_gpu_request *g = &d->launches[0].gpus[0];
    assert_string_equal(g->count, "0.5");
    struct gl_loc at;
    assert_non_null(test_gl412(d, 0, &at));
    assert_loc(at, 11, 27);
    test_doc_free(d);
}

static void test_mig(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n      resources:\n"
                                 "        limits:\n          nvidia.com/mig-1g.10gb: 1\n");
    struct gl_gpu_request *g = &d->launches[0].gpus[0];
    assert_int_equal(g->kind, GL_GPU_K8S_MIG);
    assert_true(g->mig);
    assert_true(d->launches[0].mig);
    assert_null(test_gl412(d, 0, NULL));
    test_doc_free(d);
}

static void test_hami_vendor(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n      resources:\n"
                                 "        limits:\n          nvidia.com/gpu: 1\n"
                                 "          nvidia.com/gpumem: 3000\n          nvidia.com/gpucores: 30\n"
                                 "        requests:\n          nvidia.com/gpumem: 1000\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->ngpus, 3);
    assert_int_equal(l->gpus[1].kind, GL_GPU_K8S_VENDOR);
    assert_string_equal(l->gpus[1].value, "nvidia.com/gpumem");
    assert_true(l->gpus[1].mem_capped);
    assert_null(test_gl412(d, 0, NULL)); /* requests != limits never matters for HAMi */
    assert_loc(l->gpus[1].loc, 12, 11);
    assert_false(l->gpus[2].mem_capped);
    test_doc_free(d);
}

static void test_dra_claims_and_mps(void **st)
{
    (void)st;
    struct gl_doc *d = parse(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: shared\n"
        "spec:\n  spec:\n    devices:\n      config:\n      - opaque:\n          parameters:\n"
        "            sharing:\n              strategy: MPS\n"
        "---\n" POD "    - name: c\n      image: x:1\n      resources:\n        claims:\n"
        "        - name: gpu\n  resourceClaims:\n  - name: gpu\n    resourceClaimTemplateName: shared\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->ngpus, 1);
    assert_int_equal(l->gpus[0].kind, GL_GPU_K8S_DRA);
    assert_string_equal(l->gpus[0].value, "gpu");
    assert_loc(l->gpus[0].loc, 24, 17);
    assert_true(l->gpus[0].mps);
    assert_true(l->mig);
    test_doc_free(d);
}

static void test_mps_env(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n      env:\n"
                                 "        - name: CUDA_MPS_PINNED_DEVICE_MEM_LIMIT\n          value: 0=4G\n"
                                 "        - name: TOKEN\n          valueFrom: {secretKeyRef: {name: s, key: k}}\n"
                                 "      resources:\n        limits:\n          nvidia.com/gpu: 1\n");
    struct gl_launch *l = &d->launches[0];
    assert_true(l->gpus[0].mps);
    assert_true(l->gpus[0].mem_capped);
    assert_int_equal(d->nenv, 2);
    assert_string_equal(d->env[0].value, "0=4G");
    assert_loc(d->env[0].key_loc, 10, 17);
    assert_loc(d->env[0].value_loc, 11, 18);
    assert_null(d->env[1].value);
    test_doc_free(d);
}

static void test_volumes(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n      volumeMounts:\n"
                                 "        - name: data\n          mountPath: /data\n          readOnly: true\n"
                                 "        - name: ckpt\n          mountPath: /ckpt\n          subPath: run1\n"
                                 "        - name: shm\n          mountPath: /dev/shm\n"
                                 "        - name: cfg\n          mountPath: /etc/cfg\n"
                                 "        - name: scratch\n          mountPath: /scratch\n"
                                 "  volumes:\n    - name: data\n      hostPath:\n        path: /mnt/data\n"
                                 "    - name: ckpt\n      persistentVolumeClaim:\n        claimName: pvc1\n"
                                 "    - name: shm\n      emptyDir:\n        medium: Memory\n"
                                 "    - name: cfg\n      configMap:\n        name: c\n"
                                 "    - name: scratch\n      emptyDir: {}\n");
    struct gl_launch *l = &d->launches[0];
    assert_int_equal(l->nmounts, 5);
    assert_int_equal(l->mounts[0].type, GL_MOUNT_BIND);
    assert_string_equal(l->mounts[0].source, "/mnt/data");
    assert_true(l->mounts[0].readonly);
    assert_loc(l->mounts[0].loc, 10, 11);
    assert_loc(l->mounts[0].ro_loc, 12, 11);
    assert_int_equal(l->mounts[1].type, GL_MOUNT_VOLUME);
    assert_string_equal(l->mounts[1].source, "pvc1");
    assert_string_equal(l->mounts[1].target, "/ckpt");
    assert_false(l->mounts[1].readonly);
    assert_loc(l->mounts[1].ro_loc, 13, 11);
    assert_int_equal(l->mounts[2].type, GL_MOUNT_EMPTYDIR_MEMORY);
    assert_string_equal(l->mounts[2].target, "/dev/shm");
    assert_int_equal(l->mounts[3].type, GL_MOUNT_CONFIG);
    assert_int_equal(l->mounts[4].type, GL_MOUNT_EMPTYDIR);
    test_doc_free(d);
}

static void test_deployment_and_init(void **st)
{
    (void)st;
    struct gl_doc *d = parse("apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n"
                             "      initContainers:\n        - name: init\n          image: busybox:1\n"
                             "      containers:\n        - name: app\n          image: app:1\n"
                             "      hostIPC: true\n");
    assert_int_equal(d->nlaunches, 2);
    assert_string_equal(d->launches[0].name, "init");
    assert_string_equal(d->launches[1].name, "app");
    assert_string_equal(d->launches[1].ipc, "host");
    assert_loc(d->launches[1].ipc_loc, 12, 7);
    test_doc_free(d);
}

static void test_cronjob_and_list(void **st)
{
    (void)st;
    struct gl_doc *d = parse("apiVersion: v1\nkind: List\nitems:\n"
                             "- apiVersion: batch/v1\n  kind: CronJob\n  spec:\n    jobTemplate:\n"
                             "      spec:\n        template:\n          spec:\n            containers:\n"
                             "            - name: a\n              image: a:1\n"
                             "- apiVersion: v1\n  kind: Pod\n  spec:\n    containers:\n"
                             "    - name: b\n      image: b:1\n");
    assert_int_equal(d->nlaunches, 2);
    assert_loc(d->refs[0].loc, 13, 22);
    assert_loc(d->refs[1].loc, 19, 14);
    test_doc_free(d);
}

static void test_ray_head_secondary(void **st)
{
    (void)st;
    char *text;
    size_t len;
    assert_int_equal(gl_read_file(GPULINT_SOURCE_DIR "/fixtures/launch-yaml/k8s-multi.yaml", &text,
                                  &len), 0);
    struct gl_doc *d = parse_len(text, len);
    assert_int_equal(d->nlaunches, 2);
    assert_string_equal(d->launches[0].name, "head");
    assert_true(d->launches[0].secondary_role);
    assert_false(d->launches[1].secondary_role);
    assert_int_equal(d->launches[1].nmounts, 1);
    assert_int_equal(d->launches[1].mounts[0].type, GL_MOUNT_EMPTYDIR_MEMORY);
    /* the template annotation covers the worker template's lines */
    assert_int_equal(d->nignores, 1);
    assert_int_equal(d->ignores[0].first, 14);
    assert_int_equal(d->ignores[0].last, 30);
    assert_int_equal(d->ignores[0].nids, 2);
    assert_string_equal(d->ignores[0].ids[1], "GL411");
    assert_int_equal(d->launches[1].nignore_ids, 2);
    assert_int_equal(d->launches[0].nignore_ids, 0);
    test_doc_free(d);
    free(text);
}

static void test_pytorchjob_roles(void **st)
{
    (void)st;
    struct gl_doc *d = parse("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec:\n  pytorchReplicaSpecs:\n"
                             "    Master:\n      template:\n        spec:\n          containers:\n"
                             "          - name: pytorch\n            image: p:1\n"
                             "            resources:\n              limits:\n                nvidia.com/gpu: 1\n"
                             "    Worker:\n      template:\n        spec:\n          containers:\n"
                             "          - name: pytorch\n            image: p:1\n"
                             "            resources:\n              limits:\n                nvidia.com/gpu: 1\n");
    assert_int_equal(d->nlaunches, 2);
    assert_false(d->launches[0].secondary_role);
    assert_false(d->launches[1].secondary_role);
    test_doc_free(d);
}

static void test_no_apiversion_and_recognition(void **st)
{
    (void)st;
    const char *t = "kind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n    - name: c\n"
                    "      image: c:1\n";
    struct gl_doc *d = parse(t);
    assert_int_equal(d->nlaunches, 1);
    test_doc_free(d);
    assert_int_equal(gl_sniff("dir/pod.yaml", t, strlen(t), false), GL_IN_K8S);
    const char *wf = "on: push\njobs:\n  a:\n    runs-on: x\n";
    assert_int_not_equal(gl_sniff("dir/x.yaml", wf, strlen(wf), false), GL_IN_K8S);
}

static void test_k8s_var_refs(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n      env:\n        - name: OUT\n"
                                 "          value: /ckpt\n        - name: S\n          valueFrom: {}\n"
                                 "      args: [\"--out\", \"$(OUT)\", \"$(S)\", \"$(NOPE)\"]\n");
    struct gl_launch *l = &d->launches[0];
    assert_string_equal(l->argv[1].text, "/ckpt");
    assert_false(l->argv[1].opaque);
    assert_true(l->argv[2].opaque);
    assert_string_equal(l->argv[3].text, "$(NOPE)");
    test_doc_free(d);
}

static void test_invalid_yaml_and_bomb(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: x:1\n     bad: [\n");
    assert_true(d->error.set);
    test_doc_free(d);
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_adds(&b, "apiVersion: v1\nkind: ConfigMap\nx:\n  a: &a [l, l, l, l, l, l, l, l, l]\n");
    for (char c = 'b'; c <= 'j'; c++) {
        gl_buf_printf(&b, "  %c: &%c [", c, c);
        for (int i = 0; i < 9; i++)
            gl_buf_printf(&b, "%s*%c", i ? ", " : "", c - 1);
        gl_buf_adds(&b, "]\n");
    }
    d = parse_len(b.data, b.len);
    assert_true(d->error.set); /* bounded: stops at the alias budget */
    assert_non_null(strstr(d->error.message, "alias"));
    test_doc_free(d);
    gl_buf_free(&b);
}

/* One Kubernetes file of the corpus: parses without GL900; launch counts printed. */
static void corpus_file(const char *name, const char *path, const char *text, size_t len)
{
    struct gl_doc *d = parse_len(text, len);
    size_t gpus = 0, secondary = 0;
    for (size_t i = 0; i < d->nlaunches; i++) {
        gpus += d->launches[i].ngpus;
        secondary += d->launches[i].secondary_role;
    }
    printf("  %-100s launches %zu gpu-requests %zu secondary %zu\n", name, d->nlaunches, gpus,
           secondary);
    if (d->error.set)
        printf("    GL900 %u:%u %s\n", d->error.loc.line, d->error.loc.col, d->error.message);
    assert_false(d->error.set);
    assert_true(d->nlaunches > 0);
    assert_int_equal(gl_sniff(path, text, len, false), GL_IN_K8S);
    test_doc_free(d);
}

static void test_corpus(void **st)
{
    (void)st;
    assert_true(test_each_yaml_file(GPULINT_CORPUS_DIR "/k8s", corpus_file) >= 28);
}

static void test_pod_facts_and_sharing(void **st)
{
    (void)st;
    struct gl_doc *d = parse(POD "    - name: c\n      image: i\n      resources:\n"
                                 "        limits: {cpu: \"2\", memory: 4Gi}\n"
                                 "        requests: {cpu: 1500m}\n"
                                 "  initContainers:\n    - name: init\n      image: b\n"
                                 "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n"
                                 "data:\n  any: |-\n    version: v1\n    sharing:\n"
                                 "      timeSlicing:\n        resources:\n"
                                 "        - name: nvidia.com/gpu\n          replicas: 4\n");
    assert_false(d->error.set);
    assert_int_equal(d->nlaunches, 2);
    const struct gl_launch *init = &d->launches[0], *c = &d->launches[1];
    assert_true(init->pod.init);
    assert_false(c->pod.init);
    assert_int_equal(init->pod.pod, c->pod.pod);
    assert_string_equal(c->pod.cpu_limit.value, "2");
    assert_loc(c->pod.cpu_limit.loc, 10, 24);
    assert_string_equal(c->pod.cpu_request.value, "1500m");
    assert_loc(c->pod.cpu_request.loc, 11, 25);
    assert_null(c->pod.memory_request.value);
    assert_loc(c->pod.resources_loc, 9, 7);
    /* the replicas key inside the ConfigMap's block scalar */
    assert_int_equal(d->nsharing, 1);
    assert_string_equal(d->sharing[0].replicas, "4");
    assert_string_equal(d->sharing[0].resource, "nvidia.com/gpu");
    assert_loc(d->sharing[0].loc, 26, 11);
    assert_loc(d->sharing[0].value_loc, 26, 21);
    test_doc_free(d);
}

static void test_kai_annotation(void **st)
{
    (void)st;
    struct gl_doc *d = parse("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
                             "  annotations:\n    gpu-fraction: \"0.5\"\nspec:\n  containers:\n"
                             "    - name: c\n      image: i\n");
    assert_int_equal(d->launches[0].ngpus, 1);
    assert_int_equal(d->launches[0].gpus[0].kind, GL_GPU_K8S_VENDOR);
    assert_true(d->launches[0].gpus[0].mem_capped);
    assert_string_equal(d->launches[0].gpus[0].count, "0.5");
    assert_loc(d->launches[0].gpus[0].loc, 6, 5);
    test_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pod_basics),
        cmocka_unit_test(test_gpu_limits),
        cmocka_unit_test(test_requests_without_limits),
        cmocka_unit_test(test_requests_differ_from_limits),
        cmocka_unit_test(test_half_gpu),
        cmocka_unit_test(test_mig),
        cmocka_unit_test(test_hami_vendor),
        cmocka_unit_test(test_dra_claims_and_mps),
        cmocka_unit_test(test_mps_env),
        cmocka_unit_test(test_volumes),
        cmocka_unit_test(test_deployment_and_init),
        cmocka_unit_test(test_cronjob_and_list),
        cmocka_unit_test(test_ray_head_secondary),
        cmocka_unit_test(test_pytorchjob_roles),
        cmocka_unit_test(test_no_apiversion_and_recognition),
        cmocka_unit_test(test_k8s_var_refs),
        cmocka_unit_test(test_invalid_yaml_and_bomb),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_pod_facts_and_sharing),
        cmocka_unit_test(test_kai_annotation),
        cmocka_unit_test(test_long_lists_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
