/* SPDX-License-Identifier: Apache-2.0 */
/* systemd_input.c: systemd units as an input type (see linter/core/inputs.h): `*.service`
 * files (their ExecStart commands) and Podman Quadlet `*.container` files (the `podman run`
 * they stand for), read for container launches (launch_systemd.h, through
 * gl_launches_from_unit). The other Quadlet units (podman-systemd.unit(5): `*.build`,
 * `*.image`, `*.pod`, `*.kube`, `*.volume`, `*.network`) are units too when they hold
 * their section (`[Build]`, `[Image]`, ...): those names are common words (`x.pod` is Perl
 * documentation), so the section decides, not the name. A `.build` unit's ImageTag= is an
 * image the project builds; the others launch nothing gpulint reads (a `.kube` unit's
 * Yaml= is a Kubernetes file, linted as one when the run holds it). */
#include <string.h>

#include "linter/core/inputs.h"
#include "parsers/launch/launch_shell.h"

static bool by_name(const char *path, const char *base)
{
    (void)path;
    return (gl_has_suffix(base, ".service") || gl_has_suffix(base, ".container")) &&
           base[0] != '.';
}

/* The section a Quadlet unit of this base name holds (`x.build`: "[Build]"), else NULL.
 * Asked of every file of a walk that no type takes by name: its extension first. */
static const char *quadlet_section(const char *base)
{
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base || base[0] == '.')
        return NULL;
    switch (dot[1]) {
    case 'b': return !strcmp(dot, ".build") ? "[Build]" : NULL;
    case 'i': return !strcmp(dot, ".image") ? "[Image]" : NULL;
    case 'p': return !strcmp(dot, ".pod") ? "[Pod]" : NULL;
    case 'k': return !strcmp(dot, ".kube") ? "[Kube]" : NULL;
    case 'v': return !strcmp(dot, ".volume") ? "[Volume]" : NULL;
    case 'n': return !strcmp(dot, ".network") ? "[Network]" : NULL;
    default: return NULL;
    }
}

static bool candidate(const char *path, const char *base)
{
    return quadlet_section(base) && gl_input_bare_candidate_size(path);
}

/* Does a line of the text start with the section header of the unit its name says? */
static bool by_content(const char *path, const char *data, size_t len)
{
    const char *base = strrchr(path, '/');
    const char *h = quadlet_section(base ? base + 1 : path);
    size_t n = h ? strlen(h) : 0;
    for (size_t p = 0; h && p < len;) {
        while (p < len && (data[p] == ' ' || data[p] == '\t'))
            p++;
        if (len - p >= n && !memcmp(data + p, h, n))
            return true;
        const char *nl = memchr(data + p, '\n', len - p);
        p = nl ? (size_t)(nl - data) + 1 : len;
    }
    return false;
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
    .candidate = candidate,
    .by_content = by_content,
    .parse = parse,
};
