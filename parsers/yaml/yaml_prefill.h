/* SPDX-License-Identifier: Apache-2.0 */
/*
 * yaml_prefill.h: hand libyaml a whole text already checked, instead of letting its reader
 * decode it a character at a time.
 *
 * libyaml's reader (yaml_parser_update_buffer) copies its input into the parser's working
 * buffer one character at a time, checking each as it goes: valid UTF-8, no surrogate, no
 * character outside YAML's printable set. That loop is about 17 instructions a byte, a
 * tenth of what gpulint spends on a YAML file. yt_prefill() does the same checks in one
 * pass over the text (printable ASCII sixteen bytes at a time) and, when every character
 * passes and the text fits the working buffer libyaml allocated, writes the text there
 * whole, followed by the NUL libyaml puts at the end of its input, and marks the input
 * read: the reader then never runs (it returns at once when the end of the input was
 * reached and nothing is left to decode), and the scanner reads the same bytes, the same
 * characters, and reaches the same end as it would have.
 *
 * When a character would have stopped libyaml's reader (a reader error, reported with
 * libyaml's own words and offset) or the text does not fit, nothing is changed and libyaml
 * reads the text itself, as before: errors are always libyaml's. The parser's memory is
 * the same either way (its own buffer is used, never a bigger one).
 *
 * This writes members of yaml_parser_t that yaml.h calls internal (the working buffer,
 * the unread count, the end-of-input flag). It checks first that they are as
 * yaml_parser_initialize() and yaml_parser_set_input_string() leave them, and
 * tests/unit/test_yaml_prefill.c compares every event and error of libyaml with and
 * without it on the repository's YAML files and on mutations of them.
 */
#ifndef GPULINT_PARSERS_YAML_PREFILL_H
#define GPULINT_PARSERS_YAML_PREFILL_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

/* Characters of text[0..len) when libyaml's reader would accept every one of them as
 * UTF-8 input, else (size_t)-1. */
size_t yt_reader_chars(const char *text, size_t len);

/* After yaml_parser_initialize, yaml_parser_set_input_string(p, text, len) and
 * yaml_parser_set_encoding(p, YAML_UTF8_ENCODING), and before the first yaml_parser_parse:
 * put text[0..len) in libyaml's working buffer (see above). `chars` is
 * yt_reader_chars(text, len) (the loader counts them once for two uses). Returns whether
 * it did; when not, the parser is untouched and reads the text itself. */
bool yt_prefill(yaml_parser_t *p, const char *text, size_t len, size_t chars);

#endif
