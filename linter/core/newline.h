/* SPDX-License-Identifier: Apache-2.0 */
/*
 * newline.h: the line feeds ('\n') of a text, found sixteen bytes at a time.
 *
 * A memchr call costs some 25 instructions before it reads a byte: for the short lines
 * of the texts linted (30 to 40 bytes) a call a line cost more than reading the line.
 * gl_nl_window() gives the '\n' bits of one 64-byte window (SSE2: four compares and
 * movemasks) as bits, which a caller takes lowest first in locals of its own:
 *
 *     for (size_t base = 0; base < len; base += 64)
 *         for (uint64_t b = gl_nl_window(t, len, base); b; b &= b - 1)
 *             ... a line feed at base + __builtin_ctzll(b) ...
 *
 * (a walk kept in a struct is read back from memory after every store the caller makes
 * through a pointer of the same type: twice the instructions). gl_nl_count() counts them
 * in byte counters, 64 bytes a step. Without SSE2 both read byte by byte.
 */
#ifndef GPULINT_LINTER_CORE_NEWLINE_H
#define GPULINT_LINTER_CORE_NEWLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The line feeds of t[at, at + 64) (of fewer bytes at the text's end) as bits. */
static inline uint64_t gl_nl_window(const char *t, size_t len, size_t at)
{
    uint64_t bits = 0;
    size_t k = 0;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n');
    if (len - at >= 64) { /* (four windows of 16, written out: the loop was not unrolled) */
        const __m128i *p = (const __m128i *)(const void *)(t + at);
        uint32_t lo = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p), nl)) |
                      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p + 1), nl))
                          << 16;
        uint32_t hi = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p + 2), nl)) |
                      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p + 3), nl))
                          << 16;
        return (uint64_t)hi << 32 | lo;
    }
    for (; len - at - k >= 16; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(t + at + k));
        bits |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) << k;
    }
#endif
    for (; k < 64 && at + k < len; k++)
        bits |= (uint64_t)(t[at + k] == '\n') << k;
    return bits;
}

/* The number of line feeds in t[0..len). */
static inline size_t gl_nl_count(const char *t, size_t len)
{
    size_t n = 0, i = 0;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (len - i >= 64) {
        /* 64 bytes a step, four compares into the byte counters, which take at most 4 a
         * step: summed every 63 steps (252) */
        __m128i acc = zero;
        for (size_t k = 0; k < 63 && len - i >= 64; k++, i += 64) {
            const __m128i *p = (const __m128i *)(const void *)(t + i);
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(p), nl));
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(p + 1), nl));
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(p + 2), nl));
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(p + 3), nl));
        }
        __m128i sum = _mm_sad_epu8(acc, zero);
        n += (size_t)_mm_cvtsi128_si32(sum) + (size_t)_mm_extract_epi16(sum, 4);
    }
    for (; len - i >= 16; i += 16) /* (the last 16-byte windows, popcount) */
        n += (size_t)__builtin_popcount(
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(
                (const __m128i *)(const void *)(t + i)), nl)));
#endif
    for (; i < len; i++)
        n += t[i] == '\n';
    return n;
}

#endif
