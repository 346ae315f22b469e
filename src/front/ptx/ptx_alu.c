/* ptx_alu.c: the arithmetic, logic, comparison, conversion and warp-level (shfl, vote)
 * instructions of the PTX interpreter, executed for all active lanes of a warp at once.
 *
 * Semantics follow the PTX ISA manual, chapter 9.7. Integers are computed on 64-bit values
 * extended from the instruction type (sign for .sN, zero otherwise) and truncated on write, so
 * one code path serves every width. IEEE rounding of the .rn/.rz/.rm/.rp forms is exact: the
 * host's SSE unit is switched to the requested mode with fesetround around the lane loop (the
 * operands pass through volatile so the compiler cannot move the operation across the mode
 * switch), and .rn uses the default mode. .ftz flushes subnormal inputs and results to signed
 * zero; .sat clamps to [0, 1] (NaN to 0). A NaN result of f32 add, mul and fma is the first NaN
 * operand, quieted (f32_nan_first). Float-to-integer conversions saturate and map NaN to
 * 0, as the hardware does. Division by zero never traps the host: integer division by zero
 * gives all ones (remainder: the dividend). ptx_exec.c calls in here and never the reverse, so
 * a run-time fault (f16 arithmetic) is returned to it rather than recorded here. */
#include "front/ptx/ptx_alu.h"

#include "front/ptx/ptx_value.h"

#include "base/base.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

const uint64_t ptx_zero_lanes[WARP_SIZE];

