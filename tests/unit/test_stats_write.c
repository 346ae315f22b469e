/* test_stats_write.c: the result-file writers (JSON, text, CSV) on a hand-built Stats. */
#include "../test.h"

#include "base/base.h"
#include "exp/json.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

/* A tiny machine: two SMs' L1D counters, the sim counters, one histogram, two kernels. */
typedef struct Fake {
    uint64_t cycles, warp_insts, thread_insts;
    uint64_t l1d_access[2], l1d_miss[2];
    uint64_t lat[3];
} Fake;

static const char *const lat_labels[] = { "0-9", "10-99", "100+" };

static void fake_register(Stats *st, Fake *m)
{
    stats_init(st);
    stats_counter(st, &m->cycles, "sim.cycles", "core cycles");
    stats_counter(st, &m->warp_insts, "sim.warp_insts", "warp instructions issued");
    stats_counter(st, &m->thread_insts, "sim.thread_insts", "thread instructions issued");
    for (unsigned i = 0; i < 2; i++) {
        stats_counter(st, &m->l1d_access[i], "sm[%u].l1d.access", "L1D accesses", i);
        stats_counter(st, &m->l1d_miss[i], "sm[%u].l1d.miss", "L1D misses", i);
    }
    stats_histogram(st, m->lat, 3, lat_labels, "mem.load_latency", "load latency (cycles)");
}

/* Kernel "k1": 100 cycles; kernel "k2": 300 more. */
static void fake_run(Stats *st, Fake *m)
{
    stats_kernel_begin(st);
    m->cycles = 100, m->warp_insts = 50, m->thread_insts = 1600;
    m->l1d_access[0] = 10, m->l1d_access[1] = 30, m->l1d_miss[0] = 4, m->l1d_miss[1] = 6;
    m->lat[0] = 7, m->lat[2] = 1;
    stats_kernel_end(st, "k1");
    stats_kernel_begin(st);
    m->cycles = 400, m->warp_insts = 150, m->thread_insts = 4000;
    m->l1d_access[0] = 20, m->l1d_access[1] = 40, m->l1d_miss[0] = 5, m->l1d_miss[1] = 10;
    m->lat[1] = 2;
    stats_kernel_end(st, "k\"2");
}

static char *write_to_string(void (*w)(FILE *, const Stats *, const StatsRunInfo *), const Stats *st,
                             const StatsRunInfo *info)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    w(f, st, info);
    fclose(f);
    return buf;
}

static uint64_t u(const JsonValue *obj, const char *key)
{
    const JsonValue *v = json_get(obj, key);
    return v && v->is_uint ? v->uint : 999999;
}

