/* runtime_memory.c: device memory of warpsim's libcudart replacement (see runtime.c).
 *
 * cudaMalloc and cudaFree, pinned host memory, copies in every direction, memset, and copies
 * to and from __device__ / __constant__ variables. Pinned memory (cudaHostAlloc,
 * cudaMallocHost, cudaHostRegister) is ordinary host memory that the simulator maps into the
 * device's address space at its own address, as CUDA does under unified addressing: kernels
 * may use the host pointer, which cudaHostGetDevicePointer returns (see ptx_hostmem.c). The
 * simulator keeps the map of every piece of device memory the program may name, allocations
 * and module variables alike (O(log n) per allocation, free or lookup): copies are checked
 * against it, and cudaMemcpyDefault tells device from host pointers with it. Copies complete
 * before the call returns. */
#include "api/api_host.h"
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

/* Pinned host memory: cudaMallocHost / cudaHostAlloc blocks (owned) and cudaHostRegister
 * ranges (the program's), for cudaFreeHost, cudaHostUnregister and cudaPointerGetAttributes. */
static ApiHostTable rt_host;

/* ---- the map of device memory ---- */

/* Device memory, for cudaMemcpyDefault: allocations, variables and managed memory; pinned
 * host memory, which the device addresses too, is host memory. */
static bool is_device(const void *p)
{
    WarpsimRange r;
    return p && warpsim_mem_find(rt_sim, (uint64_t)(uintptr_t)p, 1, &r) && !r.is_mapped;
}

cudaError_t rt_check_device(const void *p, size_t n, const char *call, const char *what)
{
    if (n && !warpsim_mem_find(rt_sim, (uint64_t)(uintptr_t)p, n, NULL))
        return rt_fail(cudaErrorInvalidValue, call, "%s %p (%zu bytes) is not inside a device allocation", what, p, n);
    return cudaSuccess;
}

/* ---- allocations ---- */

cudaError_t rt_dev_check_room(const char *call, size_t size)
{
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    uint64_t used = warpsim_mem_allocated(rt_sim);
    if (size > di.global_bytes - MIN(di.global_bytes, used))
        return rt_fail(cudaErrorMemoryAllocation, call, "%zu bytes: the device has %llu of its %llu bytes "
                       "free", size, (unsigned long long)(di.global_bytes - MIN(di.global_bytes, used)),
                       (unsigned long long)di.global_bytes);
    return cudaSuccess;
}

cudaError_t rt_dev_alloc(const char *call, void **devPtr, size_t size)
{
    ENTER(call);
    if (!devPtr)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    *devPtr = NULL;
    if (size == 0)
        return cudaSuccess;
    cudaError_t e = rt_dev_check_room(call, size);
    if (e != cudaSuccess)
        return e;
    *devPtr = (void *)(uintptr_t)warpsim_malloc(rt_sim, size);
    rt_pool_note_use(warpsim_mem_allocated(rt_sim));
    return cudaSuccess;
}

cudaError_t rt_dev_free(const char *call, void *devPtr)
{
    ENTER(call);
    if (!devPtr)
        return cudaSuccess;
    cudaError_t ge;
    if (rt_graph_mem_release(call, devPtr, &ge))
        return ge;
    if (rt_ipc_free(call, devPtr, &ge) || rt_pool_ipc_free(call, devPtr, &ge))
        return ge;
    WarpsimRange r;
    uint64_t a = (uint64_t)(uintptr_t)devPtr;
    if (!warpsim_mem_find(rt_sim, a, 1, &r) || r.addr != a || r.is_variable)
        return rt_fail(cudaErrorInvalidValue, call, "%p is not an allocation of cudaMalloc", devPtr);
    return rt_status(warpsim_free(rt_sim, a));
}

cudaError_t cudaMalloc(void **devPtr, size_t size) { return rt_dev_alloc("cudaMalloc", devPtr, size); }

cudaError_t cudaFree(void *devPtr) { return rt_dev_free("cudaFree", devPtr); }

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    ENTER("cudaMemGetInfo");
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    uint64_t used = warpsim_mem_allocated(rt_sim);
    if (free_bytes)
        *free_bytes = (size_t)(di.global_bytes - MIN(di.global_bytes, used));
    if (total)
        *total = (size_t)di.global_bytes;
    return cudaSuccess;
}

/* ---- host memory ---- */

