/* test_ptx_regalloc.c: the storage slots of ptx_regalloc.c. Registers whose live ranges do not
 * overlap share a slot; values survive loops, divergent paths and guarded writes; what a lane
 * could read beyond its own path (a register read before any write, shfl's operands) keeps a
 * slot of its own; wmma's fragments share slots. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "front/ptx/ptx_ir.h"
#include "front/ptx/ptx_mem.h"

#include <stdlib.h>

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static PtxModule *parse(const char *text)
{
    char err[512];
    PtxModule *m = ptx_module_parse(text, "regalloc.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    return m;
}

/* The slot the interpreter uses for virtual register r (from the instructions naming it), or
 * UINT32_MAX; *n_sharing: how many virtual registers share that slot. */
static uint32_t slot_of(const PtxModule *m, uint16_t r, unsigned *n_sharing)
{
    uint32_t *slot_of_reg = malloc(m->n_regs * sizeof *slot_of_reg);
    for (uint32_t i = 0; i < m->n_regs; i++)
        slot_of_reg[i] = UINT32_MAX;
    for (uint32_t i = 0; i < m->n_insts; i++) {
        const PtxInst *v = &m->insts[i], *x = &m->xinsts[i];
        if (v->guard != PTX_NO_REG)
            slot_of_reg[v->guard] = x->guard;
        for (unsigned j = 0; j < v->n_ops; j++) {
            const PtxOperand *a = &v->o[j], *b = &x->o[j];
            if ((a->kind == OK_REG || a->kind == OK_ADDR) && a->reg != PTX_NO_REG)
                slot_of_reg[a->reg] = b->reg;
            else if (a->kind == OK_VEC)
                for (unsigned k = 0; k < a->n; k++)
                    if (a->vreg[k] != PTX_NO_REG)
                        slot_of_reg[a->vreg[k]] = b->vreg[k];
        }
    }
    uint32_t s = slot_of_reg[r];
    *n_sharing = 0;
    for (uint32_t i = 0; i < m->n_regs; i++)
        *n_sharing += s != UINT32_MAX && slot_of_reg[i] == s;
    free(slot_of_reg);
    return s;
}

/* Run kernel (one parameter: the output) in one CTA of threads; its output's bytes into out. */
static bool run_one(const PtxModule *m, const char *kernel, uint32_t threads, void *out, size_t bytes)
{
    PtxMemory *mem = ptx_memory_create();
    uint64_t o = pt_upload(mem, NULL, bytes);
    uint64_t args[1] = {o};
    PtxRunStats st;
    bool ok = pt_run(m, mem, kernel, 1, 1, 1, threads, 1, 1, 0, args, 1, &st);
    ptx_memory_read(mem, o, out, bytes);
    ptx_memory_destroy(mem);
    return ok;
}

/* A chain of 40 temporaries, each read once by the next: two slots carry it. */
static const char chain_ptx[] = HDR
    ".visible .entry chain(.param .u64 p_out)\n{\n"
    "  .reg .b32 %r<42>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p_out];\n  mov.u32 %r1, %tid.x;\n"
    "  add.s32 %r2, %r1, 1;\n  add.s32 %r3, %r2, 1;\n  add.s32 %r4, %r3, 1;\n  add.s32 %r5, %r4, 1;\n"
    "  add.s32 %r6, %r5, 1;\n  add.s32 %r7, %r6, 1;\n  add.s32 %r8, %r7, 1;\n  add.s32 %r9, %r8, 1;\n"
    "  add.s32 %r10, %r9, 1;\n  add.s32 %r11, %r10, 1;\n  add.s32 %r12, %r11, 1;\n  add.s32 %r13, %r12, 1;\n"
    "  add.s32 %r14, %r13, 1;\n  add.s32 %r15, %r14, 1;\n  add.s32 %r16, %r15, 1;\n  add.s32 %r17, %r16, 1;\n"
    "  add.s32 %r18, %r17, 1;\n  add.s32 %r19, %r18, 1;\n  add.s32 %r20, %r19, 1;\n  add.s32 %r21, %r20, 1;\n"
    "  add.s32 %r22, %r21, 1;\n  add.s32 %r23, %r22, 1;\n  add.s32 %r24, %r23, 1;\n  add.s32 %r25, %r24, 1;\n"
    "  add.s32 %r26, %r25, 1;\n  add.s32 %r27, %r26, 1;\n  add.s32 %r28, %r27, 1;\n  add.s32 %r29, %r28, 1;\n"
    "  add.s32 %r30, %r29, 1;\n  add.s32 %r31, %r30, 1;\n  add.s32 %r32, %r31, 1;\n  add.s32 %r33, %r32, 1;\n"
    "  add.s32 %r34, %r33, 1;\n  add.s32 %r35, %r34, 1;\n  add.s32 %r36, %r35, 1;\n  add.s32 %r37, %r36, 1;\n"
    "  add.s32 %r38, %r37, 1;\n  add.s32 %r39, %r38, 1;\n  add.s32 %r40, %r39, 1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r40;\n"
    "  ret;\n}\n";