static inline float ftz32(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if (!(u & 0x7F800000u))
        u &= 0x80000000u;
    memcpy(&x, &u, 4);
    return x;
}
static inline double ftz64(double x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysign(0.0, x) : x;
}
static inline float sat32(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
static inline double sat64(double x) { return x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0; }

static int host_mode(uint8_t rnd)
{
    switch (rnd) {
    case RND_RZ: case RND_RZI: return FE_TOWARDZERO;
    case RND_RM: case RND_RMI: return FE_DOWNWARD;
    case RND_RP: case RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* Operations evaluated in the current host rounding mode; volatile keeps them between the
 * fesetround calls. */
static float vadd32(float a, float b) { volatile float x = a, y = b; return x + y; }
static float vsub32(float a, float b) { volatile float x = a, y = b; return x - y; }
static float vmul32(float a, float b) { volatile float x = a, y = b; return x * y; }
static float vdiv32(float a, float b) { volatile float x = a, y = b; return x / y; }
static float vfma32(float a, float b, float c) { volatile float x = a, y = b, z = c; return fmaf(x, y, z); }
static float vsqrt32(float a) { volatile float x = a; return sqrtf(x); }
static double vadd64(double a, double b) { volatile double x = a, y = b; return x + y; }
static double vsub64(double a, double b) { volatile double x = a, y = b; return x - y; }
static double vmul64(double a, double b) { volatile double x = a, y = b; return x * y; }
static double vdiv64(double a, double b) { volatile double x = a, y = b; return x / y; }
static double vfma64(double a, double b, double c) { volatile double x = a, y = b, z = c; return fma(x, y, z); }
static double vsqrt64(double a) { volatile double x = a; return sqrt(x); }
static float vd2f(double a) { volatile double x = a; return (float)x; }
static float vi2f(int64_t a) { volatile int64_t x = a; return (float)x; }
static float vu2f(uint64_t a) { volatile uint64_t x = a; return (float)x; }
static double vi2d(int64_t a) { volatile int64_t x = a; return (double)x; }
static double vu2d(uint64_t a) { volatile uint64_t x = a; return (double)x; }

/* ---- operand access ---- */

static bool compare_float(uint8_t cmp, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (cmp) {
    case CMP_EQ: return !un && a == b;
    case CMP_NE: return !un && a != b;
    case CMP_LT: return !un && a < b;
    case CMP_LE: return !un && a <= b;
    case CMP_GT: return !un && a > b;
    case CMP_GE: return !un && a >= b;
    case CMP_EQU: return un || a == b;
    case CMP_NEU: return un || a != b;
    case CMP_LTU: return un || a < b;
    case CMP_LEU: return un || a <= b;
    case CMP_GTU: return un || a > b;
    case CMP_GEU: return un || a >= b;
    case CMP_NUM: return !un;
    case CMP_NAN: return un;
    default: return false;
    }
}

/* Read a value of type t as a double (floats) for comparisons and conversions. */
static double to_double(uint64_t v, uint8_t t)
{
    switch (t) {
    case PT_F32: return ptx_as_f32(v);
    case PT_F64: return ptx_as_f64(v);
    case PT_F16: return ptx_f16_to_f64((uint16_t)v);
    default: return 0;
    }
}

static bool cmp_typed(uint8_t cmp, uint8_t t, uint64_t a, uint64_t b, bool ftz)
{
    if (ptx_type_float(t)) {
        double x = to_double(a, t), y = to_double(b, t);
        if (ftz && t == PT_F32) {
            x = ftz32((float)x);
            y = ftz32((float)y);
        }
        return compare_float(cmp, x, y);
    }
    unsigned nb = ptx_type_bytes(t);
    bool sg = ptx_type_signed(t);
    return ptx_int_compare(cmp, ptx_ext(a, nb, sg), ptx_ext(b, nb, sg), sg);
}

/* Round a double to an integer value per rnd (RNI..RPI; plain RN..RP map to the same). */
static double round_int(double x, uint8_t rnd)
{
    switch (rnd) {
    case RND_RZI: case RND_RZ: return trunc(x);
    case RND_RMI: case RND_RM: return floor(x);
    case RND_RPI: case RND_RP: return ceil(x);
    default: return nearbyint(x);
    }
}

/* Float (as exact double) to a saturated integer of type t. */
static uint64_t f2i(double x, uint8_t t)
{
    if (isnan(x))
        return 0;
    unsigned nb = ptx_type_bytes(t);
    if (ptx_type_signed(t)) {
        double lo = -ldexp(1, 8 * (int)nb - 1), hi = ldexp(1, 8 * (int)nb - 1);
        if (x < lo)
            return (uint64_t)(int64_t)lo & ptx_zmask(nb);
        if (x >= hi)
            return ((uint64_t)1 << (8 * nb - 1)) - 1;
        return (uint64_t)(int64_t)x & ptx_zmask(nb);
    }
    double hi = ldexp(1, 8 * (int)nb);
    if (x <= 0)
        return 0;
    if (x >= hi)
        return ptx_zmask(nb);
    return (uint64_t)x;
}

PTX_WIDE static void exec_cvt(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active)
{
    uint64_t t1[WARP_SIZE];
    SRC(1);
    uint64_t *d = w->regs + (size_t)in->o[0].reg * WARP_SIZE;
    uint8_t dt = in->type, st = in->type2;
    bool ftz = in->flags & PF_FTZ, sat = in->flags & PF_SAT;
    bool dflt = ptx_type_float(dt), sflt = ptx_type_float(st);
    int mode = host_mode(in->rnd);
    bool integral = in->rnd >= RND_RNI;
    if (in->mode == CVT_TF32) { /* to nearest, ties away: add half of the 13 dropped bits' unit */
        FOR_LANES(active, i) {
            uint32_t u = (uint32_t)A(1, i);
            bool nan = (u & 0x7fffffffu) > 0x7f800000u;
            d[i] = nan ? 0x7fffe000u : ((u & 0x7fffffffu) >= 0x7f800000u ? u : (u + 0x1000u)) & ~0x1fffu;
        }
        return;
    }
    if (!dflt && !sflt) {
        const unsigned sb = ptx_type_bytes(st), db = ptx_type_bytes(dt);
        if (!sat && sb && db) { /* ptx_int_convert's two extensions, each two shifts chosen once */
            const unsigned ssh = 64 - 8 * sb, dsh = 64 - 8 * db;
            const bool ss = ptx_type_signed(st), ds = ptx_type_signed(dt);
#define EXT(v, sh, sg) ((sg) ? (uint64_t)((int64_t)((v) << (sh)) >> (sh)) : ((v) << (sh)) >> (sh))
            if (ss && ds)
                LANES(active, i, uint64_t x = EXT(A(1, i), ssh, true); d[i] = EXT(x, dsh, true));
            else if (ss)
                LANES(active, i, uint64_t x = EXT(A(1, i), ssh, true); d[i] = EXT(x, dsh, false));
            else if (ds)
                LANES(active, i, uint64_t x = EXT(A(1, i), ssh, false); d[i] = EXT(x, dsh, true));
            else
                LANES(active, i, uint64_t x = EXT(A(1, i), ssh, false); d[i] = EXT(x, dsh, false));
#undef EXT
            return;
        }
        FOR_LANES(active, i) d[i] = ptx_int_convert(A(1, i), st, dt, sat);
        return;
    }
    if (!dflt) { /* float -> int */
        FOR_LANES(active, i) {
            double x = to_double(A(1, i), st);
            if (ftz && st == PT_F32)
                x = ftz32((float)x);
            d[i] = f2i(round_int(x, in->rnd), dt);
            if (ptx_type_signed(dt))
                d[i] = ptx_ext(d[i], ptx_type_bytes(dt), true);
        }
        return;
    }
    if (mode != FE_TONEAREST && !integral)
        fesetround(mode);
    FOR_LANES(active, i) {
        uint64_t v = A(1, i);
        double x = 0;
        float f = 0;
        bool have_f = false;
        if (!sflt) { /* int -> float */
            unsigned sb = ptx_type_bytes(st);
            bool ss = ptx_type_signed(st);
            uint64_t e = ptx_ext(v, sb, ss);
            if (dt == PT_F32) {
                f = ss ? vi2f((int64_t)e) : vu2f(e);
                have_f = true;
            } else if (dt == PT_F64) {
                x = ss ? vi2d((int64_t)e) : vu2d(e);
            } else {
                x = ss ? (double)(int64_t)e : (double)e; /* exact for <= 32-bit sources */
            }
        } else {
            x = to_double(v, st);
            if (ftz && st == PT_F32)
                x = ftz32((float)x);
            if (integral)
                x = round_int(x, in->rnd);
        }
        uint64_t r;
        if (dt == PT_F32) {
            if (!have_f)
                f = st == PT_F64 ? vd2f(x) : (float)x; /* f16/f32 sources are exact */
            if (ftz)
                f = ftz32(f);
            if (sat)
                f = isnan(f) ? 0.0f : sat32(f);
            r = ptx_from_f32(f);
        } else if (dt == PT_F64) {
            if (sat)
                x = isnan(x) ? 0.0 : sat64(x);
            r = ptx_from_f64(x);
        } else { /* f16 */
            if (sat)
                x = isnan(x) ? 0.0 : sat64(x);
            r = ptx_f64_to_f16(x, in->rnd == RND_NONE ? RND_RN : in->rnd);
        }
        d[i] = r;
    }
    if (mode != FE_TONEAREST && !integral)
        fesetround(FE_TONEAREST);
}

/* min and max of PTX: a NaN operand gives the other; -0 is below +0. */
static inline float f32_min(float a, float b)
{
    return isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a))) ? a : b;
}
static inline float f32_max(float a, float b)
{
    return isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a))) ? a : b;
}

