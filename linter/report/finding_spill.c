/* SPDX-License-Identifier: Apache-2.0 */
/* finding_spill.c: findings in sorted runs on a temporary file (see finding_spill.h). */
#include "linter/report/finding_spill.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linter/core/limits.h"
#include "linter/report/report_text.h"

enum { NSTR = 8, READ_BUF = 16384 };

/* A record: this head, then the NSTR strings, each with its NUL (len 0: NULL). */
struct rec_head {
    uint32_t size; /* of the whole record */
    uint32_t severity, line, col, moot_when;
    uint32_t len[NSTR];
    uint64_t seq, said_at, said_len;
    const struct gl_rule *rule;
};

/* The NSTR string fields of a finding, in the record's order. */
#define STR_FIELDS(f)                                                                      \
    {&(f)->file,  &(f)->message,    &(f)->fix,   &(f)->platform,                           \
     &(f)->layer, &(f)->image_path, &(f)->image, &(f)->arg}

static char **str_field(struct gl_finding *f, int i)
{
    char **fields[NSTR] = STR_FIELDS(f);
    return fields[i];
}

static void encode(struct gl_buf *b, const struct gl_finding *f, uint64_t seq)
{
    struct gl_finding *m = (struct gl_finding *)f; /* str_field only reads through it */
    struct rec_head h = {.severity = (uint32_t)f->severity, .line = f->loc.line,
                         .col = f->loc.col, .moot_when = f->moot_when, .seq = seq,
                         .said_at = f->said_at, .said_len = f->said_len, .rule = f->rule};
    size_t size = sizeof h;
    for (int i = 0; i < NSTR; i++) {
        const char *s = *str_field(m, i);
        h.len[i] = s ? (uint32_t)strlen(s) + 1 : 0;
        size += h.len[i];
    }
    h.size = (uint32_t)size;
    gl_buf_add(b, &h, sizeof h);
    for (int i = 0; i < NSTR; i++)
        if (h.len[i]) /* (NULL: no bytes) */
            gl_buf_add(b, *str_field(m, i), h.len[i]);
}

/* The finding of the record at p (its strings point into it); its seq. */
static uint64_t decode(const char *p, struct gl_finding *f)
{
    struct rec_head h;
    memcpy(&h, p, sizeof h);
    memset(f, 0, sizeof *f);
    f->rule = h.rule;
    f->severity = (enum gl_severity)h.severity;
    f->loc = (struct gl_loc){h.line, h.col};
    f->moot_when = h.moot_when;
    f->said_at = (size_t)h.said_at;
    f->said_len = (size_t)h.said_len;
    const char *s = p + sizeof h;
    for (int i = 0; i < NSTR; i++) {
        *str_field(f, i) = h.len[i] ? (char *)s : NULL;
        s += h.len[i];
    }
    return h.seq;
}

/* (the fields listed once, not once a field: held_bytes is asked of every finding) */
static size_t held_bytes(const struct gl_finding *f)
{
    struct gl_finding *m = (struct gl_finding *)f; /* only read through */
    char **const fields[NSTR] = STR_FIELDS(m);
    size_t n = sizeof *f;
    for (int i = 0; i < NSTR; i++)
        n += *fields[i] ? strlen(*fields[i]) + 1 + 16 : 0; /* and the allocator's own words */
    return n;
}

void gl_spill_init(struct gl_spill *s)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

void gl_spill_free(struct gl_spill *s)
{
    if (s->out)
        fclose(s->out); /* and its descriptor */
    free(s->runs);
    free(s->prefix);
    free(s->sorted);
    gl_spill_init(s);
}

/* ---- the prefix findings name their files with ---- */

static void note_prefix(char **prefix, bool *mixed, const struct gl_finding *f)
{
    size_t n = (size_t)(gl_text_report_path(f->file) - f->file);
    if (!*prefix) {
        *prefix = xmalloc(n + 1);
        memcpy(*prefix, f->file, n);
        (*prefix)[n] = 0;
    } else if (strlen(*prefix) != n || memcmp(*prefix, f->file, n) != 0) {
        *mixed = true;
    }
}

