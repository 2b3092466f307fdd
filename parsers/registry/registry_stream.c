/* SPDX-License-Identifier: Apache-2.0 */
/* registry_stream.c: a blob GET as a byte stream (see registry_stream.h). */
#include "parsers/registry/registry_stream.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linter/core/util.h"
#include "parsers/registry/registry_curl.h"

struct gl_http_stream {
    CURL *curl;
    struct gl_http_tls tls;
    long connect_ms, stall_s;
    char *url, *auth_line;
    pthread_t thread;
    bool started;            /* the thread runs */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    char *fill, *out;        /* curl fills `fill`; the reader holds `out` */
    size_t nfill;
    bool done;               /* the transfer ended (well or not) */
    bool stop;               /* the reader wants no more */
    long status;             /* the reply's, once its body began */
    curl_off_t seen;         /* bytes received, at ... */
    struct timespec seen_at; /* ... this time (a stall is measured from here) */
    bool stalled;
    char why[320];           /* "" or why the transfer failed */
};

/* curl's write callback: copy into `fill`, waiting while it is full. */
static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
    struct gl_http_stream *s = ctx;
    size_t k = size * n, done = 0;
    pthread_mutex_lock(&s->lock);
    if (!s->status)
        gl_curl()->easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &s->status);
    if (s->status != 200) {
        snprintf(s->why, sizeof s->why, "HTTP %ld", s->status);
        s->stop = true;
    }
    while (done < k && !s->stop) {
        if (s->nfill == GL_STREAM_BUF) {
            pthread_cond_wait(&s->changed, &s->lock);
            continue;
        }
        size_t room = GL_STREAM_BUF - s->nfill, m = k - done < room ? k - done : room;
        memcpy(s->fill + s->nfill, p + done, m);
        s->nfill += m;
        done += m;
        pthread_cond_broadcast(&s->changed);
    }
    bool stop = s->stop;
    pthread_mutex_unlock(&s->lock);
    return stop ? 0 : k; /* 0 stops the transfer */
}

static double since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* curl's progress callback: stop a transfer that received nothing for stall_s seconds
 * (while the reader keeps up: a full buffer is the reader's pace, not a stall). */
static int on_progress(void *ctx, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
    (void)dltotal, (void)ultotal, (void)ulnow;
    struct gl_http_stream *s = ctx;
    pthread_mutex_lock(&s->lock);
    bool waiting_reader = s->nfill == GL_STREAM_BUF;
    if (dlnow != s->seen || waiting_reader) {
        s->seen = dlnow;
        clock_gettime(CLOCK_MONOTONIC, &s->seen_at);
    } else if (since(&s->seen_at) >= (double)s->stall_s) {
        s->stalled = true;
    }
    bool stop = s->stalled;
    pthread_mutex_unlock(&s->lock);
    return stop ? 1 : 0; /* non-zero aborts the transfer */
}

static void *transfer(void *arg)
{
    struct gl_http_stream *s = arg;
    const struct gl_curl *cu = gl_curl();
    CURL *c = s->curl;
    char err[CURL_ERROR_SIZE] = "";
    struct curl_slist *headers = s->auth_line ? cu->slist_append(NULL, s->auth_line) : NULL;
    cu->easy_setopt(c, CURLOPT_URL, s->url);
    cu->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    cu->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    cu->easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, s->connect_ms);
    cu->easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    cu->easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    cu->easy_setopt(c, CURLOPT_XFERINFODATA, s);
    clock_gettime(CLOCK_MONOTONIC, &s->seen_at);
    cu->easy_setopt(c, CURLOPT_USERAGENT, "gpulint/" GPULINT_VERSION);
    cu->easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    cu->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    cu->easy_setopt(c, CURLOPT_WRITEDATA, s);
    cu->easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    cu->easy_setopt(c, CURLOPT_SSL_VERIFYPEER, s->tls.no_verify ? 0L : 1L);
    cu->easy_setopt(c, CURLOPT_SSL_VERIFYHOST, s->tls.no_verify ? 0L : 2L);
    if (s->tls.ca_file)
        cu->easy_setopt(c, CURLOPT_CAINFO, s->tls.ca_file);
    if (s->tls.cert_file && s->tls.key_file) {
        cu->easy_setopt(c, CURLOPT_SSLCERT, s->tls.cert_file);
        cu->easy_setopt(c, CURLOPT_SSLKEY, s->tls.key_file);
    }
    CURLcode rc = cu->easy_perform(c);
    pthread_mutex_lock(&s->lock);
    if (!s->status)
        cu->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &s->status);
    if (!s->why[0] && s->stalled)
        snprintf(s->why, sizeof s->why, "nothing received for %ld s (--timeout)", s->stall_s);
    else if (!s->why[0] && rc != CURLE_OK && !s->stop)
        snprintf(s->why, sizeof s->why, "%s", err[0] ? err : cu->easy_strerror(rc));
    else if (!s->why[0] && rc == CURLE_OK && s->status != 200)
        snprintf(s->why, sizeof s->why, "HTTP %ld", s->status);
    s->done = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    cu->slist_free_all(headers);
    return NULL;
}

/* The reader's side: the bytes curl filled so far, once there are some. */
static ssize_t next_run(void *ctx, const void **buf)
{
    struct gl_http_stream *s = ctx;
    pthread_mutex_lock(&s->lock);
    while (!s->nfill && !s->done)
        pthread_cond_wait(&s->changed, &s->lock);
    ssize_t got = (ssize_t)s->nfill;
    if (!got && s->why[0])
        got = -1; /* ended before it should: an error, not the end */
    char *t = s->out;
    s->out = s->fill;
    s->fill = t;
    s->nfill = 0;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    *buf = s->out;
    return got;
}

struct gl_http_stream *gl_http_stream_open(const struct gl_http *h, const char *url,
                                           const char *authorization, const char **why)
{
    const struct gl_curl *cu = gl_curl();
    CURL *c = cu ? cu->easy_init() : NULL;
    if (!c) {
        *why = "libcurl (libcurl.so.4) could not be loaded: install libcurl4 to read registries";
        return NULL;
    }
    struct gl_http_stream *s = xcalloc(1, sizeof *s);
    s->curl = c;
    s->tls = h->tls;
    s->connect_ms = h->connect_ms;
    s->stall_s = h->total_ms >= 1000 ? h->total_ms / 1000 : 1;
    s->url = xasprintf("%s", url);
    s->auth_line = authorization ? xasprintf("Authorization: %s", authorization) : NULL;
    s->fill = xmalloc(GL_STREAM_BUF);
    s->out = xmalloc(GL_STREAM_BUF);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->changed, NULL);
    s->started = pthread_create(&s->thread, NULL, transfer, s) == 0;
    if (!s->started) {
        *why = "no thread for the transfer";
        char ignored[8];
        gl_http_stream_close(s, ignored, sizeof ignored);
        return NULL;
    }
    return s;
}

struct gl_byte_src gl_http_stream_src(struct gl_http_stream *s)
{
    return (struct gl_byte_src){.ctx = s, .read = next_run};
}

void gl_http_stream_close(struct gl_http_stream *s, char *why, size_t n)
{
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    if (s->started)
        pthread_join(s->thread, NULL);
    snprintf(why, n, "%s", s->why);
    gl_curl()->easy_cleanup(s->curl);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->changed);
    if (s->auth_line) /* the secret leaves no copy behind */
        memset(s->auth_line, 0, strlen(s->auth_line));
    free(s->auth_line);
    free(s->url);
    free(s->fill);
    free(s->out);
    free(s);
}
