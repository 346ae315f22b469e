/* test_ldst_sleep.c: the LD/ST unit that sleeps after a reservation failure (sm.ldst_sleep,
 * the default) gives the stats of one that replays every cycle, where the failures are many
 * and of every cause: a divergent stream whose 32 line accesses share an L1D set (all ways
 * reserved), fill the miss queue and the MSHRs, with instruction fetches through the L1D
 * (the GTX480 file), the L1 latency queue, a re-execution queue, a sectored L1D, and warp
 * schedulers that bypass or steer loads (PCAL, CIAO-C). */
#include "../test.h"

static char sleeping[1 << 21], replaying[1 << 21];

TEST(ldst_sleep_same_stats)
{
    static const char *const configs[] = {
        "--preset gtx480",
        "--gpgpusim-config configs/gpgpusim/gtx480.config",
        "--preset gtx480 -o sm.l1d_access=queued -o sm.ldst_queue=2",
        "--preset gtx480 -o sm.sched=mascar -o sm.reexec_queue=8",
        "--preset qv100",
        /* schedulers that decide per look-up whether a load bypasses the L1D or is steered */
        "--preset gtx480 -o sm.sched=pcal",
        "--preset gtx480 -o sm.sched=ciao-c",
    };
    for (size_t i = 0; i < sizeof configs / sizeof *configs; i++) {
        char args[512];
        snprintf(args, sizeof args, "%s workloads/synthetic/atax1.syn", configs[i]);
        test_run_stats(args, "sleep", sleeping, sizeof sleeping);
        snprintf(args, sizeof args, "%s -o sm.ldst_sleep=false workloads/synthetic/atax1.syn", configs[i]);
        test_run_stats(args, "replay", replaying, sizeof replaying);
        EXPECT(strlen(sleeping) > 10000);
        if (strcmp(sleeping, replaying) != 0)
            printf("  differs on %s\n", configs[i]);
        EXPECT(strcmp(sleeping, replaying) == 0);
        if (i == 0) { /* the stream does meet the failures this is about */
            EXPECT_CONTAINS(sleeping, "\"sm.l1d.resfail_icnt\"");
            EXPECT(strstr(sleeping, "\"sm.l1d.resfail_icnt\": 0,") == NULL);
            EXPECT(strstr(sleeping, "\"sm.l1d.resfail_line\": 0,") == NULL);
        }
    }
}

/* A kernel stopped by gpu.max_cycles with its CTAs resident: the cycles its SMs and refused
 * accesses slept through up to the stop count as if run (sm_account_sleep), so the stats are
 * the every-cycle ones there too. */
TEST(ldst_sleep_stopped_kernel_same_stats)
{
    static const char *const modes[] = {"true", "false"};
    char *bufs[] = {sleeping, replaying};
    for (int i = 0; i < 2; i++) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd,
                 "%s run --quiet --json %s/stop%d.json --gpgpusim-config configs/gpgpusim/gtx480.config "
                 "-o gpu.max_cycles=20000 -o sm.ldst_sleep=%s workloads/synthetic/atax1.syn >/dev/null 2>&1; "
                 "echo rc=$?; sed -n '/^  \"kernels\"/,$p' %s/stop%d.json",
                 test_warpsim(), test_tmpdir(), i, modes[i], test_tmpdir(), i);
        ASSERT(test_run_cmd(cmd, bufs[i], sizeof sleeping) == 0);
        EXPECT_CONTAINS(bufs[i], "rc=4"); /* stopped at the limit */
        EXPECT(strlen(bufs[i]) > 10000);
    }
    EXPECT(strcmp(sleeping, replaying) == 0);
}
