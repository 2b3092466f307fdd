/* SPDX-License-Identifier: Apache-2.0 */
/* fingerprint.c: stable finding identities (see fingerprint.h). */
#include "linter/report/fingerprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/report/report_text.h"
#include "linter/core/rule.h"

#define FNV_PRIME 0x100000001b3ULL
#define FNV_OFFSET_A 0xcbf29ce484222325ULL
#define FNV_OFFSET_B 0x84222325cbf29ce4ULL

struct hash128 {
    uint64_t a, b;
};

static void hash_bytes(struct hash128 *h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ s[i]) * FNV_PRIME;
        h->b = (h->b ^ s[i]) * FNV_PRIME;
    }
}

/* A field and its terminator, so ("ab","c") and ("a","bc") differ. */
static void hash_field(struct hash128 *h, const char *s)
{
    if (s)
        hash_bytes(h, s, strlen(s));
    hash_bytes(h, "", 1);
}

/* The message with the digits after each "line " / "lines " removed: messages may point
 * at another line ("from the base tag at line 1"), which moves with edits. */
static void hash_message(struct hash128 *h, const char *msg)
{
    const char *p = msg;
    while (*p) {
        const char *hit = strstr(p, "line");
        if (!hit) {
            hash_bytes(h, p, strlen(p));
            break;
        }
        const char *q = hit + 4;
        if (*q == 's')
            q++;
        if (*q == ' ')
            q++;
        hash_bytes(h, p, (size_t)(q - p));
        while (*q >= '0' && *q <= '9')
            q++;
        p = q;
    }
    hash_bytes(h, "", 1);
}

static struct hash128 identity(const struct gl_finding *f)
{
    struct hash128 h = {FNV_OFFSET_A, FNV_OFFSET_B};
    hash_field(&h, "gpulint/v1");
    hash_field(&h, f->rule->id);
    hash_field(&h, gl_text_report_path(f->file));
    hash_message(&h, f->message);
    hash_field(&h, f->platform);
    hash_field(&h, f->image_path);
    return h;
}

/* Open-addressing table of identities seen so far, with their counts. */
struct seen_slot {
    struct hash128 key;
    uint32_t count; /* 0: empty */
};

static uint32_t occurrence(struct seen_slot *slots, size_t mask, struct hash128 key)
{
    for (size_t i = (size_t)(key.a ^ key.b) & mask;; i = (i + 1) & mask) {
        struct seen_slot *s = &slots[i];
        if (s->count == 0) {
            s->key = key;
            s->count = 1;
            return 0;
        }
        if (s->key.a == key.a && s->key.b == key.b)
            return s->count++;
    }
}

void gl_fingerprints_compute(const struct gl_findings *f, struct gl_fingerprints *out)
{
    out->n = f->n;
    out->hex = xcalloc(f->n ? f->n : 1, sizeof *out->hex);
    size_t cap = 16;
    while (cap < 2 * f->n)
        cap *= 2;
    struct seen_slot *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < f->n; i++) {
        struct hash128 h = identity(&f->items[i]);
        uint32_t nth = occurrence(slots, cap - 1, h);
        char nth_text[16];
        snprintf(nth_text, sizeof nth_text, "%u", (unsigned)nth);
        hash_field(&h, nth_text);
        snprintf(out->hex[i], sizeof out->hex[i], "%016llx%016llx", (unsigned long long)h.a,
                 (unsigned long long)h.b);
    }
    free(slots);
}

void gl_fingerprints_free(struct gl_fingerprints *fp)
{
    free(fp->hex);
    fp->hex = NULL;
    fp->n = 0;
}
