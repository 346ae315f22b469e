// cdp.h: what the two objects of the dynamic-parallelism test (cdp.cu, cdp_leaf.cu) share.
#ifndef CUDART_TEST_CDP_H
#define CUDART_TEST_CDP_H

struct Pair {
    int a;
    double b;
};

// The value leaf() stores for its arguments; the host computes it too.
__host__ __device__ inline long long leaf_checksum(char c, short s, int i, long long ll, float f, double d, Pair p,
                                                   int pointee)
{
    unsigned long long h = (unsigned long long)c; // wraps, the same on both sides
    h = h * 1000003 + s;
    h = h * 1000003 + i;
    h = h * 1000003 + ll;
    h = h * 1000003 + (long long)(f * 4.0f);
    h = h * 1000003 + (long long)(d * 8.0);
    h = h * 1000003 + p.a;
    h = h * 1000003 + (long long)(p.b * 2.0);
    return (long long)(h * 1000003 + pointee);
}

__global__ void leaf(long long *out, int slot, char c, short s, int i, long long ll, float f, double d, Pair p,
                     const int *ptr);
__global__ void set_one(int *x);
__global__ void after_all(const int *x, int *y);

#endif