enum { cudaHostAllocAllFlags = 0x7 }; /* Portable, Mapped, WriteCombined */

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned flags)
{
    ENTER("cudaHostAlloc");
    if (!pHost)
        return rt_fail(cudaErrorInvalidValue, "cudaHostAlloc", "null pointer");
    if (flags & ~(unsigned)cudaHostAllocAllFlags)
        return rt_fail(cudaErrorInvalidValue, "cudaHostAlloc", "flags 0x%x: expected cudaHostAllocPortable, "
                       "cudaHostAllocMapped or cudaHostAllocWriteCombined", flags);
    WarpsimStatus st;
    void *p = api_host_alloc(&rt_host, rt_sim, size, flags, &st);
    if (!p && st == WARPSIM_E_MEMORY)
        return rt_fail(cudaErrorMemoryAllocation, "cudaHostAlloc", "%zu bytes of host memory", size);
    if (!p) /* the simulator said why */
        return rt_quiet_fail(cudaErrorInvalidValue);
    *pHost = p;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return cudaHostAlloc(ptr, size, 0);
}

cudaError_t cudaFreeHost(void *ptr)
{
    API_LOCKED;
    if (!ptr)
        return cudaSuccess;
    ApiHostRange *r = api_host_find(&rt_host, ptr);
    if (!r || r->p != ptr || !r->owned)
        return rt_fail(cudaErrorInvalidValue, "cudaFreeHost", "%p is not from cudaMallocHost or cudaHostAlloc", ptr);
    api_host_remove(&rt_host, rt_sim, r);
    free(ptr);
    return cudaSuccess;
}

/* Page-locking the program's memory: the range is recorded and mapped into the device's
 * address space, with or without cudaHostRegisterMapped, as under unified addressing (the
 * read-only and I/O flags are accepted; the device's writes are not refused). */
enum { cudaHostRegisterAllFlags = 0xf };

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned flags)
{
    ENTER("cudaHostRegister");
    if (!ptr || size == 0)
        return rt_fail(cudaErrorInvalidValue, "cudaHostRegister", "%s", ptr ? "size 0" : "null pointer");
    if (flags & ~(unsigned)cudaHostRegisterAllFlags)
        return rt_fail(cudaErrorInvalidValue, "cudaHostRegister", "flags 0x%x: not CUDA's", flags);
    const ApiHostRange *o = api_host_overlap(&rt_host, ptr, size);
    if (o)
        return rt_fail(cudaErrorHostMemoryAlreadyRegistered, "cudaHostRegister",
                       "%p (%zu bytes) overlaps pinned memory at %p", ptr, size, (void *)o->p);
    if (api_host_add(&rt_host, rt_sim, ptr, size, false, flags) != WARPSIM_OK) /* the simulator said why */
        return rt_quiet_fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *ptr)
{
    API_LOCKED;
    ApiHostRange *r = ptr ? api_host_find(&rt_host, ptr) : NULL;
    if (!r || r->p != ptr || r->owned)
        return rt_fail(cudaErrorHostMemoryNotRegistered, "cudaHostUnregister", "%p is not a range of cudaHostRegister",
                       ptr);
    api_host_remove(&rt_host, rt_sim, r);
    return cudaSuccess;
}

/* Under unified addressing the device pointer of pinned memory is its host pointer. */
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned flags)
{
    API_LOCKED;
    if (!pDevice || !pHost)
        return rt_fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer", "null pointer");
    if (flags != 0)
        return rt_fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer", "flags %u: expected 0", flags);
    if (!api_host_find(&rt_host, pHost))
        return rt_fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer", "%p is not pinned memory (cudaHostAlloc, "
                       "cudaMallocHost or cudaHostRegister)", pHost);
    *pDevice = pHost;
    return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned *pFlags, void *pHost)
{
    API_LOCKED;
    if (!pFlags)
        return rt_fail(cudaErrorInvalidValue, "cudaHostGetFlags", "null pointer");
    ApiHostRange *r = pHost ? api_host_find(&rt_host, pHost) : NULL;
    if (!r || !r->owned)
        return rt_fail(cudaErrorInvalidValue, "cudaHostGetFlags", "%p is not memory of cudaHostAlloc or "
                       "cudaMallocHost", pHost);
    *pFlags = r->flags;
    return cudaSuccess;
}

/* ---- what a pointer is ---- */

