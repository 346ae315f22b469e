// Memory spaces and atomics: static and dynamic shared memory, local arrays, __constant__ and
// __device__ variables (with initialisers), vector loads/stores, generic pointers into shared and
// local memory, global and shared atomics of every kind, and special registers.

__constant__ int ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant__ float cscale = 0.5f;
__device__ int gcount[2] = {100, 7};
__device__ unsigned long long gsum;

extern "C" __global__ void mem_spaces(const float4 *in4, float4 *out4, int *out, int *generic_sel)
{
    extern __shared__ float dyn[];
    __shared__ int tile[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float4 v = in4[i];
    v.x = v.x * cscale + ctab[t & 7];
    v.w = v.w + dyn[0];
    out4[i] = v;
    dyn[t + 1] = v.y;
    tile[t] = i * 3;
    int loc[16];
    for (int k = 0; k < 16; k++)
        loc[k] = k * i;
    __syncthreads();
    int *p = generic_sel[i] ? &tile[(t + 5) & 63] : &loc[t & 15];   // generic pointer
    int2 pair = make_int2(*p, (int)dyn[((t + 1) & 63) + 1]);
    ((int2 *)out)[i] = pair;
    if (t == 0)
        out[2 * 64 * gridDim.x + blockIdx.x] = gcount[0] + gcount[1];
}

extern "C" __global__ void atomics(int *g, unsigned *ug, float *gf, unsigned long long *g64, int *out)
{
    __shared__ int s[8];
    __shared__ unsigned us[2];
    __shared__ float sf;
    int t = threadIdx.x;
    if (t < 8)
        s[t] = 0;
    if (t == 0) {
        us[0] = 0; us[1] = 1000; sf = 0.0f;
    }
    __syncthreads();
    int old = atomicAdd(&g[0], t);
    atomicSub(&g[1], 2);
    atomicMin(&g[2], 50 - t);
    atomicMax(&g[3], t * 3);
    atomicAnd(&g[4], ~(1 << (t & 31)));
    atomicOr(&g[5], 1 << (t & 31));
    atomicXor(&g[6], t);
    atomicExch(&g[7], 42);
    atomicCAS(&g[8], t, t + 1);            // increments g[8] step by step only if lanes run in order
    atomicInc(&ug[0], 9u);
    atomicDec(&ug[1], 5u);
    atomicAdd(gf, 0.25f);
    atomicAdd(g64, (unsigned long long)t << 33);
    atomicMin((unsigned *)&ug[2], (unsigned)(t + 7));
    atomicAdd(&s[t & 7], t);
    atomicMax(&s[0], 1000 + t);
    atomicInc(&us[0], 1000u);
    atomicDec(&us[1], 2000u);
    atomicAdd(&sf, 1.5f);
    atomicExch(&s[7], t);
    __syncthreads();
    if (t < 8)
        out[t] = s[t];
    if (t == 0) {
        out[8] = (int)us[0];
        out[9] = (int)us[1];
        out[10] = __float_as_int(sf);
    }
    out[16 + t] = old;
}

extern "C" __global__ void specials(int *out)
{
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int *o = out + (cta * blockDim.x * blockDim.y * blockDim.z + t) * 8;
    unsigned lane, warp;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm("mov.u32 %0, %%warpid;" : "=r"(warp));
    long long c0 = clock64();
    int c1 = clock();
    o[0] = threadIdx.x | (threadIdx.y << 8) | (threadIdx.z << 16);
    o[1] = blockIdx.x | (blockIdx.y << 8) | (blockIdx.z << 16);
    o[2] = blockDim.x | (blockDim.y << 8) | (blockDim.z << 16);
    o[3] = gridDim.x | (gridDim.y << 8) | (gridDim.z << 16);
    o[4] = (int)lane;
    o[5] = (int)warp;
    o[6] = (c0 > 0) + (c1 != 0);
    o[7] = 0;
}
