/* svg.c: bar, stacked-bar and line charts and heat maps as SVG 1.1 (see svg.h).
 *
 * The layout follows the figures of the architecture papers: groups of bars per benchmark with
 * a summary group (GMEAN) at the right, a dashed line at 1 for normalised values, a legend row
 * under the title, the y axis with "nice" ticks (1, 2 or 5 times a power of ten). Sizes grow with
 * the number of bars so labels stay readable. Output is deterministic: numbers are printed with
 * fixed precision, and nothing depends on time or locale. */
#include "exp/svg.h"

#include "base/base.h"

#include <math.h>
#include <string.h>

/* A colour-blind-friendly qualitative palette (Okabe-Ito order, then greys). */
static const char *const palette[] = { "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7",
                                       "#56B4E9", "#F0E442", "#000000", "#999999", "#666666" };
#define COLOUR(i) palette[(i) % ARRAY_LEN(palette)]

enum { LEFT = 72, RIGHT = 24, TOP = 58, PLOT_H = 260 };

void svg_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Tick step: 1, 2 or 5 times a power of ten, giving about five ticks up to max. */
static double nice_step(double max)
{
    double raw = max / 5;
    double mag = pow(10, floor(log10(raw)));
    double frac = raw / mag;
    return (frac <= 1 ? 1 : frac <= 2 ? 2 : frac <= 5 ? 5 : 10) * mag;
}

typedef struct Axis {
    double lo, hi, step;
    int top, height;
} Axis;

static double axis_y(const Axis *a, double v) { return a->top + a->height * (1 - (v - a->lo) / (a->hi - a->lo)); }

static Axis axis_make(double lo, double hi)
{
    Axis a = { 0, 1, 0.2, TOP, PLOT_H };
    if (!(hi > lo))
        hi = lo + 1;
    a.step = nice_step(hi - lo);
    a.lo = floor(lo / a.step) * a.step;
    a.hi = ceil(hi / a.step) * a.step;
    if (a.hi <= a.lo)
        a.hi = a.lo + a.step;
    return a;
}

static void header(FILE *f, int w, int h, const char *title)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
            w, h, w, h);
    fprintf(f, "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", w, h);
    fprintf(f, "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">", w / 2);
    svg_escape(f, title ? title : "");
    fputs("</text>\n", f);
}

static int legend_width(uint32_t n, const char *const *labels)
{
    int w = 0;
    for (uint32_t i = 0; i < n; i++)
        w += 18 + 7 * (int)strlen(labels[i]) + 14;
    return w;
}

static void legend(FILE *f, int x, uint32_t n, const char *const *labels)
{
    for (uint32_t i = 0; i < n; i++) {
        fprintf(f, "<rect class=\"legend\" x=\"%d\" y=\"30\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, COLOUR(i));
        fprintf(f, "<text x=\"%d\" y=\"41\">", x + 16);
        svg_escape(f, labels[i]);
        fputs("</text>\n", f);
        x += 18 + 7 * (int)strlen(labels[i]) + 14;
    }
}

static void y_axis(FILE *f, const Axis *a, int x0, int x1, const char *ylabel, double ref_y)
{
    for (double v = a->lo; v <= a->hi + a->step * 1e-6; v += a->step) {
        double y = axis_y(a, v);
        fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>", x0, y, x1, y);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n", x0 - 6, y + 4, fabs(v) < 1e-12 ? 0 : v);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", x0, a->top, x0, a->top + a->height);
    fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>\n", x0, axis_y(a, MAX(a->lo, 0)),
            x1, axis_y(a, MAX(a->lo, 0)));
    if (isfinite(ref_y) && ref_y >= a->lo && ref_y <= a->hi)
        fprintf(f, "<line class=\"ref\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#444444\" "
                   "stroke-dasharray=\"5,3\"/>\n", x0, axis_y(a, ref_y), x1, axis_y(a, ref_y));
    if (ylabel) {
        int yc = a->top + a->height / 2;
        fprintf(f, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">", yc, yc);
        svg_escape(f, ylabel);
        fputs("</text>\n", f);
    }
}

