// Conversions between integer and floating-point types with every rounding modifier, saturation,
// and integer narrowing/widening.

extern "C" __global__ void cvt_f2i(const float *a, const double *d, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    double y = d[i];
    int *o = out + i * 20;
    o[0] = __float2int_rn(x);  o[1] = __float2int_rz(x);  o[2] = __float2int_rd(x);  o[3] = __float2int_ru(x);
    o[4] = (int)__float2uint_rn(x); o[5] = (int)__float2uint_rz(x);
    o[6] = __double2int_rn(y); o[7] = __double2int_rz(y); o[8] = __double2int_rd(y); o[9] = __double2int_ru(y);
    long long ll = __float2ll_rn(x) + __double2ll_rz(y);
    o[10] = (int)ll; o[11] = (int)(ll >> 32);
    o[12] = (signed char)__float2int_rz(x);           // cvt.s8
    o[13] = (unsigned short)__double2int_rz(y);       // cvt.u16
    o[14] = (int)(unsigned long long)__double2ull_rd(y);
    float r1 = rintf(x), r2 = truncf(x), r3 = floorf(x), r4 = ceilf(x);
    o[15] = __float_as_int(r1); o[16] = __float_as_int(r2); o[17] = __float_as_int(r3); o[18] = __float_as_int(r4);
    o[19] = __float_as_int(__saturatef(x));
}

extern "C" __global__ void cvt_i2f(const int *a, const long long *b, float *outf, double *outd)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = a[i];
    long long y = b[i];
    float *o = outf + i * 14;
    o[0] = __int2float_rn(x);  o[1] = __int2float_rz(x);  o[2] = __int2float_rd(x);  o[3] = __int2float_ru(x);
    o[4] = __uint2float_rn((unsigned)x); o[5] = __uint2float_rz((unsigned)x);
    o[6] = __ll2float_rn(y); o[7] = __ll2float_rz(y); o[8] = __ll2float_rd(y); o[9] = __ll2float_ru(y);
    o[10] = __ull2float_rn((unsigned long long)y);
    double dy = (double)y * 1.000000001;
    o[11] = __double2float_rn(dy); o[12] = __double2float_rz(dy); o[13] = __double2float_ru(dy);
    double *p = outd + i * 4;
    p[0] = __int2double_rn(x);
    p[1] = __ll2double_rn(y);
    p[2] = __ll2double_rz(y);
    p[3] = (double)(short)x + (double)(unsigned char)x;
}
