/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests: the layer-index cache. The round trip; truncated, corrupt, hostile-named
 * or misfiled entries are misses, never trusted; the size bound with least recently
 * used eviction; stale temporary files removed; the cache dir created 0700 and refused
 * when unsafe; symbolic links and FIFOs planted in it never followed. Only the public
 * API (image_cache.h, limits.h) is used, so these run against any version of it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "linter/core/config.h"
#include "linter/core/limits.h"
#include "parsers/image/image_cache.h"

#define HEX "0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab"
#define DIGEST "sha256:" HEX "cdef"

#define PATH_CAP 1024

static char dir[64], outside[64];

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

/* The i-th of a set of distinct digests (i < 65536), all of one length. */
static const char *digest_n(unsigned i)
{
    static char d[8][80];
    char *s = d[i % 8];
    snprintf(s, sizeof d[0], "sha256:%s%04x", HEX, i);
    return s;
}

/* The path of the entry file of `digest` in the cache dir `in`. */
static const char *entry_in(const char *in, const char *digest)
{
    static char p[4][2 * PATH_CAP];
    static unsigned k;
    char *s = p[k++ % 4];
    snprintf(s, sizeof p[0], "%s/layers/sha256-%s.idx", in, digest + 7);
    return s;
}

static const char *entry_of(const char *digest) { return entry_in(dir, digest); }

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static long long size_of(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static void set_mtime(const char *path, time_t sec)
{
    struct timespec t[2] = {{sec, 0}, {sec, 0}};
    assert_int_equal(utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW), 0);
}

static time_t mtime_of(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st.st_mtim.tv_sec;
}

static void set_bound(long long bytes)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", bytes);
    assert_int_equal(gl_limit_set(GL_LIMIT_CACHE_SIZE, text, "test"), 0);
}

/* Store the sample under `digest` in the cache dir `in`. */
static void store_in(const char *in, const char *digest)
{
    struct gl_layer_index ix;
    sample(&ix);
    gl_layer_cache_store(in, digest, &ix);
    gl_layer_index_free(&ix);
}

static bool load_ok(const char *in, const char *digest)
{
    struct gl_layer_index ix;
    gl_layer_index_init(&ix);
    bool ok = gl_layer_cache_load(in, digest, &ix);
    if (ok)
        assert_int_equal(ix.n, 3);
    gl_layer_index_free(&ix);
    return ok;
}

/* The whole content of a file (at most 4 KiB) into buf; its length. */
static size_t slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void mkdir_layers(const char *in)
{
    char p[PATH_CAP];
    snprintf(p, sizeof p, "%s/layers", in);
    assert_int_equal(mkdir(p, 0700), 0);
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
    store_in(dir, DIGEST);
    long long size = size_of(entry_of(DIGEST));
    assert_true(size > 0);
    assert_int_equal(truncate(entry_of(DIGEST), size - 1), 0);
    assert_false(load_ok(dir, DIGEST));
    /* a flipped byte in the compressed payload */
    store_in(dir, DIGEST);
    FILE *f = fopen(entry_of(DIGEST), "r+b");
    assert_non_null(f);
    fseek(f, -40, SEEK_END);
    fputc(0x55, f);
    fclose(f);
    assert_false(load_ok(dir, DIGEST));
    /* rebuilt, then good again */
    store_in(dir, DIGEST);
    assert_true(load_ok(dir, DIGEST));
}

