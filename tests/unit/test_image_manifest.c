/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests: parsers/image/image_manifest.h (resolving an image's documents: deduplication by
 * digest, the limits, one problem per broken platform; digests; configs) and the names an
 * OCI layout directory may open (image_catalog.h). Documents come from an in-memory
 * table that counts how often each is fetched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "linter/core/limits.h"
#include "parsers/image/image_catalog.h"
#include "parsers/image/image_manifest.h"

#define HEX(c) c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c \
               c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c
#define D(c) "sha256:" HEX(c)
#define BLOB(c) "blobs/sha256/" HEX(c)

struct doc {
    const char *name, *text, *why; /* why: the fetch refuses it */
    int fetched;
};

static struct doc docs[16];
static size_t ndocs;
static struct gl_arena arena; /* each test's, freed after it */

static void put(const char *name, const char *text, const char *why)
{
    docs[ndocs++] = (struct doc){name, text, why, 0};
}

static char *fetch(void *ctx, const char *name, size_t *len, const char **why)
{
    (void)ctx;
    *why = NULL;
    for (size_t i = 0; i < ndocs; i++) {
        if (strcmp(docs[i].name, name))
            continue;
        docs[i].fetched++;
        *why = docs[i].why;
        if (docs[i].why)
            return NULL;
        *len = strlen(docs[i].text);
        return strdup(docs[i].text);
    }
    return NULL;
}

static int fetched(const char *name)
{
    for (size_t i = 0; i < ndocs; i++)
        if (!strcmp(docs[i].name, name))
            return docs[i].fetched;
    return 0;
}

static int setup(void **state)
{
    (void)state;
    ndocs = 0;
    gl_limits_reset();
    gl_arena_init(&arena);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gl_arena_free(&arena);
    return 0;
}

/* A descriptor of the document whose digest is 64 times the hex digit c, for platform
 * linux/arch (NULL: none), tagged tag (NULL: none). */
static const char *desc_of(struct gl_arena *a, char c, const char *arch, const char *tag)
{
    char hex[65];
    memset(hex, c, 64);
    hex[64] = 0;
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_printf(&b, "{\"digest\":\"sha256:%s\"", hex);
    if (arch)
        gl_buf_printf(&b, ",\"platform\":{\"os\":\"linux\",\"architecture\":\"%s\"}", arch);
    if (tag)
        gl_buf_printf(&b, ",\"annotations\":{\"org.opencontainers.image.ref.name\":\"%s\"}",
                      tag);
    gl_buf_addc(&b, '}');
    const char *s = gl_arena_strdup(a, gl_buf_str(&b));
    gl_buf_free(&b);
    return s;
}

static const char *manifest(struct gl_arena *a, int nlayers)
{
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_adds(&b, "{\"config\":{\"digest\":\"" D("c") "\"},\"layers\":[");
    for (int i = 0; i < nlayers; i++)
        gl_buf_printf(&b, "%s{\"digest\":\"" D("1") "\"}", i ? "," : "");
    gl_buf_adds(&b, "]}");
    const char *s = gl_arena_strdup(a, gl_buf_str(&b));
    gl_buf_free(&b);
    return s;
}

static const char *index_of(struct gl_arena *a, const char *const *descs, size_t n)
{
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_adds(&b, "{\"manifests\":[");
    for (size_t i = 0; i < n; i++)
        gl_buf_printf(&b, "%s%s", i ? "," : "", descs[i]);
    gl_buf_adds(&b, "]}");
    const char *s = gl_arena_strdup(a, gl_buf_str(&b));
    gl_buf_free(&b);
    return s;
}

static void resolve(struct gl_arena *a, struct gl_image_plan *plan)
{
    gl_image_plan_resolve(a, fetch, NULL, NULL, plan);
}

static void assert_problem(const struct gl_image_plan *plan, const char *needle)
{
    for (size_t i = 0; i < plan->nproblems; i++)
        if (strstr(plan->problems[i].message, needle))
            return;
    fail_msg("no problem says `%s` (%zu problems%s%s)", needle, plan->nproblems,
             plan->nproblems ? ", the first: " : "",
             plan->nproblems ? plan->problems[0].message : "");
}

