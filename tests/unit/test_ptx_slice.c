/* test_ptx_slice.c: address pre-computation (front/ptx/ptx_slice.c). The kernels of
 * tests/ptx/slices.cu (nvcc's PTX: row-major, column-major and 1D indexing, a 3D grid with 64-bit
 * and unsigned arithmetic and a select, a __device__ array) run on the interpreter through the
 * front ops, and every lane's address of every precomputable access must equal what the
 * evaluator computes for that CTA and thread; a loop-dependent, an indirect and a
 * branch-dependent access must be reported not precomputable, with their data arrays. A
 * hand-written kernel covers the other reasons, generic accesses and data-array corner cases. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"
#include "front/ptx/ptx_slice.h"

#include <stdlib.h>

/* A kernel's launch: geometry and arguments (each written with its parameter's size). */
typedef struct Launch {
    uint32_t grid[3], block[3];
    uint64_t args[8];
    unsigned n_args;
} Launch;

/* What check_against_interpreter saw. */
typedef struct Seen {
    uint64_t compared;   /* lane addresses compared with the evaluator */
    uint64_t mismatches;
    uint64_t unlisted;   /* global accesses executed that the slices do not list */
    uint32_t executed[64]; /* per access index: warp instructions that ran it */
} Seen;

/* Run the launch through ptx_front_ops, one CTA at a time, and compare each lane's address of
 * each precomputable access with ptx_slices_eval for that lane's CTA and thread. */
static bool check_against_interpreter(const PtxModule *m, PtxMemory *mem, const char *kernel, const Launch *L,
                                      Seen *seen)
{
    memset(seen, 0, sizeof *seen);
    const PtxKernelInfo *ki = ptx_module_kernel(m, kernel);
    if (!ki || ki->n_params != L->n_args)
        return false;
    uint8_t params[256] = {0};
    for (unsigned i = 0; i < L->n_args; i++)
        memcpy(params + ki->param_offset[i], &L->args[i], ki->param_size[i] <= 8 ? ki->param_size[i] : 8);
    char err[512];
    PtxLaunch *l = ptx_launch_create(m, kernel, L->grid, L->block, 0, params, ki->param_bytes, mem, err, sizeof err);
    if (!l) {
        printf("  %s\n", err);
        return false;
    }
    PtxSliceEnv env;
    const PtxSlices *s = ptx_launch_slices(l, &env);
    FrontKernel fk;
    ptx_launch_describe(l, &fk);
    uint32_t wpc = front_kernel_warps_per_cta(&fk), n_ctas = front_kernel_n_ctas(&fk);
    const FrontOps *ops = &ptx_front_ops;
    ops->kernel_begin(l, &fk, wpc);
    bool *waiting = calloc(wpc, sizeof *waiting);
    for (uint32_t cta = 0; cta < n_ctas; cta++) {
        ops->cta_start(l, cta, 0, 0);
        uint32_t ctaid[3] = {cta % L->grid[0], cta / L->grid[0] % L->grid[1], cta / L->grid[0] / L->grid[1]};
        for (;;) {
            uint32_t live = 0, at_bar = 0;
            for (uint32_t w = 0; w < wpc; w++) {
                if (!ops->peek(l, w))
                    continue;
                live++;
                if (waiting[w]) {
                    at_bar++;
                    continue;
                }
                Winst wi;
                ops->exec(l, w, &wi);
                if (wi.s.op == WOP_BARRIER)
                    waiting[w] = true;
                if (!winst_is_mem(&wi.s) || wi.s.space != WSPACE_GLOBAL || !wi.active_mask)
                    continue;
                int32_t a = ptx_slices_find_pc(s, wi.s.pc);
                if (a < 0) {
                    seen->unlisted++;
                    continue;
                }
                if (a < 64)
                    seen->executed[a]++;
                if (!ptx_slices_info(s, (uint32_t)a)->precomputable)
                    continue;
                for (uint32_t lane = 0; lane < WARP_SIZE; lane++) {
                    if (!(wi.active_mask >> lane & 1))
                        continue;
                    uint32_t t = w * WARP_SIZE + lane;
                    uint32_t tid[3] = {t % L->block[0], t / L->block[0] % L->block[1], t / (L->block[0] * L->block[1])};
                    uint64_t want = 0, want_linear = 0;
                    bool ok = ptx_slices_eval(s, (uint32_t)a, &env, ctaid, tid, &want) &&
                              ptx_slices_eval_linear(s, (uint32_t)a, &env, cta, t, &want_linear);
                    seen->compared++;
                    if (!ok || want != wi.addr[lane] || want_linear != want) {
                        if (seen->mismatches++ < 4)
                            printf("  %s line %u: CTA %u thread %u: interpreter 0x%llx, evaluator 0x%llx%s\n", kernel,
                                   ptx_slices_info(s, (uint32_t)a)->line, cta, t, (unsigned long long)wi.addr[lane],
                                   (unsigned long long)want, ok ? "" : " (failed)");
                    }
                }
            }
            if (!live)
                break;
            if (at_bar == live)
                memset(waiting, 0, wpc * sizeof *waiting);
        }
        ops->cta_end(l, cta);
    }
    ops->kernel_end(l);
    free(waiting);
    const char *fault = ptx_launch_error(l);
    if (fault)
        printf("  %s\n", fault);
    ptx_launch_destroy(l);
    return fault == NULL;
}

