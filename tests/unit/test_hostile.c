/* test_hostile.c: CUDA programs that misbehave, and what warpsim must answer, as a GPU does.
 *
 * End to end: the programs of tests/hostile/ (nvcc 13, -cudart shared; prebuilt in
 * tests/hostile/bin, rebuilt into a scratch folder when nvcc is installed) run under `warpsim
 * exec`, functionally and on the timing model, and must give the same exact messages and exit
 * status in both: a wild store, a null read, a misaligned load, shared memory out of range (the
 * memory-fault model: cudaErrorIllegalAddress / cudaErrorMisalignedAddress, sticky), trap
 * (cudaErrorLaunchFailure), a failed assert (its message, cudaErrorAssert), the exit status of
 * a program that handles its fault (its own) and of one never told of it (5), device printf (the
 * whole output, in its deterministic order) and four host threads sharing the device. In
 * process, what the programs do not reach: the host-memory limit, host copies outside every
 * allocation, the fault in the stats and result files, a fault while other warps wait at a
 * barrier, the largest legal grid, and the hint a statically linked runtime gets. */
#include "../test.h"

#include "../cuda_exec.h"
#include "../ptx/ptx_test.h"

#include "base/base.h"
#include "warpsim.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- the programs of tests/hostile ---- */

#define HOSTILE_LINES 5

static const struct {
    const char *prog;
    int status;
    const char *lines[HOSTILE_LINES]; /* each must be a whole line of the output */
} hostile[] = {
    {"wild", 5,
     {"warpsim: fatbin1.compute_75.ptx:36: kernel _Z7scatterPim: illegal address: 4-byte store at global address "
      "0x100400000 by block (0,0,0) thread (1,0,0): inside no allocation or variable: 4190304 bytes after the end of "
      "the allocation at 0x100000000 (4000 bytes)",
      "synchronize: cudaErrorIllegalAddress", "a later cudaMalloc: cudaErrorIllegalAddress",
      "CUDA error: an illegal memory access was encountered (cudaErrorIllegalAddress) at hostile.h:17: e"}},
    {"nullread", 5,
     {"warpsim: fatbin1.compute_75.ptx:36: kernel _Z6gatherPKPKiPi: illegal address: 4-byte load at global address "
      "0x0 by block (1,0,0) thread (37,0,0): a null pointer",
      "synchronize: cudaErrorIllegalAddress", "a later cudaMalloc: cudaErrorIllegalAddress",
      "CUDA error: an illegal memory access was encountered (cudaErrorIllegalAddress) at hostile.h:17: e"}},
    {"misaligned", 5,
     {"warpsim: fatbin1.compute_75.ptx:36: kernel _Z4loadPKcPi: misaligned address: 4-byte load at global address "
      "0x100000016 by block (0,0,0) thread (5,0,0): not a multiple of 4",
      "synchronize: cudaErrorMisalignedAddress", "a later cudaMalloc: cudaErrorMisalignedAddress",
      "CUDA error: misaligned address (cudaErrorMisalignedAddress) at hostile.h:17: e"}},
    {"smem", 5,
     {"warpsim: fatbin1.compute_75.ptx:47: kernel _Z5stagePKiPii: illegal address: 4-byte load at shared offset "
      "0x400000 by block (0,0,0) thread (100,0,0): outside the 512 bytes of the block's shared memory",
      "synchronize: cudaErrorIllegalAddress", "a later cudaMalloc: cudaErrorIllegalAddress",
      "CUDA error: an illegal memory access was encountered (cudaErrorIllegalAddress) at hostile.h:17: e"}},
    {"trap", 5,
     {"warpsim: fatbin1.compute_75.ptx:35: kernel _Z10maybe_trapPii: trap executed by block (2,0,0) thread (3,0,0)",
      "synchronize: cudaErrorLaunchFailure", "a later cudaMalloc: cudaErrorLaunchFailure",
      "CUDA error: unspecified launch failure (cudaErrorLaunchFailure) at hostile.h:17: e"}},
    {"assert", 5,
     {"assert.cu:12: void check_positive(const int *, int): block: [1,0,0], thread: [13,0,0] Assertion `x[i] >= 0` "
      "failed.",
      "warpsim: fatbin1.compute_75.ptx:71: kernel _Z14check_positivePKii: device-side assert triggered by block "
      "(1,0,0) thread (13,0,0): assert.cu:12: Assertion `x[i] >= 0` failed",
      "synchronize: cudaErrorAssert", "a later cudaMalloc: cudaErrorAssert",
      "CUDA error: device-side assert triggered (cudaErrorAssert) at hostile.h:17: e"}},
    {"recovered", 0, {"recovered: synchronize: cudaErrorAssert"}},
    {"unheard", 5,
     {"unheard: exits without synchronizing",
      "warpsim: fatbin1.compute_75.ptx:21: kernel _Z11always_trapv: trap executed by block (0,0,0) thread (0,0,0)"}},
    {"threads", 0,
     {"threads: 4 threads x 10 launches, 0 mismatches, refused launch seen by its thread: yes",
      "warpsim: kernel launch: _Z3addPiii: a block of 4096x1x1 threads exceeds the device's 1024 threads per block "
      "(cudaErrorInvalidValue)"}},
};

