/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests: the CUDA fat-binary reader (parsers/image/image_fatbin.h) on binaries nvcc
 * built (tests/fatbin/build.sh: the nvcc arch flags there are the oracle): SASS and PTX,
 * compressed or not, `a` targets, relocatable device code, an executable, ELF32, ELF64 and
 * big-endian objects made by objcopy; every chunking of the stream gives the same facts;
 * truncated files and hostile sizes give no facts, never a crash; then layers written by
 * libarchive (plain and gzip) carry the facts to their entries, through the layer cache's
 * encoding and into the merged view. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <archive.h>
#include <archive_entry.h>
#include <cmocka.h>

#include "parsers/image/image_budget.h"
#include "parsers/image/image_cache.h"
#include "parsers/image/image_fatbin.h"
#include "parsers/image/image_layer.h"
#include "parsers/image/image_view.h"

#define DIR "tests/fatbin/"

struct file {
    unsigned char *p;
    size_t n;
};

static struct file load(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, DIR "%s", name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    struct file r = {NULL, 0};
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    r.p = malloc((size_t)n);
    r.n = (size_t)n;
    assert_int_equal(fread(r.p, 1, r.n, f), r.n);
    fclose(f);
    return r;
}

/* The facts as text: "sm_80 compute_80", each entry's flags as z (compressed), a, f. */
static const char *facts_text(const struct gl_fatbin_facts *f, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    if (!f)
        return "(none)";
    for (uint32_t i = 0; i < f->narchs; i++) {
        const struct gl_fatbin_arch *x = &f->archs[i];
        len += (size_t)snprintf(buf + len, cap - len, "%s%s_%u%s%s%s", i ? " " : "",
                                x->code == GL_FATBIN_SASS ? "sm" : "compute", x->sm,
                                x->flags & GL_FATBIN_ARCH_A ? "a" : "",
                                x->flags & GL_FATBIN_ARCH_F ? "f" : "",
                                x->flags & GL_FATBIN_COMPRESSED ? "/z" : "");
    }
    return buf;
}

/* A scanner: the ELF one or the any-file one, behind one set of calls. */
struct scanner {
    void *(*open)(uint64_t size);
    bool (*feed)(void *s, const void *p, size_t n);
    const struct gl_fatbin_facts *(*end)(void *s, struct gl_arena *a);
    void (*close)(void *s);
};

static void *elf_open(uint64_t size) { return gl_fatbin_scan_new(size); }
static bool elf_feed(void *s, const void *p, size_t n) { return gl_fatbin_scan_feed(s, p, n); }
static const struct gl_fatbin_facts *elf_end(void *s, struct gl_arena *a)
{
    return gl_fatbin_scan_end(s, a);
}
static void elf_close(void *s) { gl_fatbin_scan_free(s); }
static void *any_open(uint64_t size) { return gl_fatbin_file_new(size); }
static bool any_feed(void *s, const void *p, size_t n) { return gl_fatbin_file_feed(s, p, n); }
static const struct gl_fatbin_facts *any_end(void *s, struct gl_arena *a)
{
    return gl_fatbin_file_end(s, a);
}
static void any_close(void *s) { gl_fatbin_file_free(s); }

static const struct scanner elf_scanner = {elf_open, elf_feed, elf_end, elf_close};
static const struct scanner any_scanner = {any_open, any_feed, any_end, any_close};

/* The first `fed` bytes of the file in chunks of `step` bytes (0: at once), announced as
 * `size` bytes, through scanner k. */
static const char *scan_with(const struct scanner *k, struct gl_arena *a, const struct file *f,
                             size_t fed, uint64_t size, size_t step, char *buf, size_t cap)
{
    void *s = k->open(size);
    for (size_t at = 0; at < fed;) {
        size_t n = step && fed - at > step ? step : fed - at;
        if (!k->feed(s, f->p + at, n))
            break;
        at += n;
    }
    const char *t = facts_text(k->end(s, a), buf, cap);
    k->close(s);
    return t;
}

static const char *scan(struct gl_arena *a, const struct file *f, size_t fed, uint64_t size,
                        size_t step, char *buf, size_t cap)
{
    return scan_with(&elf_scanner, a, f, fed, size, step, buf, cap);
}

