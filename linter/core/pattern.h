/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pattern.h: PCRE2 patterns compiled once (with JIT where available) and matched many
 * times. Configurable name patterns (datasets, checkpoints, ...) use this.
 */
#ifndef GPULINT_PATTERN_H
#define GPULINT_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

struct gl_pattern;

/* Compile; NULL with a message in err (size errlen) on a bad pattern. */
struct gl_pattern *gl_pattern_compile(const char *re, bool caseless, char *err, size_t errlen);
void gl_pattern_free(struct gl_pattern *p);
bool gl_pattern_match(const struct gl_pattern *p, const char *s, size_t len);

#endif
