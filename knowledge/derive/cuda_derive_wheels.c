/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_derive_wheels.c: CUDA facts from CUDA-suffixed Python wheels (cupy-cuda12x,
 * tensorrt-cu12, onnxruntime-gpu, paddlepaddle-gpu; see cuda_derive_internal.h). */
#include "knowledge/derive/cuda_derive_internal.h"

#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Where `text` (n bytes, inside the spec) is written, for the fact's position. */
static struct gl_loc at_text(struct cd_ctx *c, struct gl_loc loc, const char *spec,
                             const char *text, size_t n)
{
    return cd_written_loc(c, loc, strlen(spec), text, n);
}

/* cupy-cuda12x -> "12"; cupy-cuda110 -> "11.0", cupy-cuda102 -> "10.2", cupy-cuda92 ->
 * "9.2" (the names before CuPy 10 named a release). */
static struct gl_cuda_fact *cupy(struct cd_ctx *c, const struct cd_spec *sp, const char *spec,
                                 struct gl_loc loc, int stage)
{
    const char *d = sp->name + strlen("cupy-cuda");
    size_t n = strlen(d);
    char v[16];
    if (n == 3 && is_digit(d[0]) && is_digit(d[1]) && d[2] == 'x' && d[0] == '1')
        snprintf(v, sizeof v, "%.2s", d);
    else if (n == 3 && is_digit(d[0]) && is_digit(d[1]) && is_digit(d[2]) && d[0] == '1')
        snprintf(v, sizeof v, "%.2s.%c", d, d[2]);
    else if (n == 2 && is_digit(d[0]) && is_digit(d[1]) && d[0] >= '7')
        snprintf(v, sizeof v, "%c.%c", d[0], d[1]);
    else
        return NULL;
    struct gl_loc at = at_text(c, loc, spec, "cuda", 4);
    return cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(&c->doc->arena, v), cd_label_of(c, spec),
                  "cupy", at, stage);
}

/* tensorrt-cu12, tensorrt-cu12-libs, tensorrt-cu12-bindings, tensorrt-cu13 -> the major. */
static struct gl_cuda_fact *tensorrt(struct cd_ctx *c, const char *spec, const char *name,
                                     struct gl_loc loc, int stage)
{
    const char *d = name + strlen("tensorrt-cu");
    if (!is_digit(d[0]) || !is_digit(d[1]) || d[0] != '1' ||
        !(d[2] == '\0' || !strcmp(d + 2, "-libs") || !strcmp(d + 2, "-bindings")))
        return NULL;
    char v[4] = {d[0], d[1], 0, 0};
    char suffix[8];
    snprintf(suffix, sizeof suffix, "cu%s", v);
    /* the suffix after "tensorrt" (8 bytes, '-' or '_' after it) */
    struct gl_loc from = {loc.line, loc.col + 9};
    struct gl_loc at = loc;
    if (!cd_find_written(c, from, 2, suffix, strlen(suffix), &at))
        at = loc;
    return cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(&c->doc->arena, v), cd_label_of(c, spec),
                  "tensorrt", at, stage);
}

/* A pinned version's text as a string (NULL when not pinned or too long). */
static const char *pinned(struct cd_ctx *c, const struct cd_spec *sp)
{
    if (!cd_op_is_pin(sp->op) || !sp->version_len || sp->version_len > 40)
        return NULL;
    return gl_arena_strndup(&c->doc->arena, sp->version, sp->version_len);
}

int cd_ort_feed(const char *url) { return strstr(url, "onnxruntime-cuda-12") ? 12 : -1; }

/* onnxruntime-gpu==1.17.1 -> the major of PyPI's CUDA for 1.17 (11.8: "11"; ONNX Runtime
 * loads the image's CUDA libraries and documents minor-version compatibility, so only the
 * major must match); from ONNX Runtime's CUDA 12 feed, 12. Unpinned, or from another
 * index: no fact. */
static struct gl_cuda_fact *onnxruntime(struct cd_ctx *c, const struct cd_spec *sp,
                                        const char *spec, struct gl_loc loc, int stage)
{
    const char *v = pinned(c, sp);
    const char *cuda = !v || c->ort_feed < 0 ? NULL
                       : c->ort_feed == 12   ? "12"
                                             : gl_kb_ort_cuda(c->kb, v);
    unsigned major;
    if (!cuda || !gl_version_field(cuda, 0, &major))
        return NULL;
    struct gl_loc at = at_text(c, loc, spec, sp->version, sp->version_len);
    return cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_printf(&c->doc->arena, "%u", major),
                  cd_label_of(c, spec), "onnxruntime", at, stage);
}

/* paddlepaddle-gpu==2.5.1.post117 -> 11.7 (Paddle's CUDA builds before the cuNNN indexes):
 * .postMMm for CUDA 10.0-10.2, 11.x and 12.x. Older tags (post97, post107: CUDA 9.0 and
 * 10.0 with cuDNN 7) read otherwise and give no fact. */
static struct gl_cuda_fact *paddle(struct cd_ctx *c, const struct cd_spec *sp, const char *spec,
                                   struct gl_loc loc, int stage)
{
    const char *v = pinned(c, sp);
    const char *post = v ? strstr(v, ".post") : NULL;
    if (!post)
        return NULL;
    const char *d = post + 5;
    if (strlen(d) != 3 || strspn(d, "0123456789") != 3 || d[0] != '1' || d[1] < '0' ||
        d[1] > '2' || (d[1] == '0' && d[2] > '2'))
        return NULL;
    char cuda[8];
    snprintf(cuda, sizeof cuda, "%.2s.%c", d, d[2]);
    struct gl_loc at = at_text(c, loc, spec, "post", 4);
    return cd_add(c, GL_CUDA_FRAMEWORK, gl_arena_strdup(&c->doc->arena, cuda),
                  cd_label_of(c, spec), "paddle", at, stage);
}

struct gl_cuda_fact *cd_wheel_spec(struct cd_ctx *c, const struct cd_spec *sp, const char *spec,
                                   struct gl_loc loc, int stage)
{
    if (gl_has_prefix(sp->name, "cupy-cuda"))
        return cupy(c, sp, spec, loc, stage);
    if (gl_has_prefix(sp->name, "tensorrt-cu"))
        return tensorrt(c, spec, sp->name, loc, stage);
    if (!strcmp(sp->name, "onnxruntime-gpu"))
        return onnxruntime(c, sp, spec, loc, stage);
    if (!strcmp(sp->name, "paddlepaddle-gpu"))
        return paddle(c, sp, spec, loc, stage);
    return NULL;
}

bool cd_index_segment_cuda(const char *url, char *out, size_t out_size, size_t *off,
                           size_t *len)
{
    const char *host = strstr(url, "://");
    for (const char *p = host ? host + 3 : url; (p = strstr(p, "/cu"));) {
        const char *d = p + 3;
        size_t nd = strspn(d, "0123456789");
        char end = d[nd];
        if ((nd == 3 || nd == 2) && (end == '\0' || end == '/' || end == '?' || end == '#')) {
            char token[8];
            snprintf(token, sizeof token, "cu%.*s", (int)nd, d);
            if (gl_torch_variant_cuda(token, out, out_size)) {
                *off = (size_t)(p + 1 - url);
                *len = nd + 2;
                return true;
            }
        }
        p = d;
    }
    return false;
}
