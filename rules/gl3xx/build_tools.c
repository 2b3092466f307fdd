/* SPDX-License-Identifier: Apache-2.0 */
/* build_tools.c: which packages are compilers or development packages (see build_tools.h). */
#include "rules/gl3xx/build_tools.h"

#include <string.h>

#include "knowledge/cuda_derive.h"

/* name or name-N (gcc-12, g++-11, clang-15) */
bool gl_named_versioned(const char *name, const char *stem)
{
    if (stem[0] && name[0] != stem[0]) /* most names: no strlen, no strncmp */
        return false;
    size_t n = strlen(stem);
    if (strncmp(name, stem, n))
        return false;
    if (!name[n])
        return true;
    return name[n] == '-' && name[n + 1] && strspn(name + n + 1, "0123456789.") == strlen(name + n + 1);
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

bool gl_build_tool_package(const char *name, bool group)
{
    if (group)
        return gl_streq_nocase(name, "Development Tools") ||
               gl_streq_nocase(name, "development-tools") ||
               gl_streq_nocase(name, "@development-tools");
    /* the compilers (gcc, g++, gfortran, gcc-c++, clang, cmake, build-essential,
     * build-base), each asked only of the names sharing its first letter */
    bool compiler;
    switch (name[0]) {
    case 'g':
        compiler = gl_named_versioned(name, "gcc") || gl_named_versioned(name, "g++") ||
                   gl_named_versioned(name, "gfortran") || gl_named_versioned(name, "gcc-c++");
        break;
    case 'c':
        compiler = gl_named_versioned(name, "clang") || gl_named_versioned(name, "cmake");
        break;
    case 'b':
        compiler = gl_named_versioned(name, "build-essential") ||
                   gl_named_versioned(name, "build-base");
        break;
    default: compiler = false; break;
    }
    if (compiler)
        return true;
    size_t n = strlen(name);
    return ends_with(name, n, "-dev", 4) || ends_with(name, n, "-devel", 6) ||
           cuda_dev_package(name, n) ||
           ((name[0] == 'c' || name[0] == 'n') && gl_cuda_compiler_package(name));
}


bool gl_cuda_compiler_package(const char *name)
{
    /* "cuda": the meta package of the whole toolkit (cuda, cuda-12-4) */
    static const char *const stems[] = {"cuda",          "cuda-nvcc",          "cuda-toolkit",
                                        "cuda-minimal-build", "cuda-compiler",
                                        "nvidia-cuda-toolkit"};
    size_t n = gl_cuda_release_stem(name);
    for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++)
        if (strlen(stems[i]) == n && !strncmp(name, stems[i], n))
            return true;
    return gl_named_versioned(name, "cuda-toolkit"); /* cuda-toolkit-12: the major's */
}
