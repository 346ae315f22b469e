/* test_ptx_coop.c: grid-wide synchronisation in the PTX interpreter: %envreg1:%envreg2 carry a
 * cooperative launch's grid workspace (ptx_launch_set_grid_workspace), and ptx_run_kernel runs
 * co-resident CTAs taking turns (ptx_launch_set_coresident), so that the grid barrier nvcc
 * emits for cooperative groups' grid.sync() (an atomic arrival count, then a spin on it) lets
 * every CTA through. One CTA at a time, the first spins until a run limit stops it; without a
 * workspace, the kernel traps, as on a GPU. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"
#include "front/ptx/ptx_mem.h"

#include <stdlib.h>

/* a[i] = i; grid barrier; out[i] = a[n - 1 - i]: the shape of nvcc 13's grid.sync() */
static const char gsync_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry gsync(.param .u64 p_a, .param .u64 p_out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [p_a];\n  ld.param.u64 %rd2, [p_out];\n"
    "  mov.u32 %r1, %envreg2;\n  cvt.u64.u32 %rd3, %r1;\n"
    "  mov.u32 %r2, %envreg1;\n  cvt.u64.u32 %rd4, %r2;\n"
    "  bfi.b64 %rd5, %rd4, %rd3, 32, 32;\n"
    "  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r6, %r3, %r4, %r5;\n"
    "  mul.wide.s32 %rd6, %r6, 4;\n  add.s64 %rd7, %rd1, %rd6;\n  st.global.u32 [%rd7], %r6;\n"
    "  setp.ne.s64 %p1, %rd5, 0;\n  @%p1 bra L_ok;\n  trap;\n"
    "L_ok:\n  barrier.sync 0;\n"
    "  setp.ne.s32 %p2, %r5, 0;\n  @%p2 bra L_after;\n"
    "  add.s64 %rd8, %rd5, 4;\n  mov.u32 %r7, %nctaid.x;\n  setp.eq.s32 %p3, %r3, 0;\n"
    "  mov.u32 %r8, -2147483647;\n  sub.s32 %r9, %r8, %r7;\n  selp.b32 %r10, %r9, 1, %p3;\n"
    "  atom.add.release.gpu.u32 %r11, [%rd8], %r10;\n"
    "L_spin:\n  ld.acquire.gpu.u32 %r12, [%rd8];\n  xor.b32 %r13, %r12, %r11;\n"
    "  setp.gt.s32 %p3, %r13, -1;\n  @%p3 bra L_spin;\n"
    "L_after:\n  barrier.sync 0;\n"
    "  mov.u32 %r14, %nctaid.x;\n  mul.lo.s32 %r15, %r14, %r4;\n  sub.s32 %r16, %r15, %r6;\n"
    "  sub.s32 %r16, %r16, 1;\n  mul.wide.s32 %rd9, %r16, 4;\n  add.s64 %rd10, %rd1, %rd9;\n"
    "  ld.global.u32 %r17, [%rd10];\n  add.s64 %rd11, %rd2, %rd6;\n  st.global.u32 [%rd11], %r17;\n"
    "  ret;\n}\n";

enum { CTAS = 4, THREADS = 64, N = CTAS * THREADS };

/* Run gsync over fresh arrays: workspace (0: none), CTAs at once; the run's result and *out. */
static bool run_gsync(const PtxModule *m, bool workspace, uint64_t coresident, uint32_t *out, PtxStop *stop,
                      PtxFault *fault)
{
    PtxMemory *mem = ptx_memory_create();
    uint64_t a = ptx_memory_alloc(mem, N * 4), o = ptx_memory_alloc(mem, N * 4), ws = ptx_memory_alloc(mem, 8);
    uint64_t params[2] = {a, o};
    uint32_t grid[3] = {CTAS, 1, 1}, block[3] = {THREADS, 1, 1};
    char err[640];
    PtxLaunch *l = ptx_launch_create(m, "gsync", grid, block, 0, params, sizeof params, mem, err, sizeof err);
    if (!l) {
        printf("  %s\n", err);
        ptx_memory_destroy(mem);
        return false;
    }
    if (workspace)
        ptx_launch_set_grid_workspace(l, ws);
    ptx_launch_set_coresident(l, coresident);
    ptx_launch_set_limits(l, 200000, 0);
    bool ok = ptx_run_kernel(l, NULL, err, sizeof err);
    *stop = ptx_launch_stop(l);
    *fault = ptx_launch_fault_kind(l);
    ptx_memory_read(mem, o, out, N * 4);
    ptx_launch_destroy(l);
    ptx_memory_destroy(mem);
    return ok;
}

TEST(ptx_coop_grid_sync)
{
    char err[256];
    PtxModule *m = ptx_module_parse(gsync_ptx, "gsync.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    EXPECT(m->envreg[1] != PTX_NO_REG && m->envreg[2] != PTX_NO_REG && m->envreg[1] != m->envreg[2]);
    EXPECT(m->envreg[0] == PTX_NO_REG && m->envreg[3] == PTX_NO_REG);
    static uint32_t out[N];
    PtxStop stop;
    PtxFault fault;
    /* co-resident, with a workspace: every CTA reads what the others wrote before the barrier */
    EXPECT(run_gsync(m, true, CTAS, out, &stop, &fault));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += out[i] != (uint32_t)(N - 1 - i);
    EXPECT_EQ_I(wrong, 0);
    /* one CTA at a time: the first waits for the others forever, and a run limit stops it */
    EXPECT(!run_gsync(m, true, 1, out, &stop, &fault));
    EXPECT_EQ_I(stop, PTX_STOP_SPIN);
    /* not a cooperative launch: the barrier traps */
    EXPECT(!run_gsync(m, false, CTAS, out, &stop, &fault));
    EXPECT_EQ_I(stop, PTX_STOP_NONE);
    EXPECT_EQ_I(fault, PTX_FAULT_FAILURE);
    ptx_module_free(m);
}

/* A module that does not read %envreg keeps its register numbering. */
TEST(ptx_coop_envreg_takes_no_register_unless_read)
{
    char err[256];
    const char *plain = ".version 9.0\n.target sm_75\n.address_size 64\n"
                        ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<3>;\n  mov.u32 %r1, %tid.x;\n"
                        "  ret;\n}\n";
    PtxModule *m = ptx_module_parse(plain, "plain.ptx", err, sizeof err);
    ASSERT(m);
    for (int i = 0; i < PTX_N_ENVREGS; i++)
        EXPECT(m->envreg[i] == PTX_NO_REG);
    uint32_t regs = m->n_regs;
    ptx_module_free(m);
    const char *reads = ".version 9.0\n.target sm_75\n.address_size 64\n"
                        ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<3>;\n  mov.u32 %r1, %envreg31;\n"
                        "  mov.u32 %r2, %envreg31;\n  ret;\n}\n";
    m = ptx_module_parse(reads, "reads.ptx", err, sizeof err);
    ASSERT(m);
    EXPECT_EQ_U(m->n_regs, regs + 1); /* one register, however often it is read */
    ptx_module_free(m);
    m = ptx_module_parse(".version 9.0\n.target sm_75\n.address_size 64\n"
                         ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, %envreg32;\n  ret;\n}\n",
                         "bad.ptx", err, sizeof err);
    EXPECT(!m);
    ptx_module_free(m);
}
