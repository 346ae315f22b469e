/* host.c: blocked LU decomposition (Rodinia LUD), 16x16 blocks, no pivoting.
 *
 * Like the original, for off = 0, 16, ..., n-32 the host launches lud_diagonal (1 block of 16
 * threads), lud_perimeter ((n-off)/16-1 blocks of 32 threads) and lud_internal ((n-off)/16-1
 * squared blocks of 16x16), then lud_diagonal once more for the last block: 3(n/16-1)+1
 * launches. The input is diagonally dominant (off-diagonal entries uniform in [0, 1), diagonal
 * n) so the factorization without pivoting is stable.
 *
 * Arguments: n (a multiple of 16), seed. Sizes:
 *   small (default) n=256: 46 launches, up to 225 lud_internal blocks; the same block pattern
 *     as the paper size.
 *   paper n=1200: LAS Table 4.2 lists LUD with 223 kernels and 140675 CTAs, which is exactly
 *     3 x 74 + 1 launches over 75 x 75 blocks.
 * Check: L and U against a CPU version of the same blocked float operations; tolerance 1e-3
 * relative. */
#include "wl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BS 16

/* The three kernels' operations on the CPU, block by block in the same order. */
static void cpu_diagonal(float *a, int n, int off)
{
    float *d = a + (size_t)off * n + off;
    for (int i = 0; i < BS - 1; i++) {
        for (int r = i + 1; r < BS; r++) {
            for (int j = 0; j < i; j++)
                d[r * n + i] -= d[r * n + j] * d[j * n + i];
            d[r * n + i] /= d[i * n + i];
        }
        for (int c = i + 1; c < BS; c++)
            for (int j = 0; j < i + 1; j++)
                d[(i + 1) * n + c] -= d[(i + 1) * n + j] * d[j * n + c];
    }
}

static void cpu_perimeter(float *a, int n, int off)
{
    const float *d = a + (size_t)off * n + off;
    for (int blk = off + BS; blk < n; blk += BS) {
        float *row = a + (size_t)off * n + blk, *col = a + (size_t)blk * n + off;
        for (int k = 0; k < BS; k++)
            for (int i = 1; i < BS; i++)
                for (int j = 0; j < i; j++)
                    row[i * n + k] -= d[i * n + j] * row[j * n + k];
        for (int k = 0; k < BS; k++)
            for (int i = 0; i < BS; i++) {
                for (int j = 0; j < i; j++)
                    col[k * n + i] -= col[k * n + j] * d[j * n + i];
                col[k * n + i] /= d[i * n + i];
            }
    }
}

static void cpu_internal(float *a, int n, int off)
{
    for (int gr = off + BS; gr < n; gr++)
        for (int gc = off + BS; gc < n; gc++) {
            float sum = 0.0f;
            for (int i = 0; i < BS; i++)
                sum += a[(size_t)gr * n + off + i] * a[(size_t)(off + i) * n + gc];
            a[(size_t)gr * n + gc] -= sum;
        }
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "seed"};
    long val[] = {256, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < BS || val[0] % BS || val[0] > 16384) {
        fprintf(stderr, "lud: n must be a multiple of %d in %d..16384\n", BS, BS);
        return 2;
    }
    int n = (int)val[0];
    size_t nn = (size_t)n * n, bytes = nn * sizeof(float);

    wl_seed((uint64_t)val[1]);
    float *a = malloc(bytes), *want = malloc(bytes);
    if (!a || !want) {
        fprintf(stderr, "lud: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[(size_t)i * n + j] = i == j ? (float)n : wl_randf();
    memcpy(want, a, bytes);

    wl_init();
    CUfunction diag = wl_kernel("lud_diagonal"), peri = wl_kernel("lud_perimeter");
    CUfunction inner = wl_kernel("lud_internal");
    CUdeviceptr d_a = wl_upload(a, bytes);
    int off;
    for (off = 0; off < n - BS; off += BS) {
        void *args[] = {&d_a, &n, &off};
        unsigned rest = (unsigned)(n - off) / BS - 1;
        wl_launch(diag, 1, 1, 1, BS, 1, 1, 0, args);
        wl_launch(peri, rest, 1, 1, 2 * BS, 1, 1, 0, args);
        wl_launch(inner, rest, rest, 1, BS, BS, 1, 0, args);
    }
    void *args[] = {&d_a, &n, &off};
    wl_launch(diag, 1, 1, 1, BS, 1, 1, 0, args);
    wl_download(a, d_a, bytes);

    for (off = 0; off < n - BS; off += BS) {
        cpu_diagonal(want, n, off);
        cpu_perimeter(want, n, off);
        cpu_internal(want, n, off);
    }
    cpu_diagonal(want, n, off);

    double err = wl_max_err_f(a, want, nn);
    free(a), free(want);
    return wl_finish("lud", err, 1e-3);
}