/* line is one whole line of text. */
static bool has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = strstr(text, line); p; p = strstr(p + 1, line))
        if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == 0))
            return true;
    return false;
}

static void expect_line(const char *prog, const char *mode, const char *out, const char *line)
{
    if (has_line(out, line))
        return;
    char msg[1400];
    snprintf(msg, sizeof msg, "%s [%s]: no line \"%.500s\" in:\n%.700s", prog, mode, line, out);
    test_fail(__FILE__, __LINE__, msg);
}

/* Remove every occurrence of what from text. */
static void strip_all(char *text, const char *what)
{
    size_t n = strlen(what);
    for (char *p = strstr(text, what); p; p = strstr(p, what))
        memmove(p, p + n, strlen(p + n) + 1);
}

/* Every program of the table in dir, with the simulator arguments given, its results written
 * into a folder of its own: a fault's message cites the PTX's lines, and the PTX must then be
 * there, beside the results. The folder's name is taken out of the output before it is
 * compared with the table. */
static void run_hostile(const char *dir, const char *mode)
{
    static char out[1 << 16];
    for (size_t i = 0; i < ARRAY_LEN(hostile); i++) {
        char res[600], args[1400], cmd[1300], ptx[700];
        snprintf(res, sizeof res, "%s/hostile-%s%s", test_tmpdir(), hostile[i].prog,
                 strstr(mode, "functional") ? "-f" : "");
        snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", res, res);
        ASSERT(test_run_cmd(cmd, out, sizeof out) == 0);
        snprintf(args, sizeof args, "%s --json %s/results.json", mode, res);
        int rc = run_prog(dir, hostile[i].prog, args, out, sizeof out);
        bool cites = strstr(out, "fatbin1.compute_75.ptx:") != NULL;
        snprintf(ptx, sizeof ptx, "%s/fatbin1.compute_75.ptx", res);
        EXPECT(access(ptx, R_OK) == 0 || !cites);
        if (cites)
            EXPECT_CONTAINS(out, "warpsim: the PTX those lines are in: ");
        strcat(res, "/");
        strip_all(out, res);
        if (rc != hostile[i].status) {
            char msg[1200];
            snprintf(msg, sizeof msg, "%s [%s]: exit status %d, expected %d:\n%.800s", hostile[i].prog, mode, rc,
                     hostile[i].status, out);
            test_fail(__FILE__, __LINE__, msg);
        }
        for (int k = 0; k < HOSTILE_LINES && hostile[i].lines[k]; k++)
            expect_line(hostile[i].prog, mode, out, hostile[i].lines[k]);
        EXPECT(!strstr(out, "not reached"));
        EXPECT(!strstr(out, "internal error"));
    }
}

TEST(hostile_programs_functional)
{
    if (have_library())
        run_hostile("tests/hostile/bin", "--functional --quiet");
}

TEST(hostile_programs_timing)
{
    if (have_library())
        run_hostile("tests/hostile/bin", "--quiet");
}

/* Device printf: the whole output, the same on the timing model (whose warps interleave) as
 * functionally, and between the host's own lines. */
TEST(hostile_printf_output)
{
    if (!have_library())
        return;
    static char out[1 << 16];
    char *want = read_file("tests/hostile/printf.expected", NULL);
    ASSERT(want);
    const char *modes[] = {"--functional --quiet", "--quiet"};
    for (int m = 0; m < 2; m++) {
        EXPECT_EQ_I(run_prog("tests/hostile/bin", "printf", modes[m], out, sizeof out), 0);
        EXPECT_STR(out, want);
    }
    EXPECT_CONTAINS(want, "before the kernel\nblock 0 thread   0: hello world|ab    |  0.00|+0|00000|0|0|0|A|0%\n");
    EXPECT_CONTAINS(want, "block 2 thread  67: hello world|ab    |388.50|+259|00259|101fd|101FD|403|Z|3905886720%\n"
                          "  284773511593984 103000000000 -25900000 -3144 253 3.885000e+02 5.000e-01 1.5e+10 "
                          "1.5E-10 0x1p+0 2     1.5000|-1.5      |\nafter the kernel\n");
    free(want);
}