struct cudaPointerAttributes {
    int type; /* enum cudaMemoryType */
    int device;
    void *devicePointer, *hostPointer;
    long reserved[8];
};
_Static_assert(sizeof(struct cudaPointerAttributes) == 88, "cudaPointerAttributes layout");

enum {
    cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3,
    cudaInvalidDeviceId = -2
};

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    ENTER("cudaPointerGetAttributes");
    if (!attributes)
        return rt_fail(cudaErrorInvalidValue, "cudaPointerGetAttributes", "null pointer");
    memset(attributes, 0, sizeof *attributes);
    WarpsimRange r;
    if (ptr && warpsim_mem_find(rt_sim, (uint64_t)(uintptr_t)ptr, 1, &r) && !r.is_mapped) {
        attributes->type = r.is_managed ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
        attributes->devicePointer = (void *)(uintptr_t)ptr;
        if (r.is_managed) /* host memory the device addresses at the same address */
            attributes->hostPointer = (void *)(uintptr_t)ptr;
    } else if (api_host_find(&rt_host, ptr)) { /* pinned, mapped at its own address */
        attributes->type = cudaMemoryTypeHost;
        attributes->hostPointer = attributes->devicePointer = (void *)(uintptr_t)ptr;
    } else { /* CUDA 11 on: unregistered host memory is no error */
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->device = cudaInvalidDeviceId;
        attributes->hostPointer = (void *)(uintptr_t)ptr;
    }
    return cudaSuccess;
}

/* ---- copies ---- */

