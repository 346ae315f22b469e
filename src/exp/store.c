/* store.c: the result store of an experiment (see store.h for the layout).
 *
 * A run is identified by its workload and variant; its record (.cmd) holds everything that
 * decides its result: the warpsim version, the exact command, and a content hash of the input
 * files. The sweep deletes the record before starting a run and writes it only after the run
 * succeeded, so a run interrupted half-way (partial JSON) never counts as done; and a result
 * whose status is not complete (stats.h) is never up to date, whatever its record. */
#include "exp/store.h"

#include "base/base.h"
#include "stats/stats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RESULT_FILE_MAX_MIB = 1024 }; /* see exp_result_load */

void exp_run_path(const char *dir, const ExpSpec *s, uint32_t w, uint32_t v, const char *ext, char *buf,
                  size_t len)
{
    snprintf(buf, len, "%s/runs/%s__%s%s", dir, s->workloads[w].name, s->variants[v].name, ext);
}

void exp_run_argv(const ExpSpec *s, uint32_t w, uint32_t v, const char *runner, const char *json_out,
                  ExpStrList *argv)
{
    exp_strlist_push(argv, runner);
    exp_strlist_push(argv, "run");
    if (s->preset) {
        exp_strlist_push(argv, "--preset");
        exp_strlist_push(argv, s->preset);
    }
    if (s->config_path) {
        exp_strlist_push(argv, "--config");
        exp_strlist_push(argv, s->config_path);
    }
    /* Base overrides first, then the variant's: a variant may override a `set` line. */
    for (uint32_t i = 0; i < s->base_overrides.n; i++) {
        exp_strlist_push(argv, "-o");
        exp_strlist_push(argv, s->base_overrides.v[i]);
    }
    const ExpVariant *var = &s->variants[v];
    for (uint32_t i = 0; i < var->overrides.n; i++) {
        exp_strlist_push(argv, "-o");
        exp_strlist_push(argv, var->overrides.v[i]);
    }
    const ExpRunOverride *own = exp_spec_run_override(s, w, v); /* this run's, last */
    for (uint32_t i = 0; own && i < own->overrides.n; i++) {
        exp_strlist_push(argv, "-o");
        exp_strlist_push(argv, own->overrides.v[i]);
    }
    /* The text summary is not needed (the JSON has it all); a quiet run's log holds only its
     * errors, which the sweep reports. */
    exp_strlist_push(argv, "--quiet");
    exp_strlist_push(argv, "--json");
    exp_strlist_push(argv, json_out);
    const ExpWorkload *wl = &s->workloads[w];
    exp_strlist_push(argv, wl->path);
    for (uint32_t i = 0; i < wl->args.n; i++)
        exp_strlist_push(argv, wl->args.v[i]);
}

static void append(char **buf, size_t *len, const char *s, size_t n)
{
    *buf = xrealloc(*buf, *len + n + 1);
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = 0;
}

void exp_shell_quote(char **buf, size_t *len, const char *s)
{
    bool safe = *s != 0;
    for (const char *p = s; *p && safe; p++)
        safe = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/=:+@%", *p) != NULL;
    if (safe) {
        append(buf, len, s, strlen(s));
        return;
    }
    append(buf, len, "'", 1);
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            append(buf, len, "'\\''", 4);
        else
            append(buf, len, p, 1);
    }
    append(buf, len, "'", 1);
}

bool exp_file_hash(const char *path, uint64_t *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 0x100000001b3ull;
    bool ok = !ferror(f);
    fclose(f);
    *out = h;
    return ok;
}

static void record_input(char **buf, size_t *len, const char *path)
{
    char line[64];
    uint64_t h;
    append(buf, len, "input ", 6);
    exp_shell_quote(buf, len, path);
    if (exp_file_hash(path, &h))
        snprintf(line, sizeof line, " fnv1a64:%016" PRIx64 "\n", h);
    else
        snprintf(line, sizeof line, " missing\n");
    append(buf, len, line, strlen(line));
}

char *exp_run_record(const ExpSpec *s, uint32_t w, const ExpStrList *argv)
{
    char *buf = NULL;
    size_t len = 0;
    const char *head = "# warpsim sweep run record: the result beside it is reused while this matches\n"
                       "version " WARPSIM_VERSION "\ncommand";
    append(&buf, &len, head, strlen(head));
    for (uint32_t i = 0; i < argv->n; i++) {
        append(&buf, &len, " ", 1);
        exp_shell_quote(&buf, &len, argv->v[i]);
    }
    append(&buf, &len, "\n", 1);
    record_input(&buf, &len, s->workloads[w].path);
    if (s->config_path)
        record_input(&buf, &len, s->config_path);
    return buf;
}

