/* stats_write.c: the result files of a run (text summary, JSON, CSV).
 *
 * Every format carries the warpsim version, the workload, the wall time and the fully resolved
 * config, so a number can always be traced back to the run that produced it. The JSON layout
 * is the contract read by `warpsim report` (docs/experiments.md):
 *   { "warpsim_version", "workload", "status", "wall_seconds", "config": {key: value},
 *     "kernels": [ {"name", "stats": {...}} ], "total": {...} }
 * "status" says how the run ended (stats.h: complete, stopped: max_cycles, stopped: spin_insts,
 * stopped: stall_insts, deadlock, fault: MESSAGE, killed); only a complete run's statistics
 * are those of the whole workload.
 * A stats object holds, in registration order, every counter by name ("sm[3].l1d.miss"),
 * every histogram as {"label": n}, then the totals over instances ("sm.l1d.miss"), then the
 * derived ratios of the table below. "total" is the whole run (the counters' current values);
 * a kernel's stats are the differences stats_kernel_end recorded.
 * Output is deterministic but for wall_seconds and (JSON) peak_rss_mib. Integers are exact;
 * ratios are printed with %.10g. A ratio is omitted when one of its counters is not
 * registered or its denominator is zero (an undefined ratio is not a number).
 * Each format is written in parts (head, one part per kernel, the totals) so that a run's
 * results can be kept current kernel by kernel (stats_result.c); stats_write joins them. */
#include "stats/stats.h"

#include "base/base.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

bool stats_total_name(const char *name, char *out, size_t len); /* stats.c */

/* Derived ratios: name = numerator / denominator, both looked up like stats_get (exact name,
 * else the total over instances); a histogram's name stands for the sum of its buckets and
 * "histogram:label" for one bucket. Extend here. */
static const struct {
    const char *name, *num, *den, *help;
    double scale; /* the ratio is multiplied by it */
} derived[] = {
    { "sim.ipc", "sim.thread_insts", "sim.cycles", "thread instructions per core cycle", 1 },
    { "sim.warp_ipc", "sim.warp_insts", "sim.cycles", "warp instructions per core cycle", 1 },
    { "l1d.miss_rate", "sm.l1d.miss", "sm.l1d.access", "L1D misses per L1D access", 1 },
    { "l2.miss_rate", "l2.miss", "l2.access", "L2 misses per L2 access", 1 },
    { "l1d.concentration", "sm.l1d.concentration_sum_micro", "sm.loads_divergent",
      "average intra-warp concentration of divergent loads (FUP eq. 1)", 1e-6 },
    { "l1d.balance", "sm.l1d.balance_sum", "sm.l1d.balance_ideal_micro",
      "balance of L1D load accesses over the sets (FUP eq. 2; 1 is a random spread), per cache and kernel, "
      "weighted", 1e6 },
    { "l1d.divergent_load_share", "sm.loads_divergent", "sm.loads",
      "fraction of global/local loads that are divergent (more than 2 lines)", 1 },
    /* DaCache (thesis 4.3.2, 4.3.3): the share of loads with no L1D miss (MPLI 0, Fig. 4.5) and
     * L1D misses (bypassed misses included) per 1000 warp instructions (Fig. 4.6). */
    { "l1d.fully_cached_divergent", "sm.l1d.mpli_divergent:0", "sm.l1d.mpli_divergent",
      "fraction of divergent global loads that had no L1D miss (fully cached, MPLI 0)", 1 },
    { "l1d.fully_cached_coherent", "sm.l1d.mpli_coherent:0", "sm.l1d.mpli_coherent",
      "fraction of coherent global loads that had no L1D miss (fully cached, MPLI 0)", 1 },
    { "l1d.mpki", "sm.l1d.miss", "sim.warp_insts", "L1D misses per 1000 warp instructions (MPKI)", 1000 },
    /* OAWS (thesis 2.3.2, Fig. 2.6): memory occlusion time as a share of L1D access time. */
    { "ldst.occlusion_share_coherent", "sm.ldst.occlusion_coherent", "sm.ldst.access_time_coherent",
      "memory occlusion time of coherent global loads as a share of their L1D access time", 1 },
    { "ldst.occlusion_share_divergent", "sm.ldst.occlusion_divergent", "sm.ldst.access_time_divergent",
      "memory occlusion time of divergent global loads as a share of their L1D access time", 1 },
};

