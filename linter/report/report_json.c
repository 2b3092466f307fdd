/* SPDX-License-Identifier: Apache-2.0 */
/* report_json.c: the JSON report, exactly the DESIGN.md schema (see report.h). */
#include "linter/report/report.h"

#include <json-c/json.h>

#include "linter/report/report_text.h"
#include "linter/core/rule.h"

/* A JSON string of s (NULL: ""); gl_text_write_json makes it valid UTF-8. */
static json_object *string_of(const char *s)
{
    return json_object_new_string(s ? s : "");
}

void gl_report_json(FILE *out, const struct gl_run *run)
{
    json_object *root = json_object_new_object();
    json_object_object_add(root, "tool", json_object_new_string("gpulint"));
    json_object_object_add(root, "version", json_object_new_string(GPULINT_VERSION));
    json_object *arr = json_object_new_array();
    json_object_object_add(root, "findings", arr);
    struct gl_summary s;
    gl_summary_count(run, &s);
    json_object *sum = json_object_new_object();
    json_object_object_add(sum, "files", json_object_new_int64((int64_t)s.files));
    json_object_object_add(sum, "findings", json_object_new_int64((int64_t)s.findings));
    json_object_object_add(sum, "errors", json_object_new_int64((int64_t)s.errors));
    json_object_object_add(sum, "warnings", json_object_new_int64((int64_t)s.warnings));
    json_object_object_add(sum, "infos", json_object_new_int64((int64_t)s.infos));
    json_object_object_add(root, "summary", sum);

    struct gl_json_stream st;
    gl_json_stream_begin(&st, out, root, arr);
    json_object_put(root);
    struct gl_finding_cursor c;
    gl_cursor_init(&c, &run->findings, &run->spill);
    for (const struct gl_finding *f; (f = gl_cursor_next(&c));) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "rule", json_object_new_string(f->rule->id));
        json_object_object_add(o, "name", json_object_new_string(f->rule->name));
        json_object_object_add(o, "severity",
                               json_object_new_string(gl_severity_name(f->severity)));
        json_object_object_add(o, "file", string_of(f->file));
        json_object_object_add(o, "line", json_object_new_int64(f->loc.line));
        json_object_object_add(o, "column", json_object_new_int64(f->loc.col));
        json_object_object_add(o, "message", string_of(f->message));
        json_object_object_add(o, "fix", string_of(f->fix));
        gl_json_stream_add(&st, o);
    }
    gl_cursor_free(&c);
    gl_json_stream_end(&st);
}
