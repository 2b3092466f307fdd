/* SPDX-License-Identifier: Apache-2.0 */
/* Regression tests for what the hostile-input suite (tests/hostile.sh) and the fuzz
 * campaigns (bench/fuzz.sh) found. One test per finding, named after it; the comment says
 * what went wrong. Larger cases (11 GiB bombs, 100 MB lines, crafted image archives) are
 * cases of tests/hostile.sh instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>

#include "parsers/image/image_catalog.h"

/* A tar archive of one entry `zeros` of `size` zero bytes, compressed by libarchive's
 * `filter` ("gzip" at level 9, or "zstd"), written to a temp file; returns its path. */
static char *write_zero_archive(const char *filter, int64_t size)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/gpulint-regress-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    struct archive *a = archive_write_new();
    assert_int_equal(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
    if (!strcmp(filter, "gzip")) {
        assert_int_equal(archive_write_add_filter_gzip(a), ARCHIVE_OK);
        assert_int_equal(archive_write_set_filter_option(a, "gzip", "compression-level", "9"),
                         ARCHIVE_OK);
    } else {
        assert_int_equal(archive_write_add_filter_zstd(a), ARCHIVE_OK);
    }
    assert_int_equal(archive_write_open_fd(a, fd), ARCHIVE_OK);
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, "zeros");
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, size);
    assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
    static char zeros[1 << 20];
    for (int64_t left = size; left > 0; left -= (int64_t)sizeof zeros)
        archive_write_data(a, zeros, left < (int64_t)sizeof zeros ? (size_t)left : sizeof zeros);
    archive_entry_free(e);
    assert_int_equal(archive_write_close(a), ARCHIVE_OK);
    archive_write_free(a);
    close(fd);
    return path;
}

static void expect_outer_bomb(const char *filter)
{
    /* 576 MiB of zeros: past the 512 MiB floor at a ratio far above 500:1 */
    char *path = write_zero_archive(filter, (int64_t)576 << 20);
    struct gl_arena arena;
    gl_arena_init(&arena);
    struct gl_catalog c;
    gl_catalog_open(&c, &arena, path, -1, NULL, 0, NULL, false);
    assert_int_equal(c.mode, GL_CAT_STREAM);
    assert_non_null(c.error);
    if (!strstr(c.error, "decompression bomb"))
        fail_msg("%s outer archive: expected a decompression bomb, got: %s", filter, c.error);
    assert_non_null(strstr(c.error, "entry 1 of the archive"));
    gl_catalog_close(&c);
    gl_arena_free(&arena);
    unlink(path);
}

/* hostile.sh bomb-outer-gzip: an image archive that is itself compressed (.tar.gz) went
 * through libarchive's gzip filter with no cap: an 11 MB file inflated 11 GiB for 66 s
 * before a "not an image" GL900. The outer stream is now capped as a layer is
 * (gz_isal.h: past 512 MiB out, at most 500 bytes out per byte in). */
static void outer_gzip_archive_bomb_is_capped(void **state)
{
    (void)state;
    expect_outer_bomb("gzip");
}

/* The same through the zstd filter (.tar.zst outer archive, or on standard input). */
static void outer_zstd_archive_bomb_is_capped(void **state)
{
    (void)state;
    expect_outer_bomb("zstd");
}

/* A legitimate compressed outer archive of the same kind but below the floor is read. */
static void outer_small_zero_archive_is_not_a_bomb(void **state)
{
    (void)state;
    char *path = write_zero_archive("zstd", (int64_t)64 << 20);
    struct gl_arena arena;
    gl_arena_init(&arena);
    struct gl_catalog c;
    gl_catalog_open(&c, &arena, path, -1, NULL, 0, NULL, false);
    assert_null(c.error); /* one entry, no image documents: the plan says so, not the catalog */
    assert_int_equal(c.n, 1);
    gl_catalog_close(&c);
    gl_arena_free(&arena);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outer_gzip_archive_bomb_is_capped),
        cmocka_unit_test(outer_zstd_archive_bomb_is_capped),
        cmocka_unit_test(outer_small_zero_archive_is_not_a_bomb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
