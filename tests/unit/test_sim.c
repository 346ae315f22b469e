/* test_sim.c: whole-simulator runs through the warpsim binary: the intra-warp conflict
 * pathology, determinism, and command-line/config errors; and, in-process, the same bad
 * configurations given to the embedding API, which must come back from warpsim_create. */
#include "../test.h"

#include <stdlib.h>

static char out[1 << 20];

/* Value of "name value" in a text summary; -1 if absent. */
static long long stat_of(const char *text, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *p = strstr(text, key);
    return p ? atoll(p + strlen(key)) : -1;
}

static int run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s run --quiet --stats /dev/stdout %s", test_warpsim(), args);
    return test_run_cmd(cmd, out, sizeof out);
}

TEST(sim_intra_warp_conflicts_under_conv)
{
    /* 32 loads 4096 B apart map to one 8-way set under conv: reservation failures and more
     * misses than the same loads 128 B apart. */
    EXPECT_EQ_I(run("-o l1d.index=conv workloads/synthetic/conflict.syn"), 0);
    long long conflict_miss = stat_of(out, "sm.l1d.miss"), conflict_fail = stat_of(out, "sm.l1d.resfail_line");
    long long conflict_cycles = stat_of(out, "sim.cycles");
    EXPECT_EQ_I(run("-o l1d.index=conv workloads/synthetic/noconflict.syn"), 0);
    long long plain_miss = stat_of(out, "sm.l1d.miss"), plain_fail = stat_of(out, "sm.l1d.resfail_line");
    EXPECT_EQ_I(plain_miss, 32);     /* 32 cold misses, then 3 x 32 hits */
    EXPECT_EQ_I(plain_fail, 0);
    EXPECT_EQ_I(conflict_miss, 128); /* every one of the 4 x 32 loads misses */
    EXPECT(conflict_fail > 0);
    EXPECT(conflict_cycles > stat_of(out, "sim.cycles"));
}

/* Round-robin CTA dispatch (GPGPU-Sim's issue_block2core): each cycle visits every SM once,
 * from the one after the SM served last, and a kernel carries on from where the last one
 * stopped. 16 CTAs on 15 SMs: one each, the 16th on SM 0 the next cycle; the next kernel's 4
 * CTAs on SMs 1 to 4. */
/* The run's CTAs completed on SM i: the JSON's last value of a per-SM stat is the run's total. */
static int ctas_done_on(int i)
{
    char key[48];
    snprintf(key, sizeof key, "\"sm[%d].ctas_done\": ", i);
    const char *last = NULL;
    for (const char *p = strstr(out, key); p; p = strstr(p + 1, key))
        last = p;
    return last ? atoi(last + strlen(key)) : -1;
}

TEST(sim_cta_dispatch_round_robin)
{
    char path[512], args[1024];
    ASSERT(test_tmp_file("rr.syn",
                         "kernel first\ngrid 16\nblock 32\nalu 4 int\n"
                         "kernel second\ngrid 4\nblock 32\nalu 4 int\n",
                         path, sizeof path));
    /* gtx480-16k: 15 clusters of 1 SM; the second kernel starts after the SM served last */
    snprintf(args, sizeof args, "--preset gtx480-16k --json /dev/stdout %s", path);
    EXPECT_EQ_I(run(args), 0);
    for (int i = 0; i < 15; i++)
        EXPECT_EQ_I(ctas_done_on(i), i <= 4 ? 2 : 1);
    /* gtx480: 15 clusters of 2 SMs. A round gives each cluster one CTA, on the SM after the one
     * it served last: the first kernel's CTAs 0-14 go to SMs 0, 2, ..., 28, CTA 15 to SM 1; the
     * second kernel's four start at cluster 1, on its other SM: SMs 3, 5, 7, 9. */
    snprintf(args, sizeof args, "--preset gtx480 --json /dev/stdout %s", path);
    EXPECT_EQ_I(run(args), 0);
    for (int i = 0; i < 30; i++)
        EXPECT_EQ_I(ctas_done_on(i), i % 2 == 0 || i == 1 || (i >= 3 && i <= 9) ? 1 : 0);
}

