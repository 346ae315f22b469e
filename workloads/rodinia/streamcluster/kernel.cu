/* kernel.cu: the gain evaluation of streamcluster's local search (Rodinia's CUDA pgain),
 * one thread per point, 512-thread blocks.
 *
 * For a candidate point x, thread i computes the cost of serving point i from x (squared
 * distance times weight, the coordinates stored dimension-major: coordinate d of point i at
 * d * num + i, so each coordinate load is coalesced and x's coordinate is a broadcast). If x
 * would serve it more cheaply, the point switches: the saving goes to slot K of its row of
 * the work array. Otherwise the extra cost it would pay if its current centre closed goes to
 * that centre's slot. The point records are 32-byte structs (weight, coordinate pointer,
 * assigned centre, cost) read one field at a time, so those loads, and the work-row updates
 * stride+1 floats apart, are the memory-divergent accesses; they sit outside the distance
 * loop, at the end of the kernel. */

struct Point {
    float weight;
    float *coord; /* unused on the device: coordinates come from the dimension-major array */
    long long assign;
    float cost;
};

extern "C" __global__ void pgain_kernel(int num, int dim, long long x, const Point *p, int K, int stride,
                                        const float *coord, float *work, const int *centre_table,
                                        bool *switch_membership)
{
    int block = blockIdx.y * gridDim.x + blockIdx.x;
    int i = block * blockDim.x + threadIdx.x;
    if (i < num) {
        float dist = 0.0f;
        /* Not unrolled: ptxas would keep four iterations' loads and addresses live (58
         * registers), and a 512-thread block of that would fit only once on the simulated
         * 32 K-register SM; rolled, it needs about 20 and three blocks fit. */
#pragma unroll 1
        for (int d = 0; d < dim; d++) {
            float diff = coord[d * num + i] - coord[d * num + x];
            dist = fmaf(diff, diff, dist); /* explicit, so the host can repeat it bit for bit */
        }
        float x_cost = __fmul_rn(dist, p[i].weight); /* rounded on its own, never fused below */
        float *row = &work[i * stride];
        if (x_cost < p[i].cost) {
            switch_membership[i] = true;
            row[K] += x_cost - p[i].cost;
        } else {
            row[centre_table[p[i].assign]] += p[i].cost - x_cost;
        }
    }
}
