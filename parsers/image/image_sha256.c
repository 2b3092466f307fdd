/* SPDX-License-Identifier: Apache-2.0 */
/* image_sha256.c: SHA-256 (see image_sha256.h). */
#include "parsers/image/image_sha256.h"

#include <stdbool.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI_PATH 1
#endif

static const uint32_t round_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void compress_block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                      round_k[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}

#ifdef HAVE_SHA_NI_PATH
/* The same compression with the x86 SHA extensions (about 10x faster; digests of
 * multi-GB layers are otherwise the bottleneck). The state is kept as ABEF / CDGH, the
 * layout sha256rnds2 works on; each step does four rounds. */
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_blocks_shani(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (; nblocks; nblocks--, p += 64) {
        __m128i save0 = abef, save1 = cdgh, w[4];
        /* unrolled whole, w[] lives in registers: 3x faster than the rolled loop */
#pragma GCC unroll 16
        for (int g = 0; g < 16; g++) {
            if (g < 4) {
                w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), bswap);
            } else {
                __m128i t = _mm_sha256msg1_epu32(w[g & 3], w[(g - 3) & 3]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(w[(g - 1) & 3], w[(g - 2) & 3], 4));
                w[g & 3] = _mm_sha256msg2_epu32(t, w[(g - 1) & 3]);
            }
            __m128i m = _mm_add_epi32(w[g & 3], _mm_loadu_si128((const __m128i *)&round_k[4 * g]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
            m = _mm_shuffle_epi32(m, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, m);
        }
        abef = _mm_add_epi32(abef, save0);
        cdgh = _mm_add_epi32(cdgh, save1);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

static bool cpu_has_sha_ni(void)
{
    static int known = -1; /* benign race: every thread computes the same answer */
    if (known < 0) {
        unsigned a, b, c, d;
        known = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29)) ? 1 : 0;
    }
    return known == 1;
}
#endif

static void compress_blocks(uint32_t h[8], const unsigned char *p, size_t nblocks)
{
#ifdef HAVE_SHA_NI_PATH
    if (cpu_has_sha_ni()) {
        compress_blocks_shani(h, p, nblocks);
        return;
    }
#endif
    for (; nblocks; nblocks--, p += 64)
        compress_block(h, p);
}

void gl_sha256_init(struct gl_sha256 *s)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, iv, sizeof iv);
    s->len = 0;
    s->nbuf = 0;
}

void gl_sha256_update(struct gl_sha256 *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->len += n;
    if (s->nbuf) {
        size_t take = 64 - s->nbuf < n ? 64 - s->nbuf : n;
        memcpy(s->buf + s->nbuf, p, take);
        s->nbuf += take;
        p += take;
        n -= take;
        if (s->nbuf < 64)
            return;
        compress_blocks(s->h, s->buf, 1);
        s->nbuf = 0;
    }
    compress_blocks(s->h, p, n / 64);
    p += n / 64 * 64;
    n %= 64;
    memcpy(s->buf, p, n);
    s->nbuf = n;
}

void gl_sha256_final(struct gl_sha256 *s, unsigned char digest[32])
{
    uint64_t bits = s->len * 8;
    unsigned char pad[72] = {0x80};
    size_t padlen = s->nbuf < 56 ? 56 - s->nbuf : 120 - s->nbuf;
    for (int i = 0; i < 8; i++)
        pad[padlen + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
    uint64_t keep = s->len;
    gl_sha256_update(s, pad, padlen + 8);
    s->len = keep;
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (unsigned char)(s->h[i] >> 24);
        digest[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
        digest[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
        digest[4 * i + 3] = (unsigned char)s->h[i];
    }
}

void gl_sha256_hex(const unsigned char digest[32], char out[65])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    out[64] = 0;
}

void gl_sha256_hex_of(const void *data, size_t n, char out[65])
{
    struct gl_sha256 s;
    unsigned char d[32];
    gl_sha256_init(&s);
    gl_sha256_update(&s, data, n);
    gl_sha256_final(&s, d);
    gl_sha256_hex(d, out);
}
