/* SPDX-License-Identifier: Apache-2.0 */
/* model_ref.c: queries over parsed image references (see model_ref.h). */
#include "linter/core/model.h"

#include "linter/core/ref/imageref.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_DOMAIN "docker.io"

static struct gl_loc loc_at(struct gl_loc loc, size_t offset)
{
    uint32_t col = offset >= (size_t)(UINT32_MAX - loc.col) ? UINT32_MAX
                                                            : loc.col + (uint32_t)offset;
    return (struct gl_loc){loc.line, col};
}

/* ---- matching helpers ---- */

bool gl_imageref_is_docker_hub(const struct gl_imageref *ref)
{
    return ref->domain && gl_streq(ref->domain, DEFAULT_DOMAIN);
}

bool gl_imageref_local_only(const struct gl_imageref *ref)
{
    return ref->raw && gl_imageref_text_local_only(ref->raw, strlen(ref->raw));
}

const char *gl_imageref_full_name(struct gl_arena *a, const struct gl_imageref *ref)
{
    if (!ref->domain)
        return ref->path;
    return gl_arena_printf(a, "%s/%s", ref->domain, ref->path);
}

/* One spelling of the repository name: head, or head + "/" + tail when tail is set. */
struct spelling {
    const char *head, *tail;
    size_t head_len, len;
};

static struct spelling spelling_of(const char *head, const char *tail)
{
    struct spelling sp = {head, tail, strlen(head), 0};
    sp.len = sp.head_len + (tail ? 1 + strlen(tail) : 0);
    return sp;
}

static char spelling_at(const struct spelling *sp, size_t i)
{
    if (i < sp->head_len)
        return sp->head[i];
    if (i == sp->head_len)
        return sp->tail ? '/' : '\0';
    return i < sp->len ? sp->tail[i - sp->head_len - 1] : '\0';
}

enum match_mode { MATCH_EXACT, MATCH_PREFIX, MATCH_NAMESPACE };

/* Compare the spelling with pat[0..n) in the given mode: the head, then the '/' and the
 * tail when pat goes past the head (then the tail is set: sp->len >= n > head_len). */
static bool spelling_matches(const struct spelling *sp, const char *pat, size_t n,
                             enum match_mode mode)
{
    if (sp->len < n)
        return false;
    size_t h = n < sp->head_len ? n : sp->head_len;
    if (memcmp(sp->head, pat, h))
        return false;
    if (n > sp->head_len && (pat[sp->head_len] != '/' ||
                             memcmp(sp->tail, pat + sp->head_len + 1, n - sp->head_len - 1)))
        return false;
    switch (mode) {
    case MATCH_EXACT:
        return sp->len == n;
    case MATCH_PREFIX:
        return true;
    case MATCH_NAMESPACE:
        return sp->len > n + 1 && spelling_at(sp, n) == '/';
    }
    return false;
}

/* One spelling against pat[0..n): a first byte that differs rules it out before the
 * lengths are taken (a non-empty head's first byte is the spelling's first). */
static bool spelling_is(const char *head, const char *tail, const char *pat, size_t n,
                        enum match_mode mode)
{
    if (n && head[0] && head[0] != pat[0])
        return false;
    struct spelling sp = spelling_of(head, tail);
    return spelling_matches(&sp, pat, n, mode);
}

/* Try every accepted spelling: familiar, bare path on Docker Hub, domain/path. */
static bool repo_matches(const struct gl_imageref *ref, const char *pat, size_t n,
                         enum match_mode mode)
{
    if (!ref->path || !ref->familiar || !pat)
        return false;
    if (spelling_is(ref->familiar, NULL, pat, n, mode))
        return true;
    if (gl_imageref_is_docker_hub(ref) && spelling_is(ref->path, NULL, pat, n, mode))
        return true;
    return ref->domain && spelling_is(ref->domain, ref->path, pat, n, mode);
}

bool gl_imageref_repo_is(const struct gl_imageref *ref, const char *name)
{
    return name && repo_matches(ref, name, strlen(name), MATCH_EXACT);
}

