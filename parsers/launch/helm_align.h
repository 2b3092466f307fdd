/*
 * helm_align.h: which line of a Helm template each rendered line came from.
 *
 * `helm template` writes each template's objects after a `# Source:` comment, but keeps
 * no positions. A rendered line is put back on its template line by what stands there
 * literally, searching forward from the last line matched (then from the top: a range
 * renders one template's lines several times):
 *  - a template line without expressions that equals it (indentation aside: nindent
 *    moves lines): every column maps, shifted by the change in indentation;
 *  - else a template line whose text before its first `{{` is a real prefix of it (at
 *    least MIN_LITERAL bytes holding a letter or digit: `image: "`, `nvidia.com/gpu: `):
 *    the columns of that prefix map, the rest to the column of that `{{` (the value came
 *    from it);
 *  - else (a line from an include, toYaml, a default): the resource's first line in the
 *    template, the line the first matched line of its section stands on (line 1 when
 *    none did), at its first column.
 * Blank lines and comments match as any line does (helm keeps comments). Work is at
 * most rendered lines x template lines byte comparisons, each rejected on its length or
 * first byte.
 */
#ifndef GPULINT_PARSERS_HELM_ALIGN_H
#define GPULINT_PARSERS_HELM_ALIGN_H

#include "linter/core/model.h"

#define MIN_LITERAL 3

/* A template's lines, ready for matching. */
struct helm_tmpl {
    const char *text;
    struct helm_tmpl_line {
        uint32_t body;   /* offset of its first byte after the indentation */
        uint32_t len;    /* bytes of the body, without trailing blanks and CR */
        uint32_t indent; /* bytes of indentation (spaces) */
        uint32_t lit;    /* bytes of the body before its first `{{` (len when none) */
    } *lines;
    size_t n;
    size_t cursor;       /* where the next section's search starts */
};

/* Index text[0..len) (kept by reference) in `a`. */
void helm_tmpl_init(struct helm_tmpl *t, struct gl_arena *a, const char *text, size_t len);

/* Map the rendered lines [first, end) of one section (0-based line numbers of `text`,
 * whose line starts are starts[]; its last line ends at text_len) to the template `t`
 * (file index `file`): out[i] for each rendered line i of the section. */
void helm_align(struct helm_tmpl *t, const char *text, size_t text_len, const uint32_t *starts,
                size_t nstarts, size_t first, size_t end, uint32_t file,
                struct gl_render_line *out);

#endif
