// kernel.cu: a tiny module for the fat-binary decoder tests (tests/unit/test_fatbin.c).
// saxpy needs few registers; mat4 keeps a 4x4 matrix and a row live at once, so ptxas gives it
// clearly more, and its name stays C++-mangled as in most real programs.

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// c[i] = a[i] * m for n rows a[i] of four floats and one 4x4 matrix m.
__global__ void mat4(int n, const float4 *a, const float4 *m, float4 *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3];
    float4 r = a[i];
    float4 o;
    o.x = r.x * m0.x + r.y * m1.x + r.z * m2.x + r.w * m3.x;
    o.y = r.x * m0.y + r.y * m1.y + r.z * m2.y + r.w * m3.y;
    o.z = r.x * m0.z + r.y * m1.z + r.z * m2.z + r.w * m3.z;
    o.w = r.x * m0.w + r.y * m1.w + r.z * m2.w + r.w * m3.w;
    c[i] = o;
}
