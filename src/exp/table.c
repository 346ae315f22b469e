/* table.c: report tables and their arithmetic (see table.h).
 *
 * Normalised results are averaged with the geometric mean, as the papers do for speedups and
 * ratios (the mean of ratios then does not depend on which side is the baseline). Values that
 * are missing, zero or negative cannot enter a geometric mean and are skipped, and the caller
 * is told how many entered so a report can say so. */
#include "exp/table.h"

#include "base/base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

ExpTable *exp_table_new(const char *title, const char *corner, uint32_t n_rows, uint32_t n_cols)
{
    ExpTable *t = xcalloc(1, sizeof *t);
    t->title = xstrdup(title ? title : "");
    t->corner = xstrdup(corner ? corner : "");
    t->n_rows = n_rows;
    t->n_cols = n_cols;
    t->row_labels = xcalloc(n_rows ? n_rows : 1, sizeof *t->row_labels);
    t->col_labels = xcalloc(n_cols ? n_cols : 1, sizeof *t->col_labels);
    t->v = xmalloc((size_t)(n_rows ? n_rows : 1) * (n_cols ? n_cols : 1) * sizeof *t->v);
    for (uint32_t r = 0; r < n_rows; r++)
        t->row_labels[r] = xstrdup("");
    for (uint32_t c = 0; c < n_cols; c++)
        t->col_labels[c] = xstrdup("");
    for (size_t i = 0; i < (size_t)n_rows * n_cols; i++)
        t->v[i] = NAN;
    return t;
}

void exp_table_free(ExpTable *t)
{
    if (!t)
        return;
    for (uint32_t r = 0; r < t->n_rows; r++)
        free(t->row_labels[r]);
    for (uint32_t c = 0; c < t->n_cols; c++)
        free(t->col_labels[c]);
    for (size_t i = 0; t->marks && i < (size_t)t->n_rows * t->n_cols; i++)
        free(t->marks[i]);
    free(t->marks);
    free(t->row_labels);
    free(t->col_labels);
    free(t->v);
    free(t->title);
    free(t->corner);
    free(t);
}

void exp_table_set_row(ExpTable *t, uint32_t r, const char *label)
{
    free(t->row_labels[r]);
    t->row_labels[r] = xstrdup(label);
}

void exp_table_set_col(ExpTable *t, uint32_t c, const char *label)
{
    free(t->col_labels[c]);
    t->col_labels[c] = xstrdup(label);
}

double *exp_table_at(ExpTable *t, uint32_t r, uint32_t c) { return &t->v[(size_t)r * t->n_cols + c]; }

uint32_t exp_table_add_row(ExpTable *t, const char *label)
{
    uint32_t r = t->n_rows++;
    t->row_labels = xrealloc(t->row_labels, t->n_rows * sizeof *t->row_labels);
    t->row_labels[r] = xstrdup(label);
    t->v = xrealloc(t->v, (size_t)t->n_rows * (t->n_cols ? t->n_cols : 1) * sizeof *t->v);
    for (uint32_t c = 0; c < t->n_cols; c++)
        t->v[(size_t)r * t->n_cols + c] = NAN;
    if (t->marks) {
        t->marks = xrealloc(t->marks, (size_t)t->n_rows * (t->n_cols ? t->n_cols : 1) * sizeof *t->marks);
        for (uint32_t c = 0; c < t->n_cols; c++)
            t->marks[(size_t)r * t->n_cols + c] = NULL;
    }
    return r;
}

void exp_table_mark(ExpTable *t, uint32_t r, uint32_t c, const char *mark)
{
    if (!t->marks)
        t->marks = xcalloc((size_t)(t->n_rows ? t->n_rows : 1) * (t->n_cols ? t->n_cols : 1), sizeof *t->marks);
    char **m = &t->marks[(size_t)r * t->n_cols + c];
    free(*m);
    *m = xstrdup(mark);
}

const char *exp_table_cell(const ExpTable *t, uint32_t r, uint32_t c, char *buf, size_t len)
{
    size_t i = (size_t)r * t->n_cols + c;
    if (!isnan(t->v[i]))
        snprintf(buf, len, "%.6g", t->v[i]);
    else
        snprintf(buf, len, "%s", t->marks && t->marks[i] ? t->marks[i] : "-");
    return buf;
}

void exp_table_normalise(ExpTable *t, uint32_t base_col)
{
    for (uint32_t r = 0; r < t->n_rows; r++) {
        double base = *exp_table_at(t, r, base_col);
        for (uint32_t c = 0; c < t->n_cols; c++) {
            double *x = exp_table_at(t, r, c);
            *x = (isfinite(base) && base != 0) ? *x / base : NAN;
        }
    }
}

double exp_geomean(const double *v, uint32_t n, uint32_t stride, uint32_t *n_used)
{
    double log_sum = 0;
    uint32_t used = 0;
    for (uint32_t i = 0; i < n; i++) {
        double x = v[(size_t)i * stride];
        if (isfinite(x) && x > 0) {
            log_sum += log(x);
            used++;
        }
    }
    if (n_used)
        *n_used = used;
    return used ? exp(log_sum / used) : NAN;
}

void exp_table_write_text(FILE *f, const ExpTable *t)
{
    size_t w0 = strlen(t->corner);
    for (uint32_t r = 0; r < t->n_rows; r++)
        w0 = MAX(w0, strlen(t->row_labels[r]));
    size_t *w = xcalloc(t->n_cols ? t->n_cols : 1, sizeof *w);
    char buf[64];
    for (uint32_t c = 0; c < t->n_cols; c++) {
        w[c] = strlen(t->col_labels[c]);
        for (uint32_t r = 0; r < t->n_rows; r++)
            w[c] = MAX(w[c], strlen(exp_table_cell(t, r, c, buf, sizeof buf)));
    }
    if (t->title[0])
        fprintf(f, "%s\n", t->title);
    fprintf(f, "%-*s", (int)w0, t->corner);
    for (uint32_t c = 0; c < t->n_cols; c++)
        fprintf(f, "  %*s", (int)w[c], t->col_labels[c]);
    fputc('\n', f);
    for (uint32_t r = 0; r < t->n_rows; r++) {
        fprintf(f, "%-*s", (int)w0, t->row_labels[r]);
        for (uint32_t c = 0; c < t->n_cols; c++)
            fprintf(f, "  %*s", (int)w[c], exp_table_cell(t, r, c, buf, sizeof buf));
        fputc('\n', f);
    }
    free(w);
}

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void exp_table_write_csv(FILE *f, const ExpTable *t)
{
    csv_field(f, t->corner);
    for (uint32_t c = 0; c < t->n_cols; c++) {
        fputc(',', f);
        csv_field(f, t->col_labels[c]);
    }
    fputc('\n', f);
    for (uint32_t r = 0; r < t->n_rows; r++) {
        csv_field(f, t->row_labels[r]);
        for (uint32_t c = 0; c < t->n_cols; c++) {
            double x = t->v[(size_t)r * t->n_cols + c];
            if (isnan(x))
                fputc(',', f);
            else
                fprintf(f, ",%.10g", x);
        }
        fputc('\n', f);
    }
}
