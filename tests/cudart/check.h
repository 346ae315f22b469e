// check.h: the error check every test program uses: a failing runtime call prints the error's
// name and text with the call's location on stderr and exits with status 1; and MISS, which
// names a failed check, and MISS_ERR, which names an unexpected error code.
#ifndef CUDART_TEST_CHECK_H
#define CUDART_TEST_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        cudaError_t err_ = (call);                                                                    \
        if (err_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "CUDA error: %s (%s) at %s:%d: %s\n", cudaGetErrorString(err_),          \
                    cudaGetErrorName(err_), __FILE__, __LINE__, #call);                               \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

// MISS(bad_condition): the condition's value, naming the check on stderr when it holds (the first
// 20 a run), so that a count of mismatches says which checks failed.
static int miss_count_;
static inline int miss_(long long v, const char *file, int line, const char *expr)
{
    if (v && miss_count_++ < 20)
        fprintf(stderr, "mismatch: %s:%d: %s\n", file, line, expr);
    return (int)v;
}
#define MISS(cond) miss_((long long)(cond), __FILE__, __LINE__, #cond)

// MISS_ERR(call, want): 1 when the call's error code is not want, naming both on stderr.
static inline int miss_err_(cudaError_t got, cudaError_t want, const char *file, int line, const char *expr)
{
    if (got != want && miss_count_++ < 20)
        fprintf(stderr, "mismatch: %s:%d: %s gave %s, expected %s\n", file, line, expr, cudaGetErrorName(got),
                cudaGetErrorName(want));
    return got != want;
}
#define MISS_ERR(call, want) miss_err_((call), (want), __FILE__, __LINE__, #call)

// Whether the device is warpsim's (its name starts so): checks of what a GPU leaves undefined
// (freeing an array twice crashes NVIDIA's driver) run only there.
static inline bool on_warpsim()
{
    cudaDeviceProp p;
    return cudaGetDeviceProperties(&p, 0) == cudaSuccess && !strncmp(p.name, "warpsim", 7);
}

#endif
