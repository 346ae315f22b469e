/* stats.h: the stat registry.
 *
 * Components keep their counters as plain uint64_t fields (incrementing one is a single add on
 * the hot path) and register each once, by hierarchical name with help text:
 * stats_counter(st, &sm->l1d_miss, "sm[%u].l1d.miss", "L1D misses", id). Names with an
 * instance index `[i]` are also summed into a total under the name without it ("l1d.miss" of
 * "sm[3].l1d.miss" -> "sm.l1d.miss"). Histograms are arrays of counters with bucket labels.
 * The registry snapshots every counter when a kernel begins and ends, so each kernel's stats
 * are the difference; writers (stats_write.c) produce text, JSON and CSV. */
#ifndef WARPSIM_STATS_H
#define WARPSIM_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "conf/config.h"

typedef struct StatEntry {
    char name[80];
    const char *help;
    uint64_t *value;
    uint32_t n_buckets;          /* 0 for a counter; else a histogram of value[0..n) */
    const char *const *labels;   /* histogram bucket labels */
} StatEntry;

typedef struct KernelStats {
    char name[128];
    uint64_t *values; /* one per counter slot (histograms use n_buckets slots) */
} KernelStats;

/* A time series: one value per sample period (gpu.sample_cycles), over the whole run. */
typedef struct StatSeries {
    char name[64];
    const char *help;
    double *v;
    uint32_t n, cap;
} StatSeries;

typedef struct Stats {
    StatEntry *entries;
    uint32_t n_entries, cap_entries;
    uint32_t n_slots;      /* counters, histogram buckets included */
    uint64_t *start;       /* slot values when the current kernel began */
    KernelStats *kernels;
    uint32_t n_kernels, cap_kernels;
    StatSeries *series;
    uint32_t n_series;
    uint64_t series_period; /* core cycles per sample; 0 when no series is kept */
} Stats;

void stats_init(Stats *st);
void stats_free(Stats *st);

void stats_counter(Stats *st, uint64_t *value, const char *name_fmt, const char *help, ...)
    __attribute__((format(printf, 3, 5)));
void stats_histogram(Stats *st, uint64_t *buckets, uint32_t n_buckets, const char *const *labels,
                     const char *name, const char *help);

/* Time series: register one (before the first kernel), then append one value per sample. */
uint32_t stats_series(Stats *st, const char *name, const char *help);
void stats_series_push(Stats *st, uint32_t id, double value);

/* Kernel boundaries: snapshot now, then record (now - snapshot) under name. */
void stats_kernel_begin(Stats *st);
void stats_kernel_end(Stats *st, const char *kernel_name);

/* Current value of a counter by exact name (instances summed if name has no index and
 * instances exist); returns 0 and sets *found = 0 when unknown. */
uint64_t stats_get(const Stats *st, const char *name, int *found);

/* How a run ended, the "status" of its results: complete; stopped by a run limit ("stopped: "
 * and the option without "gpu.": max_cycles, spin_insts, stall_insts); the timing model stopped
 * making progress; a kernel faulted ("fault: " and the fault's message); killed by SIGTERM or
 * SIGINT (the results hold the kernels completed before). */
#define STATS_STATUS_COMPLETE "complete"
#define STATS_STATUS_STOPPED "stopped: "
#define STATS_STATUS_MAX_CYCLES "stopped: max_cycles"
#define STATS_STATUS_DEADLOCK "deadlock"
#define STATS_STATUS_FAULT "fault: "
#define STATS_STATUS_KILLED "killed"

/* Writers. A result carries the warpsim version, the workload name, the status and the
 * resolved config. */
typedef struct StatsRunInfo {
    const char *workload;
    const Config *config;
    double wall_seconds;
    double peak_rss_mib; /* the simulating process's peak memory (JSON only) */
    double core_mhz;
    const char *status; /* NULL: complete */
} StatsRunInfo;

typedef enum StatsFormat { STATS_TEXT, STATS_JSON, STATS_CSV } StatsFormat;

void stats_write(FILE *f, StatsFormat fmt, const Stats *st, const StatsRunInfo *info);
void stats_write_text(FILE *f, const Stats *st, const StatsRunInfo *info);
void stats_write_json(FILE *f, const Stats *st, const StatsRunInfo *info);
void stats_write_csv(FILE *f, const Stats *st, const StatsRunInfo *info);

/* The parts stats_write joins: the head (identity, status, config), kernel k's part, and the
 * tail (the totals, the series). The kernels' parts come before the tail, except in text,
 * where they follow it; *shown says whether they are part of the result at all (text shows
 * them only with more than one kernel). */
void stats_write_head(FILE *f, StatsFormat fmt, const StatsRunInfo *info);
void stats_write_kernel(FILE *f, StatsFormat fmt, const Stats *st, uint32_t k);
void stats_write_tail(FILE *f, StatsFormat fmt, const Stats *st);
bool stats_kernels_after_tail(StatsFormat fmt, uint32_t n_kernels, bool *shown);

#endif
