// Floating-point coverage: f32/f64 arithmetic in every IEEE rounding mode, fma, division,
// reciprocal, square root, the .approx special functions, min/max, setp on floats (incl. unordered).

extern "C" __global__ void f32_round(const float *a, const float *b, const float *c, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i], y = b[i], z = c[i];
    float *o = out + i * 24;
    o[0] = __fadd_rn(x, y);  o[1] = __fadd_rz(x, y);  o[2] = __fadd_rd(x, y);  o[3] = __fadd_ru(x, y);
    o[4] = __fmul_rn(x, y);  o[5] = __fmul_rz(x, y);  o[6] = __fmul_rd(x, y);  o[7] = __fmul_ru(x, y);
    o[8] = __fdiv_rn(x, y);  o[9] = __fdiv_rz(x, y);  o[10] = __fdiv_rd(x, y); o[11] = __fdiv_ru(x, y);
    o[12] = __fmaf_rn(x, y, z); o[13] = __fmaf_rz(x, y, z); o[14] = __fmaf_rd(x, y, z); o[15] = __fmaf_ru(x, y, z);
    o[16] = __fsqrt_rn(fabsf(x)); o[17] = __fsqrt_rz(fabsf(x)); o[18] = __fsqrt_rd(fabsf(x)); o[19] = __fsqrt_ru(fabsf(x));
    o[20] = __frcp_rn(y); o[21] = __frcp_rz(y); o[22] = __fsub_rd(x, y); o[23] = __fsub_ru(x, y);
}

extern "C" __global__ void f64_round(const double *a, const double *b, const double *c, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double x = a[i], y = b[i], z = c[i];
    double *o = out + i * 16;
    o[0] = __dadd_rn(x, y); o[1] = __dadd_rz(x, y); o[2] = __dadd_rd(x, y); o[3] = __dadd_ru(x, y);
    o[4] = __dmul_rz(x, y); o[5] = __dmul_ru(x, y);
    o[6] = __ddiv_rn(x, y); o[7] = __ddiv_rz(x, y); o[8] = __ddiv_rd(x, y); o[9] = __ddiv_ru(x, y);
    o[10] = __fma_rn(x, y, z); o[11] = __fma_rz(x, y, z);
    o[12] = __dsqrt_rn(fabs(x)); o[13] = __dsqrt_ru(fabs(x));
    o[14] = __drcp_rn(y); o[15] = x / y - fmin(x, y) + fmax(x, z);
}

extern "C" __global__ void f32_misc(const float *a, const float *b, float *out, int *flags)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i], y = b[i];
    float *o = out + i * 10;
    o[0] = x / y;              // div.rn.f32 (full IEEE)
    o[1] = __fdividef(x, y);   // div.approx
    o[2] = __expf(x);          // ex2.approx
    o[3] = __logf(fabsf(y));   // lg2.approx
    o[4] = __sinf(x);
    o[5] = __cosf(x);
    o[6] = fminf(x, y) + fmaxf(x, y);
    o[7] = sqrtf(fabsf(x));
    o[8] = rsqrtf(fabsf(y));
    o[9] = copysignf(x, y) + fabsf(y) - (-x);
    int f = 0;
    f |= (x < y) << 0;
    f |= (x <= y) << 1;
    f |= (x == y) << 2;
    f |= (x != y) << 3;
    f |= !(x >= y) << 4;   // unordered-or-less
    f |= !(x > y) << 5;
    f |= isnan(x) << 6;
    f |= isinf(y) << 7;
    f |= (x > 0.5f ? 1 : 0) << 8;
    flags[i] = f;
}