static void hostile_names_never_cached(void **state)
{
    (void)state;
    store_in(dir, "sha256:../../../../tmp/evil");
    store_in(dir, "../x:0123456789abcdef0123456789abcdef");
    assert_false(load_ok(dir, "sha256:../../etc/passwd"));
    assert_false(access("/tmp/evil.idx", F_OK) == 0);
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

/* A valid entry copied under another digest's name is a miss: the checksummed header
 * names the digest it was stored under. */
static void entry_bound_to_its_digest(void **state)
{
    (void)state;
    store_in(dir, digest_n(1));
    char buf[4096];
    size_t n = slurp(entry_of(digest_n(1)), buf, sizeof buf);
    FILE *f = fopen(entry_of(digest_n(2)), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
    assert_false(load_ok(dir, digest_n(2)));
    assert_true(load_ok(dir, digest_n(1)));
    store_in(dir, digest_n(2)); /* rebuilt */
    assert_true(load_ok(dir, digest_n(2)));
}

/* Entries d0..d2, stored in that order (mtimes 1000, 2000, 3000), then d0 read: storing
 * d3 over a bound of three and a half entries removes d1, the least recently used. */
static void eviction_least_recently_used(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        store_in(dir, digest_n(i));
        set_mtime(entry_of(digest_n(i)), 1000 * (i + 1));
    }
    long long one = size_of(entry_of(digest_n(0)));
    set_bound(3 * one + one / 2);
    assert_true(load_ok(dir, digest_n(0)));
    assert_true(mtime_of(entry_of(digest_n(0))) > 3000); /* the hit refreshed it */
    store_in(dir, digest_n(3));
    assert_true(exists(entry_of(digest_n(0))));
    assert_false(exists(entry_of(digest_n(1))));
    assert_true(exists(entry_of(digest_n(2))));
    assert_true(exists(entry_of(digest_n(3))));
}

static long long cache_total(void)
{
    long long total = 0;
    for (unsigned i = 0; i < 16; i++)
        if (exists(entry_of(digest_n(i))))
            total += size_of(entry_of(digest_n(i)));
    return total;
}

/* Sixteen stores under a bound of three and a half entries: after each the cache is
 * within the bound and holds the newest entries. */
static void bound_holds(void **state)
{
    (void)state;
    store_in(dir, digest_n(0));
    long long one = size_of(entry_of(digest_n(0)));
    long long bound = 3 * one + one / 2;
    set_bound(bound);
    for (unsigned i = 0; i < 16; i++) {
        store_in(dir, digest_n(i));
        assert_true(exists(entry_of(digest_n(i))));
        set_mtime(entry_of(digest_n(i)), 1000 + i); /* a clear order, whatever the clock */
        assert_true(cache_total() <= bound);
    }
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal(exists(entry_of(digest_n(i))), i >= 13);
}

/* Only a store walks the directory: hits under a bound the cache is over remove
 * nothing; the next store then brings it within. */
static void only_stores_evict(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 3; i++)
        store_in(dir, digest_n(i));
    set_bound(size_of(entry_of(digest_n(0))) + 1); /* room for one entry */
    for (unsigned i = 0; i < 3; i++)
        assert_true(load_ok(dir, digest_n(i)));
    for (unsigned i = 0; i < 3; i++)
        assert_true(exists(entry_of(digest_n(i))));
    store_in(dir, digest_n(3));
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(exists(entry_of(digest_n(i))), i == 3);
}

static void oversize_entry_not_stored(void **state)
{
    (void)state;
    set_bound(64); /* smaller than any entry */
    store_in(dir, DIGEST);
    assert_false(exists(entry_of(DIGEST)));
    assert_false(load_ok(dir, DIGEST));
}

/* Temporary files of a killed process are removed by the next store's walk once they
 * are an hour old; a fresh one (another process writing) and foreign files are kept. */
static void stale_temporary_files_removed(void **state)
{
    (void)state;
    mkdir_layers(dir);
    char stale[PATH_CAP], fresh[PATH_CAP], other[PATH_CAP];
    snprintf(stale, sizeof stale, "%s/layers/.tmp-99999-0-sha256-%s.idx", dir, &DIGEST[7]);
    snprintf(fresh, sizeof fresh, "%s/layers/.tmp-99998-0-sha256-%s.idx", dir, &DIGEST[7]);
    snprintf(other, sizeof other, "%s/layers/README", dir);
    const char *files[] = {stale, fresh, other};
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(files[i], "w");
        assert_non_null(f);
        fputs("half an entry", f);
        fclose(f);
    }
    set_mtime(stale, time(NULL) - 2 * 3600);
    store_in(dir, digest_n(7));
    assert_false(exists(stale));
    assert_true(exists(fresh));
    assert_true(exists(other));
}

/* A symbolic link planted as an entry, to a valid entry outside the cache: not read as
 * an entry, and a store replaces the link, never writing through it. */
static void planted_entry_link_not_followed(void **state)
{
    (void)state;
    store_in(outside, DIGEST);
    char before[4096], after[4096];
    size_t n = slurp(entry_in(outside, DIGEST), before, sizeof before);
    mkdir_layers(dir);
    assert_int_equal(symlink(entry_in(outside, DIGEST), entry_of(DIGEST)), 0);
    assert_false(load_ok(dir, DIGEST));
    struct gl_layer_index ix;
    gl_layer_index_init(&ix);
    struct gl_layer_entry *e = GL_APPEND(&ix.arena, ix.entries, ix.n, ix.cap);
    *e = (struct gl_layer_entry){.path = "other", .type = GL_FILE_REG};
    gl_layer_cache_store(dir, DIGEST, &ix);
    gl_layer_index_free(&ix);
    assert_int_equal(slurp(entry_in(outside, DIGEST), after, sizeof after), n);
    assert_memory_equal(before, after, n);
    struct stat st;
    assert_int_equal(lstat(entry_of(DIGEST), &st), 0);
    assert_true(S_ISREG(st.st_mode));
}

