/*
 * report_text.h: text helpers the machine-readable reporters share.
 *
 * Findings carry text taken from hostile input (image names, paths inside archives):
 * any bytes, invalid UTF-8 included. A report must stay well-formed whatever they hold,
 * so each helper appends to a gl_buf a form that is valid for its target:
 *
 *  - gl_text_utf8: the string with every invalid UTF-8 sequence (stray continuation
 *    bytes, overlong forms, surrogates, code points past U+10FFFF, truncated sequences)
 *    replaced by U+FFFD. json-c escapes control characters itself but passes bytes
 *    through, so JSON strings go through this first.
 *  - gl_text_xml: the same, then escaped for an XML attribute or text node: & < > " '
 *    as entities, tab/newline/CR as character references, and the characters XML 1.0
 *    cannot hold at all (other C0 controls, U+FFFE, U+FFFF) as U+FFFD.
 *  - gl_text_sentence: gl_text_utf8 of the string, ended with a period unless it
 *    already ends with `.`, `!` or `?` (SARIF viewers expect full sentences).
 *  - gl_text_uri: a file path as a URI reference: a relative path stays relative
 *    (leading "./" dropped), an absolute path becomes file:///...; every byte outside
 *    RFC 3986 unreserved characters and `/` is percent-encoded.
 *
 * gl_text_report_path() is the path a report shows for a finding's file: the file as the
 * user gave it, less leading "./" (so `gpulint .` and `gpulint Dockerfile` agree).
 */
#ifndef GPULINT_REPORT_TEXT_H
#define GPULINT_REPORT_TEXT_H

#include "linter/util.h"

void gl_text_utf8(struct gl_buf *b, const char *s);
void gl_text_xml(struct gl_buf *b, const char *s);
void gl_text_sentence(struct gl_buf *b, const char *s);
void gl_text_uri(struct gl_buf *b, const char *path);
const char *gl_text_report_path(const char *file);

#endif
