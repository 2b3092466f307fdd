/* SPDX-License-Identifier: Apache-2.0 */
/* arch_list.c: arch-list values and nvcc arch flags into arch entries (see arch_list.h). */
#include "knowledge/arch_list.h"

#include "knowledge/gpu_arch.h"

#include <string.h>

#define ARCHS_MAX 64 /* entries kept per list (hostile inputs); more make it opaque */

/* PyTorch's named architectures (torch/utils/cpp_extension.py, _get_cuda_arch_flags:
 * named_arches; Blackwell entries from 2.7 on), "+Tegra" names first as torch does. */
#define NAMED(name, list) {name, sizeof name - 1, list}
static const struct {
    const char *name;
    size_t len; /* strlen(name): a word of another length is passed over at once */
    const char *list;
} torch_named[] = {
    NAMED("Kepler+Tesla", "3.7"),     NAMED("Kepler", "3.5+PTX"),
    NAMED("Maxwell+Tegra", "5.3"),    NAMED("Maxwell", "5.0;5.2+PTX"),
    NAMED("Pascal", "6.0;6.1+PTX"),   NAMED("Volta+Tegra", "7.2"),
    NAMED("Volta", "7.0+PTX"),        NAMED("Turing", "7.5+PTX"),
    NAMED("Ampere+Tegra", "8.7"),     NAMED("Ampere", "8.0;8.6+PTX"),
    NAMED("Ada", "8.9+PTX"),          NAMED("Hopper", "9.0+PTX"),
    NAMED("Blackwell+Tegra", "11.0"), NAMED("Blackwell", "10.0;10.3;12.0;12.1+PTX"),
};
#undef NAMED

bool gl_arch_syntax_of(const char *name, enum gl_arch_syntax *out)
{
    /* asked of every ENV, ARG and assignment name: the first byte rules out most */
    switch (name[0]) {
    case 'T':
        if (gl_streq(name, "TORCH_CUDA_ARCH_LIST"))
            *out = GL_ARCHS_TORCH;
        else if (gl_streq(name, "TCNN_CUDA_ARCHITECTURES"))
            *out = GL_ARCHS_TCNN;
        else
            return false;
        return true;
    case 'C':
        if (!gl_streq(name, "CMAKE_CUDA_ARCHITECTURES") && !gl_streq(name, "CUDAARCHS"))
            return false;
        *out = GL_ARCHS_CMAKE;
        return true;
    case 'N':
        if (!gl_streq(name, "NVCC_GENCODE"))
            return false;
        *out = GL_ARCHS_NVCC;
        return true;
    default: return false;
    }
}

struct acc {
    struct gl_arch items[ARCHS_MAX];
    size_t n;
    bool opaque;
};

static void push(struct acc *c, unsigned sm, enum gl_arch_code code, char suffix)
{
    for (size_t i = 0; i < c->n; i++) {
        if (c->items[i].sm == sm && c->items[i].code == code && c->items[i].suffix == suffix)
            return;
    }
    if (c->n == ARCHS_MAX)
        c->opaque = true;
    else
        c->items[c->n++] = (struct gl_arch){sm, code, suffix};
}

static void finish(struct gl_arch_list *l, struct gl_arena *a, const struct acc *c)
{
    l->opaque = l->opaque || c->opaque || c->n == 0;
    l->narchs = c->n;
    l->archs = gl_arena_alloc(a, (c->n ? c->n : 1) * sizeof *l->archs);
    memcpy(l->archs, c->items, c->n * sizeof *l->archs);
}

/* "9.0", "9.0a", "10.0+PTX", "8.6a+PTX" (len bytes). */
static bool torch_entry(struct acc *c, const char *s, size_t len)
{
    bool ptx = len > 4 && !memcmp(s + len - 4, "+PTX", 4);
    if (ptx)
        len -= 4;
    char suffix = len > 1 && s[len - 1] == 'a' ? 'a' : 0;
    unsigned sm;
    if (!memchr(s, '.', len) || !gl_sm_parse(s, len - (suffix != 0), &sm))
        return false;
    push(c, sm, GL_ARCH_SASS, suffix);
    if (ptx)
        push(c, sm, GL_ARCH_PTX, suffix);
    return true;
}

