// sm80.cu: the sm_80 PTX of the Ampere GEMM samples, checked against the CPU: cp.async through
// __pipeline_memcpy_async (16-, 8- and 4-byte copies, a zero fill past src-size, two stages of
// commit and wait_prior), wmma m16n16k8 on tf32 (with __float_to_tf32 on each element) and
// m8n8k4 on double. Built with -arch=sm_80 (tests/cudart/build.sh); run by
// tests/unit/test_ptx_sm80.c at compute capability 8.0 in both modes.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cmath>
#include <cstdio>

#include "check.h"

using namespace nvcuda;

// Each block copies 2 x 256 floats in two pipeline stages: stage 0 whole, stage 1 with
// thread t's 16-byte copy reading src-size t % 17 bytes (the rest zero), then an 8- and a
// 4-byte copy.
__global__ void copy(const float *in, float *out)
{
    __shared__ __align__(16) float s[2][256 + 4];
    int t = threadIdx.x; // 64 threads: 4 floats each
    const float *src = in + blockIdx.x * 512;
    for (int i = 0; i < 260; i += 64)
        if (i + t < 260)
            s[0][i + t] = s[1][i + t] = -1.0f;
    __syncthreads();
    __pipeline_memcpy_async(&s[0][t * 4], src + t * 4, 16);
    __pipeline_commit();
    // src-size in a register (__pipeline_memcpy_async's zero fill is a switch of literal ones)
    unsigned dst = (unsigned)__cvta_generic_to_shared(&s[1][t * 4]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src + 256 + t * 4), "r"(t % 17));
    if (t == 0) {
        __pipeline_memcpy_async(&s[1][256], src + 8, 8);
        __pipeline_memcpy_async(&s[1][258], src + 10, 4);
    }
    __pipeline_commit();
    __pipeline_wait_prior(1); // stage 0 is in
    __syncthreads();
    for (int i = 0; i < 4; i++)
        out[blockIdx.x * 520 + t * 4 + i] = s[0][t * 4 + i];
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int i = 0; i < 260; i += 64)
        if (i + t < 260)
            out[blockIdx.x * 520 + 256 + i + t] = s[1][i + t];
}

__global__ void tf32_gemm(const float *a, const float *b, const float *c, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    for (int k = 0; k < 32; k += 8) {
        wmma::load_matrix_sync(fa, a + k, 32);
        wmma::load_matrix_sync(fb, b + k, 32);
        for (int i = 0; i < fa.num_elements; i++)
            fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
        for (int i = 0; i < fb.num_elements; i++)
            fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_col_major);
}

__global__ void f64_gemm(const double *a, const double *b, const double *c, double *d)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    for (int k = 0; k < 16; k += 4) {
        wmma::load_matrix_sync(fa, a + k * 8, 8);
        wmma::load_matrix_sync(fb, b + k * 8, 8);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    for (int i = 0; i < fc.num_elements; i++)
        fc.x[i] *= 2.0;
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

// tf32's rounding: to nearest, ties away from zero, 10 mantissa bits
static float tf32(float x)
{
    unsigned u;
    memcpy(&u, &x, 4);
    u = (u + 0x1000u) & ~0x1fffu;
    memcpy(&x, &u, 4);
    return x;
}

int main()
{
    int bad = 0;
    // cp.async
    const int blocks = 3;
    float *in, *out;
    CHECK(cudaMallocManaged(&in, blocks * 512 * sizeof(float)));
    CHECK(cudaMallocManaged(&out, blocks * 520 * sizeof(float)));
    for (int i = 0; i < blocks * 512; i++)
        in[i] = (float)(i * 3 + 1);
    copy<<<blocks, 64>>>(in, out);
    CHECK(cudaDeviceSynchronize());
    for (int blk = 0; blk < blocks; blk++) {
        const float *src = in + blk * 512, *o = out + blk * 520;
        for (int i = 0; i < 256; i++)
            bad += MISS(o[i] != src[i]);
        for (int t = 0; t < 64; t++) {
            int keep = t % 17; // bytes read
            for (int j = 0; j < 4; j++) {
                float want = j * 4 < keep ? src[256 + t * 4 + j] : 0.0f;
                if (j * 4 < keep && keep < (j + 1) * 4) { // a float cut in the middle: its low bytes
                    unsigned u;
                    memcpy(&u, &src[256 + t * 4 + j], 4);
                    u &= (1u << (8 * (keep - j * 4))) - 1;
                    memcpy(&want, &u, 4);
                }
                bad += MISS(memcmp(&o[256 + t * 4 + j], &want, 4) != 0);
            }
        }
        bad += MISS(o[512] != src[8] || o[513] != src[9] || o[514] != src[10] || o[515] != -1.0f);
    }
    // tf32: a 16 x 32 row-major, b 32 x 16 column-major (both with 32 a row or column)
    float *a, *b, *c, *d;
    CHECK(cudaMallocManaged(&a, 512 * sizeof(float)));
    CHECK(cudaMallocManaged(&b, 512 * sizeof(float)));
    CHECK(cudaMallocManaged(&c, 256 * sizeof(float)));
    CHECK(cudaMallocManaged(&d, 256 * sizeof(float)));
    for (int i = 0; i < 512; i++) {
        a[i] = (float)(i % 7) * (1.0f + 0x1p-11f); // half of tf32's unit: rounds up
        b[i] = (float)(i % 5) - 2.0f;
    }
    for (int i = 0; i < 256; i++)
        c[i] = (float)(i % 3);
    tf32_gemm<<<1, 32>>>(a, b, c, d);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            double want = c[i * 16 + j];
            for (int k = 0; k < 32; k++)
                want += (double)tf32(a[i * 32 + k]) * tf32(b[j * 32 + k]);
            bad += MISS(fabs(d[j * 16 + i] - want) > 1e-3 * fabs(want) + 1e-3);
        }
    // f64: a 8 x 16 column-major, b 16 x 8 row-major, d = 2 (c + a b)
    double *da, *db, *dc, *dd;
    CHECK(cudaMallocManaged(&da, 128 * sizeof(double)));
    CHECK(cudaMallocManaged(&db, 128 * sizeof(double)));
    CHECK(cudaMallocManaged(&dc, 64 * sizeof(double)));
    CHECK(cudaMallocManaged(&dd, 64 * sizeof(double)));
    for (int i = 0; i < 128; i++) {
        da[i] = (i % 9) * 0.125 - 0.5;
        db[i] = (i % 11) * 0.25 + 1.0;
    }
    for (int i = 0; i < 64; i++)
        dc[i] = i * 0.5;
    f64_gemm<<<1, 32>>>(da, db, dc, dd);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            double want = dc[i * 8 + j];
            for (int k = 0; k < 16; k++)
                want += da[k * 8 + i] * db[k * 8 + j]; // exact: eighths and quarters
            bad += MISS(dd[i * 8 + j] != 2 * want);
        }
    printf("sm80: 3 kernels, %d mismatches\n", bad);
    return bad != 0;
}
