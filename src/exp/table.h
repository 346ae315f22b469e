/* table.h: labelled tables of numbers (workload x variant, and the like), the arithmetic of
 * reports (normalisation to a baseline column, geometric means), and text / CSV writers.
 * A missing value is NAN: printed as "-" (text), or as its mark when it has one (why it is
 * missing, e.g. "(killed)"), or an empty field (CSV); skipped by means. */
#ifndef WARPSIM_EXP_TABLE_H
#define WARPSIM_EXP_TABLE_H

#include <stdint.h>
#include <stdio.h>

typedef struct ExpTable {
    char *title;
    char *corner;      /* label of the row-label column ("workload") */
    uint32_t n_rows, n_cols;
    char **row_labels, **col_labels;
    double *v;         /* [row * n_cols + col] */
    char **marks;      /* [row * n_cols + col]: shown for a missing value; NULL until one is set */
} ExpTable;

/* A table of NAN with empty labels. */
ExpTable *exp_table_new(const char *title, const char *corner, uint32_t n_rows, uint32_t n_cols);
void exp_table_free(ExpTable *t);
void exp_table_set_row(ExpTable *t, uint32_t r, const char *label);
void exp_table_set_col(ExpTable *t, uint32_t c, const char *label);
double *exp_table_at(ExpTable *t, uint32_t r, uint32_t c);
/* Append a row (label, values NAN); returns its index. */
uint32_t exp_table_add_row(ExpTable *t, const char *label);
/* Say why a missing value is missing (shown in its place in text and HTML). */
void exp_table_mark(ExpTable *t, uint32_t r, uint32_t c, const char *mark);
/* A cell as text and HTML show it: the value (%.6g), its mark, or "-". */
const char *exp_table_cell(const ExpTable *t, uint32_t r, uint32_t c, char *buf, size_t len);

/* Divide every row by its value in column base_col; NAN where that is missing or zero. */
void exp_table_normalise(ExpTable *t, uint32_t base_col);

/* Geometric mean of n values spaced by stride, over those that are finite and > 0 (the others
 * cannot enter a geometric mean); NAN if none. *n_used (if given) says how many entered. */
double exp_geomean(const double *v, uint32_t n, uint32_t stride, uint32_t *n_used);

void exp_table_write_text(FILE *f, const ExpTable *t);
void exp_table_write_csv(FILE *f, const ExpTable *t);

#endif
