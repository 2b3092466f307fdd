/* report_text.c: well-formed text for reports (see report_text.h). */
#include "linter/report_text.h"

#include <string.h>

static const char replacement_char[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if the bytes there are not
 * one. Reads no further than the first byte that breaks the sequence, so a NUL
 * terminator is never passed. *cp receives the code point. */
static size_t utf8_sequence(const unsigned char *s, uint32_t *cp)
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
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (s[i] & 0x3F);
    }
    if (*cp < min || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF))
        return 0;
    return len;
}

void gl_text_utf8(struct gl_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        uint32_t cp;
        size_t n = utf8_sequence(p, &cp);
        if (n) {
            gl_buf_add(b, p, n);
            p += n;
        } else {
            gl_buf_adds(b, replacement_char);
            p++;
        }
    }
}

void gl_text_xml(struct gl_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        uint32_t cp;
        size_t n = utf8_sequence(p, &cp);
        if (n == 0) {
            gl_buf_adds(b, replacement_char);
            p++;
            continue;
        }
        switch (cp) {
        case '&': gl_buf_adds(b, "&amp;"); break;
        case '<': gl_buf_adds(b, "&lt;"); break;
        case '>': gl_buf_adds(b, "&gt;"); break;
        case '"': gl_buf_adds(b, "&quot;"); break;
        case '\'': gl_buf_adds(b, "&apos;"); break;
        case '\t': gl_buf_adds(b, "&#9;"); break;
        case '\n': gl_buf_adds(b, "&#10;"); break;
        case '\r': gl_buf_adds(b, "&#13;"); break;
        default:
            if (cp < 0x20 || cp == 0xFFFE || cp == 0xFFFF)
                gl_buf_adds(b, replacement_char);
            else
                gl_buf_add(b, p, n);
        }
        p += n;
    }
}

void gl_text_sentence(struct gl_buf *b, const char *s)
{
    size_t start = b->len;
    gl_text_utf8(b, s);
    while (b->len > start && (b->data[b->len - 1] == ' ' || b->data[b->len - 1] == '\n'))
        b->len--;
    if (b->data)
        b->data[b->len] = 0;
    char last = b->len > start ? b->data[b->len - 1] : 0;
    if (last != '.' && last != '!' && last != '?')
        gl_buf_addc(b, '.');
}

const char *gl_text_report_path(const char *file)
{
    while (file[0] == '.' && file[1] == '/') {
        file += 2;
        while (*file == '/')
            file++;
    }
    return *file ? file : ".";
}

static bool uri_unreserved(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

void gl_text_uri(struct gl_buf *b, const char *path)
{
    const char *p = gl_text_report_path(path);
    if (p[0] == '/')
        gl_buf_adds(b, "file://");
    for (; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (uri_unreserved(c))
            gl_buf_addc(b, (char)c);
        else
            gl_buf_printf(b, "%%%02X", c);
    }
}
