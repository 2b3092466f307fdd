/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registry_creds.h: the user name and password for a registry, found as skopeo finds
 * them (containers-auth.json(5)), and base64 for the Basic scheme.
 *
 * Order: `--creds USER[:PASS]`; else the first auth file that exists of
 * `$REGISTRY_AUTH_FILE` (or, unset, `${XDG_RUNTIME_DIR}/containers/auth.json`), then
 * `$DOCKER_CONFIG/config.json` (or `~/.docker/config.json`). In a file, `auths` keys are
 * matched most specific first: `HOST/REPO/PATH`, ... `HOST`, then `https://HOST`,
 * `http://HOST` and Docker Hub's legacy `https://index.docker.io/v1/`; an entry's `auth`
 * is base64 "USER:PASS" (else `username` and `password`). Credential helpers
 * (`credHelpers`, `credsStore`) are out of scope: when one would have served the host,
 * `helper_note` says so, for the message of a refused request.
 * Files are read whole under the limit `image-json-size`. The secrets live in the arena
 * and are never printed: `source` names where they came from, never what they are.
 */
#ifndef GPULINT_REGISTRY_CREDS_H
#define GPULINT_REGISTRY_CREDS_H

#include <stdbool.h>
#include <stddef.h>

#include "linter/core/util.h"

struct gl_reg_creds {
    const char *user, *pass;   /* NULL when none was found */
    const char *source;        /* "--creds", "/run/user/0/containers/auth.json", ... */
    const char *helper_note;   /* NULL, or why a helper that names the host was not used */
};

/* host: "127.0.0.1:5000", "docker.io"; repo: "library/ubuntu". */
void gl_reg_creds_find(struct gl_arena *a, const char *cli_creds, const char *host,
                       const char *repo, struct gl_reg_creds *out);

/* base64 of s[0..n) into the arena. */
char *gl_base64_encode(struct gl_arena *a, const void *s, size_t n);
/* Decoded text (NUL-terminated) into the arena, or NULL when s is no base64. */
char *gl_base64_decode(struct gl_arena *a, const char *s);

#endif
