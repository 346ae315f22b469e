/* test_limits.c: how kernels that wait are run, and stopped when they never finish, on the
 * kernels of tests/ptx/limits.cu, through the embedding API.
 *
 * Warps that wait for a later warp's flag finish in both modes: --functional interleaves the
 * warps of a CTA, deterministically. A kernel stopped on the timing model fails its launch with
 * one message, its result files say how it ended, and the next launch is refused. A kernel
 * spinning on a flag nobody sets is stopped by gpu.spin_insts, one that also stores on every
 * iteration by gpu.stall_insts (small here, so that each test takes a fraction of a second), in
 * both modes, with WARPSIM_E_CYCLE_LIMIT, one message naming the limit and how to raise it, and
 * the status in the results; a grid of short CTAs that runs far longer than both limits in all
 * completes. The driver library turns the stop into CUDA_ERROR_LAUNCH_TIMEOUT. The defaults are
 * those docs/config.md states. */
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "front/ptx/ptx.h"
#include "warpsim.h"

#include <cuda/cuda.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/* The defaults, as documented in docs/config.md and src/conf/gpu.def. */
#define DEFAULT_SPIN_INSTS 100000000ull
#define DEFAULT_STALL_INSTS 5000000000ull

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

/* `handoff`: warp w waits for warp w + 1's flag; 3 CTAs of 8 warps finish in both modes (with
 * small limits, so that a deadlock ends quickly) and give the same results. */
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
    const char *const fargs[] = {"--functional", "-o", "gpu.spin_insts=100000", "-o", "gpu.stall_insts=100000", NULL};
    const char *const targs[] = {"-o", "gpu.spin_insts=100000", "-o", "gpu.stall_insts=100000", NULL};
    handoff(fargs, functional);
    handoff(targs, timing);
    EXPECT(memcmp(functional, timing, sizeof timing) == 0);
}

/* `wait_later`: CTA 0 waits for the grid's last CTA. --functional starts CTAs beside the
 * waiting one (as many as the machine holds: 15 SMs x 8 on gtx480), so the kernel finishes in
 * both modes, with a grid within that (100 CTAs) and beyond it (500: the last starts once others
 * complete, as on a GPU), and with small spin limits. */
static void wait_later(const char *const *args, uint32_t ctas)
{
    WarpsimModule *m;
    WarpsimSim *s = sim_open(args, &m);
    ASSERT(s);
    uint64_t flag = warpsim_malloc(s, 4), out = warpsim_malloc(s, ctas * 4);
    warpsim_memset(s, flag, 0, 4);
    EXPECT_EQ_I(launch(s, m, "wait_later", ctas, 64, flag, out, 8), WARPSIM_OK);
    int32_t *got = xmalloc(ctas * 4);
    warpsim_memcpy_dtoh(s, got, out, ctas * 4);
    EXPECT_EQ_I(got[0], (int)ctas - 1);
    int bad = 0;
    for (uint32_t i = 1; i < ctas; i++)
        bad += got[i] != -1;
    EXPECT_EQ_I(bad, 0);
    free(got);
    warpsim_destroy(s);
}

