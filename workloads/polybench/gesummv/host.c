/* host.c: GESUMMV (y = alpha A x + beta B x), PolyBench/GPU style: one 1-D kernel, 256-thread
 * blocks, ceil(n / 256) blocks, thread i walks row i of A and of B (two memory-divergent
 * loads per iteration), launched once.
 *
 * Arguments: n (A and B are n x n), seed. Sizes:
 *   small (default) n=512: half of ATAX's small n, as the paper sizes are (4K vs 8K), since
 *     this kernel has two divergent loads. Rows are 2 KB apart, so each load still sends a
 *     warp's 32 lines into only 2 sets of the conventional index (more than the ways).
 *     Only 2 blocks (the application's own block count at this n), about 0.1 M warp
 *     instructions; n=1024 gives paper size's single-set pattern at 4x the run time.
 *   paper n=4096 (thesis Tables 3.2, 4.2, 5.2: "4K"; CIAO Table II: 128 MB, also 4096). */
#include "wl.h"
#include "../common/polybench_host.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = pb_args_n(argc, argv, "gesummv", 512);
    size_t nn = (size_t)n * n;
    float alpha = 1.5f, beta = 1.2f;

    float *a = pb_alloc(nn, sizeof *a), *b = pb_alloc(nn, sizeof *b), *x = pb_alloc(n, sizeof *x);
    float *y = pb_alloc(n, sizeof *y), *want = pb_alloc(n, sizeof *want);
    for (size_t e = 0; e < nn; e++) {
        a[e] = wl_randf();
        b[e] = wl_randf();
    }
    for (int j = 0; j < n; j++)
        x[j] = wl_randf();

    wl_init();
    CUfunction k = wl_kernel("gesummv_kernel");
    CUdeviceptr d_a = wl_upload(a, nn * sizeof *a), d_b = wl_upload(b, nn * sizeof *b);
    CUdeviceptr d_x = wl_upload(x, n * sizeof *x);
    CUdeviceptr d_y = wl_alloc(n * sizeof(float)), d_tmp = wl_alloc(n * sizeof(float));
    wl_zero(d_y, n * sizeof(float)); /* the kernel adds onto both */
    wl_zero(d_tmp, n * sizeof(float));
    void *args[] = {&n, &alpha, &beta, &d_a, &d_b, &d_x, &d_y, &d_tmp};
    pb_launch_1d(k, n, args);
    wl_download(y, d_y, n * sizeof(float));

    /* CPU reference in double */
    for (int i = 0; i < n; i++) {
        double sa = 0, sb = 0;
        for (int j = 0; j < n; j++) {
            sa += (double)a[(size_t)i * n + j] * x[j];
            sb += (double)b[(size_t)i * n + j] * x[j];
        }
        want[i] = (float)(alpha * sa + beta * sb);
    }

    double err = wl_max_err_f(y, want, n);
    free(a), free(b), free(x), free(y), free(want);
    return wl_finish("gesummv", err, 1e-3);
}
