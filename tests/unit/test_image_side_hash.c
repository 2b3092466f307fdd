/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests: a blob read whole through image_side_hash gives the bytes in order and the
 * same digest as hashing them inline, also past the hasher's lead bound and from a region
 * inside a file; a short file or a stop midway gives no digest and no hang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "parsers/image/image_side_hash.h"

/* A temporary file of `size` bytes: byte i is a function of i (so order is checked). */
static int make_file(uint64_t size)
{
    char path[] = "/tmp/gpulint-side-hash-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    enum { CHUNK = 1 << 16 };
    static unsigned char buf[CHUNK];
    for (uint64_t pos = 0; pos < size; pos += CHUNK) {
        size_t n = size - pos < CHUNK ? (size_t)(size - pos) : CHUNK;
        for (size_t i = 0; i < n; i++)
            buf[i] = (unsigned char)((pos + i) * 2654435761u >> 13);
        assert_int_equal(pwrite(fd, buf, n, (off_t)pos), (ssize_t)n);
    }
    return fd;
}

static void digest_of(int fd, uint64_t off, uint64_t size, char out[72])
{
    struct gl_fd_region region;
    struct gl_byte_src src = gl_fd_region_src(&region, fd, off, size);
    src.skip = NULL; /* read whole: the blob reader hashes inline */
    struct gl_blob_reader r;
    gl_blob_reader_init(&r, src);
    assert_int_equal(gl_blob_reader_drain(&r), 0);
    assert_true(gl_blob_reader_digest(&r, out));
    gl_fd_region_free(&region);
}

/* True once the hasher waits at its lead (polled for up to 10 s). */
static bool hasher_waits(struct gl_side_hash *s)
{
    for (int i = 0; i < 10000; i++) {
        pthread_mutex_lock(&s->lock);
        bool waits = s->hasher_waits;
        pthread_mutex_unlock(&s->lock);
        if (waits)
            return true;
        usleep(1000);
    }
    return false;
}

/* Reads [off, off+size) through a side-hashed source, checking every byte's value;
 * with `pause`, waits after the first read until the hasher stops at its lead. */
static void read_whole(int fd, uint64_t off, uint64_t size, bool pause)
{
    struct gl_side_hash s;
    assert_true(gl_side_hash_start(&s, fd, off, size));
    struct gl_blob_reader r;
    gl_blob_reader_init(&r, gl_side_hash_src(&s));
    char digest[72];
    assert_false(gl_blob_reader_digest(&r, digest)); /* nothing read yet */
    uint64_t pos = off;
    const void *b;
    ssize_t n;
    while ((n = gl_blob_reader_read(&r, &b)) > 0) {
        const unsigned char *p = b;
        for (ssize_t i = 0; i < n; i++, pos++)
            if (p[i] != (unsigned char)(pos * 2654435761u >> 13))
                fail_msg("byte %ju differs", (uintmax_t)pos);
        if (pause && pos == off + (uint64_t)n)
            assert_true(hasher_waits(&s));
    }
    assert_int_equal(n, 0);
    assert_int_equal(pos, off + size);
    assert_true(gl_blob_reader_digest(&r, digest));
    char want[72];
    digest_of(fd, off, size, want);
    assert_string_equal(digest, want);
    gl_side_hash_stop(&s);
}

static void whole_file(void **state)
{
    (void)state;
    uint64_t size = 3 * GL_WHOLE_READ + 12345;
    int fd = make_file(size);
    read_whole(fd, 0, size, false);
    close(fd);
}

static void region_inside_a_file(void **state)
{
    (void)state;
    uint64_t size = 5 * GL_WHOLE_READ;
    int fd = make_file(size);
    read_whole(fd, 777, size - 777 - 4096, false);
    close(fd);
}

/* Longer than the lead: the hasher stops there until the decoder reads on. */
static void past_the_lead(void **state)
{
    (void)state;
    uint64_t size = GL_SIDE_HASH_LEAD + 3 * GL_WHOLE_READ + 1;
    int fd = make_file(size);
    read_whole(fd, 0, size, true);
    close(fd);
}

static void short_file(void **state)
{
    (void)state;
    int fd = make_file(2 * GL_WHOLE_READ);
    struct gl_side_hash s;
    assert_true(gl_side_hash_start(&s, fd, 0, 4 * GL_WHOLE_READ));
    struct gl_blob_reader r;
    gl_blob_reader_init(&r, gl_side_hash_src(&s));
    assert_int_equal(gl_blob_reader_drain(&r), -1);
    char digest[72];
    assert_false(gl_blob_reader_digest(&r, digest));
    gl_side_hash_stop(&s);
    close(fd);
}

static void stop_midway(void **state)
{
    (void)state;
    uint64_t size = GL_SIDE_HASH_LEAD + 8 * GL_WHOLE_READ;
    int fd = make_file(size);
    struct gl_side_hash s;
    assert_true(gl_side_hash_start(&s, fd, 0, size));
    struct gl_blob_reader r;
    gl_blob_reader_init(&r, gl_side_hash_src(&s));
    const void *b;
    assert_true(gl_blob_reader_read(&r, &b) > 0);
    char digest[72];
    assert_false(gl_blob_reader_digest(&r, digest));
    assert_true(hasher_waits(&s));
    gl_side_hash_stop(&s); /* the hasher waits at its lead: stop must wake it */
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_file),   cmocka_unit_test(region_inside_a_file),
        cmocka_unit_test(past_the_lead), cmocka_unit_test(short_file),
        cmocka_unit_test(stop_midway),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
