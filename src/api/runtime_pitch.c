/* runtime_pitch.c: pitched 2D memory of warpsim's libcudart replacement (see runtime.c).
 *
 * cudaMallocPitch gives each row of a 2D array its own aligned start; cudaMemcpy2D and
 * cudaMemset2D walk the rows of such arrays (or of any two strided regions), each row one
 * checked copy or memset of the flat calls, so a row that leaves its allocation fails as a flat
 * copy would. The Async forms are the same calls: the device is synchronous. A row wider than
 * a pitch is cudaErrorInvalidValue, as NVIDIA's runtime 13.0 returns (measured on an H200),
 * where its documentation names cudaErrorInvalidPitchValue. */
#include "api/runtime_internal.h"

#include "base/base.h"

/* cudaMallocPitch's rows start at 512-byte boundaries, the texture alignment of the GPUs the
 * presets model (cudaDevAttrTextureAlignment), so any row can back a 2D texture. */
#define RT_ROW_ALIGN 512

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return rt_fail(cudaErrorInvalidValue, "cudaMallocPitch", "null pointer");
    size_t p = (width + RT_ROW_ALIGN - 1) / RT_ROW_ALIGN * RT_ROW_ALIGN;
    if (height && p > SIZE_MAX / height)
        return rt_fail(cudaErrorMemoryAllocation, "cudaMallocPitch", "%zu rows of %zu bytes", height, width);
    cudaError_t e = rt_dev_alloc("cudaMallocPitch", devPtr, p * height);
    if (e == cudaSuccess)
        *pitch = p;
    return e;
}

static cudaError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                           int kind, const char *call)
{
    if (width > dpitch || width > spitch)
        return rt_fail(cudaErrorInvalidValue, call, "rows of %zu bytes in pitches of %zu (destination) and %zu "
                       "(source)", width, dpitch, spitch);
    if (width == dpitch && width == spitch) /* contiguous: one copy */
        return rt_copy(dst, src, width * height, kind, call);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = rt_copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, call);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         int kind)
{
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2D");
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              int kind, cudaStream_t stream)
{
    return copy_2d(dst, dpitch, src, spitch, width, height, kind, "cudaMemcpy2DAsync");
}

static cudaError_t memset_2d(void *devPtr, size_t pitch, int value, size_t width, size_t height, const char *call)
{
    if (width > pitch)
        return rt_fail(cudaErrorInvalidValue, call, "rows of %zu bytes in a pitch of %zu", width, pitch);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = rt_memset((char *)devPtr + r * pitch, value, width, call);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return memset_2d(devPtr, pitch, value, width, height, "cudaMemset2D");
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream)
{
    return memset_2d(devPtr, pitch, value, width, height, "cudaMemset2DAsync");
}

RT_PER_THREAD(cudaMemcpy2D_ptds, cudaMemcpy2D);
RT_PER_THREAD(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync);
RT_PER_THREAD(cudaMemset2D_ptds, cudaMemset2D);
RT_PER_THREAD(cudaMemset2DAsync_ptsz, cudaMemset2DAsync);