/* What a + b, a * b and fma(a, b, c) give when the result is NaN: the first NaN operand in PTX
 * order, quieted (the x86 rule for an instruction's first source), else the result (an invalid
 * operation's NaN). The compiler may swap these operations' operands, in one loop and not in
 * another, so the choice is not left to the instruction it emits; in integer operations, the
 * loops still vectorise. */
static inline float f32_nan_first(float r, float a, float b, float c)
{
#define F32_ISNAN(u) ((int32_t)((u) & 0x7fffffffu) > 0x7f800000)
    const uint32_t ur = (uint32_t)ptx_from_f32(r), ua = (uint32_t)ptx_from_f32(a);
    const uint32_t ub = (uint32_t)ptx_from_f32(b), uc = (uint32_t)ptx_from_f32(c), quiet = 0x00400000u;
    const uint32_t v = F32_ISNAN(ua) ? ua | quiet : F32_ISNAN(ub) ? ub | quiet : F32_ISNAN(uc) ? uc | quiet : ur;
    return ptx_as_f32(F32_ISNAN(ur) ? v : ur);
#undef F32_ISNAN
}

/* fma.rn.f32 of a full warp without .ftz with the host's FMA instructions where it has them:
 * eight lanes at a time, their low words packed into one vector, one correctly rounded
 * operation each (the bits of the library's fmaf). A NaN result is rare: only the eight lanes
 * that hold one take f32_nan_first, so every lane gets what the general loop gives.
 * False: no FMA and AVX2 on this host. */
