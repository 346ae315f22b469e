/* test_golden.c: key stats of small runs, pinned. A change that moves them must say why in its
 * commit message; `make golden-update` rewrites tests/golden/ from the current binary, and the
 * diff is reviewed like code. */
#include "../test.h"

#include <stdlib.h>

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

/* "name value" lines of the pinned stats from a text summary. */
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

TEST(golden_small_runs)
{
    static char summary[1 << 20];
    char got[4096], want[4096], cmd[1024], path[256];
    int update = getenv("GOLDEN_UPDATE") && *getenv("GOLDEN_UPDATE");
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        snprintf(cmd, sizeof cmd, "%s run --quiet --stats /dev/stdout %s", test_warpsim(), runs[r].args);
        ASSERT(test_run_cmd(cmd, summary, sizeof summary) == 0);
        extract(summary, got, sizeof got);
        snprintf(path, sizeof path, "tests/golden/%s.txt", runs[r].name);
        if (update) {
            FILE *f = fopen(path, "w");
            ASSERT(f);
            fputs(got, f);
            fclose(f);
            continue;
        }
        FILE *f = fopen(path, "r");
        ASSERT(f);
        size_t n = fread(want, 1, sizeof want - 1, f);
        fclose(f);
        want[n] = 0;
        if (strcmp(got, want)) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s: stats differ from %s (make golden-update, then explain the diff)",
                     runs[r].name, path);
            test_fail(__FILE__, __LINE__, msg);
            printf("--- want\n%s--- got\n%s", want, got);
        }
    }
}