/* Blank the lines of what may differ between two runs: the wall time and the peak memory. */
static void strip_times(char *s)
{
    static const char *const keys[] = {"\"wall_seconds\"", "\"peak_rss_mib\""};
    for (unsigned k = 0; k < 2; k++) {
        char *p = strstr(s, keys[k]);
        if (p)
            while (*p && *p != '\n')
                *p++ = ' ';
    }
}

TEST(sim_deterministic)
{
    char path[512], cmd[2048], a[1 << 16], b[1 << 16];
    snprintf(path, sizeof path, "%s/small.syn", test_tmpdir());
    FILE *f = fopen(path, "w");
    ASSERT(f);
    fputs("kernel small\ngrid 8\nblock 128\narray A 0x10000000 4\narray y 0x20000000 4\n"
          "loop j 8\n  load A[tid*256 + j]\n  alu 2 fmad\nend\nstore y[tid]\n", f);
    fclose(f);
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s run --quiet --preset gtx480 %s --json %s/r%d.json && cat %s/r%d.json",
                 test_warpsim(), path, test_tmpdir(), i, test_tmpdir(), i);
        ASSERT(test_run_cmd(cmd, i ? b : a, sizeof a) == 0);
    }
    strip_times(a);
    strip_times(b);
    EXPECT(strlen(a) > 1000);
    EXPECT(strcmp(a, b) == 0);
    EXPECT_CONTAINS(a, "\"warpsim_version\"");
    EXPECT_CONTAINS(a, "\"l1d.index\": \"conv\"");
}

static void expect_error(const char *args, const char *message)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s", test_warpsim(), args);
    int rc = test_run_cmd(cmd, out, sizeof out);
    EXPECT_EQ_I(rc, 1);
    EXPECT_CONTAINS(out, message);
    const char *nl = strchr(out, '\n');
    EXPECT(nl && nl[1] == 0); /* one line */
}

TEST(sim_bad_command_lines)
{
    expect_error("run -o l1d.bogus=1 workloads/synthetic/conflict.syn", "-o l1d.bogus=1: unknown key 'l1d.bogus'");
    expect_error("run -o l1d.assoc=many workloads/synthetic/conflict.syn", "l1d.assoc: expected a non-negative integer");
    expect_error("run -o l1d.assoc=9999 workloads/synthetic/conflict.syn", "l1d.assoc: 9999 is out of range");
    expect_error("run -o l1d.n_sets=48 workloads/synthetic/conflict.syn", "l1d.n_sets: 48 must be a power of two");
    expect_error("run -o sm.sched=fastest workloads/synthetic/conflict.syn", "sm.sched: unknown warp policy 'fastest'");
    expect_error("run -o l1d.assoc workloads/synthetic/conflict.syn", "expected key=value");
    expect_error("run --preset nosuch workloads/synthetic/conflict.syn", "--preset nosuch: no preset");
    expect_error("run", "expected a workload");
    expect_error("run --frobnicate x.syn", "unknown option '--frobnicate'");
    expect_error("fly", "unknown command 'fly'");
}

TEST(sim_bad_config_files)
{
    char path[512], args[1024];
    snprintf(path, sizeof path, "%s/bad.cfg", test_tmpdir());
    FILE *f = fopen(path, "w");
    ASSERT(f);
    fputs("# fine\nl1d.assoc = 4\nl1d.mshr_entries = lots\n", f);
    fclose(f);
    snprintf(args, sizeof args, "run --config %s workloads/synthetic/conflict.syn", path);
    expect_error(args, "bad.cfg:3: l1d.mshr_entries: expected a non-negative integer, got 'lots'");
    f = fopen(path, "w");
    ASSERT(f);
    fputs("-gpgpu_cache:dl1 N:32:128\n", f);
    fclose(f);
    snprintf(args, sizeof args, "run --gpgpusim-config %s workloads/synthetic/conflict.syn", path);
    expect_error(args, "bad.cfg:1:");
}

/* Value of a derived "name value" line (a real number). */
static double real_of(const char *text, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *p = strstr(text, key);
    return p ? atof(p + strlen(key)) : -1;
}