#ifdef PTX_X86
__attribute__((target("avx2,fma"))) static void fma32_host(uint64_t *d, const uint64_t *p1, const uint64_t *p2,
                                                          const uint64_t *p3)
{
    for (uint32_t k = 0; k < WARP_SIZE; k += 8) {
        __m256 r = _mm256_fmadd_ps(_mm256_castsi256_ps(ptx_low32x8(p1 + k)), _mm256_castsi256_ps(ptx_low32x8(p2 + k)),
                                   _mm256_castsi256_ps(ptx_low32x8(p3 + k)));
        if (_mm256_movemask_ps(_mm256_cmp_ps(r, r, _CMP_UNORD_Q))) {
            for (uint32_t i = k; i < k + 8; i++) { /* the operands before d, which may be one of them */
                float a = ptx_as_f32(p1[i]), b = ptx_as_f32(p2[i]), c = ptx_as_f32(p3[i]);
                d[i] = ptx_from_f32(f32_nan_first(fmaf(a, b, c), a, b, c));
            }
            continue;
        }
        ptx_put32x8(d + k, _mm256_castps_si256(r), false);
    }
}
bool ptx_fma32_warp(uint64_t *d, const uint64_t *p1, const uint64_t *p2, const uint64_t *p3)
{
    if (!ptx_host_fma())
        return false;
    fma32_host(d, p1, p2, p3);
    return true;
}
bool ptx_host_fma(void) { return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2"); }
bool ptx_host_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
bool ptx_fma32_warp(uint64_t *d, const uint64_t *p1, const uint64_t *p2, const uint64_t *p3)
{
    return false;
}
bool ptx_host_fma(void) { return false; }
bool ptx_host_avx2(void) { return false; }
#endif

/* An f32 instruction in the default rounding mode (the common case, .approx included), one
 * loop per operation with the switch out of it; the same values as the general loop of
 * exec_float, whose rounding-mode switch and volatile operands change nothing in this mode:
 * .ftz flushes the operands and the result, then .sat clamps. False: not one of these. */
static bool f32_near(const PtxInst *in, uint64_t *d, const uint64_t *p1, const uint64_t *p2, const uint64_t *p3,
                     uint32_t active)
{
    const bool ftz = in->flags & PF_FTZ;
#define F32_GO(flush, expr)                                                                                  \
    LANES(active, i, float a = flush(ptx_as_f32(A(1, i))), b = flush(ptx_as_f32(A(2, i)));                  \
          float c = flush(ptx_as_f32(A(3, i))); (void)b; (void)c; d[i] = ptx_from_f32(flush(expr)))
#define F32(expr) do { if (ftz) F32_GO(ftz32, expr); else F32_GO(, expr); } while (0)
    switch (in->op) {
    case OP_ADD: F32(f32_nan_first(a + b, a, b, b)); break;
    case OP_SUB: F32(a - b); break;
    case OP_MUL: F32(f32_nan_first(a * b, a, b, b)); break;
    case OP_FMA: case OP_MAD:
        if (active != 0xFFFFFFFFu || ftz || !ptx_fma32_warp(d, p1, p2, p3))
            F32(f32_nan_first(fmaf(a, b, c), a, b, c));
        break;
    case OP_DIV: F32(a / b); break;
    case OP_RCP: F32(1.0f / a); break;
    case OP_SQRT: F32(sqrtf(a)); break;
    case OP_RSQRT: F32(1.0f / sqrtf(a)); break;
    case OP_EX2: F32(exp2f(a)); break;
    case OP_LG2: F32(log2f(a)); break;
    case OP_SIN: F32(sinf(a)); break;
    case OP_COS: F32(cosf(a)); break;
    case OP_TANH: F32(tanhf(a)); break;
    case OP_ABS: F32(fabsf(a)); break;
    case OP_NEG: F32(-a); break;
    case OP_MIN: F32(f32_min(a, b)); break;
    case OP_MAX: F32(f32_max(a, b)); break;
    case OP_COPYSIGN: F32(copysignf(b, a)); break;
    default: return false;
    }
#undef F32
#undef F32_GO
    if (in->flags & PF_SAT)
        LANES(active, i, float r = ptx_as_f32(d[i]); d[i] = ptx_from_f32(isnan(r) ? 0.0f : sat32(r)));
    return true;
}

PTX_WIDE static void exec_float(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active)
{
    uint64_t t1[WARP_SIZE], t2[WARP_SIZE], t3[WARP_SIZE];
    SRC(1);
    SRC(2);
    SRC(3);
    uint64_t *d = w->regs + (size_t)in->o[0].reg * WARP_SIZE;
    bool ftz = in->flags & PF_FTZ, sat = in->flags & PF_SAT;
    int mode = host_mode(in->rnd);
    bool approx = in->flags & PF_APPROX;
    if (mode == FE_TONEAREST && in->type == PT_F32 && f32_near(in, d, p1, p2, p3, active))
        return;
    if (mode != FE_TONEAREST)
        fesetround(mode);
    /* the common forms, the switch out of the loop */
    bool fast = (in->type == PT_F32 || in->type == PT_F64) && !ftz && !sat;
    if (fast && in->type == PT_F64) {
#define F64_LANES(expr) \
    LANES(active, i, double a = ptx_as_f64(A(1, i)), b = ptx_as_f64(A(2, i)); (void)b; d[i] = ptx_from_f64(expr))
        bool near = mode == FE_TONEAREST;
        switch (in->op) {
        case OP_ADD: if (near) F64_LANES(a + b); else F64_LANES(vadd64(a, b)); break;
        case OP_SUB: if (near) F64_LANES(a - b); else F64_LANES(vsub64(a, b)); break;
        case OP_MUL: if (near) F64_LANES(a * b); else F64_LANES(vmul64(a, b)); break;
        case OP_FMA: case OP_MAD:
            if (near)
                F64_LANES(fma(a, b, ptx_as_f64(A(3, i))));
            else
                F64_LANES(vfma64(a, b, ptx_as_f64(A(3, i))));
            break;
        default: fast = false; break;
        }
#undef F64_LANES
    } else if (fast) {
#define F32_LANES(expr) \
    LANES(active, i, float a = ptx_as_f32(A(1, i)), b = ptx_as_f32(A(2, i)); (void)b; d[i] = ptx_from_f32(expr))
        switch (in->op) { /* a directed rounding mode (f32_near took the default one) */
        case OP_ADD: F32_LANES(vadd32(a, b)); break;
        case OP_SUB: F32_LANES(vsub32(a, b)); break;
        case OP_MUL: F32_LANES(vmul32(a, b)); break;
        case OP_FMA: case OP_MAD: F32_LANES(vfma32(a, b, ptx_as_f32(A(3, i)))); break;
        default: fast = false; break;
        }
#undef F32_LANES
    }
    if (fast) {
    } else if (in->type == PT_F32) {
        FOR_LANES(active, i) {
            float a = ptx_as_f32(A(1, i)), b = ptx_as_f32(A(2, i)), c = ptx_as_f32(A(3, i)), r;
            if (ftz) {
                a = ftz32(a);
                b = ftz32(b);
                c = ftz32(c);
            }
            switch (in->op) {
            case OP_ADD: r = vadd32(a, b); break;
            case OP_SUB: r = vsub32(a, b); break;
            case OP_MUL: r = vmul32(a, b); break;
            case OP_FMA: case OP_MAD: r = vfma32(a, b, c); break;
            case OP_DIV: r = vdiv32(a, b); break;
            case OP_RCP: r = vdiv32(1.0f, a); break;
            case OP_SQRT: r = approx ? sqrtf(a) : vsqrt32(a); break;
            case OP_RSQRT: r = 1.0f / sqrtf(a); break;
            case OP_EX2: r = exp2f(a); break;
            case OP_LG2: r = log2f(a); break;
            case OP_SIN: r = sinf(a); break;
            case OP_COS: r = cosf(a); break;
            case OP_TANH: r = tanhf(a); break;
            case OP_ABS: r = fabsf(a); break;
            case OP_NEG: r = -a; break;
            case OP_MIN: r = f32_min(a, b); break;
            case OP_MAX: r = f32_max(a, b); break;
            case OP_COPYSIGN: r = copysignf(b, a); break;
            default: r = 0; break;
            }
            if (ftz)
                r = ftz32(r);
            if (sat)
                r = isnan(r) ? 0.0f : sat32(r);
            d[i] = ptx_from_f32(r);
        }
    } else {
        FOR_LANES(active, i) {
            double a = ptx_as_f64(A(1, i)), b = ptx_as_f64(A(2, i)), c = ptx_as_f64(A(3, i)), r;
            if (ftz) {
                a = ftz64(a);
                b = ftz64(b);
            }
            switch (in->op) {
            case OP_ADD: r = vadd64(a, b); break;
            case OP_SUB: r = vsub64(a, b); break;
            case OP_MUL: r = vmul64(a, b); break;
            case OP_FMA: case OP_MAD: r = vfma64(a, b, c); break;
            case OP_DIV: r = vdiv64(a, b); break;
            case OP_RCP: r = vdiv64(1.0, a); break;
            case OP_SQRT: r = vsqrt64(a); break;
            case OP_RSQRT: r = 1.0 / sqrt(a); break;
            case OP_EX2: r = exp2(a); break;
            case OP_LG2: r = log2(a); break;
            case OP_SIN: r = sin(a); break;
            case OP_COS: r = cos(a); break;
            case OP_TANH: r = tanh(a); break;
            case OP_ABS: r = fabs(a); break;
            case OP_NEG: r = -a; break;
            case OP_MIN: r = isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a))) ? a : b; break;
            case OP_MAX: r = isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a))) ? a : b; break;
            case OP_COPYSIGN: r = copysign(b, a); break;
            default: r = 0; break;
            }
            if (sat)
                r = isnan(r) ? 0.0 : sat64(r);
            d[i] = ptx_from_f64(r);
        }
    }
    if (mode != FE_TONEAREST)
        fesetround(FE_TONEAREST);
}