static const char *scan_file(struct gl_arena *a, const struct file *f, size_t fed,
                             uint64_t size, size_t step, char *buf, size_t cap)
{
    return scan_with(&any_scanner, a, f, fed, size, step, buf, cap);
}

/* name, then what nvcc was asked for (tests/fatbin/build.sh) */
static const char *const oracle[][2] = {
    {"sm80.so", "sm_80"},
    {"sm80_ptx.so", "sm_80 compute_80/z"},        /* nvcc compresses PTX by default */
    {"sm80_plain.so", "sm_80 compute_80"},        /* -Xfatbin=-compress=false */
    {"sm90a.so", "sm_90a"},
    {"multi_z.so", "sm_75/z sm_86/z sm_90/z compute_90/z sm_100/z compute_120/z"},
    {"rdc.o", "sm_80/z"},                         /* __nv_relfatbin */
    {"app", "sm_86"},
    {"x32.o", "sm_80/z"},                         /* ELF32 */
    {"le64.o", "sm_80 compute_80/z"},             /* a raw fatbin in an ELF64 LE object */
    {"le32.o", "sm_80 compute_80/z"},             /* ... ELF32, section at an odd offset */
    {"be64.o", "(none)"},                         /* big-endian: rejected */
    {"plain.so", "(none)"},                       /* no device code */
    {"build.sh", "(none)"},                       /* not ELF */
};

static void nvcc_oracle(void **state)
{
    (void)state;
    static const size_t steps[] = {0, 1, 3, 7, 8, 13, 64, 4096, 65536};
    for (size_t i = 0; i < sizeof oracle / sizeof oracle[0]; i++) {
        struct file f = load(oracle[i][0]);
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
            struct gl_arena a;
            gl_arena_init(&a);
            char buf[512];
            const char *got = scan(&a, &f, f.n, f.n, steps[k], buf, sizeof buf);
            if (strcmp(got, oracle[i][1]))
                fail_msg("%s in chunks of %zu: %s, expected %s", oracle[i][0], steps[k], got,
                         oracle[i][1]);
            gl_arena_free(&a);
        }
        free(f.p);
    }
}

static void format_names_targets(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct file f = load("multi_z.so");
    const struct gl_fatbin_facts *x = gl_fatbin_read(&a, f.p, f.n);
    char buf[256];
    assert_non_null(x);
    assert_string_equal(gl_fatbin_format(x, buf, sizeof buf),
                        "sm_75 sm_86 sm_90 compute_90 sm_100 compute_120");
    assert_int_equal(x->entries, 10); /* two containers, five entries each */
    assert_int_equal(x->more, 0);
    free(f.p);
    f = load("sm90a.so");
    assert_string_equal(gl_fatbin_format(gl_fatbin_read(&a, f.p, f.n), buf, sizeof buf),
                        "sm_90a");
    /* a short buffer: cut, never overrun */
    assert_string_equal(gl_fatbin_format(gl_fatbin_read(&a, f.p, f.n), buf, 4), "");
    free(f.p);
    gl_arena_free(&a);
}

/* Every prefix of a file: no facts, whether the stream stops early (the size announced
 * is the whole file's) or the file itself is short. */
static void truncated(void **state)
{
    (void)state;
    const char *names[] = {"sm80_ptx.so", "rdc.o", "x32.o"};
    for (size_t i = 0; i < 3; i++) {
        struct file f = load(names[i]);
        for (size_t n = 0; n < f.n; n += (n < 128 ? 1 : 61)) {
            struct gl_arena a;
            gl_arena_init(&a);
            char buf[256];
            assert_string_equal(scan(&a, &f, n, f.n, 0, buf, sizeof buf), "(none)");
            assert_string_equal(scan(&a, &f, n, n, 4096, buf, sizeof buf), "(none)");
            gl_arena_free(&a);
        }
        free(f.p);
    }
}

