/* SPDX-License-Identifier: Apache-2.0 */
/* gpu_target.c: --gpu names, SMs and `host` (see gpu_target.h). */
#include "knowledge/gpu_target.h"

#include "knowledge/nvidia_smi.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMI_READ_CAP 4096
#define NAME_MAX_LEN 128

int gl_gpu_targets_add(struct gl_gpu_targets *t, struct gl_arena *a, const char *name)
{
    if (!name || !*name || strlen(name) > NAME_MAX_LEN)
        return -1;
    if (t->nnames == t->capnames) {
        t->capnames = t->capnames ? 2 * t->capnames : 4;
        const char **grown = gl_arena_alloc(a, t->capnames * sizeof *grown);
        if (t->nnames)
            memcpy(grown, t->names, t->nnames * sizeof *grown);
        t->names = grown;
    }
    t->names[t->nnames++] = gl_arena_strdup(a, name);
    return 0;
}

void gl_gpu_targets_clear(struct gl_gpu_targets *t)
{
    t->nnames = 0;
    t->nsms = 0;
}

/* Words a product name may carry that do not change its compute capability. */
static bool dropped_word(const char *w, size_t n)
{
    static const char *const words[] = {"nvidia", "geforce", "tesla", "pcie", "nvl", "sxm"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        size_t k = strlen(words[i]);
        if (n >= k && !memcmp(w, words[i], k)) {
            size_t j = k;
            while (j < n && isdigit((unsigned char)w[j]))
                j++;
            if (j == n && (j == k || !strcmp(words[i], "sxm")))
                return true;
        }
    }
    if (n > 3 && !memcmp(w, "hbm", 3)) /* hbm3, hbm3e, hbm2e */
        return true;
    size_t d = 0;
    while (d < n && isdigit((unsigned char)w[d]))
        d++;
    return d > 0 && n == d + 2 && !memcmp(w + d, "gb", 2); /* 80gb */
}

/* A name folded for comparison: lower case, words joined, dropped words left out (unless
 * nothing else remains). Stops at `=` (a table name's CC). */
static void fold_name(const char *s, char *out, size_t cap)
{
    char lower[NAME_MAX_LEN + 1];
    size_t n = 0;
    for (; *s && *s != '=' && n < NAME_MAX_LEN; s++)
        lower[n++] = (char)tolower((unsigned char)*s);
    lower[n] = '\0';
    size_t o = 0, kept = 0;
    for (int pass = 0; pass < 2 && !kept; pass++) {
        o = 0;
        for (size_t i = 0; i < n;) {
            while (i < n && strchr(" -_/", lower[i]))
                i++;
            size_t j = i;
            while (j < n && !strchr(" -_/", lower[j]))
                j++;
            if (j > i && (pass == 1 || !dropped_word(lower + i, j - i))) {
                for (size_t k = i; k < j && o + 1 < cap; k++)
                    out[o++] = lower[k];
                kept++;
            }
            i = j;
        }
    }
    out[o] = '\0';
}

/* "sm_90", "sm90", "sm_90a", "9.0", "90": the SM number. */
static bool sm_spelling(const char *s, unsigned *sm)
{
    if ((s[0] == 's' || s[0] == 'S') && (s[1] == 'm' || s[1] == 'M'))
        s += s[2] == '_' ? 3 : 2;
    size_t n = strlen(s);
    if (n > 2 && (s[n - 1] == 'a' || s[n - 1] == 'f') && !strchr(s, '.'))
        n--;
    return gl_sm_parse(s, n, sm);
}

static void add_sm(unsigned *sms, size_t max, size_t *n, unsigned sm)
{
    for (size_t i = 0; i < *n; i++) {
        if (sms[i] == sm)
            return;
    }
    if (*n < max)
        sms[(*n)++] = sm;
}

/* The names of a table's families folded once, sorted: a look-up folds the name asked and
 * searches them. (Folding every name of the table at every look-up took 40 us one: the
 * CI reader asks it of each token of a runner label, and a 900 KB label took 30 s.) Built
 * for the last table asked (its families' address and count), under a lock: the workers
 * of a run share one table. */
