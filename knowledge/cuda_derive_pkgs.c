/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive_pkgs.c: CUDA facts from package installs and package indexes
 * (see cuda_derive.h for the sources, cuda_derive_internal.h for the helpers). */
#include "knowledge/cuda_derive_internal.h"

#include <ctype.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool cd_is_torch_pkg(const char *name)
{
    return gl_streq(name, "torch") || gl_streq(name, "torchvision") || gl_streq(name, "torchaudio");
}


/* torch==2.1.0+cu121: the variant after '+'. */
static struct gl_cuda_fact *torch_pin(struct cd_ctx *c, const struct cd_spec *sp, const char *spec,
                                      struct gl_loc loc, int stage)
{
    if (!cd_op_is_pin(sp->op) || !sp->version_len)
        return NULL;
    const char *plus = memchr(sp->version, '+', sp->version_len);
    if (!plus)
        return NULL;
    size_t vlen = sp->version_len - (size_t)(plus + 1 - sp->version);
    char variant[24], cuda[24];
    if (vlen >= sizeof variant)
        return NULL;
    memcpy(variant, plus + 1, vlen);
    variant[vlen] = '\0';
    if (!gl_torch_variant_cuda(variant, cuda, sizeof cuda))
        return NULL;
    struct gl_loc at = cd_written_loc(c, loc, strlen(spec), plus, vlen + 1);
    struct gl_cuda_fact *f =
        cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(&c->doc->arena, cuda), cd_label_of(c, spec),
               gl_arena_strdup(&c->doc->arena, sp->name), at, stage);
    if (!strcmp(sp->name, "torch")) /* the release the wheel's arch list belongs to */
        f->torch = gl_arena_strndup(&c->doc->arena, sp->version, (size_t)(plus - sp->version));
    return f;
}

/* An unsuffixed nvidia-* wheel of CUDA 13 pinned to a version (nvidia-cuda-runtime==13.0.96):
 * the major the knowledge table gives for that name and version. Only the CUDA components
 * the table names as unsuffixed (nvidia_pip_packages.cuda13), whose version is their CUDA
 * release: other nvidia-* packages (nvidia-ml-py 13.580.82, nvidia-cufft 12.0 of CUDA 13)
 * version themselves. */
static struct gl_cuda_fact *nvidia_unsuffixed(struct cd_ctx *c, const struct cd_spec *sp,
                                              const char *spec, struct gl_loc loc, int stage)
{
    static const char *const components[] = {"nvidia-cuda-runtime", "nvidia-cublas",
                                             "nvidia-cuda-nvrtc", "nvidia-cuda-cupti",
                                             "nvidia-nvjitlink"};
    bool known = false;
    for (size_t i = 0; i < sizeof components / sizeof components[0]; i++)
        known = known || gl_streq(sp->name, components[i]);
    char v[32];
    if (!known || !cd_op_is_pin(sp->op) || !sp->version_len || sp->version_len >= sizeof v)
        return NULL;
    memcpy(v, sp->version, sp->version_len);
    v[sp->version_len] = '\0';
    unsigned major = gl_kb_pip_cuda_major(c->kb, sp->name, v);
    if (!major)
        return NULL;
    struct gl_loc at = cd_written_loc(c, loc, strlen(spec), sp->version, sp->version_len);
    return cd_add(c, GL_CUDA_PIP_NVIDIA, gl_arena_printf(&c->doc->arena, "%u", major),
                  cd_label_of(c, spec), NULL, at, stage);
}

