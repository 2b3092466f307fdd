/* SPDX-License-Identifier: Apache-2.0 */
/* registry_http.c: bounded HTTP GETs through libcurl (see registry_http.h). */
#include "parsers/registry/registry_http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "linter/core/util.h"
#include "parsers/registry/registry_curl.h"

void gl_http_init(struct gl_http *h, const struct gl_http_tls *tls, long connect_ms,
                  long total_ms, int retries)
{
    memset(h, 0, sizeof *h);
    h->tls = *tls;
    h->connect_ms = connect_ms;
    h->total_ms = total_ms;
    h->retries = retries;
    const struct gl_curl *cu = gl_curl();
    h->curl = cu ? cu->easy_init() : NULL;
}

void gl_http_free(struct gl_http *h)
{
    if (h->curl)
        gl_curl()->easy_cleanup(h->curl);
    h->curl = NULL;
}

void gl_http_reply_free(struct gl_http_reply *r)
{
    free(r->body);
    free(r->www_authenticate);
    free(r->location);
    free(r->content_type);
    memset(r, 0, sizeof *r);
}

/* The longest a Retry-After is waited (seconds): a server's own number is clamped to it
 * where it is read, so no arithmetic on it can overflow. */
#define RETRY_AFTER_MAX 4L

struct sink {
    struct gl_http_reply *r;
    size_t max, cap;
    long retry_after; /* seconds, 0..RETRY_AFTER_MAX */
};

static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
    struct sink *s = ctx;
    size_t k = size * n;
    if (s->r->len + k > s->max) {
        s->r->too_big = true;
        return 0; /* stops the transfer */
    }
    if (s->r->len + k + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->r->len + k + 1)
            cap *= 2;
        s->r->body = xrealloc(s->r->body, cap);
        s->cap = cap;
    }
    memcpy(s->r->body + s->r->len, p, k);
    s->r->len += k;
    s->r->body[s->r->len] = 0;
    return k;
}

/* The value of header line p[0..n) when its name is `name`, trimmed, or NULL. */
static char *header_value(const char *p, size_t n, const char *name)
{
    size_t k = strlen(name);
    if (n <= k || strncasecmp(p, name, k) || p[k] != ':')
        return NULL;
    p += k + 1;
    n -= k + 1;
    while (n && (*p == ' ' || *p == '\t'))
        p++, n--;
    while (n && (p[n - 1] == '\r' || p[n - 1] == '\n' || p[n - 1] == ' '))
        n--;
    char *v = xmalloc(n + 1);
    memcpy(v, p, n);
    v[n] = 0;
    return v;
}

static void keep(char **slot, char *v)
{
    if (!v)
        return;
    free(*slot);
    *slot = v;
}

static size_t on_header(char *p, size_t size, size_t n, void *ctx)
{
    struct sink *s = ctx;
    size_t k = size * n;
    if (k >= 5 && !strncmp(p, "HTTP/", 5)) { /* a new response (after a 100 Continue) */
        free(s->r->www_authenticate);
        free(s->r->location);
        free(s->r->content_type);
        s->r->www_authenticate = s->r->location = s->r->content_type = NULL;
        s->retry_after = 0;
        return k;
    }
    keep(&s->r->www_authenticate, header_value(p, k, "WWW-Authenticate"));
    keep(&s->r->location, header_value(p, k, "Location"));
    keep(&s->r->content_type, header_value(p, k, "Content-Type"));
    char *ra = header_value(p, k, "Retry-After");
    if (ra) {
        long v = strtol(ra, NULL, 10); /* (an HTTP date: 0, the default back-off) */
        s->retry_after = v < 0 ? 0 : v > RETRY_AFTER_MAX ? RETRY_AFTER_MAX : v;
        free(ra);
    }
    return k;
}

