/* test_ptx_float.c: floating-point instructions against CPU references computed in the same
 * IEEE rounding mode (tests/ptx/float_ops.cu and cvt_ops.cu): f32/f64 add/sub/mul/div/fma/
 * sqrt/rcp in .rn/.rz/.rm/.rp, the .approx functions (within tolerance), float comparisons
 * including unordered ones, and conversions with every rounding modifier and saturation. Known
 * bit patterns pin the directed-rounding results independently of the host's fenv. */
#include "../test.h"

#include "../ptx/ptx_test.h"
#include "base/base.h"

#include <fenv.h>
#include <math.h>

#define N 64

static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

static float r_add(float a, float b, int m) { volatile float x = a, y = b; fesetround(m); volatile float r = x + y; fesetround(FE_TONEAREST); return r; }
static float r_sub(float a, float b, int m) { volatile float x = a, y = b; fesetround(m); volatile float r = x - y; fesetround(FE_TONEAREST); return r; }
static float r_mul(float a, float b, int m) { volatile float x = a, y = b; fesetround(m); volatile float r = x * y; fesetround(FE_TONEAREST); return r; }
static float r_div(float a, float b, int m) { volatile float x = a, y = b; fesetround(m); volatile float r = x / y; fesetround(FE_TONEAREST); return r; }
static float r_fma(float a, float b, float c, int m) { volatile float x = a, y = b, z = c; fesetround(m); volatile float r = fmaf(x, y, z); fesetround(FE_TONEAREST); return r; }
static float r_sqrt(float a, int m) { volatile float x = a; fesetround(m); volatile float r = sqrtf(x); fesetround(FE_TONEAREST); return r; }
static double d_add(double a, double b, int m) { volatile double x = a, y = b; fesetround(m); volatile double r = x + y; fesetround(FE_TONEAREST); return r; }
static double d_mul(double a, double b, int m) { volatile double x = a, y = b; fesetround(m); volatile double r = x * y; fesetround(FE_TONEAREST); return r; }
static double d_div(double a, double b, int m) { volatile double x = a, y = b; fesetround(m); volatile double r = x / y; fesetround(FE_TONEAREST); return r; }
static double d_fma(double a, double b, double c, int m) { volatile double x = a, y = b, z = c; fesetround(m); volatile double r = fma(x, y, z); fesetround(FE_TONEAREST); return r; }
static double d_sqrt(double a, int m) { volatile double x = a; fesetround(m); volatile double r = sqrt(x); fesetround(FE_TONEAREST); return r; }

static float rnd_float(uint64_t *s)
{
    uint64_t r = rng_next(s);
    float mant = (float)(r & 0xFFFFFF) / 16777216.0f + 0.5f;
    int e = (int)((r >> 24) % 40) - 20;
    float v = ldexpf(mant, e) * 3.0f;
    return (r >> 40) & 1 ? -v : v;
}

static int cmp_f32(const float *got, const float *want, int n, const char *what)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (pt_f2u(got[i]) != pt_f2u(want[i]) && !(isnan(got[i]) && isnan(want[i])) && bad++ < 5)
            printf("  %s[%d]: got %.9g (0x%08x) want %.9g (0x%08x)\n", what, i, got[i], pt_f2u(got[i]),
                   want[i], pt_f2u(want[i]));
    return bad;
}

