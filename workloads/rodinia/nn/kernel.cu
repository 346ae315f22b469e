/* kernel.cu: nearest neighbour (Rodinia NN): the distance from a query point to every record.
 *
 * Records are an array of (lat, lng) float pairs; thread g of a 1-D (or, past 65535 blocks,
 * 2-D) grid of 256-thread blocks reads record g (8 bytes, so a warp reads two 128-byte lines)
 * and writes its Euclidean distance to the query. The host then picks the k nearest. */
struct latlng {
    float lat, lng;
};

extern "C" __global__ void nn_distance(const struct latlng *rec, float *dist, int n, float lat, float lng)
{
    int g = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    if (g < n) {
        float dlat = lat - rec[g].lat, dlng = lng - rec[g].lng;
        dist[g] = sqrtf(dlat * dlat + dlng * dlng);
    }
}
