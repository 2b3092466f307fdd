/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report_text.h: text helpers the machine-readable reporters share.
 *
 * Findings carry text taken from hostile input (image names, paths inside archives):
 * any bytes, invalid UTF-8 and control characters included. A report must stay
 * well-formed whatever they hold; escape.h decides how (the XML reporter escapes each
 * attribute with GL_ESCAPE_XML; the JSON ones write the whole serialised document
 * through GL_ESCAPE_JSON with gl_text_write_json).
 *
 *  - gl_text_write_json: the JSON text of `root` (json-c, pretty, spaced, `/` not
 *    escaped) and a newline, written to out through GL_ESCAPE_JSON: valid UTF-8 (invalid
 *    sequences as U+FFFD) with every control and bidi character as a \u escape. A write
 *    error is left on the stream (ferror).
 *  - gl_json_stream: the same text for a document whose one big array is written
 *    element by element as the findings are read, so the whole never sits in memory:
 *    begin with the document (`slot` an empty array inside it), add each element, end.
 *    The bytes are those gl_text_write_json writes for the document holding them all.
 *  - gl_text_flush: write b's contents to out and empty b, once b holds `at_least`
 *    bytes (0: whatever it holds). Reporters build their text in a gl_buf and flush it
 *    in pieces; a write error is left on the stream (ferror).
 *  - gl_text_sentence: the string, ended with a period unless it already ends with `.`,
 *    `!` or `?` (SARIF viewers expect full sentences).
 *  - gl_text_uri: a file path as a URI reference: a relative path stays relative
 *    (leading "./" dropped), an absolute path becomes file:///...; every byte outside
 *    RFC 3986 unreserved characters and `/` is percent-encoded.
 *
 * gl_text_report_path() is the path a report shows for a finding's file: the file as the
 * user gave it, less leading "./" (so `gpulint .` and `gpulint Dockerfile` agree).
 */
#ifndef GPULINT_REPORT_TEXT_H
#define GPULINT_REPORT_TEXT_H

#include <stdio.h>

#include "linter/core/util.h"

struct json_object;

void gl_text_write_json(FILE *out, struct json_object *root);

struct gl_json_stream {
    FILE *out;
    char *tail;    /* the document's text after the array's elements */
    size_t indent; /* spaces before an element's lines */
    size_t count;  /* elements written */
    bool ok;       /* every write succeeded */
    struct gl_buf b;
};
/* Write root's text up to where the elements of `slot` (an empty array in it) go. */
void gl_json_stream_begin(struct gl_json_stream *st, FILE *out, struct json_object *root,
                          struct json_object *slot);
/* Write one element of the array (and release it). */
void gl_json_stream_add(struct gl_json_stream *st, struct json_object *element);
/* Write the rest of the document. */
void gl_json_stream_end(struct gl_json_stream *st);
void gl_text_flush(FILE *out, struct gl_buf *b, size_t at_least);
void gl_text_sentence(struct gl_buf *b, const char *s);
void gl_text_uri(struct gl_buf *b, const char *path);
const char *gl_text_report_path(const char *file);

#endif
