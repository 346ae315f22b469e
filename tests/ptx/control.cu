// Divergent control flow: nested if/else inside loops, early return of some lanes, a barrier
// after divergent code, a device-function call inside divergent code, and warp-level votes and
// shuffles after reconvergence.

__device__ __noinline__ int collatz_steps(int n, int limit)
{
    int s = 0;
    while (n != 1 && s < limit) {
        if (n & 1)
            n = 3 * n + 1;
        else
            n >>= 1;
        s++;
    }
    return s;
}

extern "C" __global__ void diverge(const int *in, int *out, int n)
{
    __shared__ int buf[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int v = in[i];
    int acc = 0;
    for (int k = 0; k < (v & 15); k++) {
        if (k & 1) {
            if (v & 2)
                acc += k * 3;
            else
                acc -= k;
        } else {
            acc ^= v + k;
            if (acc > 1000)
                break;
        }
    }
    if (v % 3 == 0)
        acc += collatz_steps(v % 97 + 1, 200);
    buf[t] = acc;
    __syncthreads();
    int neighbour = buf[(t + 1) % blockDim.x];
    if (i >= n)
        return;               // early exit of the last lanes (n is not a multiple of 32)
    if (v & 4) {
        out[i] = acc + neighbour;
        return;               // some lanes return inside divergent code
    }
    unsigned ballot = __ballot_sync(__activemask(), acc & 1);
    int sum = acc;
    out[i] = sum - neighbour + __popc(ballot) * 0;
}

extern "C" __global__ void warp_ops(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int s = v;
    for (int d = 16; d > 0; d >>= 1)
        s += __shfl_xor_sync(0xffffffff, s, d);
    int up = __shfl_up_sync(0xffffffff, v, 3);
    int down = __shfl_down_sync(0xffffffff, v, 5);
    int idx = __shfl_sync(0xffffffff, v, (threadIdx.x * 7) & 31);
    unsigned ballot = __ballot_sync(0xffffffff, v > 50);
    int any = __any_sync(0xffffffff, v > 98);
    int all = __all_sync(0xffffffff, v >= 0);
    int *o = out + i * 7;
    o[0] = s; o[1] = up; o[2] = down; o[3] = idx; o[4] = (int)ballot; o[5] = any; o[6] = all;
}