TEST(stats_write_json_contract)
{
    Stats st;
    Fake m = { 0 };
    fake_register(&st, &m);
    fake_run(&st, &m);
    Config c;
    config_init(&c);
    c.l1d.n_sets = 64;
    StatsRunInfo info = {.workload = "atax1", .config = &c, .wall_seconds = 1.25, .peak_rss_mib = 12.5, .core_mhz = 700, .status = NULL};
    char *text = write_to_string(stats_write_json, &st, &info);
    char err[200];
    JsonValue *j = json_parse(text, err, sizeof err);
    ASSERT(j);
    EXPECT_STR(json_str(json_get(j, "warpsim_version")), WARPSIM_VERSION);
    EXPECT_STR(json_str(json_get(j, "workload")), "atax1");
    EXPECT_STR(json_str(json_get(j, "status")), "complete");
    EXPECT_NEAR(json_number(json_get(j, "wall_seconds"), -1), 1.25, 1e-9);
    EXPECT_NEAR(json_number(json_get(j, "peak_rss_mib"), -1), 12.5, 1e-9);
    const JsonValue *cfg = json_get(j, "config");
    EXPECT_EQ_U(u(cfg, "l1d.n_sets"), 64);
    EXPECT_STR(json_str(json_get(cfg, "l1d.index")), "conv");

    const JsonValue *tot = json_get(j, "total");
    EXPECT_EQ_U(u(tot, "sim.cycles"), 400);
    EXPECT_EQ_U(u(tot, "sm[1].l1d.access"), 40);
    EXPECT_EQ_U(u(tot, "sm.l1d.access"), 60);
    EXPECT_EQ_U(u(tot, "sm.l1d.miss"), 15);
    EXPECT_NEAR(json_number(json_get(tot, "sim.ipc"), -1), 10.0, 1e-12);
    EXPECT_NEAR(json_number(json_get(tot, "sim.warp_ipc"), -1), 0.375, 1e-12);
    EXPECT_NEAR(json_number(json_get(tot, "l1d.miss_rate"), -1), 0.25, 1e-12);
    EXPECT(json_get(tot, "l2.miss_rate") == NULL); /* l2 counters not registered */
    const JsonValue *h = json_get(tot, "mem.load_latency");
    ASSERT(h && h->type == JSON_OBJECT && h->n == 3);
    EXPECT_EQ_U(u(h, "0-9"), 7);
    EXPECT_EQ_U(u(h, "10-99"), 2);

    const JsonValue *ks = json_get(j, "kernels");
    ASSERT(ks && ks->type == JSON_ARRAY && ks->n == 2);
    EXPECT_STR(json_str(json_get(&ks->items[1], "name")), "k\"2");
    const JsonValue *k2 = json_get(&ks->items[1], "stats");
    EXPECT_EQ_U(u(k2, "sim.cycles"), 300);
    EXPECT_EQ_U(u(k2, "sm.l1d.miss"), 5);
    EXPECT_NEAR(json_number(json_get(k2, "sim.ipc"), -1), 2400.0 / 300.0, 1e-12);
    EXPECT_NEAR(json_number(json_get(k2, "l1d.miss_rate"), -1), 5.0 / 20.0, 1e-12);
    EXPECT_EQ_U(u(json_get(k2, "mem.load_latency"), "10-99"), 2);
    EXPECT_EQ_U(u(json_get(k2, "mem.load_latency"), "100+"), 0);

    /* Deterministic: the same Stats give the same bytes. */
    char *again = write_to_string(stats_write_json, &st, &info);
    EXPECT_STR(again, text);
    free(again);
    json_free(j);
    free(text);
    stats_free(&st);
}

/* DaCache's derived stats: the fully cached share of divergent / coherent loads (MPLI bucket 0
 * over every bucket, summed over the SMs) and L1D MPKI over warp instructions. */
TEST(stats_write_fully_cached_and_mpki)
{
    static const char *const mpli_labels[] = { "0", "1", "2", "3-31", "32" };
    uint64_t warp_insts = 0, miss[2] = { 0 }, div[2][5] = { { 0 } }, coh[2][5] = { { 0 } };
    Stats st;
    stats_init(&st);
    stats_counter(&st, &warp_insts, "sim.warp_insts", "warp instructions");
    for (unsigned i = 0; i < 2; i++) {
        stats_counter(&st, &miss[i], "sm[%u].l1d.miss", "L1D misses", i);
        char name[64];
        snprintf(name, sizeof name, "sm[%u].l1d.mpli_divergent", i);
        stats_histogram(&st, div[i], 5, mpli_labels, name, "divergent loads by MPLI");
        snprintf(name, sizeof name, "sm[%u].l1d.mpli_coherent", i);
        stats_histogram(&st, coh[i], 5, mpli_labels, name, "coherent loads by MPLI");
    }
    stats_kernel_begin(&st);
    warp_insts = 4000, miss[0] = 30, miss[1] = 10;
    div[0][0] = 3, div[0][3] = 2, div[1][0] = 1, div[1][4] = 2; /* 4 of 8 fully cached */
    stats_kernel_end(&st, "k1");
    stats_kernel_begin(&st);
    warp_insts = 5000, miss[1] = 19;
    div[1][1] = 2;             /* kernel 2: 0 of 2 fully cached */
    coh[0][0] = 9, coh[1][2] = 1; /* 9 of 10 */
    stats_kernel_end(&st, "k2");
    char *text = write_to_string(stats_write_json, &st, NULL);
    char err[200];
    JsonValue *j = json_parse(text, err, sizeof err);
    ASSERT(j);
    const JsonValue *tot = json_get(j, "total");
    EXPECT_NEAR(json_number(json_get(tot, "l1d.fully_cached_divergent"), -1), 4.0 / 10, 1e-12);
    EXPECT_NEAR(json_number(json_get(tot, "l1d.fully_cached_coherent"), -1), 9.0 / 10, 1e-12);
    EXPECT_NEAR(json_number(json_get(tot, "l1d.mpki"), -1), 49.0 / 5000 * 1000, 1e-12);
    const JsonValue *ks = json_get(j, "kernels");
    ASSERT(ks && ks->n == 2);
    const JsonValue *k1 = json_get(&ks->items[0], "stats"), *k2 = json_get(&ks->items[1], "stats");
    EXPECT_NEAR(json_number(json_get(k1, "l1d.fully_cached_divergent"), -1), 0.5, 1e-12);
    EXPECT(json_get(k1, "l1d.fully_cached_coherent") == NULL); /* no coherent loads: undefined */
    EXPECT_NEAR(json_number(json_get(k1, "l1d.mpki"), -1), 10.0, 1e-12);
    EXPECT_NEAR(json_number(json_get(k2, "l1d.fully_cached_divergent"), -1), 0.0, 0);
    EXPECT_NEAR(json_number(json_get(k2, "l1d.mpki"), -1), 9.0, 1e-12); /* 9 misses / 1000 insts */
    json_free(j);
    free(text);
    text = write_to_string(stats_write_text, &st, NULL);
    EXPECT_CONTAINS(text, "\nl1d.fully_cached_divergent 0.4  # ");
    free(text);
    stats_free(&st);
}

