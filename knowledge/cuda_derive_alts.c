/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive_alts.c: facts of a shell's alternative arms (see cuda_derive_internal.h). */
#include "knowledge/cuda_derive_internal.h"

#include <stdlib.h>

struct cd_alt {
    uint32_t branch; /* 0: the fact comes from no if/case arm */
    uint8_t arm;
    bool drop;
};

void cd_alts_init(struct cd_alts *al, struct gl_doc *doc)
{
    *al = (struct cd_alts){.doc = doc, .first = doc->ncuda};
}

void cd_alts_note(struct cd_alts *al, size_t before, uint32_t branch, uint8_t arm)
{
    size_t upto = al->doc->ncuda - al->first;
    if (!branch && !al->n)
        return; /* nothing in an arm yet: no entry is needed */
    if (upto > al->cap) {
        size_t cap = upto > 2 * al->cap ? upto : 2 * al->cap;
        struct cd_alt *p = realloc(al->at, cap * sizeof *p);
        if (!p)
            return; /* out of memory: the facts stay (cd_alts_drop reads al->n only) */
        al->at = p;
        al->cap = cap;
    }
    for (size_t k = al->n; k < before - al->first; k++) /* facts in no arm before these */
        al->at[k] = (struct cd_alt){0, 0, false};
    for (size_t k = before - al->first; k < upto; k++)
        al->at[k] = (struct cd_alt){branch, arm, false};
    al->n = upto;
}

/* The leading number of a version ("12" of "12.8.1"), and of what follows its first dot
 * (-1 when there is none). */
static void major_minor(const char *v, long *major, long *minor)
{
    char *end;
    *major = strtol(v, &end, 10);
    *minor = *end == '.' ? strtol(end + 1, NULL, 10) : -1;
}

static bool releases_differ(const char *a, const char *b)
{
    long amaj, amin, bmaj, bmin;
    major_minor(a, &amaj, &amin);
    major_minor(b, &bmaj, &bmin);
    return amaj != bmaj || (amin >= 0 && bmin >= 0 && amin != bmin);
}

void cd_alts_drop(struct cd_alts *al)
{
    struct gl_cuda_fact *f = al->doc->cuda + al->first;
    bool any = false;
    for (size_t i = 0; i < al->n; i++)
        for (size_t j = i + 1; j < al->n && al->at[i].branch; j++)
            if (al->at[j].branch == al->at[i].branch && al->at[j].arm != al->at[i].arm &&
                f[i].instr == f[j].instr && f[i].version && f[j].version &&
                releases_differ(f[i].version, f[j].version))
                al->at[i].drop = al->at[j].drop = any = true;
    if (any) {
        size_t kept = 0, total = al->doc->ncuda - al->first;
        for (size_t i = 0; i < total; i++)
            if (i >= al->n || !al->at[i].drop)
                f[kept++] = f[i];
        al->doc->ncuda = al->first + kept;
    }
    free(al->at);
    al->at = NULL;
}
