/* image_filters.c: see image_filters.h. */
#include "parsers/image_filters.h"

#include <archive.h>

void gl_archive_support_image_filters(struct archive *a)
{
    archive_read_support_filter_none(a);
    archive_read_support_filter_gzip(a);
    archive_read_support_filter_zstd(a);
    archive_read_support_filter_bzip2(a);
    archive_read_support_filter_xz(a);
}