PTX_WIDE static void exec_setp(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active)
{
    uint64_t t2[WARP_SIZE], t3[WARP_SIZE], t4[WARP_SIZE];
    SRC(2);
    SRC(3);
    SRC(4);
    uint64_t *p = w->regs + (size_t)in->o[0].reg * WARP_SIZE;
    uint64_t *q = in->o[1].kind == OK_REG && in->o[1].reg != PTX_NO_REG
                      ? w->regs + (size_t)in->o[1].reg * WARP_SIZE : NULL;
    bool ftz = in->flags & PF_FTZ;
    const unsigned nb = ptx_type_bytes(in->type);
    if (!ptx_type_float(in->type) && !in->boolop && nb) { /* integers: the comparison out of the loop */
        const bool sg = ptx_type_signed(in->type);
        /* ptx_ext as two shifts by a shift chosen once: no branch on the width in the loop */
        const unsigned sh = 64 - 8 * nb;
#define SEXT(v) ((uint64_t)((int64_t)((v) << sh) >> sh))
#define ZEXT(v) (((v) << sh) >> sh)
#define SETP_LANES(op, cast, ext)                                                                      \
    do {                                                                                               \
        if (q)                                                                                         \
            LANES(active, i, bool t = (cast)ext(A(2, i)) op (cast)ext(A(3, i)); p[i] = t; q[i] = !t); \
        else                                                                                           \
            LANES(active, i, p[i] = (cast)ext(A(2, i)) op (cast)ext(A(3, i)));                       \
    } while (0)
#define SETP_UNSIGNED(op) do { if (sg) SETP_LANES(op, uint64_t, SEXT); else SETP_LANES(op, uint64_t, ZEXT); } while (0)
#define SETP_ORDERED(op) do { if (sg) SETP_LANES(op, int64_t, SEXT); else SETP_LANES(op, uint64_t, ZEXT); } while (0)
        switch (in->mode) {
        case CMP_EQ: SETP_UNSIGNED(==); return;
        case CMP_NE: SETP_UNSIGNED(!=); return;
        case CMP_LO: SETP_UNSIGNED(<); return;
        case CMP_LS: SETP_UNSIGNED(<=); return;
        case CMP_HI: SETP_UNSIGNED(>); return;
        case CMP_HS: SETP_UNSIGNED(>=); return;
        case CMP_LT: SETP_ORDERED(<); return;
        case CMP_LE: SETP_ORDERED(<=); return;
        case CMP_GT: SETP_ORDERED(>); return;
        case CMP_GE: SETP_ORDERED(>=); return;
        default: break;
        }
#undef SETP_ORDERED
#undef SETP_UNSIGNED
#undef SETP_LANES
#undef ZEXT
#undef SEXT
    }
    if (in->type == PT_F32 && !in->boolop) { /* f32 (as compare_float on the exact doubles) */
#define SETPF_GO(flush, expr)                                                                          \
    LANES(active, i, float a = flush(ptx_as_f32(A(2, i))), b = flush(ptx_as_f32(A(3, i))); bool t = (expr); \
          p[i] = t; if (q) q[i] = !t)
#define SETPF(expr) do { if (ftz) SETPF_GO(ftz32, expr); else SETPF_GO(, expr); } while (0)
        switch (in->mode) {
        case CMP_EQ: SETPF(a == b); return;
        case CMP_NE: SETPF(a < b || a > b); return;
        case CMP_LT: SETPF(a < b); return;
        case CMP_LE: SETPF(a <= b); return;
        case CMP_GT: SETPF(a > b); return;
        case CMP_GE: SETPF(a >= b); return;
        case CMP_EQU: SETPF(!(a < b || a > b)); return;
        case CMP_NEU: SETPF(a != b); return;
        case CMP_LTU: SETPF(!(a >= b)); return;
        case CMP_LEU: SETPF(!(a > b)); return;
        case CMP_GTU: SETPF(!(a <= b)); return;
        case CMP_GEU: SETPF(!(a < b)); return;
        default: break;
        }
#undef SETPF
#undef SETPF_GO
    }
    FOR_LANES(active, i) {
        bool t = cmp_typed(in->mode, in->type, A(2, i), A(3, i), ftz), u = !t;
        if (in->boolop) {
            bool c = A(4, i) & 1;
            switch (in->boolop) {
            case BOOL_AND: t = t && c; u = u && c; break;
            case BOOL_OR: t = t || c; u = u || c; break;
            default: t = t != c; u = u != c; break;
            }
        }
        p[i] = t;
        if (q)
            q[i] = u;
    }
}

