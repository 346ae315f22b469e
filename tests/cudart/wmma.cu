// wmma.cu: tensor cores through nvcuda::wmma (wmma.load, wmma.mma, wmma.store in the PTX):
// a tiled GEMM of f16 inputs and f32 accumulators over several warps and k steps, with an
// element-wise scaling of the accumulator fragment; then single tiles of every shape
// (m16n16k16, m32n8k16, m8n32k16), with f16 and f32 accumulators, bf16, s8 and u8 inputs, row
// and column layouts, strides wider than the tile, and fragments loaded from shared memory. The
// values are small multiples of 1/4, so every sum is exact in any order and the check against
// the CPU is exact. Needs a machine with tensor cores (the qv100 preset). Built twice: for
// nvcc's default sm_75, and as wmma_sm80 with -arch=sm_80 -DWMMA_BF16, which adds the bf16
// cases (bf16 fragments need sm_80). `wmma gemm` runs the GEMM alone.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstring>
#include <type_traits>

#include "check.h"

using namespace nvcuda;

// C = alpha * (A B + C) for row-major A (M x K), column-major B (K x N), row-major C; one warp
// per 16x16 tile of C.
__global__ void gemm(const half *a, const half *b, float *c, int M, int N, int K, float alpha)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tm = warp / (N / 16), tn = warp % (N / 16);
    if (tm >= M / 16)
        return;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, c + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
        wmma::load_matrix_sync(fa, a + tm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * 16 * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] *= alpha;
    wmma::store_matrix_sync(c + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

// One tile: D = A B + C, each matrix with its own leading dimension and layout.
template <int M, int N, int K, typename T, typename Acc, typename LA, typename LB>
__global__ void tile(const T *a, const T *b, const Acc *c, Acc *d, int lda, int ldb, int ldc, int c_col, int d_col)
{
    wmma::fragment<wmma::matrix_a, M, N, K, T, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, ldc, c_col ? wmma::mem_col_major : wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, ldc, d_col ? wmma::mem_col_major : wmma::mem_row_major);
}

// m8n32k16 with A and B staged in shared memory (wmma.load.*.shared), C = 0.
__global__ void tile_shared(const half *a, const half *b, float *d)
{
    __shared__ __align__(32) half sa[8 * 16], sb[16 * 32];
    for (int i = threadIdx.x; i < 8 * 16; i += 32)
        sa[i] = a[i];
    for (int i = threadIdx.x; i < 16 * 32; i += 32)
        sb[i] = b[i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 32);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_col_major);
}

// ---- host ----

static float val(int i, int j, int salt) { return (float)((i * 7 + j * 3 + salt) % 9 - 4) * 0.5f; }
static int ival(int i, int j, int salt, bool sgn) { return sgn ? (i * 37 + j * 11 + salt) % 201 - 100 : (i * 37 + j * 11 + salt) % 251; }

template <typename T> static T to_elem(float f);
template <> half to_elem<half>(float f) { return __float2half(f); }
template <> float to_elem<float>(float f) { return f; }
template <> signed char to_elem<signed char>(float f) { return (signed char)f; }
template <> unsigned char to_elem<unsigned char>(float f) { return (unsigned char)f; }
template <> int to_elem<int>(float f) { return (int)f; }
static double as_double(half h) { return __half2float(h); }
#ifdef WMMA_BF16
template <> __nv_bfloat16 to_elem<__nv_bfloat16>(float f) { return __float2bfloat16(f); }
static double as_double(__nv_bfloat16 h) { return __bfloat162float(h); }
#endif
static double as_double(float f) { return f; }
static double as_double(signed char v) { return v; }
static double as_double(unsigned char v) { return v; }
static double as_double(int v) { return v; }

template <typename T> static T *dev_copy(const T *h, size_t n)
{
    T *d;
    CHECK(cudaMalloc((void **)&d, n * sizeof(T)));
    CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

static int cases, mismatches;

static void expect(const char *what, int i, int j, double got, double want)
{
    if (got != want && mismatches++ < 10)
        printf("%s: (%d,%d) = %g, expected %g\n", what, i, j, got, want);
}

// One tile case: A (M x K) and B (K x N) stored by their layouts with leading dimensions wider
// than the tile; C and D with ldc.
template <int M, int N, int K, typename T, typename Acc, typename LA, typename LB>
static void run_tile(const char *what, bool integer, bool sgn, int c_col, int d_col)
{
    const bool a_col = std::is_same<LA, wmma::col_major>::value;
    const bool b_col = std::is_same<LB, wmma::col_major>::value;
    const int lda = (a_col ? M : K) + 16, ldb = (b_col ? K : N) + 16, ldc = (M > N ? M : N) + 8;
    const int na = lda * (a_col ? K : M), nb = ldb * (b_col ? N : K), nc = ldc * (M > N ? M : N);
    T *ha = new T[na](), *hb = new T[nb]();
    Acc *hc = new Acc[nc](), *hd = new Acc[nc]();
    double A[M][K], B[K][N], C[M][N];
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            float v = integer ? (float)ival(i, k, 1, sgn) : val(i, k, 1);
            ha[a_col ? k * lda + i : i * lda + k] = to_elem<T>(v);
            A[i][k] = as_double(to_elem<T>(v));
        }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            float v = integer ? (float)ival(k, j, 5, sgn) : val(k, j, 5);
            hb[b_col ? j * ldb + k : k * ldb + j] = to_elem<T>(v);
            B[k][j] = as_double(to_elem<T>(v));
        }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float v = integer ? (float)(i * 1000 - j * 77) : val(i, j, 2) * 4;
            hc[c_col ? j * ldc + i : i * ldc + j] = to_elem<Acc>(v);
            C[i][j] = as_double(to_elem<Acc>(v));
        }
    T *da = dev_copy(ha, na), *db = dev_copy(hb, nb);
    Acc *dc = dev_copy(hc, nc), *dd = dev_copy(hd, nc);
    tile<M, N, K, T, Acc, LA, LB><<<1, 32>>>(da, db, dc, dd, lda, ldb, ldc, c_col, d_col);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hd, dd, nc * sizeof(Acc), cudaMemcpyDeviceToHost));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double want = C[i][j];
            for (int k = 0; k < K; k++)
                want += A[i][k] * B[k][j];
            expect(what, i, j, as_double(hd[d_col ? j * ldc + i : i * ldc + j]), as_double(to_elem<Acc>((float)want)));
        }
    cases++;
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dd));
    delete[] ha;
    delete[] hb;
    delete[] hc;
    delete[] hd;
}

