/* SPDX-License-Identifier: Apache-2.0 */
/* registry_auth.c: WWW-Authenticate challenges, Basic and the Bearer token flow (see
 * registry_auth.h). */
#include "parsers/registry/registry_auth.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "linter/core/limits.h"
#include "parsers/image/image_json.h"
#include "parsers/registry/registry_curl.h"

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == ',')
        p++;
    return p;
}

/* One parameter value at p (quoted with \-escapes, or a token up to ',' or blank). */
static const char *param_value(struct gl_arena *a, const char **pp)
{
    const char *p = *pp;
    struct gl_buf b;
    gl_buf_init(&b);
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1])
                p++;
            gl_buf_add(&b, p, 1);
        }
        if (*p == '"')
            p++;
    } else {
        while (*p && *p != ',' && *p != ' ' && *p != '\t')
            gl_buf_add(&b, p++, 1);
    }
    *pp = p;
    const char *v = gl_arena_strdup(a, gl_buf_str(&b));
    gl_buf_free(&b);
    return v;
}

int gl_reg_challenge_parse(struct gl_arena *a, const char *header, struct gl_reg_challenge *c)
{
    memset(c, 0, sizeof *c);
    const char *p = skip_space(header), *start = p;
    while (*p && *p != ' ' && *p != '\t')
        p++;
    if (p == start)
        return -1;
    c->scheme = gl_arena_strndup(a, start, (size_t)(p - start));
    for (p = skip_space(p); *p; p = skip_space(p)) {
        const char *k = p;
        while (*p && *p != '=' && *p != ',' && *p != ' ')
            p++;
        size_t klen = (size_t)(p - k);
        if (*p != '=') {
            continue;
        }
        p++;
        const char *v = param_value(a, &p);
        if (klen == 5 && !strncasecmp(k, "realm", 5))
            c->realm = v;
        else if (klen == 7 && !strncasecmp(k, "service", 7))
            c->service = v;
        else if (klen == 5 && !strncasecmp(k, "scope", 5))
            c->scope = v;
    }
    return 0;
}

static const char *basic_value(struct gl_arena *a, const struct gl_reg_creds *cr)
{
    char *pair = gl_arena_printf(a, "%s:%s", cr->user, cr->pass);
    const char *v = gl_arena_printf(a, "Basic %s", gl_base64_encode(a, pair, strlen(pair)));
    memset(pair, 0, strlen(pair));
    return v;
}

static char *escaped(struct gl_arena *a, const char *s)
{
    const struct gl_curl *cu = gl_curl(); /* (loaded: a request was made before) */
    char *e = cu ? cu->easy_escape(NULL, s, 0) : NULL;
    char *v = gl_arena_strdup(a, e ? e : "");
    if (e)
        cu->free(e);
    return v;
}

/* GET the token realm; the Authorization value, or NULL with *why. */
static const char *bearer(struct gl_arena *a, struct gl_http *h,
                          const struct gl_reg_challenge *c, const struct gl_reg_creds *cr,
                          const char *repo, const char **why)
{
    if (!c->realm || !(!strncasecmp(c->realm, "https://", 8) ||
                       !strncasecmp(c->realm, "http://", 7))) {
        *why = "the registry's Bearer challenge names no http(s) token realm";
        return NULL;
    }
    const char *scope = c->scope ? c->scope : gl_arena_printf(a, "repository:%s:pull", repo);
    const char *url = gl_arena_printf(a, "%s%sscope=%s%s%s", c->realm,
                                      strchr(c->realm, '?') ? "&" : "?", escaped(a, scope),
                                      c->service ? "&service=" : "",
                                      c->service ? escaped(a, c->service) : "");
    struct gl_http_reply r;
    const char *basic = cr->user ? basic_value(a, cr) : NULL;
    if (gl_http_get(h, url, basic, "application/json", gl_limit(GL_LIMIT_IMAGE_JSON_SIZE),
                    &r) != 0) {
        *why = gl_arena_printf(a, "token service %s: %s", c->realm, r.error);
        gl_http_reply_free(&r);
        return NULL;
    }
    const char *token = NULL;
    struct gl_json_error err;
    if (r.status == 200 && !r.too_big && r.body &&
        gl_json_check(r.body, r.len, gl_limit(GL_LIMIT_NESTING_DEPTH), &err) == 0) {
        struct gl_json root = gl_json_root(r.body);
        token = gl_json_get_string(a, root, "token");
        if (!token || !*token)
            token = gl_json_get_string(a, root, "access_token");
    }
    if (!token || !*token)
        *why = r.status == 200 ? gl_arena_printf(a, "token service %s gave no token", c->realm)
                               : gl_arena_printf(a, "token service %s answered HTTP %ld%s",
                                                 c->realm, r.status,
                                                 cr->user ? " (the credentials were refused)"
                                                          : "");
    if (r.body)
        memset(r.body, 0, r.len);
    gl_http_reply_free(&r);
    return token && *token ? gl_arena_printf(a, "Bearer %s", token) : NULL;
}

const char *gl_reg_authorize(struct gl_arena *a, struct gl_http *h,
                             const struct gl_reg_challenge *c, const struct gl_reg_creds *cr,
                             const char *repo, const char **why)
{
    if (!strcasecmp(c->scheme, "Bearer"))
        return bearer(a, h, c, cr, repo, why);
    if (!strcasecmp(c->scheme, "Basic")) {
        if (cr->user)
            return basic_value(a, cr);
        *why = "the registry asks for a user name and password";
        return NULL;
    }
    *why = gl_arena_printf(a, "the registry asks for the `%s` scheme, which gpulint does not "
                              "speak", c->scheme);
    return NULL;
}