const char *exp_result_status(const JsonValue *result)
{
    const char *st = json_str(json_get(result, "status"));
    return st ? st : STATS_STATUS_COMPLETE;
}

bool exp_result_file_status(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char head[65536], msg[128];
    size_t n = fread(head, 1, sizeof head - 2, f);
    bool whole = feof(f);
    fclose(f);
    head[n] = 0;
    /* The members before "config" (version, workload, status, wall time) as an object. */
    char *cfg = strstr(head, "\"config\":");
    char *comma = NULL;
    for (char *p = head; cfg && p < cfg; p++)
        if (*p == ',')
            comma = p;
    if (comma)
        memcpy(comma, "}", 2);
    else if (!whole)
        return false;
    JsonValue *j = json_parse(head, msg, sizeof msg);
    if (j && j->type == JSON_OBJECT)
        snprintf(out, len, "%s", exp_result_status(j));
    bool ok = j && j->type == JSON_OBJECT;
    json_free(j);
    return ok;
}

bool exp_run_is_current(const char *dir, const ExpSpec *s, uint32_t w, uint32_t v, const char *record)
{
    char path[4096], status[256];
    exp_run_path(dir, s, w, v, ".json", path, sizeof path);
    if (!exp_result_file_status(path, status, sizeof status) || strcmp(status, STATS_STATUS_COMPLETE))
        return false;
    exp_run_path(dir, s, w, v, ".cmd", path, sizeof path);
    char *have = read_file(path, NULL);
    bool same = have && !strcmp(have, record);
    free(have);
    return same;
}

/* A stat by exact name in a stats object: a number, a histogram (the sum of its buckets), or
 * (for "hist:label") a histogram bucket. */
static bool stat_value(const JsonValue *stats, const char *name, double *out)
{
    const JsonValue *v = json_get(stats, name);
    if (v && v->type == JSON_NUMBER) {
        *out = v->number;
        return true;
    }
    if (v && v->type == JSON_OBJECT) {
        double sum = 0;
        for (uint32_t k = 0; k < v->n; k++) {
            if (v->items[k].type != JSON_NUMBER)
                return false;
            sum += v->items[k].number;
        }
        *out = sum;
        return true;
    }
    const char *colon = strrchr(name, ':');
    if (!v && colon) {
        char hist[256];
        snprintf(hist, sizeof hist, "%.*s", (int)(colon - name), name);
        const JsonValue *b = json_get(json_get(stats, hist), colon + 1);
        if (b && b->type == JSON_NUMBER) {
            *out = b->number;
            return true;
        }
    }
    return false;
}

bool exp_metric_value(const JsonValue *stats, const char *metric, double *out)
{
    const char *slash = strchr(metric, '/');
    if (!slash)
        return stat_value(stats, metric, out);
    char num[256];
    double a, b;
    snprintf(num, sizeof num, "%.*s", (int)(slash - metric), metric);
    if (!stat_value(stats, num, &a) || !stat_value(stats, slash + 1, &b) || b == 0)
        return false;
    *out = a / b;
    return true;
}

JsonValue *exp_result_load(const char *dir, const ExpSpec *s, uint32_t w, uint32_t v, char *err, size_t err_len)
{
    char path[4096], msg[256];
    exp_run_path(dir, s, w, v, ".json", path, sizeof path);
    /* A run writes one stats block per kernel: a workload of a thousand launches (gaussian at
     * paper size) writes some 70 MiB, past the bound on input files a user names. */
    char *text = read_file_max(path, NULL, (size_t)RESULT_FILE_MAX_MIB << 20);
    if (!text) {
        if (errno == EFBIG)
            snprintf(err, err_len, "%s: larger than the %d MiB limit on result files", path, RESULT_FILE_MAX_MIB);
        else
            snprintf(err, err_len, "%s: %s", path, strerror(errno));
        return NULL;
    }
    JsonValue *j = json_parse(text, msg, sizeof msg);
    free(text);
    if (!j)
        snprintf(err, err_len, "%s: %s", path, msg);
    else if (!json_get(j, "total") || json_get(j, "total")->type != JSON_OBJECT) {
        snprintf(err, err_len, "%s: no \"total\" object (not a warpsim result file)", path);
        json_free(j);
        j = NULL;
    }
    return j;
}
