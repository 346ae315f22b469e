/* test_golden.c: key stats of small runs, pinned. A change that moves them must say why in its
 * commit message; `make golden-update` rewrites tests/golden/ from the current binary, and the
 * diff is reviewed like code. */
#include "../test.h"

#include <stdlib.h>
#include <unistd.h>

static const char *const pinned_stats[] = {
    "sim.cycles", "sim.warp_insts", "sim.thread_insts", "sm.l1d.access", "sm.l1d.hit",
    "sm.l1d.miss", "sm.l1d.merge", "sm.l1d.resfail_mshr", "sm.l1d.resfail_line",
    "sm.l1d.resfail_icnt", "sm.ldst.replay", "l2.access", "l2.hit", "l2.miss",
    "dram.reads", "dram.row_hits",
};

static const struct {
    const char *name, *args;
} runs[] = {
    {"conflict", "--preset gtx480 workloads/synthetic/conflict.syn"},
    {"noconflict", "--preset gtx480 workloads/synthetic/noconflict.syn"},
    {"atax-small-conv", "--preset gtx480 workloads/synthetic/atax-small.syn"},
    {"atax-small-fup", "--preset gtx480 -o l1d.index=fup workloads/synthetic/atax-small.syn"},
    {"syrk-small-lrr", "--preset gtx480 -o sm.sched=lrr workloads/synthetic/syrk-small.syn"},
};

/* Two memory-divergent suite workloads (their PTX on the timing model, through their host
 * programs), each on every preset under allocate-on-miss and allocate-on-fill: golden
 * <name>-<preset>-<alloc>. Host arguments shrink them below their small size so that a run
 * takes well under a second: GESUMMV with n=256 (one CTA of 8 warps, two loads per iteration
 * whose lanes walk rows 1 KB apart) and SHOC's CSR-scalar SpMV with n=4096 (32 CTAs, one row
 * per thread). Between them they hit every L1D reservation failure (line, MSHR, interconnect)
 * and the two allocation modes differ on each preset. */
static const struct {
    const char *name, *dir, *host_args;
} suite_runs[] = {
    {"gesummv", "polybench/gesummv", "n=256"},
    {"spmv", "shoc/spmv", "n=4096"},
};
static const char *const suite_presets[] = {"gtx480", "gtx480-16k", "gtx980"};
static const char *const suite_allocs[] = {"miss", "fill"};

/* "name value" lines of the pinned stats from a text summary (its first section, the total). */
static void extract(const char *summary, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof pinned_stats / sizeof pinned_stats[0]; i++) {
        char key[96];
        snprintf(key, sizeof key, "\n%s ", pinned_stats[i]);
        const char *p = strstr(summary, key);
        long long v = p ? atoll(p + strlen(key)) : -1;
        len += (size_t)snprintf(out + len, cap - len, "%s %lld\n", pinned_stats[i], v);
    }
}

/* `warpsim run ARGS`: its pinned stats against tests/golden/NAME.txt, or written there when
 * GOLDEN_UPDATE is set. */
static void golden_run(const char *name, const char *args)
{
    static char summary[1 << 20];
    char got[4096], want[4096], cmd[1024], path[256];
    int update = getenv("GOLDEN_UPDATE") && *getenv("GOLDEN_UPDATE");
    snprintf(cmd, sizeof cmd, "%s run --quiet --stats /dev/stdout %s", test_warpsim(), args);
    if (test_run_cmd(cmd, summary, sizeof summary) != 0) {
        char msg[1400];
        snprintf(msg, sizeof msg, "%s: `%s` failed: %.300s", name, cmd, summary);
        test_fail(__FILE__, __LINE__, msg);
        return;
    }
    extract(summary, got, sizeof got);
    snprintf(path, sizeof path, "tests/golden/%s.txt", name);
    if (update) {
        FILE *f = fopen(path, "w");
        ASSERT(f);
        fputs(got, f);
        fclose(f);
        return;
    }
    FILE *f = fopen(path, "r");
    ASSERT(f);
    size_t n = fread(want, 1, sizeof want - 1, f);
    fclose(f);
    want[n] = 0;
    if (strcmp(got, want)) {
        char msg[1400];
        snprintf(msg, sizeof msg, "%s: stats of `warpsim run %s` differ from %s (make golden-update, then explain the diff)",
                 name, args, path);
        test_fail(__FILE__, __LINE__, msg);
        printf("--- want\n%s--- got\n%s", want, got);
    }
}

TEST(golden_small_runs)
{
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        golden_run(runs[r].name, runs[r].args);
}

/* The suite runs need the workloads' host programs, which `make` builds next to warpsim
 * (`make test` builds them first); where they are not built (the sanitizer build) the runs
 * are skipped with a note. */
TEST(golden_suite_runs)
{
    char dir[512], host[1024], name[128], args[512];
    snprintf(dir, sizeof dir, "%s", test_warpsim());
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        dir[0] = 0;
    for (size_t w = 0; w < sizeof suite_runs / sizeof suite_runs[0]; w++) {
        snprintf(host, sizeof host, "%sworkloads/%s/host", dir, suite_runs[w].dir);
        if (access(host, X_OK) != 0) {
            printf("note golden_suite_runs: %s is not built (make builds it): the %s goldens are skipped\n", host,
                   suite_runs[w].name);
            continue;
        }
        for (size_t p = 0; p < sizeof suite_presets / sizeof suite_presets[0]; p++)
            for (size_t a = 0; a < sizeof suite_allocs / sizeof suite_allocs[0]; a++) {
                snprintf(name, sizeof name, "%s-%s-%s", suite_runs[w].name, suite_presets[p], suite_allocs[a]);
                snprintf(args, sizeof args, "--preset %s -o l1d.alloc=%s %s -- %s", suite_presets[p], suite_allocs[a],
                         suite_runs[w].name, suite_runs[w].host_args);
                golden_run(name, args);
            }
    }
}
