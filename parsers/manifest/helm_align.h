/* SPDX-License-Identifier: Apache-2.0 */
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
 * Blank lines never match; comments match as any line does (helm keeps them). Lines are
 * found by their text through a hash map, prefixes by trying the template's lines that
 * have one, nearest first; those tries are bounded by ALIGN_WORK for each template and
 * rendered line, so the work stays linear whatever the chart: once it is spent, the
 * lines left go to the resource's first line.
 */
#ifndef GPULINT_PARSERS_HELM_ALIGN_H
#define GPULINT_PARSERS_HELM_ALIGN_H

#include "linter/core/model.h"

#include "linter/core/hashmap.h"

#define MIN_LITERAL 3
#define ALIGN_WORK 16

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
    struct gl_map exact;    /* body -> the lines without expressions that have it */
    uint32_t *prefixed;     /* the lines with a telling literal prefix, in order */
    size_t nprefixed, capprefixed;
    size_t cursor;          /* where the next search starts */
    size_t budget;          /* prefix tries left */
};

/* Index text[0..len) (kept by reference) in `a`; free the index with helm_tmpl_free. */
void helm_tmpl_init(struct helm_tmpl *t, struct gl_arena *a, const char *text, size_t len);
void helm_tmpl_free(struct helm_tmpl *t);

/* Map the rendered lines [first, end) of one section (0-based line numbers of `text`,
 * whose line starts are starts[]; its last line ends at text_len) to the template `t`
 * (file index `file`): out[i] for each rendered line i of the section. */
void helm_align(struct helm_tmpl *t, const char *text, size_t text_len, const uint32_t *starts,
                size_t nstarts, size_t first, size_t end, uint32_t file,
                struct gl_render_line *out);

#endif
