/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report_gitlab.c: GitLab Code Quality JSON (see report.h): an array of
 *
 *     {"description": "...", "check_name": "GL101", "fingerprint": "<32 hex>",
 *      "severity": "major", "location": {"path": "Dockerfile", "lines": {"begin": 1}}}
 *
 * Severities: style -> info, info -> minor, warning -> major, error -> critical
 * (gpulint has nothing worse than an error, so `blocker` is not used). The fingerprint
 * is fingerprint.h's, stable across runs and line moves. An image finding (line 0) is
 * reported at line 1 of the archive: GitLab needs a line.
 */
#include "linter/report/report.h"

#include <json-c/json.h>

#include "linter/report/fingerprint.h"
#include "linter/report/report_text.h"
#include "linter/core/rule.h"

static const char *gitlab_severity(enum gl_severity s)
{
    switch (s) {
    case GL_SEV_ERROR: return "critical";
    case GL_SEV_WARNING: return "major";
    case GL_SEV_INFO: return "minor";
    default: return "info";
    }
}

static json_object *issue_object(struct gl_buf *scratch, const struct gl_finding *f,
                                 const char *fingerprint)
{
    json_object *o = json_object_new_object();
    scratch->len = 0;
    gl_buf_printf(scratch, "%s: %s", f->rule->name, f->message);
    json_object_object_add(o, "description",
                           json_object_new_string_len(gl_buf_str(scratch), (int)scratch->len));
    json_object_object_add(o, "check_name", json_object_new_string(f->rule->id));
    json_object_object_add(o, "fingerprint", json_object_new_string(fingerprint));
    json_object_object_add(o, "severity", json_object_new_string(gitlab_severity(f->severity)));
    json_object *lines = json_object_new_object();
    json_object_object_add(lines, "begin", json_object_new_int64(f->loc.line ? f->loc.line : 1));
    json_object *loc = json_object_new_object();
    json_object_object_add(loc, "path", json_object_new_string(gl_text_report_path(f->file)));
    json_object_object_add(loc, "lines", lines);
    json_object_object_add(o, "location", loc);
    return o;
}

void gl_report_gitlab(FILE *out, const struct gl_run *run)
{
    struct gl_fingerprinter fps;
    gl_fingerprinter_init(&fps, gl_spill_one_prefix(&run->spill, &run->findings));
    struct gl_buf scratch;
    gl_buf_init(&scratch);
    json_object *arr = json_object_new_array();
    struct gl_json_stream st;
    gl_json_stream_begin(&st, out, arr, arr);
    json_object_put(arr);
    struct gl_finding_cursor c;
    gl_cursor_init(&c, &run->findings, &run->spill);
    for (const struct gl_finding *f; (f = gl_cursor_next(&c));) {
        char hex[GL_FINGERPRINT_HEX + 1];
        gl_fingerprint_next(&fps, f, hex);
        gl_json_stream_add(&st, issue_object(&scratch, f, hex));
    }
    gl_cursor_free(&c);
    gl_json_stream_end(&st);
    gl_buf_free(&scratch);
    gl_fingerprinter_free(&fps);
}
