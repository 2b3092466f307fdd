/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bake_scan.h: the tolerant scanner of Docker Buildx bake files (HCL and JSON), shared by
 * the bake input (bake_input.c: the tags and contexts it names) and its targets
 * (bake_targets.c: the Dockerfiles they build and the ARGs they set).
 *
 * It knows comments (`#`, `//`, C-style blocks), strings with escapes and `${...}`
 * interpolations (which may hold strings and braces of their own, nested up to
 * BAKE_NEST_MAX deep), keys (words or strings) and `=` / `:`. Commas count as blanks.
 * Everything is linear in the file and stops at its end; nothing here reports but
 * bake_stopped (the limit parse-memory).
 */
#ifndef GPULINT_PARSERS_BAKE_SCAN_H
#define GPULINT_PARSERS_BAKE_SCAN_H

#include "linter/core/model.h"

#define BAKE_NEST_MAX 32

struct bake_scan {
    struct gl_doc *doc;
    const char *s;
    size_t n, i;
    uint32_t line, col;
};

void bake_step(struct bake_scan *c);
/* Skip blanks, line breaks, commas and comments. */
void bake_skip_space(struct bake_scan *c);
/* The string at c->i (its opening quote): its text with each `${...}` as written, and in
 * *pattern the same with each `${...}` as one '*' (NULL when it has none); its position
 * (after the quote) in *loc. */
const char *bake_string(struct bake_scan *c, const char **pattern, struct gl_loc *loc);
/* A word or a string key at c->i: its text (NULL when neither), position in *loc. */
const char *bake_key(struct bake_scan *c, struct gl_loc *loc);
/* After blanks, a `=` or `:`: consumed with the blanks after it (true). */
bool bake_assign(struct bake_scan *c);
/* Skip one value: up to a line break, a comma or a closing bracket at its own depth (not
 * consumed); brackets, strings and comments inside it whole. */
void bake_skip_value(struct bake_scan *c);
/* Past the limit parse-memory (a list of a million tags)? Then the scan is over (c->i at
 * the end) and the doc fails there: GL900 at the scanner's position. */
bool bake_stopped(struct bake_scan *c);

#endif
