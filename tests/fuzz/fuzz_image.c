/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: bytes as an image archive, read as gpulint reads a file named on the
 * command line (written to a memfd, linted by path: the seekable tar catalog, or the
 * streaming pass for gzip / zstd outer archives), and the same bytes as one layer blob
 * (parsers/image/image_layer.h) read from memory, with and without a media type. No cache. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "linter/core/config.h"
#include "knowledge/driver_target.h"
#include "linter/cli/engine.h"
#include "parsers/image/image_catalog.h"
#include "parsers/image/image_layer.h"
#include "knowledge/kb.h"

static struct gl_config cfg;
static int memfd = -1;
static char memfd_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gl_config_init(&cfg);
    cfg.no_cache = true;
    cfg.jobs = 1;
    gl_driver_target_parse(&cfg.driver, "535.104.05", "--driver");
    gl_config_finish(&cfg);
    cfg.kb = gl_kb_builtin();
    char note[256];
    if (gl_driver_target_resolve(&cfg.driver, cfg.kb, &cfg.arena, note, sizeof note) != 0)
        abort();
    memfd = memfd_create("fuzz_image", MFD_CLOEXEC);
    if (memfd < 0)
        abort();
    snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
    return 0;
}

/* An in-memory blob source handing out runs of at most 4 KiB (to cross buffer edges). */
struct mem_src {
    const uint8_t *p;
    size_t n, pos;
};

static ssize_t mem_read(void *ctx, const void **buf)
{
    struct mem_src *m = ctx;
    size_t k = m->n - m->pos < 4096 ? m->n - m->pos : 4096;
    *buf = m->p + m->pos;
    m->pos += k;
    return (ssize_t)k;
}

static int64_t mem_skip(void *ctx, int64_t n)
{
    struct mem_src *m = ctx;
    size_t k = (uint64_t)n < m->n - m->pos ? (size_t)n : m->n - m->pos;
    m->pos += k;
    return (int64_t)k;
}

static void index_layer(const uint8_t *data, size_t size, const char *media_type, bool seek)
{
    struct mem_src m = {data, size, 0};
    struct gl_blob_reader r;
    gl_blob_reader_init(&r, (struct gl_byte_src){.ctx = &m, .read = mem_read,
                                                 .skip = seek ? mem_skip : NULL});
    struct gl_layer_index ix;
    gl_layer_index_init(&ix);
    gl_layer_index_build(&ix, &r, media_type);
    gl_layer_index_free(&ix);
}

static void lint_archive(const uint8_t *data, size_t size)
{
    if (ftruncate(memfd, 0) != 0 || pwrite(memfd, data, size, 0) != (ssize_t)size)
        abort();
    struct gl_run run;
    gl_run_init(&run, &cfg);
    gl_lint_path(&run, memfd_path);
    gl_run_free(&run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (gl_image_head_is_archive(data, size))
        lint_archive(data, size);
    index_layer(data, size, NULL, true);
    index_layer(data, size, "application/vnd.oci.image.layer.v1.tar+gzip", false);
    return 0;
}