/* A manifest named many times is one target, read once; its platforms and tags join. */
static void manifest_named_again_is_one_target(void **state)
{
    (void)state;
    struct gl_arena *a = &arena;
    const char *d[] = {desc_of(a, 'a', "amd64", "t:1"), desc_of(a, 'a', "amd64", "t:1"),
                       desc_of(a, 'a', "arm64", "t:2"), desc_of(a, 'a', NULL, NULL)};
    put("index.json", index_of(a, d, 4), NULL);
    put(BLOB("a"), manifest(a, 2), NULL);
    struct gl_image_plan plan;
    resolve(a, &plan);
    assert_null(plan.error);
    assert_int_equal(plan.nproblems, 0);
    assert_int_equal(plan.ntargets, 1);
    assert_int_equal(fetched(BLOB("a")), 1);
    assert_string_equal(plan.targets[0].platform, "linux/amd64, linux/arm64");
    assert_int_equal(plan.targets[0].ntags, 2);
    assert_string_equal(plan.targets[0].manifest, D("a"));
    assert_int_equal(plan.targets[0].nlayers, 2);
}

static void many_platforms_of_one_manifest_are_counted(void **state)
{
    (void)state;
    struct gl_arena *a = &arena;
    const char *archs[] = {"a", "b", "c", "d", "e", "f", "e"};
    const char *d[7];
    for (size_t i = 0; i < 7; i++)
        d[i] = desc_of(a, 'a', archs[i], NULL);
    put("index.json", index_of(a, d, 7), NULL);
    put(BLOB("a"), manifest(a, 1), NULL);
    struct gl_image_plan plan;
    resolve(a, &plan);
    assert_int_equal(plan.ntargets, 1);
    assert_string_equal(plan.targets[0].platform,
                        "linux/a, linux/b, linux/c, linux/d and 2 more");
}

/* Artifacts stored beside an image (written after sylabs/singularity's
 * test/oci/images/hello-world-cosign-manifest: cosign's .sig and .att manifests, no
 * platform, layers of signature and envelope media types; an oras artifact with
 * artifactType) hold no root filesystem: no target, no problem. A layer typed as a tar
 * keeps its manifest an image. */
static void artifacts_beside_images_are_no_targets(void **state)
{
    (void)state;
    struct gl_arena *a = &arena;
    const char *d[] = {desc_of(a, 'a', NULL, "hello:1"), desc_of(a, 'b', NULL, "_cosign:x.sig"),
                       desc_of(a, 'd', NULL, "_cosign:x.att"), desc_of(a, 'e', NULL, "sbom")};
    put("index.json", index_of(a, d, 4), NULL);
    put(BLOB("a"), "{\"config\":{\"digest\":\"" D("c") "\"},\"layers\":[{\"mediaType\":"
                   "\"application/vnd.docker.image.rootfs.diff.tar.gzip\",\"digest\":\""
                   D("1") "\"}]}", NULL);
    put(BLOB("b"), "{\"config\":{\"digest\":\"" D("c") "\"},\"layers\":[{\"mediaType\":"
                   "\"application/vnd.dev.cosign.simplesigning.v1+json\",\"digest\":\""
                   D("2") "\"}]}", NULL);
    put(BLOB("d"), "{\"config\":{\"digest\":\"" D("c") "\"},\"layers\":[{\"mediaType\":"
                   "\"application/vnd.dsse.envelope.v1+json\",\"digest\":\"" D("3") "\"}]}",
        NULL);
    put(BLOB("e"), "{\"artifactType\":\"application/spdx+json\",\"config\":{\"digest\":\""
                   D("c") "\"},\"layers\":[{\"digest\":\"" D("4") "\"}]}", NULL);
    struct gl_image_plan plan;
    resolve(a, &plan);
    assert_null(plan.error);
    assert_int_equal(plan.nproblems, 0);
    assert_int_equal(plan.ntargets, 1);
    assert_string_equal(plan.targets[0].manifest, D("a"));
}

/* Nested indexes: each read once; deeper than image-index-depth is a problem. */
static void nested_indexes_read_once_and_bounded(void **state)
{
    (void)state;
    struct gl_arena *a = &arena;
    const char *leaf[] = {desc_of(a, 'a', "amd64", NULL)};
    const char *to2[] = {desc_of(a, '2', NULL, NULL), desc_of(a, '2', NULL, NULL)};
    const char *to3[] = {desc_of(a, '3', NULL, NULL)};
    put("index.json", index_of(a, to2, 2), NULL);
    put(BLOB("2"), index_of(a, to3, 1), NULL);
    put(BLOB("3"), index_of(a, leaf, 1), NULL);
    put(BLOB("a"), manifest(a, 1), NULL);
    struct gl_image_plan plan;
    resolve(a, &plan);
    assert_int_equal(plan.ntargets, 1);
    assert_int_equal(fetched(BLOB("2")), 1);
    assert_int_equal(plan.nproblems, 0);
    assert_int_equal(gl_limit_set(GL_LIMIT_IMAGE_INDEX_DEPTH, "1", "test"), 0);
    resolve(a, &plan);
    assert_int_equal(plan.ntargets, 0);
    assert_int_equal(plan.nproblems, 1);
    assert_problem(&plan, "is nested 2 deep, not read: the limit `image-index-depth` (1)");
}

