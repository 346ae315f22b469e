/* runtime_managed.c: managed (unified) memory of warpsim's libcudart replacement (see
 * runtime.c): cudaMallocManaged, the hints (cudaMemPrefetchAsync, cudaMemAdvise,
 * cudaStreamAttachMemAsync), and the __managed__ variables' pointers (runtime_module.c).
 *
 * Managed memory is host memory that the simulated device addresses at the same address
 * (ptx_hostmem.c): the pointer cudaMallocManaged returns is both the host's and the device's,
 * and kernels, copies and the host program's own loads and stores touch the same bytes. The
 * device is synchronous, so nothing needs moving or keeping coherent at launches: the host
 * may read a kernel's results once it has synchronised (a launch into a created stream runs
 * when the host next waits, runtime_queue.c; one into a default stream, at once), and may touch
 * managed memory at any time (concurrentManagedAccess 1). Nothing migrates: prefetches and advice are checked and
 * accepted, and change nothing; the timing model sees managed memory as device memory (no page
 * faults, no transfers). A managed allocation counts against the device's memory as
 * cudaMalloc's do, and cudaFree frees it. */
#include "api/runtime_internal.h"

#include "base/base.h"

#include <stdint.h>

enum { cudaMemAttachGlobal = 1, cudaMemAttachHost = 2, cudaMemAttachSingle = 4 };

/* enum cudaMemLocationType and struct cudaMemLocation (driver_types.h) */
enum {
    cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3, cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
    int type;
    int id;
};
_Static_assert(sizeof(struct cudaMemLocation) == 8, "cudaMemLocation layout");

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned flags)
{
    ENTER("cudaMallocManaged");
    if (!devPtr)
        return rt_fail(cudaErrorInvalidValue, "cudaMallocManaged", "null pointer");
    *devPtr = NULL;
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        return rt_fail(cudaErrorInvalidValue, "cudaMallocManaged", "flags 0x%x: expected cudaMemAttachGlobal or "
                       "cudaMemAttachHost", flags);
    if (size == 0) /* CUDA documents cudaErrorInvalidValue; an H200 succeeds, as cudaMalloc does */
        return cudaSuccess;
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    uint64_t used = warpsim_mem_allocated(rt_sim), left = di.global_bytes - MIN(di.global_bytes, used);
    if (size > left)
        return rt_fail(cudaErrorMemoryAllocation, "cudaMallocManaged", "%zu bytes: the device has %llu of its %llu "
                       "bytes free", size, (unsigned long long)left, (unsigned long long)di.global_bytes);
    uint64_t p = warpsim_malloc_managed(rt_sim, size);
    if (!p)
        return rt_fail(cudaErrorMemoryAllocation, "cudaMallocManaged", "%zu bytes: the host has no memory to give",
                       size);
    *devPtr = (void *)(uintptr_t)p;
    rt_pool_note_use(warpsim_mem_allocated(rt_sim));
    return cudaSuccess;
}

/* [devPtr, devPtr + count) must lie in one managed allocation or variable (count 0: the
 * allocation devPtr starts, as cudaStreamAttachMemAsync allows); what fails says so. */
static cudaError_t check_managed(const char *call, const void *devPtr, size_t count)
{
    WarpsimRange r;
    if (!devPtr || !warpsim_mem_find(rt_sim, (uint64_t)(uintptr_t)devPtr, count ? count : 1, &r) || !r.is_managed)
        return rt_fail(cudaErrorInvalidValue, call, "%p (%zu bytes) is not inside one managed allocation or "
                       "__managed__ variable", devPtr, count);
    return cudaSuccess;
}

/* A location to move or advise managed memory to: the device, or the host. */
static cudaError_t check_location(const char *call, struct cudaMemLocation loc)
{
    if (loc.type == cudaMemLocationTypeDevice && loc.id != 0)
        return rt_fail(cudaErrorInvalidDevice, call, "device %d: the simulator has one device, 0", loc.id);
    if (loc.type < cudaMemLocationTypeDevice || loc.type > cudaMemLocationTypeHostNumaCurrent)
        return rt_fail(cudaErrorInvalidValue, call, "location type %d: expected cudaMemLocationTypeDevice or a host "
                       "location", loc.type);
    return cudaSuccess;
}

/* Nothing migrates: the device addresses the host's bytes where they are. */
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned flags,
                                 cudaStream_t stream)
{
    ENTER_NO_WAIT("cudaMemPrefetchAsync"); /* a hint: the host does not wait */
    cudaError_t e = check_managed("cudaMemPrefetchAsync", devPtr, count);
    if (e == cudaSuccess)
        e = check_location("cudaMemPrefetchAsync", location);
    if (e == cudaSuccess && flags != 0)
        e = rt_fail(cudaErrorInvalidValue, "cudaMemPrefetchAsync", "flags %u: expected 0", flags);
    return e;
}

enum { cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetAccessedBy = 6 };

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, struct cudaMemLocation location)
{
    ENTER_NO_WAIT("cudaMemAdvise"); /* a hint: the host does not wait */
    cudaError_t e = check_managed("cudaMemAdvise", devPtr, count);
    if (e == cudaSuccess && (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy))
        e = rt_fail(cudaErrorInvalidValue, "cudaMemAdvise", "advice %d: not a cudaMemoryAdvise value", advice);
    if (e == cudaSuccess && advice > 2) /* the read-mostly advice ignores the location */
        e = check_location("cudaMemAdvise", location);
    return e;
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned flags)
{
    ENTER_NO_WAIT("cudaStreamAttachMemAsync"); /* a hint: the host does not wait */
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamAttachMemAsync", "flags 0x%x: expected cudaMemAttachGlobal, "
                       "cudaMemAttachHost or cudaMemAttachSingle", flags);
    cudaError_t e = check_managed("cudaStreamAttachMemAsync", devPtr, length);
    if (e != cudaSuccess)
        return e;
    WarpsimRange r;
    warpsim_mem_find(rt_sim, (uint64_t)(uintptr_t)devPtr, 1, &r);
    if (length != 0 && (r.addr != (uint64_t)(uintptr_t)devPtr || length != r.size))
        return rt_fail(cudaErrorInvalidValue, "cudaStreamAttachMemAsync", "%p, %zu bytes: expected length 0 or a "
                       "whole allocation (%llu bytes at 0x%llx)", devPtr, length, (unsigned long long)r.size,
                       (unsigned long long)r.addr);
    return cudaSuccess;
}

RT_PER_THREAD(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync);
RT_PER_THREAD(cudaStreamAttachMemAsync_ptsz, cudaStreamAttachMemAsync);
