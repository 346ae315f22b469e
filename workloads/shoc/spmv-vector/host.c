/* host.c: sparse matrix-vector product, CSR vector kernel (SHOC Spmv, "CSR-Vector").
 *
 * The program (a random 1%-dense CSR matrix as in SHOC, the launches, a CPU reference) is
 * spmv_run in ../common/spmv_host.h, shared with the other CSR kernel.
 *
 * Like SHOC, the host launches spmv_csr_vector `iters` times back to back (one warp per row,
 * 128-thread blocks, so 4 rows per block) and checks the last result.
 *
 * Arguments: n (rows), iters, seed. Sizes:
 *   small (default) n=8192, iters=1: 2048 blocks, about 82 nonzeros per row (SHOC's size class
 *     2), so a warp makes 3 passes over its row, the last one partly idle; at paper size (about
 *     10 nonzeros per row) most lanes idle.
 *   paper n=1024, iters=100: the thesis (Tables 3.2, 4.2, 5.2) runs SHOC's default, size class
 *     1 (1024 rows, 1% dense), whose passes repeat each kernel 100 times.
 * Check: y against a CPU CSR product in double; tolerance 1e-4 relative. */
#include "wl.h"
#include "../common/spmv_host.h"

int main(int argc, char **argv)
{
    return spmv_run(argc, argv, "spmv-vector", "spmv_csr_vector", 4);
}
