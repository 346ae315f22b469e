/* test_ptx_fast.c: the pre-decoded full-warp forms of ptx_fast.c (ld.shared of 32-bit elements,
 * fma.rn.f32, integer add, and, or, xor, shl, shr, cvt and setp), the vector fma of ptx_alu.c
 * and the full-warp guard give what the general paths give. As in test_ptx_lanes.c, the same
 * kernel runs as a full warp (32 threads: the fast forms) and as a partial one (31: the general
 * paths); lanes 0-30 must agree, and every lane must agree with the C computation. An access
 * that faults must fault with the same message either way. The shared load reads a group of
 * eight lanes whose addresses are one word, or eight consecutive words, as one vector: tables of
 * addresses hold every kind of group to the same. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "front/ptx/ptx_alu.h"
#include "front/ptx/ptx_fast.h"
#include "front/ptx/ptx_mem.h"

#include <math.h>
#include <string.h>

enum { FV = 48 };

static const char fast_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry fast(.param .u64 p_in, .param .u64 p_out)\n{\n"
    "  .reg .pred %p<10>;\n  .reg .b32 %r<40>;\n  .reg .f32 %f<20>;\n  .reg .b64 %rd<12>;\n"
    "  .shared .align 16 .b8 sh[512];\n"
    "  ld.param.u64 %rd1, [p_in];\n  ld.param.u64 %rd2, [p_out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 16;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
    "  mov.u32 %r6, sh;\n  shl.b32 %r7, %r1, 4;\n  add.s32 %r8, %r6, %r7;\n"
    "  st.shared.v4.u32 [%r8], {%r2, %r3, %r4, %r5};\n  bar.sync 0;\n"
    /* each lane reads another lane's row, one of the first 31: (7 tid + 3) mod 31 */
    "  mad.lo.u32 %r9, %r1, 7, 3;\n  rem.u32 %r9, %r9, 31;\n  shl.b32 %r10, %r9, 4;\n  add.s32 %r11, %r6, %r10;\n"
    "  ld.shared.u32 %r12, [%r11];\n  ld.shared.s32 %rd5, [%r11+4];\n  ld.shared.f32 %f1, [%r11+8];\n"
    "  ld.shared.v2.u32 {%r13, %r14}, [%r11+8];\n  ld.shared.v4.f32 {%f2, %f3, %f4, %f5}, [%r11];\n"
    "  ld.shared.v4.s32 {%r15, %r16, %r17, %r18}, [%r11];\n  mov.u32 %r19, %r11;\n"
    "  ld.shared.u32 %r19, [%r19+12];\n"
    "  fma.rn.f32 %f6, %f2, %f3, %f4;\n  fma.rn.f32 %f7, %f6, 0f40490FDB, %f5;\n"
    "  mad.rn.f32 %f8, %f3, %f4, %f2;\n  fma.rn.f32 %f9, %f5, %f5, %f5;\n"
    "  fma.rn.f32 %f5, %f5, %f4, %f5;\n"
    "  mov.u32 %r20, 7;\n  mov.u32 %r21, 9;\n  setp.lt.u32 %p1, %r1, 20;\n"
    "  @%p1 add.s32 %r20, %r12, 1;\n  @!%p1 add.s32 %r21, %r12, 2;\n"
    "  add.s32 %r22, %r12, %r13;\n  add.s32 %r23, %r12, -5;\n  and.b32 %r24, %r12, 16773120;\n"
    "  or.b32 %r25, %r13, %r14;\n  shl.b32 %r26, %r12, 5;\n  shl.b32 %r27, %r12, 31;\n"
    "  add.s64 %rd8, %rd5, %rd5;\n  add.u64 %rd9, %rd5, 4294967295;\n  cvt.s64.s32 %rd10, %r12;\n"
    "  cvt.u64.u32 %rd11, %r12;\n  xor.b32 %r34, %r12, %r13;\n  shr.u32 %r35, %r12, 7;\n"
    "  shr.s32 %r36, %r12, 9;\n  shr.b32 %r37, %r13, 31;\n"
    "  setp.lt.s32 %p2|%p3, %r12, %r13;\n  setp.ge.u64 %p4, %rd5, %rd10;\n  setp.gt.s32 %p5, %r12, -100;\n"
    "  setp.ne.s64 %p6, %rd5, %rd10;\n  setp.ls.u32 %p7, %r12, %r13;\n  selp.u32 %r28, 1, 0, %p2;\n"
    "  selp.u32 %r29, 1, 0, %p3;\n  selp.u32 %r30, 1, 0, %p4;\n  selp.u32 %r31, 1, 0, %p5;\n"
    "  selp.u32 %r32, 1, 0, %p6;\n  selp.u32 %r33, 1, 0, %p7;\n"
    "  mul.wide.u32 %rd6, %r1, 192;\n  add.s64 %rd7, %rd2, %rd6;\n"
    "  st.global.v4.u32 [%rd7], {%r12, %r13, %r14, %r15};\n"
    "  st.global.v4.u32 [%rd7+16], {%r16, %r17, %r18, %r19};\n"
    "  st.global.u64 [%rd7+32], %rd5;\n  st.global.v2.f32 [%rd7+40], {%f1, %f2};\n"
    "  st.global.v4.f32 [%rd7+48], {%f3, %f4, %f5, %f6};\n"
    "  st.global.v4.f32 [%rd7+64], {%f7, %f8, %f9, %f9};\n"
    "  st.global.v4.u32 [%rd7+80], {%r20, %r21, %r20, %r21};\n"
    "  st.global.v4.u32 [%rd7+96], {%r22, %r23, %r24, %r25};\n"
    "  st.global.v4.u32 [%rd7+112], {%r26, %r27, %r28, %r29};\n"
    "  st.global.v2.u64 [%rd7+128], {%rd8, %rd9};\n  st.global.v2.u64 [%rd7+144], {%rd10, %rd11};\n"
    "  st.global.v4.u32 [%rd7+160], {%r30, %r31, %r32, %r33};\n"
    "  st.global.v4.u32 [%rd7+176], {%r34, %r35, %r36, %r37};\n"
    "  ret;\n}\n"
    /* lane 5 reads p_off bytes past its word (of 4 bytes, or of 16 with the vector load) */
    ".visible .entry bad(.param .u32 p_off, .param .u32 p_vec)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .shared .align 16 .b8 sb[512];\n"
    "  ld.param.u32 %r1, [p_off];\n  ld.param.u32 %r2, [p_vec];\n  mov.u32 %r3, %tid.x;\n"
    "  mov.u32 %r4, sb;\n  shl.b32 %r5, %r3, 2;\n  add.s32 %r6, %r4, %r5;\n"
    "  setp.eq.u32 %p1, %r3, 5;\n  selp.b32 %r7, %r1, 0, %p1;\n  add.s32 %r8, %r6, %r7;\n"
    "  setp.ne.u32 %p2, %r2, 0;\n  @%p2 bra VEC;\n  ld.shared.u32 %r9, [%r8];\n  ret;\n"
    "VEC:\n  shl.b32 %r10, %r3, 4;\n  add.s32 %r11, %r4, %r10;\n  add.s32 %r12, %r11, %r7;\n"
    "  ld.shared.v4.u32 {%r13, %r14, %r15, %r16}, [%r12];\n  ret;\n}\n";