/* The programs as nvcc builds them today, and a program linked with nvcc's default static
 * runtime, which must get the hint to rebuild it, when nvcc is installed. */
TEST(hostile_programs_rebuilt_with_nvcc)
{
    if (!have_library())
        return;
    static char out[1 << 16];
    if (test_run_cmd("command -v nvcc || test -x /usr/local/cuda/bin/nvcc", out, sizeof out) != 0) {
        printf("note: hostile_programs_rebuilt_with_nvcc: no nvcc, only the prebuilt programs were run\n");
        return;
    }
    char dir[512], cmd[1400];
    snprintf(dir, sizeof dir, "%s/nvcc", test_tmpdir());
    snprintf(cmd, sizeof cmd, "sh tests/hostile/build.sh %s && nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
             " && cd tests/cudart && $nvcc -O2 -o %s/static_rt vecadd.cu", dir, dir);
    int rc = test_run_cmd(cmd, out, sizeof out);
    EXPECT_EQ_I(rc, 0);
    if (rc != 0) {
        printf("%s\n", out);
        return;
    }
    static const struct {
        const char *prog, *error;
    } errors[] = {
        {"wild", "(cudaErrorIllegalAddress)"}, {"nullread", "(cudaErrorIllegalAddress)"},
        {"misaligned", "(cudaErrorMisalignedAddress)"}, {"smem", "(cudaErrorIllegalAddress)"},
        {"trap", "(cudaErrorLaunchFailure)"}, {"assert", "(cudaErrorAssert)"},
    };
    for (size_t i = 0; i < ARRAY_LEN(errors); i++) {
        EXPECT_EQ_I(run_prog(dir, errors[i].prog, "--functional --quiet", out, sizeof out), 5);
        EXPECT_CONTAINS(out, errors[i].error);
    }
    EXPECT_EQ_I(run_prog(dir, "threads", "--functional --quiet", out, sizeof out), 0);
    EXPECT_EQ_I(run_prog(dir, "static_rt", "--functional --quiet", out, sizeof out), 1);
    EXPECT_CONTAINS(out, "warpsim: cuGetProcAddress: not provided; the program is probably linked with the static "
                         "CUDA runtime (nvcc's default), which warpsim cannot serve: rebuild it with nvcc -cudart shared\n");
}

/* ---- in process ---- */

/* The static runtime enters the driver through cuGetProcAddress: one line of hint, once. */
TEST(hostile_static_runtime_hint)
{
    int (*get_proc)(const char *, void **, int, unsigned long long, int *);
    void *fn = &fn, *sym = NULL;
    int status = 0;
    if (!have_library())
        return;
    void *h = lib_open("libcuda.so.1", "cuGetProcAddress_v2", NULL, &sym);
    ASSERT(h && sym);
    memcpy(&get_proc, &sym, sizeof sym);
    capture_begin();
    int r1 = get_proc("cuInit", &fn, 13000, 0, &status), r2 = get_proc("cuMemAlloc", &fn, 13000, 0, &status);
    char *msg = capture_end();
    EXPECT_EQ_I(r1, 801); /* CUDA_ERROR_NOT_SUPPORTED */
    EXPECT_EQ_I(r2, 801);
    EXPECT(fn == NULL);
    EXPECT_STR(msg, "warpsim: cuGetProcAddress: not provided; the program is probably linked with the static CUDA "
                    "runtime (nvcc's default), which warpsim cannot serve: rebuild it with nvcc -cudart shared\n");
    free(msg);
    dlclose(h);
}

/* A kernel whose thread `bad` stores far past the one allocation it is given, then waits at a
 * barrier with the rest of its block; and one that writes one word per 4 KiB page. */
