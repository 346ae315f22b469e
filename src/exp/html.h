/* html.h: the one-page HTML report of an experiment: figures inlined as SVG, tables, and the
 * configuration used, in a single self-contained file (no scripts, no external resources). */
#ifndef WARPSIM_EXP_HTML_H
#define WARPSIM_EXP_HTML_H

#include "exp/table.h"

#include <stdbool.h>
#include <stdio.h>

void html_begin(FILE *f, const char *title);
void html_end(FILE *f);
void html_heading(FILE *f, int level, const char *text);
/* A paragraph of plain text (escaped). */
void html_text(FILE *f, const char *text);
/* Preformatted plain text (escaped). */
void html_pre(FILE *f, const char *text);
void html_table(FILE *f, const ExpTable *t);
/* Copy an SVG file into the page (without its XML declaration); false if it cannot be read. */
bool html_inline_svg(FILE *f, const char *svg_path);
void html_escape(FILE *f, const char *s);

#endif