/* nvidia-cublas-cu12: the major of the -cuNN suffix. */
static struct gl_cuda_fact *nvidia_wheel(struct cd_ctx *c, const struct cd_spec *sp,
                                         const char *spec, struct gl_loc loc, int stage)
{
    size_t n = strlen(sp->name);
    const char *dash = strrchr(sp->name, '-');
    if (!dash || dash[1] != 'c' || dash[2] != 'u' || !is_digit(dash[3]))
        return nvidia_unsuffixed(c, sp, spec, loc, stage);
    if (n < 12)
        return NULL;
    unsigned major = gl_kb_pip_cuda_major(c->kb, sp->name, NULL);
    if (!major)
        return NULL;
    char suffix[16];
    snprintf(suffix, sizeof suffix, "cu%u", major);
    struct gl_loc at = cd_written_loc(c, loc, strlen(spec), suffix, strlen(suffix));
    /* the suffix is the last one in the name: search from the dash's offset */
    size_t off = (size_t)(dash + 1 - sp->name);
    struct gl_loc from = {loc.line, loc.col + (uint32_t)off};
    struct gl_loc found;
    if (cd_find_written(c, from, 4, suffix, strlen(suffix), &found))
        at = found;
    return cd_add(c, GL_CUDA_PIP_NVIDIA, gl_arena_printf(&c->doc->arena, "%u", major),
                  cd_label_of(c, spec), NULL, at, stage);
}

/* jax[cuda12], jax[cuda12_pip], jax-cuda12-plugin, jaxlib==0.4.23+cuda12.cudnn89. */
static struct gl_cuda_fact *jax_pkg(struct cd_ctx *c, const struct cd_spec *sp, const char *spec,
                                    struct gl_loc loc, int stage)
{
    char extra[32];
    const char *found_text = NULL;
    size_t found_len = 0;
    unsigned major = 0;
    if (!strcmp(sp->name, "jax") && sp->extras) {
        for (size_t i = 0; i < sp->extras_len && !major;) {
            size_t j = i;
            while (j < sp->extras_len && sp->extras[j] != ',')
                j++;
            size_t s0 = i, e0 = j;
            while (s0 < e0 && sp->extras[s0] == ' ')
                s0++;
            while (e0 > s0 && sp->extras[e0 - 1] == ' ')
                e0--;
            if (e0 - s0 < sizeof extra) {
                memcpy(extra, sp->extras + s0, e0 - s0);
                extra[e0 - s0] = '\0';
                const struct gl_kb_jax *row = gl_kb_jax_extra(c->kb, extra);
                if (row && row->cuda_major) {
                    major = row->cuda_major;
                    found_text = sp->extras + s0;
                    found_len = e0 - s0;
                }
            }
            i = j + 1;
        }
    } else if (gl_has_prefix(sp->name, "jax-cuda") &&
               (gl_has_suffix(sp->name, "-plugin") || gl_has_suffix(sp->name, "-pjrt"))) {
        const char *d = sp->name + strlen("jax-cuda");
        if (is_digit(d[0]) && is_digit(d[1]) && d[2] == '-') {
            major = (unsigned)((d[0] - '0') * 10 + (d[1] - '0'));
            found_text = spec + strcspn(spec, "cC"); /* "cuda12" inside the name */
            found_len = 6;
        }
    } else if (!strcmp(sp->name, "jaxlib") && cd_op_is_pin(sp->op) && sp->version_len) {
        const char *plus = memchr(sp->version, '+', sp->version_len);
        if (plus && (size_t)(sp->version + sp->version_len - plus) > 6 &&
            !memcmp(plus, "+cuda", 5) && is_digit(plus[5])) {
            major = (unsigned)(plus[5] - '0');
            if (is_digit(plus[6]))
                major = major * 10 + (unsigned)(plus[6] - '0');
            found_text = plus;
            found_len = is_digit(plus[6]) ? 7 : 6;
        }
    }
    if (!major || major > 99)
        return NULL;
    struct gl_loc at = found_text ? cd_written_loc(c, loc, strlen(spec), found_text, found_len)
                                  : loc;
    return cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_printf(&c->doc->arena, "%u", major),
                  cd_label_of(c, spec), "jax", at, stage);
}

/* Does the stage, or a stage it is built FROM, carry a CUDA of the image's own (a base tag,
 * an ENV, a CUDA OS package: the kinds up to GL_CUDA_OS_PACKAGE)? Those facts are derived
 * before the packages; one pass over them makes the flag of every stage. */