static void run_gemm()
{
    const int M = 64, N = 48, K = 64;
    const float alpha = 0.5f;
    half *ha = new half[M * K], *hb = new half[K * N];
    float *hc = new float[M * N], *want = new float[M * N];
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++)
            ha[i * K + k] = __float2half(val(i, k, 0));
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++)
            hb[j * K + k] = __float2half(val(k, j, 3));
    for (int i = 0; i < M * N; i++)
        hc[i] = (float)(i % 13);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = hc[i * N + j];
            for (int k = 0; k < K; k++)
                s += (double)__half2float(ha[i * K + k]) * __half2float(hb[j * K + k]);
            want[i * N + j] = (float)(s * alpha);
        }
    half *da = dev_copy(ha, M * K), *db = dev_copy(hb, K * N);
    float *dc = dev_copy(hc, M * N);
    int warps = (M / 16) * (N / 16);
    gemm<<<(warps + 3) / 4, 128>>>(da, db, dc, M, N, K, alpha);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, dc, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            expect("gemm", i, j, hc[i * N + j], want[i * N + j]);
    cases++;
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    delete[] ha;
    delete[] hb;
    delete[] hc;
    delete[] want;
}

static void run_shared()
{
    half ha[8 * 16], hb[16 * 32];
    float hd[8 * 32], A[8][16], B[16][32];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 16; k++)
            A[i][k] = val(i, k, 4), ha[i * 16 + k] = __float2half(A[i][k]);
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 32; j++)
            B[k][j] = val(k, j, 6), hb[k * 32 + j] = __float2half(B[k][j]);
    half *da = dev_copy(ha, 8 * 16), *db = dev_copy(hb, 16 * 32);
    float *dd;
    CHECK(cudaMalloc((void **)&dd, sizeof hd));
    tile_shared<<<1, 32>>>(da, db, dd);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 32; j++) {
            double want = 0;
            for (int k = 0; k < 16; k++)
                want += (double)A[i][k] * B[k][j];
            expect("shared m8n32k16", i, j, hd[j * 8 + i], want);
        }
    cases++;
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dd));
}

int main(int argc, char **argv)
{
    using wmma::col_major;
    using wmma::row_major;
    run_gemm();
    if (argc > 1 && !strcmp(argv[1], "gemm")) { // the GEMM alone, for timing
        printf("wmma: %d cases, %d mismatches\n", cases, mismatches);
        return mismatches != 0;
    }
    run_shared();
    run_tile<16, 16, 16, half, float, row_major, col_major>("m16n16k16 f32 row.col", false, true, 0, 0);
    run_tile<16, 16, 16, half, half, col_major, row_major>("m16n16k16 f16 col.row", false, true, 1, 0);
    run_tile<32, 8, 16, half, float, col_major, col_major>("m32n8k16 f32 col.col", false, true, 0, 1);
    run_tile<32, 8, 16, half, half, row_major, row_major>("m32n8k16 f16 row.row", false, true, 1, 1);
    run_tile<8, 32, 16, half, float, row_major, row_major>("m8n32k16 f32 row.row", false, true, 1, 0);
    run_tile<8, 32, 16, half, half, col_major, col_major>("m8n32k16 f16 col.col", false, true, 0, 1);
#ifdef WMMA_BF16
    run_tile<16, 16, 16, __nv_bfloat16, float, row_major, col_major>("m16n16k16 bf16", false, true, 0, 0);
    run_tile<32, 8, 16, __nv_bfloat16, float, col_major, row_major>("m32n8k16 bf16", false, true, 1, 0);
    run_tile<8, 32, 16, __nv_bfloat16, float, row_major, row_major>("m8n32k16 bf16", false, true, 0, 1);
#endif
    run_tile<16, 16, 16, signed char, int, row_major, col_major>("m16n16k16 s8", true, true, 0, 1);
    run_tile<8, 32, 16, signed char, int, row_major, col_major>("m8n32k16 s8", true, true, 1, 0);
    run_tile<32, 8, 16, unsigned char, int, row_major, col_major>("m32n8k16 u8", true, false, 0, 0);
    printf("wmma: %d cases, %d mismatches\n", cases, mismatches);
    return mismatches != 0;
}
