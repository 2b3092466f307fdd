/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report_checkstyle.c: Checkstyle XML (see report.h), as reviewdog, Jenkins and most CI
 * dashboards read it:
 *
 *     <?xml version="1.0" encoding="UTF-8"?>
 *     <checkstyle version="4.3">
 *       <file name="Dockerfile">
 *         <error line="1" column="6" severity="warning" message="..." source="gpulint.GL101"/>
 *       </file>
 *     </checkstyle>
 *
 * One <file> per file, in the findings' sorted order. Severities: error, warning, and
 * info for info and style. An image finding (line 0) has no line or column attribute.
 * Every attribute goes through gl_escape (GL_ESCAPE_XML), so any bytes a finding holds
 * still make well-formed XML.
 */
#include "linter/report/report.h"

#include <string.h>

#include "linter/core/escape.h"
#include "linter/report/report_text.h"
#include "linter/core/rule.h"

static const char *checkstyle_severity(enum gl_severity s)
{
    switch (s) {
    case GL_SEV_ERROR: return "error";
    case GL_SEV_WARNING: return "warning";
    default: return "info";
    }
}

static void add_error(struct gl_buf *b, const struct gl_finding *f)
{
    gl_buf_adds(b, "    <error");
    if (f->loc.line > 0)
        gl_buf_printf(b, " line=\"%u\" column=\"%u\"", f->loc.line, f->loc.col);
    gl_buf_printf(b, " severity=\"%s\" message=\"", checkstyle_severity(f->severity));
    gl_escape_str(b, f->message, GL_ESCAPE_XML);
    if (f->fix && *f->fix) {
        gl_buf_adds(b, " (fix: ");
        gl_escape_str(b, f->fix, GL_ESCAPE_XML);
        gl_buf_addc(b, ')');
    }
    gl_buf_printf(b, "\" source=\"gpulint.%s\"/>\n", f->rule->id);
}

void gl_report_checkstyle(FILE *out, const struct gl_run *run)
{
    struct gl_buf b;
    gl_buf_init(&b);
    gl_buf_adds(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n");
    struct gl_buf open_file; /* the file of the <file> open, when `open` */
    gl_buf_init(&open_file);
    bool open = false;
    struct gl_finding_cursor c;
    gl_cursor_init(&c, &run->findings, &run->spill);
    for (const struct gl_finding *f; (f = gl_cursor_next(&c));) {
        if (!open || strcmp(gl_buf_str(&open_file), f->file) != 0) {
            if (open)
                gl_buf_adds(&b, "  </file>\n");
            gl_buf_adds(&b, "  <file name=\"");
            gl_escape_str(&b, gl_text_report_path(f->file), GL_ESCAPE_XML);
            gl_buf_adds(&b, "\">\n");
            open_file.len = 0;
            gl_buf_adds(&open_file, f->file);
            open = true;
        }
        add_error(&b, f);
        gl_text_flush(out, &b, 65536);
    }
    gl_cursor_free(&c);
    gl_buf_free(&open_file);
    if (open)
        gl_buf_adds(&b, "  </file>\n");
    gl_buf_adds(&b, "</checkstyle>\n");
    gl_text_flush(out, &b, 0);
    gl_buf_free(&b);
}
