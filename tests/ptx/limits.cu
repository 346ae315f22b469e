// Kernels of tests/unit/test_limits.c: the run limits that end a kernel which never finishes,
// and the functional mode's interleaving of the warps of a CTA.

// Spins until *flag is non-zero, which nothing ever makes it: a kernel that never finishes
// although its warps issue instructions all the time.
extern "C" __global__ void spin(volatile int *flag, int *out)
{
    while (*flag == 0)
        ;
    out[blockIdx.x * blockDim.x + threadIdx.x] = *flag;
}

// Spins like spin, but stores on every iteration, so only the limit that ignores memory writes
// (gpu.stall_insts) ends it.
extern "C" __global__ void spin_writing(volatile int *flag, volatile int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (*flag == 0)
        out[i] = out[i] + 1;
}

// Warp w of each CTA waits until warp w + 1 has published its value, then publishes its own
// (the last warp starts): a legal spin-wait between the warps of one CTA, on flags that a warp
// later in program order sets, with no barrier. Warp w of every CTA writes nwarps - w.
// flag: one zeroed int per warp of the grid.
extern "C" __global__ void handoff(volatile int *flag, int *out)
{
    int nwarps = blockDim.x / 32, warp = threadIdx.x / 32;
    volatile int *f = flag + blockIdx.x * nwarps;
    int v = 1;
    if (warp != nwarps - 1) {
        while (f[warp + 1] == 0)
            ;
        v = f[warp + 1] + 1;
    }
    if (threadIdx.x % 32 == 0)
        f[warp] = v;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A few instructions per thread: many CTAs, each finishing quickly, however long the whole
// grid takes.
extern "C" __global__ void busy(int *out, int iters)
{
    unsigned acc = threadIdx.x;
    for (int i = 0; i < iters; i++)
        acc = acc * 1664525u + 1013904223u;
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)acc;
}

// CTA 0 waits until the grid's last CTA sets *flag (thread 0 of each CTA writes what it saw to
// out[blockIdx.x]): legal on a GPU when the last CTA fits beside CTA 0, which --functional
// honours by starting CTAs beside one that waits.
extern "C" __global__ void wait_later(volatile int *flag, int *out)
{
    if (blockIdx.x == 0)
        while (*flag == 0)
            ;
    else if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
        *flag = blockIdx.x;
    if (threadIdx.x == 0)
        out[blockIdx.x] = blockIdx.x == 0 ? *flag : -1;
}
