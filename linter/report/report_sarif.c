/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report_sarif.c: SARIF 2.1.0, as GitHub code scanning ingests it (see report.h).
 *
 * One run. tool.driver lists every rule of the registry (so ruleIndex is the rule's
 * index in gl_rule_table), each with its summary, explanation and the --explain text as
 * help (text and markdown, from rule_doc.h), and as helpUri its page docs/rules/<ID>.md
 * under GPULINT_DOCS_URL (a CMake cache variable); the driver's informationUri is the
 * README (GPULINT_README_URL, derived from it). A result has its ruleId and ruleIndex, a
 * level (error, warning; info and style are `note`), the message with the fix hint, one
 * location, and partialFingerprints["gpulint/v1"] (fingerprint.h).
 *
 * Locations: the file as a relative URI (absolute paths as file:// URIs), with a region
 * of startLine/startColumn. An image finding (line 0) has no line to point at: its
 * physical location is the archive file, anchored at its line 1 (GitHub shows no alert
 * without a startLine, and the validator warns on a location without a region), and a
 * logical location names what is inside the archive: the platform, the layer digest
 * and the path.
 *
 * Columns are gpulint's 1-based byte columns; for ASCII lines they equal the UTF-16
 * columns SARIF assumes by default.
 */
#include "linter/report/report.h"

#include <json-c/json.h>

#include "linter/report/fingerprint.h"
#include "linter/report/report_text.h"
#include "linter/core/rule.h"
#include "linter/report/rule_doc.h"

#define GL_SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

/* {"text": "<s>."}: SARIF messages are full sentences. */
static json_object *message_object(const char *s)
{
    struct gl_buf b;
    gl_buf_init(&b);
    gl_text_sentence(&b, s ? s : "");
    json_object *m = json_object_new_object();
    json_object_object_add(m, "text", json_object_new_string_len(gl_buf_str(&b), (int)b.len));
    gl_buf_free(&b);
    return m;
}

static const char *sarif_level(enum gl_severity s)
{
    switch (s) {
    case GL_SEV_ERROR: return "error";
    case GL_SEV_WARNING: return "warning";
    default: return "note";
    }
}

static json_object *rule_descriptor(const struct gl_rule *r)
{
    json_object *d = json_object_new_object();
    json_object_object_add(d, "id", json_object_new_string(r->id));
    json_object_object_add(d, "name", json_object_new_string(r->name));
    json_object_object_add(d, "shortDescription", message_object(r->summary));
    json_object_object_add(d, "fullDescription", message_object(r->explanation));

    struct gl_buf text, markdown;
    gl_buf_init(&text);
    gl_buf_init(&markdown);
    gl_rule_doc_text(&text, r);
    gl_rule_doc_markdown(&markdown, r);
    json_object *help = json_object_new_object();
    json_object_object_add(help, "text", json_object_new_string(gl_buf_str(&text)));
    json_object_object_add(help, "markdown", json_object_new_string(gl_buf_str(&markdown)));
    gl_buf_free(&text);
    gl_buf_free(&markdown);
    json_object_object_add(d, "help", help);

    struct gl_buf uri;
    gl_buf_init(&uri);
    gl_buf_printf(&uri, "%s%s.md", GPULINT_DOCS_URL, r->id);
    json_object_object_add(d, "helpUri", json_object_new_string(gl_buf_str(&uri)));
    gl_buf_free(&uri);

    json_object *config = json_object_new_object();
    json_object_object_add(config, "level", json_object_new_string(sarif_level(r->severity)));
    json_object_object_add(config, "enabled", json_object_new_boolean(!r->optional));
    json_object_object_add(d, "defaultConfiguration", config);

    json_object *props = json_object_new_object();
    json_object_object_add(props, "gpulintSeverity",
                           json_object_new_string(gl_severity_name(r->severity)));
    json_object_object_add(d, "properties", props);
    return d;
}

static json_object *tool_object(void)
{
    json_object *driver = json_object_new_object();
    json_object_object_add(driver, "name", json_object_new_string("gpulint"));
    json_object_object_add(driver, "version", json_object_new_string(GPULINT_VERSION));
    json_object_object_add(driver, "semanticVersion", json_object_new_string(GPULINT_VERSION));
    json_object_object_add(driver, "informationUri", json_object_new_string(GPULINT_README_URL));
    json_object *rules = json_object_new_array_ext((int)gl_rule_count);
    for (size_t i = 0; i < gl_rule_count; i++)
        json_object_array_add(rules, rule_descriptor(gl_rule_table[i]));
    json_object_object_add(driver, "rules", rules);
    json_object *tool = json_object_new_object();
    json_object_object_add(tool, "driver", driver);
    return tool;
}

static json_object *artifact_location(const char *file)
{
    struct gl_buf uri;
    gl_buf_init(&uri);
    gl_text_uri(&uri, file);
    json_object *a = json_object_new_object();
    json_object_object_add(a, "uri", json_object_new_string_len(gl_buf_str(&uri), (int)uri.len));
    gl_buf_free(&uri);
    return a;
}

/* "linux/amd64 sha256:... /usr/bin/x": where inside an image archive a finding is. */
static json_object *image_logical_location(const struct gl_finding *f)
{
    struct gl_buf name;
    gl_buf_init(&name);
    if (f->platform)
        gl_buf_printf(&name, "%s ", f->platform);
    if (f->layer)
        gl_buf_printf(&name, "%s ", f->layer);
    gl_buf_adds(&name, f->image_path ? f->image_path : "");
    while (name.len && name.data[name.len - 1] == ' ')
        name.data[--name.len] = 0;
    json_object *l = json_object_new_object();
    json_object_object_add(l, "name", json_object_new_string(f->image_path ? f->image_path : ""));
    json_object_object_add(l, "fullyQualifiedName", json_object_new_string(gl_buf_str(&name)));
    json_object_object_add(l, "kind", json_object_new_string("resource"));
    gl_buf_free(&name);
    return l;
}

static json_object *location_object(const struct gl_finding *f)
{
    json_object *phys = json_object_new_object();
    json_object_object_add(phys, "artifactLocation", artifact_location(f->file));
    json_object *region = json_object_new_object();
    if (f->loc.line > 0) {
        json_object_object_add(region, "startLine", json_object_new_int64(f->loc.line));
        json_object_object_add(region, "startColumn",
                               json_object_new_int64(f->loc.col > 0 ? f->loc.col : 1));
    } else {
        /* the whole archive: GitHub needs a startLine to show an alert at all */
        json_object_object_add(region, "startLine", json_object_new_int64(1));
    }
    json_object_object_add(phys, "region", region);
    json_object *loc = json_object_new_object();
    json_object_object_add(loc, "physicalLocation", phys);
    if (f->loc.line == 0 && (f->image_path || f->layer || f->platform)) {
        json_object *logical = json_object_new_array_ext(1);
        json_object_array_add(logical, image_logical_location(f));
        json_object_object_add(loc, "logicalLocations", logical);
    }
    return loc;
}

static size_t rule_index(const struct gl_rule *r)
{
    for (size_t i = 0; i < gl_rule_count; i++)
        if (gl_rule_table[i] == r)
            return i;
    return 0; /* every finding's rule comes from the table */
}

static json_object *result_object(const struct gl_finding *f, const char *fingerprint)
{
    json_object *res = json_object_new_object();
    json_object_object_add(res, "ruleId", json_object_new_string(f->rule->id));
    json_object_object_add(res, "ruleIndex", json_object_new_int64((int64_t)rule_index(f->rule)));
    json_object_object_add(res, "level", json_object_new_string(sarif_level(f->severity)));

    struct gl_buf text;
    gl_buf_init(&text);
    gl_text_sentence(&text, f->message);
    if (f->fix && *f->fix) {
        gl_buf_adds(&text, " Fix: ");
        gl_text_sentence(&text, f->fix);
    }
    json_object *msg = json_object_new_object();
    json_object_object_add(msg, "text", json_object_new_string_len(gl_buf_str(&text), (int)text.len));
    gl_buf_free(&text);
    json_object_object_add(res, "message", msg);

    json_object *locs = json_object_new_array_ext(1);
    json_object_array_add(locs, location_object(f));
    json_object_object_add(res, "locations", locs);

    json_object *fps = json_object_new_object();
    json_object_object_add(fps, "gpulint/v1", json_object_new_string(fingerprint));
    json_object_object_add(res, "partialFingerprints", fps);
    return res;
}

void gl_report_sarif(FILE *out, const struct gl_run *run)
{
    json_object *results = json_object_new_array();
    json_object *run_obj = json_object_new_object();
    json_object_object_add(run_obj, "tool", tool_object());
    json_object_object_add(run_obj, "results", results);

    json_object *root = json_object_new_object();
    json_object_object_add(root, "$schema", json_object_new_string(GL_SARIF_SCHEMA));
    json_object_object_add(root, "version", json_object_new_string("2.1.0"));
    json_object *runs = json_object_new_array_ext(1);
    json_object_array_add(runs, run_obj);
    json_object_object_add(root, "runs", runs);

    struct gl_json_stream st;
    gl_json_stream_begin(&st, out, root, results);
    json_object_put(root);
    struct gl_fingerprinter fps;
    gl_fingerprinter_init(&fps, gl_spill_one_prefix(&run->spill, &run->findings));
    struct gl_finding_cursor c;
    gl_cursor_init(&c, &run->findings, &run->spill);
    for (const struct gl_finding *f; (f = gl_cursor_next(&c));) {
        char hex[GL_FINGERPRINT_HEX + 1];
        gl_fingerprint_next(&fps, f, hex);
        gl_json_stream_add(&st, result_object(f, hex));
    }
    gl_cursor_free(&c);
    gl_fingerprinter_free(&fps);
    gl_json_stream_end(&st);
}
