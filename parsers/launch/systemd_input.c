/* SPDX-License-Identifier: Apache-2.0 */
/* systemd_input.c: systemd units as an input type (see linter/core/inputs.h): `*.service`
 * files (their ExecStart commands) and Podman Quadlet `*.container` files (the `podman run`
 * they stand for), read for container launches (launch_systemd.h, through
 * gl_launches_from_unit). */
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/launch/launch_shell.h"

static bool by_name(const char *path, const char *base)
{
    (void)path;
    return (gl_has_suffix(base, ".service") || gl_has_suffix(base, ".container")) &&
           base[0] != '.';
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    struct gl_launch_scan scan;
    gl_launch_scan_init(&scan, doc, NULL);
    gl_launches_from_unit(&scan, doc->text, doc->len, NULL);
}

const struct gl_input_type gl_input_systemd = {
    .kind = GL_IN_SYSTEMD,
    .name = "systemd",
    .priority = 40,
    .by_name = by_name,
    .parse = parse,
};