static bool stage_has_cuda(struct cd_ctx *c, int stage)
{
    const struct gl_dockerfile_model *m = c->doc->df;
    if (!m || stage < 0 || (size_t)stage >= m->nstages)
        return false;
    if (!c->stage_cuda) {
        bool *flags = gl_arena_alloc(&c->doc->arena, m->nstages * sizeof *flags);
        if (!flags)
            return false;
        for (size_t i = 0; i < c->doc->ncuda; i++) {
            const struct gl_cuda_fact *f = &c->doc->cuda[i];
            if (f->version && f->kind <= GL_CUDA_OS_PACKAGE && f->stage >= 0 &&
                (size_t)f->stage < m->nstages)
                flags[f->stage] = true;
        }
        c->stage_cuda = flags;
    }
    for (int hops = 0; stage >= 0 && (size_t)stage < m->nstages && hops < 64; hops++) {
        if (c->stage_cuda[stage])
            return true;
        stage = m->stages[stage].base_stage;
    }
    return false;
}

/* tensorflow[and-cuda]==2.15.1, tensorflow-gpu==1.15.0: TF's tested CUDA; a plain
 * tensorflow==2.14.0 too in an image of its own CUDA, whose libraries it loads (RULES.md
 * third round: in an image without one it runs on the CPU, and says nothing). The
 * nightly, tf-nightly==2.17.0.dev20240501 (with or without [and-cuda]), as the release
 * X.Y.Z it leads to (RULES.md: tf-nightly pins against the tested CUDA of X.Y). */
static struct gl_cuda_fact *tf_pkg(struct cd_ctx *c, const struct cd_spec *sp, const char *spec,
                                   struct gl_loc loc, int stage)
{
    bool nightly = !strcmp(sp->name, "tf-nightly");
    bool plain = nightly || !strcmp(sp->name, "tensorflow");
    bool and_cuda = plain && sp->extras && memmem(sp->extras, sp->extras_len, "and-cuda", 8);
    bool gpu = !strcmp(sp->name, "tensorflow-gpu");
    if ((!plain && !gpu) || !cd_op_is_pin(sp->op) || !sp->version_len || sp->version_len > 30)
        return NULL;
    if (plain && !and_cuda && !stage_has_cuda(c, stage))
        return NULL;
    size_t vlen = sp->version_len;
    if (nightly) { /* X.Y.Z.devN, X.Y.Z-devN, X.Y.ZdevN: the X.Y.Z before `dev` */
        const char *dev = memmem(sp->version, vlen, "dev", 3);
        if (!dev)
            return NULL;
        vlen = (size_t)(dev - sp->version);
        while (vlen && (sp->version[vlen - 1] == '.' || sp->version[vlen - 1] == '-'))
            vlen--;
    }
    char v[32];
    memcpy(v, sp->version, vlen);
    v[vlen] = '\0';
    if (!gl_version_valid(v))
        return NULL;
    enum gl_kb_match how;
    const struct gl_kb_tf *row = gl_kb_tf_lookup(c->kb, v, &how);
    if (!row || !row->cuda || (how != GL_KB_EXACT && how != GL_KB_SAME_MINOR))
        return NULL;
    struct gl_loc at = cd_written_loc(c, loc, strlen(spec), sp->version, sp->version_len);
    struct gl_cuda_fact *f = cd_add(c, GL_CUDA_FRAMEWORK, row->cuda, cd_label_of(c, spec),
                                    "tensorflow", at, stage);
    if (f)
        f->loads_image_cuda = !and_cuda; /* ([and-cuda] installs the nvidia-* wheels) */
    return f;
}

