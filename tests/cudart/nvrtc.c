/* nvrtc.c: an NVRTC program as NVIDIA's samples write one: it compiles a kernel at run time with
 * the NVRTC options given, asks for the cubin (nvrtcGetCUBINSize / nvrtcGetCUBIN), loads it
 * with cuModuleLoadData and checks what the kernel computes. Under `warpsim exec` the "cubin"
 * of a real architecture must be PTX text (src/api/nvrtc_ptx.c). Plain C against warpsim's
 * cuda.h and nvrtc.h and NVIDIA's libnvrtc.so.13 (built by tests/unit/test_nvrtc.c with cc):
 *     nvrtc [NVRTC-OPTION...]
 * Exit status 0 when the kernel ran right, 2 when there is no cubin, 1 on any other failure. */
#include <cuda.h>
#include <nvrtc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kernel[] = "extern \"C\" __global__ void axpb(int *y, const int *x, int a, int b, int n)\n"
                             "{\n"
                             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    if (i < n)\n"
                             "        y[i] = a * x[i] + b;\n"
                             "}\n";

#define CU(call)                                                                                        \
    do {                                                                                                \
        CUresult e_ = (call);                                                                           \
        if (e_ != CUDA_SUCCESS) {                                                                       \
            const char *s_ = NULL;                                                                      \
            cuGetErrorName(e_, &s_);                                                                    \
            fprintf(stderr, "nvrtc: %s failed: %s\n", #call, s_ ? s_ : "?");                             \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

#define NVRTC(call)                                                                                     \
    do {                                                                                                \
        nvrtcResult e_ = (call);                                                                        \
        if (e_ != NVRTC_SUCCESS) {                                                                      \
            fprintf(stderr, "nvrtc: %s failed: %s\n", #call, nvrtcGetErrorString(e_));                  \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* in order with the library's messages on stderr */
    CU(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CU(cuDeviceGet(&dev, 0));
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));

    nvrtcProgram prog;
    NVRTC(nvrtcCreateProgram(&prog, kernel, "axpb.cu", 0, NULL, NULL));
    nvrtcResult r = nvrtcCompileProgram(prog, argc - 1, (const char *const *)(argv + 1));
    if (r != NVRTC_SUCCESS) {
        size_t n = 0;
        nvrtcGetProgramLogSize(prog, &n);
        char *log = calloc(1, n + 1);
        if (log && nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
            fprintf(stderr, "%s", log);
        free(log);
        fprintf(stderr, "nvrtc: nvrtcCompileProgram failed: %s\n", nvrtcGetErrorString(r));
        return 1;
    }
    size_t size = 0;
    NVRTC(nvrtcGetCUBINSize(prog, &size));
    if (size == 0) {
        printf("nvrtc: no cubin (size 0)\n");
        return 2;
    }
    char *code = malloc(size);
    if (!code)
        return 1;
    NVRTC(nvrtcGetCUBIN(prog, code));
    NVRTC(nvrtcDestroyProgram(&prog));
    if (!memcmp(code, "\177ELF", 4))
        printf("nvrtc: cubin: %zu bytes, an ELF image\n", size);
    else if (code[size - 1] == 0 && strlen(code) == size - 1 && strstr(code, ".version ") &&
             strstr(code, ".entry axpb("))
        printf("nvrtc: cubin: %zu bytes of PTX text with .entry axpb\n", size);
    else
        printf("nvrtc: cubin: %zu bytes, neither ELF nor the kernel's PTX\n", size);

    CUmodule mod;
    CUfunction f;
    CU(cuModuleLoadData(&mod, code));
    free(code);
    CU(cuModuleGetFunction(&f, mod, "axpb"));
    enum { N = 1000 };
    static int x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = i - 300;
    CUdeviceptr dx, dy;
    CU(cuMemAlloc(&dx, sizeof x));
    CU(cuMemAlloc(&dy, sizeof y));
    CU(cuMemcpyHtoD(dx, x, sizeof x));
    int a = 3, b = -7, n = N;
    void *params[] = {&dy, &dx, &a, &b, &n};
    CU(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(y, dy, sizeof y));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += y[i] != a * x[i] + b;
    printf("nvrtc: axpb ran, %d mismatches\n", bad);
    CU(cuMemFree(dx));
    CU(cuMemFree(dy));
    CU(cuModuleUnload(mod));
    return bad ? 1 : 0;
}
