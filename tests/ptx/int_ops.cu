// Integer instruction coverage: 16/32/64-bit arithmetic, logic, shifts, bit operations, carry chains.
// Each thread reads a[i], b[i] and writes a fixed number of results; the test recomputes them on the CPU.

extern "C" __global__ void int32_ops(const int *a, const int *b, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = a[i], y = b[i];
    unsigned ux = x, uy = y;
    int *o = out + i * 26;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = __mulhi(x, y);
    o[4] = (int)__umulhi(ux, uy);
    o[5] = x / y;
    o[6] = x % y;
    o[7] = (int)(ux / uy);
    o[8] = (int)(ux % uy);
    o[9] = abs(x);
    o[10] = -x;
    o[11] = min(x, y);
    o[12] = max(x, y);
    o[13] = (int)min(ux, uy);
    o[14] = (int)max(ux, uy);
    o[15] = x << (y & 31);
    o[16] = x >> (y & 31);
    o[17] = (int)(ux >> (y & 31));
    o[18] = (x & y) ^ (~x | y);
    o[19] = __clz(x);
    o[20] = __popc(x);
    o[21] = (int)__brev(ux);
    o[22] = __ffs(x);
    o[23] = x * 7 + y;
    o[24] = __byte_perm(x, y, 0x5140);
    o[25] = (int)__funnelshift_l(ux, uy, y & 31) ^ (int)__funnelshift_r(ux, uy, x & 31);
}

extern "C" __global__ void int64_ops(const long long *a, const long long *b, long long *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long x = a[i], y = b[i];
    unsigned long long ux = x, uy = y;
    long long *o = out + i * 18;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = __mul64hi(x, y);
    o[4] = (long long)__umul64hi(ux, uy);
    o[5] = x / y;
    o[6] = x % y;
    o[7] = (long long)(ux / uy);
    o[8] = (long long)(ux % uy);
    o[9] = min(x, y);
    o[10] = (long long)max(ux, uy);
    o[11] = x << (y & 63);
    o[12] = x >> (y & 63);
    o[13] = (long long)(ux >> (y & 63));
    o[14] = __clzll(x) + 100 * __popcll(x);
    o[15] = (long long)__brevll(ux);
    o[16] = (long long)(int)x * (long long)(int)y;   // mul.wide.s32
    o[17] = (long long)((unsigned long long)(unsigned)x * (unsigned)y + ux); // mad.wide.u32
}

// 16-bit types and the carry chain, written in PTX directly.
extern "C" __global__ void int16_carry_ops(const int *a, const int *b, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = a[i], y = b[i];
    short sx = (short)x, sy = (short)(y | 1);
    unsigned short hx = (unsigned short)x, hy = (unsigned short)(y | 1);
    short r[8];
    unsigned short u[6];
    asm("add.s16 %0, %1, %2;" : "=h"(r[0]) : "h"(sx), "h"(sy));
    asm("sub.s16 %0, %1, %2;" : "=h"(r[1]) : "h"(sx), "h"(sy));
    asm("mul.lo.s16 %0, %1, %2;" : "=h"(r[2]) : "h"(sx), "h"(sy));
    asm("mul.hi.s16 %0, %1, %2;" : "=h"(r[3]) : "h"(sx), "h"(sy));
    asm("div.s16 %0, %1, %2;" : "=h"(r[4]) : "h"(sx), "h"(sy));
    asm("rem.s16 %0, %1, %2;" : "=h"(r[5]) : "h"(sx), "h"(sy));
    asm("min.s16 %0, %1, %2;" : "=h"(r[6]) : "h"(sx), "h"(sy));
    asm("abs.s16 %0, %1;" : "=h"(r[7]) : "h"(sx));
    asm("max.u16 %0, %1, %2;" : "=h"(u[0]) : "h"(hx), "h"(hy));
    asm("div.u16 %0, %1, %2;" : "=h"(u[1]) : "h"(hx), "h"(hy));
    asm("mul.hi.u16 %0, %1, %2;" : "=h"(u[2]) : "h"(hx), "h"(hy));
    asm("shr.u16 %0, %1, 3;" : "=h"(u[3]) : "h"(hx));
    asm("shl.b16 %0, %1, 5;" : "=h"(u[4]) : "h"(hx));
    asm("xor.b16 %0, %1, %2;" : "=h"(u[5]) : "h"(hx), "h"(hy));
    int wide;
    asm("mul.wide.s16 %0, %1, %2;" : "=r"(wide) : "h"(sx), "h"(sy));
    // 64-bit add and subtract from 32-bit halves with carry/borrow, and a 32x32->64 mad chain
    unsigned lo, hi, slo, shi, mlo, mhi;
    asm("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, %4, %5;"
        : "=r"(lo), "=r"(hi) : "r"((unsigned)x), "r"((unsigned)y), "r"((unsigned)y), "r"((unsigned)x));
    asm("sub.cc.u32 %0, %2, %3;\n\tsubc.u32 %1, %4, %5;"
        : "=r"(slo), "=r"(shi) : "r"((unsigned)x), "r"((unsigned)y), "r"((unsigned)y), "r"((unsigned)x));
    asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, %5;"
        : "=r"(mlo), "=r"(mhi) : "r"((unsigned)x), "r"((unsigned)y), "r"((unsigned)y), "r"((unsigned)x));
    int *o = out + i * 22;
    for (int k = 0; k < 8; k++)
        o[k] = r[k];
    for (int k = 0; k < 6; k++)
        o[8 + k] = u[k];
    o[14] = wide;
    o[15] = (int)lo;
    o[16] = (int)hi;
    o[17] = (int)slo;
    o[18] = (int)shi;
    o[19] = (int)mlo;
    o[20] = (int)mhi;
    int p;
    asm("{ .reg .pred p, q; setp.lt.s32 p, %1, %2; setp.gt.u32 q, %1, %2; and.pred p, p, q;"
        " or.pred q, p, q; xor.pred p, p, q; not.pred q, q; selp.s32 %0, 1, 0, p; @q add.s32 %0, %0, 2; }"
        : "=r"(p) : "r"(x), "r"(y));
    o[21] = p;
}
