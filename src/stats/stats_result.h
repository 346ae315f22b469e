/* stats_result.h: the result files of one run (--json, --csv, --stats), kept current kernel by
 * kernel so that a run killed by SIGTERM or SIGINT still leaves them, with status "killed".
 *
 *     StatsResult *r = stats_result_create(json, csv, text, st, &info);
 *     stats_guard_arm(r, false);                 // SIGTERM / SIGINT now leave r's files
 *     for each kernel:
 *         if (stats_guard_set_direct(r, true)) break;   // a signal came between kernels
 *         run the kernel;
 *         stats_guard_set_direct(r, false);
 *         stats_result_update(r, st, &info);
 *     info.status = ...;  stats_result_write(r, st, &info);  stats_result_free(r);
 *
 * Every file is written atomically (base.h: a temporary beside it, fsync, rename), so a full
 * disk or a kill leaves the previous file or the new one, never a part of one. Which files a
 * signal leaves, and how, is explained in stats_result.c. */
#ifndef WARPSIM_STATS_RESULT_H
#define WARPSIM_STATS_RESULT_H

#include "stats/stats.h"

#include <stdbool.h>

typedef struct StatsResult StatsResult;

/* The files to write (NULL: not written), prepared from the counters as they are now. */
StatsResult *stats_result_create(const char *json, const char *csv, const char *text, const Stats *st,
                                 const StatsRunInfo *info);
/* Disarms the guard if it guards r. */
void stats_result_free(StatsResult *r);
/* After a kernel: render the new kernels' parts, the head and the totals again (what a signal
 * writes, with status "killed"). */
void stats_result_update(StatsResult *r, const Stats *st, const StatsRunInfo *info);
/* Write every file with info->status. False if one could not be written: each failure is
 * printed on stderr ("warpsim: PATH: cannot write: REASON") and the file is left as it was. */
bool stats_result_write(StatsResult *r, const Stats *st, const StatsRunInfo *info);

/* Guard r against SIGTERM and SIGINT (each signal whose disposition is the default: a program's
 * own handler, or an ignored signal, is left alone). direct: a signal writes r's files from the
 * handler and ends the process; otherwise it is only recorded for r's caller to see. False
 * when r is guarded already or too many results are. stats_result_free disarms. */
bool stats_guard_arm(StatsResult *r, bool direct);
/* Switch r between direct and deferred; returns the signal received so far (0: none), checked
 * after the switch, so a caller entering a kernel never misses one. */
int stats_guard_set_direct(StatsResult *r, bool direct);
/* The first SIGTERM or SIGINT received while a result was guarded, or 0. */
int stats_guard_signal(void);

#endif