bool gl_spill_one_prefix(const struct gl_spill *s, const struct gl_findings *findings)
{
    if (s->mixed_prefixes)
        return false;
    char *prefix = s->prefix ? xstrdup(s->prefix) : NULL;
    bool mixed = false;
    for (size_t i = s->noted; i < findings->n && !mixed; i++)
        note_prefix(&prefix, &mixed, &findings->items[i]);
    free(prefix);
    return !mixed;
}

/* ---- writing sorted runs ---- */

static bool open_file(struct gl_spill *s)
{
    if (s->fd >= 0)
        return true;
    const char *dir = getenv("TMPDIR");
    struct gl_buf path;
    gl_buf_init(&path);
    gl_buf_printf(&path, "%s/gpulint-findings.XXXXXX", dir && *dir ? dir : "/tmp");
    s->fd = mkostemp(path.data, O_CLOEXEC);
    if (s->fd >= 0) {
        unlink(path.data);
        s->out = fdopen(s->fd, "w"); /* runs are written in order; read back with pread */
        if (!s->out) {
            close(s->fd);
            s->fd = -1;
        }
    }
    gl_buf_free(&path);
    return s->fd >= 0;
}

/* Append b's bytes to the file and empty b (false: they could not be written). */
static bool append(struct gl_spill *s, struct gl_buf *b, off_t *end)
{
    if (!b->len)
        return true;
    bool ok = fwrite(b->data, 1, b->len, s->out) == b->len;
    *end += (off_t)b->len;
    b->len = 0;
    return ok;
}

/* The bytes appended so far are in the file (for pread). */
static bool flush(struct gl_spill *s) { return fflush(s->out) == 0; }

static void add_run(struct gl_spill *s, off_t at, off_t end)
{
    if (s->nruns == s->capruns) {
        s->capruns = s->capruns ? 2 * s->capruns : 16;
        s->runs = xrealloc(s->runs, s->capruns * sizeof *s->runs);
    }
    s->runs[s->nruns++] = (struct gl_spill_run){at, end};
    s->size = end;
}

static int ptr_cmp(const void *pa, const void *pb)
{
    const struct gl_finding *a = *(const struct gl_finding *const *)pa,
                            *b = *(const struct gl_finding *const *)pb;
    int c = gl_finding_cmp(a, b);
    return c ? c : a < b ? -1 : a > b;
}

/* The list's findings in report order, ties in the order found. */
static const struct gl_finding **sort_list(const struct gl_findings *f)
{
    const struct gl_finding **p = xmalloc((f->n ? f->n : 1) * sizeof *p);
    for (size_t i = 0; i < f->n; i++)
        p[i] = &f->items[i];
    if (!gl_findings_in_order(f, 0)) /* (in order: the ties too, by their address) */
        qsort(p, f->n, sizeof *p, ptr_cmp);
    return p;
}

static bool keep_none(const struct gl_finding *f, void *ctx)
{
    (void)f, (void)ctx;
    return false;
}

/* Write the list as one sorted run and empty it. */
static void spill(struct gl_spill *s, struct gl_findings *findings)
{
    if (s->broken || !findings->n)
        return;
    if (!open_file(s)) {
        s->broken = true;
        return;
    }
    const struct gl_finding **sorted = sort_list(findings);
    struct gl_buf b;
    gl_buf_init(&b);
    off_t at = s->size, end = at;
    bool ok = true;
    for (size_t i = 0; i < findings->n && ok; i++) {
        const struct gl_finding *f = sorted[i];
        encode(&b, f, s->spilled + (uint64_t)(f - findings->items));
        if (b.len >= 65536)
            ok = append(s, &b, &end);
    }
    ok = ok && append(s, &b, &end) && flush(s);
    gl_buf_free(&b);
    free(sorted);
    if (!ok) { /* the run is not counted (its bytes are never read): stay in memory */
        s->broken = true;
        return;
    }
    add_run(s, at, end);
    s->spilled += findings->n;
    gl_findings_filter(findings, 0, keep_none, NULL);
    s->held = 0;
    s->noted = 0;
}

void gl_spill_note(struct gl_spill *s, struct gl_findings *findings)
{
    for (size_t i = s->noted; i < findings->n; i++) {
        s->held += held_bytes(&findings->items[i]);
        if (!s->mixed_prefixes)
            note_prefix(&s->prefix, &s->mixed_prefixes, &findings->items[i]);
    }
    s->noted = findings->n;
    if (s->held > gl_limit(GL_LIMIT_FINDINGS_MEMORY))
        spill(s, findings);
}

