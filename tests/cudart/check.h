// check.h: the error check every test program uses: a failing runtime call prints the error's
// name and text with the call's location on stderr and exits with status 1.
#ifndef CUDART_TEST_CHECK_H
#define CUDART_TEST_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        cudaError_t err_ = (call);                                                                    \
        if (err_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "CUDA error: %s (%s) at %s:%d: %s\n", cudaGetErrorString(err_),          \
                    cudaGetErrorName(err_), __FILE__, __LINE__, #call);                               \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

#endif