static bool torch_word(struct acc *c, const char *s, size_t len, int depth)
{
    for (size_t i = 0; depth == 0 && i < sizeof torch_named / sizeof *torch_named; i++) {
        if (torch_named[i].len != len || memcmp(torch_named[i].name, s, len))
            continue;
        const char *l = torch_named[i].list;
        while (*l) {
            size_t n = strcspn(l, ";");
            torch_word(c, l, n, 1);
            l += n + (l[n] == ';');
        }
        return true;
    }
    return torch_entry(c, s, len);
}

/* "80", "80-real", "90a-virtual"; native/all/all-major/OFF are opaque. */
static bool cmake_entry(struct acc *c, const char *s, size_t len)
{
    bool real = true, virt = true;
    if (len > 5 && !memcmp(s + len - 5, "-real", 5)) {
        virt = false;
        len -= 5;
    } else if (len > 8 && !memcmp(s + len - 8, "-virtual", 8)) {
        real = false;
        len -= 8;
    }
    char suffix = len > 2 && (s[len - 1] == 'a' || s[len - 1] == 'f') ? s[len - 1] : 0;
    unsigned sm;
    if (memchr(s, '.', len) || !gl_sm_parse(s, len - (suffix != 0), &sm))
        return false;
    if (real)
        push(c, sm, GL_ARCH_SASS, suffix);
    if (virt)
        push(c, sm, GL_ARCH_PTX, suffix);
    return true;
}

/* NVCC_GENCODE's value: its blank-separated words read as the flags of one nvcc command
 * (more words than ARCHS_MAX, or none that is an arch flag: opaque). */
static void nvcc_flags(struct gl_arch_list *l, struct gl_arena *a, const char *value)
{
    struct gl_word words[ARCHS_MAX + 1];
    size_t n = 0;
    words[n++] = gl_word_make("nvcc", l->loc, false);
    for (const char *p = value; *p;) {
        size_t skip = strspn(p, " \t\n"), len = strcspn(p + skip, " \t\n");
        p += skip;
        if (!len)
            break;
        if (n == ARCHS_MAX + 1) {
            l->opaque = true;
            return;
        }
        words[n++] = gl_word_make(gl_arena_strndup(a, p, len), l->loc, false);
        p += len;
    }
    if (gl_arch_list_read_nvcc(l, a, words, n) < 0)
        l->opaque = true;
    l->value = value; /* as given, not as the reader rewrote it */
}

void gl_arch_list_read(struct gl_arch_list *l, struct gl_arena *a, enum gl_arch_syntax syntax,
                       const char *value)
{
    if (syntax == GL_ARCHS_NVCC) {
        if (value)
            nvcc_flags(l, a, value);
        else
            l->opaque = true;
        return;
    }
    struct acc c = {.n = 0, .opaque = !value};
    const char *seps = syntax == GL_ARCHS_TORCH ? "; " : syntax == GL_ARCHS_TCNN ? ";," : ";";
    for (const char *p = value; p && *p && !c.opaque;) {
        size_t n = strcspn(p, seps);
        if (n) {
            bool ok = syntax == GL_ARCHS_TORCH ? torch_word(&c, p, n, 0) : cmake_entry(&c, p, n);
            if (!ok || (syntax == GL_ARCHS_TCNN && memchr(p, '-', n)))
                c.opaque = true;
        }
        p += n;
        p += *p != '\0';
    }
    finish(l, a, &c);
}

/* ---- nvcc ---- */

/* One code= item: sm_XY SASS, compute_XY PTX. */
static bool code_item(struct acc *c, const char *s, size_t len)
{
    struct gl_arch x;
    if (!gl_arch_parse(s, len, &x))
        return false;
    push(c, x.sm, x.code, x.suffix);
    return true;
}

/* The items of a code list: "sm_80", "[sm_80,compute_80]", "sm_80,compute_80". */
static bool code_list(struct acc *c, const char *s, size_t len)
{
    if (len >= 2 && s[0] == '[' && s[len - 1] == ']') {
        s++;
        len -= 2;
    }
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && s[j] != ',')
            j++;
        if (j == i || !code_item(c, s + i, j - i))
            return false;
        i = j + 1;
    }
    return len > 0;
}