/* Whether any of n labels is wider than `room` pixels: then all of them are rotated. */
static bool labels_need_rotation(uint32_t n, const char *const *labels, double room)
{
    for (uint32_t i = 0; i < n; i++)
        if (6.5 * (double)strlen(labels[i]) > room)
            return true;
    return false;
}

/* A label under the plot, centred at x (rotated: ending at x). */
static void x_label(FILE *f, double x, int y, const char *label, bool rotate, bool bold)
{
    if (rotate)
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" transform=\"rotate(-35 %.1f %d)\"%s>", x, y, x, y,
                bold ? " font-weight=\"bold\"" : "");
    else
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\"%s>", x, y, bold ? " font-weight=\"bold\"" : "");
    svg_escape(f, label);
    fputs("</text>\n", f);
}

void svg_bars(FILE *f, const SvgBars *c)
{
    uint32_t nseg = c->n_segments ? c->n_segments : 1;
    bool stacked = nseg > 1;
    /* Range: bar heights (stack sums), the reference line, and 0. */
    double hi = 0;
    for (uint32_t g = 0; g < c->n_groups; g++)
        for (uint32_t s = 0; s < c->n_series; s++) {
            double sum = 0;
            for (uint32_t k = 0; k < nseg; k++) {
                double v = c->values[((size_t)g * c->n_series + s) * nseg + k];
                if (isfinite(v) && v > 0)
                    sum += v;
            }
            hi = MAX(hi, sum);
        }
    if (isfinite(c->ref_y))
        hi = MAX(hi, c->ref_y);
    Axis a = axis_make(0, hi > 0 ? hi * 1.05 : 1);

    int bw = c->n_groups * c->n_series > 60 ? 8 : 14;
    int group_w = (int)c->n_series * bw + bw;
    int summary_gap = c->n_summary_groups ? bw : 0;
    int plot_w = (int)c->n_groups * group_w + summary_gap;
    const char *const *legend_labels = stacked ? c->segment_labels : c->series_labels;
    uint32_t n_legend = stacked ? nseg : c->n_series;
    int w = MAX(LEFT + plot_w + RIGHT, LEFT + legend_width(n_legend, legend_labels) + RIGHT);
    w = MAX(w, 360);
    int bottom = stacked && c->n_series > 1 ? 150 : 100;
    int h = TOP + PLOT_H + bottom;

    bool rotate = labels_need_rotation(c->n_groups, c->group_labels, group_w);
    header(f, w, h, c->title);
    legend(f, LEFT, n_legend, legend_labels);
    y_axis(f, &a, LEFT, LEFT + plot_w, c->ylabel, NAN);

    for (uint32_t g = 0; g < c->n_groups; g++) {
        bool summary = g + c->n_summary_groups >= c->n_groups;
        int x0 = LEFT + bw / 2 + (int)g * group_w + (summary ? summary_gap : 0);
        for (uint32_t s = 0; s < c->n_series; s++) {
            int x = x0 + (int)s * bw;
            double base = 0;
            for (uint32_t k = 0; k < nseg; k++) {
                double v = c->values[((size_t)g * c->n_series + s) * nseg + k];
                if (!isfinite(v))
                    continue;
                double top = base + MAX(v, 0);
                double y1 = axis_y(&a, top), y0 = axis_y(&a, base);
                fprintf(f, "<rect class=\"%s\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\">"
                           "<title>", stacked ? "seg" : "bar", x, y1, bw - 1, y0 - y1, COLOUR(stacked ? k : s));
                svg_escape(f, c->group_labels[g]);
                fputs(" / ", f);
                svg_escape(f, c->series_labels[s]);
                if (stacked) {
                    fputs(" / ", f);
                    svg_escape(f, c->segment_labels[k]);
                }
                fprintf(f, ": %.4g</title></rect>\n", v);
                base = top;
            }
            if (summary && !stacked && isfinite(c->values[(size_t)g * c->n_series + s]))
                fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" text-anchor=\"start\" "
                           "transform=\"rotate(-90 %.1f %.1f)\">%.3g</text>\n",
                        x + bw / 2.0 + 3, axis_y(&a, base) - 3, x + bw / 2.0 + 3, axis_y(&a, base) - 3,
                        c->values[(size_t)g * c->n_series + s]);
            if (stacked && c->n_series > 1)
                x_label(f, x + bw / 2.0, TOP + PLOT_H + 12, c->series_labels[s], true, false);
        }
        int label_y = TOP + PLOT_H + (stacked && c->n_series > 1 ? 70 : 16);
        x_label(f, x0 + c->n_series * bw / 2.0, label_y, c->group_labels[g], rotate, summary);
    }
    /* Drawn last so it stays visible over the bars. */
    if (isfinite(c->ref_y))
        fprintf(f, "<line class=\"ref\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#444444\" "
                   "stroke-dasharray=\"5,3\"/>\n", LEFT, axis_y(&a, c->ref_y), LEFT + plot_w, axis_y(&a, c->ref_y));
    fputs("</svg>\n", f);
}

