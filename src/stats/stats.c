/* stats.c: the stat registry (see stats.h): registration, kernel snapshots, lookup. */
#include "stats/stats.h"

#include "base/base.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void stats_init(Stats *st) { memset(st, 0, sizeof *st); }

void stats_free(Stats *st)
{
    for (uint32_t i = 0; i < st->n_kernels; i++)
        free(st->kernels[i].values);
    free(st->kernels);
    for (uint32_t i = 0; i < st->n_series; i++)
        free(st->series[i].v);
    free(st->series);
    free(st->entries);
    free(st->start);
    memset(st, 0, sizeof *st);
}

static StatEntry *add_entry(Stats *st)
{
    if (st->n_entries == st->cap_entries) {
        st->cap_entries = st->cap_entries ? st->cap_entries * 2 : 256;
        st->entries = xrealloc(st->entries, st->cap_entries * sizeof *st->entries);
    }
    CHECK(st->n_kernels == 0); /* register everything before the first kernel */
    StatEntry *e = &st->entries[st->n_entries++];
    memset(e, 0, sizeof *e);
    return e;
}

void stats_counter(Stats *st, uint64_t *value, const char *name_fmt, const char *help, ...)
{
    StatEntry *e = add_entry(st);
    va_list ap;
    va_start(ap, help);
    vsnprintf(e->name, sizeof e->name, name_fmt, ap);
    va_end(ap);
    e->help = help;
    e->value = value;
    st->n_slots++;
}

void stats_histogram(Stats *st, uint64_t *buckets, uint32_t n_buckets, const char *const *labels,
                     const char *name, const char *help)
{
    CHECK(n_buckets > 0);
    StatEntry *e = add_entry(st);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->help = help;
    e->value = buckets;
    e->n_buckets = n_buckets;
    e->labels = labels;
    st->n_slots += n_buckets;
}

uint32_t stats_series(Stats *st, const char *name, const char *help)
{
    CHECK(st->n_kernels == 0);
    st->series = xrealloc(st->series, (st->n_series + 1) * sizeof *st->series);
    StatSeries *s = &st->series[st->n_series];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->help = help;
    return st->n_series++;
}

/* Appending grows the array geometrically: amortised, and only once per sample period. */
void stats_series_push(Stats *st, uint32_t id, double value)
{
    StatSeries *s = &st->series[id];
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        s->v = xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = value;
}

static void snapshot(const Stats *st, uint64_t *out)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < st->n_entries; i++) {
        const StatEntry *e = &st->entries[i];
        uint32_t n = e->n_buckets ? e->n_buckets : 1;
        for (uint32_t b = 0; b < n; b++)
            out[k++] = e->value[b];
    }
}

void stats_kernel_begin(Stats *st)
{
    if (!st->start)
        st->start = xcalloc(st->n_slots, sizeof *st->start);
    snapshot(st, st->start);
}

void stats_kernel_end(Stats *st, const char *kernel_name)
{
    if (st->n_kernels == st->cap_kernels) {
        st->cap_kernels = st->cap_kernels ? st->cap_kernels * 2 : 8;
        st->kernels = xrealloc(st->kernels, st->cap_kernels * sizeof *st->kernels);
    }
    KernelStats *ks = &st->kernels[st->n_kernels++];
    snprintf(ks->name, sizeof ks->name, "%s", kernel_name);
    ks->values = xmalloc((st->n_slots ? st->n_slots : 1) * sizeof *ks->values);
    snapshot(st, ks->values);
    for (uint32_t i = 0; i < st->n_slots; i++)
        ks->values[i] -= st->start ? st->start[i] : 0;
}

/* "sm[3].l1d.miss" -> "sm.l1d.miss"; false if the name has no instance index. */
bool stats_total_name(const char *name, char *out, size_t len);
bool stats_total_name(const char *name, char *out, size_t len)
{
    bool had = false;
    size_t k = 0;
    for (const char *p = name; *p && k + 1 < len; p++) {
        if (*p == '[') {
            const char *q = strchr(p, ']');
            if (q) {
                p = q;
                had = true;
                continue;
            }
        }
        out[k++] = *p;
    }
    out[k] = 0;
    return had;
}

uint64_t stats_get(const Stats *st, const char *name, int *found)
{
    uint64_t sum = 0;
    int hit = 0;
    char total[96];
    for (uint32_t i = 0; i < st->n_entries; i++) {
        const StatEntry *e = &st->entries[i];
        if (e->n_buckets)
            continue;
        if (!strcmp(e->name, name)) {
            if (found)
                *found = 1;
            return *e->value;
        }
        if (stats_total_name(e->name, total, sizeof total) && !strcmp(total, name)) {
            sum += *e->value;
            hit = 1;
        }
    }
    if (found)
        *found = hit;
    return sum;
}