/* "arch=compute_80,code=sm_80" / "arch=compute_80,code=[sm_80,compute_80]". */
static bool gencode(struct acc *c, const char *s)
{
    const char *code = strstr(s, "code=");
    if (strncmp(s, "arch=", 5) || !code || code == s)
        return false;
    struct gl_arch virt;
    size_t alen = strcspn(s + 5, ",");
    if (!gl_arch_parse(s + 5, alen, &virt) || virt.code != GL_ARCH_PTX)
        return false;
    return code_list(c, code + 5, strlen(code + 5));
}

/* Value of an -arch: sm_XY (SASS and PTX of XY), compute_XY (PTX), native/all (opaque). */
static bool arch_value(struct acc *c, const char *v, bool with_code)
{
    struct gl_arch x;
    if (!gl_arch_parse(v, strlen(v), &x))
        return false;
    if (!with_code) { /* -arch=sm_80 is -arch=compute_80 -code=sm_80,compute_80 */
        if (x.code == GL_ARCH_SASS)
            push(c, x.sm, GL_ARCH_SASS, x.suffix);
        push(c, x.sm, GL_ARCH_PTX, x.suffix);
    }
    return true;
}

/* The value of flag `name` at word i: "-arch=V" or "-arch V". NULL when the word is not it. */
static const char *flag_value(const struct gl_word *w, size_t n, size_t *i, const char *name)
{
    size_t k = strlen(name);
    const char *t = w[*i].text;
    if (strncmp(t, name, k))
        return NULL;
    if (t[k] == '=')
        return t + k + 1;
    if (t[k] || *i + 1 >= n)
        return NULL;
    (*i)++;
    return w[*i].text;
}

long gl_arch_list_read_nvcc(struct gl_arch_list *l, struct gl_arena *a,
                            const struct gl_word *words, size_t n)
{
    struct acc c = {.n = 0, .opaque = false};
    long first = -1;
    bool with_code = false;
    for (size_t i = 1; i < n; i++) {
        size_t j = i;
        const char *v;
        if ((v = flag_value(words, n, &j, "-code")) || (v = flag_value(words, n, &j, "--gpu-code"))) {
            with_code = true;
            if (words[j].opaque || words[i].opaque || !code_list(&c, v, strlen(v)))
                c.opaque = true;
            if (first < 0)
                first = (long)i;
        }
    }
    for (size_t i = 1; i < n; i++) {
        size_t start = i;
        const char *v;
        bool ok;
        if ((v = flag_value(words, n, &i, "-gencode")) ||
            (v = flag_value(words, n, &i, "--generate-code")))
            ok = gencode(&c, v);
        else if ((v = flag_value(words, n, &i, "-arch")) ||
                 (v = flag_value(words, n, &i, "--gpu-architecture")))
            ok = arch_value(&c, v, with_code);
        else
            continue;
        if (!ok || words[i].opaque || words[start].opaque)
            c.opaque = true;
        if (first < 0 || (long)start < first)
            first = (long)start;
    }
    if (first < 0) {
        l->archs = NULL;
        return -1;
    }
    finish(l, a, &c);
    struct gl_buf b; /* the arch flags as written, for messages */
    gl_buf_init(&b);
    for (size_t i = (size_t)first; i < n; i++) {
        size_t j = i;
        bool flag = flag_value(words, n, &j, "-gencode") || flag_value(words, n, &j, "--generate-code") ||
                    flag_value(words, n, &j, "-arch") || flag_value(words, n, &j, "--gpu-architecture") ||
                    flag_value(words, n, &j, "-code") || flag_value(words, n, &j, "--gpu-code");
        for (size_t k = i; flag && k <= j; k++)
            gl_buf_printf(&b, "%s%s", b.len ? " " : "", words[k].text);
        i = j;
    }
    l->value = gl_arena_strndup(a, b.data ? b.data : "", b.len);
    gl_buf_free(&b);
    return first;
}
