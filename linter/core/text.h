/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text.h: small character helpers shared by the parsers.
 *
 * gl_hex_value: the value of one hexadecimal digit ('0'-'9', 'a'-'f', 'A'-'F'), or -1 for
 * any other byte (NUL and bytes >= 0x80 included). Pure, no locale.
 *
 * gl_name_class: the ASCII bytes of a shell or Dockerfile variable name, by byte: 1 may
 * start a name (a letter, '_'), 2 only follows (a digit), 0 neither.
 */
#ifndef GPULINT_LINTER_TEXT_H
#define GPULINT_LINTER_TEXT_H

int gl_hex_value(char c);

extern const unsigned char gl_name_class[256];

#endif