/* Input word i (4 per row): normal floats of both signs, and in the rows that lanes 8-15 and
 * 24-27 read (mask 0x52858952) special values (NaNs, infinities, zeros, subnormals) that take
 * fma's per-lane NaN rule; lanes 0-7 and 16-23 see none, so their eight-lane groups stay on the
 * vector path. */
static uint32_t input_word(uint32_t i)
{
    static const uint32_t special[8] = {0x7fc00001u, 0x7f800001u, 0x7f800000u, 0xff800000u,
                                        0x00000001u, 0x80000000u, 0x00000000u, 0xffc00002u};
    uint32_t row = i / 4, h = i * 0x9E3779B1u;
    if ((0x52858952u >> row & 1) && (h >> 29) < 5)
        return special[(h >> 8) % 8];
    return (h & 0x80000000u) | (0x3c000000u + (h >> 4 & 0x03ffffffu)); /* about 2^-7 .. 2^4 */
}

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* fma as the interpreter defines it: a NaN result is the first NaN operand, quieted. */
static uint32_t fma_ref(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r = pt_f2u(fmaf(u2f(a), u2f(b), u2f(c)));
    if ((r & 0x7fffffffu) <= 0x7f800000u)
        return r;
    const uint32_t ops[3] = {a, b, c};
    for (unsigned k = 0; k < 3; k++)
        if ((ops[k] & 0x7fffffffu) > 0x7f800000u)
            return ops[k] | 0x00400000u;
    return r;
}

