/* corrupt.c: registers a fat binary read from a file the way nvcc's constructors do, then runs
 * its kernel saxpy (tests/fatbin/kernel.cu) through cudaLaunchKernel and checks the result.
 * Given a damaged fat binary, the launch must fail with a clear message and the program exit 1.
 * Plain C against libcudart.so.13 (built by tests/unit/test_cudart.c with cc, no nvcc):
 *     corrupt FATBIN [SIZE]    SIZE: cut the fat binary there (its header says so too) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned x, y, z;
} dim3;

void **__cudaRegisterFatBinary(void *wrapper);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, void *tid, void *bid, dim3 *bDim, dim3 *gDim, int *wSize);
int cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem, void *stream);
int cudaMalloc(void **p, size_t n);
int cudaMemcpy(void *dst, const void *src, size_t n, int kind);
const char *cudaGetErrorName(int e);

/* The host function nvcc would generate; only its address matters. */
static void saxpy_stub(void)
{
}

#define CHECK(call)                                                                                     \
    do {                                                                                                \
        int e_ = (call);                                                                                \
        if (e_ != 0) {                                                                                  \
            fprintf(stderr, "corrupt: %s failed: %s\n", #call, cudaGetErrorName(e_));                   \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    FILE *f = fopen(argv[1], "rb");
    static uint64_t image[1 << 16]; /* 8-byte aligned, as in the .nv_fatbin section */
    size_t len = f ? fread(image, 1, sizeof image, f) : 0;
    if (!f || len < 16)
        return 2;
    fclose(f);
    if (argc > 2) { /* truncate: the header's size of the entries shrinks with it */
        size_t cut = (size_t)atol(argv[2]);
        image[1] = cut > 16 ? cut - 16 : 0;
    }
    struct {
        int magic, version;
        const void *data;
        void *unused;
    } wrapper = {0x466243b1, 1, image, NULL};
    void **h = __cudaRegisterFatBinary(&wrapper);
    char name[] = "saxpy";
    __cudaRegisterFunction(h, (const char *)(uintptr_t)saxpy_stub, name, name, -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);

    enum { N = 1000 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    float *dx, *dy, a = 2.0f;
    int n = N;
    CHECK(cudaMalloc((void **)&dx, sizeof x));
    CHECK(cudaMalloc((void **)&dy, sizeof y));
    CHECK(cudaMemcpy(dx, x, sizeof x, 1));
    CHECK(cudaMemcpy(dy, y, sizeof y, 1));
    void *args[] = {&n, &a, &dx, &dy};
    dim3 grid = {(N + 127) / 128, 1, 1}, block = {128, 1, 1};
    int first = cudaLaunchKernel((const void *)(uintptr_t)saxpy_stub, grid, block, args, 0, NULL);
    if (first != 0) { /* a module that cannot load: the same error again, said once */
        int again = cudaLaunchKernel((const void *)(uintptr_t)saxpy_stub, grid, block, args, 0, NULL);
        fprintf(stderr, "corrupt: relaunch: %s\n", cudaGetErrorName(again));
    }
    CHECK(first);
    CHECK(cudaMemcpy(y, dy, sizeof y, 2));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += y[i] != 2.0f * (float)i + 1.0f;
    printf("corrupt: saxpy ran, %d mismatches\n", bad);
    __cudaUnregisterFatBinary(h);
    return bad ? 1 : 0;
}