struct folded_name {
    char name[NAME_MAX_LEN + 1];
    size_t family, item;
};
static struct {
    pthread_mutex_t lock;
    const struct gl_kb_gpu_family *families;
    size_t nfamilies;
    struct folded_name *v;
    size_t n;
} folded = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, NULL, 0};

/* By folded name, then in the table's order (a name's SMs are added in that order). */
static int folded_cmp(const void *a, const void *b)
{
    const struct folded_name *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    if (x->family != y->family)
        return x->family < y->family ? -1 : 1;
    return x->item < y->item ? -1 : x->item > y->item;
}

/* (folded.lock held) The index of kb's names, built when kb's table is not the last one. */
static void folded_for(const struct gl_kb *kb)
{
    if (folded.families == kb->gpu_families && folded.nfamilies == kb->n_gpu_families)
        return;
    size_t total = 0;
    for (size_t i = 0; i < kb->n_gpu_families; i++)
        total += kb->gpu_families[i].names.count;
    free(folded.v);
    folded.v = total ? xmalloc(total * sizeof *folded.v) : NULL;
    folded.n = 0;
    for (size_t i = 0; i < kb->n_gpu_families; i++)
        for (size_t k = 0; k < kb->gpu_families[i].names.count; k++) {
            struct folded_name *f = &folded.v[folded.n++];
            fold_name(kb->gpu_families[i].names.items[k], f->name, sizeof f->name);
            f->family = i;
            f->item = k;
        }
    if (folded.n > 1)
        qsort(folded.v, folded.n, sizeof *folded.v, folded_cmp);
    folded.families = kb->gpu_families;
    folded.nfamilies = kb->n_gpu_families;
}

bool gl_gpu_name_lookup(const struct gl_kb *kb, const char *name, unsigned *sms, size_t max,
                        size_t *n)
{
    *n = 0;
    unsigned sm;
    if (sm_spelling(name, &sm)) {
        if (!gl_kb_gpu_family_of_sm(kb, sm))
            return false;
        add_sm(sms, max, n, sm);
        return true;
    }
    char want[NAME_MAX_LEN + 1];
    fold_name(name, want, sizeof want);
    if (!want[0] || !kb || !kb->n_gpu_families)
        return false;
    pthread_mutex_lock(&folded.lock);
    folded_for(kb);
    size_t lo = 0, hi = folded.n; /* the first folded name not below want */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(folded.v[mid].name, want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* every name of the table that folds to want, in the table's order */
    for (size_t x = lo; x < folded.n && !strcmp(folded.v[x].name, want); x++) {
        const struct gl_kb_gpu_family *f = &kb->gpu_families[folded.v[x].family];
        const char *item = f->names.items[folded.v[x].item];
        const char *eq = strchr(item, '=');
        for (size_t c = 0; c < f->cc.count; c++) {
            const char *cc = f->cc.items[c];
            if ((!eq || !strcmp(cc, eq + 1)) && gl_sm_parse(cc, strlen(cc), &sm))
                add_sm(sms, max, n, sm);
        }
    }
    pthread_mutex_unlock(&folded.lock);
    return *n > 0;
}

bool gl_gpu_parse_smi_output(const char *text, size_t len, unsigned *sms, size_t max, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        size_t a = i, b = j;
        while (a < b && (text[a] == ' ' || text[a] == '\t'))
            a++;
        while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\r'))
            b--;
        unsigned sm;
        if (b > a) {
            if (!memchr(text + a, '.', b - a) || !gl_sm_parse(text + a, b - a, &sm))
                return false;
            add_sm(sms, max, n, sm);
        }
        i = j + 1;
    }
    return *n > 0;
}

/* The first name of each family row, once each: "Kepler, Maxwell, ..." */
static void family_names(const struct gl_kb *kb, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; kb && i < kb->n_gpu_families; i++) {
        const struct gl_kb_gpu_family *f = &kb->gpu_families[i];
        if (!f->names.count || strchr(f->names.items[0], '='))
            continue;
        const char *name = f->names.items[0];
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = kb->gpu_families[k].names.count &&
                   !strcmp(kb->gpu_families[k].names.items[0], name);
        if (!seen && o + strlen(name) + 3 < cap)
            o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? ", " : "", name);
    }
}

