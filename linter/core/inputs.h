/* SPDX-License-Identifier: Apache-2.0 */
/*
 * inputs.h: the kinds of input gpulint reads, how each is recognised, and its parser.
 *
 * Each input format is one gl_input_type, defined in its parser's file as
 *
 *     const struct gl_input_type gl_input_compose = { ... };
 *
 * and collected into gl_input_table at configure time (cmake/rule_table.cmake), so that
 * adding a format touches parsers/ alone.
 *
 * Recognition (gl_sniff), first match wins:
 *  1. by name (`by_name`): Dockerfile, Containerfile, *.Dockerfile, docker-compose.yml,
 *     *.sh, Makefile, *.md, ...; a name match is final;
 *  2. by content (`by_content`), for files whose name suggests it (`candidate`: *.yaml,
 *     scripts without extension, ...) or that the user named: YAML with `services:` is
 *     compose, with `apiVersion` and `kind` Kubernetes; a text starting with FROM is a
 *     Dockerfile; ...
 * Types are tried in order of `priority` (lower first), then name.
 * The directory walk reads a file only when some type matches its name or calls it a
 * candidate; a file named on the command line is always read.
 */
#ifndef GPULINT_INPUTS_H
#define GPULINT_INPUTS_H

#include "linter/core/config.h"
#include "linter/core/model.h"

struct gl_input_type {
    enum gl_input_kind kind;
    const char *name;   /* for --type: "dockerfile", "compose", ... */
    int priority;
    /* Is this file of this type by its name alone? (path as given, base = last part) */
    bool (*by_name)(const char *path, const char *base);
    /* Is it worth reading to decide by content (the walk)? NULL: never. */
    bool (*candidate)(const char *path, const char *base);
    /* Does the content say it is of this type? NULL: never. */
    bool (*by_content)(const char *path, const char *data, size_t len);
    /* Build the model of doc from doc->text (doc->path names it). Bad input sets
     * doc->error at the first bad byte; the parser never fails otherwise. */
    void (*parse)(struct gl_doc *doc, const struct gl_config *cfg);

    /* Binary inputs (image archives) are never read into memory. NULL for text types. */
    /* Does the head of a file (its first bytes, up to 512) say it is of this type? */
    bool (*by_magic)(const unsigned char *head, size_t len);
    /* Is this directory one input of this type (an OCI image layout)? */
    bool (*dir_input)(const char *dir);
    /* Build the model of doc from `path` (a file or a directory), or, when stream_fd >= 0,
     * from the stream open on stream_fd (standard input, a FIFO, `<(...)`; `path` then
     * names it), of which the engine already read `head`; same error contract as
     * `parse`. */
    void (*parse_path)(struct gl_doc *doc, const char *path, int stream_fd, const void *head,
                       size_t head_len, const struct gl_config *cfg);
};

extern const struct gl_input_type *const gl_input_table[]; /* NULL-terminated */
extern const size_t gl_input_count;

/* The type for a kind or a --type name; NULL when gpulint has no parser for it. */
const struct gl_input_type *gl_input_type_of(enum gl_input_kind kind);
const struct gl_input_type *gl_input_type_named(const char *name);
/* Names accepted by --type, comma separated (for messages). */
const char *gl_input_type_names(void);

/* Is a file found by the walk worth reading because its name says nothing (no extension,
 * or one with a digit: `nccl-mpi-ubuntu20.04`, `train-cuda12.1`) and it is a small regular
 * file (at most GL_BARE_CANDIDATE_MAX bytes)? Its first bytes then decide what it is. */
#define GL_BARE_CANDIDATE_MAX (256u << 10)
bool gl_input_bare_candidate(const char *path, const char *base);
/* Its size test alone: a small regular file, for a type whose own name test chose it. */
bool gl_input_bare_candidate_size(const char *path);
/* Does the name end in a suffix that makes the file another format than its stem says: a
 * patch (`Dockerfile.npu.patch`, `.diff`) or an encrypted copy (`Makefile.patch.encrypted`,
 * `.enc`, `.gpg`: FlagOpen/FlagScale's hardware/ patches)? Such a `Dockerfile.*` or
 * `Makefile.*` is not one by its name: its content decides. */
bool gl_input_other_format(const char *base);

/* What a file is; GL_IN_UNKNOWN when it is none of gpulint's inputs. `named`: the user
 * named it (content is then always consulted). */
enum gl_input_kind gl_sniff(const char *path, const char *data, size_t len, bool named);
/* What the content alone says the file is (every type's content test), other than `not`;
 * GL_IN_UNKNOWN when none. */
enum gl_input_kind gl_sniff_content(const char *path, const char *data, size_t len,
                                    enum gl_input_kind not);
/* For the walk, before reading: the kind by name, else GL_IN_UNKNOWN with *read_it set
 * when the content must decide. */
enum gl_input_kind gl_sniff_name(const char *path, bool *read_it);

#endif
