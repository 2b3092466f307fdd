/* SPDX-License-Identifier: Apache-2.0 */
/* pattern.c: PCRE2 with JIT (see pattern.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "linter/core/pattern.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

#include "linter/core/util.h"

struct gl_pattern {
    pcre2_code *code;
    pcre2_match_data *md; /* sized for the pattern; matching is single-threaded per pattern */
};

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
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE); /* falls back to the interpreter */
    struct gl_pattern *p = xmalloc(sizeof *p);
    p->code = code;
    p->md = pcre2_match_data_create_from_pattern(code, NULL);
    return p;
}

void gl_pattern_free(struct gl_pattern *p)
{
    if (!p)
        return;
    pcre2_match_data_free(p->md);
    pcre2_code_free(p->code);
    free(p);
}

bool gl_pattern_match(const struct gl_pattern *p, const char *s, size_t len)
{
    return pcre2_match(p->code, (PCRE2_SPTR)s, len, 0, 0, p->md, NULL) >= 0;
}