/* layers/ a symbolic link to another cache's layers/: neither read nor written. */
static void linked_layers_dir_refused(void **state)
{
    (void)state;
    store_in(outside, digest_n(1));
    char link[PATH_CAP], target[PATH_CAP];
    snprintf(link, sizeof link, "%s/layers", dir);
    snprintf(target, sizeof target, "%s/layers", outside);
    assert_int_equal(symlink(target, link), 0);
    assert_false(load_ok(dir, digest_n(1)));
    store_in(dir, digest_n(2));
    assert_false(exists(entry_in(outside, digest_n(2))));
}

/* The cache dir itself a symbolic link (also spelt with a trailing slash): refused. */
static void linked_cache_dir_refused(void **state)
{
    (void)state;
    char link[PATH_CAP], slash[2 * PATH_CAP], out[4096];
    snprintf(link, sizeof link, "%s/cache", dir);
    snprintf(slash, sizeof slash, "%s/", link);
    assert_int_equal(symlink(outside, link), 0);
    struct gl_config cfg;
    gl_config_init(&cfg);
    cfg.cache_dir = link;
    assert_false(gl_layer_cache_dir(&cfg, out, sizeof out));
    cfg.cache_dir = slash;
    assert_false(gl_layer_cache_dir(&cfg, out, sizeof out));
    gl_config_free(&cfg);
    store_in(link, DIGEST);
    store_in(slash, DIGEST);
    assert_false(exists(entry_in(outside, DIGEST)));
}

static unsigned mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st.st_mode & 07777;
}

/* A missing cache dir is created 0700 with its layers/; an existing one writable by
 * group (or its layers/) is refused, and nothing is written there. */
static void permissions(void **state)
{
    (void)state;
    char fresh[PATH_CAP], layers[2 * PATH_CAP], out[4096];
    snprintf(fresh, sizeof fresh, "%s/new/cache", dir);
    snprintf(layers, sizeof layers, "%s/layers", fresh);
    struct gl_config cfg;
    gl_config_init(&cfg);
    cfg.cache_dir = fresh;
    mode_t old = umask(022);
    bool usable = gl_layer_cache_dir(&cfg, out, sizeof out);
    umask(old);
    assert_true(usable);
    assert_int_equal(mode_of(fresh), 0700);
    assert_int_equal(mode_of(layers), 0700);

    assert_int_equal(chmod(layers, 0770), 0);
    assert_false(gl_layer_cache_dir(&cfg, out, sizeof out));
    store_in(fresh, DIGEST);
    assert_false(exists(entry_in(fresh, DIGEST)));
    assert_int_equal(chmod(layers, 0700), 0);
    assert_int_equal(chmod(fresh, 0770), 0);
    assert_false(gl_layer_cache_dir(&cfg, out, sizeof out));
    store_in(fresh, DIGEST);
    assert_false(exists(entry_in(fresh, DIGEST)));
    assert_int_equal(chmod(fresh, 0700), 0);
    assert_true(gl_layer_cache_dir(&cfg, out, sizeof out));
    gl_config_free(&cfg);
}

/* A FIFO planted as an entry is a miss at once (no hang waiting for a writer), and a
 * store replaces it. */
static void planted_fifo_is_a_miss(void **state)
{
    (void)state;
    mkdir_layers(dir);
    assert_int_equal(mkfifo(entry_of(DIGEST), 0600), 0);
    alarm(20); /* a hang kills the test */
    assert_false(load_ok(dir, DIGEST));
    store_in(dir, DIGEST);
    alarm(0);
    assert_true(load_ok(dir, DIGEST));
}

static int setup(void **state)
{
    (void)state;
    gl_limits_reset();
    snprintf(dir, sizeof dir, "/tmp/gpulint-cache-test.XXXXXX");
    snprintf(outside, sizeof outside, "/tmp/gpulint-cache-out.XXXXXX");
    return mkdtemp(dir) && mkdtemp(outside) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gl_limits_reset();
    char cmd[PATH_CAP];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' '%s'; rm -rf '%s' '%s'", dir, outside, dir,
             outside);
    return system(cmd) == 0 ? 0 : -1;
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(round_trip),
        T(corrupt_entries_miss),
        T(hostile_names_never_cached),
        T(parse_rejects_garbage),
        T(entry_bound_to_its_digest),
        T(eviction_least_recently_used),
        T(bound_holds),
        T(only_stores_evict),
        T(oversize_entry_not_stored),
        T(stale_temporary_files_removed),
        T(planted_entry_link_not_followed),
        T(linked_layers_dir_refused),
        T(linked_cache_dir_refused),
        T(permissions),
        T(planted_fifo_is_a_miss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