TEST(ptx_f32_rounding_modes)
{
    PtxModule *m = pt_load("float_ops.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    float a[N], b[N], c[N], out[N * 24], want[N * 24];
    uint64_t s = 99;
    for (int i = 0; i < N; i++) {
        a[i] = rnd_float(&s);
        b[i] = rnd_float(&s);
        c[i] = rnd_float(&s);
    }
    a[0] = 1.0f, b[0] = 3.0f, c[0] = 0.0f;              /* 1/3: rn rounds up, rz down */
    a[1] = 1.0f, b[1] = 1e-8f, c[1] = -1.0f;            /* add below half an ulp */
    a[2] = -1.0f, b[2] = 1e-8f, c[2] = 1e-30f;
    a[3] = 16777216.0f, b[3] = 1.0f, c[3] = 3.0f;       /* 2^24 + 1: a tie */
    uint64_t da = pt_upload(mem, a, sizeof a), db = pt_upload(mem, b, sizeof b), dc = pt_upload(mem, c, sizeof c);
    uint64_t dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {da, db, dc, dout};
    ASSERT(pt_run(m, mem, "f32_round", 2, 1, 1, 32, 1, 1, 0, args, 4, NULL));
    ptx_memory_read(mem, dout, out, sizeof out);
    for (int i = 0; i < N; i++) {
        float x = a[i], y = b[i], z = c[i], *e = want + i * 24;
        for (int k = 0; k < 4; k++) {
            e[k] = r_add(x, y, modes[k]);
            e[4 + k] = r_mul(x, y, modes[k]);
            e[8 + k] = r_div(x, y, modes[k]);
            e[12 + k] = r_fma(x, y, z, modes[k]);
            e[16 + k] = r_sqrt(fabsf(x), modes[k]);
        }
        e[20] = r_div(1.0f, y, FE_TONEAREST);
        e[21] = r_div(1.0f, y, FE_TOWARDZERO);
        e[22] = r_sub(x, y, FE_DOWNWARD);
        e[23] = r_sub(x, y, FE_UPWARD);
    }
    EXPECT_EQ_I(cmp_f32(out, want, N * 24, "f32_round"), 0);
    /* independent pins */
    EXPECT_EQ_U(pt_f2u(out[8]), 0x3EAAAAABu);  /* __fdiv_rn(1, 3) */
    EXPECT_EQ_U(pt_f2u(out[9]), 0x3EAAAAAAu);  /* __fdiv_rz(1, 3) */
    EXPECT_EQ_U(pt_f2u(out[11]), 0x3EAAAAABu); /* __fdiv_ru(1, 3) */
    EXPECT_EQ_U(pt_f2u(out[24 + 0]), 0x3F800000u); /* 1 + 1e-8 rn = 1 */
    EXPECT_EQ_U(pt_f2u(out[24 + 3]), 0x3F800001u); /* ru: next float up */
    EXPECT_EQ_U(pt_f2u(out[48 + 1]), 0xBF7FFFFFu); /* -1 + 1e-8 rz: toward zero */
    EXPECT_EQ_U(pt_f2u(out[72 + 0]), 0x4B800000u); /* 2^24 + 1 rn: tie to even = 2^24 */
    EXPECT_EQ_U(pt_f2u(out[72 + 3]), 0x4B800001u); /* ru */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_f64_rounding_modes)
{
    PtxModule *m = pt_load("float_ops.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    double a[N], b[N], c[N], out[N * 16];
    uint64_t s = 5;
    for (int i = 0; i < N; i++) {
        a[i] = (double)rnd_float(&s) * (1.0 + ldexp((double)(rng_next(&s) >> 20), -44));
        b[i] = (double)rnd_float(&s) * 1.0000000001;
        c[i] = (double)rnd_float(&s);
    }
    a[0] = 1.0, b[0] = 3.0, c[0] = 0.0;
    uint64_t da = pt_upload(mem, a, sizeof a), db = pt_upload(mem, b, sizeof b), dc = pt_upload(mem, c, sizeof c);
    uint64_t dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {da, db, dc, dout};
    ASSERT(pt_run(m, mem, "f64_round", 2, 1, 1, 32, 1, 1, 0, args, 4, NULL));
    ptx_memory_read(mem, dout, out, sizeof out);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i], z = c[i], e[16];
        for (int k = 0; k < 4; k++) {
            e[k] = d_add(x, y, modes[k]);
            e[6 + k] = d_div(x, y, modes[k]);
        }
        e[4] = d_mul(x, y, FE_TOWARDZERO);
        e[5] = d_mul(x, y, FE_UPWARD);
        e[10] = d_fma(x, y, z, FE_TONEAREST);
        e[11] = d_fma(x, y, z, FE_TOWARDZERO);
        e[12] = d_sqrt(fabs(x), FE_TONEAREST);
        e[13] = d_sqrt(fabs(x), FE_UPWARD);
        e[14] = 1.0 / y;
        e[15] = x / y - fmin(x, y) + fmax(x, z);
        for (int k = 0; k < 16; k++)
            if (pt_d2u(out[i * 16 + k]) != pt_d2u(e[k]) && bad++ < 5)
                printf("  lane %d op %d: got %.17g want %.17g\n", i, k, out[i * 16 + k], e[k]);
    }
    EXPECT_EQ_I(bad, 0);
    EXPECT_EQ_U(pt_d2u(out[6]), 0x3FD5555555555555ull); /* 1/3 rn */
    EXPECT_EQ_U(pt_d2u(out[9]), 0x3FD5555555555556ull); /* 1/3 ru */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_f32_approx_and_compare)
{
    PtxModule *m = pt_load("float_ops.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    float a[N], b[N], out[N * 10];
    int flags[N];
    uint64_t s = 17;
    for (int i = 0; i < N; i++) {
        a[i] = (float)((int64_t)(rng_next(&s) % 2000) - 1000) / 250.0f;
        b[i] = (float)((int64_t)(rng_next(&s) % 2000) - 1000) / 300.0f + 0.01f;
    }
    a[0] = NAN, b[1] = NAN, b[2] = INFINITY, a[3] = b[3] = 1.25f;
    uint64_t da = pt_upload(mem, a, sizeof a), db = pt_upload(mem, b, sizeof b);
    uint64_t dout = pt_upload(mem, NULL, sizeof out), dfl = pt_upload(mem, NULL, sizeof flags);
    uint64_t args[] = {da, db, dout, dfl};
    ASSERT(pt_run(m, mem, "f32_misc", 2, 1, 1, 32, 1, 1, 0, args, 4, NULL));
    ptx_memory_read(mem, dout, out, sizeof out);
    ptx_memory_read(mem, dfl, flags, sizeof flags);
    int bad = 0;
    for (int i = 4; i < N; i++) {
        float x = a[i], y = b[i], *o = out + i * 10;
        if (pt_f2u(o[0]) != pt_f2u(x / y))
            bad++;
        EXPECT_NEAR(o[1], x / y, 1e-5 * fabs(x / y) + 1e-6);
        EXPECT_NEAR(o[2], expf(x), 1e-5 * expf(x) + 1e-6);
        EXPECT_NEAR(o[3], logf(fabsf(y)), 1e-5);
        EXPECT_NEAR(o[4], sinf(x), 1e-5);
        EXPECT_NEAR(o[5], cosf(x), 1e-5);
        if (pt_f2u(o[6]) != pt_f2u(fminf(x, y) + fmaxf(x, y)))
            bad++;
        if (pt_f2u(o[7]) != pt_f2u(sqrtf(fabsf(x))))
            bad++;
        EXPECT_NEAR(o[8], 1.0f / sqrtf(fabsf(y)), 1e-5 / sqrtf(fabsf(y)));
        if (pt_f2u(o[9]) != pt_f2u(copysignf(x, y) + fabsf(y) - (-x)))
            bad++;
    }
    EXPECT_EQ_I(bad, 0);
    for (int i = 0; i < N; i++) {
        float x = a[i], y = b[i];
        int f = (x < y) | (x <= y) << 1 | (x == y) << 2 | (x != y) << 3 | (!(x >= y)) << 4 |
                (!(x > y)) << 5 | (isnan(x) ? 1 : 0) << 6 | (isinf(y) ? 1 : 0) << 7 | (x > 0.5f) << 8;
        if (flags[i] != f)
            printf("  lane %d: flags 0x%x want 0x%x\n", i, flags[i], f);
        EXPECT_EQ_I(flags[i], f);
    }
    EXPECT_EQ_I(flags[0] & 0x3F, 0x38); /* NaN: only !=, unordered <, unordered <= hold */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_cvt_float_to_int)
{
    PtxModule *m = pt_load("cvt_ops.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    float a[N];
    double d[N];
    int out[N * 20];
    static const float fs[] = {2.5f, -2.5f, 3.5f, -0.5f, 1e10f, -1e10f, NAN, 0.7f, -7.3f, 255.9f, 1.5f, 65535.6f};
    uint64_t s = 3;
    for (int i = 0; i < N; i++) {
        a[i] = i < 12 ? fs[i] : (float)((int64_t)(rng_next(&s) % 200000) - 100000) / 64.0f;
        d[i] = i < 12 ? (double)fs[11 - i] : (double)((int64_t)(rng_next(&s) % 2000000) - 1000000) / 128.0;
    }
    uint64_t da = pt_upload(mem, a, sizeof a), dd = pt_upload(mem, d, sizeof d), dout = pt_upload(mem, NULL, sizeof out);
    uint64_t args[] = {da, dd, dout};
    ASSERT(pt_run(m, mem, "cvt_f2i", 2, 1, 1, 32, 1, 1, 0, args, 3, NULL));
    ptx_memory_read(mem, dout, out, sizeof out);
    /* CPU reference with the PTX rules: round, then saturate; NaN -> 0 */
#define SAT_S32(v) (isnan(v) ? 0 : (v) >= 2147483648.0 ? 2147483647 : (v) < -2147483648.0 ? (int)0x80000000u : (int)(v))
#define SAT_U32(v) (isnan(v) ? 0u : (v) >= 4294967296.0 ? 0xFFFFFFFFu : (v) <= 0 ? 0u : (unsigned)(v))
#define SAT_S64(v) (isnan(v) ? 0 : (v) >= 9223372036854775808.0 ? INT64_MAX : (v) < -9223372036854775808.0 ? INT64_MIN : (int64_t)(v))
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double x = a[i], y = d[i];
        int e[20];
        e[0] = SAT_S32(nearbyint(x)); e[1] = SAT_S32(trunc(x)); e[2] = SAT_S32(floor(x)); e[3] = SAT_S32(ceil(x));
        e[4] = (int)SAT_U32(nearbyint(x)); e[5] = (int)SAT_U32(trunc(x));
        e[6] = SAT_S32(nearbyint(y)); e[7] = SAT_S32(trunc(y)); e[8] = SAT_S32(floor(y)); e[9] = SAT_S32(ceil(y));
        int64_t ll = (int64_t)((uint64_t)SAT_S64(nearbyint(x)) + (uint64_t)SAT_S64(trunc(y)));
        e[10] = (int)ll; e[11] = (int)(ll >> 32);
        e[12] = (signed char)SAT_S32(trunc(x));
        e[13] = (unsigned short)SAT_S32(trunc(y));
        e[14] = (int)(isnan(y) || y <= 0 ? 0 : (uint64_t)floor(y));
        float fx = a[i];
        e[15] = (int)pt_f2u(rintf(fx)); e[16] = (int)pt_f2u(truncf(fx)); e[17] = (int)pt_f2u(floorf(fx)); e[18] = (int)pt_f2u(ceilf(fx));
        e[19] = (int)pt_f2u(isnan(fx) ? 0.0f : fx < 0 ? 0.0f : fx > 1 ? 1.0f : fx);
        for (int k = 0; k < 20; k++)
            if (out[i * 20 + k] != e[k] && !(k >= 15 && k <= 18 && isnan(fx)) && bad++ < 6)
                printf("  lane %d op %d: x=%g y=%g got %d want %d\n", i, k, x, y, out[i * 20 + k], e[k]);
    }
    EXPECT_EQ_I(bad, 0);
    /* pins: __float2int_rn(2.5) = 2, rd(-2.5) = -3, ru(-2.5) = -2, rz(1e10) saturates */
    EXPECT_EQ_I(out[0], 2);
    EXPECT_EQ_I(out[20 + 2], -3);
    EXPECT_EQ_I(out[20 + 3], -2);
    EXPECT_EQ_I(out[80 + 1], 2147483647);
    EXPECT_EQ_I(out[120 + 0], 0); /* NaN -> 0 */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}

TEST(ptx_cvt_int_to_float)
{
    PtxModule *m = pt_load("cvt_ops.ptx");
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    int a[N];
    int64_t b[N];
    float outf[N * 14];
    double outd[N * 4];
    uint64_t s = 11;
    for (int i = 0; i < N; i++) {
        a[i] = (int)rng_next(&s);
        b[i] = (int64_t)rng_next(&s) >> (i % 11);
    }
    a[0] = 16777217, a[1] = -16777217, a[2] = 2147483647, a[3] = 33554435;
    b[0] = (1ll << 53) + 1, b[1] = -((1ll << 40) + 3);
    uint64_t da = pt_upload(mem, a, sizeof a), db = pt_upload(mem, b, sizeof b);
    uint64_t dof = pt_upload(mem, NULL, sizeof outf), dod = pt_upload(mem, NULL, sizeof outd);
    uint64_t args[] = {da, db, dof, dod};
    ASSERT(pt_run(m, mem, "cvt_i2f", 2, 1, 1, 32, 1, 1, 0, args, 4, NULL));
    ptx_memory_read(mem, dof, outf, sizeof outf);
    ptx_memory_read(mem, dod, outd, sizeof outd);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float e[14];
        volatile int x = a[i];
        volatile unsigned ux = (unsigned)a[i];
        volatile int64_t y = b[i];
        volatile uint64_t uy = (uint64_t)b[i];
        volatile float t;
        for (int k = 0; k < 4; k++) {
            fesetround(modes[k]);
            t = (float)x;
            e[k] = t;
            t = (float)y;
            e[6 + k] = t;
            fesetround(FE_TONEAREST);
        }
        t = (float)ux;
        e[4] = t;
        fesetround(FE_TOWARDZERO);
        t = (float)ux;
        e[5] = t;
        fesetround(FE_TONEAREST);
        e[10] = (float)uy;
        volatile double dy = (double)y * 1.000000001;
        e[11] = (float)dy;
        fesetround(FE_TOWARDZERO);
        t = (float)dy;
        e[12] = t;
        fesetround(FE_UPWARD);
        t = (float)dy;
        e[13] = t;
        fesetround(FE_TONEAREST);
        bad += cmp_f32(outf + i * 14, e, 14, "cvt_i2f");
        double ed[4] = {(double)x, (double)y, 0, (double)(short)x + (double)(unsigned char)x};
        volatile double td;
        fesetround(FE_TOWARDZERO);
        td = (double)y;
        fesetround(FE_TONEAREST);
        ed[2] = td;
        for (int k = 0; k < 4; k++)
            if (pt_d2u(outd[i * 4 + k]) != pt_d2u(ed[k]) && bad++ < 6)
                printf("  lane %d d%d: got %.17g want %.17g\n", i, k, outd[i * 4 + k], ed[k]);
    }
    EXPECT_EQ_I(bad, 0);
    EXPECT_EQ_U(pt_f2u(outf[0]), pt_f2u(16777216.0f)); /* rn: tie to even */
    EXPECT_EQ_U(pt_f2u(outf[3]), pt_f2u(16777218.0f)); /* ru */
    EXPECT_EQ_U(pt_f2u(outf[14 + 2]), pt_f2u(-16777218.0f)); /* rd of a negative */
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}
