/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registry_curl.h: libcurl, loaded when the first docker:// input needs it.
 *
 * libcurl and what it brings (OpenSSL or GnuTLS, Kerberos, LDAP, ...) add about 4 MB of
 * resident memory to a process that maps them, whether or not it speaks HTTP; a run
 * over archives and files must stay under its 64 MiB. So gpulint is not linked with
 * libcurl: gl_curl() opens `libcurl.so.4` (else `libcurl-gnutls.so.4`) with dlopen once,
 * on the first registry input, and hands out the few functions registry_http.c and
 * registry_auth.c call. The build still compiles against libcurl's headers (pkg-config),
 * so the signatures are checked.
 */
#ifndef GPULINT_REGISTRY_CURL_H
#define GPULINT_REGISTRY_CURL_H

#include <curl/curl.h>

struct gl_curl {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *c);
    void (*easy_reset)(CURL *c);
    CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
    CURLcode (*easy_perform)(CURL *c);
    CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    char *(*easy_escape)(CURL *c, const char *s, int len);
    void (*free)(void *p);
    struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
    void (*slist_free_all)(struct curl_slist *l);
};

/* The loaded library (curl_global_init done), or NULL when it cannot be loaded. */
const struct gl_curl *gl_curl(void);

#endif
