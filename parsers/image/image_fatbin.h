/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_fatbin.h: the GPU architectures of the CUDA fat binaries in one ELF file, read
 * while the file streams past (no seeking, no buffering of the file).
 *
 * nvcc links device code into an ELF section `.nv_fatbin` (`__nv_relfatbin` for
 * relocatable device code, -rdc); `.nvFatBinSegment` only holds wrappers pointing at it and
 * is not read. The section is a run of fat-binary containers, each a 16-byte header
 * (magic 0xBA55ED50, version 1, header size, size of what follows) and entries, each an
 * entry header (kind: 1 PTX, 2 ELF cubin = SASS; its header size; the payload size
 * padded to 8; the compressed size; the SM; flags: 0x2000/0x8000 compressed, 0x100000 an
 * `a` arch-specific target, 0x200000 an `f` family target) and the payload, never looked
 * into. Learnt from public reverse-engineering notes and checked on nvcc 13.0 output
 * (tests/fatbin/build.sh).
 *
 * Streaming: the section headers sit at the end of most files, after the fat binaries, so
 * the scanner cannot first look the section up. It reads the ELF header (the section
 * table's place), walks every container whose header it meets at an 8-aligned offset
 * (skipping the payloads), keeps the 64 KiB before the section table (where linkers put
 * the section-name table) and the table itself (at most GL_FATBIN_MAX_SHT bytes), then
 * keeps the containers that lie in a fat-binary section. A file yields facts only when
 * each fat-binary section is covered, from its first byte to its last, by containers
 * read without fault; anything else (not ELF, big-endian, truncated, hostile sizes, an
 * unknown entry kind, a section table too large or not found, names out of reach) gives
 * no facts for the file, never an error: a partial list would make a rule wrongly say an
 * SM is missing. Memory: a fixed few hundred KiB per scan, whatever the file's size.
 */
#ifndef GPULINT_IMAGE_FATBIN_H
#define GPULINT_IMAGE_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linter/core/model.h"

#define GL_FATBIN_MAX_SHT (256u * 1024u)  /* bytes of section table read (4096 sections) */
#define GL_FATBIN_NAME_WINDOW (64u * 1024u) /* bytes kept before the table for the names */
#define GL_FATBIN_MAX_RUNS 64u   /* separate container runs met in one file */
#define GL_FATBIN_MAX_FILES 4096u /* files of one layer whose fat binaries are read */

struct gl_fatbin_scan;

/* A scan of a file of `size` bytes (the tar entry's size). */
struct gl_fatbin_scan *gl_fatbin_scan_new(uint64_t size);
/* The next n bytes of the file. false when the scan wants no more bytes (not an ELF file,
 * no fat-binary section, or all of them read): the caller may skip the rest. */
bool gl_fatbin_scan_feed(struct gl_fatbin_scan *s, const void *p, size_t n);
/* The facts, allocated from `a`, or NULL when the file has no readable fat binary. */
const struct gl_fatbin_facts *gl_fatbin_scan_end(struct gl_fatbin_scan *s, struct gl_arena *a);
void gl_fatbin_scan_free(struct gl_fatbin_scan *s);

/* One whole file in memory (tests, fuzzing): scan_new, one feed, scan_end. */
const struct gl_fatbin_facts *gl_fatbin_read(struct gl_arena *a, const void *p, size_t n);

/* Might this layer entry be an ELF file with device code? (a regular file named *.so,
 * *.so.N, *.o, or with an execute bit, of at least 64 bytes) */
bool gl_fatbin_candidate(const char *path, unsigned mode, uint64_t size);

/* "sm_80 sm_90a compute_90" into buf: SASS as sm_NN, PTX as compute_NN, `a`/`f` kept,
 * "(+N more)" when entries were left out. */
const char *gl_fatbin_format(const struct gl_fatbin_facts *f, char *buf, size_t cap);

/* A copy of f in `a`. */
const struct gl_fatbin_facts *gl_fatbin_copy(struct gl_arena *a, const struct gl_fatbin_facts *f);

/* The layer cache's encoding of facts (bytes; NULL facts: 0 bytes). decode: NULL on a
 * malformed encoding (*bad set) or an empty one. */
void gl_fatbin_encode(const struct gl_fatbin_facts *f, struct gl_buf *out);
const struct gl_fatbin_facts *gl_fatbin_decode(struct gl_arena *a, const void *p, size_t n,
                                               bool *bad);

#endif