/* One printable row of a stats object. Histogram rows point into their value slots. */
typedef struct Row {
    char name[96];
    const char *help;
    const char *const *labels;
    uint32_t n_buckets;  /* 0: a counter */
    uint64_t value;      /* counter */
    uint64_t *buckets;   /* histogram: owned by the row */
    uint32_t n_summed;   /* totals: instances summed */
    bool is_total;
} Row;

typedef struct Rows {
    Row *rows;
    uint32_t n, n_entries; /* rows[0..n_entries) are the registered entries */
    double ratio[ARRAY_LEN(derived)];
    bool has_ratio[ARRAY_LEN(derived)];
} Rows;

static Row *rows_add(Rows *r, uint32_t *cap)
{
    if (r->n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        r->rows = xrealloc(r->rows, *cap * sizeof *r->rows);
    }
    Row *row = &r->rows[r->n++];
    memset(row, 0, sizeof *row);
    return row;
}

/* The value of a counter by name, of a histogram by name (the sum of its buckets), or of one
 * bucket ("histogram:label"); false if there is none. */
static bool rows_value(const Rows *r, const char *name, uint64_t *out)
{
    const char *colon = strrchr(name, ':');
    size_t hist_len = colon ? (size_t)(colon - name) : 0;
    for (uint32_t i = 0; i < r->n; i++) {
        const Row *row = &r->rows[i];
        if (!strcmp(row->name, name)) {
            *out = row->value;
            for (uint32_t b = 0; b < row->n_buckets; b++)
                *out += row->buckets[b];
            return true;
        }
        if (colon && row->n_buckets && row->labels && strlen(row->name) == hist_len &&
            !strncmp(row->name, name, hist_len))
            for (uint32_t b = 0; b < row->n_buckets; b++)
                if (!strcmp(row->labels[b], colon + 1)) {
                    *out = row->buckets[b];
                    return true;
                }
    }
    return false;
}

/* Rows by name: an open-addressing table of the first row with each name (the totals' lookup
 * was a scan of every row for every instance row, quadratic in the rows). */
typedef struct RowIndex {
    uint32_t *slot; /* row index, UINT32_MAX: empty */
    uint32_t mask;
} RowIndex;

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* The first row named name, or UINT32_MAX; when there is none and add is not UINT32_MAX,
 * row add becomes it. */
static uint32_t row_index(RowIndex *x, const Rows *r, const char *name, uint32_t add)
{
    for (uint32_t k = name_hash(name) & x->mask;; k = (k + 1) & x->mask) {
        if (x->slot[k] == UINT32_MAX) {
            if (add != UINT32_MAX)
                x->slot[k] = add;
            return UINT32_MAX;
        }
        if (!strcmp(r->rows[x->slot[k]].name, name))
            return x->slot[k];
    }
}

