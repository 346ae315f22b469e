/* test_ptx_f32.c: the interpreter's f32 loops of the default rounding mode (ptx_alu.c: f32_near,
 * the host-FMA path of a full warp, f32 setp) on special operands: NaNs with distinct payloads
 * (quiet and signalling), infinities, signed zeros and subnormals. The same kernel runs as a
 * full warp (32 threads: the host's FMA for fma.rn) and as a partial one (31: fmaf a lane), and
 * every value of lanes 0-30 must agree bit for bit, and agree with the C library's functions
 * (the PTX meaning of ftz, sat, min and max spelled out here, and the NaN that add, mul and fma
 * of NaN operands give: the first, quieted, whichever order the compiler puts them in). */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "front/ptx/ptx_mem.h"

#include <math.h>
#include <string.h>

enum { FV = 24 }; /* words a lane writes */

static const char f32_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry f32ops(.param .u64 p_in, .param .u64 p_out)\n{\n"
    "  .reg .pred %p<6>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<24>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p_in];\n  ld.param.u64 %rd2, [p_out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 12;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n  ld.global.f32 %f2, [%rd4+4];\n  ld.global.f32 %f3, [%rd4+8];\n"
    "  fma.rn.f32 %f4, %f1, %f2, %f3;\n  fma.rn.ftz.f32 %f5, %f1, %f2, %f3;\n"
    "  div.rn.f32 %f6, %f1, %f2;\n  div.approx.f32 %f7, %f1, %f2;\n  rcp.rn.f32 %f8, %f1;\n"
    "  sqrt.rn.f32 %f9, %f1;\n  rsqrt.approx.f32 %f10, %f1;\n  ex2.approx.f32 %f11, %f1;\n"
    "  lg2.approx.f32 %f12, %f1;\n  abs.f32 %f13, %f1;\n  neg.f32 %f14, %f2;\n  min.f32 %f15, %f1, %f2;\n"
    "  max.f32 %f16, %f1, %f2;\n  add.ftz.f32 %f17, %f1, %f2;\n  mul.sat.f32 %f18, %f1, %f2;\n"
    "  ex2.approx.ftz.f32 %f19, %f1;\n  add.f32 %f20, %f1, %f2;\n  mul.f32 %f21, %f1, %f2;\n"
    "  mul.ftz.f32 %f22, %f1, %f2;\n  fma.rn.f32 %f1, %f1, %f2, %f3;\n"
    "  setp.lt.f32 %p1, %f2, %f3;\n  setp.gtu.f32 %p2, %f2, %f3;\n  setp.ne.f32 %p3, %f2, %f3;\n"
    "  setp.equ.ftz.f32 %p4, %f2, %f3;\n  selp.b32 %r2, 1, 0, %p1;\n  selp.b32 %r3, 1, 0, %p2;\n"
    "  selp.b32 %r4, 1, 0, %p3;\n  selp.b32 %r5, 1, 0, %p4;\n"
    "  mul.wide.u32 %rd5, %r1, 96;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n  st.global.v4.f32 [%rd6+16], {%f8, %f9, %f10, %f11};\n"
    "  st.global.v4.f32 [%rd6+32], {%f12, %f13, %f14, %f15};\n  st.global.v4.f32 [%rd6+48], {%f16, %f17, %f18, %f19};\n"
    "  st.global.v4.u32 [%rd6+64], {%r2, %r3, %r4, %r5};\n  st.global.v4.f32 [%rd6+80], {%f1, %f20, %f21, %f22};\n"
    "  ret;\n}\n";

static const uint32_t specials[] = {
    0x3fc00000u, 0xc0100000u, 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00001u, 0xffc00002u,
    0x7f800003u, 0xff800004u, 0x000b2c4au, 0x800003e8u, 0x40400000u, 0x7149f2cau, 0x8c0a1e2bu, 0x3dcccccdu,
    0x7f7fffffu, 0x00800000u, 0x3f800000u, 0xbf800000u, 0x7fc12345u, 0x40490fdbu, 0xc2c80000u, 0x00000001u,
};
enum { NS = sizeof specials / sizeof specials[0] };

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { return pt_f2u(f); }
static float ftz(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }
static float pmin(float a, float b) { return isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a))) ? a : b; }
static float pmax(float a, float b) { return isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a))) ? a : b; }
/* A NaN result of add, mul and fma: the first NaN operand, quieted; else the host's NaN. */
static float first_nan(float r, float a, float b, float c)
{
    if (!isnan(r))
        return r;
    const float o[3] = {a, b, c};
    for (int k = 0; k < 3; k++)
        if (isnan(o[k]))
            return u2f(f2u(o[k]) | 0x00400000u);
    return r;
}

