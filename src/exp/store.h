/* store.h: the result store of an experiment: where each run's files live, the command that
 * produces them, the record that says a result is up to date, and reading a metric back.
 *
 * Layout of a results directory (docs/experiments.md):
 *   experiment             the spec in canonical form (what `warpsim report` reads)
 *   runs/W__V.json         result of workload W under variant V (`warpsim run --json`)
 *   runs/W__V.cmd          run record: written after the run succeeded; a result is reused only
 *                          when this record equals the one the sweep would write now and the
 *                          result's status is complete
 *   runs/W__V.log          the run's stdout and stderr
 *   runs/W__V.lock         the processes running it, while they run (lock.h)
 */
#ifndef WARPSIM_EXP_STORE_H
#define WARPSIM_EXP_STORE_H

#include "exp/json.h"
#include "exp/spec.h"

#include <stdbool.h>
#include <stddef.h>

/* "<dir>/runs/<workload>__<variant><ext>". */
void exp_run_path(const char *dir, const ExpSpec *s, uint32_t w, uint32_t v, const char *ext, char *buf,
                  size_t len);

/* The command of one run: runner run [--preset P] [--config F] [-o k=v]... --quiet --json OUT WORKLOAD
 * [ARGS...]. argv is appended to (the caller frees it). */
void exp_run_argv(const ExpSpec *s, uint32_t w, uint32_t v, const char *runner, const char *json_out,
                  ExpStrList *argv);

/* The run record (.cmd text): the warpsim version, the command shell-quoted, and a content hash
 * of each input file (workload, config file) so that editing an input reruns the run. */
char *exp_run_record(const ExpSpec *s, uint32_t w, const ExpStrList *argv);

/* True when the run's result exists, says it is complete and its record equals `record`. */
bool exp_run_is_current(const char *dir, const ExpSpec *s, uint32_t w, uint32_t v, const char *record);

/* How a result's run ended: its "status" ("complete" for a result written before results
 * had one). */
const char *exp_result_status(const JsonValue *result);
/* The same from the head of a result file, without reading the rest (results can be large);
 * false if the file cannot be read or does not start like a result. */
bool exp_result_file_status(const char *path, char *out, size_t len);

/* Append s to buf shell-quoted (single quotes unless it is plainly safe). */
void exp_shell_quote(char **buf, size_t *len, const char *s);

/* A metric of a stats object ("total" of a result): a counter or ratio by name, a histogram's
 * name for the sum of its buckets, "hist:label" for one bucket, or "a/b" for the ratio of two of
 * these. False if unknown or undefined. */
bool exp_metric_value(const JsonValue *stats, const char *metric, double *out);

/* Load runs/W__V.json; NULL if missing or unreadable (reason in err). */
JsonValue *exp_result_load(const char *dir, const ExpSpec *s, uint32_t w, uint32_t v, char *err, size_t err_len);

/* FNV-1a 64 of a file's bytes; false if it cannot be read. */
bool exp_file_hash(const char *path, uint64_t *out);

#endif