static void distinct_manifests_and_layers_are_bounded(void **state)
{
    (void)state;
    struct gl_arena *a = &arena;
    const char *d[] = {desc_of(a, 'a', "amd64", NULL), desc_of(a, 'b', "arm64", NULL),
                       desc_of(a, 'd', "s390x", NULL)};
    put("index.json", index_of(a, d, 3), NULL);
    put(BLOB("a"), manifest(a, 1), NULL);
    put(BLOB("b"), manifest(a, 3), NULL);
    put(BLOB("d"), manifest(a, 1), NULL);
    assert_int_equal(gl_limit_set(GL_LIMIT_IMAGE_LAYERS, "2", "test"), 0);
    assert_int_equal(gl_limit_set(GL_LIMIT_IMAGE_MANIFESTS, "2", "test"), 0);
    struct gl_image_plan plan;
    resolve(a, &plan);
    assert_int_equal(plan.ntargets, 1);
    assert_string_equal(plan.targets[0].platform, "linux/amd64");
    assert_problem(&plan, "3 layers: the limit `image-layers` (2)");
    assert_problem(&plan, "one manifest too many, the rest of the index is not read: the "
                          "limit `image-manifests` (2)");
    assert_string_equal(plan.problems[1].platform, "linux/s390x");
}

/* One platform's manifest refused, another's missing: problems of those platforms; a
 * platform an index names but the archive did not save is no problem. */
static void a_broken_platform_is_its_own_problem(void **state)
{
    (void)state;
    struct gl_arena *a = &arena;
    const char *d[] = {desc_of(a, 'a', "amd64", NULL), desc_of(a, 'b', "arm64", NULL),
                       desc_of(a, 'd', "ppc64le", NULL), desc_of(a, 'e', "riscv64", NULL)};
    put("index.json", index_of(a, d, 4), NULL);
    put(BLOB("a"), manifest(a, 1), NULL);
    put(BLOB("b"), NULL, "5000000 bytes: the limit `image-json-size` (4MiB) was reached");
    put(BLOB("d"), "{\"config\": [", NULL);
    struct gl_image_plan plan;
    resolve(a, &plan);
    assert_null(plan.error);
    assert_int_equal(plan.ntargets, 1);
    assert_int_equal(plan.nproblems, 2);
    assert_string_equal(plan.problems[0].platform, "linux/arm64");
    assert_problem(&plan, "index.json manifests[1]: blob `" BLOB("b") "`: 5000000 bytes");
    assert_string_equal(plan.problems[1].platform, "linux/ppc64le");
    assert_problem(&plan, "not valid JSON: expected a value at byte 12");
}

static void long_tags_are_dropped(void **state)
{
    (void)state;
    struct gl_arena *a = &arena;
    const char *d[] = {desc_of(a, 'a', "amd64", "short:1"),
                       desc_of(a, 'a', "amd64", "a-tag-longer-than-16:1")};
    put("index.json", index_of(a, d, 2), NULL);
    put(BLOB("a"), manifest(a, 1), NULL);
    assert_int_equal(gl_limit_set(GL_LIMIT_NAME_LENGTH, "16", "test"), 0);
    struct gl_image_plan plan;
    resolve(a, &plan);
    assert_int_equal(plan.ntargets, 1);
    assert_int_equal(plan.targets[0].ntags, 1);
    assert_string_equal(plan.targets[0].tags[0], "short:1");
    assert_problem(&plan, "a tag of 22 bytes, dropped: the limit `name-length` (16)");
}

/* docker save's manifest.json: one target per Config, tags merged; a bad top-level
 * document fails the whole input. */
static void docker_manifest_by_config(void **state)
{
    (void)state;
    struct gl_arena *a = &arena;
    put("manifest.json",
        "[{\"Config\":\"c.json\",\"RepoTags\":[\"x:1\"],\"Layers\":[\"l/layer.tar\"]},"
        " {\"Config\":\"c.json\",\"RepoTags\":[\"x:2\",\"x:1\"],\"Layers\":[\"l/layer.tar\"]},"
        " {\"Config\":\"d.json\",\"Layers\":[\"blobs/sha256/" HEX("e") "\"]}]", NULL);
    struct gl_image_plan plan;
    resolve(a, &plan);
    assert_int_equal(plan.ntargets, 2);
    assert_int_equal(plan.targets[0].ntags, 2);
    assert_null(plan.targets[0].layers[0].digest);
    assert_string_equal(plan.targets[1].layers[0].digest, D("e"));
    ndocs = 0;
    put("manifest.json", "{\"not\": \"a list\"}", NULL);
    resolve(a, &plan);
    assert_string_equal(plan.error, "manifest.json: expected a JSON array of images");
    ndocs = 0;
    put("index.json", NULL, "7000000 bytes: the limit `image-json-size` (4MiB) was reached");
    resolve(a, &plan);
    assert_string_equal(plan.error, "index.json: 7000000 bytes: the limit `image-json-size` "
                                    "(4MiB) was reached");
}

