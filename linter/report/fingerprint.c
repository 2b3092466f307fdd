/* SPDX-License-Identifier: Apache-2.0 */
/* fingerprint.c: stable finding identities (see fingerprint.h). */
#include "linter/report/fingerprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linter/report/report_text.h"
#include "linter/core/hashmap.h"
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
struct gl_fingerprint_seen {
    struct hash128 key;
    uint32_t count; /* 0: empty */
};

/* The first slot of identity key in a table of cap slots: the seeded hash of its bytes,
 * as every table's (hashmap.h). The identity's own bits will not do: an unseeded FNV-1a's
 * low bits depend only on the low bits of its input steps, so findings whose messages
 * collide there can be written, and they would share one probe chain. */
static size_t first_slot(struct hash128 key, size_t cap)
{
    return gl_hash_slot(gl_hash_bytes((const char *)&key, sizeof key), cap);
}

static uint32_t occurrence(struct gl_fingerprint_seen *slots, size_t mask, struct hash128 key,
                           size_t *used)
{
    for (size_t i = first_slot(key, mask + 1);; i = (i + 1) & mask) {
        struct gl_fingerprint_seen *s = &slots[i];
        if (s->count == 0) {
            s->key = key;
            s->count = 1;
            (*used)++;
            return 0;
        }
        if (s->key.a == key.a && s->key.b == key.b)
            return s->count++;
    }
}

void gl_fingerprinter_init(struct gl_fingerprinter *fp, bool per_file)
{
    memset(fp, 0, sizeof *fp);
    fp->per_file = per_file;
    fp->cap = 16;
    fp->slots = xcalloc(fp->cap, sizeof *fp->slots);
}

/* Room for one more identity (at most half the slots used). */
static void make_room(struct gl_fingerprinter *fp)
{
    if (2 * (fp->used + 1) <= fp->cap)
        return;
    size_t cap = 2 * fp->cap, used = 0;
    struct gl_fingerprint_seen *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < fp->cap; i++) {
        const struct gl_fingerprint_seen *o = &fp->slots[i];
        if (!o->count)
            continue;
        size_t j = first_slot(o->key, cap);
        while (slots[j].count)
            j = (j + 1) & (cap - 1);
        slots[j] = *o;
        used++;
    }
    free(fp->slots);
    fp->slots = slots;
    fp->cap = cap;
    fp->used = used;
}

void gl_fingerprint_next(struct gl_fingerprinter *fp, const struct gl_finding *f,
                         char hex[GL_FINGERPRINT_HEX + 1])
{
    if (fp->per_file) { /* a new file: the identities of the one before are done with */
        const char *path = gl_text_report_path(f->file);
        if (!fp->path || strcmp(fp->path, path) != 0) {
            free(fp->path);
            fp->path = xstrdup(path);
            memset(fp->slots, 0, fp->cap * sizeof *fp->slots);
            fp->used = 0;
        }
    }
    make_room(fp);
    struct hash128 h = identity(f);
    uint32_t nth = occurrence(fp->slots, fp->cap - 1, h, &fp->used);
    char nth_text[16];
    snprintf(nth_text, sizeof nth_text, "%u", (unsigned)nth);
    hash_field(&h, nth_text);
    snprintf(hex, GL_FINGERPRINT_HEX + 1, "%016llx%016llx", (unsigned long long)h.a,
             (unsigned long long)h.b);
}

void gl_fingerprinter_free(struct gl_fingerprinter *fp)
{
    free(fp->slots);
    free(fp->path);
    memset(fp, 0, sizeof *fp);
}

void gl_fingerprints_compute(const struct gl_findings *f, struct gl_fingerprints *out)
{
    out->n = f->n;
    out->hex = xcalloc(f->n ? f->n : 1, sizeof *out->hex);
    struct gl_fingerprinter fp;
    gl_fingerprinter_init(&fp, false);
    for (size_t i = 0; i < f->n; i++)
        gl_fingerprint_next(&fp, &f->items[i], out->hex[i]);
    gl_fingerprinter_free(&fp);
}

void gl_fingerprints_free(struct gl_fingerprints *fp)
{
    free(fp->hex);
    fp->hex = NULL;
    fp->n = 0;
}