TEST(limits_cta_waits_for_a_later_cta)
{
    const char *const fargs[] = {"--functional", "-o", "gpu.spin_insts=100000", NULL};
    const char *const targs[] = {"-o", "gpu.spin_insts=100000", NULL};
    wait_later(fargs, 100);
    wait_later(fargs, 500);
    wait_later(targs, 100);
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

/* "name value" of a text summary; -1 if absent. */
static long long stat_of(const char *text, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *p = text ? strstr(text, key) : NULL;
    return p ? atoll(p + strlen(key)) : -1;
}

/* kernel over 2 CTAs of 64 threads under args: stopped by the limit named `key`, with one
 * message on stderr that starts with `start` and contains `message`, which warpsim_error gives,
 * and the text results' status "stopped: <key without gpu.>"; a stop is not a fault. */
static void stopped(const char *const *args, const char *kernel, const char *key, const char *start,
                    const char *message)
{
    char stats[512];
    snprintf(stats, sizeof stats, "%s/limits_%s.txt", test_tmpdir(), kernel);
    const char *argv[16];
    int argc = 0;
    while (*args && argc < 13)
        argv[argc++] = *args++;
    argv[argc++] = "--stats";
    argv[argc++] = stats;
    argv[argc] = NULL;
    WarpsimModule *m;
    WarpsimSim *s = sim_open(argv, &m);
    ASSERT(s);
    uint64_t flag = warpsim_malloc(s, 4), out = warpsim_malloc(s, 128 * 4);
    warpsim_memset(s, flag, 0, 4);
    warpsim_memset(s, out, 0, 128 * 4);
    capture(true);
    WarpsimStatus st = launch(s, m, kernel, 2, 64, flag, out, 8);
    char *printed = capture(false);
    EXPECT_EQ_I(st, WARPSIM_E_CYCLE_LIMIT);
    const char *err = warpsim_error(s);
    EXPECT(!strncmp(err, start, strlen(start)));
    EXPECT_CONTAINS(err, message);
    char raise[128];
    snprintf(raise, sizeof raise, "If it is only slow, raise the limit: -o %s=N (0: no limit)", key);
    EXPECT_CONTAINS(err, raise);
    EXPECT(once(printed, err));
    EXPECT(once(printed, "warpsim: ")); /* nothing else */
    free(printed);
    /* the interpreter's state is per launch: the next kernel runs functionally; the timing
     * model refuses it, its GPU still holding the stopped kernel's CTAs */
    bool functional = !strcmp(argv[0], "--functional");
    capture(true);
    st = launch(s, m, "busy", 1, 32, out, 3, 4);
    free(capture(false));
    EXPECT_EQ_I(st, functional ? WARPSIM_OK : WARPSIM_E_CYCLE_LIMIT);
    if (!functional)
        EXPECT_CONTAINS(warpsim_error(s), "launch of busy: the timing model was stopped by an earlier launch");
    warpsim_destroy(s);
    char status[64];
    snprintf(status, sizeof status, "stopped: %s", key + strlen("gpu."));
    EXPECT(stats_status(stats, status)); /* the first kernel that did not complete */
    char *text = read_file(stats, NULL);
    EXPECT_EQ_I(stat_of(text, "sim.faults"), 0);
    free(text);
}

TEST(limits_spin_stopped_timing)
{
    const char *const args[] = {"-o", "gpu.spin_insts=20000", NULL};
    stopped(args, "spin", "gpu.spin_insts", "kernel 'spin' stopped at core cycle ",
            " warp instructions (gpu.spin_insts) since a CTA last completed or a thread last wrote global or local "
            "memory, 0 of 2 CTAs done; it may wait for something that never happens");
}

TEST(limits_spin_writing_stopped_timing)
{
    /* the stores keep gpu.spin_insts from counting up; gpu.stall_insts does not mind them */
    const char *const args[] = {"-o", "gpu.spin_insts=20000", "-o", "gpu.stall_insts=40000", NULL};
    stopped(args, "spin_writing", "gpu.stall_insts", "kernel 'spin_writing' stopped at core cycle ",
            " warp instructions (gpu.stall_insts) since a CTA last completed, 0 of 2 CTAs done");
}

TEST(limits_spin_stopped_functional)
{
    /* the loop is at lines 32-33 of limits.ptx. After the limit's worth of instructions the
     * second CTA starts beside the first (both fit), and the limit counts afresh; the first CTA
     * stops with both its warps in the loop, after the turn (256 instructions) of its second warp
     * that took it past the limit */
    const char *const args[] = {"--functional", "-o", "gpu.spin_insts=10000", NULL};
    stopped(args, "spin", "gpu.spin_insts", "limits.ptx:33: kernel spin: ",
            "10240 warp instructions since a CTA last completed or a thread last wrote "
            "global or local memory: CTA (0,0,0) is still running, warp 0 at line 33, warp 1 at line 33. Stopped by "
            "gpu.spin_insts = 10000: the kernel may wait for something that never happens");
}

TEST(limits_spin_writing_stopped_functional)
{
    const char *const args[] = {"--functional", "-o", "gpu.spin_insts=10000", "-o", "gpu.stall_insts=20000", NULL};
    stopped(args, "spin_writing", "gpu.stall_insts", "limits.ptx:76: kernel spin_writing: ",
            "20480 warp instructions since a CTA last completed: CTA (0,0,0) is still running, warp 0 at line 76, "
            "warp 1 at line 76. Stopped by gpu.stall_insts = 20000");
}

/* The limits count from the last CTA that completed, not from the kernel's start: `busy` over
 * 128 CTAs of one warp (about 35 instructions each), on one SM that holds one CTA at a time,
 * executes far more instructions than both limits in all, and completes. */
TEST(limits_long_grid_of_short_ctas_completes_timing)
{
    enum { LIMIT = 200, CTAS = 128 };
    char stats[512];
    snprintf(stats, sizeof stats, "%s/limits_grid.txt", test_tmpdir());
    const char *const args[] = {"-o", "gpu.n_clusters=1", "-o", "gpu.cores_per_cluster=1", "-o", "sm.max_ctas=1",
                                "-o", "gpu.spin_insts=200", "-o", "gpu.stall_insts=200", "--stats", stats, NULL};
    WarpsimModule *m;
    WarpsimSim *s = sim_open(args, &m);
    ASSERT(s);
    uint64_t out = warpsim_malloc(s, CTAS * 32 * 4);
    EXPECT_EQ_I(launch(s, m, "busy", CTAS, 32, out, 20, 4), WARPSIM_OK);
    warpsim_destroy(s);
    EXPECT(stats_status(stats, "complete"));
    char *text = read_file(stats, NULL);
    EXPECT(stat_of(text, "sim.warp_insts") > 10 * LIMIT);
    free(text);
}

TEST(limits_long_grid_of_short_ctas_completes_functional)
{
    enum { LIMIT = 200, CTAS = 256 };
    char err[512];
    PtxModule *pm = ptx_module_load("tests/ptx/limits.ptx", err, sizeof err);
    ASSERT(pm);
    PtxMemory *mem = ptx_memory_create();
    uint64_t params[2] = {ptx_memory_alloc(mem, CTAS * 32 * 4), 20};
    const uint32_t grid[3] = {CTAS, 1, 1}, block[3] = {32, 1, 1};
    PtxLaunch *l = ptx_launch_create(pm, "busy", grid, block, 0, params, 12, mem, err, sizeof err);
    ASSERT(l);
    ptx_launch_set_limits(l, LIMIT, LIMIT);
    PtxRunStats st;
    EXPECT(ptx_run_kernel(l, &st, err, sizeof err));
    EXPECT_EQ_I(ptx_launch_stop(l), PTX_STOP_NONE);
    EXPECT_EQ_U(st.ctas, CTAS);
    EXPECT(st.warp_insts > 10 * LIMIT);
    EXPECT(st.warp_insts / CTAS < LIMIT / 2);
    ptx_launch_destroy(l);
    ptx_memory_destroy(mem);
    ptx_module_free(pm);
}

/* The driver library: the stopped launch is CUDA_ERROR_LAUNCH_TIMEOUT, in both modes (a fresh
 * copy of the built library per mode, each with its own simulator from WARPSIM_ARGS). */
static const char *lib_path(void)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s", test_warpsim());
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0), "lib/libcuda.so.1");
    return path;
}