/* Build the rows of one stats object from slot values (NULL: the counters' current values). */
static void rows_build(Rows *r, const Stats *st, const uint64_t *slots)
{
    memset(r, 0, sizeof *r);
    uint32_t cap = 0, k = 0;
    for (uint32_t i = 0; i < st->n_entries; i++) {
        const StatEntry *e = &st->entries[i];
        Row *row = rows_add(r, &cap);
        snprintf(row->name, sizeof row->name, "%s", e->name);
        row->help = e->help;
        row->n_buckets = e->n_buckets;
        row->labels = e->labels;
        if (e->n_buckets) {
            row->buckets = xmalloc(e->n_buckets * sizeof *row->buckets);
            for (uint32_t b = 0; b < e->n_buckets; b++)
                row->buckets[b] = slots ? slots[k + b] : e->value[b];
            k += e->n_buckets;
        } else {
            row->value = slots ? slots[k] : *e->value;
            k++;
        }
    }
    r->n_entries = r->n;

    /* Totals over instances, in order of first appearance; a name registered explicitly wins. */
    RowIndex x = {NULL, 63};
    while (x.mask + 1 < 4 * (r->n_entries + 1)) /* room for every entry and a total of each */
        x.mask = 2 * x.mask + 1;
    x.slot = xmalloc((x.mask + 1) * sizeof *x.slot);
    memset(x.slot, 0xFF, (x.mask + 1) * sizeof *x.slot);
    for (uint32_t i = 0; i < r->n_entries; i++)
        row_index(&x, r, r->rows[i].name, i);
    char total[96];
    for (uint32_t i = 0; i < r->n_entries; i++) {
        Row *src = &r->rows[i];
        if (!stats_total_name(src->name, total, sizeof total))
            continue;
        Row *dst = NULL;
        bool clash = false;
        uint32_t j = row_index(&x, r, total, UINT32_MAX);
        if (j != UINT32_MAX) {
            if (r->rows[j].is_total && r->rows[j].n_buckets == src->n_buckets)
                dst = &r->rows[j];
            else
                clash = true;
        }
        if (clash)
            continue;
        if (!dst) {
            row_index(&x, r, total, r->n);
            dst = rows_add(r, &cap);
            src = &r->rows[i]; /* rows may have moved */
            snprintf(dst->name, sizeof dst->name, "%s", total);
            dst->help = src->help;
            dst->is_total = true;
            dst->n_buckets = src->n_buckets;
            dst->labels = src->labels;
            if (src->n_buckets)
                dst->buckets = xcalloc(src->n_buckets, sizeof *dst->buckets);
        }
        dst->n_summed++;
        if (src->n_buckets)
            for (uint32_t b = 0; b < src->n_buckets; b++)
                dst->buckets[b] += src->buckets[b];
        else
            dst->value += src->value;
    }
    free(x.slot);

    for (size_t d = 0; d < ARRAY_LEN(derived); d++) {
        uint64_t num, den;
        if (rows_value(r, derived[d].num, &num) && rows_value(r, derived[d].den, &den) && den) {
            r->ratio[d] = (double)num / (double)den * derived[d].scale;
            r->has_ratio[d] = true;
        }
    }
}

static void rows_free(Rows *r)
{
    for (uint32_t i = 0; i < r->n; i++)
        free(r->rows[i].buckets);
    free(r->rows);
    memset(r, 0, sizeof *r);
}

/* ---- JSON ---- */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void json_stats(FILE *f, const Stats *st, const uint64_t *slots, const char *ind)
{
    Rows r;
    rows_build(&r, st, slots);
    fputc('{', f);
    const char *sep = "\n";
    for (uint32_t i = 0; i < r.n; i++) {
        const Row *row = &r.rows[i];
        fprintf(f, "%s%s  ", sep, ind);
        json_string(f, row->name);
        if (row->n_buckets) {
            fputs(": {", f);
            for (uint32_t b = 0; b < row->n_buckets; b++) {
                fputs(b ? ", " : "", f);
                json_string(f, row->labels ? row->labels[b] : "");
                fprintf(f, ": %" PRIu64, row->buckets[b]);
            }
            fputc('}', f);
        } else {
            fprintf(f, ": %" PRIu64, row->value);
        }
        sep = ",\n";
    }
    for (size_t d = 0; d < ARRAY_LEN(derived); d++) {
        if (!r.has_ratio[d])
            continue;
        fprintf(f, "%s%s  ", sep, ind);
        json_string(f, derived[d].name);
        fprintf(f, ": %.10g", r.ratio[d]);
        sep = ",\n";
    }
    fprintf(f, "%s%s}", sep[0] == ',' ? "\n" : "", sep[0] == ',' ? ind : "");
    rows_free(&r);
}

static const char *status_of(const StatsRunInfo *info)
{
    return info && info->status ? info->status : STATS_STATUS_COMPLETE;
}

static void json_head(FILE *f, const StatsRunInfo *info)
{
    fputs("{\n  \"warpsim_version\": ", f);
    json_string(f, WARPSIM_VERSION);
    fputs(",\n  \"workload\": ", f);
    json_string(f, info ? info->workload : "");
    fputs(",\n  \"status\": ", f);
    json_string(f, status_of(info));
    fprintf(f, ",\n  \"wall_seconds\": %.3f", info ? info->wall_seconds : 0.0);
    fprintf(f, ",\n  \"peak_rss_mib\": %.1f", info ? info->peak_rss_mib : 0.0);
    fputs(",\n  \"config\": {", f);
    if (info && info->config) {
        fputc('\n', f);
        config_dump_json(f, info->config, "    ");
        fputs("  ", f);
    }
    fputs("},\n  \"kernels\": [", f);
}

static void json_kernel(FILE *f, const Stats *st, uint32_t k)
{
    fprintf(f, "%s\n    {\"name\": ", k ? "," : "");
    json_string(f, st->kernels[k].name);
    fputs(", \"stats\": ", f);
    json_stats(f, st, st->kernels[k].values, "    ");
    fputc('}', f);
}