cudaError_t rt_copy(void *dst, const void *src, size_t count, int kind, const char *call)
{
    ENTER(call);
    if (count == 0)
        return cudaSuccess;
    if (!dst || !src)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (kind == cudaMemcpyDefault)
        kind = is_device(dst) ? (is_device(src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                              : (is_device(src) ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    uint64_t d = (uint64_t)(uintptr_t)dst, s = (uint64_t)(uintptr_t)src;
    cudaError_t e = cudaSuccess;
    switch (kind) {
    case cudaMemcpyHostToHost:
        memmove(dst, src, count);
        return cudaSuccess;
    case cudaMemcpyHostToDevice:
        if ((e = rt_check_device(dst, count, call, "destination")) != cudaSuccess)
            return e;
        return rt_status(warpsim_memcpy_htod(rt_sim, d, src, count));
    case cudaMemcpyDeviceToHost:
        if ((e = rt_check_device(src, count, call, "source")) != cudaSuccess)
            return e;
        return rt_status(warpsim_memcpy_dtoh(rt_sim, dst, s, count));
    case cudaMemcpyDeviceToDevice:
        if ((e = rt_check_device(src, count, call, "source")) != cudaSuccess ||
            (e = rt_check_device(dst, count, call, "destination")) != cudaSuccess)
            return e;
        return rt_status(warpsim_memcpy_dtod(rt_sim, d, s, count));
    default:
        return rt_fail(cudaErrorInvalidMemcpyDirection, call, "copy kind %d", kind);
    }
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
    return rt_copy(dst, src, count, kind, "cudaMemcpy");
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, cudaStream_t stream)
{
    API_LOCKED;
    if (rt_capturing(stream)) {
        RtOp op = {.kind = RT_OP_MEMCPY, .dst = dst, .src = src, .width = count, .height = 1, .copy_kind = kind};
        return rt_capture_op(stream, &op, "cudaMemcpyAsync");
    }
    return rt_copy(dst, src, count, kind, "cudaMemcpyAsync");
}

/* Copies between devices: with the one simulated device, a device-to-device copy when both
 * are device 0, as CUDA does for a device and itself. */
static cudaError_t peer_devices(int dst_device, int src_device, const char *call)
{
    if (dst_device != 0 || src_device != 0)
        return rt_fail(cudaErrorInvalidDevice, call, "devices %d and %d: the simulator has one device, 0", dst_device,
                       src_device);
    return cudaSuccess;
}

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    cudaError_t e = peer_devices(dstDevice, srcDevice, "cudaMemcpyPeer");
    return e != cudaSuccess ? e : rt_copy(dst, src, count, cudaMemcpyDeviceToDevice, "cudaMemcpyPeer");
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream)
{
    API_LOCKED;
    cudaError_t e = peer_devices(dstDevice, srcDevice, "cudaMemcpyPeerAsync");
    if (e != cudaSuccess)
        return e;
    if (rt_capturing(stream)) {
        RtOp op = {.kind = RT_OP_MEMCPY, .dst = dst, .src = src, .width = count, .height = 1,
                   .copy_kind = cudaMemcpyDeviceToDevice};
        return rt_capture_op(stream, &op, "cudaMemcpyPeerAsync");
    }
    return rt_copy(dst, src, count, cudaMemcpyDeviceToDevice, "cudaMemcpyPeerAsync");
}

cudaError_t rt_memset(void *devPtr, int value, size_t count, const char *call)
{
    ENTER(call);
    cudaError_t e = rt_check_device(devPtr, count, call, "destination");
    if (e != cudaSuccess)
        return e;
    return rt_status(warpsim_memset(rt_sim, (uint64_t)(uintptr_t)devPtr, value, count));
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    return rt_memset(devPtr, value, count, "cudaMemset");
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    API_LOCKED;
    if (rt_capturing(stream)) {
        RtOp op = {.kind = RT_OP_MEMSET, .dst = devPtr, .width = count, .height = 1, .value = (uint8_t)value,
                   .elem = 1};
        return rt_capture_op(stream, &op, "cudaMemsetAsync");
    }
    return rt_memset(devPtr, value, count, "cudaMemsetAsync");
}

/* ---- __device__ and __constant__ variables ---- */

static cudaError_t symbol_copy(const void *symbol, void *host, size_t count, size_t offset, int kind, bool to,
                               const char *call)
{
    ENTER(call);
    RtVar *v;
    cudaError_t e = rt_var_of(symbol, call, &v);
    if (e != cudaSuccess)
        return e;
    if (offset > v->size || count > v->size - offset)
        return rt_fail(cudaErrorInvalidValue, call, "%zu bytes at offset %zu of '%s', which has %zu", count, offset,
                       v->name, v->size);
    bool device_side = kind == cudaMemcpyDeviceToDevice || (kind == cudaMemcpyDefault && is_device(host));
    if (kind != cudaMemcpyDefault && kind != cudaMemcpyDeviceToDevice &&
        kind != (to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
        return rt_fail(cudaErrorInvalidMemcpyDirection, call, "copy kind %d", kind);
    void *dev = (void *)(uintptr_t)(v->addr + offset);
    int k = device_side ? cudaMemcpyDeviceToDevice : to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    return to ? rt_copy(dev, host, count, k, call) : rt_copy(host, dev, count, k, call);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, int kind)
{
    return symbol_copy(symbol, (void *)(uintptr_t)src, count, offset, kind, true, "cudaMemcpyToSymbol");
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, int kind)
{
    return symbol_copy(symbol, dst, count, offset, kind, false, "cudaMemcpyFromSymbol");
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, int kind,
                                    cudaStream_t stream)
{
    return symbol_copy(symbol, (void *)(uintptr_t)src, count, offset, kind, true, "cudaMemcpyToSymbolAsync");
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, int kind,
                                      cudaStream_t stream)
{
    return symbol_copy(symbol, dst, count, offset, kind, false, "cudaMemcpyFromSymbolAsync");
}

/* The variable of symbol, for a query whose answer goes to out. */
static cudaError_t symbol_query(const char *call, const void *out, const void *symbol, RtVar **v)
{
    ENTER(call);
    if (!out)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    return rt_var_of(symbol, call, v);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    RtVar *v;
    cudaError_t e = symbol_query("cudaGetSymbolAddress", devPtr, symbol, &v);
    if (e != cudaSuccess)
        return e;
    *devPtr = (void *)(uintptr_t)v->addr;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    RtVar *v;
    cudaError_t e = symbol_query("cudaGetSymbolSize", size, symbol, &v);
    if (e != cudaSuccess)
        return e;
    *size = v->size;
    return cudaSuccess;
}

RT_PER_THREAD(cudaMemcpy_ptds, cudaMemcpy);
RT_PER_THREAD(cudaMemcpyAsync_ptsz, cudaMemcpyAsync);
RT_PER_THREAD(cudaMemset_ptds, cudaMemset);
RT_PER_THREAD(cudaMemsetAsync_ptsz, cudaMemsetAsync);
RT_PER_THREAD(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol);
RT_PER_THREAD(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol);
RT_PER_THREAD(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync);
RT_PER_THREAD(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync);