/* OAWS's derived stats: memory occlusion time over L1D access time, summed over the SMs, per
 * class of load (thesis Fig. 2.6). */
TEST(stats_write_occlusion_share)
{
    uint64_t occl[2][2] = { { 0 } }, access[2][2] = { { 0 } };
    static const char *const cls[2] = { "coherent", "divergent" };
    Stats st;
    stats_init(&st);
    for (unsigned i = 0; i < 2; i++)
        for (unsigned d = 0; d < 2; d++) {
            stats_counter(&st, &occl[i][d], "sm[%u].ldst.occlusion_%s", "occlusion", i, cls[d]);
            stats_counter(&st, &access[i][d], "sm[%u].ldst.access_time_%s", "access time", i, cls[d]);
        }
    occl[0][1] = 30, occl[1][1] = 10, access[0][1] = 60, access[1][1] = 40; /* 40 of 100 */
    occl[0][0] = 1, access[0][0] = 25, access[1][0] = 25;                   /* 1 of 50 */
    char *text = write_to_string(stats_write_json, &st, NULL);
    char err[200];
    JsonValue *j = json_parse(text, err, sizeof err);
    ASSERT(j);
    const JsonValue *tot = json_get(j, "total");
    EXPECT_NEAR(json_number(json_get(tot, "ldst.occlusion_share_divergent"), -1), 0.4, 1e-12);
    EXPECT_NEAR(json_number(json_get(tot, "ldst.occlusion_share_coherent"), -1), 0.02, 1e-12);
    json_free(j);
    free(text);
    stats_free(&st);
}

TEST(stats_write_json_zero_denominator_and_empty)
{
    Stats st;
    Fake m = { 0 };
    fake_register(&st, &m);
    char *text = write_to_string(stats_write_json, &st, NULL);
    char err[200];
    JsonValue *j = json_parse(text, err, sizeof err);
    ASSERT(j);
    const JsonValue *tot = json_get(j, "total");
    EXPECT_EQ_U(u(tot, "sim.cycles"), 0);
    EXPECT(json_get(tot, "sim.ipc") == NULL); /* 0/0 is omitted, not written as nan */
    EXPECT(json_get(j, "kernels")->n == 0);
    EXPECT(json_get(j, "config")->n == 0);
    json_free(j);
    free(text);
    stats_free(&st);

    Stats none;
    stats_init(&none);
    text = write_to_string(stats_write_json, &none, NULL);
    j = json_parse(text, err, sizeof err);
    EXPECT(j && json_get(j, "total")->n == 0);
    json_free(j);
    free(text);
}

