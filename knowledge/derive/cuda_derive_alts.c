/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive_alts.c: facts of a shell's alternative arms (see cuda_derive_internal.h). */
#include "knowledge/derive/cuda_derive_internal.h"

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
 * (-1 when there is none, or it is no number of 0 or more). */
static void major_minor(const char *v, long *major, long *minor)
{
    char *end;
    *major = strtol(v, &end, 10);
    *minor = *end == '.' ? strtol(end + 1, NULL, 10) : -1;
    if (*minor < 0)
        *minor = -1;
}

/* A fact of an arm that may be dropped, its release read once. Facts of one if/case and
 * instruction are compared in counts, not in pairs: sorted by (branch, instr, major,
 * minor), each fact's rivals are the group's facts of other arms, and it agrees with those
 * of its major whose minor is its own or unknown (all of its major when its own is
 * unknown): it is dropped when it does not agree with all of them. (Pairs took time
 * quadratic in the installs: 15,000 arms of a RUN, 4 s.) */
struct alt_fact {
    uint32_t branch;
    int instr;
    long major, minor;
    uint8_t arm;
    size_t i; /* the fact's index from al->first */
};

static int alt_cmp(const void *x, const void *y)
{
    const struct alt_fact *a = x, *b = y;
#define CMP(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    CMP(branch);
    CMP(instr);
    CMP(major);
    CMP(minor);
    CMP(i);
#undef CMP
    return 0;
}

/* Counts by arm of the facts in k[from, to). */
static void count_arms(const struct alt_fact *k, size_t from, size_t to, uint32_t *by_arm,
                       int sign)
{
    for (size_t x = from; x < to; x++)
        by_arm[k[x].arm] += (uint32_t)sign;
}

/* The group k[0, g) (one branch and instruction): set drop of each fact a rival arm
 * contradicts; true when any. */
static bool drop_in_group(struct cd_alts *al, const struct alt_fact *k, size_t g)
{
    uint32_t group[256] = {0}, major[256] = {0}, same[256] = {0}, unknown[256] = {0};
    bool any = false;
    count_arms(k, 0, g, group, 1);
    for (size_t m = 0, mend; m < g; m = mend) { /* each major */
        for (mend = m; mend < g && k[mend].major == k[m].major; mend++)
            ;
        count_arms(k, m, mend, major, 1);
        size_t u = m; /* its facts of unknown minor come first (-1) */
        while (u < mend && k[u].minor < 0)
            u++;
        count_arms(k, m, u, unknown, 1);
        for (size_t r = m, rend; r < mend; r = rend) { /* each minor of it */
            for (rend = r; rend < mend && k[rend].minor == k[r].minor; rend++)
                ;
            count_arms(k, r, rend, same, 1);
            for (size_t x = r; x < rend; x++) {
                uint8_t arm = k[x].arm;
                size_t rivals = g - group[arm];
                size_t agree = k[x].minor < 0 ? (mend - m) - major[arm]
                                              : (rend - r) - same[arm] + (u - m) - unknown[arm];
                if (rivals > agree)
                    al->at[k[x].i].drop = any = true;
            }
            count_arms(k, r, rend, same, -1);
        }
        count_arms(k, m, u, unknown, -1);
        count_arms(k, m, mend, major, -1);
    }
    return any;
}

void cd_alts_drop(struct cd_alts *al)
{
    struct gl_cuda_fact *f = al->doc->cuda + al->first;
    bool any = false;
    struct alt_fact *k = al->n ? malloc(al->n * sizeof *k) : NULL;
    size_t nk = 0;
    for (size_t i = 0; k && i < al->n; i++)
        if (al->at[i].branch && f[i].version) {
            k[nk] = (struct alt_fact){al->at[i].branch, f[i].instr, 0, 0, al->at[i].arm, i};
            major_minor(f[i].version, &k[nk].major, &k[nk].minor);
            nk++;
        }
    if (nk > 1)
        qsort(k, nk, sizeof *k, alt_cmp);
    for (size_t g = 0, gend; g < nk; g = gend) {
        for (gend = g; gend < nk && k[gend].branch == k[g].branch && k[gend].instr == k[g].instr;
             gend++)
            ;
        if (gend - g > 1 && drop_in_group(al, k + g, gend - g))
            any = true;
    }
    free(k);
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
