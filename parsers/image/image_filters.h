/* SPDX-License-Identifier: Apache-2.0 */
/* image_filters.h: the decompressors libarchive may use on image bytes.
 *
 * Container tooling writes layers and archives plain or compressed with gzip, zstd,
 * bzip2 or xz (moby's DecompressStream reads exactly these). gpulint decodes gzip with
 * ISA-L and zstd with libzstd itself where it knows the compression; where it does not
 * (a docker-save layer named layer.tar, a compressed outer archive) libarchive sniffs
 * among these four. Never archive_read_support_filter_all(): that also reaches filters
 * which run external programs (lrzip, lzop, grzip), and an image must not choose a
 * program gpulint executes; it also pulls libxml2/ICU/libstdc++ into the process. */
#ifndef GPULINT_IMAGE_FILTERS_H
#define GPULINT_IMAGE_FILTERS_H

struct archive;

/* Enable plain, gzip, zstd, bzip2 and xz on `a` (a reader not yet opened). 0, or -1 when
 * this libarchive lacks one of them built in: it would then run an external program
 * (gzip -d, xz -d, ...) instead, which gpulint never does; the caller fails the input. */
int gl_archive_support_image_filters(struct archive *a);

#endif
