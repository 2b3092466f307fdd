/* SPDX-License-Identifier: Apache-2.0 */
/* escape.c: bytes from inputs made safe to print (see escape.h). */
#include "linter/core/escape.h"

#include <stdarg.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const char replacement_char[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Length of the valid UTF-8 sequence at s (1 to 4, at most `left`), or 0 if the bytes
 * there are not one. Reads no further than the first byte that breaks the sequence.
 * *cp receives the code point. */
static size_t utf8_decode(const unsigned char *s, size_t left, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t len;
    uint32_t min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2, min = 0x80, *cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, min = 0x800, *cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, min = 0x10000, *cp = c & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if (i >= left || (s[i] & 0xC0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (s[i] & 0x3F);
    }
    if (*cp < min || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF))
        return 0;
    return len;
}

/* C0, DEL, C1, and the format characters that reorder or break lines (escape.h). */
static bool is_control(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The TEXT form of a code point: `\xNN` below U+0080, else `\uNNNN`. */
static void visible(struct gl_buf *b, uint32_t cp)
{
    if (cp < 0x80)
        gl_buf_printf(b, "\\x%02x", (unsigned)cp);
    else
        gl_buf_printf(b, "\\u%04x", (unsigned)cp);
}

static void control(struct gl_buf *b, uint32_t cp, enum gl_escape_target to)
{
    switch (to) {
    case GL_ESCAPE_TEXT:
    case GL_ESCAPE_QUOTED: visible(b, cp); break;
    case GL_ESCAPE_JSON: gl_buf_printf(b, "\\u%04x", (unsigned)cp); break;
    case GL_ESCAPE_XML:
        if (cp == '\t' || cp == '\n' || cp == '\r')
            gl_buf_printf(b, "&#%u;", (unsigned)cp);
        else if (cp < 0x20)
            visible(b, cp); /* XML 1.0 has no way to hold it */
        else
            gl_buf_printf(b, "&#x%X;", (unsigned)cp);
        break;
    }
}

/* Append the XML entity or visible escape cp needs: false when it goes as it is. */
static bool xml_special(struct gl_buf *b, uint32_t cp)
{
    switch (cp) {
    case '&': gl_buf_adds(b, "&amp;"); return true;
    case '<': gl_buf_adds(b, "&lt;"); return true;
    case '>': gl_buf_adds(b, "&gt;"); return true;
    case '"': gl_buf_adds(b, "&quot;"); return true;
    case '\'': gl_buf_adds(b, "&apos;"); return true;
    case 0xFFFE:
    case 0xFFFF: visible(b, cp); return true; /* not XML 1.0 characters */
    default: return false;
    }
}

static void printable(struct gl_buf *b, const unsigned char *s, size_t n, uint32_t cp,
                      enum gl_escape_target to)
{
    if (to == GL_ESCAPE_XML && xml_special(b, cp))
        return;
    if (to == GL_ESCAPE_QUOTED && (cp == '"' || cp == '\\'))
        gl_buf_addc(b, '\\');
    gl_buf_add(b, s, n);
}

/* An ASCII byte `to` copies as it is. In a serialised JSON text C0 is whitespace
 * between tokens: json-c escaped it inside strings. */
static bool ascii_kept(unsigned char c, enum gl_escape_target to)
{
    if (c >= 0x7F)
        return false;
    if (c < 0x20)
        return to == GL_ESCAPE_JSON;
    switch (to) {
    case GL_ESCAPE_QUOTED: return c != '"' && c != '\\';
    case GL_ESCAPE_XML: return !strchr("&<>\"'", c);
    default: return true;
    }
}

/* How many bytes at s[0..lim) `to` keeps as they are, for TEXT (0x20-0x7E) and JSON (below
 * 0x7F): eight bytes a step while none of the eight is out of the range, then byte by byte.
 * A step's tests are the word tricks for "some byte is below 0x20" ((v - 0x20..) & ~v has
 * the top bit of a byte set, the lowest such byte exactly) and "some byte is 0x7F or
 * above" (v has its top bit set, or v + 0x01.. does where the byte was 0x7F); a carry
 * between bytes can only set more bits above a byte that is out of the range already, so
 * a step that finds none is exact, and a step that finds one leaves it to the byte loop. */
static size_t ascii_run(const unsigned char *s, size_t lim, bool c0_kept)
{
    const uint64_t ones = 0x0101010101010101u, tops = 0x8080808080808080u;
    size_t run = 0;
#ifdef __SSE2__
    /* sixteen bytes a step first: as signed bytes, 0x80 and above are negative, so "below
     * 0x20" (TEXT) or "below 0" (JSON) and "equal to 0x7F" find every byte out of the
     * range, the first of them exactly (the lowest bit of the mask) */
    {
        const __m128i low = _mm_set1_epi8(c0_kept ? 0 : 0x20), del = _mm_set1_epi8(0x7F);
        for (; run + 16 <= lim; run += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + run));
            unsigned m = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmplt_epi8(x, low), _mm_cmpeq_epi8(x, del)));
            if (m)
                return run + (size_t)__builtin_ctz(m);
        }
    }
