/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rule_doc.h: a rule's documentation, written from its registry entry (rule.h) alone.
 *
 * One source, several renderings, so they cannot drift apart:
 *
 *  - gl_rule_doc_text: what `gpulint --explain ID` prints, and the plain-text `help` of
 *    the rule in SARIF output;
 *  - gl_rule_doc_markdown: docs/rules/<ID>.md (tools/gendocs.c writes them) and the
 *    markdown `help` in SARIF output.
 *
 * The man page (also tools/gendocs.c) lists every rule's id, name, severity and summary.
 * Both functions append to `b`; the text is the registry's, unchanged.
 */
#ifndef GPULINT_RULE_DOC_H
#define GPULINT_RULE_DOC_H

#include "linter/core/rule.h"

void gl_rule_doc_text(struct gl_buf *b, const struct gl_rule *r);
void gl_rule_doc_markdown(struct gl_buf *b, const struct gl_rule *r);

#endif
