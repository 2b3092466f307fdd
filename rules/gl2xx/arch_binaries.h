/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arch_binaries.h: the CUDA binaries of an image that carry no code for a target GPU.
 *
 * An image's final view gives each ELF file with CUDA fat binaries its device code
 * (model_image.h: gl_fatbin_facts, read by parsers/image/image_fatbin.h): SASS per SM and
 * PTX per virtual architecture. gl_arch_binaries_report() reports, for each platform, each
 * regular file whose code misses at least one target GPU of --gpu
 * (gpu_arch.h: gl_arch_list_covers; SASS of the same major at or below the target's
 * minor, PTX at or below it, `a` only on its own CC): the file, its SMs, the target it
 * misses. Files whose list was cut at the cap (facts->more) are not judged: a list known
 * to be partial could miss an entry that covers the target. At most GL_ARCH_BINARIES_MAX
 * files a platform are named one by one; the last finding then counts the others.
 */
#ifndef GPULINT_RULES_ARCH_BINARIES_H
#define GPULINT_RULES_ARCH_BINARIES_H

#include "rules/check.h"

#define GL_ARCH_BINARIES_MAX 10

void gl_arch_binaries_report(struct gl_check *c);

#endif
