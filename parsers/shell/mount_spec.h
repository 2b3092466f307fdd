/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mount_spec.h: the values of docker's `--mount` and `--gpus` and of BuildKit's
 * `RUN --mount=`: one reader for the docker CLI (docker/cli opts/mount.go, opts/gpus.go)
 * and BuildKit (frontend/dockerfile/instructions/runmount.go).
 *
 * gl_csv_next (gl_csv_record_read: all at once): the fields of one record, as Go's
 * encoding/csv reads it with its defaults (no comment byte, no lazy quotes, no trimming):
 *  - Fields are split at ',' and may be empty (`a,,b` has three; `a,` two).
 *  - A field that starts with '"' is quoted: it runs to the next lone '"', which must be
 *    followed by ',', a line end or the end of the input; `""` inside stands for one '"';
 *    commas and line ends inside are the field's. A '"' anywhere else is an error.
 *  - A line end ("\n" or "\r\n") outside quotes ends the record: what follows is another
 *    record and is not read. Empty lines before the record are skipped; "\r\n" inside a
 *    quoted field is read as "\n".
 *  - An input with no record (empty, or only line ends) is an error ("empty value").
 * Errors carry encoding/csv's reason and the offset of the byte it stopped at (an
 * unclosed quote: the opening quote); the fields before the bad one are kept.
 *
 * gl_mount_spec_next: the fields of a mount spec `type=bind,source=S,target=T,readonly`.
 * Both tools read it as one CSV record, then each field as `key=value` cut at its first
 * '=' (a field without '=' is a bare key: `ro`), the key compared in lower case. The
 * aliases are resolved here, once:
 *   type; source, src; target, dst, destination; readonly, ro; readwrite, rw (BuildKit);
 *   from (BuildKit: another stage or image); every other key is GL_MSPEC_OTHER.
 * A later field of a key overrides an earlier one in both tools: callers take the last.
 * What each tool accepts beyond that (the keys of a type, values of `readonly=`) is the
 * caller's: the fields are given in order, with their offsets in the spec.
 *
 * Memory and time: linear in the input, read a field at a time (a caller may stop early).
 * A field is the input's bytes, or when quoted an arena copy (scanned once, then
 * decoded); gl_csv_record_read's table is one more allocation. Callers copy what they
 * keep.
 */
#ifndef GPULINT_PARSERS_SHELL_MOUNT_SPEC_H
#define GPULINT_PARSERS_SHELL_MOUNT_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "linter/core/model.h" /* (enum gl_mount_type) */
#include "linter/core/util.h"

struct gl_csv_field {
    size_t at;        /* offset in the input of the field's first byte (past its quote);
                         byte k of text is at input offset at + k while raw_len == len
                         (no quote doubled, no "\r\n" in it) */
    size_t raw_len;   /* bytes of the input it spans (without its quotes) */
    const char *text; /* the field: len bytes of the input, or of an arena copy when quoted
                         (quotes removed, `""` as '"'); not NUL-terminated */
    size_t len;
    bool quoted;
};

/* A reader of one record, a field at a time. */
struct gl_csv_reader {
    const char *s;
    size_t n, i;       /* the input; the offset of the next field */
    bool done;         /* no field is left (the end of the record, or an error) */
    const char *error; /* NULL while the record is valid CSV (a static string) */
    size_t error_at;   /* offset of the byte the reader stopped at */
};

/* Start reading the first record of s[0, n) (an input with none: error "empty value"). */
void gl_csv_reader_init(struct gl_csv_reader *r, const char *s, size_t n);
/* The next field into *f; false at the end of the record or at an error (r->error). */
bool gl_csv_next(struct gl_arena *a, struct gl_csv_reader *r, struct gl_csv_field *f);

/* A whole record: its fields up to the end or the error. */
struct gl_csv_record {
    struct gl_csv_field *f;
    size_t n, cap;
    const char *error; /* as gl_csv_reader's */
    size_t error_at;
};

void gl_csv_record_read(struct gl_arena *a, const char *s, size_t n, struct gl_csv_record *out);

enum gl_mspec_key {
    GL_MSPEC_OTHER,
    GL_MSPEC_TYPE,
    GL_MSPEC_SOURCE,    /* source, src */
    GL_MSPEC_TARGET,    /* target, dst, destination */
    GL_MSPEC_READONLY,  /* readonly, ro */
    GL_MSPEC_READWRITE, /* readwrite, rw */
    GL_MSPEC_FROM,
};

struct gl_mspec_field {
    enum gl_mspec_key key;
    bool bare;                /* no '=' (`ro`): value is "" */
    const char *value;        /* after the first '=', quotes removed (value_len bytes of
                                 csv.text: not NUL-terminated) */
    size_t value_len;
    struct gl_csv_field csv;  /* the whole field (csv.at: its offset in the spec) */
};

/* The next field of a mount spec read by r (gl_csv_reader_init on the spec): false at the
 * end or at an error (r->error; the fields before it were given). */
bool gl_mount_spec_next(struct gl_arena *a, struct gl_csv_reader *r, struct gl_mspec_field *f);

/* The type a `type=` value names (compared in lower case, as both tools do): bind, volume
 * or tmpfs; any other (cache, secret, ssh, npipe, image, cluster) is GL_MOUNT_OTHER. */
enum gl_mount_type gl_mount_spec_type(const char *value, size_t len);

#endif
