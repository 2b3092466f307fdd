/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text.h: small character helpers shared by the parsers.
 *
 * gl_hex_value: the value of one hexadecimal digit ('0'-'9', 'a'-'f', 'A'-'F'), or -1 for
 * any other byte (NUL and bytes >= 0x80 included). Pure, no locale.
 */
#ifndef GPULINT_LINTER_TEXT_H
#define GPULINT_LINTER_TEXT_H

int gl_hex_value(char c);

#endif
