/* host.c: sparse matrix-vector product, CSR scalar kernel (SHOC Spmv, "CSR-Scalar").
 *
 * The program (a random 1%-dense CSR matrix as in SHOC, the launches, a CPU reference) is
 * spmv_run in ../common/spmv_host.h, shared with the other CSR kernel.
 *
 * Like SHOC, the host launches spmv_csr_scalar `iters` times back to back (one thread per row,
 * 128-thread blocks) and checks the last result.
 *
 * Arguments: n (rows), iters, seed. Sizes:
 *   small (default) n=8192, iters=1: 64 blocks, about 82 nonzeros per row (SHOC's size class
 *     2); each warp walks 32 rows, so its val/col loads touch 32 lines as at any size.
 *   paper n=1024, iters=100: the thesis (Tables 3.2, 4.2, 5.2) runs SHOC's default, size class
 *     1 (1024 rows, 1% dense), whose passes repeat the kernel 100 times.
 * Check: y against a CPU CSR product in double; tolerance 1e-4 relative. */
#include "wl.h"
#include "../common/spmv_host.h"

int main(int argc, char **argv)
{
    return spmv_run(argc, argv, "spmv", "spmv_csr_scalar", 128);
}
