/* kernel.cu: k-means assignment step in the style of Rodinia's CUDA k-means.
 *
 * The points arrive point-major (point p's features at p * nfeatures). kmeans_transpose, run
 * once, gives thread p point p and copies it into a feature-major array (feature f of point p
 * at f * npoints + p): its loads stride nfeatures floats from lane to lane (memory-divergent),
 * its stores are coalesced. kmeans_assign, run once per iteration, gives thread p point p
 * again and finds the nearest centre by squared Euclidean distance; reading the
 * feature-major copy makes each of its feature loads one coalesced row, while every lane
 * reads the same centre value (the original keeps the centres in constant memory and reads
 * the features through a texture; here both are plain global loads). The grid is 2-D only
 * to stay within the old 65535-block limit: block (x, y) is block y * gridDim.x + x. */
#include <float.h>

extern "C" __global__ void kmeans_transpose(const float *points, float *features_t, int npoints, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < npoints)
        for (int f = 0; f < nfeatures; f++)
            features_t[f * npoints + p] = points[p * nfeatures + f];
}

extern "C" __global__ void kmeans_assign(const float *features_t, const float *centres, int *membership,
                                         int npoints, int nfeatures, int nclusters)
{
    int block = blockIdx.y * gridDim.x + blockIdx.x;
    int p = block * blockDim.x + threadIdx.x;
    if (p < npoints) {
        float best = FLT_MAX;
        int nearest = 0;
        for (int c = 0; c < nclusters; c++) {
            float dist = 0.0f;
            /* Not unrolled: unrolling keeps several feature and centre loads (and their 64-bit
             * addresses) live and triples the register count, which would cut the occupancy
             * below that of the original, whose centre operands come from constant memory. */
#pragma unroll 1
            for (int f = 0; f < nfeatures; f++) {
                float diff = features_t[f * npoints + p] - centres[c * nfeatures + f];
                dist = fmaf(diff, diff, dist); /* explicit, so the host can repeat it bit for bit */
            }
            if (dist < best) {
                best = dist;
                nearest = c;
            }
        }
        membership[p] = nearest;
    }
}
