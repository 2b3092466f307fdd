/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dockerfile_platform.h: is a literal `FROM --platform=` value a platform BuildKit accepts?
 *
 * BuildKit (dockerfile2llb buildDispatchStates) refuses an empty value ("empty platform
 * value from expression", BuildKit 0.14 and later) and hands any other to containerd's
 * platforms.Parse, which refuses:
 *  - a `*` ("wildcards not yet supported");
 *  - more than three `/`-separated parts ("cannot parse platform specifier");
 *  - an empty part, or a byte outside `[A-Za-z0-9_.-]` in one (the OS part may carry a
 *    version in parentheses, `windows(10.0.17763)/amd64`: such a value is not judged);
 *  - one part that is neither a known OS (`linux`, `windows`, `darwin`/`macos`, ...) nor a
 *    known architecture after normalisation (`amd64`, `x86_64`, `aarch64`, `armhf`, ...),
 *    in any case ("unknown operating system or architecture").
 * Two or three parts name os/arch[/variant] and are taken as they are, known or not. The
 * lists are containerd's newest (platforms v1.0, database.go): an older BuildKit refuses
 * more, never less. The caller leaves values with variables, escapes or quotes alone.
 */
#ifndef GPULINT_PARSERS_DOCKERFILE_PLATFORM_H
#define GPULINT_PARSERS_DOCKERFILE_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

/* Is s[0, n) a platform? If not, *bad is the offset of the first bad byte (n for a value
 * that is wrong as a whole) and *why says why, in one phrase. */
bool df_platform_ok(const char *s, size_t n, size_t *bad, const char **why);

#endif
