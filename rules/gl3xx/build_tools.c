/* SPDX-License-Identifier: Apache-2.0 */
/* build_tools.c: which packages are compilers or development packages (see build_tools.h). */
#include "rules/gl3xx/build_tools.h"

#include <string.h>

#include "knowledge/derive/cuda_derive.h"
#include "rules/check.h" /* gl_first4 */

/* name[0..len) is stem[0..n) or stem[0..n) "-N" with N digits and dots (gcc-12, g++-11,
 * clang-15): the lengths known, one memcmp and no strlen. */
static inline bool versioned(const char *name, size_t len, const char *stem, size_t n)
{
    if (len < n || memcmp(name, stem, n))
        return false;
    if (len == n)
        return true;
    if (name[n] != '-' || len == n + 1)
        return false;
    for (size_t i = n + 1; i < len; i++)
        if ((name[i] < '0' || name[i] > '9') && name[i] != '.')
            return false;
    return true;
}

/* versioned() of a literal stem */
#define VERSIONED(name, len, lit) versioned(name, len, lit, sizeof lit - 1)

/* name or name-N (gcc-12, g++-11, clang-15) */
bool gl_named_versioned(const char *name, const char *stem)
{
    if (stem[0] && name[0] != stem[0]) /* most names: no strlen, no memcmp */
        return false;
    return versioned(name, strlen(name), stem, strlen(stem));
}

/* Versioned CUDA development packages: any `*-dev-X-Y` (cuda-cudart-dev-12-4,
 * cuda-libraries-dev-12-4, libcublas-dev-12-4) and RPM's `*-devel-X-Y`
 * (cuda-cudart-devel-13-0). `len` is strlen(name). */
static bool cuda_dev_package(const char *name, size_t len)
{
    if (!len || name[len - 1] < '0' || name[len - 1] > '9')
        return false; /* no -X-Y at the end: gl_cuda_release_stem would give len */
    size_t n = gl_cuda_release_stem(name);
    if (n == len)
        return false;
    return (n > 4 && !strncmp(name + n - 4, "-dev", 4)) ||
           (n > 6 && !strncmp(name + n - 6, "-devel", 6)); /* RPM: cuda-cudart-devel-13-0 */
}

static bool ends_with(const char *s, size_t n, const char *suffix, size_t m)
{
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* gl_cuda_compiler_package of a name of `len` bytes */
static bool cuda_compiler(const char *name, size_t len)
{
    /* "cuda": the meta package of the whole toolkit (cuda, cuda-12-4) */
    static const struct {
        const char *s;
        size_t n;
    } stems[] = {{"cuda", 4},           {"cuda-nvcc", 9},           {"cuda-toolkit", 12},
                 {"cuda-minimal-build", 18}, {"cuda-compiler", 13}, {"nvidia-cuda-toolkit", 19}};
    if (!gl_first4(name, "cuda") && !gl_first4(name, "nvid"))
        return false; /* (what every stem starts with: most names stop here) */
    size_t n = gl_cuda_release_stem(name);
    for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++)
        if (stems[i].n == n && !memcmp(name, stems[i].s, n))
            return true;
    return VERSIONED(name, len, "cuda-toolkit"); /* cuda-toolkit-12: the major's */
}

bool gl_build_tool_package(const char *name, bool group)
{
    if (group)
        return gl_streq_nocase(name, "Development Tools") ||
               gl_streq_nocase(name, "development-tools") ||
               gl_streq_nocase(name, "@development-tools");
    size_t n = strlen(name);
    /* the compilers (gcc, g++, gfortran, gcc-c++, clang, cmake, build-essential,
     * build-base), each asked only of the names sharing its first letter */
    bool compiler;
    switch (name[0]) { /* (and the second byte: "curl", "ca-certificates" ask no stem) */
    case 'g':
        compiler = (name[1] == 'c' && (VERSIONED(name, n, "gcc") ||
                                       VERSIONED(name, n, "gcc-c++"))) ||
                   (name[1] == '+' && VERSIONED(name, n, "g++")) ||
                   (name[1] == 'f' && VERSIONED(name, n, "gfortran"));
        break;
    case 'c':
        compiler = (name[1] == 'l' && VERSIONED(name, n, "clang")) ||
                   (name[1] == 'm' && VERSIONED(name, n, "cmake"));
        break;
    case 'b':
        compiler = name[1] == 'u' && (VERSIONED(name, n, "build-essential") ||
                                      VERSIONED(name, n, "build-base"));
        break;
    default: compiler = false; break;
    }
    if (compiler)
        return true;
    return ends_with(name, n, "-dev", 4) || ends_with(name, n, "-devel", 6) ||
           cuda_dev_package(name, n) ||
           ((name[0] == 'c' || name[0] == 'n') && cuda_compiler(name, n));
}

bool gl_cuda_compiler_package(const char *name) { return cuda_compiler(name, strlen(name)); }
