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

/* json-c writes a pretty array as "[\n" + (indent + element) joined by ",\n" + "\n" +
 * outer indent + "]" ("[\n" + outer indent + "]" when empty), and an element at depth d
 * as the element alone with 2d more spaces after each of its newlines (strings hold no
 * raw newline). A marker element shows where the array is and how deep. */
#define STREAM_MARKER "\\u0001gpulint-stream\\u0001"

static const int json_flags =
    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE;

static void stream_write(struct gl_json_stream *st, const char *s, size_t len)
{
    if (st->ok && len)
        st->ok = gl_escape_write(st->out, s, len, GL_ESCAPE_JSON);
}

void gl_json_stream_begin(struct gl_json_stream *st, FILE *out, struct json_object *root,
                          struct json_object *slot)
{
    memset(st, 0, sizeof *st);
    st->out = out;
    st->ok = true;
    gl_buf_init(&st->b);
    json_object_array_add(slot, json_object_new_string("\001gpulint-stream\001"));
    const char *text = json_object_to_json_string_ext(root, json_flags);
    const char *m = strstr(text, "\"" STREAM_MARKER "\"");
    size_t at = m ? (size_t)(m - text) : 0;
    size_t sp = 0;
    while (sp < at && text[at - 1 - sp] == ' ')
        sp++;
    st->indent = sp;
    stream_write(st, text, at - sp); /* up to "[\n" */
    st->tail = xstrdup(m ? m + strlen(STREAM_MARKER) + 2 : "");
}

void gl_json_stream_add(struct gl_json_stream *st, struct json_object *element)
{
    const char *text = json_object_to_json_string_ext(element, json_flags);
    st->b.len = 0;
    if (st->count++)
        gl_buf_adds(&st->b, ",\n");
    for (size_t i = 0; i < st->indent; i++)
        gl_buf_addc(&st->b, ' ');
    for (const char *p = text, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl) {
            gl_buf_adds(&st->b, p);
            break;
        }
        gl_buf_add(&st->b, p, (size_t)(nl - p) + 1);
        for (size_t i = 0; i < st->indent; i++)
            gl_buf_addc(&st->b, ' ');
    }
    stream_write(st, st->b.data, st->b.len);
    json_object_put(element);
}

void gl_json_stream_end(struct gl_json_stream *st)
{
    const char *tail = st->tail; /* "\n" + outer indent + "]" + the rest */
    if (!st->count && *tail == '\n')
        tail++;
    stream_write(st, tail, strlen(tail));
    if (st->ok)
        fputc('\n', st->out);
    free(st->tail);
    gl_buf_free(&st->b);
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