PTX_WIDE static void exec_misc(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active, uint32_t simt_mask)
{
    uint64_t t1[WARP_SIZE], t2[WARP_SIZE], t3[WARP_SIZE];
    SRC(1);
    SRC(2);
    SRC(3);
    uint64_t *d = in->o[0].kind == OK_REG && in->o[0].reg != PTX_NO_REG
                      ? w->regs + (size_t)in->o[0].reg * WARP_SIZE : NULL;
    uint64_t sink[WARP_SIZE];
    if (!d)
        d = sink;
    unsigned nb = ptx_type_bytes(in->type);
    switch (in->op) {
    case OP_MOV:
        if (in->o[0].kind == OK_VEC) { /* unpack (the source first: a part may overwrite it) */
            const unsigned n = in->o[0].n, eb = nb / n;
            const uint64_t zm = ptx_zmask(eb);
            uint64_t src[WARP_SIZE];
            LANES(active, i, src[i] = A(1, i));
            for (unsigned k = 0; k < n; k++) {
                if (in->o[0].vreg[k] == PTX_NO_REG)
                    continue;
                uint64_t *dk = w->regs + (size_t)in->o[0].vreg[k] * WARP_SIZE;
                const unsigned sh = 8 * eb * k;
                LANES(active, i, dk[i] = (src[i] >> sh) & zm);
            }
        } else if (in->o[1].kind == OK_VEC) { /* pack (into a copy: d may be one of the parts) */
            const unsigned n = in->o[1].n, eb = nb / n;
            const uint64_t zm = ptx_zmask(eb);
            uint64_t out[WARP_SIZE];
            for (unsigned k = 0; k < n; k++) {
                const uint64_t *sk = w->regs + (size_t)in->o[1].vreg[k] * WARP_SIZE;
                const unsigned sh = 8 * eb * k;
                if (k == 0)
                    LANES(active, i, out[i] = sk[i] & zm);
                else
                    LANES(active, i, out[i] |= (sk[i] & zm) << sh);
            }
            LANES(active, i, d[i] = out[i]);
        } else if (in->type == PT_PRED) {
            FOR_LANES(active, i) d[i] = A(1, i) & 1;
        } else {
            LANES(active, i, d[i] = A(1, i));
        }
        return;
    case OP_SELP:
        LANES(active, i, d[i] = (A(3, i) & 1) ? A(1, i) : A(2, i));
        return;
    case OP_SLCT:
        FOR_LANES(active, i) {
            bool ge = in->type2 == PT_F32 ? ptx_as_f32(A(3, i)) >= 0.0f : (int32_t)A(3, i) >= 0;
            d[i] = ge ? A(1, i) : A(2, i);
        }
        return;
    case OP_SET:
        FOR_LANES(active, i) {
            bool t = cmp_typed(in->mode, in->type2, A(1, i), A(2, i), in->flags & PF_FTZ);
            if (in->boolop) {
                bool c = A(3, i) & 1;
                t = in->boolop == BOOL_AND ? (t && c) : in->boolop == BOOL_OR ? (t || c) : (t != c);
            }
            d[i] = in->type == PT_F32 ? (t ? ptx_from_f32(1.0f) : 0) : (t ? ptx_zmask(nb) : 0);
        }
        return;
    case OP_CVTA: {
        uint64_t win = in->space == SP_SHARED ? PTX_WIN_SHARED : in->space == SP_LOCAL ? PTX_WIN_LOCAL
                     : in->space == SP_PARAM_K ? PTX_WIN_PARAM : 0;
        const uint64_t zm = ptx_zmask(nb), add = (in->flags & PF_TO) ? 0 - win : win; /* modulo 2^64 */
        LANES(active, i, d[i] = (A(1, i) + add) & zm);
        return;
    }
    case OP_TESTP:
        FOR_LANES(active, i) {
            double x = to_double(A(1, i), in->type);
            bool r;
            switch (in->mode) {
            case TESTP_FINITE: r = isfinite(x); break;
            case TESTP_INFINITE: r = isinf(x); break;
            case TESTP_NUMBER: r = !isnan(x); break;
            case TESTP_NOTANUMBER: r = isnan(x); break;
            case TESTP_NORMAL:
                r = in->type == PT_F32 ? fpclassify((float)x) == FP_NORMAL : fpclassify(x) == FP_NORMAL;
                break;
            default:
                r = in->type == PT_F32 ? fpclassify((float)x) == FP_SUBNORMAL : fpclassify(x) == FP_SUBNORMAL;
                break;
            }
            d[i] = r;
        }
        return;
    case OP_CLOCK:
        FOR_LANES(active, i) d[i] = l->clock & ptx_zmask(nb);
        return;
    case OP_ACTIVEMASK:
        FOR_LANES(active, i) d[i] = simt_mask;
        return;
    case OP_VOTE: {
        uint32_t ballot = 0;
        FOR_LANES(active, i) if (A(1, i) & 1) ballot |= 1u << i;
        FOR_LANES(active, i) {
            switch (in->mode) {
            case VOTE_ALL: d[i] = ballot == active; break;
            case VOTE_ANY: d[i] = ballot != 0; break;
            case VOTE_UNI: d[i] = ballot == 0 || ballot == active; break;
            default: d[i] = ballot; break;
            }
        }
        return;
    }
    case OP_MATCH: { /* each lane's group: the lanes of its member mask that run it */
        uint64_t zm = ptx_zmask(nb);
        uint64_t *p = in->o[1].kind == OK_REG && in->o[1].reg != PTX_NO_REG
                          ? w->regs + (size_t)in->o[1].reg * WARP_SIZE : NULL;
        FOR_LANES(active, i) {
            uint32_t g = (uint32_t)A(3, i) & active, same = 0;
            for (uint32_t j = 0; j < WARP_SIZE; j++)
                if ((g >> j & 1) && (A(2, j) & zm) == (A(2, i) & zm))
                    same |= 1u << j;
            if (in->mode == MATCH_ANY) {
                d[i] = same;
            } else {
                d[i] = same == g ? g : 0;
                if (p)
                    p[i] = same == g;
            }
        }
        return;
    }
    case OP_SHFL: {
        uint64_t t4[WARP_SIZE], src[WARP_SIZE];
        SRC(4);
        uint64_t *p = in->o[1].kind == OK_REG && in->o[1].reg != PTX_NO_REG
                          ? w->regs + (size_t)in->o[1].reg * WARP_SIZE : NULL;
        for (unsigned i = 0; i < WARP_SIZE; i++)
            src[i] = A(2, i);
        const uint8_t mode = in->mode;
        LANES(active, i, {
            int b = (int)(A(3, i) & 31), c = (int)(A(4, i) & 31), seg = (int)((A(4, i) >> 8) & 31);
            int maxl = ((int)i & seg) | (c & ~seg), minl = (int)i & seg, j;
            bool ok;
            switch (mode) {
            case SHFL_UP: j = (int)i - b; ok = j >= maxl; break;
            case SHFL_DOWN: j = (int)i + b; ok = j <= maxl; break;
            case SHFL_BFLY: j = (int)i ^ b; ok = j <= maxl; break;
            default: j = minl | (b & ~seg); ok = j <= maxl; break;
            }
            if (!ok || j < 0 || j > 31)
                j = (int)i, ok = ok && j >= 0;
            d[i] = src[j] & 0xFFFFFFFFu;
            if (p)
                p[i] = ok;
        });
        return;
    }
    default:
        return;
    }
}

