/* SPDX-License-Identifier: Apache-2.0 */
/* text.c: small character helpers shared by the parsers (see text.h). */
#include "linter/core/text.h"

int gl_hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