/* ---- merging ---- */

struct gl_spill_source {
    int fd;
    off_t at, end;                  /* the run's bytes not yet read */
    char *buf;
    size_t pos, len, cap;           /* buf[pos, len): read, not yet used */
    const struct gl_finding **list; /* or the sorted list */
    size_t i, n;
    uint64_t list_seq;              /* the seq of list item 0 */
    const struct gl_findings *items;
    struct gl_finding cur;          /* the source's current finding */
    uint64_t seq;
    size_t cur_size;                /* its record's bytes in buf (a run) */
};

/* Make buf[pos..] hold `need` bytes; false at the run's end. */
static bool fill(struct gl_spill_source *src, size_t need)
{
    if (src->len - src->pos >= need)
        return true;
    memmove(src->buf, src->buf + src->pos, src->len - src->pos);
    src->len -= src->pos;
    src->pos = 0;
    if (need > src->cap) {
        src->cap = need;
        src->buf = xrealloc(src->buf, src->cap);
    }
    while (src->len < need && src->at < src->end) {
        size_t want = src->cap - src->len;
        if ((off_t)want > src->end - src->at)
            want = (size_t)(src->end - src->at);
        ssize_t k = pread(src->fd, src->buf + src->len, want, src->at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        src->len += (size_t)k;
        src->at += k;
    }
    return src->len - src->pos >= need;
}

/* Move a source to its next finding; false at its end. */
static bool advance(struct gl_spill_source *src)
{
    if (src->list) {
        if (src->i >= src->n)
            return false;
        const struct gl_finding *f = src->list[src->i++];
        src->cur = *f;
        src->seq = src->list_seq + (uint64_t)(f - src->items->items);
        return true;
    }
    src->pos += src->cur_size;
    src->cur_size = 0;
    uint32_t size;
    if (!fill(src, sizeof(struct rec_head)))
        return false;
    memcpy(&size, src->buf + src->pos, sizeof size);
    if (size < sizeof(struct rec_head) || !fill(src, size))
        return false;
    src->seq = decode(src->buf + src->pos, &src->cur);
    src->cur_size = size;
    return true;
}

static bool source_less(const struct gl_spill_source *a, const struct gl_spill_source *b)
{
    int c = gl_finding_cmp(&a->cur, &b->cur);
    return c ? c < 0 : a->seq < b->seq;
}

/* The heap of live sources src[0..n) (the least first). */
static void sift_down(struct gl_spill_source *src, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && source_less(&src[l], &src[m]))
            m = l;
        if (l + 1 < n && source_less(&src[l + 1], &src[m]))
            m = l + 1;
        if (m == i)
            return;
        struct gl_spill_source t = src[i];
        src[i] = src[m];
        src[m] = t;
        i = m;
    }
}

/* Sources for the runs [from, to) of s, and the sorted list when `list` is set. */
static void open_sources(struct gl_finding_cursor *c, const struct gl_spill *s, size_t from,
                         size_t to, const struct gl_findings *list)
{
    size_t n = to - from + (list ? 1 : 0);
    c->src = xcalloc(n ? n : 1, sizeof *c->src);
    c->nsrc = 0;
    for (size_t r = from; r < to + (list ? 1 : 0); r++) {
        struct gl_spill_source *src = &c->src[c->nsrc];
        memset(src, 0, sizeof *src);
        if (r < to) {
            src->fd = s->fd;
            src->at = s->runs[r].at;
            src->end = s->runs[r].end;
            src->cap = READ_BUF;
            src->buf = xmalloc(src->cap);
        } else {
            src->list = s->sorted;
            src->n = list->n;
            src->items = list;
            src->list_seq = s->spilled;
        }
        if (advance(src))
            c->nsrc++;
        else
            free(src->buf);
    }
    for (size_t i = c->nsrc / 2; i-- > 0;)
        sift_down(c->src, c->nsrc, i);
}