static bool run_fast(const PtxModule *m, uint32_t threads, uint32_t *out)
{
    PtxMemory *mem = ptx_memory_create();
    uint32_t in[128];
    for (uint32_t i = 0; i < 128; i++)
        in[i] = input_word(i);
    uint64_t a = pt_upload(mem, in, sizeof in), o = pt_upload(mem, NULL, 32 * FV * 4);
    uint64_t args[2] = {a, o};
    PtxRunStats st;
    bool ok = pt_run(m, mem, "fast", 1, 1, 1, threads, 1, 1, 0, args, 2, &st);
    ptx_memory_read(mem, o, out, 32 * FV * 4);
    ptx_memory_destroy(mem);
    return ok;
}

TEST(ptx_fast_forms_match_general_paths)
{
    char err[512];
    PtxModule *m = ptx_module_parse(fast_ptx, "fast.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    unsigned n[PTX_FAST_COUNT] = {0};
    for (uint32_t i = 0; i < m->n_insts; i++)
        n[m->xinsts[i].fast]++;
    if (ptx_host_fma()) { /* an AVX2 host: every form is in use (the test tests them) */
        EXPECT_EQ_U(n[PTX_FAST_LD_SHARED32], 9);
        EXPECT_EQ_U(n[PTX_FAST_FMA32], 5);
        for (unsigned k = PTX_FAST_ADD32; k < PTX_FAST_COUNT; k++)
            EXPECT(n[k] >= 1);
    }
    static uint32_t full[32 * FV], part[32 * FV];
    EXPECT(run_fast(m, 32, full));
    EXPECT(run_fast(m, 31, part));
    for (uint32_t t = 0; t < 31; t++)
        for (uint32_t k = 0; k < FV; k++)
            EXPECT_EQ_U(full[t * FV + k], part[t * FV + k]);
    for (uint32_t t = 0; t < 32; t++) {
        const uint32_t *v = &full[t * FV];
        uint32_t s = (7 * t + 3) % 31, w0 = input_word(4 * s), w1 = input_word(4 * s + 1);
        uint32_t w2 = input_word(4 * s + 2), w3 = input_word(4 * s + 3);
        EXPECT_EQ_U(v[0], w0);
        EXPECT_EQ_U(v[1], w2);
        EXPECT_EQ_U(v[2], w3);
        EXPECT_EQ_U(v[3], w0);
        EXPECT_EQ_U(v[4], w1);
        EXPECT_EQ_U(v[5], w2);
        EXPECT_EQ_U(v[6], w3);
        EXPECT_EQ_U(v[7], w3); /* the base register overwritten by its own load */
        EXPECT_EQ_U(v[8], w1); /* ld.s32 into 64 bits: sign-extended */
        EXPECT_EQ_U(v[9], (w1 >> 31) ? 0xffffffffu : 0);
        EXPECT_EQ_U(v[10], w2);
        EXPECT_EQ_U(v[11], w0);
        EXPECT_EQ_U(v[12], w1);
        EXPECT_EQ_U(v[13], w2);
        EXPECT_EQ_U(v[14], fma_ref(w3, w2, w3));
        uint32_t f6 = fma_ref(w0, w1, w2);
        EXPECT_EQ_U(v[15], f6);
        EXPECT_EQ_U(v[16], fma_ref(f6, 0x40490FDBu, w3));
        EXPECT_EQ_U(v[17], fma_ref(w1, w2, w0));
        EXPECT_EQ_U(v[18], fma_ref(w3, w3, w3));
        EXPECT_EQ_U(v[20], t < 20 ? w0 + 1 : 7);
        EXPECT_EQ_U(v[21], t < 20 ? 9 : w0 + 2);
        EXPECT_EQ_U(v[24], w0 + w2);
        EXPECT_EQ_U(v[25], w0 - 5);
        EXPECT_EQ_U(v[26], w0 & 0xFFF000u);
        EXPECT_EQ_U(v[27], w2 | w3);
        EXPECT_EQ_U(v[28], w0 << 5);
        EXPECT_EQ_U(v[29], w0 << 31);
        uint64_t s1 = (uint64_t)(int64_t)(int32_t)w1, r8 = 2 * s1, r9 = s1 + 0xFFFFFFFFu;
        uint64_t r10 = (uint64_t)(int64_t)(int32_t)w0;
        EXPECT_EQ_U(v[32] | (uint64_t)v[33] << 32, r8);
        EXPECT_EQ_U(v[34] | (uint64_t)v[35] << 32, r9);
        EXPECT_EQ_U(v[36] | (uint64_t)v[37] << 32, r10);
        EXPECT_EQ_U(v[38] | (uint64_t)v[39] << 32, w0);
        EXPECT_EQ_U(v[30], (int32_t)w0 < (int32_t)w2);
        EXPECT_EQ_U(v[31], !((int32_t)w0 < (int32_t)w2));
        EXPECT_EQ_U(v[40], s1 >= r10);
        EXPECT_EQ_U(v[41], (int32_t)w0 > -100);
        EXPECT_EQ_U(v[42], s1 != r10);
        EXPECT_EQ_U(v[43], w0 <= w2);
        EXPECT_EQ_U(v[44], w0 ^ w2);
        EXPECT_EQ_U(v[45], w0 >> 7);
        EXPECT_EQ_U(v[46], (uint32_t)((int32_t)w0 >> 9));
        EXPECT_EQ_U(v[47], w2 >> 31);
    }
    ptx_module_free(m);
}

/* Operand code c of a compact record (PtxRec) names o: its register's slot offset, its
 * immediate's row of imm_lanes (which holds its value), or PTX_REC_OP. */
static bool rec_names(const PtxModule *m, uint32_t c, const PtxOperand *o)
{
    if (o->kind == OK_REG && o->reg != PTX_NO_REG && !o->n)
        return c == (uint32_t)o->reg * WARP_SIZE;
    if (o->lanes)
        return c == (PTX_REC_IMM | (uint32_t)(o->lanes - 1)) && m->imm_lanes[o->lanes - 1][0] == o->imm &&
               m->imm_lanes[o->lanes - 1][WARP_SIZE - 1] == o->imm;
    return c == PTX_REC_OP;
}

/* The compact records beside xinsts hold what the run and the forms read of each instruction:
 * the same marks, guard, shift, comparison, vector and signedness, the operands' slots. */
TEST(ptx_fast_records_match_instructions)
{
    char err[512];
    PtxModule *m = ptx_module_parse(fast_ptx, "fast.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    EXPECT_EQ_U(sizeof(PtxRec), 32);
    EXPECT_EQ_U((uintptr_t)m->xrec % 64, 0);
    unsigned checked = 0, imms = 0, guarded = 0;
    for (uint32_t i = 0; i < m->n_insts; i++) {
        const PtxInst *in = &m->xinsts[i];
        const PtxRec *r = &m->xrec[i];
        EXPECT_EQ_U(r->run, in->run);
        EXPECT_EQ_U(r->fast, in->fast);
        EXPECT_EQ_U(r->guard, in->guard);
        EXPECT_EQ_U(!!(r->bits & PTX_REC_GUARD_NEG), !!(in->flags & PF_GUARD_NEG));
        guarded += in->guard != PTX_NO_REG && in->fast;
        if (in->op == OP_BRA)
            EXPECT_EQ_U(r->target, (uint32_t)in->o[0].imm);
        if (!in->fast)
            continue;
        checked++;
        switch (in->fast) {
        case PTX_FAST_LD_SHARED32:
            EXPECT_EQ_U(r->aux, in->vec);
            EXPECT_EQ_U(!!(r->bits & PTX_REC_SIGNED), ptx_type_signed(in->type));
            EXPECT_EQ_U(r->sym, in->o[1].sym);
            EXPECT_EQ_U(r->ld.base, (uint32_t)in->o[1].reg * WARP_SIZE);
            EXPECT_EQ_U(r->ld.disp, (uint32_t)in->o[1].imm);
            for (unsigned e = 0; e < in->vec; e++)
                EXPECT_EQ_U(r->ld.d[e], (uint32_t)(in->vec == 1 ? in->o[0].reg : in->o[0].vreg[e]) * WARP_SIZE);
            break;
        case PTX_FAST_SETP: {
            const bool ordered = in->mode == CMP_LT || in->mode == CMP_LE || in->mode == CMP_GT || in->mode == CMP_GE;
            EXPECT_EQ_U(r->aux, in->mode);
            EXPECT_EQ_U(!!(r->bits & PTX_REC_SIGNED), ordered && ptx_type_signed(in->type));
            EXPECT_EQ_U(!!(r->bits & PTX_REC_WIDE), ptx_type_bytes(in->type) == 8);
            EXPECT_EQ_U(r->alu.d, (uint32_t)in->o[0].reg * WARP_SIZE);
            if (in->o[1].kind == OK_REG && in->o[1].reg != PTX_NO_REG)
                EXPECT_EQ_U(r->alu.q, (uint32_t)in->o[1].reg * WARP_SIZE);
            else
                EXPECT_EQ_U(r->alu.q, PTX_REC_NONE);
            EXPECT(rec_names(m, r->alu.a, &in->o[2]));
            EXPECT(rec_names(m, r->alu.b, &in->o[3]));
            imms += in->o[3].kind == OK_IMM;
            break;
        }
        case PTX_FAST_FMA32:
            EXPECT_EQ_U(r->alu.d, (uint32_t)in->o[0].reg * WARP_SIZE);
            for (unsigned k = 1; k < 4; k++)
                EXPECT(rec_names(m, k == 1 ? r->alu.a : k == 2 ? r->alu.b : r->alu.c, &in->o[k]));
            break;
        default:
            EXPECT_EQ_U(r->alu.d, (uint32_t)in->o[0].reg * WARP_SIZE);
            EXPECT(rec_names(m, r->alu.a, &in->o[1]));
            if (in->n_ops > 2) {
                EXPECT(rec_names(m, r->alu.b, &in->o[2]));
                imms += in->o[2].kind == OK_IMM;
            } else {
                EXPECT_EQ_U(r->alu.b, PTX_REC_NONE);
            }
            if (in->fast == PTX_FAST_SHL32 || in->fast == PTX_FAST_SHR32)
                EXPECT_EQ_U(r->aux, (uint32_t)(in->o[2].imm & 31));
            if (in->fast == PTX_FAST_SHR32)
                EXPECT_EQ_U(!!(r->bits & PTX_REC_SIGNED), ptx_type_signed(in->type));
            if (in->fast == PTX_FAST_CVT32TO64)
                EXPECT_EQ_U(!!(r->bits & PTX_REC_SIGNED), ptx_type_signed(in->type2));
            break;
        }
    }
    if (ptx_host_fma()) { /* an AVX2 host: the forms, some with immediates, some guarded */
        EXPECT(checked >= 20);
        EXPECT(imms >= 3);
        EXPECT(guarded >= 1);
    }
    ptx_module_free(m);
}

/* The error of kernel bad run with threads threads (empty: it ran without one). */
static void run_bad(const PtxModule *m, uint32_t threads, uint32_t off, uint32_t vec, char *err, size_t len)
{
    PtxMemory *mem = ptx_memory_create();
    uint8_t buf[8];
    memcpy(buf, &off, 4);
    memcpy(buf + 4, &vec, 4);
    uint32_t grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    err[0] = 0;
    PtxLaunch *l = ptx_launch_create(m, "bad", grid, block, 0, buf, sizeof buf, mem, err, len);
    if (l) {
        PtxRunStats st;
        if (ptx_run_kernel(l, &st, err, len))
            err[0] = 0;
        ptx_launch_destroy(l);
    }
    ptx_memory_destroy(mem);
}

TEST(ptx_fast_faults_as_general_path)
{
    char err[512];
    PtxModule *m = ptx_module_parse(fast_ptx, "fast.ptx", err, sizeof err);
    ASSERT(m);
    static const struct { uint32_t off, vec; const char *want; } cases[] = {
        {0, 0, NULL},
        {0, 1, NULL},
        {2, 0, "misaligned address: 4-byte load at shared offset 0x16"},
        {8, 1, "misaligned address: 16-byte load at shared offset 0x58"},
        {4096, 0, "illegal address: 4-byte load at shared offset 0x1014"},
        {496, 1, "illegal address: 16-byte load at shared offset 0x240"},
        {0xfffffffcu, 0, NULL}, /* wraps at 2^32: the word before its own */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char full[512], part[512];
        run_bad(m, 32, cases[c].off, cases[c].vec, full, sizeof full);
        run_bad(m, 31, cases[c].off, cases[c].vec, part, sizeof part);
        EXPECT_STR(full, part);
        if (cases[c].want)
            EXPECT_CONTAINS(full, cases[c].want);
        else
            EXPECT_STR(full, "");
    }
    ptx_module_free(m);
}

/* Each lane reads word w = table[tid] of a 64-word shared array (sh[w] = input word w) as u32,
 * as s32 into 64 bits, and reads the 16-byte and 8-byte vectors at 16 (w & 15) and 8 (w & 31). */
static const char grp_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry grp(.param .u64 p_in, .param .u64 p_tab, .param .u64 p_out)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<16>;\n"
    "  .shared .align 16 .b8 sh[256];\n"
    "  ld.param.u64 %rd1, [p_in];\n  ld.param.u64 %rd2, [p_tab];\n  ld.param.u64 %rd3, [p_out];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, sh;\n"
    /* threads t fill words t, t + 31 and (t < 2) t + 62: all 64 by 31 threads or 32 */
    "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd1, %rd4;\n  add.s64 %rd10, %rd2, %rd4;\n"
    "  shl.b32 %r3, %r1, 2;\n  add.s32 %r4, %r2, %r3;\n"
    "  ld.global.u32 %r5, [%rd5];\n  st.shared.u32 [%r4], %r5;\n"
    "  ld.global.u32 %r6, [%rd5+124];\n  st.shared.u32 [%r4+124], %r6;\n"
    "  setp.lt.u32 %p1, %r1, 2;\n  @%p1 ld.global.u32 %r7, [%rd5+248];\n  @%p1 st.shared.u32 [%r4+248], %r7;\n"
    "  bar.sync 0;\n"
    "  ld.global.u32 %r8, [%rd10];\n  shl.b32 %r9, %r8, 2;\n  add.s32 %r10, %r2, %r9;\n"
    "  ld.shared.u32 %r11, [%r10];\n  ld.shared.s32 %rd6, [%r10];\n"
    "  and.b32 %r12, %r8, 15;\n  shl.b32 %r13, %r12, 4;\n  add.s32 %r14, %r2, %r13;\n"
    "  ld.shared.v4.u32 {%r15, %r16, %r17, %r18}, [%r14];\n"
    "  and.b32 %r19, %r8, 31;\n  shl.b32 %r20, %r19, 3;\n  add.s32 %r21, %r2, %r20;\n"
    "  ld.shared.v2.s32 {%r22, %r23}, [%r21];\n"
    "  mul.wide.u32 %rd7, %r1, 48;\n  add.s64 %rd8, %rd3, %rd7;\n"
    "  st.global.u32 [%rd8], %r11;\n  st.global.u64 [%rd8+8], %rd6;\n"
    "  st.global.v4.u32 [%rd8+16], {%r15, %r16, %r17, %r18};\n  st.global.v2.u32 [%rd8+32], {%r22, %r23};\n"
    "  ret;\n}\n";

enum { GV = 12 }; /* words of output a lane (48 bytes: the v4 aligned) */

static uint32_t grp_word(uint32_t i)
{
    uint32_t h = (i + 1) * 0x9E3779B1u;
    return h ^ (h >> 13); /* both signs */
}

static void run_grp(const PtxModule *m, const uint32_t *table, uint32_t threads, uint32_t *out)
{
    PtxMemory *mem = ptx_memory_create();
    uint32_t in[64];
    for (uint32_t i = 0; i < 64; i++)
        in[i] = grp_word(i);
    uint64_t a = pt_upload(mem, in, sizeof in), t = pt_upload(mem, table, 32 * 4);
    uint64_t o = pt_upload(mem, NULL, 32 * GV * 4);
    uint64_t args[3] = {a, t, o};
    PtxRunStats st;
    EXPECT(pt_run(m, mem, "grp", 1, 1, 1, threads, 1, 1, 0, args, 3, &st));
    ptx_memory_read(mem, o, out, 32 * GV * 4);
    ptx_memory_destroy(mem);
}

TEST(ptx_fast_shared_groups_match_lanes)
{
    char err[512];
    PtxModule *m = ptx_module_parse(grp_ptx, "grp.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    unsigned forms = 0;
    for (uint32_t i = 0; i < m->n_insts; i++)
        forms += m->xinsts[i].fast == PTX_FAST_LD_SHARED32;
    EXPECT_EQ_U(forms, ptx_host_avx2() ? 4 : 0);
    enum { TABLES = 7 };
    static uint32_t tab[TABLES][32];
    for (uint32_t i = 0; i < 32; i++) {
        tab[0][i] = i;                 /* every group eight consecutive words */
        tab[1][i] = 5 + i;             /* ... not on a 32-byte line */
        tab[2][i] = i / 8 * 3;         /* every group one word */
        tab[3][i] = i % 16;            /* lanes 16-31 read what 0-15 read (a tile's row) */
        tab[4][i] = 7;                 /* one word for the warp */
        tab[5][i] = i < 8 ? 8 + i : i < 16 ? 40 : i < 24 ? 55 - i : i == 31 ? 0 : 32 + i - 24;
        tab[6][i] = (i * 13 + 7) % 64; /* scattered */
    }
    /* tab[5]: consecutive, one word, descending, consecutive but for its last lane */
    for (unsigned k = 0; k < TABLES; k++) {
        static uint32_t full[32 * GV], part[32 * GV];
        run_grp(m, tab[k], 32, full);
        run_grp(m, tab[k], 31, part);
        for (uint32_t t = 0; t < 31; t++)
            for (uint32_t j = 0; j < GV; j++)
                EXPECT_EQ_U(full[t * GV + j], part[t * GV + j]);
        for (uint32_t t = 0; t < 32; t++) {
            const uint32_t *v = &full[t * GV], w = tab[k][t], q = 4 * (w & 15), d = 2 * (w & 31);
            EXPECT_EQ_U(v[0], grp_word(w));
            EXPECT_EQ_U(v[2], grp_word(w));
            EXPECT_EQ_U(v[3], (grp_word(w) >> 31) ? 0xffffffffu : 0); /* s32 sign-extended */
            for (uint32_t e = 0; e < 4; e++)
                EXPECT_EQ_U(v[4 + e], grp_word(q + e));
            EXPECT_EQ_U(v[8], grp_word(d));
            EXPECT_EQ_U(v[9], grp_word(d + 1));
        }
    }
    ptx_module_free(m);
}
