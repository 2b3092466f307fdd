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
 *
 * Static libraries: a file that starts with the `ar` magic
 * (`!<arch>\n`) is a run of members, each a 60-byte header (name, decimal size, "`\n")
 * and its bytes padded to an even offset; GNU's symbol and long-name tables are members
 * like the others, a BSD name `#1/N` puts N name bytes before the member's own. Each
 * member is scanned as an ELF file while it streams past, one at a time; the library's
 * facts are the union of its members'. It yields facts only when every member either gave
 * facts or certainly holds no device code (not ELF, or no fat-binary section): a member
 * whose device code could not be read whole, a malformed header, a size past the end, a
 * truncated stream or more than GL_FATBIN_MAX_MEMBERS members give no facts at all (a
 * thin archive, `!<thin>\n`, holds no members and gives none). gl_fatbin_file_* scan any
 * file: a static library as above, anything else as one ELF file.
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
#define GL_FATBIN_MAX_MEMBERS 65536u /* members of one static library */

struct gl_fatbin_scan;

/* A scan of a file of `size` bytes (the tar entry's size). */
struct gl_fatbin_scan *gl_fatbin_scan_new(uint64_t size);
/* The next n bytes of the file. false when the scan wants no more bytes (not an ELF file,
 * no fat-binary section, or all of them read): the caller may skip the rest. */
bool gl_fatbin_scan_feed(struct gl_fatbin_scan *s, const void *p, size_t n);
/* The facts, allocated from `a`, or NULL when the file has no readable fat binary. */
const struct gl_fatbin_facts *gl_fatbin_scan_end(struct gl_fatbin_scan *s, struct gl_arena *a);
void gl_fatbin_scan_free(struct gl_fatbin_scan *s);

/* After the scan: does the file certainly hold no device code (not ELF, or a section table
 * without a fat-binary section)? False when its device code could not be read, or the
 * scan stopped before it could tell. */
bool gl_fatbin_scan_no_device_code(const struct gl_fatbin_scan *s);
/* Facts of n entries (copied into `a`, sorted); NULL when n is 0. */
const struct gl_fatbin_facts *gl_fatbin_facts_make(struct gl_arena *a,
                                                  const struct gl_fatbin_arch *archs,
                                                  uint32_t narchs, uint32_t more,
                                                  uint32_t entries);

/* One whole file in memory (tests, fuzzing): scan_new, one feed, scan_end. */
const struct gl_fatbin_facts *gl_fatbin_read(struct gl_arena *a, const void *p, size_t n);

/* Any file: a static library's members or one ELF file (the first bytes decide), with the
 * interface of the ELF scan above. */
struct gl_fatbin_file;
struct gl_fatbin_file *gl_fatbin_file_new(uint64_t size);
bool gl_fatbin_file_feed(struct gl_fatbin_file *f, const void *p, size_t n);
const struct gl_fatbin_facts *gl_fatbin_file_end(struct gl_fatbin_file *f, struct gl_arena *a);
void gl_fatbin_file_free(struct gl_fatbin_file *f);
const struct gl_fatbin_facts *gl_fatbin_file_read(struct gl_arena *a, const void *p, size_t n);

/* Might this layer entry hold device code? (a regular file named *.so, *.so.N, *.o, *.a,
 * or with an execute bit, of at least 64 bytes) */
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