/* conda pytorch-cuda=12.1, cudatoolkit=11.8, cuda-version=12.4, cuda-toolkit=12.4. */
static struct gl_cuda_fact *conda_pkg(struct cd_ctx *c, const struct cd_spec *sp,
                                      const char *spec, struct gl_loc loc, int stage)
{
    static const char *const names[] = {"pytorch-cuda", "cudatoolkit", "cuda-version",
                                         "cuda-toolkit"};
    bool known = false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        known = known || gl_streq(sp->name, names[i]);
    if (!known || (strcmp(sp->op, "=") && strcmp(sp->op, "==")) || !sp->version_len)
        return NULL;
    char v[32];
    size_t n = sp->version_len < sizeof v ? sp->version_len : sizeof v - 1;
    memcpy(v, sp->version, n);
    v[n] = '\0';
    size_t vl = gl_version_prefix_len(v);
    const char *rest = v + vl;
    if (!vl || !(*rest == '\0' || !strcmp(rest, ".*") || !strcmp(rest, "*") || *rest == '='))
        return NULL;
    v[vl] = '\0';
    if (v[vl - 1] == '.')
        v[--vl] = '\0';
    if (!gl_version_valid(v))
        return NULL;
    struct gl_loc at = cd_written_loc(c, loc, strlen(spec), sp->version, vl);
    return cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(&c->doc->arena, v), cd_label_of(c, spec),
                  gl_arena_strdup(&c->doc->arena, sp->name), at, stage);
}


/* NVIDIA's conda label channel of one CUDA release, `nvidia/label/cuda-12.1.0` (alone, in a
 * URL, or before `::`): the release into out, *off and *len its bytes in s. */
static bool label_cuda(const char *s, size_t n, char *out, size_t out_size, size_t *off,
                       size_t *len)
{
    static const char key[] = "nvidia/label/cuda-";
    const char *k = memmem(s, n, key, sizeof key - 1);
    if (!k)
        return false;
    const char *v = k + sizeof key - 1;
    size_t vl = gl_version_prefix_len(v);
    if (!vl || vl >= out_size || (size_t)(v - s) + vl > n)
        return false;
    memcpy(out, v, vl);
    out[vl] = '\0';
    *off = (size_t)(v - s);
    *len = vl;
    return gl_version_valid(out);
}

/* A CUDA package of NVIDIA's conda channels (cuda, cuda-toolkit, cuda-nvcc, ...). */
static bool conda_cuda_pkg(const char *name)
{
    return !strcmp(name, "cuda") || gl_has_prefix(name, "cuda-");
}

/* `nvidia/label/cuda-12.4.1::cuda-nvcc`: the label's release, for a CUDA package. */
static struct gl_cuda_fact *label_spec(struct cd_ctx *c, const char *spec, struct gl_loc loc,
                                       int stage)
{
    const char *sep = strstr(spec, "::");
    char cuda[24];
    size_t off, len;
    struct cd_spec sp;
    if (!sep || !cd_parse_spec(sep + 2, &sp) || !conda_cuda_pkg(sp.name) ||
        !label_cuda(spec, (size_t)(sep - spec), cuda, sizeof cuda, &off, &len))
        return NULL;
    struct gl_loc at = cd_written_loc(c, loc, strlen(spec), spec + off, len);
    return cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(&c->doc->arena, cuda),
                  cd_label_of(c, spec), "cuda-toolkit", at, stage);
}

/* A wheel named by its file or URL (`https://download.pytorch.org/whl/cu118/torch-2.1.0%2B
 * cu118-cp310-cp310-linux_x86_64.whl`, `torch @ https://...whl`): the pin it stands for,
 * "torch==2.1.0+cu118" (the wheel file name is `NAME-VERSION[-BUILD]-PY-ABI-PLATFORM.whl`,
 * `%2B` a URL-encoded '+'), or NULL. */
