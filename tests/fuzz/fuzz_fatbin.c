/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the CUDA fat-binary reader (parsers/image/image_fatbin.h). The bytes
 * are one file, scanned whole and again in chunks whose sizes the first byte picks (1 to
 * 256, to cross every header edge), as an ELF file and as any file (a static library's
 * members, or one ELF file); both scans of each kind must give the same facts (aborts
 * otherwise), and the facts must survive the layer cache's encoding. Seeds: tests/fatbin/
 * (binaries and static libraries built by nvcc and ar). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/image/image_fatbin.h"

static void same(const struct gl_fatbin_facts *a, const struct gl_fatbin_facts *b)
{
    if (!a != !b)
        abort();
    if (!a)
        return;
    if (a->narchs != b->narchs || a->more != b->more || a->entries != b->entries ||
        memcmp(a->archs, b->archs, a->narchs * sizeof *a->archs))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gl_arena a;
    gl_arena_init(&a);
    const struct gl_fatbin_facts *whole = gl_fatbin_read(&a, data, size);
    size_t step = size ? (size_t)data[0] + 1 : 1;
    struct gl_fatbin_scan *s = gl_fatbin_scan_new(size);
    struct gl_fatbin_file *fs = gl_fatbin_file_new(size);
    bool elf_on = true, any_on = true; /* each scan takes the same chunks until it stops */
    for (size_t at = 0; at < size && (elf_on || any_on); at += step) {
        size_t n = size - at < step ? size - at : step;
        elf_on = elf_on && gl_fatbin_scan_feed(s, data + at, n);
        any_on = any_on && gl_fatbin_file_feed(fs, data + at, n);
    }
    same(whole, gl_fatbin_scan_end(s, &a));
    gl_fatbin_scan_free(s);
    const struct gl_fatbin_facts *any = gl_fatbin_file_read(&a, data, size);
    same(any, gl_fatbin_file_end(fs, &a));
    gl_fatbin_file_free(fs);
    if (size < 8 || memcmp(data, "!<arch>\n", 8))
        same(whole, any); /* not a library: one ELF file */
    if (whole) {
        char text[1024];
        gl_fatbin_format(whole, text, sizeof text);
        struct gl_buf b;
        gl_buf_init(&b);
        gl_fatbin_encode(whole, &b);
        bool bad = false;
        same(whole, gl_fatbin_decode(&a, b.data, b.len, &bad));
        gl_buf_free(&b);
    }
    bool bad = false;
    (void)gl_fatbin_decode(&a, data, size, &bad); /* the cache's encoding, hostile */
    gl_arena_free(&a);
    return 0;
}
