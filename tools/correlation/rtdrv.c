/* rtdrv.c: the driver-API calls of workloads/common/wl.c, made on GPGPU-Sim's CUDA runtime.
 *
 * Only for running the suite on GPGPU-Sim (tools/correlation/correlate.py), whose libcudart
 * implements the runtime API but not cuModuleLoadData. A workload's host.c, wl.c and embedded
 * PTX are linked unchanged with this file instead of a libcuda, so the program computes exactly
 * what it computes on warpsim, from the same checked-in PTX:
 *
 * - cuModuleLoadData writes the PTX it is given to a file named by $RTDRV_PTX and registers it
 *   the way an nvcc-built program does at start-up (__cudaRegisterFatBinary, then
 *   __cudaRegisterFunction per .entry). GPGPU-Sim extracts the PTX of a registered binary by
 *   running `$CUDA_INSTALL_PATH/bin/cuobjdump` on the program; the correlation script puts
 *   tools/correlation/cuobjdump there, which hands it $RTDRV_PTX.
 * - A kernel's handle is its registered host-function key; a launch is what nvcc's <<<...>>>
 *   makes of it: __cudaPushCallConfiguration, then cudaLaunchKernel.
 *
 * The runtime entry points are declared here rather than through cuda_runtime_api.h, whose
 * types would clash with include/cuda/cuda.h in one file; their ABI is CUDA's. */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned x, y, z;
} rtdrv_dim3;

enum { RTDRV_HTOD = 1, RTDRV_DTOH = 2 }; /* cudaMemcpyKind */

void **__cudaRegisterFatBinary(void *fat_cubin);
void __cudaRegisterFatBinaryEnd(void **handle);
unsigned __cudaPushCallConfiguration(rtdrv_dim3 grid, rtdrv_dim3 block, size_t smem, void *stream);
void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun, const char *device_name,
                            int thread_limit, void *tid, void *bid, void *bdim, void *gdim);
int cudaMalloc(void **p, size_t bytes);
int cudaFree(void *p);
int cudaMemcpy(void *dst, const void *src, size_t bytes, int kind);
int cudaMemset(void *p, int value, size_t bytes);
int cudaLaunchKernel(const void *func, rtdrv_dim3 grid, rtdrv_dim3 block, void **args, size_t smem, void *stream);
int cudaDeviceSynchronize(void);
const char *cudaGetErrorString(int error);

/* The registered kernels: each name is also its host-function key (a unique address). */
#define RTDRV_MAX_KERNELS 64
static char *rtdrv_kernels[RTDRV_MAX_KERNELS];
static int rtdrv_n_kernels;

/* A runtime error is reported as a generic driver failure; the message says which. */
static CUresult rtdrv_result(int err, const char *what)
{
    if (err == 0)
        return CUDA_SUCCESS;
    fprintf(stderr, "rtdrv: %s: %s (%d)\n", what, cudaGetErrorString(err), err);
    return CUDA_ERROR_UNKNOWN;
}

static void *rtdrv_ptr(CUdeviceptr d)
{
    return (void *)(uintptr_t)d;
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    *pStr = error == CUDA_SUCCESS ? "no error" : "failed (see the rtdrv line above)";
    return CUDA_SUCCESS;
}

/* The runtime has one implicit device and context: the context calls do nothing. */
CUresult cuInit(unsigned int flags)
{
    (void)flags;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    *device = ordinal;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    (void)dev;
    *pctx = NULL;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    (void)dev;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    (void)ctx;
    return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    const char *text = image, *path = getenv("RTDRV_PTX");
    if (!path || !*path)
        path = "rtdrv.ptx";
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "rtdrv: cannot write the PTX to %s\n", path);
        return CUDA_ERROR_UNKNOWN;
    }
    setenv("RTDRV_PTX", path, 1); /* for cuobjdump, run by the runtime */
    static int dummy_fatbin;      /* the runtime reads the PTX through cuobjdump, not from here */
    void **handle = __cudaRegisterFatBinary(&dummy_fatbin);
    /* Every ".entry NAME(" of the PTX (kernels are extern "C": NAME is the source name). */
    for (const char *p = strstr(text, ".entry "); p; p = strstr(p + 1, ".entry ")) {
        const char *name = p + strlen(".entry ");
        size_t len = strcspn(name, "( \t\n");
        if (rtdrv_n_kernels == RTDRV_MAX_KERNELS) {
            fprintf(stderr, "rtdrv: more than %d kernels\n", RTDRV_MAX_KERNELS);
            return CUDA_ERROR_UNKNOWN;
        }
        char *k = strndup(name, len);
        rtdrv_kernels[rtdrv_n_kernels++] = k;
        __cudaRegisterFunction(handle, k, k, k, -1, NULL, NULL, NULL, NULL);
    }
    __cudaRegisterFatBinaryEnd(handle);
    *module = (CUmodule)handle;
    return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule hmod)
{
    (void)hmod;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    (void)hmod;
    for (int i = 0; i < rtdrv_n_kernels; i++) {
        if (!strcmp(rtdrv_kernels[i], name)) {
            *hfunc = (CUfunction)rtdrv_kernels[i];
            return CUDA_SUCCESS;
        }
    }
    fprintf(stderr, "rtdrv: no kernel '%s' in the PTX\n", name);
    return CUDA_ERROR_NOT_FOUND;
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
    void *p = NULL;
    CUresult r = rtdrv_result(cudaMalloc(&p, bytesize), "cudaMalloc");
    *dptr = (CUdeviceptr)(uintptr_t)p;
    return r;
}

CUresult cuMemFree(CUdeviceptr dptr)
{
    return rtdrv_result(cudaFree(rtdrv_ptr(dptr)), "cudaFree");
}

CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    return rtdrv_result(cudaMemcpy(rtdrv_ptr(dstDevice), srcHost, ByteCount, RTDRV_HTOD), "cudaMemcpy");
}

CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    return rtdrv_result(cudaMemcpy(dstHost, rtdrv_ptr(srcDevice), ByteCount, RTDRV_DTOH), "cudaMemcpy");
}

CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    return rtdrv_result(cudaMemset(rtdrv_ptr(dstDevice), uc, N), "cudaMemset");
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    if (extra) {
        fprintf(stderr, "rtdrv: cuLaunchKernel: 'extra' parameters are not supported\n");
        return CUDA_ERROR_INVALID_VALUE;
    }
    rtdrv_dim3 grid = {gridDimX, gridDimY, gridDimZ}, block = {blockDimX, blockDimY, blockDimZ};
    /* What an nvcc-built <<<...>>> does before its stub calls cudaLaunchKernel: GPGPU-Sim takes
     * the launch shape from this, and only the arguments from cudaLaunchKernel. */
    __cudaPushCallConfiguration(grid, block, sharedMemBytes, hStream);
    return rtdrv_result(cudaLaunchKernel(f, grid, block, kernelParams, sharedMemBytes, hStream),
                        "cudaLaunchKernel");
}

CUresult cuCtxSynchronize(void)
{
    return rtdrv_result(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}