TEST(stats_write_text_summary)
{
    Stats st;
    Fake m = { 0 };
    fake_register(&st, &m);
    fake_run(&st, &m);
    Config c;
    config_init(&c);
    StatsRunInfo info = {.workload = "atax1", .config = &c, .wall_seconds = 0.5, .core_mhz = 700, .status = NULL};
    char *text = write_to_string(stats_write_text, &st, &info);
    EXPECT_CONTAINS(text, "warpsim " WARPSIM_VERSION "\nworkload atax1\nstatus complete\nwall_seconds 0.500\n");
    EXPECT_CONTAINS(text, "\nl1d.index = conv\n");
    EXPECT_CONTAINS(text, "\n[total]\nsim.cycles 400  # core cycles\n");
    EXPECT_CONTAINS(text, "\nsm.l1d.miss 15  # L1D misses (sum of 2)\n");
    EXPECT_CONTAINS(text, "\nsim.ipc 10  # thread instructions per core cycle\n");
    EXPECT_CONTAINS(text, "\nl1d.miss_rate 0.25  #");
    EXPECT_CONTAINS(text, "\nmem.load_latency 0-9=7 10-99=2 100+=1  #");
    EXPECT_CONTAINS(text, "\n[kernel 1: k\"2]\nsim.cycles 300");
    EXPECT(strstr(text, "sm[0].l1d.miss") == NULL); /* instances folded into their total */
    free(text);
    stats_free(&st);
}

TEST(stats_write_csv_rows)
{
    Stats st;
    Fake m = { 0 };
    fake_register(&st, &m);
    fake_run(&st, &m);
    Config c;
    config_init(&c);
    StatsRunInfo info = {.workload = "atax1", .config = &c, .wall_seconds = 0.5, .core_mhz = 700, .status = NULL};
    char *text = write_to_string(stats_write_csv, &st, &info);
    const char *head = "kernel,stat,value\nrun,warpsim_version," WARPSIM_VERSION "\nrun,workload,atax1\n"
                       "run,status,complete\nrun,wall_seconds,0.500\n";
    EXPECT(!strncmp(text, head, strlen(head)));
    EXPECT_CONTAINS(text, "\nconfig,l1d.index,conv\n");
    EXPECT_CONTAINS(text, "\nk1,sim.cycles,100\n");
    EXPECT_CONTAINS(text, "\n\"k\"\"2\",sim.cycles,300\n");
    EXPECT_CONTAINS(text, "\ntotal,sm[0].l1d.miss,5\n");
    EXPECT_CONTAINS(text, "\ntotal,sm.l1d.miss,15\n");
    EXPECT_CONTAINS(text, "\ntotal,mem.load_latency:100+,1\n");
    EXPECT_CONTAINS(text, "\ntotal,l1d.miss_rate,0.25\n");
    EXPECT_CONTAINS(text, "\nk1,sim.ipc,16\n");
    free(text);
    stats_free(&st);
}

TEST(stats_write_status_in_every_format)
{
    Stats st;
    Fake m = { 0 };
    fake_register(&st, &m);
    fake_run(&st, &m);
    StatsRunInfo info = {.workload = "w", .config = NULL, .wall_seconds = 0.5, .core_mhz = 700,
                         .status = "fault: kernel k: bad \"address\",\nat 0x40"};
    char *text = write_to_string(stats_write_json, &st, &info), err[200];
    JsonValue *j = json_parse(text, err, sizeof err);
    ASSERT(j);
    EXPECT_STR(json_str(json_get(j, "status")), "fault: kernel k: bad \"address\",\nat 0x40");
    json_free(j);
    free(text);
    text = write_to_string(stats_write_csv, &st, &info);
    EXPECT_CONTAINS(text, "\nrun,status,\"fault: kernel k: bad \"\"address\"\",\nat 0x40\"\nrun,wall_seconds,");
    free(text);
    text = write_to_string(stats_write_text, &st, &info); /* one line */
    EXPECT_CONTAINS(text, "\nstatus fault: kernel k: bad \"address\", at 0x40\nwall_seconds 0.500\n");
    free(text);
    info.status = STATS_STATUS_MAX_CYCLES;
    text = write_to_string(stats_write_text, &st, &info);
    EXPECT_CONTAINS(text, "\nworkload w\nstatus stopped: max_cycles\n");
    free(text);
    stats_free(&st);
}