TEST(ptx_regalloc_chain_shares_slots)
{
    PtxModule *m = parse(chain_ptx);
    ASSERT(m);
    /* %r1 (tid, live to the end), %rd1 (the output, live to the end), and the chain's two
     * alternating slots; %rd2 and %rd3 take slots whose values have died. 4 slots for the 44
     * registers the kernel names. */
    EXPECT_EQ_U(m->n_slots - SR_COUNT, 4);
    EXPECT_EQ_U(m->n_regs - SR_COUNT, 42 + 4);
    uint32_t got[64];
    EXPECT(run_one(m, "chain", 64, got, sizeof got));
    for (uint32_t i = 0; i < 64; i++)
        EXPECT_EQ_U(got[i], i + 39);
    ptx_module_free(m);
}

/* Values that must survive: around a loop (%r10, the sum, beside the body's temporaries), over
 * a divergent if/else (%r20, defined before it, read after the join), through a guarded write
 * (%r30 keeps 100 where %p2 is false, while temporaries come and go before the write); and
 * %r49, never written, reads as zero beside them all. */
static const char live_ptx[] = HDR
    ".visible .entry live(.param .u64 p_out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<52>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p_out];\n  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r10, 0;\n  mov.u32 %r11, 0;\n"
    "L_loop:\n  mul.lo.s32 %r12, %r11, 3;\n  add.s32 %r13, %r12, %r1;\n  add.s32 %r10, %r10, %r13;\n"
    "  add.s32 %r11, %r11, 1;\n  setp.lt.u32 %p1, %r11, 5;\n  @%p1 bra L_loop;\n"
    "  mul.lo.s32 %r20, %r1, 7;\n  and.b32 %r21, %r1, 1;\n  setp.eq.u32 %p3, %r21, 0;\n"
    "  @%p3 bra L_even;\n"
    "  add.s32 %r22, %r1, 1000;\n  mul.lo.s32 %r23, %r22, 2;\n  bra.uni L_join;\n"
    "L_even:\n  add.s32 %r24, %r1, 2000;\n  mul.lo.s32 %r23, %r24, 3;\n"
    "L_join:\n  add.s32 %r25, %r23, %r20;\n"
    "  mov.u32 %r30, 100;\n  add.s32 %r34, %r1, 3;\n  mul.lo.s32 %r35, %r34, 2;\n  add.s32 %r36, %r35, 1;\n"
    "  setp.lt.u32 %p2, %r36, 39;\n  add.s32 %r31, %r1, 5;\n"
    "  @%p2 mov.u32 %r30, 200;\n  add.s32 %r32, %r31, %r31;\n  add.s32 %r33, %r32, 1;\n"
    "  add.s32 %r40, %r49, 7;\n"
    "  mul.wide.u32 %rd2, %r1, 16;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.v4.u32 [%rd3], {%r10, %r25, %r30, %r40};\n"
    "  st.global.u32 [%rd3+1024], %r33;\n"
    "  ret;\n}\n";

TEST(ptx_regalloc_keeps_live_values)
{
    PtxModule *m = parse(live_ptx);
    ASSERT(m);
    unsigned n;
    slot_of(m, (uint16_t)(m->funcs[0].reg_base + 4 + 49), &n); /* %r49: the .pred decl comes first */
    EXPECT_EQ_U(n, 1);
    EXPECT(m->n_slots < m->n_regs);
    uint32_t got[512];
    EXPECT(run_one(m, "live", 64, got, sizeof got));
    for (uint32_t i = 0; i < 64; i++) {
        EXPECT_EQ_U(got[i * 4 + 0], 5 * i + 30);
        EXPECT_EQ_U(got[i * 4 + 1], (i & 1 ? (i + 1000) * 2 : (i + 2000) * 3) + 7 * i);
        EXPECT_EQ_U(got[i * 4 + 2], i < 16 ? 200 : 100);
        EXPECT_EQ_U(got[i * 4 + 3], 7);
        EXPECT_EQ_U(got[256 + 4 * i], 2 * (i + 5) + 1);
    }
    ptx_module_free(m);
}

/* shfl reads other lanes' registers, which their own paths may have left: its operands keep
 * slots of their own, while the temporaries around it share. */
static const char shfl_ptx[] = HDR
    ".visible .entry sh(.param .u64 p_out)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p_out];\n  mov.u32 %r1, %tid.x;\n"
    "  add.s32 %r2, %r1, 1;\n  mul.lo.s32 %r3, %r2, 2;\n  add.s32 %r4, %r3, 1;\n"
    "  shfl.sync.down.b32 %r5, %r4, 1, 31, -1;\n"
    "  add.s32 %r6, %r5, 1;\n  mul.lo.s32 %r7, %r6, 3;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r7;\n"
    "  ret;\n}\n";