bool gl_imageref_repo_has_prefix(const struct gl_imageref *ref, const char *prefix)
{
    return prefix && repo_matches(ref, prefix, strlen(prefix), MATCH_PREFIX);
}

bool gl_imageref_in_namespace(const struct gl_imageref *ref, const char *ns)
{
    if (!ns)
        return false;
    size_t n = strlen(ns);
    while (n > 0 && ns[n - 1] == '/') /* "nvcr.io/nvidia" and "nvcr.io/nvidia/" agree */
        n--;
    return n > 0 && repo_matches(ref, ns, n, MATCH_NAMESPACE);
}

bool gl_imageref_is_unpinned_latest(const struct gl_imageref *ref)
{
    return !ref->digest && (!ref->tag || strcmp(ref->tag, "latest") == 0);
}

/* ---- patterns of images the project makes ---- */

struct gl_project_image *gl_project_add(struct gl_doc *doc, unsigned what, const char *text,
                                        const char *pattern, struct gl_loc loc,
                                        const char *tool)
{
    struct gl_project_image *p =
        GL_APPEND(&doc->arena, doc->project, doc->nproject, doc->capproject);
    p->what = what;
    p->text = gl_arena_strdup(&doc->arena, text);
    p->pattern = pattern ? gl_arena_strdup(&doc->arena, pattern) : p->text;
    p->loc = loc;
    p->tool = tool;
    return p;
}

/* Does text[0..n) match glob pat[0..m) ('*': any run of bytes)? Iterative, with one
 * backtrack point: O(n * m) at worst. */
static bool glob_match(const char *pat, size_t m, const char *text, size_t n)
{
    size_t p = 0, t = 0, star = SIZE_MAX, mark = 0;
    while (t < n) {
        if (p < m && pat[p] == '*') {
            star = p++;
            mark = t;
        } else if (p < m && pat[p] == text[t]) {
            p++;
            t++;
        } else if (star != SIZE_MAX) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < m && pat[p] == '*')
        p++;
    return p == m;
}

/* Where a pattern's repository ends (its tag's ':' or digest's '@', else its end), and
 * where its last component starts. */
static size_t pattern_repo_end(const char *pattern, size_t *last)
{
    const char *slash = strrchr(pattern, '/');
    size_t from = slash ? (size_t)(slash - pattern) + 1 : 0;
    *last = from;
    return from + strcspn(pattern + from, ":@");
}

size_t gl_project_pattern_key(const char *pattern, const char **start)
{
    size_t last, end = pattern_repo_end(pattern, &last);
    *start = pattern + last;
    return memchr(pattern + last, '*', end - last) ? 0 : end - last;
}

/* The last component holds a letter or digit written literally (all of it, or around a
 * '*'). */
static bool last_component_written(const char *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((c[i] >= 'a' && c[i] <= 'z') || (c[i] >= '0' && c[i] <= '9'))
            return true;
    return false;
}

static bool repo_glob_matches(const struct gl_imageref *ref, const char *pat, size_t n,
                              struct gl_arena *a)
{
    if (glob_match(pat, n, ref->familiar, strlen(ref->familiar)))
        return true;
    if (gl_imageref_is_docker_hub(ref) && glob_match(pat, n, ref->path, strlen(ref->path)))
        return true;
    const char *full = gl_imageref_full_name(a, ref);
    return glob_match(pat, n, full, strlen(full));
}

bool gl_project_pattern_names_some(const char *pattern)
{
    size_t last, end = pattern_repo_end(pattern, &last);
    return last_component_written(pattern + last, end - last);
}