/* The slices of one kernel (freed by the caller). */
static PtxSlices *slices_of(const PtxModule *m, const char *kernel)
{
    char err[256];
    PtxSlices *s = ptx_slices_build(m, ptx_module_kernel(m, kernel), err, sizeof err);
    if (!s)
        printf("  %s\n", err);
    return s;
}

TEST(ptx_slice_rowmajor_matches_interpreter)
{
    PtxModule *m = pt_load("slices.ptx");
    ASSERT(m);
    PtxSlices *s = slices_of(m, "rowmajor");
    ASSERT(s);
    ASSERT(ptx_slices_count(s) == 2);
    const PtxSliceInfo *ld = ptx_slices_info(s, 0), *st = ptx_slices_info(s, 1);
    EXPECT_EQ_U(ld->kind, PTX_SLICE_LOAD);
    EXPECT_EQ_U(st->kind, PTX_SLICE_STORE);
    EXPECT(ld->precomputable && st->precomputable);
    EXPECT_EQ_U(ld->reason, PTX_SLICE_OK);
    EXPECT_EQ_I(ld->array_param, 1); /* in */
    EXPECT_EQ_I(st->array_param, 0); /* out */
    EXPECT_STR(ld->array_name, "rowmajor_param_1");
    EXPECT_EQ_U(ld->width_bytes, 4);
    EXPECT(!ld->generic);
    EXPECT(ld->slice_insts >= 10);
    EXPECT_EQ_I(ptx_slices_find_pc(s, st->pc), 1);
    EXPECT_EQ_I(ptx_slices_find_pc(s, st->pc + 8), -1);

    /* grid 4 x 3 of 16 x 16 blocks over a 64-wide, 48-tall matrix */
    enum { W = 64, H = 48 };
    PtxMemory *mem = ptx_memory_create();
    uint64_t in = pt_upload(mem, NULL, W * H * 4), out = pt_upload(mem, NULL, W * H * 4);
    Launch L = {{4, 3, 1}, {16, 16, 1}, {out, in, W}, 3};
    Seen seen;
    ASSERT(check_against_interpreter(m, mem, "rowmajor", &L, &seen));
    EXPECT_EQ_U(seen.compared, 2 * W * H);
    EXPECT_EQ_U(seen.mismatches, 0);
    EXPECT_EQ_U(seen.unlisted, 0);
    /* the worked example: block (2,1), thread (3,5) reads in[(1*16 + 5) * W + 2*16 + 3] */
    PtxSliceEnv env = {.params = NULL, .grid = {4, 3, 1}, .block = {16, 16, 1}};
    uint8_t params[20];
    memcpy(params, &out, 8);
    memcpy(params + 8, &in, 8);
    uint32_t w = W;
    memcpy(params + 16, &w, 4);
    env.params = params;
    env.param_bytes = sizeof params;
    uint64_t a = 0;
    ASSERT(ptx_slices_eval(s, 0, &env, (const uint32_t[3]){2, 1, 0}, (const uint32_t[3]){3, 5, 0}, &a));
    EXPECT_EQ_U(a, in + 4 * ((1 * 16 + 5) * W + 2 * 16 + 3));
    /* the first and last thread of that CTA (as the dispatcher asks: linear ids) */
    ASSERT(ptx_slices_eval_linear(s, 1, &env, 1 * 4 + 2, 0, &a));
    EXPECT_EQ_U(a, out + 4 * ((1 * 16) * W + 2 * 16));
    ASSERT(ptx_slices_eval_linear(s, 1, &env, 1 * 4 + 2, 255, &a));
    EXPECT_EQ_U(a, out + 4 * ((1 * 16 + 15) * W + 2 * 16 + 15));
    env.param_bytes = 16; /* w lies beyond: refused, not read */
    EXPECT(!ptx_slices_eval(s, 0, &env, (const uint32_t[3]){0, 0, 0}, (const uint32_t[3]){0, 0, 0}, &a));
    EXPECT(!ptx_slices_eval(s, 2, &env, (const uint32_t[3]){0, 0, 0}, (const uint32_t[3]){0, 0, 0}, &a));
    ptx_slices_free(s);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_slice_1d_and_colmajor_match_interpreter)
{
    PtxModule *m = pt_load("slices.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    /* 1D, 5 blocks of 64 over n = 300: the last block's upper lanes skip the accesses */
    enum { N = 300 };
    uint64_t c = pt_upload(mem, NULL, N * 4), a = pt_upload(mem, NULL, N * 4), b = pt_upload(mem, NULL, N * 4);
    Launch L = {{5, 1, 1}, {64, 1, 1}, {c, a, b, N}, 4};
    Seen seen;
    ASSERT(check_against_interpreter(m, mem, "vec1d", &L, &seen));
    EXPECT_EQ_U(seen.compared, 3 * N);
    EXPECT_EQ_U(seen.mismatches, 0);
    EXPECT_EQ_U(seen.unlisted, 0);
    PtxSlices *s = slices_of(m, "vec1d");
    ASSERT(s);
    ASSERT(ptx_slices_count(s) == 3);
    EXPECT_EQ_I(ptx_slices_info(s, 0)->array_param, 2); /* b is read first */
    EXPECT_EQ_I(ptx_slices_info(s, 1)->array_param, 1);
    EXPECT_EQ_I(ptx_slices_info(s, 2)->array_param, 0);
    ptx_slices_free(s);

    /* column-major: consecutive tx step h elements apart */
    enum { H = 48, COLS = 64 };
    uint64_t in = pt_upload(mem, NULL, H * COLS * 4), out = pt_upload(mem, NULL, H * COLS * 4);
    Launch C = {{4, 3, 1}, {16, 16, 1}, {out, in, H}, 3};
    ASSERT(check_against_interpreter(m, mem, "colmajor", &C, &seen));
    EXPECT_EQ_U(seen.compared, 2 * H * COLS);
    EXPECT_EQ_U(seen.mismatches, 0);
    s = slices_of(m, "colmajor");
    ASSERT(s);
    ASSERT(ptx_slices_count(s) == 2);
    EXPECT(ptx_slices_info(s, 0)->precomputable);
    EXPECT_EQ_I(ptx_slices_info(s, 0)->array_param, 1);
    PtxSliceEnv env = {.grid = {4, 3, 1}, .block = {16, 16, 1}};
    uint8_t params[20];
    memcpy(params, &out, 8);
    memcpy(params + 8, &in, 8);
    uint32_t h = H;
    memcpy(params + 16, &h, 4);
    env.params = params;
    env.param_bytes = sizeof params;
    uint64_t t0, t1;
    ASSERT(ptx_slices_eval(s, 0, &env, (const uint32_t[3]){1, 2, 0}, (const uint32_t[3]){0, 0, 0}, &t0));
    ASSERT(ptx_slices_eval(s, 0, &env, (const uint32_t[3]){1, 2, 0}, (const uint32_t[3]){1, 0, 0}, &t1));
    EXPECT_EQ_U(t0, in + 4 * ((0 + 1 * 16) * H + 2 * 16 + 0));
    EXPECT_EQ_U(t1 - t0, 4 * H);
    ptx_slices_free(s);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* A 3D grid, 64-bit and unsigned arithmetic, division by constants (mul.hi/shr), min, and a
 * selp on a parameter's sign, taken both ways; and an array that is a __device__ variable. */
TEST(ptx_slice_mixed_and_variable_match_interpreter)
{
    PtxModule *m = pt_load("slices.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    enum { W = 24, E = 4 * 8 * W }; /* grid (3,2,2) of (8,4,2): x < 24, y < 8, z < 4 */
    uint64_t out = pt_upload(mem, NULL, E * 4), in = pt_upload(mem, NULL, (2 * E + 16) * 2);
    Seen seen;
    for (int k = 0; k < 2; k++) {
        Launch L = {{3, 2, 2}, {8, 4, 2}, {out, in, k ? (uint64_t)-1 : 5, W}, 4};
        ASSERT(check_against_interpreter(m, mem, "mixed", &L, &seen));
        EXPECT_EQ_U(seen.compared, 2 * E);
        EXPECT_EQ_U(seen.mismatches, 0);
    }
    PtxSlices *s = slices_of(m, "mixed");
    ASSERT(s);
    ASSERT(ptx_slices_count(s) == 2);
    EXPECT_EQ_U(ptx_slices_info(s, 0)->width_bytes, 2);
    EXPECT(ptx_slices_info(s, 0)->precomputable); /* through selp on setp.gt.s64 of a parameter */
    EXPECT(ptx_slices_info(s, 0)->slice_insts > ptx_slices_info(s, 1)->slice_insts);
    ptx_slices_free(s);

    uint64_t dout = pt_upload(mem, NULL, 512 * 4);
    Launch D = {{4, 1, 1}, {128, 1, 1}, {dout}, 1};
    ASSERT(check_against_interpreter(m, mem, "devarray", &D, &seen));
    EXPECT_EQ_U(seen.compared, 2 * 512);
    EXPECT_EQ_U(seen.mismatches, 0);
    s = slices_of(m, "devarray");
    ASSERT(s);
    ASSERT(ptx_slices_count(s) == 2);
    EXPECT_EQ_I(ptx_slices_info(s, 0)->array_param, -1);
    EXPECT_STR(ptx_slices_info(s, 0)->array_name, "table");
    EXPECT(ptx_slices_info(s, 0)->precomputable);
    /* without the variables' addresses the evaluator refuses */
    uint8_t params[8];
    memcpy(params, &dout, 8);
    PtxSliceEnv env = {.params = params, .param_bytes = 8, .grid = {4, 1, 1}, .block = {128, 1, 1}};
    uint64_t a;
    EXPECT(!ptx_slices_eval_linear(s, 0, &env, 0, 0, &a));
    EXPECT(ptx_slices_eval_linear(s, 1, &env, 3, 127, &a));
    EXPECT_EQ_U(a, dout + 4 * 511);
    ptx_slices_free(s);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_slice_loop_and_indirect_not_precomputable)
{
    PtxModule *m = pt_load("slices.ptx");
    ASSERT(m);
    PtxSlices *s = slices_of(m, "loopind");
    ASSERT(s);
    /* in[k * w + i] (nvcc unrolls it by 4 plus a remainder loop), idx[i], in[idx[i]], out[i] */
    uint32_t n = ptx_slices_count(s);
    ASSERT(n == 8);
    for (uint32_t i = 0; i < 5; i++) {
        const PtxSliceInfo *a = ptx_slices_info(s, i);
        EXPECT(!a->precomputable);
        EXPECT_EQ_U(a->reason, PTX_SLICE_MULTI_DEF);
        EXPECT_EQ_I(a->array_param, 1); /* found through the loop's pointer increments */
        EXPECT_CONTAINS(a->why, "written at 2 places");
    }
    const PtxSliceInfo *idx = ptx_slices_info(s, 5), *ind = ptx_slices_info(s, 6), *out = ptx_slices_info(s, 7);
    EXPECT(idx->precomputable);
    EXPECT_EQ_I(idx->array_param, 2);
    EXPECT(!ind->precomputable);
    EXPECT_EQ_U(ind->reason, PTX_SLICE_MEMORY);
    EXPECT_EQ_I(ind->array_param, 1);
    EXPECT_CONTAINS(ind->why, "loaded from global memory");
    EXPECT_STR(ptx_slice_reason_name(PTX_SLICE_MEMORY), "data-dependent (value loaded from memory)");
    EXPECT(out->precomputable);
    EXPECT_EQ_I(out->array_param, 0);
    uint64_t addr = 0;
    PtxSliceEnv env = {0};
    EXPECT(!ptx_slices_eval(s, 6, &env, (const uint32_t[3]){0, 0, 0}, (const uint32_t[3]){0, 0, 0}, &addr));
    EXPECT_EQ_U(addr, 0);
    ptx_slices_free(s);

    /* the precomputable ones still match the interpreter */
    enum { N = 256, K = 6 };
    PtxMemory *mem = ptx_memory_create();
    int ix[N];
    for (int i = 0; i < N; i++)
        ix[i] = (i * 37) % N;
    uint64_t dout = pt_upload(mem, NULL, N * 4), din = pt_upload(mem, NULL, N * K * 4), didx = pt_upload(mem, ix, sizeof ix);
    Launch L = {{2, 1, 1}, {128, 1, 1}, {dout, din, didx, K, N}, 5};
    Seen seen;
    ASSERT(check_against_interpreter(m, mem, "loopind", &L, &seen));
    EXPECT_EQ_U(seen.compared, 2 * N);
    EXPECT_EQ_U(seen.mismatches, 0);
    EXPECT(seen.executed[0] > 0 && seen.executed[6] > 0);

    /* an index chosen by a branch: two definitions meet at the join */
    s = slices_of(m, "pathdep");
    ASSERT(s);
    ASSERT(ptx_slices_count(s) == 1);
    EXPECT(!ptx_slices_info(s, 0)->precomputable);
    EXPECT_EQ_U(ptx_slices_info(s, 0)->reason, PTX_SLICE_MULTI_DEF);
    EXPECT_EQ_I(ptx_slices_info(s, 0)->array_param, 0);
    ptx_slices_free(s);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

/* Hand-written: one access per case, in this order. B holds ints; B[0..1] a pointer to A; n
 * (edge_p2) picks the selp's side; edge_p3 is -4. */
static const char edge_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".global .align 8 .b8 gvar[64];\n"
    ".visible .entry edge(.param .u64 edge_p0, .param .u64 edge_p1, .param .u32 edge_p2, .param .u32 edge_p3)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<44>;\n  .reg .f32 %f<12>;\n"
    "  .shared .align 4 .b8 buf[512];\n"
    "  ld.param.u64 %rd1, [edge_p0];\n  ld.param.u64 %rd2, [edge_p1];\n  ld.param.u32 %r1, [edge_p2];\n"
    "  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd3, %r2, 4;\n"
    /* 0: generic, the parameter pointer used directly */
    "  add.s64 %rd4, %rd1, %rd3;\n  ld.f32 %f1, [%rd4];\n"
    /* (not listed) generic into shared memory */
    "  mov.u64 %rd5, buf;\n  cvta.shared.u64 %rd6, %rd5;\n  add.s64 %rd7, %rd6, %rd3;\n  st.f32 [%rd7], %f1;\n"
    /* 1: %laneid */
    "  cvta.to.global.u64 %rd8, %rd2;\n  mov.u32 %r3, %laneid;\n  mul.wide.u32 %rd9, %r3, 4;\n"
    "  add.s64 %rd10, %rd8, %rd9;\n  ld.global.u32 %r4, [%rd10];\n"
    /* 2: selp on a parameter's comparison, with an immediate offset */
    "  setp.gt.u32 %p1, %r1, 8;\n  selp.b32 %r5, 1, 2, %p1;\n  add.s32 %r6, %r2, %r5;\n"
    "  mul.wide.s32 %rd11, %r6, 4;\n  add.s64 %rd12, %rd8, %rd11;\n  ld.global.u32 %r7, [%rd12+64];\n"
    /* 3: an atomic on a precomputable address; 4: its result as an index */
    "  mul.wide.u32 %rd30, %r2, 4;\n  add.s64 %rd13, %rd8, %rd30;\n"
    "  atom.global.add.u32 %r9, [%rd13+512], 1;\n"
    "  and.b32 %r10, %r9, 63;\n  mul.wide.u32 %rd14, %r10, 4;\n  add.s64 %rd15, %rd1, %rd14;\n"
    "  ld.global.f32 %f2, [%rd15];\n"
    /* 5: shfl */
    "  shfl.sync.idx.b32 %r11, %r2, 0, 31, -1;\n  mul.wide.u32 %rd16, %r11, 4;\n  add.s64 %rd17, %rd8, %rd16;\n"
    "  ld.global.u32 %r12, [%rd17];\n"
    /* 6: a predicated definition */
    "  @%p1 add.s32 %r13, %r2, 1;\n  mul.wide.u32 %rd18, %r13, 4;\n  add.s64 %rd19, %rd8, %rd18;\n"
    "  ld.global.u32 %r14, [%rd19];\n"
    /* 7: a definition on one side of a branch only */
    "  setp.eq.s32 %p2, %r2, 0;\n  @%p2 bra $SKIP;\n  add.s32 %r15, %r2, 5;\n$SKIP:\n"
    "  mul.wide.u32 %rd20, %r15, 4;\n  add.s64 %rd21, %rd8, %rd20;\n  ld.global.u32 %r16, [%rd21];\n"
    /* 8: floating point */
    "  cvt.rn.f32.u32 %f3, %r2;\n  mul.f32 %f4, %f3, 0f40000000;\n  cvt.rzi.u32.f32 %r17, %f4;\n"
    "  mul.wide.u32 %rd22, %r17, 4;\n  add.s64 %rd23, %rd8, %rd22;\n  st.global.u32 [%rd23+256], %r2;\n"
    /* 9: a variable's address, no register; 10: a variable plus the thread's offset */
    "  ld.global.u32 %r18, [gvar+8];\n"
    "  mov.u64 %rd24, gvar;\n  add.s64 %rd25, %rd24, %rd3;\n  st.global.u32 [%rd25], %r2;\n"
    /* 11: based on two parameters (B - A + A): unknown data array */
    "  sub.s64 %rd26, %rd2, %rd1;\n  add.s64 %rd27, %rd1, %rd26;\n  add.s64 %rd28, %rd27, %rd3;\n"
    "  ld.global.u32 %r19, [%rd28];\n"
    /* 12: a register never written */
    "  mul.wide.u32 %rd29, %r29, 4;\n  add.s64 %rd31, %rd8, %rd29;\n  ld.global.u32 %r20, [%rd31];\n"
    /* 13: a vector load (16 bytes) with the CTA id */
    "  mov.u32 %r21, %ctaid.x;\n  shl.b32 %r22, %r21, 4;\n  add.s32 %r24, %r22, %r2;\n"
    "  mul.wide.u32 %rd32, %r24, 16;\n  add.s64 %rd33, %rd1, %rd32;\n"
    "  ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd33];\n"
    /* 14: a red; 15: a pointer read from B[0..1]; (not listed) a generic load through it */
    "  red.global.add.u32 [%rd13+768], %r2;\n"
    "  ld.global.u64 %rd34, [%rd8];\n  ld.u32 %r8, [%rd34];\n"
    /* 16: signed: a negative parameter, an arithmetic shift and a sign extension */
    "  ld.param.s32 %rd35, [edge_p3];\n  sub.s32 %r25, %r2, 8;\n  cvt.s64.s32 %rd36, %r25;\n"
    "  shl.b64 %rd38, %rd36, 3;\n  shr.s64 %rd40, %rd38, 1;\n  add.s64 %rd37, %rd40, %rd35;\n"
    "  add.s64 %rd39, %rd8, %rd37;\n  ld.global.u32 %r27, [%rd39+1024];\n"
    /* 17: %r30 read (at the first add) before its only definition, which precedes its other reader */
    "  add.s32 %r31, %r30, 1;\n  mov.u32 %r30, %tid.x;\n  add.s32 %r32, %r30, %r31;\n"
    "  mul.wide.u32 %rd41, %r32, 4;\n  add.s64 %rd42, %rd8, %rd41;\n  ld.global.u32 %r33, [%rd42+1280];\n"
    "  ret;\n}\n";

TEST(ptx_slice_reasons_and_arrays)
{
    char err[512];
    PtxModule *m = ptx_module_parse(edge_ptx, "edge.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    PtxSlices *s = slices_of(m, "edge");
    ASSERT(s);
    static const struct { uint8_t kind; uint8_t reason; int array; uint8_t width; } want[] = {
        {PTX_SLICE_LOAD, PTX_SLICE_OK, 0, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_SPECIAL, 1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_OK, 1, 4},
        {PTX_SLICE_ATOMIC, PTX_SLICE_OK, 1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_ATOMIC_RESULT, 0, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_WARP, 1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_GUARDED, 1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_NOT_DOMINATING, 1, 4},
        {PTX_SLICE_STORE, PTX_SLICE_UNSUPPORTED, 1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_OK, -1, 4},
        {PTX_SLICE_STORE, PTX_SLICE_OK, -1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_OK, -1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_UNDEFINED, 1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_OK, 0, 16},
        {PTX_SLICE_ATOMIC, PTX_SLICE_OK, 1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_OK, 1, 8},
        {PTX_SLICE_LOAD, PTX_SLICE_OK, 1, 4},
        {PTX_SLICE_LOAD, PTX_SLICE_NOT_DOMINATING, 1, 4},
    };
    uint32_t n = ptx_slices_count(s);
    EXPECT_EQ_U(n, ARRAY_LEN(want));
    for (uint32_t i = 0; i < n && i < ARRAY_LEN(want); i++) {
        const PtxSliceInfo *a = ptx_slices_info(s, i);
        char what[64];
        snprintf(what, sizeof what, "access %u (line %u): %s", i, a->line, a->why);
        if (a->kind != want[i].kind || a->reason != want[i].reason || a->array_param != want[i].array ||
            a->width_bytes != want[i].width || a->precomputable != (want[i].reason == PTX_SLICE_OK))
            test_fail(__FILE__, __LINE__, what);
    }
    EXPECT(ptx_slices_info(s, 0)->generic);
    EXPECT_CONTAINS(ptx_slices_info(s, 1)->why, "%laneid");
    EXPECT_CONTAINS(ptx_slices_info(s, 5)->why, "shfl");
    EXPECT_CONTAINS(ptx_slices_info(s, 8)->why, "cvt.f32");
    EXPECT_STR(ptx_slices_info(s, 9)->array_name, "gvar");
    EXPECT_EQ_U(ptx_slices_info(s, 9)->slice_insts, 0);
    EXPECT_STR(ptx_slices_info(s, 10)->array_name, "gvar");
    EXPECT(ptx_slices_info(s, 11)->array_name == NULL);
    ptx_slices_free(s);

    PtxMemory *mem = ptx_memory_create();
    uint64_t A = pt_upload(mem, NULL, 4096), B = pt_upload(mem, NULL, 4096);
    ptx_memory_write(mem, B, &A, 8);
    for (int k = 0; k < 2; k++) { /* n above and below 8: selp both ways */
        Launch L = {{2, 1, 1}, {16, 1, 1}, {A, B, k ? 3u : 20u, (uint32_t)-4}, 4};
        Seen seen;
        ASSERT(check_against_interpreter(m, mem, "edge", &L, &seen));
        EXPECT_EQ_U(seen.unlisted, 2); /* the generic load through a loaded pointer, once per CTA */
        EXPECT_EQ_U(seen.mismatches, 0);
        EXPECT_EQ_U(seen.compared, 32 * 10); /* accesses 0, 2, 3, 9, 10, 11, 13, 14, 15, 16 */
    }
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_slice_errors)
{
    PtxModule *m = pt_load("slices.ptx");
    ASSERT(m);
    char err[256] = "";
    PtxKernelInfo other = *ptx_module_kernel(m, "rowmajor");
    EXPECT(ptx_slices_build(m, &other, err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "not a kernel of this module");
    EXPECT(ptx_slices_build(m, NULL, err, sizeof err) == NULL);
    ptx_module_free(m);
}

TEST(ptx_slice_cli_report)
{
    char cmd[512], out[8192];
    snprintf(cmd, sizeof cmd, "%s slices tests/ptx/slices.ptx --kernel loopind", test_warpsim());
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "kernel loopind: 8 global accesses, 2 precomputable");
    EXPECT_CONTAINS(out, "loopind_param_2");
    EXPECT_CONTAINS(out, "data-dependent (value loaded from memory): line 209");
    EXPECT_CONTAINS(out, "loop-carried or path-dependent register");
    snprintf(cmd, sizeof cmd, "%s slices tests/ptx/slices.ptx", test_warpsim());
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "kernel rowmajor: 2 global accesses, 2 precomputable");
    EXPECT_CONTAINS(out, "kernel devarray: 2 global accesses, 2 precomputable");
    EXPECT_CONTAINS(out, "table");
    snprintf(cmd, sizeof cmd, "%s slices tests/ptx/slices.ptx --kernel nosuch", test_warpsim());
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 1);
    EXPECT_CONTAINS(out, "no kernel named 'nosuch' (it has: rowmajor vec1d");
    snprintf(cmd, sizeof cmd, "%s slices /nonexistent.ptx", test_warpsim());
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 1);
    snprintf(cmd, sizeof cmd, "%s slices", test_warpsim());
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 1);
    EXPECT_CONTAINS(out, "usage: warpsim slices");
}
