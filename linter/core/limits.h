/* SPDX-License-Identifier: Apache-2.0 */
/*
 * limits.h: the one set of resource limits that keeps gpulint bounded on any input.
 *
 * Every bound that an input can reach (bytes read, nodes built, entries listed, depth,
 * fan-out, cache size) is one named limit here, with a default chosen so that a run
 * stays under 64 MiB of resident memory and linear time whatever it reads. A user can
 * change a limit with `--limit NAME=VALUE` (repeatable), or in `.gpulint.yaml`:
 *
 *     limits:
 *       input-size: 32MiB
 *       yaml-alias-nodes: 2000000
 *
 * (`--cache-max SIZE` is `--limit cache-size=SIZE`). `gpulint --print-config` prints them
 * all with where each value came from.
 *
 * When an input reaches a limit, the reader stops there and reports GL900 at the byte
 * (or the entry) where it stopped, with gl_limit_message(): "the limit `input-size`
 * (16MiB) was reached; raise it with --limit input-size=SIZE". The other inputs of the
 * run go on.
 *
 * The values are process-wide: set while the command line and the config file are read
 * (one thread), only read afterwards (any thread). Nothing here includes a module of
 * ours above the floor.
 */
#ifndef GPULINT_LIMITS_H
#define GPULINT_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gl_limit_id {
    GL_LIMIT_INPUT_SIZE,        /* bytes of one text input (a file, stdin) */
    GL_LIMIT_PARSE_MEMORY,      /* bytes one text input's parse may allocate */
    GL_LIMIT_YAML_ALIAS_NODES,  /* nodes reached through YAML aliases, per file */
    GL_LIMIT_NESTING_DEPTH,     /* nested YAML/JSON collections */
    GL_LIMIT_IMAGE_JSON_SIZE,   /* bytes of one manifest, index or config (4 MiB, as runtimes) */
    GL_LIMIT_IMAGE_INDEX_DEPTH, /* indexes nested in indexes */
    GL_LIMIT_IMAGE_MANIFESTS,   /* distinct manifests (platforms) of one image input */
    GL_LIMIT_IMAGE_LAYERS,      /* layers of one manifest */
    GL_LIMIT_ARCHIVE_ENTRIES,   /* entries of one image archive (the outer tar) */
    GL_LIMIT_LAYER_ENTRIES,     /* entries of one layer */
    GL_LIMIT_IMAGE_FILES,       /* files an image's merged view keeps */
    GL_LIMIT_IMAGE_MEMORY,      /* bytes of layer indexes and views held at once */
    GL_LIMIT_NAME_LENGTH,       /* bytes of one path inside an archive or layout */
    GL_LIMIT_CAPTURE_SIZE,      /* bytes of one image file read for its content */
    GL_LIMIT_EXPANSION_SIZE,    /* bytes variable expansions may add, per file */
    GL_LIMIT_CACHE_SIZE,        /* bytes of the layer-index cache on disk */
    GL_LIMIT_PROJECT_IMAGES,    /* images the project builds or rewrites, kept for a run */
    GL_LIMIT_FINDINGS_MEMORY,   /* findings held in memory before they go to a file */
    GL_LIMIT_COUNT
};

enum gl_limit_unit { GL_LIMIT_BYTES, GL_LIMIT_NUMBER };

struct gl_limit_def {
    const char *name;           /* as --limit and the config file spell it */
    enum gl_limit_unit unit;
    uint64_t def;               /* the default */
    const char *what;           /* one line for --print-config and the docs */
};

extern const struct gl_limit_def gl_limit_defs[GL_LIMIT_COUNT];

/* The value in force. */
uint64_t gl_limit(enum gl_limit_id id);
/* The limit named `name`, or GL_LIMIT_COUNT. */
enum gl_limit_id gl_limit_named(const char *name);
/* Set a limit from text ("32MiB", "1000000"); `origin` (copied) is where it came from.
 * 0, or -1 when the text is no value of the limit's unit (nothing is changed). */
int gl_limit_set(enum gl_limit_id id, const char *text, const char *origin);
/* Every limit's name, comma separated, into buf. */
const char *gl_limit_names(char *buf, size_t cap);
/* Where the value came from: NULL for the default. */
const char *gl_limit_origin(enum gl_limit_id id);
/* Back to the defaults (tests). */
void gl_limits_reset(void);
/* Under an address-space limit (RLIMIT_AS, `ulimit -v`) too small for the defaults of
 * parse-memory and image-memory, lower them to the limit less 32 MiB (the program, one
 * input and its parse's heap scratch), at least 4 MiB: a parse or an image then stops at
 * a GL900 where malloc would have failed (gpulint aborted, out of memory). A value the
 * user set stays. */
void gl_limits_fit_address_space(void);

/* The value as a user writes it: "16MiB" for sizes, "1000000" for numbers; into buf. */
const char *gl_limit_format(enum gl_limit_id id, char *buf, size_t cap);
/* "the limit `NAME` (VALUE) was reached; raise it with --limit NAME=..." into buf. */
const char *gl_limit_message(enum gl_limit_id id, char *buf, size_t cap);

/* The fix hint of a GL900 for a limit reached. */
#define GL_LIMIT_FIX "split the input, or raise the limit if the input is trusted"
/* Does a parse error's message say a limit stopped the parse (gl_limit_message's text)? */
bool gl_limit_said(const char *message);

/* "100MiB", "1GiB", "500MB", "64 KiB", "1048576": bytes, at least 1. 0, or -1 when `text`
 * is no size or too large. */
int gl_size_parse(const char *text, uint64_t *bytes);
/* A size as the largest whole binary unit: "16MiB", "1536KiB", "1000". */
const char *gl_size_format(uint64_t bytes, char *buf, size_t cap);

#endif
