/* test_ptx_fast_run.c: the functional driver's run of a warp (ptx_fast_run). The run must leave
 * what the step leaves, one instruction at a time: the same registers and memory, warp and
 * thread instruction counts and %clock, through guards, uniform and divergent branches and
 * partial warps; the reference is the same launch driven by ptx_front_ops, which steps every
 * instruction. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"
#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_fast.h"

#include <string.h>

static const char run_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry runk(.param .u64 p_out, .param .u32 p_n)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<8>;\n"
    "  .shared .align 16 .b8 sr[256];\n"
    "  mov.u32 %r20, %clock;\n"
    "  ld.param.u64 %rd1, [p_out];\n  ld.param.u32 %r2, [p_n];\n  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r3, %r1, 31;\n  mov.u32 %r4, sr;\n  shl.b32 %r5, %r1, 2;\n  add.s32 %r6, %r4, %r5;\n"
    "  mul.lo.u32 %r7, %r1, -1640531535;\n  st.shared.u32 [%r6], %r7;\n"
    "  shr.u32 %r13, %r1, 5;\n  shl.b32 %r13, %r13, 7;\n  add.s32 %r13, %r4, %r13;\n"
    "  mov.u32 %r8, 0;\n  mov.u32 %r9, 0;\n  and.b32 %r14, %r1, 1;\n  setp.eq.u32 %p1, %r14, 0;\n"
    "LOOP:\n"
    "  add.s32 %r10, %r3, %r9;\n  and.b32 %r10, %r10, 31;\n  shl.b32 %r10, %r10, 2;\n  add.s32 %r11, %r13, %r10;\n"
    "  ld.shared.u32 %r12, [%r11];\n  mad.lo.u32 %r8, %r8, 3, %r12;\n"
    "  @%p1 add.s32 %r8, %r8, 5;\n"            /* a guard of half the lanes */
    "  @!%p1 bra SKIP;\n"                       /* divergent: the even lanes go on */
    "  xor.b32 %r8, %r8, %r9;\n  setp.lt.u32 %p2, %r9, 3;\n"
    "  @%p2 bra MID;\n"                         /* uniform among the even lanes, not to the join */
    "  add.s32 %r8, %r8, 1;\n"
    "MID:\n  add.s32 %r8, %r8, 2;\n  setp.gt.u32 %p3, %r9, 5;\n"
    "  @%p3 bra SKIP;\n"                        /* uniform, to the join */
    "  shl.b32 %r8, %r8, 1;\n"
    "SKIP:\n"
    "  add.s32 %r9, %r9, 1;\n  setp.lt.u32 %p4, %r9, %r2;\n  @%p4 bra LOOP;\n"
    "  mov.u32 %r21, %clock;\n  sub.s32 %r22, %r21, %r20;\n"
    "  mul.wide.u32 %rd2, %r1, 8;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.v2.u32 [%rd3], {%r8, %r22};\n"
    "  ret;\n}\n";

enum { RUN_N = 40 }; /* loop trips: some 800 instructions a warp, past a turn's 256 */

static uint32_t run_lanes_ref(uint32_t tid)
{
    uint32_t acc = 0, lane = tid & 31, base = tid & ~31u;
    for (uint32_t i = 0; i < RUN_N; i++) {
        acc = acc * 3 + (base + ((lane + i) & 31)) * 2654435761u;
        if (tid & 1)
            continue;
        acc += 5;
        acc ^= i;
        if (i >= 3)
            acc += 1;
        acc += 2;
        if (i <= 5)
            acc <<= 1;
    }
    return acc;
}

/* The launch of runk over `threads` threads (one CTA), by ptx_run_kernel (run: true) or stepped
 * through the front ops; its output, and the warp and thread instructions it counted. */
