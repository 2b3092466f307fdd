/* SPDX-License-Identifier: Apache-2.0 */
/*
 * config_pos.h: the positions the `.gpulint.yaml` reader reports (internal to
 * linter/config).
 *
 * The reader has always turned libyaml's marks (lines counted at every line break
 * libyaml knows: LF, CR LF, CR, NEL, LS, PS; columns counted in characters) into a line
 * counted at LF and lone CR and a byte column, with a byte-order mark opening the file
 * skipped after libyaml had counted it as a character of line 1. For a text whose only
 * line breaks are LF and CR LF and that opens with no byte-order mark, that is the
 * YAML tree's own position (yt_loc_of); any other text is converted the old way, so
 * that no reported position moves.
 */
#ifndef GPULINT_CONFIG_POS_H
#define GPULINT_CONFIG_POS_H

#include "parsers/yaml/yaml_tree.h"

struct gl_config_pos {
    const struct yt_stream *s;
    bool plain;                  /* only LF and CR LF, no opening byte-order mark */
    /* two cursors that only move forward while positions come in file order */
    size_t mark_off, mark_line, mark_col; /* libyaml's mark at byte mark_off */
    size_t line_no, line_start;  /* 0-based line counted at LF and lone CR, its start */
};

void gl_config_pos_init(struct gl_config_pos *p, const struct yt_stream *s);
/* The reported position of byte offset `off` of the text. */
struct gl_loc gl_config_pos_at(struct gl_config_pos *p, size_t off);
/* The reported position of a mark libyaml moved past the end (yt_node.past_end). */
struct gl_loc gl_config_pos_past_end(struct gl_config_pos *p);

#endif