TEST(sim_miss_classes_and_concentration)
{
    /* One warp, 32 lines in one set, four times: 32 cold misses, then every miss is to a line
     * the warp itself evicted. */
    EXPECT_EQ_I(run("--preset gtx480 workloads/synthetic/conflict.syn"), 0);
    EXPECT_EQ_I(stat_of(out, "sm.l1d.miss_cold"), 32);
    EXPECT_EQ_I(stat_of(out, "sm.l1d.miss_intra"), 96);
    EXPECT_EQ_I(stat_of(out, "sm.l1d.miss_inter"), 0);
    EXPECT_NEAR(real_of(out, "l1d.concentration"), 32.0, 1e-9);
    /* The ATAX-like stream (16 KiB row stride) on 32 sets of 128 B: conv puts a load's 32
     * lines in one set, pdisp in 31 of them, fup in 32 (thesis 3.3.5). */
    EXPECT_EQ_I(run("--preset gtx480 -o l1d.index=conv workloads/synthetic/atax-small.syn"), 0);
    EXPECT_NEAR(real_of(out, "l1d.concentration"), 32.0, 1e-9);
    EXPECT(stat_of(out, "sm.l1d.miss_intra") > stat_of(out, "sm.l1d.miss_inter"));
    EXPECT_EQ_I(run("--preset gtx480 -o l1d.index=pdisp workloads/synthetic/atax-small.syn"), 0);
    EXPECT_NEAR(real_of(out, "l1d.concentration"), 32.0 / 31.0, 1e-5);
    EXPECT_EQ_I(run("--preset gtx480 -o l1d.index=fup workloads/synthetic/atax-small.syn"), 0);
    EXPECT_NEAR(real_of(out, "l1d.concentration"), 1.0, 1e-9);
    EXPECT_EQ_I(stat_of(out, "sm.l1d.miss_intra"), 0);
}

TEST(sim_l1d_balance)
{
    /* conflict.syn: 128 load accesses, all in set 0 of 32 under conv. Eq. 2:
     * (128 * 129 / 2) / (128 / 64 * (128 + 63)) = 8256 / 382. */
    EXPECT_EQ_I(run("--preset gtx480 workloads/synthetic/conflict.syn"), 0);
    EXPECT_EQ_I(stat_of(out, "sm.l1d.balance_sum"), 8256);
    EXPECT_NEAR(real_of(out, "l1d.balance"), 8256.0 / 382.0, 1e-4);
    /* Under fup the same lines spread over every set, the 4 passes of 32 lines evenly:
     * b_j = 4 for all j, sum 32 * 10 = 320; ideal 382: balance 320/382 (better than random). */
    EXPECT_EQ_I(run("--preset gtx480 -o l1d.index=fup workloads/synthetic/conflict.syn"), 0);
    EXPECT_NEAR(real_of(out, "l1d.balance"), 320.0 / 382.0, 1e-4);
}

#include "exp/json.h"

TEST(sim_time_series)
{
    /* gpu.sample_cycles=100: one sample per 100 core cycles, IPC over each period, warps
     * resident at each sample, L1D hit rate per period; the samples add up to the run. */
    char cmd[1024], err[256];
    snprintf(cmd, sizeof cmd, "%s run --quiet --preset gtx480 -o gpu.sample_cycles=100 --json %s/ts.json "
             "workloads/synthetic/noconflict.syn && cat %s/ts.json", test_warpsim(), test_tmpdir(), test_tmpdir());
    ASSERT(test_run_cmd(cmd, out, sizeof out) == 0);
    JsonValue *j = json_parse(out, err, sizeof err);
    ASSERT(j);
    const JsonValue *total = json_get(j, "total"), *ser = json_get(j, "series");
    ASSERT(total && ser);
    double cycles = json_number(json_get(total, "sim.cycles"), -1);
    double insts = json_number(json_get(total, "sim.thread_insts"), -1);
    EXPECT_EQ_I((long long)json_number(json_get(ser, "period_cycles"), 0), 100);
    const JsonValue *ipc = json_get(ser, "sim.ipc"), *warps = json_get(ser, "sm.active_warps");
    ASSERT(ipc && warps && ipc->type == JSON_ARRAY);
    EXPECT_EQ_I(ipc->n, (long long)cycles / 100);
    EXPECT_EQ_I(warps->n, ipc->n);
    double sum = 0;
    for (uint32_t i = 0; i < ipc->n; i++)
        sum += json_number(&ipc->items[i], 0) * 100;
    EXPECT(sum <= insts && sum > 0); /* the last partial period is not sampled */
    EXPECT_NEAR(json_number(&warps->items[0], 0), 1, 1e-9); /* one warp resident at cycle 100 */
    json_free(j);
    EXPECT_EQ_I(run("-o gpu.sample_cycles=0 workloads/synthetic/noconflict.syn"), 0);
    EXPECT(strstr(out, "series") == NULL);
}