static const char fault_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry poke(.param .u64 p, .param .u32 bad)\n{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [bad];\n  mov.u32 %r2, %tid.x;\n"
    "  setp.ne.u32 %p1, %r2, %r1;\n  @%p1 bra $L1;\n"
    "  st.global.u32 [%rd1+65536], %r2;\n"
    "$L1:\n  bar.sync 0;\n  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r2;\n  ret;\n}\n"
    ".visible .entry pages(.param .u64 p)\n{\n"
    "  .reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %tid.x;\n  mad.lo.u32 %r1, %r1, 128, %r2;\n"
    "  mul.wide.u32 %rd2, %r1, 4096;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r1;\n  ret;\n}\n";

static WarpsimSim *sim_with(bool timing, const char *extra_o, const char *json)
{
    const char *argv[8] = {"--quiet"};
    int argc = 1;
    if (!timing)
        argv[argc++] = "--functional";
    if (extra_o) {
        argv[argc++] = "-o";
        argv[argc++] = extra_o;
    }
    if (json) {
        argv[argc++] = "--json";
        argv[argc++] = json;
    }
    char err[512];
    WarpsimSim *s = warpsim_create(argc, argv, err, sizeof err);
    if (!s)
        printf("  warpsim_create: %s\n", err);
    return s;
}

/* On the timing model the faulting warp's block mates wait at bar.sync: the launch must still
 * end with the fault (no deadlock, no internal error), be counted in the stats and named in the
 * kernel's block of the result file; the simulator goes on. */
TEST(hostile_fault_in_stats_and_results)
{
    for (int timing = 0; timing < 2; timing++) {
        char json[512];
        snprintf(json, sizeof json, "%s/faults%d.json", test_tmpdir(), timing);
        WarpsimSim *s = sim_with(timing, NULL, json);
        ASSERT(s);
        WarpsimModule *m;
        ASSERT(warpsim_module_load(s, fault_ptx, "fault.ptx", &m) == WARPSIM_OK);
        uint64_t d = warpsim_malloc(s, 512 * 4);
        struct {
            uint64_t p;
            uint32_t bad;
        } params = {d, 70};
        const uint32_t grid[3] = {2, 1, 1}, block[3] = {128, 1, 1};
        capture_begin();
        WarpsimStatus st = warpsim_launch(s, m, "poke", grid, block, 0, &params, 12);
        char *msg = capture_end();
        EXPECT_EQ_I(st, WARPSIM_E_ILLEGAL_ADDRESS);
        EXPECT_STR(msg, "warpsim: fault.ptx:12: kernel poke: illegal address: 4-byte store at global address "
                        "0x100010000 by block (0,0,0) thread (70,0,0): inside no allocation or variable: 63488 "
                        "bytes after the end of the allocation at 0x100000000 (2048 bytes)\n");
        free(msg);
        params.bad = 1000; /* nobody: the same kernel runs to its end */
        EXPECT_EQ_I(warpsim_launch(s, m, "poke", grid, block, 0, &params, 12), WARPSIM_OK);
        uint32_t got[256];
        EXPECT_EQ_I(warpsim_memcpy_dtoh(s, got, d, sizeof got), WARPSIM_OK);
        EXPECT_EQ_U(got[127], 127);
        warpsim_destroy(s);
        char *text = read_file(json, NULL);
        ASSERT(text);
        EXPECT_CONTAINS(text, "\"name\": \"poke [fault: illegal address at fault.ptx:12]\"");
        EXPECT_CONTAINS(text, "\"name\": \"poke\"");
        EXPECT_CONTAINS(text, "\"sim.faults\": 1");
        free(text);
    }
}

/* gpu.max_host_mb bounds the pages the simulated memory takes: a copy or a kernel that needs
 * more fails, saying so, and the program goes on. */
TEST(hostile_host_memory_limit)
{
    for (int timing = 0; timing < 2; timing++) {
        WarpsimSim *s = sim_with(timing, "gpu.max_host_mb=1", NULL);
        ASSERT(s);
        WarpsimModule *m;
        ASSERT(warpsim_module_load(s, fault_ptx, "fault.ptx", &m) == WARPSIM_OK);
        uint64_t big = warpsim_malloc(s, 8 << 20), small = warpsim_malloc(s, 64);
        static uint8_t buf[2 << 20];
        capture_begin();
        WarpsimStatus st = warpsim_memcpy_htod(s, big, buf, sizeof buf);
        char *msg = capture_end();
        EXPECT_EQ_I(st, WARPSIM_E_MEMORY);
        EXPECT_STR(msg, "warpsim: copy to the device of 2097152 bytes: the simulated device memory would take more "
                        "than gpu.max_host_mb = 1 MiB of host memory\n");
        free(msg);
        const uint32_t grid[3] = {16, 1, 1}, block[3] = {128, 1, 1}; /* 2048 pages */
        capture_begin();
        st = warpsim_launch(s, m, "pages", grid, block, 0, &big, 8);
        msg = capture_end();
        EXPECT_EQ_I(st, WARPSIM_E_MEMORY);
        EXPECT_CONTAINS(msg, "warpsim: fault.ptx:29: kernel pages: a store at 0x1");
        EXPECT_CONTAINS(msg, " needs more host memory than the simulation's limit of 1 MiB (gpu.max_host_mb)\n");
        free(msg);
        uint32_t v = 7;
        EXPECT_EQ_I(warpsim_memcpy_htod(s, big, &v, 4), WARPSIM_OK); /* its page is there already */
        capture_begin();
        EXPECT_EQ_I(warpsim_memcpy_htod(s, small, &v, 4), WARPSIM_E_MEMORY); /* a new page */
        free(capture_end());
        warpsim_destroy(s);
    }
}

/* A module whose initialised variables do not fit gpu.max_host_mb is not placed: the launch and
 * the variable's lookup that needed it fail with WARPSIM_E_MEMORY and say why (its variables
 * were left partly zero, silently), and a smaller module still runs. */
TEST(hostile_host_memory_limit_module_variables)
{
    static const char *const big_ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
                                       ".global .align 4 .b32 table[524288] = {7};\n"
                                       ".visible .entry k()\n{\n  ret;\n}\n";
    for (int timing = 0; timing < 2; timing++) {
        WarpsimSim *s = sim_with(timing, "gpu.max_host_mb=1", NULL);
        ASSERT(s);
        WarpsimModule *big, *small;
        ASSERT(warpsim_module_load(s, big_ptx, "big.ptx", &big) == WARPSIM_OK); /* 2 MiB of values */
        const uint32_t one[3] = {1, 1, 1};
        capture_begin();
        WarpsimStatus st = warpsim_launch(s, big, "k", one, one, 0, NULL, 0);
        uint64_t addr = 0;
        WarpsimStatus st2 = warpsim_symbol(s, big, "table", &addr, NULL);
        char *msg = capture_end();
        EXPECT_EQ_I(st, WARPSIM_E_MEMORY);
        EXPECT_EQ_I(st2, WARPSIM_E_MEMORY);
        EXPECT_EQ_U(addr, 0);
        EXPECT_STR(msg, "warpsim: launch of k: the module's initialised variables would take the simulated device "
                        "memory past gpu.max_host_mb = 1 MiB of host memory\n"
                        "warpsim: variable table: the module's initialised variables would take the simulated "
                        "device memory past gpu.max_host_mb = 1 MiB of host memory\n");
        free(msg);
        ASSERT(warpsim_module_load(s, fault_ptx, "fault.ptx", &small) == WARPSIM_OK);
        uint64_t d = warpsim_malloc(s, 512 * 4);
        struct {
            uint64_t p;
            uint32_t bad;
        } params = {d, 1000};
        const uint32_t grid[3] = {2, 1, 1}, block[3] = {128, 1, 1};
        EXPECT_EQ_I(warpsim_launch(s, small, "poke", grid, block, 0, &params, 12), WARPSIM_OK);
        warpsim_destroy(s);
    }
}

/* Host copies must stay inside one allocation or variable: no page appears for a wild one. */
TEST(hostile_copies_outside_allocations)
{
    WarpsimSim *s = sim_with(false, NULL, NULL);
    ASSERT(s);
    uint64_t a = warpsim_malloc(s, 100), b = warpsim_malloc(s, 100);
    uint8_t buf[64] = {0};
    capture_begin();
    EXPECT_EQ_I(warpsim_memcpy_htod(s, a + 96, buf, 8), WARPSIM_E_INPUT);
    EXPECT_EQ_I(warpsim_memcpy_dtoh(s, buf, 0x7f0000000000ull, 8), WARPSIM_E_INPUT);
    EXPECT_EQ_I(warpsim_memset(s, b + 200, 0, 8), WARPSIM_E_INPUT);
    EXPECT_EQ_I(warpsim_memcpy_dtod(s, b, a + 64, 64), WARPSIM_E_INPUT);
    char *msg = capture_end();
    EXPECT_CONTAINS(msg, "warpsim: copy to the device of 8 bytes at 0x100000060: its last 4 bytes lie past the "
                         "end of the allocation at 0x100000000 (100 bytes)\n");
    EXPECT_CONTAINS(msg, "warpsim: copy from the device of 8 bytes at 0x7f0000000000: inside no allocation or "
                         "variable: 139633681759900 bytes after the end of the allocation at 0x100000100 (100 bytes)\n");
    EXPECT_CONTAINS(msg, "warpsim: memset of 8 bytes at 0x1000001c8: inside no allocation or variable: 100 bytes "
                         "after the end of the allocation at 0x100000100 (100 bytes)\n");
    EXPECT_CONTAINS(msg, "warpsim: device copy from of 64 bytes at 0x100000040");
    free(msg);
    WarpsimRange r = {0};
    EXPECT_EQ_I(warpsim_mem_find(s, b + 99, 1, &r), 1);
    EXPECT_EQ_U(r.addr, b);
    EXPECT_EQ_U(r.size, 100);
    EXPECT_EQ_I(r.is_variable, 0);
    EXPECT_EQ_I(warpsim_mem_find(s, b + 99, 2, NULL), 0);
    EXPECT_EQ_U(warpsim_mem_allocated(s), 200);
    warpsim_free_all(s);
    EXPECT_EQ_U(warpsim_mem_allocated(s), 0);
    EXPECT_EQ_I(warpsim_mem_find(s, a, 1, NULL), 0);
    warpsim_destroy(s);
}

/* The largest legal grid, 2^31-1 x 65535 x 65535 blocks (about 2^63), is accepted: the
 * interpreter numbers blocks in 64 bits (a run that long stops at its limits: here the
 * instruction limit); the timing model, which numbers them in 32 bits, refuses a grid of more
 * than 2^32-1 blocks with a message, and goes on. */
TEST(hostile_largest_grid)
{
    static const char text[] =
        ".version 7.5\n.target sm_75\n.address_size 64\n"
        ".visible .entry dims(.param .u64 out)\n{\n  .reg .b32 %r<7>; .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %nctaid.x;\n  mov.u32 %r2, %nctaid.y;\n"
        "  mov.u32 %r3, %nctaid.z;\n  mov.u32 %r4, %ctaid.x;\n  mov.u32 %r5, %ctaid.y;\n  mov.u32 %r6, %ctaid.z;\n"
        "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n  st.global.v2.u32 [%rd1+16], {%r5, %r6};\n  ret;\n}\n";
    const uint32_t grid[3] = {0x7fffffffu, 65535, 65535}, block[3] = {1, 1, 1};
    PtxMemory *mem = ptx_memory_create();
    uint64_t out = ptx_memory_alloc(mem, 32);
    char err[512];
    PtxModule *m = ptx_module_parse(text, "dims.ptx", err, sizeof err);
    ASSERT(m);
    PtxLaunch *l = ptx_launch_create(m, "dims", grid, block, 0, &out, 8, mem, err, sizeof err);
    ASSERT(l);
    ptx_launch_set_inst_limit(l, 1000);
    EXPECT(!ptx_run_kernel(l, NULL, err, sizeof err));
    EXPECT_CONTAINS(err, "instruction limit reached");
    EXPECT_EQ_U(ptx_launch_stats(l).ctas, 101); /* 10 instructions each: the 101st stops */
    uint32_t got[6];
    ptx_memory_read(mem, out, got, sizeof got);
    EXPECT(got[0] == 0x7fffffffu && got[1] == 65535 && got[2] == 65535);
    EXPECT(got[3] == 99 && got[4] == 0 && got[5] == 0); /* the last CTA that stored */
    ptx_launch_destroy(l);
    ptx_memory_destroy(mem);
    ptx_module_free(m);

    WarpsimSim *s = sim_with(true, NULL, NULL);
    ASSERT(s);
    WarpsimModule *wm;
    ASSERT(warpsim_module_load(s, text, "dims.ptx", &wm) == WARPSIM_OK);
    uint64_t d = warpsim_malloc(s, 32);
    capture_begin();
    WarpsimStatus st = warpsim_launch(s, wm, "dims", grid, block, 0, &d, 8);
    char *msg = capture_end();
    EXPECT_EQ_I(st, WARPSIM_E_UNSUPPORTED);
    EXPECT_STR(msg, "warpsim: launch of dims: a grid of 9223090559730712575 blocks: the timing model numbers "
                    "blocks in 32 bits (at most 4294967295 per launch); --functional runs it\n");
    free(msg);
    const uint32_t g2[3] = {2, 3, 4};
    EXPECT_EQ_I(warpsim_launch(s, wm, "dims", g2, block, 0, &d, 8), WARPSIM_OK);
    warpsim_destroy(s);
}
