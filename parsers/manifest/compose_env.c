/* SPDX-License-Identifier: Apache-2.0 */
/* compose_env.c: compose's .env file and ${VAR} interpolation (see compose_env.h). */
#include "parsers/manifest/compose_env.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linter/core/limits.h"
#include "linter/core/text.h"

struct cz_var {
    const char *value;
    size_t len;
    bool opaque;              /* the value refers to other variables */
};

enum { MAX_DEFAULT_DEPTH = 8 };

/* ---- reading files beside the compose file ---- */

const char *cz_path_beside(struct gl_doc *doc, const char *name)
{
    const char *slash = strrchr(doc->path, '/');
    if (name[0] == '/' || !slash)
        return name;
    return gl_arena_cat3(&doc->arena, doc->path, (size_t)(slash - doc->path), "/", 1, name,
                         strlen(name));
}

char *cz_read_beside(struct gl_doc *doc, const char *name, size_t cap, size_t *len, bool *over)
{
    const char *path = cz_path_beside(doc, name);
    if (!strcmp(doc->path, "-"))
        return NULL; /* stdin: no directory */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *data = NULL;
    *over = false;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
        gl_read_fd(fd, NULL, 0, (size_t)st.st_size, cap, &data, len, over)) {
        close(fd);
        return NULL;
    }
    close(fd);
    if (*over)
        *len = cap;
    return data;
}

/* ---- .env ---- */

static bool key_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-'; }

/* A quoted value starting at t[*i] (the quote); *i moves past the closing quote. */
static void quoted(struct gl_buf *b, const char *t, size_t n, size_t *i)
{
    char q = t[(*i)++];
    while (*i < n && t[*i] != q) {
        char c = t[(*i)++];
        if (q == '"' && c == '\\' && *i < n) {
            char e = t[(*i)++];
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
        }
        gl_buf_addc(b, c);
    }
    if (*i < n)
        (*i)++;
}

/* One line (or a quoted value running over several) from t[*i]; *i moves to the next. */
static void env_line(struct cz_env *e, struct gl_arena *a, const char *t, size_t n, size_t *i)
{
    size_t p = *i;
    while (p < n && (t[p] == ' ' || t[p] == '\t'))
        p++;
    if (n - p > 7 && !memcmp(t + p, "export ", 7))
        p += 7;
    while (p < n && (t[p] == ' ' || t[p] == '\t'))
        p++;
    size_t k = p;
    while (k < n && key_char(t[k]))
        k++;
    size_t kend = k;
    while (k < n && (t[k] == ' ' || t[k] == '\t'))
        k++;
    if (kend == p || k >= n || (t[k] != '=' && t[k] != ':') || t[p] == '#') {
        while (*i < n && t[*i] != '\n')
            (*i)++;
        *i += *i < n;
        return;
    }
    k++;
    while (k < n && (t[k] == ' ' || t[k] == '\t'))
        k++;
    struct gl_buf b;
    gl_buf_init(&b);
    bool opaque = false;
    if (k < n && (t[k] == '"' || t[k] == '\'')) {
        size_t from = k;
        quoted(&b, t, n, &k);
        opaque = t[from] == '"' && memchr(t + from, '$', k - from);
    } else {
        size_t v = k;
        while (k < n && t[k] != '\n' && t[k] != '\r' &&
               !(t[k] == '#' && k > v && (t[k - 1] == ' ' || t[k - 1] == '\t')))
            k++;
        size_t end = k;
        while (end > v && (t[end - 1] == ' ' || t[end - 1] == '\t'))
            end--;
        gl_buf_add(&b, t + v, end - v);
        opaque = memchr(t + v, '$', end - v) != NULL;
    }
    while (k < n && t[k] != '\n')
        k++;
    *i = k + (k < n);
    struct cz_var *var = gl_arena_alloc(a, sizeof *var);
    var->len = b.len; /* (a NUL in the file is shown: text.h) */
    var->value = gl_arena_nul_shown(a, b.len ? b.data : "", &var->len);
    var->opaque = opaque;
    gl_buf_free(&b);
    *gl_map_put(&e->vars, gl_arena_strndup(a, t + p, kend - p), kend - p, NULL) = var;
}

void cz_env_load(struct cz_env *e, struct gl_doc *doc)
{
    memset(e, 0, sizeof *e);
    gl_map_init(&e->vars);
    size_t len = 0;
    bool over = false;
    /* A .env is read up to `expansion-size` (what interpolation may add to the file at
     * most anyway): variables defined past it are unknown, so opaque, never judged. */
    char *t = cz_read_beside(doc, ".env", (size_t)gl_limit(GL_LIMIT_EXPANSION_SIZE), &len,
                             &over);
    if (!t)
        return;
    if (over) /* keep whole lines only */
        while (len && t[len - 1] != '\n')
            len--;
    for (size_t i = 0; i < len;)
        env_line(e, &doc->arena, t, len, &i);
    free(t);
}

void cz_env_free(struct cz_env *e) { gl_map_free(&e->vars); }

/* ---- interpolation ---- */