static void json_tail(FILE *f, const Stats *st)
{
    fputs(st->n_kernels ? "\n  ],\n  \"total\": " : "],\n  \"total\": ", f);
    json_stats(f, st, NULL, "  ");
    if (st->n_series) {
        fprintf(f, ",\n  \"series\": {\n    \"period_cycles\": %llu", (unsigned long long)st->series_period);
        for (uint32_t i = 0; i < st->n_series; i++) {
            const StatSeries *sr = &st->series[i];
            fputs(",\n    ", f);
            json_string(f, sr->name);
            fputs(": [", f);
            for (uint32_t k = 0; k < sr->n; k++)
                fprintf(f, "%s%.6g", k ? ", " : "", sr->v[k]);
            fputc(']', f);
        }
        fputs("\n  }", f);
    }
    fputs("\n}\n", f);
}

/* ---- text ---- */

static void text_stats(FILE *f, const Stats *st, const uint64_t *slots)
{
    Rows r;
    rows_build(&r, st, slots);
    /* A readable summary: instance rows are left out when their total is printed. */
    char total[96];
    for (uint32_t i = 0; i < r.n; i++) {
        const Row *row = &r.rows[i];
        if (!row->is_total && stats_total_name(row->name, total, sizeof total)) {
            const Row *t = NULL;
            for (uint32_t j = r.n_entries; j < r.n && !t; j++)
                if (!strcmp(r.rows[j].name, total))
                    t = &r.rows[j];
            if (t)
                continue;
        }
        fputs(row->name, f);
        if (row->n_buckets) {
            for (uint32_t b = 0; b < row->n_buckets; b++)
                fprintf(f, " %s=%" PRIu64, row->labels ? row->labels[b] : "?", row->buckets[b]);
        } else {
            fprintf(f, " %" PRIu64, row->value);
        }
        if (row->help && row->is_total)
            fprintf(f, "  # %s (sum of %u)", row->help, row->n_summed);
        else if (row->help)
            fprintf(f, "  # %s", row->help);
        fputc('\n', f);
    }
    for (size_t d = 0; d < ARRAY_LEN(derived); d++)
        if (r.has_ratio[d])
            fprintf(f, "%s %.6g  # %s\n", derived[d].name, r.ratio[d], derived[d].help);
    rows_free(&r);
}

static void text_head(FILE *f, const StatsRunInfo *info)
{
    fprintf(f, "warpsim %s\nworkload %s\nstatus ", WARPSIM_VERSION, info && info->workload ? info->workload : "");
    /* One line whatever a fault's message holds. */
    for (const char *p = status_of(info); *p; p++)
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
    fprintf(f, "\nwall_seconds %.3f\n", info ? info->wall_seconds : 0.0);
    if (info && info->config) {
        fputs("\n[config]\n", f);
        config_dump(f, info->config);
    }
}

static void text_kernel(FILE *f, const Stats *st, uint32_t k)
{
    fprintf(f, "\n[kernel %u: %s]\n", k, st->kernels[k].name);
    text_stats(f, st, st->kernels[k].values);
}

static void text_tail(FILE *f, const Stats *st)
{
    fputs("\n[total]\n", f);
    text_stats(f, st, NULL);
}

/* ---- CSV ---- */

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

static void csv_row(FILE *f, const char *kernel, const char *stat, const char *value)
{
    csv_field(f, kernel);
    fputc(',', f);
    csv_field(f, stat);
    fputc(',', f);
    csv_field(f, value);
    fputc('\n', f);
}

static void csv_stats(FILE *f, const Stats *st, const uint64_t *slots, const char *kernel)
{
    Rows r;
    rows_build(&r, st, slots);
    char name[200], val[64];
    for (uint32_t i = 0; i < r.n; i++) {
        const Row *row = &r.rows[i];
        if (row->n_buckets) {
            /* Histogram buckets as "name:label". */
            for (uint32_t b = 0; b < row->n_buckets; b++) {
                snprintf(name, sizeof name, "%s:%s", row->name, row->labels ? row->labels[b] : "?");
                snprintf(val, sizeof val, "%" PRIu64, row->buckets[b]);
                csv_row(f, kernel, name, val);
            }
        } else {
            snprintf(val, sizeof val, "%" PRIu64, row->value);
            csv_row(f, kernel, row->name, val);
        }
    }
    for (size_t d = 0; d < ARRAY_LEN(derived); d++) {
        if (!r.has_ratio[d])
            continue;
        snprintf(val, sizeof val, "%.10g", r.ratio[d]);
        csv_row(f, kernel, derived[d].name, val);
    }
    rows_free(&r);
}

