/* SPDX-License-Identifier: Apache-2.0 */
/*
 * image_json.h: an image's JSON documents (index.json, manifest.json, manifests, configs,
 * a captured version.json) read without building a tree.
 *
 * gl_json_check() checks a whole document once: RFC 8259 grammar, as Go's encoding/json
 * reads it (container runtimes do): no control characters in strings, any other bytes
 * taken as they are; collections nested at most `max_depth` deep. Values are then reached
 * through cursors pointing into the text: gl_json_get() (an object's member; of duplicate
 * keys the last wins, as in Go), gl_json_first() / gl_json_next() (an array's elements),
 * gl_json_string() (an unescaped copy; a `\u0000` is GL_NUL_SHOWN, linter/core/text.h).
 *
 * Memory is the text and the strings a caller copies, however many values the document
 * holds (json-c's tree took 50 bytes per value: 200 MB for a 4 MiB array of zeros). Each
 * cursor step is linear in the size of the values it passes over. Cursors are only
 * defined on a text that passed gl_json_check().
 */
#ifndef GPULINT_IMAGE_JSON_H
#define GPULINT_IMAGE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "linter/core/util.h"

/* A value: `at` is its first byte; NULL for none (absent member, end of an array). */
struct gl_json {
    const char *at;
};

struct gl_json_error {
    size_t offset;     /* of the first bad byte */
    const char *what;  /* "expected `,` or `]`", ... (static) */
    bool too_deep;     /* collections nested deeper than max_depth */
};

/* 0, or -1 with *err set. */
int gl_json_check(const char *text, size_t len, size_t max_depth, struct gl_json_error *err);

/* The document's value (text passed gl_json_check). */
struct gl_json gl_json_root(const char *text);
/* The kind of v: '{', '[', '"', 't', 'f', 'n' or '0' (a number); 0 for none. */
char gl_json_kind(struct gl_json v);
/* The member `key` of an object (none when v is no object or lacks it). */
struct gl_json gl_json_get(struct gl_json obj, const char *key);
/* The member `key` when it is of the given kind, else none. */
struct gl_json gl_json_get_kind(struct gl_json obj, const char *key, char kind);
/* The first element of an array (none when v is no array or is empty). */
struct gl_json gl_json_first(struct gl_json arr);
/* The element after `elem` in its array, or none. */
struct gl_json gl_json_next(struct gl_json elem);
/* The number of elements of an array (0 for anything else). */
size_t gl_json_count(struct gl_json arr);
/* An unescaped copy of a string value into the arena; NULL when v is no string. */
char *gl_json_string(struct gl_arena *a, struct gl_json v);
/* gl_json_string of the member `key`, NULL when absent or no string. */
char *gl_json_get_string(struct gl_arena *a, struct gl_json obj, const char *key);

#endif
