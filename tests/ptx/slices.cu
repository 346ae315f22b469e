/* slices.cu: kernels for the address pre-computation tests (test_ptx_slice.c): row-major,
 * column-major and 1D indexing, a 3D grid with 64-bit and unsigned arithmetic, a loop whose
 * access moves with the loop counter, an indirect access, and a __device__ array. */

#define BS 16

/* Row-major 2D, BS x BS blocks: element (row, col) of a w-wide matrix. */
extern "C" __global__ void rowmajor(float *out, const float *in, int w)
{
    int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y;
    int i = by * w * BS + ty * w + bx * BS + tx;
    out[i] = in[i] * 2.0f;
}

/* 1D: c[i] = a[i] + b[i] for i below n. */
extern "C" __global__ void vec1d(float *c, const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* Column-major 2D: consecutive threads of a warp walk a row of an h-tall column-major matrix. */
extern "C" __global__ void colmajor(float *out, const float *in, int h)
{
    int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y;
    int i = (tx + bx * BS) * h + by * BS + ty;
    out[i] = in[i] + 1.0f;
}

/* A loop-dependent access (in[k * w + i]), an indirect one (in[idx[i]]) and plain ones. */
extern "C" __global__ void loopind(float *out, const float *in, const int *idx, int n, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int k = 0; k < n; k++)
        s += in[k * w + i];
    out[i] = s + in[idx[i]];
}

/* 3D grid, 64-bit and unsigned index arithmetic, division, shifts, a minimum and a select on
 * a parameter. */
extern "C" __global__ void mixed(unsigned *out, const unsigned short *in, long long stride, unsigned w)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
    size_t plane = (size_t)gridDim.y * blockDim.y * w;
    size_t e = z * plane + (size_t)y * w + x;
    unsigned j = min(x / 3, (x >> 1) ^ (y % 5));
    out[e] = in[e * 2 + (stride > 0 ? j : 1)] + j;
}

/* An index chosen on a data-independent branch: two definitions meet at the join. */
extern "C" __global__ void pathdep(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j;
    if (i & 1)
        j = i / 3 + n;
    else
        j = (i * i) % n;
    out[j] = i;
}

__device__ float table[4096];

/* A __device__ array indexed by the thread. */
extern "C" __global__ void devarray(float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = table[i & 4095];
}
