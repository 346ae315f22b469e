// A compute-heavy kernel for the functional speed measurement: each thread iterates a small
// polynomial / integer-hash recurrence, mostly register-to-register arithmetic.

extern "C" __global__ void compute_heavy(const float *in, float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i], y = 1.0f;
    unsigned h = (unsigned)i * 2654435761u;
    for (int k = 0; k < iters; k++) {
        y = fmaf(y, x, 0.5f) * 0.25f + 1.0f;
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        if (h & 1)
            y -= 0.125f;
    }
    out[i] = y + (float)(h & 255);
}