bool gl_project_pattern_names(const char *pattern, bool by_tag, const struct gl_imageref *ref,
                              struct gl_arena *scratch)
{
    if (!pattern || !ref->path || !ref->familiar || !gl_project_pattern_names_some(pattern))
        return false;
    size_t last, end = pattern_repo_end(pattern, &last);
    bool glob_repo = memchr(pattern, '*', end) != NULL;
    if (glob_repo) {
        if (!repo_glob_matches(ref, pattern, end, scratch))
            return false;
    } else {
        struct gl_imageref p;
        if (gl_imageref_parse(scratch, pattern, end, (struct gl_loc){0, 0}, &p, NULL) != 0 ||
            strcmp(p.path, ref->path) || !p.domain != !ref->domain ||
            (p.domain && strcmp(p.domain, ref->domain)))
            return false;
    }
    const char *tag = pattern[end] == ':' ? pattern + end + 1 : NULL;
    size_t tag_len = tag ? strcspn(tag, "@") : 0;
    if (!by_tag && !tag)
        return true; /* a kustomization's name: any tag */
    if (!tag && end > 0 && pattern[end - 1] == '*')
        return true; /* `app$SUFFIX`: the tag may be in the unresolved part */
    const char *have = ref->tag ? ref->tag : "latest";
    if (!tag)
        return !strcmp(have, "latest");
    return glob_match(tag, tag_len, have, strlen(have));
}

/* ---- tag tokens ---- */

static bool is_token_separator(char c) { return c == '-' || c == '_'; }

size_t gl_imageref_tag_tokens(struct gl_arena *a, const char *tag,
                              struct gl_imageref_token **out)
{
    struct gl_imageref_token *tokens = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; tag && tag[i];) {
        if (is_token_separator(tag[i])) {
            i++;
            continue;
        }
        size_t start = i;
        while (tag[i] && !is_token_separator(tag[i]))
            i++;
        struct gl_imageref_token *t = GL_APPEND(a, tokens, n, cap);
        t->text = gl_arena_strndup(a, tag + start, i - start);
        t->offset = start;
        t->len = i - start;
    }
    *out = tokens;
    return n;
}

/* The next token of tag at or after *i: its first byte into *start, *i just past it; false
 * at the tag's end. */
static bool next_token(const char *tag, size_t *i, size_t *start)
{
    while (tag[*i] && is_token_separator(tag[*i]))
        (*i)++;
    *start = *i;
    while (tag[*i] && !is_token_separator(tag[*i]))
        (*i)++;
    return *i > *start;
}

bool gl_imageref_tag_has_token(const char *tag, const char *token)
{
    if (!tag || !token || !*token || !strstr(tag, token)) /* not in it at all: most tags */
        return false;
    size_t tl = strlen(token);
    for (size_t i = 0, start; next_token(tag, &i, &start);)
        if (i - start == tl && memcmp(tag + start, token, tl) == 0)
            return true;
    return false;
}

/* The kind of a dot-separated group of a version token: digits, one letter written one to four
 * times (`yy`, `XX`), digits then an `x` run (`2x` of `2x.xx`), or none of these. */
enum group_kind { GROUP_OTHER, GROUP_DIGITS, GROUP_LETTERS, GROUP_DIGITS_X };

static enum group_kind group_kind(const char *g, size_t n)
{
    size_t d = 0;
    while (d < n && isdigit((unsigned char)g[d]))
        d++;
    if (d == n)
        return n ? GROUP_DIGITS : GROUP_OTHER;
    size_t k = d;
    while (k < n && g[k] == g[d] && k - d < 4)
        k++;
    if (k < n || !isalpha((unsigned char)g[d]))
        return GROUP_OTHER;
    if (!d)
        return GROUP_LETTERS;
    return g[d] == 'x' || g[d] == 'X' ? GROUP_DIGITS_X : GROUP_OTHER;
}

/* Is [t, t+n) a version written as letters (`YY.MM`, `yy.mm`, `xx.yy`, `X.Y.Z`): two to four
 * dot-separated groups, each one letter written one to four times? Or one the reader completes
 * (`24.xx`, `23.XX`, `12.x`, `12.4.x`, `2x.xx`): digit groups beside at least one `x` group
 * (an `x` run, or digits then one), no other letter (`yy.05` and `1.a` are not). */
