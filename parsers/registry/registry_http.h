/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registry_http.h: one HTTP GET at a time, through libcurl, bounded in every way.
 *
 * gl_http_get() fetches one URL (http or https only; no other protocol is ever spoken)
 * and never follows a redirect itself: a 3xx reply hands its `Location` back, and the
 * caller decides (registry_input.c follows them for blob GETs only, never sending the
 * Authorization header to another host). Bounds:
 *  - a connect timeout and a total timeout per request (struct gl_http);
 *  - a body larger than `max` bytes stops the transfer (`too_big`): nothing past the cap
 *    is kept, so a hostile server costs at most `max` bytes;
 *  - 429 and 5xx replies are retried at most `retries` times, after 250 ms, 500 ms,
 *    1 s ... (a `Retry-After` of a few seconds is honoured, never more than 4 s).
 * TLS: the peer and host name are verified unless `tls.no_verify`; `tls.ca_file` adds a
 * CA bundle (the registry's ca.crt), `tls.cert_file`/`key_file` a client certificate.
 * The Authorization header the caller passes is sent as given and never printed: errors
 * name the URL and curl's reason only.
 */
#ifndef GPULINT_REGISTRY_HTTP_H
#define GPULINT_REGISTRY_HTTP_H

#include <stdbool.h>
#include <stddef.h>

struct gl_http_tls {
    bool no_verify;
    const char *ca_file, *cert_file, *key_file; /* NULL: none */
};

struct gl_http {
    void *curl;              /* CURL * */
    struct gl_http_tls tls;
    long connect_ms, total_ms;
    int retries;
    unsigned requests;       /* requests sent (retries included) */
};

struct gl_http_reply {
    long status;             /* HTTP status, 0 when no reply came */
    char *body; size_t len;  /* heap, NUL-terminated (also for errors: a registry's JSON) */
    bool too_big;            /* the body passed `max`: cut */
    char *www_authenticate, *location, *content_type; /* heap or NULL */
    bool tls_error;          /* the transfer failed in TLS (certificate, handshake) */
    bool timed_out;
    char error[320];         /* the transport error ("" when a reply came) */
};

void gl_http_init(struct gl_http *h, const struct gl_http_tls *tls, long connect_ms,
                  long total_ms, int retries);
void gl_http_free(struct gl_http *h);

/* GET url. `authorization`: the whole header value ("Bearer ...") or NULL; `accept`: the
 * Accept header or NULL. 0 when a reply came (any status), -1 on a transport error
 * (r->error says why). Free the reply with gl_http_reply_free. */
int gl_http_get(struct gl_http *h, const char *url, const char *authorization,
                const char *accept, size_t max, struct gl_http_reply *r);
void gl_http_reply_free(struct gl_http_reply *r);

#endif