static void digests_and_layout_names(void **state)
{
    (void)state;
    assert_true(gl_image_digest_valid(D("0")));
    assert_true(gl_image_digest_valid("sha512:" HEX("ab")));
    assert_true(gl_image_digest_valid("multihash+base58:QmRZxt2b1FVZPNqd8hsiykDL3TdBDeTSPX9Kv46HmX4Gx8"));
    assert_true(gl_image_digest_valid("a.b_c-d+e:Abc=_-"));
    assert_false(gl_image_digest_valid("sha256:" HEX("A")));    /* hex is lowercase */
    assert_false(gl_image_digest_valid("sha256:abc"));          /* the length of sha256 */
    assert_false(gl_image_digest_valid("sha256:../../etc/passwd"));
    assert_false(gl_image_digest_valid("/etc:passwd"));
    assert_false(gl_image_digest_valid("Sha256:abc"));
    assert_false(gl_image_digest_valid("a..b:abc"));
    assert_false(gl_image_digest_valid(":abc"));
    assert_false(gl_image_digest_valid("sha256"));
    assert_false(gl_image_digest_valid("x:a/b"));
    assert_false(gl_image_digest_valid(NULL));
    assert_true(gl_image_layout_name_ok("index.json"));
    assert_true(gl_image_layout_name_ok("oci-layout"));
    assert_true(gl_image_layout_name_ok(BLOB("f")));
    assert_false(gl_image_layout_name_ok("../index.json"));
    assert_false(gl_image_layout_name_ok("/etc/passwd"));
    assert_false(gl_image_layout_name_ok("blobs/sha256/../../../x"));
    assert_false(gl_image_layout_name_ok(BLOB("f") "/x"));
    assert_false(gl_image_layout_name_ok("blobs/" BLOB("f")));
    assert_false(gl_image_layout_name_ok("l/layer.tar"));
    assert_false(gl_image_layout_name_ok("ab"));     /* shorter than "blobs/" */
    assert_false(gl_image_layout_name_ok("blobs"));
    assert_false(gl_image_layout_name_ok("blobs/sha256"));
}

static void configs(void **state)
{
    (void)state;
    struct gl_arena *a = &arena;
    const char *json = "{\"os\":\"linux\",\"architecture\":\"arm64\",\"variant\":\"v8\","
                       "\"config\":{\"Env\":[\"A=1\",7,\"B=2\"]},\"history\":[{\"created_by\":"
                       "\"RUN x\"},{\"empty_layer\":true}],\"rootfs\":{\"diff_ids\":[\"" D("d")
                       "\"]}}";
    struct gl_image_config c;
    const char *err = NULL;
    assert_int_equal(gl_image_config_parse(a, json, strlen(json), &c, &err), 0);
    assert_string_equal(c.platform, "linux/arm64/v8");
    assert_int_equal(c.nenv, 2);
    assert_string_equal(c.env[1], "B=2");
    assert_int_equal(c.ncreated_by, 2);
    assert_string_equal(c.created_by[0], "RUN x");
    assert_true(c.empty_layer[1]);
    assert_string_equal(c.diff_ids[0], D("d"));
    assert_int_equal(gl_image_config_parse(a, "[1]", 3, &c, &err), -1);
    assert_string_equal(err, "the image config is not a JSON object");
    assert_int_equal(gl_limit_set(GL_LIMIT_NESTING_DEPTH, "2", "test"), 0);
    assert_int_equal(gl_image_config_parse(a, "{\"a\":{\"b\":{}}}", 13, &c, &err), -1);
    assert_non_null(strstr(err, "the limit `nesting-depth` (2)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(manifest_named_again_is_one_target, setup, teardown),
        cmocka_unit_test_setup_teardown(many_platforms_of_one_manifest_are_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(artifacts_beside_images_are_no_targets, setup, teardown),
        cmocka_unit_test_setup_teardown(nested_indexes_read_once_and_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(distinct_manifests_and_layers_are_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(a_broken_platform_is_its_own_problem, setup, teardown),
        cmocka_unit_test_setup_teardown(long_tags_are_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(docker_manifest_by_config, setup, teardown),
        cmocka_unit_test_setup_teardown(digests_and_layout_names, setup, teardown),
        cmocka_unit_test_setup_teardown(configs, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
