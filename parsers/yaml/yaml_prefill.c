/* SPDX-License-Identifier: Apache-2.0 */
/* yaml_prefill.c: a checked text put in libyaml's working buffer at once (yaml_prefill.h). */
#include "parsers/yaml/yaml_prefill.h"

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Zero bytes written after the end-of-input NUL. libyaml's scanner stops at that NUL (it
 * matches no indicator and ends every scan); the bytes after it are whatever its buffer
 * held before (old input) when it reads the text itself, zeros here. */
#define PAD 8

/* A byte that is a whole character libyaml's reader accepts: TAB, LF, CR, 0x20-0x7E. */
static inline bool printable_ascii(unsigned char c)
{
    return (c >= 0x20 && c <= 0x7E) || c == '\t' || c == '\n' || c == '\r';
}

/* Length of the run of printable ASCII bytes at t[0..n). */
static size_t ascii_run(const unsigned char *t, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__)
    /* as signed bytes, 0x20-0x7E are the ones above 0x1F and below 0x7F (0x80-0xFF are
     * negative) */
    const __m128i above = _mm_set1_epi8(0x1F), below = _mm_set1_epi8(0x7F);
    const __m128i tab = _mm_set1_epi8('\t'), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(t + i));
        __m128i ok = _mm_and_si128(_mm_cmpgt_epi8(v, above), _mm_cmplt_epi8(v, below));
        ok = _mm_or_si128(ok, _mm_or_si128(_mm_cmpeq_epi8(v, lf),
                                           _mm_or_si128(_mm_cmpeq_epi8(v, tab),
                                                        _mm_cmpeq_epi8(v, cr))));
        unsigned bad = ~(unsigned)_mm_movemask_epi8(ok) & 0xFFFFu;
        if (bad)
            return i + (size_t)__builtin_ctz(bad);
    }
#endif
    while (i < n && printable_ascii(t[i]))
        i++;
    return i;
}

size_t yt_reader_chars(const char *text, size_t len)
{
    const unsigned char *t = (const unsigned char *)text;
    size_t i = 0, chars = 0;
    for (;;) {
        size_t run = ascii_run(t + i, len - i);
        i += run;
        chars += run;
        if (i == len)
            return chars;
        /* a sequence of 2 to 4 bytes, checked as the reader checks it: its leading byte,
         * complete, continuation bytes, not overlong, no surrogate, at most U+10FFFF, and
         * in YAML's printable set (NEL, U+A0-U+D7FF, U+E000-U+FFFD, U+10000 and up) */
        unsigned char c = t[i];
        size_t w = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!w || w > len - i)
            return (size_t)-1; /* (an ASCII control byte, a stray continuation byte, ...) */
        uint32_t v = c & (w == 2 ? 0x1Fu : w == 3 ? 0x0Fu : 0x07u);
        for (size_t k = 1; k < w; k++) {
            if ((t[i + k] & 0xC0) != 0x80)
                return (size_t)-1;
            v = (v << 6) | (t[i + k] & 0x3Fu);
        }
        if ((w == 2 && v < 0x80) || (w == 3 && v < 0x800) || (w == 4 && v < 0x10000))
            return (size_t)-1;
        if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF)
            return (size_t)-1;
        if (!(v == 0x85 || (v >= 0xA0 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) ||
              v >= 0x10000))
            return (size_t)-1;
        i += w;
        chars++;
    }
}

bool yt_prefill(yaml_parser_t *p, const char *text, size_t len, size_t chars)
{
    /* nothing read yet, as yaml_parser_initialize and yaml_parser_set_input_string leave
     * the parser (else: libyaml reads) */
    if (!p->read_handler || p->encoding != YAML_UTF8_ENCODING || p->eof || p->unread ||
        p->stream_start_produced || p->buffer.pointer != p->buffer.start ||
        p->buffer.last != p->buffer.start || p->raw_buffer.pointer != p->raw_buffer.last)
        return false;
    size_t room = (size_t)(p->buffer.end - p->buffer.start);
    if (len >= room || room - len < 1 + PAD)
        return false; /* (a text this long is read by libyaml, in its chunks) */
    if (chars == (size_t)-1)
        return false; /* libyaml's reader stops there, with its error */
    memcpy(p->buffer.start, text, len);
    memset(p->buffer.start + len, 0, 1 + PAD);
    /* as the reader leaves a parser that has read its whole input: the text, then a NUL
     * counted as one more unread character, the end reached, nothing left to decode */
    p->buffer.last = p->buffer.start + len + 1;
    p->unread = chars + 1;
    p->eof = 1;
    p->offset = len;
    p->input.string.current = p->input.string.end;
    return true;
}