/* The ELF64 section header of the section `name`, in f. */
static unsigned char *section(struct file *f, const char *name)
{
    uint64_t shoff = 0;
    memcpy(&shoff, f->p + 0x28, 8);
    uint16_t shnum, shstrndx;
    memcpy(&shnum, f->p + 0x3c, 2);
    memcpy(&shstrndx, f->p + 0x3e, 2);
    uint64_t stroff;
    memcpy(&stroff, f->p + shoff + (size_t)shstrndx * 64 + 24, 8);
    for (uint16_t i = 0; i < shnum; i++) {
        unsigned char *sh = f->p + shoff + (size_t)i * 64;
        uint32_t nm;
        memcpy(&nm, sh, 4);
        if (!strcmp((const char *)f->p + stroff + nm, name))
            return sh;
    }
    fail_msg("no section %s", name);
    return NULL;
}

static uint64_t u64_at(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* One field of sm80_ptx.so overwritten (offset from the base the kind names), then
 * scanned: no facts, no crash. */
enum base { ELF, SHDR, CONTAINER, ENTRY, ENTRY2 };

static const char *mutated(enum base b, size_t off, const void *v, size_t len, char *buf,
                           size_t cap)
{
    struct file f = load("sm80_ptx.so");
    unsigned char *sh = section(&f, ".nv_fatbin");
    unsigned char *c = f.p + u64_at(sh + 24);
    unsigned char *e = c + 16;
    unsigned char *e2 = e + 64 + u64_at(e + 8); /* second container's entries are later */
    unsigned char *at = b == ELF ? f.p : b == SHDR ? sh : b == CONTAINER ? c
                      : b == ENTRY ? e : e2;
    memcpy(at + off, v, len);
    struct gl_arena a;
    gl_arena_init(&a);
    static const size_t steps[] = {0, 5, 4096};
    char first[256];
    snprintf(first, sizeof first, "%s", scan(&a, &f, f.n, f.n, 0, buf, cap));
    for (size_t k = 1; k < 3; k++)
        assert_string_equal(scan(&a, &f, f.n, f.n, steps[k], buf, cap), first);
    gl_arena_free(&a);
    free(f.p);
    snprintf(buf, cap, "%s", first);
    return buf;
}

static void hostile_sizes(void **state)
{
    (void)state;
    char buf[256];
    uint64_t huge = UINT64_MAX - 3, big = 1u << 30;
    uint16_t many = 0xffff, zero16 = 0, two = 2;
    uint32_t zero32 = 0, huge32 = 0xffffffffu, kind16 = 0x10, sm9 = 9;
    /* unchanged: the control */
    assert_string_equal(mutated(ELF, 0, "\177ELF", 4, buf, sizeof buf), "sm_80 compute_80/z");
    /* the ELF header */
    assert_string_equal(mutated(ELF, 0x28, &huge, 8, buf, sizeof buf), "(none)");    /* e_shoff */
    assert_string_equal(mutated(ELF, 0x3c, &many, 2, buf, sizeof buf), "(none)");    /* e_shnum */
    assert_string_equal(mutated(ELF, 0x3c, &zero16, 2, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(ELF, 0x3e, &many, 2, buf, sizeof buf), "(none)");    /* shstrndx */
    assert_string_equal(mutated(ELF, 0x3a, &two, 2, buf, sizeof buf), "(none)");     /* entsize */
    assert_string_equal(mutated(ELF, 5, "\2", 1, buf, sizeof buf), "(none)");        /* big-endian */
    assert_string_equal(mutated(ELF, 4, "\3", 1, buf, sizeof buf), "(none)");        /* class */
    /* the .nv_fatbin section header: offset and size out of the file or off the containers */
    assert_string_equal(mutated(SHDR, 24, &huge, 8, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(SHDR, 32, &huge, 8, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(SHDR, 32, &big, 8, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(SHDR, 0, &huge32, 4, buf, sizeof buf), "(none)");  /* name */
    /* the first container: its size, header size, version */
    assert_string_equal(mutated(CONTAINER, 8, &huge, 8, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(CONTAINER, 8, &zero32, 4, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(CONTAINER, 6, &zero16, 2, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(CONTAINER, 4, &two, 2, buf, sizeof buf), "(none)");
    /* its entry: header size, payload size, kind, SM */
    assert_string_equal(mutated(ENTRY, 4, &zero32, 4, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(ENTRY, 4, &huge32, 4, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(ENTRY, 8, &huge, 8, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(ENTRY, 0, &kind16, 2, buf, sizeof buf), "(none)");
    assert_string_equal(mutated(ENTRY, 28, &sm9, 4, buf, sizeof buf), "(none)");
    /* the magic of the second container broken: the section is not covered */
    assert_string_equal(mutated(ENTRY2, 0, &zero32, 4, buf, sizeof buf), "(none)");
}

static void candidates(void **state)
{
    (void)state;
    assert_true(gl_fatbin_candidate("usr/lib/libcublas.so", 0644, 100));
    assert_true(gl_fatbin_candidate("usr/lib/libcublas.so.13", 0644, 100));
    assert_true(gl_fatbin_candidate("x/torch/lib/libtorch_cuda.so", 0644, 100));
    assert_true(gl_fatbin_candidate("a/libnvrtc.so.12.4.127", 0644, 100));
    assert_true(gl_fatbin_candidate("build/k.o", 0644, 100));
    assert_true(gl_fatbin_candidate("usr/bin/app", 0755, 100));
    assert_false(gl_fatbin_candidate("usr/bin/app", 0755, 63));
    assert_false(gl_fatbin_candidate("usr/share/doc/libfoo.so.txt", 0644, 100));
    assert_true(gl_fatbin_candidate("usr/lib/libfoo.a", 0644, 100)); /* static libraries */
    assert_false(gl_fatbin_candidate("usr/lib/libfoo.a.txt", 0644, 100));
    assert_false(gl_fatbin_candidate("a/b.so/c.py", 0644, 100));
}

/* Static libraries built by nvcc and ar (tests/fatbin/build.sh): the union of their
 * members' device code, in every chunking; ELF files give through the any-file scan what
 * the ELF scan gives; every prefix, a bad member header, a size past the end, a member
 * whose device code is unreadable, a thin archive: no facts. */
static void static_libraries(void **state)
{
    (void)state;
    static const char *const libs[][2] = {
        {"libk.a", "sm_80"},                 /* GNU ar, a `//` long-name member */
        {"libmix.a", "sm_75 compute_90/z"},  /* two CUDA members and a C one */
        {"librdc.a", "sm_90/z"},             /* nvcc -lib -rdc=true */
        {"libbsd.a", "sm_75"},               /* llvm-ar --format=bsd: #1/N names */
    };
    static const size_t steps[] = {0, 1, 7, 59, 60, 61, 4096};
    char buf[512], want[512];
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        struct file f = load(libs[i][0]);
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
            struct gl_arena a;
            gl_arena_init(&a);
            const char *got = scan_file(&a, &f, f.n, f.n, steps[k], buf, sizeof buf);
            if (strcmp(got, libs[i][1]))
                fail_msg("%s in chunks of %zu: %s, expected %s", libs[i][0], steps[k], got,
                         libs[i][1]);
            gl_arena_free(&a);
        }
        for (size_t n = 0; n < f.n; n += (n < 200 ? 1 : 37)) {
            struct gl_arena a;
            gl_arena_init(&a);
            assert_string_equal(scan_file(&a, &f, n, f.n, 0, buf, sizeof buf), "(none)");
            assert_string_equal(scan_file(&a, &f, n, n, 61, buf, sizeof buf), "(none)");
            gl_arena_free(&a);
        }
        free(f.p);
    }
    for (size_t i = 0; i < sizeof oracle / sizeof oracle[0]; i++) {
        struct file f = load(oracle[i][0]);
        struct gl_arena a;
        gl_arena_init(&a);
        snprintf(want, sizeof want, "%s", scan(&a, &f, f.n, f.n, 0, buf, sizeof buf));
        assert_string_equal(scan_file(&a, &f, f.n, f.n, 13, buf, sizeof buf), want);
        gl_arena_free(&a);
        free(f.p);
    }
    /* damage: libmix.a's second member header (after "!<arch>\n" and the symbol table) */
    struct file f = load("libmix.a");
    struct gl_arena a;
    gl_arena_init(&a);
    size_t first = 8 + 60 + (size_t)strtoul((const char *)f.p + 8 + 48, NULL, 10);
    first += first % 2;
    unsigned char keep[60];
    memcpy(keep, f.p + first, 60);
    memcpy(f.p + first + 48, "9999999999", 10); /* past the end */
    assert_string_equal(scan_file(&a, &f, f.n, f.n, 0, buf, sizeof buf), "(none)");
    memcpy(f.p + first, keep, 60);
    memcpy(f.p + first + 48, "12x4      ", 10); /* not a number */
    assert_string_equal(scan_file(&a, &f, f.n, f.n, 0, buf, sizeof buf), "(none)");
    memcpy(f.p + first, keep, 60);
    f.p[first + 58] = 'x'; /* no "`\n" */
    assert_string_equal(scan_file(&a, &f, f.n, f.n, 0, buf, sizeof buf), "(none)");
    memcpy(f.p + first, keep, 60);
    assert_string_equal(scan_file(&a, &f, f.n, f.n, 0, buf, sizeof buf), "sm_75 compute_90/z");
    /* a member's fat binary broken (its first container's entry kind): not a partial list */
    static const unsigned char magic[4] = {0x50, 0xed, 0x55, 0xba};
    unsigned char *c = memmem(f.p, f.n, magic, 4);
    assert_non_null(c);
    c[16] = 9; /* the first entry's kind: neither PTX nor SASS */
    assert_string_equal(scan_file(&a, &f, f.n, f.n, 0, buf, sizeof buf), "(none)");
    c[16] = 2;
    memcpy(f.p, "!<thin>\n", 8); /* a thin archive holds no members */
    assert_string_equal(scan_file(&a, &f, f.n, f.n, 0, buf, sizeof buf), "(none)");
    gl_arena_free(&a);
    free(f.p);
}

static void encoding(void **state)
{
    (void)state;
    struct gl_arena a;
    gl_arena_init(&a);
    struct file f = load("multi_z.so");
    const struct gl_fatbin_facts *x = gl_fatbin_read(&a, f.p, f.n);
    free(f.p);
    struct gl_buf b;
    gl_buf_init(&b);
    gl_fatbin_encode(x, &b);
    bool bad = false;
    const struct gl_fatbin_facts *y = gl_fatbin_decode(&a, b.data, b.len, &bad);
    char t1[256], t2[256];
    assert_false(bad);
    assert_string_equal(facts_text(x, t1, sizeof t1), facts_text(y, t2, sizeof t2));
    assert_int_equal(y->entries, x->entries);
    for (size_t n = 1; n < b.len; n++) { /* every cut is malformed */
        bad = false;
        assert_null(gl_fatbin_decode(&a, b.data, n, &bad));
        assert_true(bad);
    }
    b.data[14] = 7; /* a code that is neither SASS nor PTX */
    bad = false;
    assert_null(gl_fatbin_decode(&a, b.data, b.len, &bad));
    assert_true(bad);
    gl_buf_free(&b);
    gl_arena_free(&a);
}

/* ---- layers ---- */

struct mem {
    struct gl_buf b;
    size_t pos;
};

static ssize_t mem_read(void *ctx, const void **buf)
{
    struct mem *m = ctx;
    size_t k = m->b.len - m->pos < 3000 ? m->b.len - m->pos : 3000;
    *buf = m->b.data + m->pos;
    m->pos += k;
    return (ssize_t)k;
}

static la_ssize_t write_cb(struct archive *a, void *ctx, const void *p, size_t n)
{
    (void)a;
    gl_buf_add(ctx, p, n);
    return (la_ssize_t)n;
}

/* A layer holding the test binaries under usr/lib (app in usr/bin), written by libarchive. */
static void write_layer(struct gl_buf *out, bool gzip)
{
    struct archive *a = archive_write_new();
    assert_int_equal(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
    if (gzip)
        assert_int_equal(archive_write_add_filter_gzip(a), ARCHIVE_OK);
    archive_write_set_bytes_in_last_block(a, 1); /* no zero padding after the gzip member */
    assert_int_equal(archive_write_open(a, out, NULL, write_cb, NULL), ARCHIVE_OK);
    for (size_t i = 0; i < sizeof oracle / sizeof oracle[0]; i++) {
        struct file f = load(oracle[i][0]);
        char path[128];
        bool exe = !strcmp(oracle[i][0], "app") || !strcmp(oracle[i][0], "build.sh");
        snprintf(path, sizeof path, "usr/%s/%s", exe ? "bin" : "lib", oracle[i][0]);
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, path);
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, exe ? 0755 : 0644);
        archive_entry_set_size(e, (la_int64_t)f.n);
        assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
        assert_int_equal(archive_write_data(a, f.p, f.n), (la_ssize_t)f.n);
        archive_entry_free(e);
        free(f.p);
    }
    /* the same bytes under a name that is no candidate: not read */
    struct file f = load("sm80.so");
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, "usr/share/doc/sm80.so.txt");
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, (la_int64_t)f.n);
    assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
    assert_int_equal(archive_write_data(a, f.p, f.n), (la_ssize_t)f.n);
    archive_entry_free(e);
    free(f.p);
    assert_int_equal(archive_write_close(a), ARCHIVE_OK);
    archive_write_free(a);
}

static const struct gl_layer_entry *entry(const struct gl_layer_index *ix, const char *path)
{
    for (size_t i = 0; i < ix->n; i++)
        if (!strcmp(ix->entries[i].path, path))
            return &ix->entries[i];
    fail_msg("no entry %s", path);
    return NULL;
}

static void check_layer(const struct gl_layer_index *ix)
{
    char buf[256];
    for (size_t i = 0; i < sizeof oracle / sizeof oracle[0]; i++) {
        char path[128];
        bool exe = !strcmp(oracle[i][0], "app") || !strcmp(oracle[i][0], "build.sh");
        snprintf(path, sizeof path, "usr/%s/%s", exe ? "bin" : "lib", oracle[i][0]);
        assert_string_equal(facts_text(entry(ix, path)->fatbin, buf, sizeof buf), oracle[i][1]);
    }
    assert_null(entry(ix, "usr/share/doc/sm80.so.txt")->fatbin);
}

static void layers(void **state)
{
    (void)state;
    for (int gz = 0; gz < 2; gz++) {
        struct mem m = {.pos = 0};
        gl_buf_init(&m.b);
        write_layer(&m.b, gz);
        struct gl_blob_reader r;
        gl_blob_reader_init(&r, (struct gl_byte_src){.ctx = &m, .read = mem_read});
        struct gl_layer_index ix;
        gl_layer_index_init(&ix);
        int rc = gl_layer_index_build(&ix, &r, NULL);
        if (rc != 0)
            fail_msg("layer (gzip %d): %s", gz, ix.error);
        check_layer(&ix);
        assert_int_equal(ix.fatbin_files, 13); /* every file but the .txt (build.sh: 0755) */

        /* through the cache's encoding */
        struct gl_buf ser;
        gl_buf_init(&ser);
        gl_layer_index_serialize(&ix, &ser);
        struct gl_layer_index back;
        gl_layer_index_init(&back);
        assert_true(gl_layer_index_parse(&back, (const unsigned char *)ser.data, ser.len));
        check_layer(&back);

        /* into the merged view */
        struct gl_arena a;
        gl_arena_init(&a);
        const struct gl_layer_index *one[] = {&back};
        struct gl_image_file *files;
        enum gl_limit_id stopped;
        size_t charged = 0;
        size_t n = gl_image_view_build(&a, one, 1, 1000, &files, &stopped, &charged, NULL);
        char buf[256];
        size_t with = 0;
        for (size_t i = 0; i < n; i++) {
            if (!strcmp(files[i].path, "usr/lib/sm90a.so"))
                assert_string_equal(facts_text(files[i].fatbin, buf, sizeof buf), "sm_90a");
            with += files[i].fatbin != NULL;
        }
        assert_int_equal(with, 10);
        gl_image_budget_release(&charged);
        gl_arena_free(&a);
        gl_layer_index_free(&back);
        gl_buf_free(&ser);
        gl_layer_index_free(&ix);
        gl_buf_free(&m.b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nvcc_oracle),   cmocka_unit_test(format_names_targets),
        cmocka_unit_test(truncated),     cmocka_unit_test(hostile_sizes),
        cmocka_unit_test(candidates),    cmocka_unit_test(encoding),
        cmocka_unit_test(static_libraries),
        cmocka_unit_test(layers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
