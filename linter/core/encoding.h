/* SPDX-License-Identifier: Apache-2.0 */
/*
 * encoding.h: what a text input's bytes must be before a parser sees them.
 *
 * gpulint's text inputs (Dockerfiles, shell, Makefiles, Markdown, YAML, .def files) are
 * UTF-8 with LF or CRLF line ends, as docker build, bash, make and kubectl read them.
 * gl_text_check() looks at the bytes once, before any parser:
 *
 *  - a UTF-8 byte order mark is accepted and skipped (BuildKit, Go's YAML readers and
 *    editors do the same); columns on the first line then count from after it, as an
 *    editor shows them;
 *  - UTF-16 (a UTF-16 byte order mark, or NUL bytes in every other position of the first
 *    line, as Windows tools write it) is refused at 1:1 with "UTF-16: save as UTF-8".
 *    It is not decoded: docker build, bash and make reject such files too, so the only
 *    honest report is that the file must be re-saved, and positions stay exact bytes;
 *  - a NUL byte is refused at that byte: no text format gpulint reads can hold one, and
 *    a parser working on C strings would silently cut the token there;
 *  - a lone CR (a CR not followed by LF: classic Mac line ends, or a stray one) is refused
 *    at that byte: BuildKit and bash see no line end there, so the file means something
 *    else than it shows. CRLF is a line end like LF (the parsers drop the CR).
 *
 * Invalid UTF-8 elsewhere is left to each parser (YAML rejects it; a Dockerfile passes
 * it through as BuildKit does); the report escapes whatever it prints.
 */
#ifndef GPULINT_LINTER_ENCODING_H
#define GPULINT_LINTER_ENCODING_H

#include <stdbool.h>
#include <stddef.h>

#include "linter/core/util.h"

struct gl_text_verdict {
    size_t skip;            /* bytes to skip at the start (a UTF-8 BOM: 3), else 0 */
    bool bad;               /* refused: */
    size_t bad_off;         /*   at this byte offset of the original text */
    const char *message;    /*   "expected ...", static */
    const char *fix;        /*   how to re-save the file, static */
};

struct gl_text_verdict gl_text_check(const char *text, size_t len);

#endif