void svg_lines(FILE *f, const SvgLines *c)
{
    double lo = 0, hi = 0;
    for (size_t i = 0; i < (size_t)c->n_series * c->n_points; i++)
        if (isfinite(c->values[i])) {
            lo = MIN(lo, c->values[i]);
            hi = MAX(hi, c->values[i]);
        }
    if (isfinite(c->ref_y))
        hi = MAX(hi, c->ref_y);
    Axis a = axis_make(lo, hi > lo ? hi * 1.05 : lo + 1);
    /* Up to 20 points get 80 px each; longer series (time series) fit in about 1200 px, with
     * every k-th x label and no point markers. */
    bool dense = c->n_points > 20;
    int step = dense ? MAX(2, 1200 / (int)c->n_points) : 80;
    uint32_t label_every = dense ? (c->n_points + 19) / 20 : 1;
    int plot_w = MAX(300, (int)c->n_points * step);
    double dx = (double)plot_w / (c->n_points ? c->n_points : 1);
    int w = MAX(LEFT + plot_w + RIGHT, LEFT + legend_width(c->n_series, c->series_labels) + RIGHT);
    int h = TOP + PLOT_H + 110;

    header(f, w, h, c->title);
    legend(f, LEFT, c->n_series, c->series_labels);
    y_axis(f, &a, LEFT, LEFT + plot_w, c->ylabel, c->ref_y);
    bool rotate = labels_need_rotation(c->n_points, c->x_labels, dx * label_every);
    for (uint32_t p = label_every - 1; p < c->n_points; p += label_every)
        x_label(f, LEFT + (p + 0.5) * dx, TOP + PLOT_H + 16, c->x_labels[p], rotate, false);
    if (c->xlabel) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", LEFT + plot_w / 2, h - 10);
        svg_escape(f, c->xlabel);
        fputs("</text>\n", f);
    }
    for (uint32_t s = 0; s < c->n_series; s++) {
        /* Missing points are skipped: the line joins its neighbours. */
        fprintf(f, "<polyline class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", COLOUR(s));
        const char *sep = "";
        for (uint32_t p = 0; p < c->n_points; p++) {
            double v = c->values[(size_t)s * c->n_points + p];
            if (isfinite(v)) {
                fprintf(f, "%s%.1f,%.1f", sep, LEFT + (p + 0.5) * dx, axis_y(&a, v));
                sep = " ";
            }
        }
        fputs("\"/>\n", f);
        for (uint32_t p = 0; p < c->n_points && !dense; p++) {
            double v = c->values[(size_t)s * c->n_points + p];
            if (!isfinite(v))
                continue;
            fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>",
                    LEFT + (p + 0.5) * dx, axis_y(&a, v), COLOUR(s));
            svg_escape(f, c->series_labels[s]);
            fputs(" / ", f);
            svg_escape(f, c->x_labels[p]);
            fprintf(f, ": %.4g</title></circle>\n", v);
        }
    }
    fputs("</svg>\n", f);
}

