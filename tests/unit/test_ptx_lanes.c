/* test_ptx_lanes.c: the interpreter's full-warp lane loops (ptx_alu.c: LANES and the hoisted
 * forms of add, sub, mul.lo, mad.lo, the logic ops, shifts by an immediate, selp, integer setp,
 * f32 and f64 add/sub/mul/fma, mul.wide and mad.wide of 32-bit operands, cvta, and mov's
 * packing and unpacking of vectors) give what the general per-lane paths give. The same kernel runs as
 * a full warp (32 threads: the fast loops) and as a partial one (31: the general paths), and
 * every value of lanes 0-30 must agree, and agree with the C computation. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "front/ptx/ptx_mem.h"

#include <math.h>
#include <string.h>

enum { NV = 40 };

static const char lanes_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry lanes(.param .u64 p_out)\n{\n"
    "  .reg .pred %p<6>;\n  .reg .b32 %r<40>;\n  .reg .f32 %f<10>;\n  .reg .f64 %fd<10>;\n  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd1, [p_out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.lo.s32 %r2, %r1, -7;\n  add.s32 %r3, %r2, 1000;\n  sub.s32 %r4, %r2, %r1;\n"
    "  mad.lo.s32 %r5, %r2, %r3, 13;\n  and.b32 %r6, %r3, 3855;\n  or.b32 %r7, %r2, 5;\n"
    "  xor.b32 %r8, %r3, %r2;\n  not.b32 %r9, %r3;\n  shl.b32 %r10, %r3, 3;\n"
    "  shr.u32 %r11, %r2, 4;\n  shr.s32 %r12, %r2, 4;\n  shr.u32 %r13, %r2, %r1;\n"
    "  shl.b32 %r14, %r3, 40;\n"
    "  setp.lt.s32 %p1, %r2, -50;\n  setp.lo.u32 %p2, %r2, 100;\n  setp.ne.s32 %p3, %r6, 3848;\n"
    "  selp.b32 %r15, %r3, %r4, %p1;\n  selp.b32 %r16, 1, 0, %p2;\n  selp.b32 %r17, 1, 0, %p3;\n"
    "  cvt.rn.f32.s32 %f1, %r2;\n  add.f32 %f2, %f1, 0f3F000000;\n  mul.f32 %f3, %f2, %f1;\n"
    "  fma.rn.f32 %f4, %f3, %f2, %f1;\n  sub.f32 %f5, %f4, %f3;\n  add.rz.f32 %f6, %f4, 0f3DCCCCCD;\n"
    "  mov.b32 %r18, %f2;\n  mov.b32 %r19, %f3;\n  mov.b32 %r20, %f4;\n  mov.b32 %r21, %f5;\n"
    "  mov.b32 %r22, %f6;\n  mul.lo.s64 %rd2, %rd1, 3;\n  cvt.u32.u64 %r23, %rd2;\n"
    "  cvt.rn.f64.s32 %fd1, %r2;\n  add.f64 %fd2, %fd1, 0d3FD0000000000000;\n  mul.f64 %fd3, %fd2, %fd1;\n"
    "  fma.rn.f64 %fd4, %fd3, %fd2, %fd1;\n  sub.f64 %fd5, %fd4, %fd3;\n"
    "  mov.b64 {%r24, %r25}, %fd2;\n  mov.b64 {%r26, %r27}, %fd3;\n  mov.b64 {%r28, %r29}, %fd4;\n"
    "  mov.b64 %fd6, {%r28, %r29};\n  sub.f64 %fd7, %fd5, %fd6;\n  mov.b64 {%r30, %r31}, %fd7;\n"
    "  mul.wide.s32 %rd5, %r2, -3;\n  mad.wide.s32 %rd6, %r2, 5, %rd5;\n  mad.wide.u32 %rd7, %r2, 7, %rd5;\n"
    "  cvta.to.shared.u64 %rd8, %rd7;\n"
    "  mul.wide.u32 %rd3, %r1, 160;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  st.global.v4.u32 [%rd4], {%r2, %r3, %r4, %r5};\n"
    "  st.global.v4.u32 [%rd4+16], {%r6, %r7, %r8, %r9};\n"
    "  st.global.v4.u32 [%rd4+32], {%r10, %r11, %r12, %r13};\n"
    "  st.global.v4.u32 [%rd4+48], {%r14, %r15, %r16, %r17};\n"
    "  st.global.v4.u32 [%rd4+64], {%r18, %r19, %r20, %r21};\n"
    "  st.global.v4.u32 [%rd4+80], {%r22, %r22, %r22, %r22};\n"
    "  st.global.v4.u32 [%rd4+96], {%r24, %r25, %r26, %r27};\n"
    "  st.global.v4.u32 [%rd4+112], {%r28, %r29, %r30, %r31};\n"
    "  st.global.v2.u64 [%rd4+128], {%rd5, %rd6};\n  st.global.v2.u64 [%rd4+144], {%rd7, %rd8};\n"
    "  ret;\n}\n";

static bool run_lanes(const PtxModule *m, uint32_t threads, uint32_t *out)
{
    PtxMemory *mem = ptx_memory_create();
    uint64_t o = pt_upload(mem, NULL, 32 * NV * 4);
    uint64_t args[1] = {o};
    PtxRunStats st;
    bool ok = pt_run(m, mem, "lanes", 1, 1, 1, threads, 1, 1, 0, args, 1, &st);
    ptx_memory_read(mem, o, out, 32 * NV * 4);
    ptx_memory_destroy(mem);
    return ok;
}

static uint32_t f2u(float f) { return pt_f2u(f); }

TEST(ptx_lanes_full_warp_matches_general_paths)
{
    char err[512];
    PtxModule *m = ptx_module_parse(lanes_ptx, "lanes.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    static uint32_t full[32 * NV], part[32 * NV];
    EXPECT(run_lanes(m, 32, full));
    EXPECT(run_lanes(m, 31, part));
    for (uint32_t t = 0; t < 31; t++)
        for (uint32_t k = 0; k < NV; k++)
            EXPECT_EQ_U(full[t * NV + k], part[t * NV + k]);
    for (uint32_t t = 0; t < 32; t++) {
        const uint32_t *v = &full[t * NV];
        int32_t r2 = (int32_t)t * -7, r3 = r2 + 1000;
        EXPECT_EQ_U(v[0], (uint32_t)r2);
        EXPECT_EQ_U(v[1], (uint32_t)r3);
        EXPECT_EQ_U(v[2], (uint32_t)(r2 - (int32_t)t));
        EXPECT_EQ_U(v[3], (uint32_t)r2 * (uint32_t)r3 + 13u);
        EXPECT_EQ_U(v[4], (uint32_t)r3 & 3855u);
        EXPECT_EQ_U(v[5], (uint32_t)r2 | 5u);
        EXPECT_EQ_U(v[6], (uint32_t)r3 ^ (uint32_t)r2);
        EXPECT_EQ_U(v[7], ~(uint32_t)r3);
        EXPECT_EQ_U(v[8], (uint32_t)r3 << 3);
        EXPECT_EQ_U(v[9], (uint32_t)r2 >> 4);
        EXPECT_EQ_U(v[10], (uint32_t)(r2 >> 4));
        EXPECT_EQ_U(v[11], (uint32_t)r2 >> t);
        EXPECT_EQ_U(v[12], 0);
        EXPECT_EQ_U(v[13], (uint32_t)(r2 < -50 ? r3 : r2 - (int32_t)t));
        EXPECT_EQ_U(v[14], (uint32_t)r2 < 100u);
        EXPECT_EQ_U(v[15], ((uint32_t)r3 & 3855u) != 3848u);
        float f1 = (float)r2, f2 = f1 + 0.5f, f3 = f2 * f1, f4 = fmaf(f3, f2, f1), f5 = f4 - f3;
        EXPECT_EQ_U(v[16], f2u(f2));
        EXPECT_EQ_U(v[17], f2u(f3));
        EXPECT_EQ_U(v[18], f2u(f4));
        EXPECT_EQ_U(v[19], f2u(f5));
        double sum = (double)f4 + (double)0.1f; /* exact: the exponents are close */
        float f6 = (float)sum;
        if (fabs((double)f6) > fabs(sum))
            f6 = nextafterf(f6, 0.0f); /* rounded toward zero */
        EXPECT_EQ_U(v[20], f2u(f6));
        double d1 = r2, d2 = d1 + 0.25, d3 = d2 * d1, d4 = fma(d3, d2, d1), d5 = d4 - d3, d7 = d5 - d4;
        uint64_t u[4];
        memcpy(&u[0], &d2, 8);
        memcpy(&u[1], &d3, 8);
        memcpy(&u[2], &d4, 8);
        memcpy(&u[3], &d7, 8);
        for (int k = 0; k < 4; k++) {
            EXPECT_EQ_U(v[24 + 2 * k], (uint32_t)u[k]);
            EXPECT_EQ_U(v[25 + 2 * k], (uint32_t)(u[k] >> 32));
        }
        uint64_t rd5 = (uint64_t)((int64_t)r2 * -3), rd6 = (uint64_t)((int64_t)r2 * 5) + rd5;
        uint64_t rd7 = (uint64_t)(uint32_t)r2 * 7u + rd5, rd8 = rd7 - PTX_WIN_SHARED, w64[4] = {rd5, rd6, rd7, rd8};
        for (int k = 0; k < 4; k++) {
            EXPECT_EQ_U(v[32 + 2 * k], (uint32_t)w64[k]);
            EXPECT_EQ_U(v[33 + 2 * k], (uint32_t)(w64[k] >> 32));
        }
    }
    ptx_module_free(m);
}

