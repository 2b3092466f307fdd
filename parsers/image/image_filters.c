/* SPDX-License-Identifier: Apache-2.0 */
/* image_filters.c: see image_filters.h. */
#include "parsers/image/image_filters.h"

#include <archive.h>
#include <errno.h>

int gl_archive_support_image_filters(struct archive *a)
{
    /* ARCHIVE_WARN: "using external program" */
    if (archive_read_support_filter_none(a) == ARCHIVE_OK &&
        archive_read_support_filter_gzip(a) == ARCHIVE_OK &&
        archive_read_support_filter_zstd(a) == ARCHIVE_OK &&
        archive_read_support_filter_bzip2(a) == ARCHIVE_OK &&
        archive_read_support_filter_xz(a) == ARCHIVE_OK)
        return 0;
    archive_set_error(a, EINVAL, "this libarchive lacks a built-in gzip, zstd, "
                      "bzip2 or xz decoder (gpulint runs no external decompressor)");
    return -1;
}
