// ptxgaps.cu: PTX that nvcc 13 emits for small CUDA features, each checked against the CPU:
// warpSize (WARP_SZ), __match_any_sync / __match_all_sync (match.any / match.all), bmsk (inline
// PTX), half-precision arithmetic (add, mul, fma, neg, abs, min, max on half and half2: add.f16,
// fma.rn.f16x2, ...), CUB's block reduce and scan, and __syncthreads_count / _and / _or
// (bar.red.popc, .and, .or), several rounds in a row on blocks with a partial last warp.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda_fp16.h>

#include "check.h"

__global__ void warp_ops(const int *keys, int *out)
{
    int t = threadIdx.x;
    out[t] = warpSize;
    out[32 + t] = (int)__match_any_sync(0xffffffffu, keys[t]);
    int pred = 0;
    unsigned all = __match_all_sync(0xffffffffu, keys[t] / 64, &pred); // all equal: 0
    out[64 + t] = (int)(all ^ (unsigned)pred);
    unsigned m;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(m) : "r"(t), "r"(t % 7));
    out[96 + t] = (int)m;
}

__global__ void half_ops(const half *a, const half *b, half *r, const half2 *p, half2 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    half x = a[i], y = b[i];
    r[7 * i + 0] = __hadd(x, y);
    r[7 * i + 1] = __hmul(x, y);
    r[7 * i + 2] = __hfma(x, y, x);
    r[7 * i + 3] = __hneg(x);
    r[7 * i + 4] = __habs(y);
    r[7 * i + 5] = __hmin(x, y);
    r[7 * i + 6] = __hmax(x, y);
    q[2 * i] = __hfma2(p[i], p[i], p[i]);
    q[2 * i + 1] = __hmul2(p[i], __hneg2(p[i]));
}

// Each round, a thread's predicate depends on the round and on its block; out[block][round][3].
__device__ __host__ inline bool red_pred(int block, int round, int t, int which)
{
    return which == 0 ? (t * 7 + round + block) % 5 == 0 : which == 1 ? t != round * 13 + block : t == round * 17 + block;
}
__global__ void bar_red(int *out, int rounds)
{
    int t = threadIdx.x;
    for (int r = 0; r < rounds; r++) {
        int c = __syncthreads_count(red_pred(blockIdx.x, r, t, 0));
        int a = __syncthreads_and(red_pred(blockIdx.x, r, t, 1));
        int o = __syncthreads_or(red_pred(blockIdx.x, r, t, 2));
        if (t == (r * 31) % blockDim.x) {
            int *q = out + (blockIdx.x * rounds + r) * 3;
            q[0] = c, q[1] = a, q[2] = o;
        }
    }
}

template <int BLOCK> __global__ void cub_ops(const int *in, int *sums, int *scan)
{
    typedef cub::BlockReduce<int, BLOCK> Reduce;
    typedef cub::BlockScan<int, BLOCK> Scan;
    __shared__ typename Reduce::TempStorage rs;
    __shared__ typename Scan::TempStorage ss;
    int v = in[blockIdx.x * BLOCK + threadIdx.x], s = Reduce(rs).Sum(v), x;
    Scan(ss).ExclusiveSum(v, x);
    scan[blockIdx.x * BLOCK + threadIdx.x] = x;
    if (threadIdx.x == 0)
        sums[blockIdx.x] = s;
}

static int bad;
static void expect(const char *what, int i, double got, double want)
{
    if (!(got == want || (got != got && want != want)) && bad++ < 10)
        printf("%s[%d] = %g, expected %g\n", what, i, got, want);
}