static bool letters_version(const char *t, size_t n)
{
    size_t groups = 0, letters = 0, other_letters = 0, xs = 0;
    for (size_t i = 0; i < n;) {
        size_t start = i;
        while (i < n && t[i] != '.')
            i++;
        enum group_kind k = group_kind(t + start, i - start);
        if (k == GROUP_OTHER || (i < n && ++i == n)) /* (a trailing dot) */
            return false;
        bool x = t[start] == 'x' || t[start] == 'X';
        groups++;
        letters += k == GROUP_LETTERS;
        other_letters += k == GROUP_LETTERS && !x;
        xs += k == GROUP_DIGITS_X || (k == GROUP_LETTERS && x);
    }
    if (groups < 2 || groups > 4)
        return false;
    return letters == groups || (!other_letters && xs);
}

bool gl_imageref_tag_placeholder(const char *tag)
{
    static const char *const words[] = {"tag", "TAG", "Tag", "version", "VERSION", NULL};
    if (!tag)
        return false;
    for (size_t i = 0; words[i]; i++)
        if (!strcmp(tag, words[i]))
            return true;
    for (size_t i = 0, start; next_token(tag, &i, &start);)
        if (letters_version(tag + start, i - start))
            return true;
    return false;
}

/* Is the name component [c, c+n) a reader's placeholder: `your` (any case) alone, before a
 * separator (`your-image`, `your_registry.io`), or before a noun of the kind documentation
 * writes (`yourusername`, `YourOrg`)? Not `yourls` (a real image). */
static bool your_component(const char *c, size_t n)
{
    static const char *const nouns[] = {"user", "name", "org", "registry", "repo", "image",
                                        "account", "company", "team", "project", "docker",
                                        "namespace", "app", "hub", NULL};
    if (n < 4 || strncasecmp(c, "your", 4))
        return false;
    if (n == 4 || c[4] == '-' || c[4] == '_' || c[4] == '.')
        return true;
    for (size_t i = 0; nouns[i]; i++) {
        size_t k = strlen(nouns[i]);
        if (n - 4 >= k && !strncasecmp(c + 4, nouns[i], k))
            return true;
    }
    return false;
}

/* Does any '/'-separated component of s (NULL: none) hold such a placeholder? */
static bool your_in(const char *s)
{
    for (const char *p = s; p && *p;) {
        size_t n = strcspn(p, "/");
        if (your_component(p, n))
            return true;
        p += n + (p[n] == '/');
    }
    return false;
}

bool gl_imageref_name_placeholder(const struct gl_imageref *ref)
{
    return your_in(ref->domain) || your_in(ref->path);
}

struct gl_loc gl_imageref_tag_loc_at(const struct gl_imageref *ref, size_t offset)
{
    if (!ref->tag)
        return (struct gl_loc){0, 0};
    return ref->exact ? loc_at(ref->tag_loc, offset) : ref->tag_loc;
}

/* Is path component [c, c+n) one of the NULL-terminated names? */
static bool component_in(const char *c, size_t n, const char *const *names)
{
    for (size_t i = 0; names[i]; i++)
        if (names[i][0] == c[0] && strlen(names[i]) == n && !memcmp(c, names[i], n))
            return true;
    return false;
}

