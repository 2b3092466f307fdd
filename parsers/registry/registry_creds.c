/* SPDX-License-Identifier: Apache-2.0 */
/* registry_creds.c: registry credentials from --creds and the auth files (see
 * registry_creds.h). */
#include "parsers/registry/registry_creds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/core/limits.h"
#include "parsers/image/image_json.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *gl_base64_encode(struct gl_arena *a, const void *s, size_t n)
{
    const unsigned char *p = s;
    char *out = gl_arena_alloc(a, (n + 2) / 3 * 4 + 1), *o = out;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *o++ = b64[v >> 18 & 63];
        *o++ = b64[v >> 12 & 63];
        *o++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? b64[v & 63] : '=';
    }
    *o = 0;
    return out;
}

char *gl_base64_decode(struct gl_arena *a, const char *s)
{
    size_t n = strlen(s);
    char *out = gl_arena_alloc(a, n / 4 * 3 + 4), *o = out;
    unsigned v = 0, bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '=')
            break;
        const char *at = strchr(b64, s[i]);
        if (!at || !s[i])
            return NULL;
        v = v << 6 | (unsigned)(at - b64);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            *o++ = (char)(v >> bits & 255);
        }
    }
    *o = 0;
    return out;
}

/* Split "USER:PASS" (a copy in the arena) into the credentials. */
static void split_pair(struct gl_arena *a, const char *pair, struct gl_reg_creds *out)
{
    const char *colon = strchr(pair, ':');
    out->user = colon ? gl_arena_strndup(a, pair, (size_t)(colon - pair)) : pair;
    out->pass = colon ? gl_arena_strdup(a, colon + 1) : "";
}

/* The entry of `auths` that serves host/repo, most specific key first. */
static struct gl_json auths_entry(struct gl_arena *a, struct gl_json auths, const char *host,
                                  const char *repo)
{
    char *key = gl_arena_printf(a, "%s/%s", host, repo);
    for (;;) { /* HOST/REPO/PATH, ..., HOST */
        struct gl_json e = gl_json_get_kind(auths, key, '{');
        if (e.at)
            return e;
        char *slash = strrchr(key, '/');
        if (!slash)
            break;
        *slash = 0;
    }
    const char *more[] = {gl_arena_printf(a, "https://%s", host),
                          gl_arena_printf(a, "http://%s", host),
                          !strcmp(host, "docker.io") ? "https://index.docker.io/v1/" : NULL};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        struct gl_json e = more[i] ? gl_json_get_kind(auths, more[i], '{') : (struct gl_json){0};
        if (e.at)
            return e;
    }
    return (struct gl_json){NULL};
}

/* Look host up in one auth file: true when the file decided (credentials found). */
static bool from_file(struct gl_arena *a, const char *path, const char *host, const char *repo,
                      struct gl_reg_creds *out)
{
    char *text;
    size_t len;
    if (gl_read_file(path, &text, &len) != 0)
        return false;
    struct gl_json_error err;
    bool found = false;
    if (len <= gl_limit(GL_LIMIT_IMAGE_JSON_SIZE) &&
        gl_json_check(text, len, gl_limit(GL_LIMIT_NESTING_DEPTH), &err) == 0) {
        struct gl_json root = gl_json_root(text);
        struct gl_json e = auths_entry(a, gl_json_get_kind(root, "auths", '{'), host, repo);
        const char *auth = gl_json_get_string(a, e, "auth");
        const char *pair = auth && *auth ? gl_base64_decode(a, auth) : NULL;
        const char *user = gl_json_get_string(a, e, "username");
        if (pair && strchr(pair, ':')) {
            split_pair(a, pair, out);
            found = true;
        } else if (user) {
            const char *pass = gl_json_get_string(a, e, "password");
            out->user = user;
            out->pass = pass ? pass : "";
            found = true;
        }
        if (found) {
            out->source = gl_arena_strdup(a, path);
        } else if (!out->helper_note) {
            const char *helper = gl_json_get_string(
                a, gl_json_get_kind(root, "credHelpers", '{'), host);
            const char *store = gl_json_get_string(a, root, "credsStore");
            if (helper || store)
                out->helper_note = gl_arena_printf(
                    a, "%s names a credential helper (%s), which gpulint does not run: give "
                       "--creds or an `auths` entry", path, helper ? "credHelpers" : "credsStore");
        }
    }
    memset(text, 0, len);
    free(text);
    return found;
}

void gl_reg_creds_find(struct gl_arena *a, const char *cli_creds, const char *host,
                       const char *repo, struct gl_reg_creds *out)
{
    memset(out, 0, sizeof *out);
    if (cli_creds) {
        split_pair(a, gl_arena_strdup(a, cli_creds), out);
        out->source = "--creds";
        return;
    }
    const char *files[2] = {NULL, NULL};
    const char *env = getenv("REGISTRY_AUTH_FILE"), *xdg = getenv("XDG_RUNTIME_DIR");
    if (env && *env)
        files[0] = env;
    else if (xdg && *xdg)
        files[0] = gl_arena_printf(a, "%s/containers/auth.json", xdg);
    const char *dc = getenv("DOCKER_CONFIG"), *home = getenv("HOME");
    if (dc && *dc)
        files[1] = gl_arena_printf(a, "%s/config.json", dc);
    else if (home && *home)
        files[1] = gl_arena_printf(a, "%s/.docker/config.json", home);
    for (size_t i = 0; i < 2; i++)
        if (files[i] && from_file(a, files[i], host, repo, out))
            return;
}