/* The least finding of the merge, copied into buf and decoded into f; false at the end. */
static bool pop(struct gl_finding_cursor *c, struct gl_buf *buf, struct gl_finding *f)
{
    if (!c->nsrc)
        return false;
    struct gl_spill_source *top = &c->src[0];
    buf->len = 0;
    encode(buf, &top->cur, top->seq);
    decode(buf->data, f);
    if (!advance(top)) {
        free(top->buf);
        c->src[0] = c->src[--c->nsrc];
    }
    sift_down(c->src, c->nsrc, 0);
    return true;
}

/* Merge the runs beyond GL_SPILL_FAN_IN into longer ones, so a merge reads at most that
 * many at once (when the file takes no more, the merge reads them all). */
static void cascade(struct gl_spill *s)
{
    while (s->nruns > GL_SPILL_FAN_IN && !s->broken) {
        struct gl_finding_cursor c;
        gl_cursor_init(&c, NULL, NULL);
        open_sources(&c, s, 0, GL_SPILL_FAN_IN, NULL);
        struct gl_buf b;
        gl_buf_init(&b);
        off_t at = s->size, end = at;
        bool ok = true;
        while (ok && pop(&c, &c.cand, &c.cand_f)) {
            gl_buf_add(&b, c.cand.data, c.cand.len);
            if (b.len >= 65536)
                ok = append(s, &b, &end);
        }
        ok = ok && append(s, &b, &end) && flush(s);
        gl_buf_free(&b);
        gl_cursor_free(&c);
        if (!ok) {
            s->broken = true;
            return;
        }
        memmove(s->runs, s->runs + GL_SPILL_FAN_IN,
                (s->nruns - GL_SPILL_FAN_IN) * sizeof *s->runs);
        s->nruns -= GL_SPILL_FAN_IN;
        add_run(s, at, end);
    }
}

static void count(struct gl_spill *s, const struct gl_finding *f)
{
    s->by_severity[(unsigned)f->severity < GL_SEV_NONE ? f->severity : GL_SEV_NONE]++;
    s->n++;
}

void gl_spill_finish(struct gl_spill *s, struct gl_findings *findings,
                     bool (*keep)(const struct gl_finding *, void *), void *ctx)
{
    s->keep = keep;
    s->keep_ctx = ctx;
    s->finished = true;
    memset(s->by_severity, 0, sizeof s->by_severity);
    s->n = 0;
    if (!s->nruns) { /* all in memory, as it always was */
        if (keep)
            gl_findings_filter(findings, 0, keep, ctx);
        gl_findings_sort(findings);
        for (size_t i = 0; i < findings->n; i++)
            count(s, &findings->items[i]);
        return;
    }
    cascade(s);
    free(s->sorted);
    s->sorted = sort_list(findings);
    struct gl_finding_cursor c;
    gl_cursor_init(&c, findings, s);
    for (const struct gl_finding *f; (f = gl_cursor_next(&c));) {
        count(s, f);
    }
    gl_cursor_free(&c);
}

/* ---- the cursor ---- */

void gl_cursor_init(struct gl_finding_cursor *c, const struct gl_findings *list,
                    const struct gl_spill *spill)
{
    memset(c, 0, sizeof *c);
    gl_buf_init(&c->last);
    gl_buf_init(&c->cand);
    c->list = list;
    c->spill = spill;
    if (spill && spill->nruns && spill->finished) {
        c->list = NULL;
        open_sources(c, spill, 0, spill->nruns, list);
    }
}

const struct gl_finding *gl_cursor_next(struct gl_finding_cursor *c)
{
    if (c->list)
        return c->i < c->list->n ? &c->list->items[c->i++] : NULL;
    while (pop(c, &c->cand, &c->cand_f)) {
        if (c->spill->keep && !c->spill->keep(&c->cand_f, c->spill->keep_ctx))
            continue;
        if (c->have_last && gl_finding_repeats(&c->last_f, &c->cand_f))
            continue;
        struct gl_buf t = c->last; /* the candidate is the finding returned now */
        c->last = c->cand;
        c->cand = t;
        c->last_f = c->cand_f;
        c->have_last = true;
        return &c->last_f;
    }
    return NULL;
}

void gl_cursor_free(struct gl_finding_cursor *c)
{
    for (size_t i = 0; i < c->nsrc; i++)
        free(c->src[i].buf);
    free(c->src);
    gl_buf_free(&c->last);
    gl_buf_free(&c->cand);
    memset(c, 0, sizeof *c);
}
