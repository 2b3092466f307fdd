/* SPDX-License-Identifier: Apache-2.0 */
/* dockerfile_platform.c: containerd's platforms.Parse, as far as it refuses (see
 * dockerfile_platform.h). */
#include "parsers/dockerfile/dockerfile_platform.h"

#include <string.h>

#include "linter/core/util.h"

/* containerd's isKnownOS and isKnownArch, with what normalizeOS and normalizeArch map
 * onto them (macos; i386, x86_64, x86-64, aarch64, armhf, armel). */
static const char *const known[] = {
    "aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js",
    "linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "windows", "zos", "macos",
    "386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "ppc64", "ppc64le",
    "loong64", "mips", "mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le", "ppc",
    "riscv", "riscv64", "s390", "s390x", "sparc", "sparc64", "wasm",
    "i386", "x86_64", "x86-64", "aarch64", "armhf", "armel",
};

static bool component_byte(unsigned char c)
{
    return (unsigned)((c | 0x20) - 'a') < 26 || (unsigned)(c - '0') < 10 || c == '_' ||
           c == '.' || c == '-';
}

bool df_platform_ok(const char *s, size_t n, size_t *bad, const char **why)
{
    *bad = 0;
    if (!n) {
        *why = "an empty platform";
        return false;
    }
    if (memchr(s, '(', n))
        return true; /* (an OS version, `windows(10.0.17763)`: not judged) */
    size_t parts = 1, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '/') {
            if (!component_byte((unsigned char)s[i])) {
                *bad = i;
                *why = s[i] == '*' ? "wildcards are not supported"
                                   : "a platform part is made of [A-Za-z0-9_.-]";
                return false;
            }
            continue;
        }
        if (i == start) {
            *bad = i;
            *why = "a platform part is empty";
            return false;
        }
        if (i < n && ++parts > 3) {
            *bad = i;
            *why = "a platform has at most three parts (os/arch/variant)";
            return false;
        }
        start = i + 1;
    }
    if (parts > 1)
        return true;
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (gl_strn_eq_nocase(s, n, known[i]))
            return true;
    *why = "one part must be a known operating system or architecture";
    return false;
}
