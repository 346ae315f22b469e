/* svg.h: the figures of a report, written as SVG by our own code (no plotting dependency).
 *
 * Grouped bar charts (one group per workload, one bar per variant, summary groups such as the
 * geometric mean set apart at the right), the same with stacked segments for breakdowns, and
 * line plots, and heat maps (a matrix of counts as shades). Elements carry classes so that tests
 * and style sheets can find them: rect.bar (one plain bar), rect.seg (one stacked segment),
 * polyline.line (one series), circle.point, rect.legend (one legend swatch), rect.cell (one
 * heat-map cell), rect.scale (one step of a heat map's colour scale). Missing values (NAN) draw
 * nothing. */
#ifndef WARPSIM_EXP_SVG_H
#define WARPSIM_EXP_SVG_H

#include <stdint.h>
#include <stdio.h>

typedef struct SvgBars {
    const char *title, *ylabel;
    uint32_t n_groups, n_series, n_segments; /* n_segments 1: plain bars, more: stacked */
    const char *const *group_labels;         /* n_groups */
    const char *const *series_labels;        /* n_series (legend when not stacked) */
    const char *const *segment_labels;       /* n_segments (legend when stacked) */
    const double *values;                    /* [(group * n_series + series) * n_segments + seg] */
    uint32_t n_summary_groups;               /* the last groups are summaries (geomean) */
    double ref_y;                            /* dashed reference line (1 when normalised); NAN: none */
} SvgBars;

typedef struct SvgLines {
    const char *title, *xlabel, *ylabel;
    uint32_t n_series, n_points;
    const char *const *series_labels; /* n_series */
    const char *const *x_labels;      /* n_points, evenly spaced categories */
    const double *values;             /* [series * n_points + point] */
    double ref_y;
} SvgLines;

/* A heat map: row 0 at the top, column 0 at the left; a cell's shade grows linearly from white
 * (0) to dark blue (the largest value), with a colour scale at the right. */
typedef struct SvgHeat {
    const char *title, *xlabel, *ylabel;
    uint32_t n_rows, n_cols;
    const char *const *row_labels; /* n_rows */
    const char *const *col_labels; /* n_cols */
    const double *values;          /* [row * n_cols + col] */
} SvgHeat;

void svg_bars(FILE *f, const SvgBars *c);
void svg_lines(FILE *f, const SvgLines *c);
void svg_heatmap(FILE *f, const SvgHeat *c);

/* Text with the five XML special characters escaped. */
void svg_escape(FILE *f, const char *s);

#endif