/* The entry points used, looked up in the library copy. */
typedef struct Drv {
    CUresult (*init)(unsigned);
    CUresult (*retain)(CUcontext *, CUdevice);
    CUresult (*set_current)(CUcontext);
    CUresult (*load)(CUmodule *, const void *);
    CUresult (*get_function)(CUfunction *, CUmodule, const char *);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*memset32)(CUdeviceptr, unsigned, size_t);
    CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                       void **, void **);
    CUresult (*unload)(CUmodule);
    CUresult (*sync)(void);
} Drv;

static bool drv_sym(void *h, const char *name, void *fn_ptr)
{
    void *p = dlsym(h, name);
    memcpy(fn_ptr, &p, sizeof p);
    return p != NULL;
}

static void driver_spin(const char *sim_args)
{
    void *h = dlopen(lib_path(), RTLD_NOW | RTLD_LOCAL);
    ASSERT(h);
    Drv d;
    ASSERT(drv_sym(h, "cuInit", &d.init) && drv_sym(h, "cuDevicePrimaryCtxRetain", &d.retain) &&
           drv_sym(h, "cuCtxSetCurrent", &d.set_current) && drv_sym(h, "cuModuleLoadData", &d.load) &&
           drv_sym(h, "cuModuleGetFunction", &d.get_function) && drv_sym(h, "cuMemAlloc_v2", &d.mem_alloc) &&
           drv_sym(h, "cuMemsetD32_v2", &d.memset32) && drv_sym(h, "cuLaunchKernel", &d.launch) &&
           drv_sym(h, "cuModuleUnload", &d.unload) && drv_sym(h, "cuCtxSynchronize", &d.sync));
    const char *old = getenv("WARPSIM_ARGS");
    char *keep = old ? xstrdup(old) : NULL;
    setenv("WARPSIM_ARGS", sim_args, 1);
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    CUdeviceptr flag, out;
    char *text = read_file("tests/ptx/limits.ptx", NULL);
    EXPECT_EQ_I(d.init(0), CUDA_SUCCESS);
    EXPECT_EQ_I(d.retain(&ctx, 0), CUDA_SUCCESS);
    EXPECT_EQ_I(d.set_current(ctx), CUDA_SUCCESS);
    EXPECT_EQ_I(d.load(&mod, text), CUDA_SUCCESS);
    EXPECT_EQ_I(d.get_function(&f, mod, "spin"), CUDA_SUCCESS);
    EXPECT_EQ_I(d.mem_alloc(&flag, 4), CUDA_SUCCESS);
    EXPECT_EQ_I(d.mem_alloc(&out, 64 * 4), CUDA_SUCCESS);
    EXPECT_EQ_I(d.memset32(flag, 0, 1), CUDA_SUCCESS);
    void *params[] = {&flag, &out};
    capture(true);
    CUresult r = d.launch(f, 2, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
    char *msg = capture(false);
    EXPECT_EQ_I(r, CUDA_SUCCESS); /* as on a GPU, the error comes with the next call */
    EXPECT_EQ_I(d.sync(), CUDA_ERROR_LAUNCH_TIMEOUT);
    EXPECT_CONTAINS(msg, "warp instructions");
    EXPECT_CONTAINS(msg, "raise the limit: -o gpu.spin_insts=N");
    free(msg);
    EXPECT_EQ_I(d.unload(mod), CUDA_SUCCESS); /* the library's own structures go with it */
    free(text);
    if (keep)
        setenv("WARPSIM_ARGS", keep, 1);
    else
        unsetenv("WARPSIM_ARGS");
    free(keep);
    dlclose(h);
}

TEST(limits_driver_launch_times_out)
{
    driver_spin("--quiet -o gpu.spin_insts=20000");
    driver_spin("--quiet --functional -o gpu.spin_insts=10000");
}

/* The defaults: both limits on, at the values docs/config.md gives; no cycle limit. */
TEST(limits_defaults_documented)
{
    Config c;
    config_init(&c);
    EXPECT_EQ_U(c.gpu.spin_insts, DEFAULT_SPIN_INSTS);
    EXPECT_EQ_U(c.gpu.stall_insts, DEFAULT_STALL_INSTS);
    EXPECT_EQ_U(c.gpu.max_cycles, 0);
    char *doc = read_file("docs/config.md", NULL);
    ASSERT(doc);
    char row[128];
    snprintf(row, sizeof row, "| `gpu.spin_insts` | %llu |", DEFAULT_SPIN_INSTS);
    EXPECT_CONTAINS(doc, row);
    snprintf(row, sizeof row, "| `gpu.stall_insts` | %llu |", DEFAULT_STALL_INSTS);
    EXPECT_CONTAINS(doc, row);
    free(doc);
}