bool gl_imageref_nvidia_infra(const struct gl_imageref *ref)
{
    /* RULES.md third round: NVIDIA's GPU plumbing, by name under any `nvidia/` path
     * (nvcr.io/nvidia/, nvcr.io/nvidia/k8s/, nvcr.io/nvidia/cloud-native/, Docker Hub's
     * nvidia/, a mirror's .../nvidia/), and every image under cloud-native/ or
     * distroless/ there, and the plain OS bases under base/ (nvcr.io/nvidia/base/ubuntu:
     * Ubuntu with NVIDIA's security updates): they run no CUDA workload. */
    static const char *const plumbing[] = {
        "gpu-operator", "gpu-operator-validator", "k8s-device-plugin", "k8s-dra-driver-gpu",
        "dcgm", "dcgm-exporter", "gpu-feature-discovery", "container-toolkit", "driver",
        "vgpu-manager", "mig-manager", "k8s-mig-manager", "k8s-kata-manager",
        "k8s-cc-manager", "kubevirt-gpu-device-plugin", "k8s-driver-manager",
        "vgpu-device-manager", "nvidia-fs", "gpu-operator-bundle", NULL};
    static const char *const trees[] = {"cloud-native", "distroless", "base", NULL};
    const char *p = ref->path;
    if (!p)
        return false;
    bool under_nvidia = false;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (under_nvidia && (slash ? component_in(p, n, trees) : component_in(p, n, plumbing)))
            return true;
        if (n == 6 && !memcmp(p, "nvidia", 6))
            under_nvidia = true;
        if (!slash)
            break;
        p = slash + 1;
    }
    return false;
}

/* cuda12.1, cuda12, cuda-12.1, cuda12.5.0 (a version after "cuda"), cu121 (3+ digits). */
static size_t cuda_token_len(const char *t, size_t n)
{
    size_t i;
    if (n > 4 && !memcmp(t, "cuda", 4)) {
        i = 4;
        if (i < n && t[i] == '-')
            i++;
        size_t d = i;
        while (i < n && ((t[i] >= '0' && t[i] <= '9') || t[i] == '.'))
            i++;
        return i > d && t[d] != '.' ? i : 0;
    }
    if (n >= 5 && t[0] == 'c' && t[1] == 'u') {
        for (i = 2; i < n && t[i] >= '0' && t[i] <= '9'; i++)
            ;
        return i - 2 >= 3 && i - 2 <= 4 ? i : 0;
    }
    return 0;
}

long gl_imageref_cuda_token(const char *tag, size_t *len)
{
    if (!tag)
        return -1;
    size_t n = strlen(tag);
    for (size_t s = 0; s < n;) {
        size_t e = s;
        while (e < n && tag[e] != '-' && tag[e] != '_')
            e++;
        /* "cuda-12.1" spans a separator: try the token with the next one */
        size_t l = cuda_token_len(tag + s, (e < n && e - s == 4) ? n - s : e - s);
        if (l && (s + l == n || tag[s + l] == '-' || tag[s + l] == '_' ||
                  (e - s == 4 && l > 5))) {
            *len = l;
            return (long)s;
        }
        s = e + 1;
    }
    return -1;
}

bool gl_imageref_cuda_bearing(const struct gl_imageref *ref)
{
    if (gl_imageref_nvidia_infra(ref))
        return false;
    if (gl_imageref_repo_has_prefix(ref, "nvidia/cuda"))
        return true;
    if (gl_imageref_in_namespace(ref, "nvcr.io/nvidia"))
        return true;
    if (gl_imageref_repo_is(ref, "pytorch/pytorch"))
        return true;
    if (gl_imageref_repo_is(ref, "tensorflow/tensorflow") && ref->tag &&
        strstr(ref->tag, "gpu"))
        return true;
    size_t len;
    return gl_imageref_cuda_token(ref->tag, &len) >= 0;
}

struct gl_loc gl_ref_tag_loc(const struct gl_ref *r, size_t off, size_t n)
{
    const char *tag = r->ok ? r->parsed.tag : NULL;
    if (!tag || off >= strlen(tag))
        return r->loc;
    if (r->parsed.exact)
        return gl_imageref_tag_loc_at(&r->parsed, off);
    if (!n || off + n > strlen(tag))
        n = strlen(tag) - off;
    const char *hit = r->written ? memmem(r->written, r->written_len, tag + off, n) : NULL;
    /* only when the bytes occur once: otherwise there is no telling which is meant */
    if (!hit || memmem(hit + 1, r->written_len - (size_t)(hit + 1 - r->written), tag + off, n))
        return r->loc;
    return loc_at(r->loc, (size_t)(hit - r->written));
}
