/* test_ptx_control.c: divergent control flow in the SIMT interpreter (tests/ptx/control.cu):
 * nested if/else inside loops with break, a device-function call in divergent code, a barrier
 * after divergent code, early returns, warp shuffles and votes; IPDOM reconvergence observed
 * through the FrontOps interface on a hand-written kernel; and FrontOps-driven execution giving
 * the same results as ptx_run_kernel. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"

#include <stdlib.h>

static int collatz(int n, int limit)
{
    int s = 0;
    while (n != 1 && s < limit) {
        n = (n & 1) ? 3 * n + 1 : n >> 1;
        s++;
    }
    return s;
}

#define BLK 96
#define CTAS 3
#define TOTAL (BLK * CTAS)
#define NVALID (TOTAL - 13)

static void diverge_reference(const int *in, int *want)
{
    int acc[TOTAL];
    for (int i = 0; i < TOTAL; i++) {
        int v = in[i], a = 0;
        for (int k = 0; k < (v & 15); k++) {
            if (k & 1) {
                a += (v & 2) ? k * 3 : -k;
            } else {
                a ^= v + k;
                if (a > 1000)
                    break;
            }
        }
        if (v % 3 == 0)
            a += collatz(v % 97 + 1, 200);
        acc[i] = a;
    }
    for (int i = 0; i < TOTAL; i++) {
        int t = i % BLK, base = i - t;
        int nb = acc[base + (t + 1) % BLK];
        want[i] = i >= NVALID ? -7 : (in[i] & 4) ? acc[i] + nb : acc[i] - nb;
    }
}

static void diverge_inputs(int *in)
{
    uint64_t s = 2024;
    for (int i = 0; i < TOTAL; i++)
        in[i] = (int)(rng_next(&s) % 5000);
}

TEST(ptx_divergent_loops_calls_barrier)
{
    PtxModule *m = pt_load("control.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    int in[TOTAL], out[TOTAL], want[TOTAL];
    diverge_inputs(in);
    for (int i = 0; i < TOTAL; i++)
        out[i] = -7;
    uint64_t din = pt_upload(mem, in, sizeof in), dout = pt_upload(mem, out, sizeof out);
    uint64_t args[] = {din, dout, NVALID};
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "diverge", CTAS, 1, 1, BLK, 1, 1, 0, args, 3, &st));
    ptx_memory_read(mem, dout, out, sizeof out);
    diverge_reference(in, want);
    int bad = 0;
    for (int i = 0; i < TOTAL; i++)
        if (out[i] != want[i] && bad++ < 5)
            printf("  thread %d (v=%d): got %d want %d\n", i, in[i], out[i], want[i]);
    EXPECT_EQ_I(bad, 0);
    EXPECT_EQ_U(st.ctas, CTAS);
    EXPECT(st.thread_insts < st.warp_insts * 32); /* divergence happened */
    EXPECT(st.thread_insts > st.warp_insts * 2);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_warp_shuffle_vote)
{
    PtxModule *m = pt_load("control.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    int in[64], out[64 * 7];
    uint64_t s = 8;
    for (int i = 0; i < 64; i++)
        in[i] = (int)(rng_next(&s) % 100);
    in[40] = 99;
    uint64_t din = pt_upload(mem, in, sizeof in), dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {din, dout};
    ASSERT(pt_run(m, mem, "warp_ops", 1, 1, 1, 64, 1, 1, 0, args, 2, NULL));
    ptx_memory_read(mem, dout, out, sizeof out);
    for (int w = 0; w < 2; w++) {
        int sum = 0, any = 0;
        unsigned ballot = 0;
        for (int l = 0; l < 32; l++) {
            sum += in[w * 32 + l];
            ballot |= (unsigned)(in[w * 32 + l] > 50) << l;
            any |= in[w * 32 + l] > 98;
        }
        for (int l = 0; l < 32; l++) {
            const int *o = out + (w * 32 + l) * 7, *v = in + w * 32;
            EXPECT_EQ_I(o[0], sum);
            EXPECT_EQ_I(o[1], l < 3 ? v[l] : v[l - 3]);
            EXPECT_EQ_I(o[2], l + 5 > 31 ? v[l] : v[l + 5]);
            EXPECT_EQ_I(o[3], v[(l * 7) & 31]);
            EXPECT_EQ_U((unsigned)o[4], ballot);
            EXPECT_EQ_I(o[5], any);
            EXPECT_EQ_I(o[6], 1);
        }
    }
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* if/else on lane parity inside a function: the join point must see the full mask again. */
static const char *const reconv_ptx =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n  setp.eq.s32 %p1, %r2, 0;\n"
    "  @%p1 bra $EVEN;\n"
    "  mul.lo.s32 %r3, %r1, 3;\n  bra.uni $JOIN;\n"
    "$EVEN:\n  add.s32 %r3, %r1, 100;\n"
    "$JOIN:\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n  ret;\n}\n";

TEST(ptx_ipdom_reconverges_front_ops)
{
    char err[256];
    PtxModule *m = ptx_module_parse(reconv_ptx, "reconv.ptx", err, sizeof err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint64_t dout = pt_upload(mem, NULL, 32 * 4);
    uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
    PtxLaunch *l = ptx_launch_create(m, "k", grid, block, 0, &dout, 8, mem, err, sizeof err);
    ASSERT(l);
    FrontKernel fk;
    ptx_launch_describe(l, &fk);
    EXPECT_STR(fk.name, "k");
    EXPECT_EQ_U(front_kernel_warps_per_cta(&fk), 1);
    const FrontOps *ops = &ptx_front_ops;
    ops->kernel_begin(l, &fk, 4);
    ops->cta_start(l, 0, 0, 2);
    EXPECT(ops->peek(l, 0) == NULL); /* not a warp of this CTA */
    Winst w;
    uint32_t masks[32];
    int n = 0;
    const WinstStatic *s;
    while ((s = ops->peek(l, 2)) != NULL && n < 32) {
        uint32_t before = ops->peek_mask(l, 2); /* the SIMT stack's top, before the guard */
        ops->exec(l, 2, &w);
        EXPECT_EQ_U(w.s.pc, s->pc);
        EXPECT_EQ_U(before, n == 4 ? 0xFFFFFFFFu : w.active_mask); /* only the branch is guarded */
        masks[n++] = w.active_mask;
        if (w.s.op == WOP_STORE) {
            EXPECT_EQ_U(w.s.space, WSPACE_GLOBAL);
            EXPECT_EQ_U(w.s.access_bytes, 4);
            EXPECT_EQ_U(w.active_mask, 0xFFFFFFFFu); /* reconverged at the join */
            for (int i = 0; i < 32; i++)
                EXPECT_EQ_U(w.addr[i], dout + 4 * (uint64_t)i);
        }
    }
    EXPECT_EQ_U(ops->peek_mask(l, 2), 0); /* exited */
    ops->cta_end(l, 0);
    ops->kernel_end(l);
    /* 4 common + bra + odd path 2 + even path 1 + 3 after the join + ret */
    EXPECT_EQ_I(n, 12);
    EXPECT_EQ_U(masks[3], 0xFFFFFFFFu);
    EXPECT_EQ_U(masks[4], 0x55555555u); /* the branch: lanes whose guard holds */
    uint32_t seen_odd = 0, seen_even = 0;
    for (int i = 5; i < 8; i++) {
        if (masks[i] == 0xAAAAAAAAu)
            seen_odd++;
        if (masks[i] == 0x55555555u)
            seen_even++;
    }
    EXPECT_EQ_U(seen_odd, 2);
    EXPECT_EQ_U(seen_even, 1);
    EXPECT_EQ_U(masks[8], 0xFFFFFFFFu);
    EXPECT_EQ_U(masks[11], 0xFFFFFFFFu);
    int out[32];
    ptx_memory_read(mem, dout, out, sizeof out);
    for (int i = 0; i < 32; i++)
        EXPECT_EQ_I(out[i], (i & 1) ? i * 3 : i + 100);
    ptx_launch_destroy(l);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* The same launch driven through FrontOps by a toy scheduler (round-robin, barrier waits, CTAs
 * on two "SMs" with scattered warp ids) gives the same memory as ptx_run_kernel. */
TEST(ptx_front_ops_matches_functional_run)
{
    PtxModule *m = pt_load("control.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    int in[TOTAL], out[TOTAL], want[TOTAL];
    diverge_inputs(in);
    for (int i = 0; i < TOTAL; i++)
        out[i] = -7;
    uint64_t din = pt_upload(mem, in, sizeof in), dout = pt_upload(mem, out, sizeof out);
    const PtxKernelInfo *ki = ptx_module_kernel(m, "diverge");
    ASSERT(ki);
    uint8_t params[64] = {0};
    uint64_t a0 = din, a1 = dout;
    uint32_t a2 = NVALID;
    memcpy(params + ki->param_offset[0], &a0, 8);
    memcpy(params + ki->param_offset[1], &a1, 8);
    memcpy(params + ki->param_offset[2], &a2, 4);
    char err[256];
    uint32_t grid[3] = {CTAS, 1, 1}, block[3] = {BLK, 1, 1};
    PtxLaunch *l = ptx_launch_create(m, "diverge", grid, block, 0, params, ki->param_bytes, mem, err, sizeof err);
    ASSERT(l);
    FrontKernel fk;
    ptx_launch_describe(l, &fk);
    EXPECT_EQ_U(fk.smem_bytes_per_cta, 1024);
    const FrontOps *ops = &ptx_front_ops;
    uint32_t wpc = front_kernel_warps_per_cta(&fk), n_ids = 16;
    ops->kernel_begin(l, &fk, n_ids);
    uint32_t bases[CTAS] = {8, 1, 12};
    for (uint32_t c = 0; c < CTAS; c++)
        ops->cta_start(l, c, c & 1, bases[c]);
    bool waiting[16] = {false};
    uint64_t loads = 0, barriers = 0;
    for (int guard = 0; guard < 1000000; guard++) {
        bool any = false;
        for (uint32_t c = 0; c < CTAS; c++) {
            uint32_t live = 0, at_bar = 0;
            for (uint32_t k = 0; k < wpc; k++) {
                uint32_t id = bases[c] + k;
                if (!ops->peek(l, id))
                    continue;
                live++;
                if (waiting[id]) {
                    at_bar++;
                    continue;
                }
                Winst w;
                ops->exec(l, id, &w);
                any = true;
                loads += w.s.op == WOP_LOAD;
                if (w.s.op == WOP_BARRIER) {
                    waiting[id] = true;
                    barriers++;
                }
            }
            if (live && at_bar == live)
                for (uint32_t k = 0; k < wpc; k++)
                    waiting[bases[c] + k] = false;
            if (live)
                any = true;
        }
        if (!any)
            break;
    }
    for (uint32_t c = 0; c < CTAS; c++)
        ops->cta_end(l, c);
    ops->kernel_end(l);
    EXPECT(ptx_launch_error(l) == NULL);
    EXPECT_EQ_U(barriers, CTAS * wpc);
    EXPECT(loads > 0);
    ptx_memory_read(mem, dout, out, sizeof out);
    diverge_reference(in, want);
    int bad = 0;
    for (int i = 0; i < TOTAL; i++)
        bad += out[i] != want[i];
    EXPECT_EQ_I(bad, 0);
    ptx_launch_destroy(l);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* A switch whose default traps, as nvcc lays out cuda_pipeline's zero-fill sizes: the trap's
 * block sits just before the join, and a bar.sync follows. The lanes must reconverge at the
 * join, so that each warp reaches the barrier whole and the read of another warp's shared value
 * after it sees the value written (before, a lane group went on alone and read zeros). */
static const char *const trap_switch_ptx =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b8 buf[256];\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  rem.u32 %r2, %r1, 3;\n  shl.b32 %r3, %r1, 2;\n  mov.u32 %r4, buf;\n  add.u32 %r5, %r4, %r3;\n"
    "  setp.eq.u32 %p1, %r2, 0;\n  @%p1 bra $ZERO;\n"
    "  setp.eq.u32 %p2, %r2, 1;\n  @%p2 bra $ONE;\n"
    "  setp.ne.u32 %p3, %r2, 2;\n  @%p3 bra $BAD;\n"
    "  add.u32 %r6, %r1, 2000;\n  st.shared.u32 [%r5], %r6;\n  bra.uni $JOIN;\n"
    "$ZERO:\n  st.shared.u32 [%r5], %r1;\n  bra.uni $JOIN;\n"
    "$ONE:\n  add.u32 %r6, %r1, 1000;\n  st.shared.u32 [%r5], %r6;\n  bra.uni $JOIN;\n"
    "$BAD:\n  trap;\n"
    "$JOIN:\n  bar.sync 0;\n"
    "  sub.u32 %r7, 63, %r1;\n  shl.b32 %r8, %r7, 2;\n  add.u32 %r9, %r4, %r8;\n"
    "  ld.shared.u32 %r10, [%r9];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r10;\n  ret;\n}\n";

TEST(ptx_trap_in_switch_reconverges_before_barrier)
{
    char err[256];
    PtxModule *m = ptx_module_parse(trap_switch_ptx, "trapsw.ptx", err, sizeof err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    uint64_t dout = pt_upload(mem, NULL, 64 * 4);
    PtxRunStats st;
    ASSERT(pt_run(m, mem, "k", 1, 1, 1, 64, 1, 1, 0, &dout, 1, &st));
    int out[64];
    ptx_memory_read(mem, dout, out, sizeof out);
    int bad = 0;
    for (int t = 0; t < 64; t++) {
        int s = 63 - t, want = s + (s % 3) * 1000;
        bad += out[t] != want;
    }
    EXPECT_EQ_I(bad, 0);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}
