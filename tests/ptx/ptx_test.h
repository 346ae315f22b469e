/* ptx_test.h: helpers shared by tests/unit/test_ptx_*.c: load a checked-in .ptx from tests/ptx
 * (paths are relative to the repository root, the tests' working directory), upload inputs, pack
 * kernel parameters per the kernel's .param layout, and run a launch functionally. */
#ifndef WARPSIM_PTX_TEST_H
#define WARPSIM_PTX_TEST_H

#include "front/ptx/ptx.h"

#include <stdio.h>
#include <string.h>

static inline PtxModule *pt_load(const char *name)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "tests/ptx/%s", name);
    PtxModule *m = ptx_module_load(path, err, sizeof err);
    if (!m)
        printf("  pt_load: %s\n", err);
    return m;
}

static inline uint64_t pt_upload(PtxMemory *mem, const void *data, size_t bytes)
{
    uint64_t a = ptx_memory_alloc(mem, bytes);
    if (data)
        ptx_memory_write(mem, a, data, bytes);
    else
        ptx_memory_set(mem, a, 0, bytes);
    return a;
}

/* Launch kernel with scalar/pointer arguments args[i] (each written with the parameter's size);
 * false with the reason in err (a missing kernel, or the launch's fault). */
static inline bool pt_launch(const PtxModule *m, PtxMemory *mem, const char *kernel, const uint32_t grid[3],
                             const uint32_t block[3], uint32_t dyn_smem, const uint64_t *args, unsigned n_args,
                             PtxRunStats *stats, char *err, size_t err_len)
{
    const PtxKernelInfo *ki = ptx_module_kernel(m, kernel);
    if (!ki || ki->n_params != n_args) {
        snprintf(err, err_len, "kernel %s missing or wrong argument count", kernel);
        return false;
    }
    uint8_t buf[512] = {0};
    for (unsigned i = 0; i < n_args; i++)
        memcpy(buf + ki->param_offset[i], &args[i], ki->param_size[i] <= 8 ? ki->param_size[i] : 8);
    PtxLaunch *l = ptx_launch_create(m, kernel, grid, block, dyn_smem, buf, ki->param_bytes, mem, err, err_len);
    if (!l)
        return false;
    ptx_launch_set_inst_limit(l, 100000000);
    bool ok = ptx_run_kernel(l, stats, err, err_len);
    ptx_launch_destroy(l);
    return ok;
}

/* One CTA of `threads` threads in x; the reason for a failure in err. */
static inline bool pt_run_err(const PtxModule *m, PtxMemory *mem, const char *kernel, uint32_t threads,
                              const uint64_t *args, unsigned n_args, char *err, size_t err_len)
{
    const uint32_t grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    PtxRunStats st;
    return pt_launch(m, mem, kernel, grid, block, 0, args, n_args, &st, err, err_len);
}

/* pt_launch with the reason printed. */
static inline bool pt_run(const PtxModule *m, PtxMemory *mem, const char *kernel, uint32_t gx, uint32_t gy,
                          uint32_t gz, uint32_t bx, uint32_t by, uint32_t bz, uint32_t dyn_smem,
                          const uint64_t *args, unsigned n_args, PtxRunStats *stats)
{
    char err[512];
    const uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    bool ok = pt_launch(m, mem, kernel, grid, block, dyn_smem, args, n_args, stats, err, sizeof err);
    if (!ok)
        printf("  pt_run: %s\n", err);
    return ok;
}

/* One instruction, inst, in a kernel for target (sm_75, sm_80, ...) with registers %r0-%r11,
 * %rd0-%rd1 (%rd1 the parameter p) and %fd0-%fd3, must fail to parse at its line (bad.ptx:10)
 * with a message containing want. For test.h's EXPECT macros. */
static inline void pt_expect_parse_error(const char *target, const char *inst, const char *want)
{
    char text[1024], err[512];
    snprintf(text, sizeof text,
             ".version 8.0\n.target %s\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
             "  .reg .b32 %%r<12>;\n  .reg .b64 %%rd<2>;\n  .reg .f64 %%fd<4>;\n  ld.param.u64 %%rd1, [p];\n"
             "  %s\n  ret;\n}\n", target, inst);
    PtxModule *m = ptx_module_parse(text, "bad.ptx", err, sizeof err);
    EXPECT(!m);
    if (m) {
        ptx_module_free(m);
        return;
    }
    EXPECT_CONTAINS(err, "bad.ptx:10: ");
    EXPECT_CONTAINS(err, want);
}

static inline uint32_t pt_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t pt_d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline float pt_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

#endif
