/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text.h: small character helpers shared by the parsers.
 *
 * gl_hex_value: the value of one hexadecimal digit ('0'-'9', 'a'-'f', 'A'-'F'), or -1 for
 * any other byte (NUL and bytes >= 0x80 included). Pure, no locale.
 *
 * gl_name_class: the ASCII bytes of a shell or Dockerfile variable name, by byte: 1 may
 * start a name (a letter, '_'), 2 only follows (a digit), 0 neither.
 *
 * GL_NUL_SHOWN: what a reader writes for a NUL that an escape decodes to (YAML `\0`,
 * `\x00`, `\u0000`; JSON `\u0000`; not a Dockerfile's exec form, whose model is
 * BuildKit's, NUL included: test_buildkit_conformance), U+2400 SYMBOL FOR NULL (3 bytes,
 * never more than the escape). Every value is a C string to the code that reads it (a
 * message, an image name, an environment value): a NUL would cut it, and a message would
 * not show what the input holds. A backslash form (`\0`) would be read again by a shell
 * (unquoted `\0` is `0`: a cell's `docker run a\u0000b` would name image `a0b`); the
 * symbol is a plain character to every reader, and makes an image reference or a name
 * invalid, as the NUL did.
 * (A shell's own `$'\0'` ends its word there, as bash does: no escape is kept.) A raw NUL
 * in a file read beside an input (compose's .env) is shown the same way.
 */
#ifndef GPULINT_LINTER_TEXT_H
#define GPULINT_LINTER_TEXT_H

#include "linter/core/util.h"

int gl_hex_value(char c);

#define GL_NUL_SHOWN "\xe2\x90\x80"
#define GL_NUL_SHOWN_LEN 3
/* A copy of v[0, *len) in the arena, NUL-terminated, with each NUL as GL_NUL_SHOWN; *len
 * becomes the copy's length. */
char *gl_arena_nul_shown(struct gl_arena *a, const char *v, size_t *len);

extern const unsigned char gl_name_class[256];

#endif