/* Copy in[a, b) to out, mapping it through inmap (a segment per inmap segment). */
static void emit_run(struct gl_buf *out, struct gl_srcmap *outmap, const struct gl_srcmap *inmap,
                     const char *in, size_t a, size_t b)
{
    if (a >= b)
        return;
    size_t o = out->len;
    struct gl_loc at = gl_srcmap_loc(inmap, a);
    gl_srcmap_add(outmap, o, at.line, at.col);
    size_t lo = 0, hi = inmap->n; /* first segment starting after a */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (inmap->segs[mid].off <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < inmap->n && inmap->segs[k].off < b; k++) {
        size_t so = inmap->segs[k].off;
        gl_srcmap_add(outmap, o + (so - a), inmap->segs[k].at.line, inmap->segs[k].at.col);
    }
    gl_buf_add(out, in + a, b - a);
}

/* A value from .env: its bytes stand at the `$` (in[at]); false when it cannot be used. */
static bool emit_value(struct gl_doc *doc, struct cz_env *e, const struct cz_var *var,
                       struct gl_buf *out, struct gl_srcmap *outmap,
                       const struct gl_srcmap *inmap, size_t at)
{
    if (var->opaque)
        return false;
    struct gl_loc loc = gl_srcmap_loc(inmap, at);
    if (e->added + var->len > gl_limit(GL_LIMIT_EXPANSION_SIZE)) {
        gl_doc_fail_limit(doc, GL_LIMIT_EXPANSION_SIZE, loc);
        return false;
    }
    e->added += var->len;
    gl_srcmap_add(outmap, out->len, loc.line, loc.col);
    gl_buf_add(out, var->value, var->len);
    return true;
}

static bool name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static void interp(struct gl_doc *doc, struct cz_env *e, const char *in, size_t a, size_t b,
                   const struct gl_srcmap *inmap, struct gl_buf *out, struct gl_srcmap *outmap,
                   bool *opaque);

/* ${NAME OP WORD} at in[i..j) (j past the `}`), NAME at in[i+2..k). False when its value
 * is unknown (the caller keeps the text as written, opaque). */
static bool braced(struct gl_doc *doc, struct cz_env *e, const char *in,
                   const struct gl_srcmap *inmap, size_t i, size_t k, size_t j,
                   struct gl_buf *out, struct gl_srcmap *outmap, bool *opaque)
{
    if (k == i + 2)
        return false; /* no name */
    const struct cz_var *var = gl_map_get(&e->vars, in + i + 2, k - i - 2);
    size_t close = j - 1;
    const char *op = in + k;
    size_t oplen = close - k;
    bool colon = oplen && op[0] == ':';
    char kind = oplen > (size_t)colon ? op[colon] : 0;
    if (!oplen || kind == '?')
        return var && emit_value(doc, e, var, out, outmap, inmap, i);
    if (kind != '-' && kind != '+')
        return false; /* an operator compose does not know */
    if (var && var->opaque && colon)
        return false; /* whether it is empty is unknown */
    bool set = var && (!colon || var->len || var->opaque);
    if (kind == '-' && set)
        return emit_value(doc, e, var, out, outmap, inmap, i);
    if (kind == '+' && !set)
        return true; /* nothing */
    if (e->depth >= MAX_DEFAULT_DEPTH)
        return false;
    e->depth++;
    interp(doc, e, in, k + colon + 1, close, inmap, out, outmap, opaque);
    e->depth--;
    return true;
}

static void interp(struct gl_doc *doc, struct cz_env *e, const char *in, size_t a, size_t b,
                   const struct gl_srcmap *inmap, struct gl_buf *out, struct gl_srcmap *outmap,
                   bool *opaque)
{
    size_t i = a, run = a;
    while (i < b) {
        if (in[i] != '$' || i + 1 >= b) {
            i++;
            continue;
        }
        emit_run(out, outmap, inmap, in, run, i);
        if (in[i + 1] == '$') { /* $$ -> $ */
            emit_run(out, outmap, inmap, in, i, i + 1);
            i += 2;
        } else if (in[i + 1] == '{') {
            size_t j = i + 2, depth = 1;
            while (j < b && depth) {
                depth += in[j] == '{';
                depth -= in[j] == '}';
                j++;
            }
            if (depth) { /* unterminated: literal */
                emit_run(out, outmap, inmap, in, i, b);
                run = i = b;
                break;
            }
            size_t k = i + 2;
            if (k < j - 1 && name_start(in[k]))
                while (k < j - 1 && name_char(in[k]))
                    k++;
            if (!braced(doc, e, in, inmap, i, k, j, out, outmap, opaque)) {
                emit_run(out, outmap, inmap, in, i, j);
                *opaque = true;
            }
            i = j;
        } else if (name_start(in[i + 1])) {
            size_t j = i + 1;
            while (j < b && name_char(in[j]))
                j++;
            const struct cz_var *var = gl_map_get(&e->vars, in + i + 1, j - i - 1);
            if (!var || !emit_value(doc, e, var, out, outmap, inmap, i)) {
                emit_run(out, outmap, inmap, in, i, j);
                *opaque = true;
            }
            i = j;
        } else {
            emit_run(out, outmap, inmap, in, i, i + 1);
            i++;
        }
        run = i;
    }
    emit_run(out, outmap, inmap, in, run, b);
}

void cz_interpolate(struct gl_doc *doc, struct cz_env *e, const char *in, size_t len,
                    const struct gl_srcmap *inmap, struct gl_buf *out, struct gl_srcmap *outmap,
                    bool *opaque)
{
    interp(doc, e, in, 0, len, inmap, out, outmap, opaque);
}