/* ---- the embedding API: bad configurations come back as errors ---- */

#include "warpsim.h"

/* warpsim_create on args; expects NULL and a message containing `message`. Returning at all
 * shows that the bad input did not end the process. */
static void expect_create_error(int argc, const char *const *argv, const char *message)
{
    char err[1024] = "";
    WarpsimSim *s = warpsim_create(argc, argv, err, sizeof err);
    EXPECT(s == NULL);
    EXPECT_CONTAINS(err, message);
    if (s)
        warpsim_destroy(s);
}

TEST(sim_create_returns_config_errors)
{
    const char *preset[] = {"--quiet", "--preset", "nosuch"};
    expect_create_error(3, preset, "--preset nosuch: no preset of that name (looked for ");
    char missing[512];
    snprintf(missing, sizeof missing, "%s/missing.cfg", test_tmpdir());
    const char *config[] = {"--config", missing};
    expect_create_error(2, config, "missing.cfg: cannot read config file: No such file or directory");
    const char *sets[] = {"-o", "l1d.n_sets=3"};
    expect_create_error(2, sets, "l1d.n_sets: 3 must be a power of two");
    const char *policy[] = {"--functional", "-o", "sm.sched=nope"};
    expect_create_error(3, policy, "sm.sched: unknown warp policy 'nope'");
    const char *key[] = {"-ol1d.bogus=1"};
    expect_create_error(1, key, "-o l1d.bogus=1: unknown key 'l1d.bogus'");
    const char *range[] = {"--preset", "gtx480", "-o", "l1d.assoc=9999"};
    expect_create_error(4, range, "-o l1d.assoc=9999: l1d.assoc: 9999 is out of range");
    const char *novalue[] = {"-o"};
    expect_create_error(1, novalue, "-o: expected a value after it");
    const char *addr_map[] = {"-o", "mem.addr_map=bogus"};
    expect_create_error(2, addr_map, "mem.addr_map: expected 'dramid@<bit>;'");
    const char *unknown[] = {"--frobnicate"};
    expect_create_error(1, unknown, "--frobnicate: unknown option");

    char path[512];
    snprintf(path, sizeof path, "%s/badline.cfg", test_tmpdir());
    FILE *f = fopen(path, "w");
    ASSERT(f);
    fputs("# fine\nl1d.assoc = 4\nl1d.mshr_entries = lots\n", f);
    fclose(f);
    const char *badline[] = {"--config", path};
    expect_create_error(2, badline, "badline.cfg:3: l1d.mshr_entries: expected a non-negative integer, got 'lots'");
    f = fopen(path, "w");
    ASSERT(f);
    fputs("-gpgpu_cache:dl1 N:32:128\n", f);
    fclose(f);
    const char *gpgpusim[] = {"--gpgpusim-config", path};
    expect_create_error(2, gpgpusim, "badline.cfg:1: -gpgpu_cache:dl1: ");

    /* and after all that, a good configuration still makes a simulator */
    char err[1024] = "";
    const char *good[] = {"--functional", "--quiet", "-o", "l1d.n_sets=64"};
    WarpsimSim *s = warpsim_create(4, good, err, sizeof err);
    ASSERT(s);
    WarpsimDeviceInfo di;
    warpsim_device_info(s, &di);
    EXPECT_EQ_U(di.n_sms, 30);
    warpsim_destroy(s);
}
