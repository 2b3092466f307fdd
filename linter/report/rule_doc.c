/* SPDX-License-Identifier: Apache-2.0 */
/* rule_doc.c: a rule's documentation from its registry entry (see rule_doc.h). */
#include "linter/report/rule_doc.h"

#include <string.h>

static bool present(const char *s)
{
    return s && *s;
}

void gl_rule_doc_text(struct gl_buf *b, const struct gl_rule *r)
{
    gl_buf_printf(b, "%s %s (%s%s)\n\n%s\n\n%s\n", r->id, r->name,
                  gl_severity_name(r->severity),
                  r->optional ? ", optional: turn on with --enable" : "", r->summary,
                  r->explanation);
    if (present(r->bad))
        gl_buf_printf(b, "\nBefore:\n\n%s\n", r->bad);
    if (present(r->good))
        gl_buf_printf(b, "\nAfter:\n\n%s\n", r->good);
    if (present(r->fix))
        gl_buf_printf(b, "\nFix: %s\n", r->fix);
}

/* A code fence longer than any run of backticks inside `code`. */
static void add_fenced(struct gl_buf *b, const char *code)
{
    size_t longest = 0, run = 0;
    for (const char *p = code; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    size_t fence = longest < 3 ? 3 : longest + 1;
    for (size_t i = 0; i < fence; i++)
        gl_buf_addc(b, '`');
    gl_buf_printf(b, "\n%s\n", code);
    for (size_t i = 0; i < fence; i++)
        gl_buf_addc(b, '`');
    gl_buf_addc(b, '\n');
}

void gl_rule_doc_markdown(struct gl_buf *b, const struct gl_rule *r)
{
    gl_buf_printf(b, "# %s %s\n\n", r->id, r->name);
    gl_buf_printf(b, "Default severity: **%s**.", gl_severity_name(r->severity));
    if (r->optional)
        gl_buf_printf(b, " Optional: off unless turned on with `--enable %s`.", r->id);
    gl_buf_printf(b, "\n\nFires when %s.\n\n## Why\n\n%s\n", r->summary, r->explanation);
    if (present(r->bad) || present(r->good))
        gl_buf_adds(b, "\n## Example\n");
    if (present(r->bad)) {
        gl_buf_adds(b, "\nBefore (fires):\n\n");
        add_fenced(b, r->bad);
    }
    if (present(r->good)) {
        gl_buf_adds(b, "\nAfter (passes):\n\n");
        add_fenced(b, r->good);
    }
    if (present(r->fix))
        gl_buf_printf(b, "\n## Fix\n\n%s\n", r->fix);
    gl_buf_printf(b, "\n## Turning it off\n\n"
                     "`# gpulint ignore=%s` on the line above the finding, "
                     "`# gpulint global ignore=%s` anywhere in the file, "
                     "or `--ignore %s` for the whole run.\n",
                  r->id, r->id, r->id);
}
