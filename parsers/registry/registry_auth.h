/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registry_auth.h: answering a registry's 401 as the distribution spec says.
 *
 * gl_reg_challenge_parse() reads a `WWW-Authenticate` header: its scheme (Bearer, Basic)
 * and parameters (realm, service, scope; quoted or token values). gl_reg_authorize()
 * turns a challenge into the Authorization header value for the retried request:
 *  - Basic: "Basic base64(USER:PASS)" when credentials are known, else NULL;
 *  - Bearer: a GET of the token realm (`?service=...&scope=...`; the scope defaults to
 *    `repository:REPO:pull`), with Basic credentials when known and anonymous otherwise;
 *    the reply's `token` (or `access_token`) gives "Bearer TOKEN".
 * The realm is the only host besides the registry's that is ever asked (http or https;
 * any other scheme is refused). Tokens and passwords never reach a message.
 */
#ifndef GPULINT_REGISTRY_AUTH_H
#define GPULINT_REGISTRY_AUTH_H

#include "parsers/registry/registry_creds.h"
#include "parsers/registry/registry_http.h"

struct gl_reg_challenge {
    const char *scheme;               /* "Bearer", "Basic", ... as sent */
    const char *realm, *service, *scope; /* NULL when absent */
};

/* 0, or -1 when the header is no challenge. */
int gl_reg_challenge_parse(struct gl_arena *a, const char *header, struct gl_reg_challenge *c);

/* The Authorization value for challenge c (see above), or NULL with *why set. */
const char *gl_reg_authorize(struct gl_arena *a, struct gl_http *h,
                             const struct gl_reg_challenge *c, const struct gl_reg_creds *cr,
                             const char *repo, const char **why);

#endif