static void add_target(struct gl_gpu_targets *t, const struct gl_kb *kb, unsigned sm,
                       const char *name)
{
    for (size_t i = 0; i < t->nsms; i++) {
        if (t->sms[i].sm == sm)
            return;
    }
    if (t->nsms == GL_GPU_TARGETS_MAX)
        return;
    const struct gl_kb_gpu_family *f = gl_kb_gpu_family_of_sm(kb, sm);
    t->sms[t->nsms++] = (struct gl_gpu_target_sm){sm, name, f ? f->family : NULL};
}

/* The compute capabilities of this machine's GPUs. */
static int resolve_host(struct gl_gpu_targets *t, const struct gl_kb *kb, const char *name,
                        char *note, size_t note_size)
{
    const char *smi = gl_nvidia_smi_program();
    char *buf = xmalloc(SMI_READ_CAP);
    size_t len = 0, n = 0;
    unsigned sms[GL_GPU_TARGETS_MAX];
    bool ran = smi && gl_nvidia_smi_run(smi, "compute_cap", buf, SMI_READ_CAP, &len);
    bool ok = ran && gl_gpu_parse_smi_output(buf, len, sms, GL_GPU_TARGETS_MAX, &n);
    free(buf);
    if (!ok) {
        snprintf(note, note_size,
                 "host: no GPU found (`nvidia-smi --query-gpu=compute_cap` %s); name the GPU "
                 "instead (--gpu H100, --gpu sm_90)",
                 !smi ? "is turned off by GPULINT_NVIDIA_SMI"
                 : !ran ? "could not be run" : "printed no compute capability");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        add_target(t, kb, sms[i], name);
    return 0;
}

int gl_gpu_targets_resolve(struct gl_gpu_targets *t, const struct gl_kb *kb,
                           struct gl_arena *a, char *note, size_t note_size)
{
    (void)a;
    if (note_size)
        note[0] = '\0';
    t->nsms = 0;
    for (size_t i = 0; i < t->nnames; i++) {
        const char *name = t->names[i];
        if (!strcmp(name, "host")) {
            if (resolve_host(t, kb, name, note, note_size) != 0)
                return -1;
            continue;
        }
        unsigned sms[GL_GPU_TARGETS_MAX];
        size_t n;
        if (!gl_gpu_name_lookup(kb, name, sms, GL_GPU_TARGETS_MAX, &n) &&
            (!kb || !kb->n_gpu_families)) {
            snprintf(note, note_size,
                     "`%.*s`: the knowledge table in use has no gpu_architectures section, so "
                     "no GPU name is known", NAME_MAX_LEN, name);
            return -1;
        }
        if (!n) {
            char families[512];
            family_names(kb, families, sizeof families);
            snprintf(note, note_size,
                     "`%.*s` is no GPU the knowledge table knows: give a product name (A100, "
                     "H100, L4, B200, RTX 4090, ...: `gpulint --print-knowledge` lists them "
                     "under gpu_architectures), a family (%s), a compute capability the table "
                     "lists (sm_90, 9.0 or 90), or host",
                     NAME_MAX_LEN, name, families);
            return -1;
        }
        for (size_t k = 0; k < n; k++)
            add_target(t, kb, sms[k], name);
    }
    return 0;
}

const char *gl_gpu_target_describe(const struct gl_gpu_target_sm *t, char *buf, size_t n)
{
    unsigned sm;
    const char *fam = t->family ? t->family : "a GPU the knowledge table has no family for";
    if (!strcmp(t->name, "host"))
        snprintf(buf, n, "this host's GPU (%s, sm_%u)", fam, t->sm);
    else if (sm_spelling(t->name, &sm))
        snprintf(buf, n, "sm_%u (%s)", t->sm, fam);
    else
        snprintf(buf, n, "%s (%s, sm_%u)", t->name, fam, t->sm);
    return buf;
}

size_t gl_torch_arch_entries(const struct gl_kb_torch_arch *row, struct gl_arch *out, size_t max)
{
    size_t n = 0;
    const struct gl_kb_strlist *lists[] = {&row->sass, &row->ptx};
    for (size_t l = 0; l < 2; l++) {
        for (size_t i = 0; i < lists[l]->count && n < max; i++) {
            const char *s = lists[l]->items[i];
            if (gl_arch_parse(s, strlen(s), &out[n]))
                n++;
        }
    }
    return n;
}