static const char *wheel_pin(struct gl_arena *a, const char *spec)
{
    const char *end = strstr(spec, ".whl");
    if (!end)
        return NULL;
    const char *file = end;
    while (file > spec && file[-1] != '/' && file[-1] != ' ' && file[-1] != '@')
        file--;
    const char *dash = memchr(file, '-', (size_t)(end - file));
    if (!dash || dash == file)
        return NULL;
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_add(&b, file, (size_t)(dash - file));
    gl_buf_adds(&b, "==");
    for (const char *p = dash + 1; p < end && *p != '-'; p++) {
        if (p[0] == '%' && p + 2 < end && p[1] == '2' && (p[2] == 'B' || p[2] == 'b')) {
            gl_buf_addc(&b, '+');
            p += 2;
        } else {
            gl_buf_addc(&b, *p);
        }
    }
    const char *pin = gl_arena_strdup(a, gl_buf_str(&b));
    gl_buf_free(&b);
    return pin;
}

bool cd_spec_may_yield(enum gl_pkg_family family, const char *spec)
{
    if (family != GL_PKG_PIP && family != GL_PKG_CONDA)
        return false;
    /* the first four bytes of the name as cd_parse_spec makes it (lowercase, '_' as '-');
     * compared four at a time below (a memcmp of a constant length is one comparison) */
    char head[4] = {0};
    const char *t = spec;
    while (*t == ' ' || *t == '\t')
        t++;
    for (size_t i = 0; i < 4; i++) {
        char ch = t[i];
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        else if (ch == '_')
            ch = '-';
        else if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.'))
            break;
        head[i] = ch;
    }
    bool named;
    if (family == GL_PKG_CONDA) /* conda_pkg's names */
        named = !memcmp(head, "pyto", 4) || !memcmp(head, "cuda", 4);
    else /* the names cd_pkg_spec and cd_wheel_spec go on with: torch*, tensorflow*, tf-n*,
            tensorrt-cu*, nvidia-*, jax*, cupy-cuda*, onnxruntime-gpu, paddlepaddle-gpu */
        switch (head[0]) {
        case 't':
            named = !memcmp(head, "torc", 4) || !memcmp(head, "tens", 4) ||
                    !memcmp(head, "tf-n", 4);
            break;
        case 'n': named = !memcmp(head, "nvid", 4); break;
        case 'j': named = !memcmp(head, "jax", 3); break;
        case 'c': named = !memcmp(head, "cupy", 4); break;
        case 'o': named = !memcmp(head, "onnx", 4); break;
        case 'p': named = !memcmp(head, "padd", 4); break;
        default: named = false; break;
        }
    /* else a wheel's file or URL (wheel_pin), a conda channel::package (label_spec) */
    return named || (family == GL_PKG_PIP ? strstr(spec, ".whl") : strstr(spec, "::")) != NULL;
}

struct gl_cuda_fact *cd_pkg_spec(struct cd_ctx *c, enum gl_pkg_family family, const char *spec,
                                 struct gl_loc loc, int stage)
{
    if (!cd_spec_may_yield(family, spec))
        return NULL; /* most specs (numpy, requests==2.31.0): no fact, no parse */
    const char *pin = family == GL_PKG_PIP ? wheel_pin(&c->doc->arena, spec) : NULL;
    if (pin)
        spec = pin;
    if (family == GL_PKG_CONDA && strstr(spec, "::")) {
        struct gl_cuda_fact *f = label_spec(c, spec, loc, stage);
        if (f)
            return f;
        const char *sep = strstr(spec, "::"); /* pytorch::pytorch-cuda=12.1 */
        struct gl_loc after = {loc.line, loc.col + (uint32_t)(sep + 2 - spec)};
        return cd_pkg_spec(c, family, sep + 2, after, stage);
    }
    struct cd_spec sp;
    if (!cd_parse_spec(spec, &sp))
        return NULL;
    if (family == GL_PKG_CONDA)
        return conda_pkg(c, &sp, spec, loc, stage);
    if (family != GL_PKG_PIP)
        return NULL;
    if (cd_is_torch_pkg(sp.name))
        return torch_pin(c, &sp, spec, loc, stage);
    if (gl_has_prefix(sp.name, "nvidia-"))
        return nvidia_wheel(c, &sp, spec, loc, stage);
    if (gl_has_prefix(sp.name, "jax"))
        return jax_pkg(c, &sp, spec, loc, stage);
    if (gl_has_prefix(sp.name, "tensorflow") || !strcmp(sp.name, "tf-nightly"))
        return tf_pkg(c, &sp, spec, loc, stage);
    return cd_wheel_spec(c, &sp, spec, loc, stage);
}

