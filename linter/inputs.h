/*
 * inputs.h: the kinds of input gpulint reads, how each is recognised, and its parser.
 *
 * gl_sniff() decides what a file is: first by name (Dockerfile, Containerfile,
 * *.Dockerfile, Dockerfile.*, ...), then by content. A file found by walking a directory
 * is only linted when it is recognised; a file named on the command line is linted
 * whatever its name (as a Dockerfile when its content says nothing else, see below).
 */
#ifndef GPULINT_INPUTS_H
#define GPULINT_INPUTS_H

#include "linter/config.h"
#include "linter/model.h"

struct gl_input_type {
    enum gl_input_kind kind;
    const char *name; /* for --type: "dockerfile", "shell", ... */
    /* Build the model of doc from doc->text (doc->path names it). Bad input sets
     * doc->error at the first bad byte; the parser never fails otherwise. */
    void (*parse)(struct gl_doc *doc, const struct gl_config *cfg);
};

/* The type for a kind or a --type name; NULL when gpulint has no parser for it. */
const struct gl_input_type *gl_input_type_of(enum gl_input_kind kind);
const struct gl_input_type *gl_input_type_named(const char *name);
/* Names accepted by --type, comma separated (for messages). */
const char *gl_input_type_names(void);

/* What the file at `path` (basename decides first) with this content is. `named`: the
 * user named it, so a file with no other recognisable kind is read as a Dockerfile
 * when it looks like one. GL_IN_UNKNOWN when it is none of gpulint's inputs. */
enum gl_input_kind gl_sniff(const char *path, const char *data, size_t len, bool named);
/* By name alone (for the directory walk, before reading): kind, or GL_IN_UNKNOWN when
 * the content must decide (gl_sniff_wants_content says whether to read it). */
enum gl_input_kind gl_sniff_name(const char *path);
bool gl_sniff_wants_content(const char *path);

#endif
