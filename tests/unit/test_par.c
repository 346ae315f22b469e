/* test_par.c: the SMs on several threads (gpu.threads, core/gpu_par.c) give the stats of one
 * thread: a synthetic stream and a real program whose atomics return values in the order the
 * SMs run them; and bad values of the option are refused. (tests/workloads.sh compares every
 * suite workload on two threads.) */
#include "../test.h"

#include <stdlib.h>

static char one[1 << 21], many[1 << 21];

TEST(par_synthetic_same_stats)
{
    char path[512], args[1024];
    /* divergent loads, stores and ALU work on every SM, over several CTA waves */
    ASSERT(test_tmp_file("par.syn",
                         "kernel par\ngrid 96\nblock 256\narray A 0x10000000 4\narray y 0x20000000 4\n"
                         "loop j 6\n  load A[tid*64 + j*7]\n  alu 3 fmad\nend\nstore y[tid]\n",
                         path, sizeof path));
    snprintf(args, sizeof args, "--preset gtx480 %s", path);
    test_run_stats(args, "one", one, sizeof one);
    /* four threads, every cycle on all of them; and the default, which switches between */
    snprintf(args, sizeof args, "--preset gtx480 -j 4 -o gpu.par_min_sms=0 %s", path);
    test_run_stats(args, "four", many, sizeof many);
    EXPECT(strlen(one) > 10000);
    EXPECT(strcmp(one, many) == 0);
    snprintf(args, sizeof args, "--preset gtx480 -j 2 %s", path);
    test_run_stats(args, "two", many, sizeof many);
    EXPECT(strcmp(one, many) == 0);
}

TEST(par_program_same_stats)
{
    /* bfs-sdk: a frontier queue filled through global atomicAdd, whose returned slots decide
     * where each thread stores: run out of SM order they would move stores, and the stats
     * with them. Every cycle on both threads. */
    test_run_stats("--preset gtx480 bfs-sdk --size small", "b1", one, sizeof one);
    test_run_stats("--preset gtx480 -j 2 -o gpu.par_min_sms=0 bfs-sdk --size small", "b2", many, sizeof many);
    EXPECT(strlen(one) > 10000);
    EXPECT_CONTAINS(one, "\"sm.atomics\"");
    EXPECT(strcmp(one, many) == 0);
    /* histogram: shared-memory atomics, barriers, two kernels; three threads (two boundaries
     * between their SMs) */
    test_run_stats("--preset gtx480 histogram --size small", "h1", one, sizeof one);
    test_run_stats("--preset gtx480 -j 3 -o gpu.par_min_sms=0 histogram --size small", "h3", many, sizeof many);
    EXPECT(strlen(one) > 10000);
    EXPECT(strcmp(one, many) == 0);
}

TEST(par_bad_thread_counts)
{
    static const char *const cases[][2] = {
        {"run -j 0 workloads/synthetic/compute.syn", "gpu.threads: 0 is out of range"},
        {"run -j many workloads/synthetic/compute.syn", "gpu.threads: expected a non-negative integer"},
        {"run workloads/synthetic/compute.syn -j", "-j: expected a value after it"},
        {"bench -j 0", "bench: -j 0: expected a number of threads from 1 to 256"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char cmd[1024], out[4096];
        snprintf(cmd, sizeof cmd, "%s %s", test_warpsim(), cases[i][0]);
        EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 1);
        EXPECT_CONTAINS(out, cases[i][1]);
    }
}