/* ---- OS packages: cuda-toolkit-12-6 ---- */

/* The OS package managers whose CUDA packages are named cuda-*-X-Y: apt, rpm and zypper
 * (not apk). */
static bool is_os_manager(unsigned family)
{
    return gl_pkg_family_os(family) && family != GL_PKG_APK;
}

/* "cuda-toolkit-12-6" -> "12.6" with the offset of "12-6" in the name. */
size_t gl_cuda_release_stem(const char *name)
{
    size_t n = strlen(name), e = n;
    for (int k = 0; k < 2; k++) {
        size_t s = e;
        while (s > 0 && is_digit(name[s - 1]))
            s--;
        if (s == e || e - s > 2 || s == 0 || name[s - 1] != '-')
            return n;
        e = s - 1;
    }
    return e;
}

static bool os_package_cuda(const char *name, char *out, size_t out_size, size_t *off,
                            size_t *len)
{
    /* the Debian names and the RPM ones (dnf, zypper) of NVIDIA's repositories, which
     * spell a development package -devel (cuda-cudart-devel-12-6) */
    static const char *const middles[] = {
        "", "toolkit", "runtime", "libraries", "libraries-dev", "libraries-devel",
        "libraries-static", "cudart", "cudart-dev", "cudart-devel", "compiler", "nvcc",
        "minimal-build", "command-line-tools", "tools", "nvrtc", "nvrtc-dev", "nvrtc-devel",
        "cupti", "cupti-dev", "cupti-devel", "core", "visual-tools"};
    if (name[0] != 'c') /* not cuda-: most packages, told before strlen */
        return false;
    size_t n = strlen(name);
    if (!gl_has_prefix(name, "cuda-") || n > 64)
        return false;
    size_t e = gl_cuda_release_stem(name); /* name[e] is the '-' before X-Y */
    if (e == n)
        return false;
    const char *minor = strchr(name + e + 1, '-');
    size_t fields[2][2] = {{e + 1, (size_t)(minor - name)}, {(size_t)(minor - name) + 1, n}};
    /* name[5 .. e) is the middle ("" for cuda-12-6, where e == 4) */
    size_t mid_len = e >= 5 ? e - 5 : 0;
    if (e < 4)
        return false;
    bool ok = false;
    for (size_t i = 0; i < sizeof middles / sizeof middles[0] && !ok; i++)
        ok = strlen(middles[i]) == mid_len && !memcmp(name + 5, middles[i], mid_len) &&
             (mid_len || e == 4);
    if (!ok)
        return false;
    snprintf(out, out_size, "%.*s.%.*s", (int)(fields[0][1] - fields[0][0]), name + fields[0][0],
             (int)(fields[1][1] - fields[1][0]), name + fields[1][0]);
    *off = fields[0][0];
    *len = fields[1][1] - fields[0][0];
    return name[*off] != '0';
}

/* ---- indexes ---- */

bool cd_torch_index_cuda(const char *url, char *out, size_t out_size, size_t *off, size_t *len)
{
    const char *whl = strstr(url, "/whl/");
    size_t at;
    if (!whl || !cd_index_segment_cuda(whl + 4, out, out_size, &at, len))
        return false;
    *off = (size_t)(whl + 4 - url) + at;
    return true;
}