const char *ptx_alu_exec(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active,
                         uint32_t simt_mask)
{
    switch (in->op) {
    case OP_SETP:
        exec_setp(l, w, in, active);
        return NULL;
    case OP_CVT:
        exec_cvt(l, w, in, active);
        return NULL;
    case OP_MOV: case OP_SELP: case OP_SLCT: case OP_SET: case OP_CVTA: case OP_TESTP:
    case OP_CLOCK: case OP_ACTIVEMASK: case OP_VOTE: case OP_SHFL: case OP_MATCH:
        exec_misc(l, w, in, active, simt_mask);
        return NULL;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA: case OP_DIV: case OP_ABS:
    case OP_NEG: case OP_MIN: case OP_MAX: case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2:
    case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH: case OP_COPYSIGN:
        if (in->type == PT_F32 || in->type == PT_F64) {
            exec_float(l, w, in, active);
            return NULL;
        }
        if (ptx_type_float(in->type))
            return ptx_half_exec(l, w, in, active); /* f16, f16x2 (ptx_half.c) */
        if (in->op == OP_FMA)
            return "fma needs a floating-point type";
        ptx_alu_int(l, w, in, active);
        return NULL;
    default:
        if (in->type == PT_F32 || in->type == PT_F64)
            exec_float(l, w, in, active); /* mad.f32 and friends */
        else
            ptx_alu_int(l, w, in, active);
        return NULL;
    }
}

