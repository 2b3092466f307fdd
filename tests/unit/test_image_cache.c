/* Unit tests: the layer-index cache round trip, and that truncated, corrupt or
 * hostile-named entries are misses, never trusted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "parsers/image_cache.h"

#define DIGEST "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static char dir[64];

static void sample(struct gl_layer_index *ix)
{
    gl_layer_index_init(ix);
    struct gl_layer_entry *e = GL_APPEND(&ix->arena, ix->entries, ix->n, ix->cap);
    *e = (struct gl_layer_entry){.path = "usr/local/cuda/version.json", .type = GL_FILE_REG,
                                 .size = 9, .content = "{\"a\":1}\n", .content_len = 8};
    e = GL_APPEND(&ix->arena, ix->entries, ix->n, ix->cap);
    *e = (struct gl_layer_entry){.path = "lib/x", .type = GL_FILE_SYMLINK, .link = "../y"};
    e = GL_APPEND(&ix->arena, ix->entries, ix->n, ix->cap);
    *e = (struct gl_layer_entry){.path = "opt", .type = GL_FILE_OTHER, .whiteout = GL_WH_OPAQUE};
}

static char *entry_path(void)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/layers/sha256-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.idx", dir);
    return p;
}

static void round_trip(void **state)
{
    (void)state;
    struct gl_layer_index in, out;
    sample(&in);
    gl_layer_cache_store(dir, DIGEST, &in);
    gl_layer_index_init(&out);
    assert_true(gl_layer_cache_load(dir, DIGEST, &out));
    assert_int_equal(out.n, 3);
    assert_string_equal(out.entries[0].path, "usr/local/cuda/version.json");
    assert_int_equal(out.entries[0].content_len, 8);
    assert_memory_equal(out.entries[0].content, "{\"a\":1}\n", 8);
    assert_string_equal(out.entries[1].link, "../y");
    assert_null(out.entries[0].link);
    assert_int_equal(out.entries[2].whiteout, GL_WH_OPAQUE);
    gl_layer_index_free(&out);
    gl_layer_index_free(&in);
}

static void corrupt_entries_miss(void **state)
{
    (void)state;
    struct gl_layer_index in, out;
    sample(&in);
    gl_layer_cache_store(dir, DIGEST, &in);
    struct stat st;
    assert_int_equal(stat(entry_path(), &st), 0);
    assert_int_equal(truncate(entry_path(), st.st_size - 1), 0);
    gl_layer_index_init(&out);
    assert_false(gl_layer_cache_load(dir, DIGEST, &out));
    assert_int_equal(out.n, 0);
    /* a flipped byte in the compressed payload */
    gl_layer_cache_store(dir, DIGEST, &in);
    FILE *f = fopen(entry_path(), "r+b");
    assert_non_null(f);
    fseek(f, -3, SEEK_END);
    fputc(0x55, f);
    fclose(f);
    assert_false(gl_layer_cache_load(dir, DIGEST, &out));
    /* rebuilt, then good again */
    gl_layer_cache_store(dir, DIGEST, &in);
    assert_true(gl_layer_cache_load(dir, DIGEST, &out));
    gl_layer_index_free(&out);
    gl_layer_index_free(&in);
}

static void hostile_names_never_cached(void **state)
{
    (void)state;
    struct gl_layer_index in, out;
    sample(&in);
    gl_layer_cache_store(dir, "sha256:../../../../tmp/evil", &in);
    gl_layer_cache_store(dir, "../x:0123456789abcdef0123456789abcdef", &in);
    gl_layer_index_init(&out);
    assert_false(gl_layer_cache_load(dir, "sha256:../../etc/passwd", &out));
    assert_false(access("/tmp/evil.idx", F_OK) == 0);
    gl_layer_index_free(&in);
    gl_layer_index_free(&out);
}

static void parse_rejects_garbage(void **state)
{
    (void)state;
    struct gl_layer_index ix;
    gl_layer_index_init(&ix);
    unsigned char junk[64];
    memset(junk, 0xff, sizeof junk);
    assert_false(gl_layer_index_parse(&ix, junk, sizeof junk));
    assert_false(gl_layer_index_parse(&ix, junk, 3));
    gl_layer_index_free(&ix);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gpulint-cache-test.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip), cmocka_unit_test(corrupt_entries_miss),
        cmocka_unit_test(hostile_names_never_cached), cmocka_unit_test(parse_rejects_garbage),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