int main()
{
    int keys[32], out[128], *dk, *dout;
    for (int i = 0; i < 32; i++)
        keys[i] = i % 3;
    CHECK(cudaMalloc((void **)&dk, sizeof keys));
    CHECK(cudaMalloc((void **)&dout, sizeof out));
    CHECK(cudaMemcpy(dk, keys, sizeof keys, cudaMemcpyHostToDevice));
    warp_ops<<<1, 32>>>(dk, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++) {
        unsigned any = 0;
        for (int u = 0; u < 32; u++)
            any |= (unsigned)(keys[u] == keys[t]) << u;
        unsigned width = t % 7, pos = t;
        unsigned mask = pos >= 32 ? 0 : (unsigned)((((1ull << width) - 1) << pos) & 0xffffffffu);
        expect("warpSize", t, out[t], 32);
        expect("match.any", t, (unsigned)out[32 + t], any);
        expect("match.all", t, (unsigned)out[64 + t], 0xffffffffu ^ 1u);
        expect("bmsk", t, (unsigned)out[96 + t], mask);
    }

    const int n = 300;
    half *ha = new half[n], *hb = new half[n], *hr = new half[7 * n];
    half2 *hp = new half2[n], *hq = new half2[2 * n];
    for (int i = 0; i < n; i++) {
        ha[i] = __float2half((float)(i % 41 - 20) * 0.37f);
        hb[i] = __float2half((float)(i % 23 - 11) * 1.13f + (i == 7 ? 60000.0f : 0.0f));
        hp[i] = __floats2half2_rn((float)(i % 13) * 0.71f - 4.0f, (float)(i % 5) * 3.3f);
    }
    half *da, *db, *dr;
    half2 *dp, *dq;
    CHECK(cudaMalloc((void **)&da, n * sizeof(half)));
    CHECK(cudaMalloc((void **)&db, n * sizeof(half)));
    CHECK(cudaMalloc((void **)&dr, 7 * n * sizeof(half)));
    CHECK(cudaMalloc((void **)&dp, n * sizeof(half2)));
    CHECK(cudaMalloc((void **)&dq, 2 * n * sizeof(half2)));
    CHECK(cudaMemcpy(da, ha, n * sizeof(half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, n * sizeof(half), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dp, hp, n * sizeof(half2), cudaMemcpyHostToDevice));
    half_ops<<<(n + 127) / 128, 128>>>(da, db, dr, dp, dq, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hr, dr, 7 * n * sizeof(half), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hq, dq, 2 * n * sizeof(half2), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        // IEEE half arithmetic: the exact result (a double holds it) rounded once to a half
        double x = __half2float(ha[i]), y = __half2float(hb[i]);
        expect("hadd", i, __half2float(hr[7 * i]), __half2float(__double2half(x + y)));
        expect("hmul", i, __half2float(hr[7 * i + 1]), __half2float(__double2half(x * y)));
        expect("hfma", i, __half2float(hr[7 * i + 2]), __half2float(__double2half(x * y + x)));
        expect("hneg", i, __half2float(hr[7 * i + 3]), -x);
        expect("habs", i, __half2float(hr[7 * i + 4]), y < 0 ? -y : y);
        expect("hmin", i, __half2float(hr[7 * i + 5]), x < y ? x : y);
        expect("hmax", i, __half2float(hr[7 * i + 6]), x > y ? x : y);
        double lo = __low2float(hp[i]), hi = __high2float(hp[i]);
        expect("hfma2.lo", i, __low2float(hq[2 * i]), __half2float(__double2half(lo * lo + lo)));
        expect("hfma2.hi", i, __high2float(hq[2 * i]), __half2float(__double2half(hi * hi + hi)));
        expect("hmul2.lo", i, __low2float(hq[2 * i + 1]), __half2float(__double2half(-lo * lo)));
        expect("hmul2.hi", i, __high2float(hq[2 * i + 1]), __half2float(__double2half(-hi * hi)));
    }

    const int blocks = 4, block = 128;
    int in[blocks * block], sums[blocks], scan[blocks * block], *din, *dsums, *dscan;
    for (int i = 0; i < blocks * block; i++)
        in[i] = (i * 7919) % 1000 - 400;
    CHECK(cudaMalloc((void **)&din, sizeof in));
    CHECK(cudaMalloc((void **)&dsums, sizeof sums));
    CHECK(cudaMalloc((void **)&dscan, sizeof scan));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    cub_ops<block><<<blocks, block>>>(din, dsums, dscan);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(scan, dscan, sizeof scan, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int s = 0;
        for (int t = 0; t < block; t++) {
            expect("cub scan", b * block + t, scan[b * block + t], s);
            s += in[b * block + t];
        }
        expect("cub sum", b, sums[b], s);
    }

    const int rblocks = 3, rthreads = 80, rounds = 8;
    int red[rblocks * rounds * 3], *dred;
    CHECK(cudaMalloc((void **)&dred, sizeof red));
    bar_red<<<rblocks, rthreads>>>(dred, rounds);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(red, dred, sizeof red, cudaMemcpyDeviceToHost));
    for (int b = 0; b < rblocks; b++)
        for (int r = 0; r < rounds; r++) {
            int c = 0, a = 1, o = 0;
            for (int t = 0; t < rthreads; t++) {
                c += red_pred(b, r, t, 0);
                a = a && red_pred(b, r, t, 1);
                o = o || red_pred(b, r, t, 2);
            }
            const int *q = red + (b * rounds + r) * 3;
            expect("syncthreads_count", b * rounds + r, q[0], c);
            expect("syncthreads_and", b * rounds + r, q[1] != 0, a);
            expect("syncthreads_or", b * rounds + r, q[2] != 0, o);
        }
    printf("ptxgaps: warp ops, %d half ops, CUB reduce and scan, %d barrier reductions: %d mismatches\n", n * 11,
           rblocks * rounds * 3, bad);
    return bad != 0;
}
