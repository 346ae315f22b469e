/* html.c: a single self-contained HTML page per report (see html.h).
 *
 * Figures are inlined rather than linked so the page can be mailed or archived on its own;
 * every piece of text from results or specs is escaped. */
#include "exp/html.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

void html_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

void html_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    html_escape(f, title);
    fputs("</title>\n<style>\n"
          "body { font-family: Helvetica, Arial, sans-serif; margin: 2em; color: #222; }\n"
          "table { border-collapse: collapse; margin: 0.5em 0 1.5em; }\n"
          "th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }\n"
          "th:first-child, td:first-child { text-align: left; }\n"
          "pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; }\n"
          "figure { margin: 1em 0; }\n"
          "</style>\n</head>\n<body>\n", f);
    html_heading(f, 1, title);
}

void html_end(FILE *f) { fputs("</body>\n</html>\n", f); }

void html_heading(FILE *f, int level, const char *text)
{
    fprintf(f, "<h%d>", level);
    html_escape(f, text);
    fprintf(f, "</h%d>\n", level);
}

void html_text(FILE *f, const char *text)
{
    fputs("<p>", f);
    html_escape(f, text);
    fputs("</p>\n", f);
}

void html_pre(FILE *f, const char *text)
{
    fputs("<pre>", f);
    html_escape(f, text);
    fputs("</pre>\n", f);
}

void html_table(FILE *f, const ExpTable *t)
{
    fputs("<table>\n", f);
    if (t->title[0]) {
        fputs("<caption>", f);
        html_escape(f, t->title);
        fputs("</caption>\n", f);
    }
    fputs("<tr><th>", f);
    html_escape(f, t->corner);
    fputs("</th>", f);
    for (uint32_t c = 0; c < t->n_cols; c++) {
        fputs("<th>", f);
        html_escape(f, t->col_labels[c]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (uint32_t r = 0; r < t->n_rows; r++) {
        fputs("<tr><td>", f);
        html_escape(f, t->row_labels[r]);
        fputs("</td>", f);
        for (uint32_t c = 0; c < t->n_cols; c++) {
            char buf[64];
            fputs("<td>", f);
            html_escape(f, exp_table_cell(t, r, c, buf, sizeof buf));
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

bool html_inline_svg(FILE *f, const char *svg_path)
{
    char *text = read_file(svg_path, NULL);
    if (!text)
        return false;
    const char *p = text;
    if (!strncmp(p, "<?xml", 5)) {
        const char *end = strstr(p, "?>");
        p = end ? end + 2 : p;
        while (*p == '\n')
            p++;
    }
    fputs("<figure>\n", f);
    fputs(p, f);
    fputs("</figure>\n", f);
    free(text);
    return true;
}