/* bar.red (PTX ISA 9.7.13.1): the warp's active lanes add their predicate (the last operand) to
 * the CTA's reduction for this barrier instance, the warp's red_count-th. Its result is written
 * at the warp's next step (ptx_bar_red_result), when the barrier has let the warp go: every warp
 * has arrived then. Two slots suffice: a warp arrives at instance g + 2 only after every warp
 * has passed instance g + 1, and so has taken instance g's result. */
void ptx_bar_red_arrive(PtxLaunch *l, PtxWarp *w, const PtxInst *in, uint32_t active)
{
    PtxCta *c = w->cta;
    uint32_t gen = w->red_count++, s = gen & 1;
    if (c->red_gen[s] != gen) {
        c->red_gen[s] = gen;
        c->red_popc[s] = 0;
        c->red_all[s] = true;
        c->red_any[s] = false;
    }
    uint64_t t[WARP_SIZE];
    const uint64_t *p = ptx_lane_values(l, w, &in->o[in->n_ops - 1], t);
    uint32_t yes = 0;
    FOR_LANES(active, i) yes |= (uint32_t)(p[i] & 1) << i;
    c->red_popc[s] += popcount_u32(yes);
    c->red_all[s] = c->red_all[s] && yes == active;
    c->red_any[s] = c->red_any[s] || yes != 0;
    w->red_lanes = in->o[0].kind == OK_REG && in->o[0].reg != PTX_NO_REG ? active : 0;
    w->red_dst = in->o[0].reg;
    w->red_mode = in->mode;
}

void ptx_bar_red_result(PtxWarp *w)
{
    const PtxCta *c = w->cta;
    uint32_t s = (w->red_count - 1) & 1;
    uint64_t v = w->red_mode == BAR_RED_POPC ? c->red_popc[s] : w->red_mode == BAR_RED_AND ? c->red_all[s] : c->red_any[s];
    uint64_t *d = w->regs + (size_t)w->red_dst * WARP_SIZE;
    FOR_LANES(w->red_lanes, i) d[i] = v;
    w->red_lanes = 0;
}
