/* SPDX-License-Identifier: Apache-2.0 */
/*
 * build_tools.h: what GL302 (build tools in the shipped image) and GL304 (a toolchain
 * purged in a later layer) call a build toolchain: compilers (gcc, g++, clang, gfortran,
 * cmake, build-essential, build-base, gcc-c++, and their -N versions), development packages
 * (`*-dev`, RPM `*-devel`, versioned CUDA development packages such as cuda-cudart-dev-12-4),
 * the packages that install nvcc (gl_cuda_compiler_package) and the `Development Tools`
 * group; installed through an OS package manager. And what GL301
 * calls installing the CUDA compiler.
 */
#ifndef GPULINT_RULES_BUILD_TOOLS_H
#define GPULINT_RULES_BUILD_TOOLS_H

#include <stdbool.h>

/* apt-get, apt, aptitude, yum, dnf, microdnf, tdnf, apk, zypper */
/* `name` is `stem` or `stem-N` (gcc-12, g++-11, clang-15). */
bool gl_named_versioned(const char *name, const char *stem);
/* Is the package (a group when `group`) a compiler or development package? */
bool gl_build_tool_package(const char *name, bool group);
/* Does the package install nvcc: cuda (the toolkit's meta package), cuda-nvcc, cuda-toolkit,
 * cuda-minimal-build, cuda-compiler (bare, -X or -X-Y), Debian's nvidia-cuda-toolkit?
 * (Not cuda-toolkit-*-config-common.) */
bool gl_cuda_compiler_package(const char *name);

#endif
