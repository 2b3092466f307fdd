/* SPDX-License-Identifier: Apache-2.0 */
/* apptainer_def_input.c: apptainer/singularity definition files (see linter/core/inputs.h).
 *
 * A `.def` file (or one named Singularity, Singularity.*, Apptainer) has a header per
 * build stage: `Bootstrap: docker` then `From: nvidia/cuda:12.4.1-runtime-ubuntu22.04`,
 * up to the first `%section`. Each `From:` of a registry bootstrap (docker, oras,
 * docker-daemon) becomes a gl_ref of role GL_REF_DEF_FROM at the image's first byte;
 * `library` gives a ref that is not a registry reference (ok false), `localimage` a
 * local one (local true); other bootstraps (debootstrap, yum, ...) name no image.
 * Keywords are case-insensitive; a `#` ends a header line's value, as apptainer reads it
 * (deffile.go, doHeader). Windows `.def` files (module definitions) have no
 * `Bootstrap:` line and are not read. */
#include <string.h>

#include "linter/core/inputs.h"
#include "linter/core/ref/imageref.h"

static bool by_name(const char *path, const char *base)
{
    (void)path;
    if (base[0] != 'S' && base[0] != 'A')
        return false; /* (every name below starts so) */
    return gl_streq(base, "Singularity") || gl_streq(base, "Apptainer") ||
           gl_has_prefix(base, "Singularity.") || gl_has_prefix(base, "Apptainer.");
}

static bool candidate(const char *path, const char *base)
{
    return gl_has_suffix(base, ".def") || gl_input_bare_candidate(path, base);
}

/* Is line [s, e) `key:` (case-insensitive, after blanks)? *v gets the value's start. */
static bool header_key(const char *t, size_t s, size_t e, const char *key, size_t *v)
{
    while (s < e && (t[s] == ' ' || t[s] == '\t'))
        s++;
    size_t n = strlen(key);
    if (e - s <= n || !gl_strn_eq_nocase(t + s, n, key) || t[s + n] != ':')
        return false;
    s += n + 1;
    while (s < e && (t[s] == ' ' || t[s] == '\t'))
        s++;
    *v = s;
    return true;
}

/* The end of a header value that starts at s on a line ending at e: apptainer cuts a header
 * line at its first `#` (a comment: `From: busybox:latest   # a comment`), then trims
 * the blanks. */
static size_t trim_end(const char *t, size_t s, size_t e)
{
    const char *hash = memchr(t + s, '#', e - s);
    if (hash)
        e = (size_t)(hash - t);
    while (e > s && (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\r'))
        e--;
    return e;
}

static bool by_content(const char *path, const char *data, size_t len)
{
    (void)path;
    size_t i = 0;
    while (i < len && i < 65536) {
        size_t e = i;
        while (e < len && data[e] != '\n')
            e++;
        size_t p = i, v;
        while (p < e && (data[p] == ' ' || data[p] == '\t' || data[p] == '\r'))
            p++;
        if (p < e && data[p] != '#')
            return header_key(data, p, e, "bootstrap", &v);
        i = e + 1;
    }
    return false;
}

static void add_from(struct gl_doc *doc, const char *bootstrap, size_t blen, const char *t,
                     size_t s, size_t e, uint32_t line, size_t line_start)
{
    bool registry = (blen == 6 && gl_strn_eq_nocase(bootstrap, 6, "docker")) ||
                    (blen == 4 && gl_strn_eq_nocase(bootstrap, 4, "oras")) ||
                    (blen == 13 && gl_strn_eq_nocase(bootstrap, 13, "docker-daemon"));
    bool library = blen == 7 && gl_strn_eq_nocase(bootstrap, 7, "library");
    bool local = (blen == 10 && gl_strn_eq_nocase(bootstrap, 10, "localimage")) ||
                 (blen == 14 && gl_strn_eq_nocase(bootstrap, 14, "docker-archive")) ||
                 (blen == 11 && gl_strn_eq_nocase(bootstrap, 11, "oci-archive"));
    if ((!registry && !library && !local) || e <= s)
        return;
    static const char *const schemes[] = {"docker://", "oras://"};
    for (size_t k = 0; registry && k < 2; k++)
        if (e - s > strlen(schemes[k]) && !memcmp(t + s, schemes[k], strlen(schemes[k])))
            s += strlen(schemes[k]);
    struct gl_ref *r = gl_ref_add(doc, gl_arena_strndup(&doc->arena, t + s, e - s),
                                  (struct gl_loc){line, (uint32_t)(s - line_start) + 1},
                                  GL_REF_DEF_FROM, !registry);
    r->unresolved = false; /* a library or local image: not a registry reference */
    r->local = local;
}

static void parse(struct gl_doc *doc, const struct gl_config *cfg)
{
    (void)cfg;
    const char *t = doc->text;
    size_t len = doc->len, i = 0;
    bool header = false;
    const char *bootstrap = "";
    size_t blen = 0;
    for (uint32_t line = 1; i < len; line++) {
        if (gl_arena_over(&doc->arena)) { /* the limit parse-memory: stop at this line */
            gl_doc_fail_limit(doc, GL_LIMIT_PARSE_MEMORY, (struct gl_loc){line, 1});
            return;
        }
        size_t e = i;
        while (e < len && t[e] != '\n')
            e++;
        size_t p = i, v;
        while (p < e && (t[p] == ' ' || t[p] == '\t'))
            p++;
        if (p < e && t[p] == '%') {
            header = false;
        } else if (header_key(t, p, e, "bootstrap", &v)) {
            header = true;
            bootstrap = t + v;
            blen = trim_end(t, v, e) - v;
        } else if (header && header_key(t, p, e, "from", &v)) {
            add_from(doc, bootstrap, blen, t, v, trim_end(t, v, e), line, i);
        }
        i = e + 1;
    }
}

const struct gl_input_type gl_input_apptainer_def = {
    .kind = GL_IN_APPTAINER_DEF,
    .name = "apptainer-def",
    .priority = 30,
    .by_name = by_name,
    .candidate = candidate,
    .by_content = by_content,
    .parse = parse,
};