static void csv_head(FILE *f, const StatsRunInfo *info)
{
    char val[CONF_STR_LEN + 32], key[96];
    fputs("kernel,stat,value\n", f);
    /* Run identity and resolved config as rows of the pseudo-kernels "run" and "config". */
    csv_row(f, "run", "warpsim_version", WARPSIM_VERSION);
    csv_row(f, "run", "workload", info && info->workload ? info->workload : "");
    csv_row(f, "run", "status", status_of(info));
    snprintf(val, sizeof val, "%.3f", info ? info->wall_seconds : 0.0);
    csv_row(f, "run", "wall_seconds", val);
    if (info && info->config) {
        for (size_t i = 0; i < config_n_modules; i++) {
            const OptModule *m = &config_modules[i];
            for (size_t j = 0; j < m->n_opts; j++) {
                config_format_value(info->config, m, &m->opts[j], val, sizeof val);
                snprintf(key, sizeof key, "%s.%s", m->prefix, m->opts[j].name);
                csv_row(f, "config", key, val);
            }
        }
    }
}

static void csv_kernel(FILE *f, const Stats *st, uint32_t k)
{
    csv_stats(f, st, st->kernels[k].values, st->kernels[k].name);
}

static void csv_tail(FILE *f, const Stats *st)
{
    csv_stats(f, st, NULL, "total");
    /* Time series as rows of the pseudo-kernel "series": name[i] = value at cycle i*period. */
    for (uint32_t i = 0; i < st->n_series; i++)
        for (uint32_t k = 0; k < st->series[i].n; k++)
            fprintf(f, "series,%s[%u],%.6g\n", st->series[i].name, k, st->series[i].v[k]);
}

/* ---- the formats by their parts ---- */

static const struct {
    void (*head)(FILE *, const StatsRunInfo *);
    void (*kernel)(FILE *, const Stats *, uint32_t);
    void (*tail)(FILE *, const Stats *);
} formats[] = {
    [STATS_TEXT] = { text_head, text_kernel, text_tail },
    [STATS_JSON] = { json_head, json_kernel, json_tail },
    [STATS_CSV] = { csv_head, csv_kernel, csv_tail },
};

void stats_write_head(FILE *f, StatsFormat fmt, const StatsRunInfo *info)
{
    formats[fmt].head(f, info);
}

void stats_write_kernel(FILE *f, StatsFormat fmt, const Stats *st, uint32_t k)
{
    formats[fmt].kernel(f, st, k);
}

void stats_write_tail(FILE *f, StatsFormat fmt, const Stats *st)
{
    formats[fmt].tail(f, st);
}

bool stats_kernels_after_tail(StatsFormat fmt, uint32_t n_kernels, bool *shown)
{
    /* The text summary puts its kernel sections after the total, and only with more than one
     * kernel (one kernel's section would repeat the total). */
    *shown = fmt != STATS_TEXT || n_kernels > 1;
    return fmt == STATS_TEXT;
}

void stats_write(FILE *f, StatsFormat fmt, const Stats *st, const StatsRunInfo *info)
{
    bool shown;
    bool after = stats_kernels_after_tail(fmt, st->n_kernels, &shown);
    stats_write_head(f, fmt, info);
    if (after)
        stats_write_tail(f, fmt, st);
    for (uint32_t k = 0; shown && k < st->n_kernels; k++)
        stats_write_kernel(f, fmt, st, k);
    if (!after)
        stats_write_tail(f, fmt, st);
}

void stats_write_text(FILE *f, const Stats *st, const StatsRunInfo *info)
{
    stats_write(f, STATS_TEXT, st, info);
}

void stats_write_json(FILE *f, const Stats *st, const StatsRunInfo *info)
{
    stats_write(f, STATS_JSON, st, info);
}

void stats_write_csv(FILE *f, const Stats *st, const StatsRunInfo *info)
{
    stats_write(f, STATS_CSV, st, info);
}