/* Lane t's operands: three neighbours in specials, so that lanes meet two and three NaNs of
 * distinct payloads, a NaN times an infinity, and zero times an infinity. */
static void operands(uint32_t t, float *a, float *b, float *c)
{
    *a = u2f(specials[t % NS]);
    *b = u2f(specials[(t + 1) % NS]);
    *c = u2f(specials[(t + 2) % NS]);
}

static bool run_f32(const PtxModule *m, uint32_t threads, uint32_t *out)
{
    PtxMemory *mem = ptx_memory_create();
    float in[32 * 3];
    for (uint32_t t = 0; t < 32; t++)
        operands(t, &in[3 * t], &in[3 * t + 1], &in[3 * t + 2]);
    uint64_t i = pt_upload(mem, in, sizeof in), o = pt_upload(mem, NULL, 32 * FV * 4);
    uint64_t args[2] = {i, o};
    PtxRunStats st;
    bool ok = pt_run(m, mem, "f32ops", 1, 1, 1, threads, 1, 1, 0, args, 2, &st);
    ptx_memory_read(mem, o, out, 32 * FV * 4);
    ptx_memory_destroy(mem);
    return ok;
}

TEST(ptx_f32_special_operands_full_warp_matches_lanes_and_libm)
{
    char err[512];
    PtxModule *m = ptx_module_parse(f32_ptx, "f32.ptx", err, sizeof err);
    if (!m)
        printf("  %s\n", err);
    ASSERT(m);
    static uint32_t full[32 * FV], part[32 * FV];
    EXPECT(run_f32(m, 32, full));
    EXPECT(run_f32(m, 31, part));
    for (uint32_t t = 0; t < 31; t++)
        for (uint32_t k = 0; k < FV; k++)
            EXPECT_EQ_U(full[t * FV + k], part[t * FV + k]);
    for (uint32_t t = 0; t < 32; t++) {
        const uint32_t *v = &full[t * FV];
        float a, b, c;
        operands(t, &a, &b, &c);
        float fa = ftz(a), fb = ftz(b), prod = a * b;
        EXPECT_EQ_U(v[0], f2u(first_nan(fmaf(a, b, c), a, b, c)));
        EXPECT_EQ_U(v[1], f2u(ftz(first_nan(fmaf(fa, fb, ftz(c)), a, b, c))));
        EXPECT_EQ_U(v[4], f2u(1.0f / a));
        EXPECT_EQ_U(v[5], f2u(sqrtf(a)));
        EXPECT_EQ_U(v[7], f2u(exp2f(a)));
        EXPECT_EQ_U(v[8], f2u(log2f(a)));
        EXPECT_EQ_U(v[9], f2u(fabsf(a)));
        EXPECT_EQ_U(v[10], f2u(-b));
        EXPECT_EQ_U(v[11], f2u(pmin(a, b)));
        EXPECT_EQ_U(v[12], f2u(pmax(a, b)));
        EXPECT_EQ_U(v[14], f2u(isnan(prod) ? 0.0f : prod > 0.0f ? (prod < 1.0f ? prod : 1.0f) : 0.0f));
        EXPECT_EQ_U(v[15], f2u(ftz(exp2f(fa))));
        EXPECT_EQ_U(v[16], b < c);
        EXPECT_EQ_U(v[17], !(b <= c));
        EXPECT_EQ_U(v[18], b < c || b > c);
        EXPECT_EQ_U(v[19], !(ftz(b) < ftz(c) || ftz(b) > ftz(c)));
        EXPECT_EQ_U(v[20], v[0]); /* the destination one of the operands */
        EXPECT_EQ_U(v[21], f2u(first_nan(a + b, a, b, b)));
        EXPECT_EQ_U(v[22], f2u(first_nan(prod, a, b, b)));
        EXPECT_EQ_U(v[23], f2u(ftz(first_nan(fa * fb, a, b, b))));
    }
    ptx_module_free(m);
}
