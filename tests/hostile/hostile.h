// hostile.h: what the programs of tests/hostile share. CHECK (a failing runtime call prints the
// error's name and text with the call's location on stderr and exits with status 1), and
// expect_fault, the end of a program whose kernel must fault.
#ifndef HOSTILE_H
#define HOSTILE_H

#include "../cudart/check.h"

// After a launch that faults: what the synchronisation returns, and that the error is sticky
// (a later call returns it too, as on a GPU); then the usual CHECK reports it and exits.
static void expect_fault()
{
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(e));
    void *p = nullptr;
    printf("a later cudaMalloc: %s\n", cudaGetErrorName(cudaMalloc(&p, 16)));
    CHECK(e);
    printf("not reached\n");
}

#endif