/* The whole-warp ld/st path (ptx_exec.c: mem_warp) against the lane-by-lane one: each value is
 * loaded once through the global or shared space (whole warp when it applies) and once through
 * a generic address (always lane by lane), from one page, from eight pages (a 1 KiB stride),
 * and from an allocation never written (absent pages read as zeros); stores the same way. */
enum { MV = 16 };

static const char mem_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry mem(.param .u64 p_in, .param .u64 p_far, .param .u64 p_out, .param .u64 p_st)\n{\n"
    "  .reg .b16 %h<4>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<24>;\n"
    "  .shared .align 4 .b8 buf[128];\n"
    "  ld.param.u64 %rd1, [p_in];\n  ld.param.u64 %rd2, [p_far];\n  ld.param.u64 %rd3, [p_out];\n"
    "  ld.param.u64 %rd4, [p_st];\n  mov.u32 %r1, %tid.x;\n  cvt.u64.u32 %rd5, %r1;\n"
    "  add.s64 %rd6, %rd1, %rd5;\n  ld.global.s8 %r2, [%rd6];\n  ld.s8 %r3, [%rd6];\n"
    "  shl.b64 %rd7, %rd5, 1;\n  add.s64 %rd8, %rd1, %rd7;\n  ld.global.s16 %r4, [%rd8+64];\n"
    "  ld.s16 %r5, [%rd8+64];\n"
    "  shl.b64 %rd9, %rd5, 10;\n  add.s64 %rd10, %rd1, %rd9;\n  ld.global.v2.u32 {%r6, %r7}, [%rd10+128];\n"
    "  ld.v2.u32 {%r8, %r9}, [%rd10+128];\n"
    "  add.s64 %rd11, %rd2, %rd9;\n  ld.global.u32 %r10, [%rd11];\n  ld.u32 %r11, [%rd11];\n"
    "  mul.lo.s32 %r12, %r1, 3;\n  shl.b32 %r13, %r1, 2;\n  mov.u32 %r14, buf;\n  add.s32 %r15, %r14, %r13;\n"
    "  st.shared.u32 [%r15], %r12;\n  bar.sync 0;\n  ld.shared.u32 %r16, [%r15];\n  ld.shared.u32 %r17, [buf+8];\n"
    "  cvta.shared.u64 %rd12, buf;\n  ld.u32 %r18, [%rd12+8];\n"
    "  ld.param.u32 %r19, [p_in];\n"
    "  add.s64 %rd13, %rd4, %rd9;\n  cvt.u16.u32 %h1, %r12;\n  st.global.u16 [%rd13], %h1;\n"
    "  st.global.v2.u32 [%rd13+8], {%r12, %r1};\n  add.s64 %rd14, %rd4, %rd5;\n"
    "  st.global.u8 [%rd14+512], %r12;\n"
    "  mul.wide.u32 %rd15, %r1, 64;\n  add.s64 %rd16, %rd3, %rd15;\n"
    "  st.global.v4.u32 [%rd16], {%r2, %r3, %r4, %r5};\n"
    "  st.global.v4.u32 [%rd16+16], {%r6, %r7, %r8, %r9};\n"
    "  st.global.v4.u32 [%rd16+32], {%r10, %r11, %r16, %r17};\n"
    "  st.global.v2.u32 [%rd16+48], {%r18, %r19};\n"
    "  ret;\n}\n";

static bool run_mem(const PtxModule *m, uint32_t threads, uint32_t *out, uint8_t *st)
{
    PtxMemory *mem = ptx_memory_create();
    static uint8_t in[32 * 1024 + 256];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)(i * 37 + 11);
    uint64_t a_in = pt_upload(mem, in, sizeof in), far = pt_upload(mem, NULL, 32 * 1024);
    uint64_t o = pt_upload(mem, NULL, 32 * MV * 4), s = pt_upload(mem, NULL, 32 * 1024);
    uint64_t args[4] = {a_in, far, o, s};
    PtxRunStats rs;
    bool ok = pt_run(m, mem, "mem", 1, 1, 1, threads, 1, 1, 0, args, 4, &rs);
    ptx_memory_read(mem, o, out, 32 * MV * 4);
    ptx_memory_read(mem, s, st, 32 * 1024);
    ptx_memory_destroy(mem);
    return ok;
}

