/* test_limits.c: how kernels that wait are run, and stopped, on the kernels of
 * tests/ptx/limits.cu, through the embedding API.
 *
 * Warps that wait for a later warp's flag finish in both modes: --functional interleaves the
 * warps of a CTA, deterministically. A kernel stopped on the timing model fails its launch with
 * one message, its result files say how it ended, and the next launch is refused. */
#include "../test.h"

#include "base/base.h"
#include "front/ptx/ptx.h"
#include "warpsim.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* What the simulator prints: capture(true) sends stderr to a file of the test's scratch folder,
 * capture(false) gives stderr back and returns the file's text (to free). */
static char *capture(bool on)
{
    static int saved = -1;
    char path[512];
    snprintf(path, sizeof path, "%s/limits_stderr.txt", test_tmpdir());
    fflush(stderr);
    if (!on) {
        dup2(saved, 2);
        close(saved);
        return read_file(path, NULL);
    }
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    saved = dup(2);
    dup2(fd, 2);
    close(fd);
    return NULL;
}

/* needle occurs in hay, and only once. */
static bool once(const char *hay, const char *needle)
{
    const char *p = hay ? strstr(hay, needle) : NULL;
    return p && !strstr(p + 1, needle);
}

/* The "status" line of the text results (--stats) at path, e.g. "status complete". */
static bool stats_status(const char *path, const char *want)
{
    char *text = read_file(path, NULL), line[256];
    snprintf(line, sizeof line, "\nstatus %s\n", want);
    bool ok = text && strstr(text, line);
    free(text);
    return ok;
}

/* A simulator with "--quiet" and the arguments (NULL-terminated), tests/ptx/limits.ptx loaded. */
static WarpsimSim *sim_open(const char *const *args, WarpsimModule **m)
{
    const char *argv[16] = {"--quiet"};
    int argc = 1;
    while (*args && argc < 16)
        argv[argc++] = *args++;
    char err[512];
    WarpsimSim *s = warpsim_create(argc, argv, err, sizeof err);
    if (!s) {
        printf("  warpsim_create: %s\n", err);
        return NULL;
    }
    char *text = read_file("tests/ptx/limits.ptx", NULL);
    WarpsimStatus st = text ? warpsim_module_load(s, text, "limits.ptx", m) : WARPSIM_E_INPUT;
    free(text);
    if (st != WARPSIM_OK) {
        warpsim_destroy(s);
        return NULL;
    }
    return s;
}

/* Launch kernel(dev, arg) over grid x block threads (1-D); arg_bytes 8 for a pointer, 4 for an int. */
static WarpsimStatus launch(WarpsimSim *s, WarpsimModule *m, const char *kernel, uint32_t grid, uint32_t block,
                            uint64_t dev, uint64_t arg, size_t arg_bytes)
{
    const uint32_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
    uint64_t params[2] = {dev, arg};
    return warpsim_launch(s, m, kernel, g, b, 0, params, 8 + arg_bytes);
}

/* `handoff`: warp w waits for warp w + 1's flag; 3 CTAs of 8 warps finish in both modes and give
 * the same results. */
static void handoff(const char *const *args, int32_t *got)
{
    enum { CTAS = 3, THREADS = 256 };
    WarpsimModule *m;
    WarpsimSim *s = sim_open(args, &m);
    ASSERT(s);
    uint64_t flags = warpsim_malloc(s, CTAS * 8 * 4), out = warpsim_malloc(s, CTAS * THREADS * 4);
    warpsim_memset(s, flags, 0, CTAS * 8 * 4);
    warpsim_memset(s, out, 0, CTAS * THREADS * 4);
    EXPECT_EQ_I(launch(s, m, "handoff", CTAS, THREADS, flags, out, 8), WARPSIM_OK);
    warpsim_memcpy_dtoh(s, got, out, CTAS * THREADS * 4);
    int bad = 0;
    for (int i = 0; i < CTAS * THREADS; i++)
        bad += got[i] != 8 - (i % THREADS) / 32;
    EXPECT_EQ_I(bad, 0);
    warpsim_destroy(s);
}

TEST(limits_functional_interleaves_warps)
{
    static int32_t functional[3 * 256], timing[3 * 256];
    const char *const fargs[] = {"--functional", NULL};
    const char *const targs[] = {NULL};
    handoff(fargs, functional);
    handoff(targs, timing);
    EXPECT(memcmp(functional, timing, sizeof timing) == 0);
}

/* Interleaving is deterministic: two runs execute the same instructions. */
TEST(limits_functional_deterministic)
{
    char err[512];
    PtxModule *pm = ptx_module_load("tests/ptx/limits.ptx", err, sizeof err);
    ASSERT(pm);
    uint64_t insts[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        PtxMemory *mem = ptx_memory_create();
        uint64_t flags = ptx_memory_alloc(mem, 2 * 16 * 4);
        ptx_memory_set(mem, flags, 0, 2 * 16 * 4);
        uint64_t params[2] = {flags, ptx_memory_alloc(mem, 2 * 512 * 4)};
        const uint32_t grid[3] = {2, 1, 1}, block[3] = {512, 1, 1};
        PtxLaunch *l = ptx_launch_create(pm, "handoff", grid, block, 0, params, 16, mem, err, sizeof err);
        ASSERT(l);
        PtxRunStats st;
        EXPECT(ptx_run_kernel(l, &st, err, sizeof err));
        insts[k] = st.warp_insts;
        ptx_launch_destroy(l);
        ptx_memory_destroy(mem);
    }
    EXPECT(insts[0] > 0);
    EXPECT_EQ_U(insts[0], insts[1]);
    ptx_module_free(pm);
}

/* A kernel stopped on the timing model (here by gpu.max_cycles) fails its launch with one message
 * saying why, and the results say so; its CTAs stay on the GPU, so the next launch is refused
 * (it used to run into them and fail a check of the timing model). */
TEST(limits_stopped_launch_refuses_more)
{
    char stats[512];
    snprintf(stats, sizeof stats, "%s/limits_stopped.txt", test_tmpdir());
    const char *const args[] = {"-o", "gpu.max_cycles=5000", "--stats", stats, NULL};
    WarpsimModule *m;
    WarpsimSim *s = sim_open(args, &m);
    ASSERT(s);
    uint64_t flag = warpsim_malloc(s, 4), out = warpsim_malloc(s, 32 * 4);
    warpsim_memset(s, flag, 0, 4);
    capture(true);
    WarpsimStatus st = launch(s, m, "spin", 1, 32, flag, out, 8);
    char *printed = capture(false);
    EXPECT_EQ_I(st, WARPSIM_E_CYCLE_LIMIT);
    const char *why = "kernel 'spin' stopped at gpu.max_cycles = 5000 (0 of 1 CTAs done); raise it with "
                      "-o gpu.max_cycles=N (0: no limit)";
    EXPECT_STR(warpsim_error(s), why);
    EXPECT(once(printed, why));
    free(printed);
    capture(true);
    st = launch(s, m, "busy", 1, 32, out, 3, 4);
    free(capture(false));
    EXPECT_EQ_I(st, WARPSIM_E_CYCLE_LIMIT);
    EXPECT_CONTAINS(warpsim_error(s), "launch of busy: the timing model was stopped by an earlier launch (kernel "
                                      "'spin' stopped at gpu.max_cycles = 5000");
    warpsim_destroy(s);
    EXPECT(stats_status(stats, "stopped: max_cycles"));
}
