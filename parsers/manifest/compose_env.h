/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compose_env.h: compose's `.env` file and `${VAR}` interpolation (for compose.c).
 *
 * cz_env_load reads the `.env` beside the compose file (the project directory), as
 * compose's dotenv reader does: one `KEY=VALUE` per line, `#` comment lines, an
 * `export ` prefix, `KEY: VALUE`, single quotes (literal), double quotes (\n, \t, \\, \"
 * escapes; may span lines), unquoted values trimmed and cut at ` #`. A value that
 * itself holds `$` (compose expands it from earlier variables) is opaque. The process
 * environment is never read: a lint does not depend on the shell that runs it. Only the
 * first `input-size` bytes of a big .env are read (limits.h), up to its last whole line.
 *
 * cz_interpolate expands a scalar as compose does: `$$` is `$`; `${VAR}` and `$VAR`
 * give the .env value (unset: opaque); `${VAR:-d}` / `${VAR-d}` the value when set and
 * non-empty / set, else d (itself interpolated, nested up to 8 deep); `${VAR:+a}` /
 * `${VAR+a}` a or nothing; `${VAR:?e}` / `${VAR?e}` the value, else opaque. The bytes of
 * a substituted value map to the `$` that stands for them (a finding on a value from
 * .env points at the interpolated word in the compose file, and its message names the
 * value). What substitutions add to one file is bounded by the limit `expansion-size`:
 * past it a substitution is opaque and the file gets GL900 there.
 *
 * cz_read_beside reads a file named relative to the compose file's directory (absolute
 * names as they are), at most `cap` bytes.
 */
#ifndef GPULINT_PARSERS_COMPOSE_ENV_H
#define GPULINT_PARSERS_COMPOSE_ENV_H

#include "linter/core/hashmap.h"
#include "linter/core/model.h"
#include "linter/core/srcmap.h"

struct cz_env {
    struct gl_map vars;       /* name -> struct cz_var (arena) */
    uint64_t added;           /* bytes substitutions added so far */
    int depth;                /* nesting of defaults being expanded */
};

void cz_env_load(struct cz_env *e, struct gl_doc *doc);
void cz_env_free(struct cz_env *e);

/* Expand in[0..len) (its bytes mapped by inmap) onto out/outmap; *opaque is set when some
 * part could not be known. */
void cz_interpolate(struct gl_doc *doc, struct cz_env *e, const char *in, size_t len,
                    const struct gl_srcmap *inmap, struct gl_buf *out, struct gl_srcmap *outmap,
                    bool *opaque);

/* `name` relative to doc->path's directory (arena). */
const char *cz_path_beside(struct gl_doc *doc, const char *name);
/* The bytes of cz_path_beside(doc, name) (heap, NUL-terminated; free()), or NULL when it
 * cannot be read; *over when it holds more than cap bytes (only cap are kept). */
char *cz_read_beside(struct gl_doc *doc, const char *name, size_t cap, size_t *len, bool *over);

#endif