static bool tls_failure(CURLcode c)
{
    return c == CURLE_SSL_CONNECT_ERROR || c == CURLE_PEER_FAILED_VERIFICATION ||
           c == CURLE_SSL_CERTPROBLEM || c == CURLE_SSL_CIPHER ||
           c == CURLE_SSL_CACERT_BADFILE || c == CURLE_SSL_ISSUER_ERROR ||
           c == CURLE_SSL_PINNEDPUBKEYNOTMATCH || c == CURLE_SSL_CRL_BADFILE ||
           c == CURLE_USE_SSL_FAILED;
}

static void set_tls(const struct gl_curl *cu, CURL *c, const struct gl_http_tls *tls)
{
    cu->easy_setopt(c, CURLOPT_SSL_VERIFYPEER, tls->no_verify ? 0L : 1L);
    cu->easy_setopt(c, CURLOPT_SSL_VERIFYHOST, tls->no_verify ? 0L : 2L);
    if (tls->ca_file)
        cu->easy_setopt(c, CURLOPT_CAINFO, tls->ca_file);
    if (tls->cert_file && tls->key_file) {
        cu->easy_setopt(c, CURLOPT_SSLCERT, tls->cert_file);
        cu->easy_setopt(c, CURLOPT_SSLKEY, tls->key_file);
    }
}

/* One request; 0 with a reply, -1 on a transport error. */
static int get_once(struct gl_http *h, const char *url, struct curl_slist *headers,
                    size_t max, struct gl_http_reply *r, long *retry_after)
{
    const struct gl_curl *cu = gl_curl();
    CURL *c = h->curl;
    struct sink s = {r, max, 0, 0};
    char err[CURL_ERROR_SIZE] = "";
    cu->easy_reset(c);
    cu->easy_setopt(c, CURLOPT_URL, url);
    cu->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    cu->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    cu->easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, h->connect_ms);
    cu->easy_setopt(c, CURLOPT_TIMEOUT_MS, h->total_ms);
    cu->easy_setopt(c, CURLOPT_USERAGENT, "gpulint/" GPULINT_VERSION);
    cu->easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    cu->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    cu->easy_setopt(c, CURLOPT_WRITEDATA, &s);
    cu->easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    cu->easy_setopt(c, CURLOPT_HEADERDATA, &s);
    cu->easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    set_tls(cu, c, &h->tls);
    h->requests++;
    CURLcode rc = cu->easy_perform(c);
    *retry_after = s.retry_after;
    if (rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && r->too_big)) {
        cu->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
        return 0;
    }
    r->tls_error = tls_failure(rc);
    r->timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    snprintf(r->error, sizeof r->error, "%s", err[0] ? err : cu->easy_strerror(rc));
    return -1;
}

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int gl_http_get(struct gl_http *h, const char *url, const char *authorization,
                const char *accept, size_t max, struct gl_http_reply *r)
{
    memset(r, 0, sizeof *r);
    if (!h->curl) {
        snprintf(r->error, sizeof r->error, "libcurl (libcurl.so.4) could not be loaded: "
                 "install libcurl4 to read registries");
        return -1;
    }
    const struct gl_curl *cu = gl_curl();
    struct curl_slist *headers = NULL;
    char *auth_line = NULL, *accept_line = NULL;
    if (authorization) {
        auth_line = xasprintf("Authorization: %s", authorization);
        headers = cu->slist_append(headers, auth_line);
    }
    if (accept) {
        accept_line = xasprintf("Accept: %s", accept);
        headers = cu->slist_append(headers, accept_line);
    }
    int rc;
    for (int attempt = 0;; attempt++) {
        long retry_after = 0;
        rc = get_once(h, url, headers, max, r, &retry_after);
        bool again = rc == 0 && (r->status == 429 || r->status >= 500);
        if (!again || attempt >= h->retries)
            break;
        long wait = 250L << attempt;
        if (retry_after * 1000 > wait)
            wait = retry_after * 1000;
        gl_http_reply_free(r);
        pause_ms(wait);
    }
    cu->slist_free_all(headers);
    if (auth_line) /* the secret leaves no copy behind */
        memset(auth_line, 0, strlen(auth_line));
    free(auth_line);
    free(accept_line);
    return rc;
}
