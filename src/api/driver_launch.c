/* driver_launch.c: launches and occupancy of warpsim's libcuda replacement (see driver.c).
 *
 * A launch packs the kernel's parameters (from kernelParams, or one buffer in `extra`) in the
 * layout the PTX declares and runs the kernel to completion. Occupancy is the simulator's: the
 * CTAs of a block size one SM holds, by the rule the CTA dispatcher uses
 * (warpsim_kernel_occupancy, as the runtime's cudaOccupancy* calls answer), and
 * cuOccupancyMaxPotentialBlockSize searches block sizes with CUDA's documented algorithm (the
 * one cuda_runtime.h's cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags spells out). */
#include "api/driver_internal.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's parameter buffer (ki->param_bytes, in buf) from kernelParams or `extra`. */
static CUresult pack_params(const char *call, const WarpsimKernelInfo *ki, void **params, void **extra, uint8_t *buf)
{
    memset(buf, 0, ki->param_bytes);
    if (params) {
        for (uint32_t i = 0; i < ki->n_params; i++) {
            if (!params[i])
                return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s: kernelParams[%u] is null", ki->name, i);
            memcpy(buf + ki->param_offset[i], params[i], ki->param_size[i]);
        }
        return CUDA_SUCCESS;
    }
    if (extra) {
        const void *ptr = NULL;
        size_t size = 0;
        for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END && i < 64; i += 2) {
            if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
                ptr = extra[i + 1];
            else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
                size = *(const size_t *)extra[i + 1];
            else
                return CUDA_ERROR_INVALID_VALUE;
        }
        if (!ptr || size != ki->param_bytes)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s: `extra` gives %zu bytes of parameters, the kernel "
                            "takes %u", ki->name, size, ki->param_bytes);
        memcpy(buf, ptr, size);
        return CUDA_SUCCESS;
    }
    if (ki->n_params > 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s: the kernel takes %u parameters and none were given",
                        ki->name, ki->n_params);
    return CUDA_SUCCESS;
}

static CUresult launch(const char *call, CUfunction f, const uint32_t grid[3], const uint32_t block[3],
                       unsigned smem, void **params, void **extra, bool cooperative)
{
    NEED_CTX();
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    const WarpsimKernelInfo *ki = &f->info;
    uint8_t stack_buf[512];
    uint8_t *buf = ki->param_bytes <= sizeof stack_buf ? stack_buf : xmalloc(ki->param_bytes);
    CUresult r = pack_params(call, ki, params, extra, buf);
    if (r == CUDA_SUCCESS && cooperative)
        r = drv_result(warpsim_launch_cooperative(drv_sim, f->mod->m, ki->name, grid, block, smem, buf,
                                                  ki->param_bytes));
    else if (r == CUDA_SUCCESS)
        r = drv_result(warpsim_launch(drv_sim, f->mod->m, ki->name, grid, block, smem, buf, ki->param_bytes));
    if (buf != stack_buf)
        free(buf);
    /* A kernel's fault is asynchronous on a GPU: the launch succeeds, the next call fails. */
    return r != CUDA_SUCCESS && r == drv_sticky ? CUDA_SUCCESS : r;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int smem, CUstream stream, void **params,
                        void **extra)
{
    const uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    return launch("cuLaunchKernel", f, grid, block, smem, params, extra, false);
}

/* The whole grid resident at once, its threads free to synchronise grid-wide (grid.sync()). */
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                   unsigned int by, unsigned int bz, unsigned int smem, CUstream stream,
                                   void **params)
{
    const uint32_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    return launch("cuLaunchCooperativeKernel", f, grid, block, smem, params, NULL, true);
}

DRV_ALIAS(cuLaunchKernel_ptsz, cuLaunchKernel);
DRV_ALIAS(cuLaunchCooperativeKernel_ptsz, cuLaunchCooperativeKernel);

/* ---- occupancy ---- */

static CUresult occupancy(const char *call, int *numBlocks, CUfunction f, int blockSize, size_t smem, unsigned flags)
{
    NEED_CTX();
    if (!numBlocks)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if (flags & ~(unsigned)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "unknown flags 0x%x", flags);
    if (blockSize <= 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "block size %d", blockSize);
    uint32_t ctas = 0, dyn = smem > UINT32_MAX ? UINT32_MAX : (uint32_t)smem;
    WarpsimStatus st = warpsim_kernel_occupancy(drv_sim, f->mod->m, f->info.name, (uint32_t)blockSize, dyn, &ctas);
    if (st != WARPSIM_OK)
        return drv_result(st);
    *numBlocks = (int)ctas;
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                     size_t dynamicSMemSize)
{
    return occupancy("cuOccupancyMaxActiveBlocksPerMultiprocessor", numBlocks, func, blockSize, dynamicSMemSize, 0);
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func, int blockSize,
                                                              size_t dynamicSMemSize, unsigned int flags)
{
    return occupancy("cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", numBlocks, func, blockSize,
                     dynamicSMemSize, flags);
}

/* From the largest block size (the limit, rounded up to whole warps) down by a warp at a time,
 * the one that keeps the most threads resident on an SM; the first found wins ties, and the
 * search stops once an SM is full. minGridSize: enough such blocks to fill every SM. */
static CUresult potential_block_size(const char *call, int *minGridSize, int *blockSize, CUfunction f,
                                     CUoccupancyB2DSize smem_of, size_t smem, int limit, unsigned flags)
{
    NEED_CTX();
    if (!minGridSize || !blockSize)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    if (limit < 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "block size limit %d", limit);
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    const int warp = 32, full = (int)di.max_threads_per_sm, dev_max = (int)di.max_threads_per_cta;
    if (limit == 0 || limit > dev_max)
        limit = dev_max; /* the kernel's own limit (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) is the device's */
    int best_size = 0, best_blocks = 0, best_threads = 0;
    for (int aligned = (limit + warp - 1) / warp * warp; aligned > 0; aligned -= warp) {
        int size = MIN(aligned, limit), blocks = 0;
        CUresult r = occupancy(call, &blocks, f, size, smem_of ? smem_of(size) : smem, flags);
        if (r != CUDA_SUCCESS)
            return r;
        if (size * blocks > best_threads) {
            best_size = size;
            best_blocks = blocks;
            best_threads = size * blocks;
        }
        if (best_threads == full)
            break;
    }
    *minGridSize = best_blocks * (int)di.n_sms;
    *blockSize = best_size;
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                          int blockSizeLimit)
{
    return potential_block_size("cuOccupancyMaxPotentialBlockSize", minGridSize, blockSize, func,
                                blockSizeToDynamicSMemSize, dynamicSMemSize, blockSizeLimit, 0);
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                   CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                   size_t dynamicSMemSize, int blockSizeLimit, unsigned int flags)
{
    return potential_block_size("cuOccupancyMaxPotentialBlockSizeWithFlags", minGridSize, blockSize, func,
                                blockSizeToDynamicSMemSize, dynamicSMemSize, blockSizeLimit, flags);
}
