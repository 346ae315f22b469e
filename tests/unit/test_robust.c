/* test_robust.c: reproducers of malformed and hostile input, each run the way a user meets it
 * (the driver API, the warpsim command): every one must end in a clear error naming the file,
 * the line where there is one, and what was expected; never a crash, a hang or memory without
 * bound. The readers' own tests (test_ptx_parse.c, test_synth.c, test_config.c, ...) cover
 * the details. */
#include "../test.h"

#include "base/base.h"

#include <cuda/cuda.h>
#include <stdlib.h>

/* A PTX module whose kernel is declared, then redefined with a malformed parameter list (the
 * parser freed the declaration's list twice). */
TEST(robust_cu_module_load_data_redefinition)
{
    setenv("WARPSIM_ARGS", "--quiet", 1);
    ASSERT(cuInit(0) == CUDA_SUCCESS);
    CUcontext ctx;
    ASSERT(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    static const char *const ptx = ".version 7.0\n.target sm_50\n.address_size 64\n"
                                   ".visible .entry k(.param .u64 a);\n"
                                   ".visible .entry k(.param .u64 a, junk";
    CUmodule mod = NULL;
    EXPECT(cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS);
    EXPECT(mod == NULL);
}

/* A module of 300 initialised variables of 1 MiB each (`= {0}`, a short text) passes the
 * 256 MiB a module may initialise at its 257th: CUDA_ERROR_INVALID_PTX, not the memory. */
TEST(robust_cu_module_load_data_many_initialised)
{
    setenv("WARPSIM_ARGS", "--quiet", 1);
    ASSERT(cuInit(0) == CUDA_SUCCESS);
    CUcontext ctx;
    ASSERT(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    size_t cap = 300 * 48 + 128, len = 0;
    char *ptx = xmalloc(cap);
    len += (size_t)snprintf(ptx, cap, ".version 7.0\n.target sm_50\n.address_size 64\n");
    for (int i = 0; i < 300; i++)
        len += (size_t)snprintf(ptx + len, cap - len, ".global .b8 v%d[1048576] = {0};\n", i);
    CUmodule mod = NULL;
    EXPECT_EQ_I(cuModuleLoadData(&mod, ptx), CUDA_ERROR_INVALID_PTX);
    EXPECT(mod == NULL);
    free(ptx);
}

/* A file of the test's scratch directory holding text; returns its path in buf. */
static const char *scratch_file(const char *name, const char *text, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", test_tmpdir(), name);
    FILE *f = fopen(buf, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return buf;
}

/* `warpsim ARGS` must exit 1 (not crash) and say want. */
static void expect_cli_error(const char *args, const char *want)
{
    char cmd[2048], out[8192];
    snprintf(cmd, sizeof cmd, "%s %s", test_warpsim(), args);
    int rc = test_run_cmd(cmd, out, sizeof out);
    EXPECT_EQ_I(rc, 1);
    EXPECT_CONTAINS(out, want);
}

/* 60,000 nested '-' in a synthetic stream's address expression overflowed the stack. */
TEST(robust_synth_deep_expression)
{
    enum { DEEP = 60000 };
    const char *head = "kernel k\ngrid 1\nblock 32\narray A 0 4\nload A[";
    char *text = xmalloc(strlen(head) + DEEP + 16), path[512], args[600];
    strcpy(text, head);
    memset(text + strlen(head), '-', DEEP);
    strcpy(text + strlen(head) + DEEP, "tid]\n");
    snprintf(args, sizeof args, "run %s", scratch_file("deep.syn", text, path, sizeof path));
    expect_cli_error(args, "deep.syn:5: expected an expression nested at most 64 deep");
    free(text);
}

/* Files that are not what the command expects: an endless device is refused at the size limit
 * (it used to be read until memory ran out), a directory says so (it said "Input/output
 * error"). */
TEST(robust_cli_unreadable_inputs)
{
    char cfg[512], spec[512], args[1200];
    scratch_file("zero.cfg", "# machine\ninclude /dev/zero\n", cfg, sizeof cfg);
    snprintf(args, sizeof args, "run --config %s workloads/synthetic/atax1.syn", cfg);
    expect_cli_error(args, "zero.cfg:2: include /dev/zero: cannot read config file: larger than the 64 MiB limit on input files");
    scratch_file("dir.cfg", "include /\n", cfg, sizeof cfg);
    snprintf(args, sizeof args, "run --config %s workloads/synthetic/atax1.syn", cfg);
    expect_cli_error(args, "dir.cfg:1: include /: cannot read config file: Is a directory");
    expect_cli_error("run --gpgpusim-config /dev/zero workloads/synthetic/atax1.syn",
                     "/dev/zero: cannot read GPGPU-Sim config file: larger than the 64 MiB limit");
    expect_cli_error("run /dev/zero", "/dev/zero: cannot read the synthetic workload: larger than the 64 MiB limit");
    scratch_file("zero.spec", "suite /dev/zero\n", spec, sizeof spec);
    snprintf(args, sizeof args, "sweep %s", spec);
    expect_cli_error(args, "zero.spec:1: suite '/dev/zero': cannot read /dev/zero: larger than the 64 MiB limit");
    snprintf(args, sizeof args, "sweep %s", test_tmpdir());
    expect_cli_error(args, ": cannot read: Is a directory");
}

/* Cache geometries inside the options' ranges whose arrays do not fit in memory are refused
 * before anything is allocated (they aborted with "out of memory"). */
TEST(robust_cli_huge_caches)
{
    expect_cli_error("run -o l1d.n_sets=1048576 -o l1d.assoc=64 -o l1d.line_bytes=4096 -o l2.line_bytes=4096 "
                     "workloads/synthetic/atax1.syn",
                     "warpsim: l1d.n_sets x l1d.assoc: 1048576 x 64 = 67108864 lines, more than the 16777216 (2^24)");
    expect_cli_error("run -o l2.n_sets=1048576 -o l2.assoc=64 workloads/synthetic/atax1.syn",
                     "warpsim: l2.n_sets x l2.assoc: 1048576 x 64 = 67108864 lines");
    expect_cli_error("run -o l1d.n_sets=262144 -o l1d.assoc=64 workloads/synthetic/atax1.syn",
                     "warpsim: the caches would take 15360 MiB of simulator memory, more than the 2048 MiB bound");
}