#endif
    for (; run + 8 <= lim; run += 8) {
        uint64_t v;
        memcpy(&v, s + run, 8);
        uint64_t out = (v | (v + ones)) & tops;
        if (!c0_kept)
            out |= (v - 0x20 * ones) & ~v & tops;
        if (out)
            break;
    }
    if (c0_kept)
        while (run < lim && s[run] < 0x7F)
            run++;
    else
        while (run < lim && s[run] >= 0x20 && s[run] < 0x7F)
            run++;
    return run;
}

/* Escape the run of kept ASCII bytes (up to 4 KiB, so gl_escape_write stays in pieces),
 * or else the one character, at s (of `left` bytes); returns how many bytes it took. */
static size_t escape_one(struct gl_buf *b, const unsigned char *s, size_t left,
                         enum gl_escape_target to)
{
    size_t run = 0, lim = left < 4096 ? left : 4096;
    /* (ascii_kept with the target's test taken out of the loop) */
    switch (to) {
    case GL_ESCAPE_TEXT: run = ascii_run(s, lim, false); break;
    case GL_ESCAPE_JSON: run = ascii_run(s, lim, true); break;
    default:
        while (run < lim && ascii_kept(s[run], to))
            run++;
        break;
    }
    if (run) {
        gl_buf_add(b, s, run);
        return run;
    }
    uint32_t cp;
    size_t n = utf8_decode(s, left, &cp);
    if (n == 0) {
        if (to == GL_ESCAPE_TEXT)
            gl_buf_printf(b, "\\x%02x", s[0]);
        else
            gl_buf_adds(b, replacement_char);
        return 1;
    }
    if (is_control(cp))
        control(b, cp, to);
    else
        printable(b, s, n, cp, to);
    return n;
}

void gl_escape(struct gl_buf *b, const char *s, size_t len, enum gl_escape_target to)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;)
        i += escape_one(b, p + i, len - i, to);
}

void gl_escape_str(struct gl_buf *b, const char *s, enum gl_escape_target to)
{
    gl_escape(b, s ? s : "", s ? strlen(s) : 0, to);
}

bool gl_escape_plain(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    while (left) {
        uint32_t cp;
        size_t n = utf8_decode(p, left, &cp);
        if (n == 0 || is_control(cp))
            return false;
        p += n, left -= n;
    }
    return true;
}

bool gl_escape_write(FILE *out, const char *s, size_t len, enum gl_escape_target to)
{
    enum { CHUNK = 65536 };
    const unsigned char *p = (const unsigned char *)s;
    struct gl_buf b;
    gl_buf_init(&b);
    bool ok = true;
    for (size_t i = 0; i < len && ok;) {
        i += escape_one(&b, p + i, len - i, to);
        if (b.len >= CHUNK || i == len) {
            ok = fwrite(b.data, 1, b.len, out) == b.len;
            b.len = 0;
        }
    }
    gl_buf_free(&b);
    return ok;
}

static _Thread_local struct gl_buf *captured; /* gl_eprintf_capture */

void gl_eprintf_capture(struct gl_buf *into) { captured = into; }

void gl_eprintf(const char *fmt, ...)
{
    struct gl_buf msg, line;
    gl_buf_init(&msg);
    gl_buf_init(&line);
    va_list ap;
    va_start(ap, fmt);
    gl_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    gl_buf_adds(&line, "gpulint: ");
    gl_escape(&line, msg.data ? msg.data : "", msg.len, GL_ESCAPE_TEXT);
    gl_buf_addc(&line, '\n');
    if (captured)
        gl_buf_add(captured, line.data, line.len);
    else
        fwrite(line.data, 1, line.len, stderr);
    gl_buf_free(&msg);
    gl_buf_free(&line);
}