TEST(ptx_lanes_whole_warp_memory_matches_lane_path)
{
    char err[512];
    PtxModule *m = ptx_module_parse(mem_ptx, "mem.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    static uint32_t full[32 * MV], part[32 * MV];
    static uint8_t sfull[32 * 1024], spart[32 * 1024];
    EXPECT(run_mem(m, 32, full, sfull));
    EXPECT(run_mem(m, 31, part, spart));
    for (uint32_t t = 0; t < 32; t++) {
        const uint32_t *v = &full[t * MV];
        uint8_t b = (uint8_t)(t * 37 + 11);
        EXPECT_EQ_U(v[0], (uint32_t)(int32_t)(int8_t)b);
        EXPECT_EQ_U(v[1], v[0]);
        uint32_t h = 64 + 2 * t;
        EXPECT_EQ_U(v[2], (uint32_t)(int32_t)(int16_t)((uint8_t)(h * 37 + 11) | (uint8_t)((h + 1) * 37 + 11) << 8));
        EXPECT_EQ_U(v[3], v[2]);
        EXPECT_EQ_U(v[6], v[4]);
        EXPECT_EQ_U(v[7], v[5]);
        uint32_t w0 = t * 1024 + 128;
        EXPECT_EQ_U(v[4] & 0xff, (uint8_t)(w0 * 37 + 11));
        EXPECT_EQ_U(v[5] >> 24, (uint8_t)((w0 + 7) * 37 + 11));
        EXPECT_EQ_U(v[8], 0);
        EXPECT_EQ_U(v[9], 0);
        EXPECT_EQ_U(v[10], t * 3);
        EXPECT_EQ_U(v[11], 6);
        EXPECT_EQ_U(v[12], 6);
        EXPECT_EQ_U(v[13] & 0xff, 0); /* the low word of p_in: a 256-byte-aligned allocation */
        const uint8_t *row = &sfull[t * 1024];
        EXPECT_EQ_U(row[0] | row[1] << 8, (t * 3) & 0xffff);
        EXPECT_EQ_U(row[8], (t * 3) & 0xff);
        EXPECT_EQ_U(row[12], t);
        EXPECT_EQ_U(sfull[512 + t], (t * 3) & 0xff);
    }
    for (uint32_t t = 0; t < 31; t++)
        for (uint32_t k = 0; k < MV; k++)
            EXPECT_EQ_U(full[t * MV + k], part[t * MV + k]);
    for (uint32_t i = 0; i < 31 * 1024; i++)
        if (i < 512 || i >= 512 + 32)
            EXPECT_EQ_U(sfull[i], spart[i]);
    ptx_module_free(m);
}

/* The whole-warp path of the local space (each thread's own frame) against the lane path: the
 * same kernel as a full and a partial warp, with one value read back through a generic address
 * (always lane by lane). */
static const char local_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry loc(.param .u64 p_out)\n{\n"
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n  .local .align 8 .b8 frame[32];\n"
    "  ld.param.u64 %rd1, [p_out];\n  mov.u32 %r1, %tid.x;\n  mul.lo.s32 %r2, %r1, -3;\n"
    "  st.local.v2.u32 [frame+8], {%r1, %r2};\n  st.local.u8 [frame+1], %r2;\n"
    "  st.local.u32 [frame+20], %r2;\n  mov.u32 %r8, frame;\n  add.s32 %r9, %r8, 4;\n"
    "  st.local.u32 [%r9], %r1;\n  ld.local.u32 %r10, [%r9];\n"
    "  ld.local.v2.u32 {%r3, %r4}, [frame+8];\n  ld.local.s8 %r5, [frame+1];\n"
    "  cvta.local.u64 %rd3, frame;\n  ld.u32 %r6, [%rd3+20];\n  ld.local.u32 %r7, [frame+24];\n"
    "  mul.wide.u32 %rd4, %r1, 32;\n  add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.v4.u32 [%rd5], {%r3, %r4, %r5, %r6};\n  st.global.v2.u32 [%rd5+16], {%r7, %r10};\n"
    "  ret;\n}\n";

static bool run_local(const PtxModule *m, uint32_t threads, uint32_t *out)
{
    PtxMemory *mem = ptx_memory_create();
    uint64_t o = pt_upload(mem, NULL, 32 * 32);
    uint64_t args[1] = {o};
    PtxRunStats rs;
    bool ok = pt_run(m, mem, "loc", 1, 1, 1, threads, 1, 1, 0, args, 1, &rs);
    ptx_memory_read(mem, o, out, 32 * 32);
    ptx_memory_destroy(mem);
    return ok;
}

TEST(ptx_lanes_whole_warp_local_matches_lane_path)
{
    char err[512];
    PtxModule *m = ptx_module_parse(local_ptx, "local.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    static uint32_t full[32 * 8], part[32 * 8];
    EXPECT(run_local(m, 32, full));
    EXPECT(run_local(m, 31, part));
    for (uint32_t t = 0; t < 32; t++) {
        const uint32_t *v = &full[t * 8];
        uint32_t r2 = t * (uint32_t)-3;
        EXPECT_EQ_U(v[0], t);
        EXPECT_EQ_U(v[1], r2);
        EXPECT_EQ_U(v[2], (uint32_t)(int32_t)(int8_t)(uint8_t)r2);
        EXPECT_EQ_U(v[3], r2);
        EXPECT_EQ_U(v[4], 0);
        EXPECT_EQ_U(v[5], t);
    }
    for (uint32_t i = 0; i < 31 * 8; i++)
        EXPECT_EQ_U(full[i], part[i]);
    ptx_module_free(m);
}