/* The command of the stage that holds the word written at `loc`, or NULL. */
static const struct gl_cmd *cmd_at(const struct gl_dockerfile_model *m, int stage,
                                   struct gl_loc loc)
{
    for (size_t i = 0; i < m->ncmds; i++) {
        const struct gl_cmd *cmd = &m->cmds[i];
        if (cmd->stage != stage || !cmd->nwords || cmd->words[0].loc.line > loc.line ||
            cmd->words[cmd->nwords - 1].loc.line < loc.line)
            continue;
        for (size_t k = 0; k < cmd->nwords; k++) {
            const struct gl_word *w = &cmd->words[k];
            if (w->loc.line == loc.line && w->loc.col <= loc.col &&
                loc.col <= w->loc.col + strlen(w->text) + 2)
                return cmd;
        }
    }
    return NULL;
}

static bool cmd_has_word_at(const struct gl_cmd *cmd, struct gl_loc loc)
{
    for (size_t k = 0; k < cmd->nwords; k++)
        if (cmd->words[k].loc.line == loc.line && cmd->words[k].loc.col <= loc.col &&
            loc.col <= cmd->words[k].loc.col + strlen(cmd->words[k].text) + 2)
            return true;
    return false;
}

/* The framework a CUDA index serves in this command: "torch" when it installs torch
 * packages (or a requirements file), "paddle" for paddlepaddle-gpu; NULL otherwise. */
static const char *cmd_index_framework(const struct gl_dockerfile_model *m,
                                       const struct gl_cmd *cmd)
{
    for (size_t i = 0; i < m->npkgs; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        if (p->stage != cmd->stage || p->instr != cmd->instr || p->family != GL_PKG_PIP ||
            !cmd_has_word_at(cmd, p->loc))
            continue;
        struct cd_spec sp;
        if (p->requirements || (cd_parse_spec(p->spec, &sp) && cd_is_torch_pkg(sp.name)))
            return "torch";
        if (cd_parse_spec(p->spec, &sp) && !strcmp(sp.name, "paddlepaddle-gpu"))
            return "paddle";
    }
    return NULL;
}

/* uv's --torch-backend=cu126 (a CUDA variant; `auto` and `cpu` are not). */
static bool torch_backend_cuda(const char *v, char *out, size_t out_size, size_t *len)
{
    if (!gl_has_prefix(v, "cu") || !gl_torch_variant_cuda(v, out, out_size))
        return false;
    *len = strlen(v);
    return true;
}

/* `-c nvidia/label/cuda-12.1.0` for a command that installs a CUDA package without a
 * version of its own: the label's release. */
static void conda_label_index(struct cd_ctx *c, const struct gl_pkg_index *x)
{
    const struct gl_dockerfile_model *m = c->doc->df;
    char cuda[24];
    size_t off, len;
    const struct gl_cmd *cmd = cmd_at(m, x->stage, x->loc);
    if (!cmd || !label_cuda(x->url, strlen(x->url), cuda, sizeof cuda, &off, &len))
        return;
    bool installs = false;
    for (size_t i = 0; i < m->npkgs && !installs; i++) {
        const struct gl_pkg *p = &m->pkgs[i];
        installs = p->stage == cmd->stage && p->instr == cmd->instr && p->family == GL_PKG_CONDA &&
                   !p->requirements && p->name && conda_cuda_pkg(p->name) && !p->version &&
                   cmd_has_word_at(cmd, p->loc);
    }
    if (!installs)
        return;
    struct gl_loc at = cd_written_loc(c, x->loc, strlen(x->url), x->url + off, len);
    struct gl_cuda_fact *f =
        cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(&c->doc->arena, cuda),
               gl_arena_printf(&c->doc->arena, "conda channel %s", x->url), "cuda-toolkit", at,
               x->stage);
    f->instr = cmd->instr;
}

