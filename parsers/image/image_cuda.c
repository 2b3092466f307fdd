/* SPDX-License-Identifier: Apache-2.0 */
/* image_cuda.c: CUDA versions from image files (see image_cuda.h). */
#include "parsers/image/image_cuda.h"

#include <string.h>

#include "knowledge/derive/cuda_derive.h"
#include "linter/core/limits.h"
#include "parsers/image/image_json.h"

/* Copy the leading "X.Y[.Z]" of s (digits and dots, at most `parts` parts) into the arena;
 * NULL when s does not start with X.Y. */
static const char *version_at(struct gl_arena *a, const char *s, int parts)
{
    size_t n = 0;
    int dots = 0;
    while ((s[n] >= '0' && s[n] <= '9') || (s[n] == '.' && s[n + 1] >= '0' && s[n + 1] <= '9')) {
        if (s[n] == '.' && ++dots >= parts)
            break;
        n++;
    }
    if (!dots || n == 0 || s[0] == '.')
        return NULL;
    return gl_arena_strndup(a, s, n);
}

static const char *version_json(struct gl_arena *a, const char *text, size_t len)
{
    struct gl_json_error err;
    if (gl_json_check(text, len, gl_limit(GL_LIMIT_NESTING_DEPTH), &err) != 0)
        return NULL;
    struct gl_json cuda = gl_json_get_kind(gl_json_root(text), "cuda", '{');
    const char *v = gl_json_get_string(a, cuda, "version");
    return v ? version_at(a, v, 3) : NULL;
}

static const char *after(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    return p ? p + strlen(needle) : NULL;
}

/* torch/version.py: `cuda = '12.1'` or `cuda: Optional[str] = '12.1'` */
static const char *torch_cuda(struct gl_arena *a, const char *text)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, "cuda", 4) || (line[4] != ' ' && line[4] != ':' && line[4] != '='))
            continue;
        const char *eq = strchr(line, '=');
        const char *nl = strchr(line, '\n');
        if (!eq || (nl && eq > nl))
            continue;
        const char *q = eq + 1;
        while (*q == ' ')
            q++;
        if (*q == '\'' || *q == '"')
            return version_at(a, q + 1, 3);
        return NULL; /* cuda = None: a CPU build */
    }
    return NULL;
}

static void add(struct gl_doc *doc, enum gl_cuda_source kind, const char *version,
                const char *label, const char *framework)
{
    struct gl_cuda_fact *f = gl_cuda_add_fact(doc, kind, version, label, (struct gl_loc){0, 0});
    if (f)
        f->framework = framework;
}

/* The value of header `key` ("Name", "Version") in a METADATA text: RFC 822 headers up to
 * the first empty line (the long description follows). NULL when absent. */
static const char *header(struct gl_arena *a, const char *text, size_t len, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        size_t n = e - i - (e > i && text[e - 1] == '\r');
        if (n == 0)
            return NULL; /* the headers end */
        if (n > kl + 1 && !strncmp(text + i, key, kl) && text[i + kl] == ':') {
            size_t v = i + kl + 1;
            while (v < i + n && (text[v] == ' ' || text[v] == '\t'))
                v++;
            return v < i + n && i + n - v < 128 ? gl_arena_strndup(a, text + v, i + n - v)
                                                : NULL;
        }
        i = e + 1;
    }
    return NULL;
}

/* Is f the METADATA of a *.dist-info directory? */
static bool dist_metadata(const struct gl_image_file *f)
{
    const char *base = gl_base_name(f->path);
    size_t dl = (size_t)(base - f->path);
    return f->content && !strcmp(base, "METADATA") && dl > 11 &&
           !memcmp(base - 11, ".dist-info/", 11);
}

/* Facts of the installed Python distributions; true when one of them is a torch with a CUDA
 * local version (it stands for torch/version.py). */
static bool dist_facts(struct gl_doc *doc, const struct gl_image_platform *p,
                       const struct gl_kb *kb)
{
    struct gl_arena *a = &doc->arena;
    bool torch = false;
    const char *seen[16]; /* CUDA versions already given: one fact each (the first file) */
    size_t nseen = 0;
    for (size_t i = 0; i < p->nfiles; i++) {
        const struct gl_image_file *f = &p->files[i];
        if (!dist_metadata(f))
            continue;
        const char *name = header(a, f->content, f->content_len, "Name");
        const char *version = header(a, f->content, f->content_len, "Version");
        if (!name || !version)
            continue;
        size_t before = doc->ncuda;
        const char *label = gl_arena_printf(a, "%s %s (/%s)", name, version, f->path);
        struct gl_cuda_fact *fact = gl_cuda_derive_dist(doc, kb, name, version, label);
        if (!fact)
            continue;
        bool is_torch = fact->torch != NULL;
        bool dup = false;
        for (size_t k = 0; k < nseen && !dup && !is_torch; k++)
            dup = !strcmp(seen[k], fact->version);
        if (dup) {
            doc->ncuda = before; /* nvidia-cublas-cu12 after nvidia-cudnn-cu12: the same */
            continue;
        }
        if (nseen < sizeof seen / sizeof seen[0])
            seen[nseen++] = fact->version;
        torch = torch || is_torch;
    }
    return torch;
}

void gl_image_cuda_facts(struct gl_doc *doc, const struct gl_image_platform *p,
                         const struct gl_kb *kb)
{
    struct gl_arena *a = &doc->arena;
    bool torch_dist = dist_facts(doc, p, kb);
    /* the toolkit's version: the most precise source wins (version file, then the
     * runtime library, then the directory name); torch's CUDA is a fact of its own */
    const char *best[3] = {NULL, NULL, NULL}, *label[3] = {NULL, NULL, NULL};
    const char *torch = NULL, *torch_label = NULL;
    for (size_t i = 0; i < p->nfiles; i++) {
        const struct gl_image_file *f = &p->files[i];
        const char *base = gl_base_name(f->path);
        const char *v = NULL;
        int rank = -1;
        if (f->content && !strcmp(base, "version.json"))
            v = version_json(a, f->content, f->content_len), rank = 0;
        else if (f->content && !strcmp(base, "version.txt") && (v = after(f->content, "CUDA Version ")))
            v = version_at(a, v, 3), rank = 0;
        else if (gl_has_prefix(base, "libcudart.so.") && strchr(base + 13, '.'))
            v = version_at(a, base + 13, 2), rank = 1;
        else if (f->type == GL_FILE_DIR && gl_has_prefix(f->path, "usr/local/cuda-") &&
                 !strchr(f->path + 15, '/'))
            v = version_at(a, f->path + 15, 2), rank = 2;
        else if (!torch && f->content && !strcmp(base, "version.py") && (v = torch_cuda(a, f->content))) {
            torch = v;
            torch_label = gl_arena_printf(a, "torch (/%s)", f->path);
            continue;
        }
        if (v && rank >= 0 && !best[rank]) {
            best[rank] = v;
            label[rank] = gl_arena_printf(a, "/%s%s in the image", f->path,
                                          f->type == GL_FILE_DIR ? "/" : "");
        }
    }
    for (int r = 0; r < 3; r++)
        if (best[r]) {
            add(doc, GL_CUDA_IMAGE_FILE, best[r], label[r], NULL);
            break;
        }
    if (torch && !torch_dist)
        add(doc, GL_CUDA_FRAMEWORK, torch, torch_label, "torch");
}
