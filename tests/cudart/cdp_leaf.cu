// cdp_leaf.cu: the second object of tests/cudart/cdp.cu (built together with -rdc=true): kernels
// that cdp.cu launches from the device through extern declarations, so that the PTX of the two
// objects must be linked into one module. Its file-scope static and its printf string have
// name that cdp.cu's PTX has too ($str: each object's own).
#include "cdp.h"

#include <cstdio>

// Every argument type a launch may pass: the kernel records a checksum of what it received.
__global__ void leaf(long long *out, int slot, char c, short s, int i, long long ll, float f, double d, Pair p,
                     const int *ptr)
{
    out[slot] = leaf_checksum(c, s, i, ll, f, d, p, ptr[0]);
    if (slot == 0)
        printf("leaf: slot %d\n", slot);
}

// Writes *x = 1: the normal-stream child whose effect the tail launch must see.
__global__ void set_one(int *x)
{
    *x = 1;
}

// The tail launch: runs after all the other work of the grid that launched it.
__global__ void after_all(const int *x, int *y)
{
    *y = *x * 10;
}