static void derive_index(struct cd_ctx *c, const struct gl_pkg_index *x)
{
    const struct gl_dockerfile_model *m = c->doc->df;
    char cuda[24];
    size_t off = 0, len;
    if (x->url && x->family == GL_PKG_CONDA) {
        conda_label_index(c, x);
        return;
    }
    if (!x->url || x->family != GL_PKG_PIP)
        return;
    bool backend = x->option && !strcmp(x->option, "--torch-backend");
    bool torch_url = !backend && cd_torch_index_cuda(x->url, cuda, sizeof cuda, &off, &len);
    if (backend ? !torch_backend_cuda(x->url, cuda, sizeof cuda, &len)
                : !torch_url && !cd_index_segment_cuda(x->url, cuda, sizeof cuda, &off, &len))
        return;
    const struct gl_cmd *cmd = cmd_at(m, x->stage, x->loc);
    const char *fw = cmd ? cmd_index_framework(m, cmd) : NULL;
    /* a torch backend or PyTorch index (.../whl/cuNNN) serves torch only; another cuNNN
     * index serves paddlepaddle-gpu (Paddle's .../packages/stable/cu118/); third-party
     * indexes for torch extensions (DGL, PyG) are not sources */
    if (!fw || ((backend || torch_url) != !strcmp(fw, "torch")))
        return;
    struct gl_loc at = cd_written_loc(c, x->loc, strlen(x->url), x->url + off, len);
    const char *label =
        backend ? gl_arena_printf(&c->doc->arena, "uv --torch-backend=%s", x->url)
        : !strcmp(fw, "torch")
            ? gl_arena_printf(&c->doc->arena, "PyTorch wheel index %s", x->url)
            : gl_arena_printf(&c->doc->arena, "Paddle wheel index %s", x->url);
    struct gl_cuda_fact *f = cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(&c->doc->arena, cuda),
                                    label, fw, at, x->stage);
    f->instr = cmd->instr;
}

static void derive_pkg(struct cd_ctx *c, const struct gl_pkg *p)
{
    const struct gl_dockerfile_model *m = c->doc->df;
    if (p->requirements || p->group || !p->spec || !p->name)
        return;
    if (is_os_manager(p->family)) {
        char v[16];
        size_t off, len;
        if (!os_package_cuda(p->name, v, sizeof v, &off, &len))
            return;
        struct gl_loc at = cd_written_loc(c, p->loc, strlen(p->spec), p->name + off, len);
        cd_add(c, GL_CUDA_OS_PACKAGE, gl_arena_strdup(&c->doc->arena, v), p->name, NULL, at,
               p->stage)->instr = p->instr;
    } else if (cd_spec_may_yield(p->family, p->spec)) {
        c->ort_feed = 0;
        for (size_t k = 0; k < m->nindexes; k++) {
            const struct gl_pkg_index *x = &m->indexes[k];
            const struct gl_cmd *cmd = x->url && x->stage == p->stage && x->family == GL_PKG_PIP
                                           ? cmd_at(m, x->stage, x->loc) : NULL;
            if (cmd && cmd->instr == p->instr && cmd_has_word_at(cmd, p->loc) &&
                (!x->option || strcmp(x->option, "--torch-backend")))
                c->ort_feed = c->ort_feed < 0 ? -1 : cd_ort_feed(x->url);
        }
        struct gl_cuda_fact *f = cd_pkg_spec(c, p->family, p->spec, p->loc, p->stage);
        if (f)
            f->instr = p->instr;
    }
}

void cd_derive_pkgs(struct cd_ctx *c)
{
    const struct gl_dockerfile_model *m = c->doc->df;
    struct cd_alts alts;
    cd_alts_init(&alts, c->doc);
    for (size_t i = 0; i < m->npkgs; i++) {
        size_t before = c->doc->ncuda;
        derive_pkg(c, &m->pkgs[i]);
        cd_alts_note(&alts, before, m->pkgs[i].branch, m->pkgs[i].arm);
    }
    for (size_t i = 0; i < m->nindexes; i++) {
        size_t before = c->doc->ncuda;
        derive_index(c, &m->indexes[i]);
        cd_alts_note(&alts, before, m->indexes[i].branch, m->indexes[i].arm);
    }
    cd_alts_drop(&alts);
}
