/* SPDX-License-Identifier: Apache-2.0 */
/* pattern.c: PCRE2 with JIT (see pattern.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "linter/core/pattern.h"

#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "linter/core/util.h"

struct gl_pattern {
    pcre2_code *code;
    bool jit; /* compiled by the JIT: matched through pcre2_jit_match */
};

/* Match data: one a thread (inputs are linted on several threads, with the config's
 * patterns shared), made on its first match and freed when the thread ends. One pair is
 * enough: a match is all gl_pattern_match asks (pcre2_match returns 0, not an error,
 * when the pairs are too few for the groups). */
static pthread_key_t md_key;
static pthread_once_t md_once = PTHREAD_ONCE_INIT;

static void md_free(void *md) { pcre2_match_data_free(md); }
static void md_key_make(void) { pthread_key_create(&md_key, md_free); }

/* the thread's match data once made (the key frees it when the thread ends): a match asks
 * no pthread_once or pthread_getspecific */
static _Thread_local pcre2_match_data *thread_md_made;

static pcre2_match_data *thread_md(void)
{
    if (thread_md_made)
        return thread_md_made;
    pthread_once(&md_once, md_key_make);
    pcre2_match_data *md = pthread_getspecific(md_key);
    if (!md) {
        md = pcre2_match_data_create(1, NULL);
        if (!md) {
            fputs("gpulint: out of memory (PCRE2 match data)\n", stderr);
            abort();
        }
        pthread_setspecific(md_key, md);
    }
    thread_md_made = md;
    return md;
}

struct gl_pattern *gl_pattern_compile(const char *re, bool caseless, char *err, size_t errlen)
{
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
                                     PCRE2_UTF | PCRE2_MATCH_INVALID_UTF |
                                         (caseless ? PCRE2_CASELESS : 0),
                                     &ec, &eo, NULL);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof msg);
        if (err)
            snprintf(err, errlen, "at offset %zu: %s", (size_t)eo, (const char *)msg);
        return NULL;
    }
    /* when the JIT cannot compile it, matches fall back to the interpreter */
    bool jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    struct gl_pattern *p = xmalloc(sizeof *p);
    p->code = code;
    p->jit = jit;
    return p;
}

void gl_pattern_free(struct gl_pattern *p)
{
    if (!p)
        return;
    pcre2_code_free(p->code);
    free(p);
}

/* A JIT-compiled pattern is matched by pcre2_jit_match, the JIT's fast path: it leaves
 * out pcre2_match's checks of the options and of the subject's UTF-8, and the subject
 * need not be valid UTF-8 here anyway (PCRE2_MATCH_INVALID_UTF), so the result is the
 * one pcre2_match gives, for some hundreds of instructions less a match. */
bool gl_pattern_match(const struct gl_pattern *p, const char *s, size_t len)
{
    pcre2_match_data *md = thread_md();
    if (p->jit)
        return pcre2_jit_match(p->code, (PCRE2_SPTR)s, len, 0, 0, md, NULL) >= 0;
    return pcre2_match(p->code, (PCRE2_SPTR)s, len, 0, 0, md, NULL) >= 0;
}
