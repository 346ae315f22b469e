/* runtime_pool.c: stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) and the device's
 * memory pool. The simulated device is synchronous, so an allocation ordered on a stream happens
 * when the call returns, exactly as cudaMalloc's; the one pool is the device's default pool,
 * which holds no memory back (trimming has nothing to release). Its attributes are kept and
 * reported: the reuse policies and release threshold as set, the reserved and used memory as
 * the bytes allocated now and their high-water marks. */
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stdint.h>
#include <string.h>

/* cudaMemPoolAttr's values (CUDA 13, driver_types.h) */
enum {
    POOL_REUSE_FOLLOW_EVENTS = 1, POOL_REUSE_OPPORTUNISTIC = 2, POOL_REUSE_INTERNAL_DEPS = 3,
    POOL_RELEASE_THRESHOLD = 4, POOL_RESERVED_CURRENT = 5, POOL_RESERVED_HIGH = 6, POOL_USED_CURRENT = 7,
    POOL_USED_HIGH = 8,
};

typedef struct RtPool {
    int reuse[4];               /* [1..3]: the reuse policies, on (1) by default */
    uint64_t release_threshold; /* 0 by default */
    uint64_t high;              /* the most bytes allocated at once since the mark was reset */
} RtPool;

static RtPool rt_pool = {{0, 1, 1, 1}, 0, 0};

typedef struct CUmemPoolHandle_st *cudaMemPool_t;
#define POOL_HANDLE ((cudaMemPool_t)&rt_pool)

void rt_pool_note_use(uint64_t bytes) { rt_pool.high = MAX(rt_pool.high, bytes); }

static cudaError_t check_pool(const char *call, cudaMemPool_t pool)
{
    if (pool != POOL_HANDLE)
        return rt_fail(cudaErrorInvalidValue, call, "%p is not a memory pool (the device's default pool is the only one)",
                       (void *)pool);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device)
{
    ENTER("cudaDeviceGetDefaultMemPool");
    if (!pool)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetDefaultMemPool", "null pointer");
    if (device != 0)
        return rt_fail(cudaErrorInvalidDevice, "cudaDeviceGetDefaultMemPool", "device %d: the simulator has one device, 0",
                       device);
    *pool = POOL_HANDLE;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device)
{
    return cudaDeviceGetDefaultMemPool(pool, device);
}

/* In call order on a synchronous device; on a captured stream, a graph's allocation node. */
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    if (rt_capturing(stream))
        return rt_graph_mem_capture_alloc(stream, devPtr, size, "cudaMallocAsync");
    return rt_dev_alloc("cudaMallocAsync", devPtr, size);
}

cudaError_t cudaMallocFromPoolAsync(void **devPtr, size_t size, cudaMemPool_t pool, cudaStream_t stream)
{
    cudaError_t e = check_pool("cudaMallocFromPoolAsync", pool);
    if (e == cudaSuccess && rt_capturing(stream))
        return rt_graph_mem_capture_alloc(stream, devPtr, size, "cudaMallocFromPoolAsync");
    return e != cudaSuccess ? e : rt_dev_alloc("cudaMallocFromPoolAsync", devPtr, size);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    if (rt_capturing(stream))
        return rt_graph_mem_capture_free(stream, devPtr, "cudaFreeAsync");
    return rt_dev_free("cudaFreeAsync", devPtr);
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep)
{
    (void)minBytesToKeep; /* nothing is held back */
    ENTER("cudaMemPoolTrimTo");
    return check_pool("cudaMemPoolTrimTo", pool);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *value)
{
    ENTER("cudaMemPoolSetAttribute");
    cudaError_t e = check_pool("cudaMemPoolSetAttribute", pool);
    if (e != cudaSuccess)
        return e;
    if (!value)
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolSetAttribute", "null value");
    switch (attr) {
    case POOL_REUSE_FOLLOW_EVENTS: case POOL_REUSE_OPPORTUNISTIC: case POOL_REUSE_INTERNAL_DEPS:
        rt_pool.reuse[attr] = *(const int *)value != 0;
        return cudaSuccess;
    case POOL_RELEASE_THRESHOLD:
        memcpy(&rt_pool.release_threshold, value, sizeof rt_pool.release_threshold);
        return cudaSuccess;
    case POOL_RESERVED_HIGH: case POOL_USED_HIGH: { /* only a reset to 0, which restarts the mark */
        uint64_t v;
        memcpy(&v, value, sizeof v);
        if (v != 0)
            return rt_fail(cudaErrorInvalidValue, "cudaMemPoolSetAttribute", "attribute %d can only be reset to 0", attr);
        rt_pool.high = warpsim_mem_allocated(rt_sim);
        return cudaSuccess;
    }
    default:
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolSetAttribute", "attribute %d cannot be set", attr);
    }
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value)
{
    ENTER("cudaMemPoolGetAttribute");
    cudaError_t e = check_pool("cudaMemPoolGetAttribute", pool);
    if (e != cudaSuccess)
        return e;
    if (!value)
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolGetAttribute", "null value");
    uint64_t now = warpsim_mem_allocated(rt_sim), v;
    switch (attr) {
    case POOL_REUSE_FOLLOW_EVENTS: case POOL_REUSE_OPPORTUNISTIC: case POOL_REUSE_INTERNAL_DEPS:
        *(int *)value = rt_pool.reuse[attr];
        return cudaSuccess;
    case POOL_RELEASE_THRESHOLD: v = rt_pool.release_threshold; break;
    case POOL_RESERVED_CURRENT: case POOL_USED_CURRENT: v = now; break;
    case POOL_RESERVED_HIGH: case POOL_USED_HIGH: v = MAX(rt_pool.high, now); break;
    default:
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolGetAttribute", "%d is not a memory pool attribute", attr);
    }
    memcpy(value, &v, sizeof v);
    return cudaSuccess;
}

RT_PER_THREAD(cudaMallocAsync_ptsz, cudaMallocAsync);
RT_PER_THREAD(cudaMallocFromPoolAsync_ptsz, cudaMallocFromPoolAsync);
RT_PER_THREAD(cudaFreeAsync_ptsz, cudaFreeAsync);
