/* SPDX-License-Identifier: Apache-2.0 */
/*
 * escape.h: the one place that makes bytes taken from inputs safe to print.
 *
 * File names (also names inside image archives), image tags, environment values, config
 * values, anything in a finding's message, fix or file: gpulint prints text that came
 * from an input, and an input can hold any bytes. Printed raw they would reach a terminal
 * as escape sequences (colours, cursor moves, an OSC window title or hyperlink), a
 * carriage return or backspaces that overwrite what was printed, bidi controls that show
 * text in another order than it has ("Trojan Source"), or break a JSON or XML report.
 * Every report writer, --print-config, --print-knowledge and every stderr line that
 * quotes an input go through gl_escape().
 *
 * What is escaped, by class:
 *   - the C0 controls U+0000-U+001F (ESC, CR, BS, BEL, TAB, LF, ...) and DEL U+007F;
 *   - the C1 controls U+0080-U+009F (as UTF-8; CSI U+009B, OSC U+009D, NEL U+0085);
 *   - the invisible format characters that reorder or break lines: the bidi embeddings,
 *     overrides and isolates U+202A-U+202E and U+2066-U+2069, the marks U+200E, U+200F
 *     and U+061C, the line and paragraph separators U+2028 and U+2029;
 *   - bytes that are not valid UTF-8: a stray continuation byte, an overlong form, a
 *     surrogate, a code point past U+10FFFF, a sequence cut short (at the end too). Each
 *     byte of such a sequence is escaped on its own.
 * Everything else (ASCII text, `é`, `≥`, CJK, emoji) is copied unchanged.
 *
 * How, by target:
 *   GL_ESCAPE_TEXT    what people read: the tty report, stderr, comments in
 *                     --print-config. C0 and DEL as `\xNN`, C1 and the format characters
 *                     as `\uNNNN`, each invalid byte as `\xNN` (NN >= 80, so never
 *                     mistaken for an escaped control). Lowercase hex. A backslash is kept
 *                     as is: Dockerfiles are full of them and the text is for people, so
 *                     `\x1b` on a terminal is either an escaped ESC or those four
 *                     characters in the input; the machine formats below are exact.
 *   GL_ESCAPE_QUOTED  the inside of a double-quoted string (a YAML scalar of
 *                     --print-config, a value of --print-knowledge): as TEXT, plus `\"`
 *                     and `\\`, and invalid UTF-8 as U+FFFD. YAML reads each of these
 *                     escapes back as the character it stands for, so the value
 *                     round-trips (invalid bytes excepted: YAML text is UTF-8).
 *   GL_ESCAPE_JSON    a JSON text as json-c serialises it. json-c escapes C0 inside
 *                     strings, which leaves C0 only as whitespace between tokens: C0 is
 *                     copied. DEL, C1 and the format characters become `\u00NN` /
 *                     `\uNNNN` (they can only stand inside strings: the same value, no raw
 *                     control in the file); invalid UTF-8 becomes U+FFFD (the output is
 *                     valid UTF-8; this is the JSON, SARIF and GitLab reports' choice).
 *   GL_ESCAPE_XML     an XML 1.0 attribute value or text node: & < > " ' as entities,
 *                     tab, LF and CR as &#9; &#10; &#13;, DEL, C1 and the format
 *                     characters as &#xNN; references (the same value); the characters
 *                     XML 1.0 cannot hold even as references (other C0, U+FFFE, U+FFFF)
 *                     as visible TEXT escapes (`\x1b`, `\ufffe`); invalid UTF-8 as
 *                     U+FFFD.
 *
 * gl_escape_plain(s): true when TEXT escaping leaves s unchanged (callers choose a
 * quoting style with it). gl_escape_write() escapes straight to a stream, in pieces.
 * gl_eprintf() prints `gpulint: ` and the formatted message, all of it TEXT-escaped
 * (gpulint's own words are plain text, so escaping the whole line is the same as
 * escaping what it quotes), and a newline, to stderr in one write; or, on a thread
 * that called gl_eprintf_capture(buf), appended to buf instead (a worker linting one input
 * keeps its messages so that they reach stderr in the order of the inputs, whichever
 * thread read them).
 */
#ifndef GPULINT_ESCAPE_H
#define GPULINT_ESCAPE_H

#include <stdio.h>

#include "linter/core/util.h"

enum gl_escape_target { GL_ESCAPE_TEXT, GL_ESCAPE_QUOTED, GL_ESCAPE_JSON, GL_ESCAPE_XML };

/* Append s[0..len) to b, escaped for `to`. */
void gl_escape(struct gl_buf *b, const char *s, size_t len, enum gl_escape_target to);
/* The same for a NUL-terminated string (NULL is taken as ""). */
void gl_escape_str(struct gl_buf *b, const char *s, enum gl_escape_target to);
bool gl_escape_plain(const char *s);
/* Write s[0..len) to out, escaped for `to`: false when a write failed (errno says why). */
bool gl_escape_write(FILE *out, const char *s, size_t len, enum gl_escape_target to);
void gl_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* From now on gl_eprintf on this thread appends its lines to `into` (NULL: to stderr). */
void gl_eprintf_capture(struct gl_buf *into);

#endif