/* The shade of v in [0, max]: white to #08306b, linear in v (a count's share of the largest). */
static void heat_colour(double v, double max, char *buf, size_t len)
{
    double t = max > 0 && v > 0 ? MIN(v / max, 1) : 0;
    snprintf(buf, len, "#%02x%02x%02x", (int)lround(255 - t * (255 - 0x08)), (int)lround(255 - t * (255 - 0x30)),
             (int)lround(255 - t * (255 - 0x6b)));
}

void svg_heatmap(FILE *f, const SvgHeat *c)
{
    enum { SCALE_STEPS = 10, SCALE_W = 16 };
    uint32_t n = MAX(c->n_rows, c->n_cols);
    int cell = n <= 16 ? 28 : n <= 32 ? 18 : 12;
    size_t row_chars = 0;
    for (uint32_t i = 0; i < c->n_rows; i++)
        row_chars = MAX(row_chars, strlen(c->row_labels[i]));
    int x0 = 40 + 7 * (int)row_chars, y0 = TOP;
    int plot_w = (int)c->n_cols * cell, plot_h = (int)c->n_rows * cell;
    int w = MAX(x0 + plot_w + 24 + SCALE_W + 70, 360), h = y0 + plot_h + 90;
    double max = 0;
    for (size_t i = 0; i < (size_t)c->n_rows * c->n_cols; i++)
        if (isfinite(c->values[i]))
            max = MAX(max, c->values[i]);

    header(f, w, h, c->title);
    char colour[8];
    for (uint32_t i = 0; i < c->n_rows; i++) {
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"%d\">", x0 - 4,
                y0 + (i + 0.5) * cell + 4, cell < 14 ? 9 : 12);
        svg_escape(f, c->row_labels[i]);
        fputs("</text>\n", f);
        for (uint32_t j = 0; j < c->n_cols; j++) {
            double v = c->values[(size_t)i * c->n_cols + j];
            if (!isfinite(v))
                continue;
            heat_colour(v, max, colour, sizeof colour);
            fprintf(f, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
                    x0 + (int)j * cell, y0 + (int)i * cell, cell, cell, colour);
            svg_escape(f, c->row_labels[i]);
            fputs(" / ", f);
            svg_escape(f, c->col_labels[j]);
            fprintf(f, ": %.4g</title></rect>\n", v);
        }
    }
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", x0, y0,
            plot_w, plot_h);
    for (uint32_t j = 0; j < c->n_cols; j++) {
        double x = x0 + (j + 0.5) * cell;
        int y = y0 + plot_h + 8;
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" font-size=\"%d\" transform=\"rotate(-90 %.1f %d)\">",
                x + 3, y, cell < 14 ? 9 : 12, x + 3, y);
        svg_escape(f, c->col_labels[j]);
        fputs("</text>\n", f);
    }
    if (c->xlabel) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x0 + plot_w / 2, h - 10);
        svg_escape(f, c->xlabel);
        fputs("</text>\n", f);
    }
    if (c->ylabel) {
        int yc = y0 + plot_h / 2;
        fprintf(f, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">", yc, yc);
        svg_escape(f, c->ylabel);
        fputs("</text>\n", f);
    }
    /* The colour scale: the largest value at the top, 0 at the bottom. */
    int sx = x0 + plot_w + 24, step_h = MAX(plot_h / SCALE_STEPS, 8);
    for (int k = 0; k < SCALE_STEPS; k++) {
        heat_colour(max * (SCALE_STEPS - 1 - k) / (SCALE_STEPS - 1), max, colour, sizeof colour);
        fprintf(f, "<rect class=\"scale\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                   "stroke=\"#999999\"/>\n", sx, y0 + k * step_h, SCALE_W, step_h, colour);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\">%.4g</text>\n", sx + SCALE_W + 4, y0 + 10, max);
    fprintf(f, "<text x=\"%d\" y=\"%d\">0</text>\n", sx + SCALE_W + 4, y0 + SCALE_STEPS * step_h);
    fputs("</svg>\n", f);
}