TEST(ptx_regalloc_pins_shfl_operands)
{
    PtxModule *m = parse(shfl_ptx);
    ASSERT(m);
    uint16_t base = (uint16_t)m->funcs[0].reg_base;
    unsigned n4, n5, n3;
    slot_of(m, (uint16_t)(base + 4), &n4);
    slot_of(m, (uint16_t)(base + 5), &n5);
    slot_of(m, (uint16_t)(base + 3), &n3);
    EXPECT_EQ_U(n4, 1);
    EXPECT_EQ_U(n5, 1);
    EXPECT(n3 > 1); /* %r3 dies at %r4's definition: a later temporary takes its slot */
    uint32_t got[32];
    EXPECT(run_one(m, "sh", 32, got, sizeof got));
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t src = i < 31 ? i + 1 : i;
        EXPECT_EQ_U(got[i], ((src + 1) * 2 + 1 + 1) * 3);
    }
    ptx_module_free(m);
}

/* Two tensor-core products one after the other (f16 a and b, f32 c and d; d = 16 everywhere,
 * then d2 = d + 2 x 16 = 48): wmma reads and writes every lane, but only with all 32 active,
 * so its fragments share slots like any register (the second product's inputs take the
 * first's, dead by then), and the values come out as with a slot each. */
static const char wmma_ptx[] = ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry wm(.param .u64 p_out)\n{\n"
    "  .reg .b32 %r<33>;\n  .reg .f32 %f<25>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p_out];\n  mov.b32 %r1, 0x3C003C00;\n  mov.b32 %r2, 0x3C003C00;\n"
    "  mov.b32 %r3, 0x3C003C00;\n  mov.b32 %r4, 0x3C003C00;\n  mov.b32 %r5, 0x3C003C00;\n"
    "  mov.b32 %r6, 0x3C003C00;\n  mov.b32 %r7, 0x3C003C00;\n  mov.b32 %r8, 0x3C003C00;\n"
    "  mov.b32 %r9, 0x3C003C00;\n  mov.b32 %r10, 0x3C003C00;\n  mov.b32 %r11, 0x3C003C00;\n"
    "  mov.b32 %r12, 0x3C003C00;\n  mov.b32 %r13, 0x3C003C00;\n  mov.b32 %r14, 0x3C003C00;\n"
    "  mov.b32 %r15, 0x3C003C00;\n  mov.b32 %r16, 0x3C003C00;\n  mov.f32 %f1, 0f00000000;\n"
    "  mov.f32 %f2, 0f00000000;\n  mov.f32 %f3, 0f00000000;\n  mov.f32 %f4, 0f00000000;\n"
    "  mov.f32 %f5, 0f00000000;\n  mov.f32 %f6, 0f00000000;\n  mov.f32 %f7, 0f00000000;\n"
    "  mov.f32 %f8, 0f00000000;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"
    "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16}, 16;\n"
    "  mov.b32 %r17, 0x40004000;\n  mov.b32 %r18, 0x40004000;\n  mov.b32 %r19, 0x40004000;\n"
    "  mov.b32 %r20, 0x40004000;\n  mov.b32 %r21, 0x40004000;\n  mov.b32 %r22, 0x40004000;\n"
    "  mov.b32 %r23, 0x40004000;\n  mov.b32 %r24, 0x40004000;\n  mov.b32 %r25, 0x3C003C00;\n"
    "  mov.b32 %r26, 0x3C003C00;\n  mov.b32 %r27, 0x3C003C00;\n  mov.b32 %r28, 0x3C003C00;\n"
    "  mov.b32 %r29, 0x3C003C00;\n  mov.b32 %r30, 0x3C003C00;\n  mov.b32 %r31, 0x3C003C00;\n"
    "  mov.b32 %r32, 0x3C003C00;\n"
    "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f17,%f18,%f19,%f20,%f21,%f22,%f23,%f24}, {%r17,%r18,%r19,%r20,%r21,%r22,%r23,%r24}, {%r25,%r26,%r27,%r28,%r29,%r30,%r31,%r32}, {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16};\n"
    "  add.s64 %rd2, %rd1, 1024;\n"
    "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f17,%f18,%f19,%f20,%f21,%f22,%f23,%f24}, 16;\n"
    "  ret;\n"
    "}\n";

TEST(ptx_regalloc_shares_wmma_fragments)
{
    PtxModule *m = parse(wmma_ptx);
    ASSERT(m);
    uint16_t base = (uint16_t)m->funcs[0].reg_base; /* %r<n> is base + n: %r first, from 0 */
    unsigned n17;
    slot_of(m, (uint16_t)(base + 17), &n17);
    EXPECT(n17 > 1);
    float got[512];
    EXPECT(run_one(m, "wm", 32, got, sizeof got));
    unsigned wrong = 0;
    for (unsigned i = 0; i < 512; i++)
        wrong += got[i] != (i < 256 ? 16.0f : 48.0f);
    EXPECT_EQ_U(wrong, 0);
    ptx_module_free(m);
}
