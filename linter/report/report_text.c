/* SPDX-License-Identifier: Apache-2.0 */
/* report_text.c: well-formed text for reports (see report_text.h). */
#include "linter/report/report_text.h"

#include <string.h>

#include <json-c/json.h>

#include "linter/core/escape.h"

void gl_text_write_json(FILE *out, struct json_object *root)
{
    const char *text = json_object_to_json_string_ext(
        root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
    if (gl_escape_write(out, text, strlen(text), GL_ESCAPE_JSON))
        fputc('\n', out);
}

void gl_text_flush(FILE *out, struct gl_buf *b, size_t at_least)
{
    if (b->len < at_least || b->len == 0)
        return;
    fwrite(b->data, 1, b->len, out);
    b->len = 0;
}

void gl_text_sentence(struct gl_buf *b, const char *s)
{
    size_t start = b->len;
    gl_buf_adds(b, s);
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