static void run_runk(const PtxModule *m, uint32_t threads, bool run, uint32_t *out, uint64_t *warp_insts,
                     uint64_t *thread_insts)
{
    PtxMemory *mem = ptx_memory_create();
    uint64_t o = pt_upload(mem, NULL, threads * 8);
    const PtxKernelInfo *ki = ptx_module_kernel(m, "runk");
    uint8_t params[64] = {0};
    uint32_t n = RUN_N;
    memcpy(params + ki->param_offset[0], &o, 8);
    memcpy(params + ki->param_offset[1], &n, 4);
    char err[512];
    uint32_t grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    PtxLaunch *l = ptx_launch_create(m, "runk", grid, block, 0, params, ki->param_bytes, mem, err, sizeof err);
    EXPECT(l);
    *warp_insts = *thread_insts = 0;
    if (l)
        ptx_launch_set_inst_limit(l, 1000000); /* a broken run may loop */
    if (l && run) {
        PtxRunStats st;
        EXPECT(ptx_run_kernel(l, &st, err, sizeof err));
        *warp_insts = st.warp_insts;
        *thread_insts = st.thread_insts;
    } else if (l) { /* every instruction a step, warp after warp (no barrier to wait at) */
        FrontKernel fk;
        ptx_launch_describe(l, &fk);
        uint32_t wpc = front_kernel_warps_per_cta(&fk);
        ptx_front_ops.kernel_begin(l, &fk, wpc);
        ptx_front_ops.cta_start(l, 0, 0, 0);
        for (uint32_t w = 0; w < wpc; w++)
            while (ptx_front_ops.peek(l, w) && *warp_insts < 1000000) {
                Winst wi;
                *thread_insts += popcount_u32(ptx_front_ops.peek_mask(l, w));
                ptx_front_ops.exec(l, w, &wi);
                ++*warp_insts;
            }
        ptx_front_ops.cta_end(l, 0);
        ptx_front_ops.kernel_end(l);
    }
    if (l)
        ptx_launch_destroy(l);
    ptx_memory_read(mem, o, out, threads * 8);
    ptx_memory_destroy(mem);
}

TEST(ptx_fast_run_matches_steps)
{
    char err[512];
    PtxModule *m = ptx_module_parse(run_ptx, "run.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    unsigned marked[PTX_RUN_BRA + 1] = {0};
    for (uint32_t i = 0; i < m->n_insts; i++) { /* the compact records hold the run's marks, guards, targets */
        const PtxInst *in = &m->xinsts[i];
        const PtxRec *r = &m->xrec[i];
        marked[in->run]++;
        EXPECT_EQ_U(r->run, in->run);
        EXPECT_EQ_U(r->guard, in->guard);
        EXPECT_EQ_U(!!(r->bits & PTX_REC_GUARD_NEG), !!(in->flags & PF_GUARD_NEG));
        if (in->run == PTX_RUN_BRA)
            EXPECT_EQ_U(r->target, (uint32_t)in->o[0].imm);
    }
    EXPECT(marked[PTX_RUN_ALU] >= 20);
    EXPECT_EQ_U(marked[PTX_RUN_BRA], 4);
    EXPECT_EQ_U(marked[PTX_RUN_FORM], ptx_host_avx2() ? 1 : 0);
    static const uint32_t sizes[] = {32, 64, 45};
    for (unsigned s = 0; s < 3; s++) {
        uint32_t t = sizes[s], fast[128], step[128];
        uint64_t fw, ft, sw, st;
        run_runk(m, t, true, fast, &fw, &ft);
        run_runk(m, t, false, step, &sw, &st);
        EXPECT_EQ_U(fw, sw);
        EXPECT_EQ_U(ft, st);
        for (uint32_t i = 0; i < t; i++) {
            EXPECT_EQ_U(fast[2 * i], step[2 * i]);
            if (i < t / 32 * 32) /* a partial warp's lanes read words no thread wrote */
                EXPECT_EQ_U(fast[2 * i], run_lanes_ref(i));
        }
        if (t == 32) /* one warp: %clock counts its instructions from the first to the second read;
                        after that read come five */
            EXPECT_EQ_U(fast[1], fw - 6);
    }
    ptx_module_free(m);
}
