// recursion.cu: recursive device functions (tests/unit/test_ptx_recursion.c). nvcc gives each
// call a .param frame and a function with a local array a __local_depot, which a recursive
// call must not overwrite for its caller.

__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

// A local array indexed at run time lives in the local depot; the recursion reads it after
// the inner call returns.
__device__ __noinline__ int depot(int n, int seed)
{
    int a[8];
    for (int k = 0; k < 8; k++)
        a[k] = seed * (k + 1) + n;
    int r = n > 0 ? depot(n - 1, seed + 3) : 0;
    for (int k = 0; k < 8; k++)
        r = r * 3 + a[(seed + 5 * k) & 7];
    return r;
}

__device__ __noinline__ int is_odd(unsigned n);
__device__ __noinline__ int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1) * 2 - 1 + 0 * n; }
__device__ __noinline__ int is_odd(unsigned n) { return n == 0 ? -1 : is_even(n - 1); }

// Depth n, with a result that no loop transformation can turn into an accumulation.
__device__ __noinline__ unsigned deep(unsigned n)
{
    if (n == 0)
        return 1;
    unsigned r = deep(n - 1);
    return r * r + n;
}

extern "C" __global__ void recur(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    out[4 * i] = fib(v & 15);              // recursion depth differs across lanes
    out[4 * i + 1] = depot(v % 6, v);
    out[4 * i + 2] = is_even((unsigned)v % 9);
    out[4 * i + 3] = (int)deep((unsigned)v % 40);
}

extern "C" __global__ void too_deep(unsigned *out, unsigned n)
{
    out[threadIdx.x] = deep(n + threadIdx.x);
}
