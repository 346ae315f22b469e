/* driver_memory.c: memory of warpsim's libcuda replacement (see driver.c).
 *
 * Device allocations (plain and pitched), pinned host memory (mapped into the device's address
 * space at its own address, as under unified addressing: its device pointer is its host
 * pointer; api_host.c, shared with the runtime), copies, memsets of 8, 16 and 32-bit values in
 * 1D and 2D, and what a pointer is. The simulator keeps the map of device memory: copies and
 * memsets must stay inside one allocation or variable. The Async forms are the same calls (the
 * device is synchronous). */
#include "api/driver_internal.h"

#include "api/api_host.h"
#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cuMemAllocPitch's rows start at 512-byte boundaries, the texture alignment
 * (CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT), as cudaMallocPitch's do, so any row can back a 2D
 * texture. */
#define DRV_ROW_ALIGN 512

static ApiHostTable drv_host; /* cuMemAllocHost / cuMemHostAlloc blocks and cuMemHostRegister ranges */

bool drv_is_device(CUdeviceptr p, size_t n)
{
    return p && warpsim_mem_find(drv_sim, p, n, NULL);
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    NEED_CTX();
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    uint64_t used = warpsim_mem_allocated(drv_sim);
    if (free_bytes)
        *free_bytes = (size_t)(di.global_bytes - MIN(di.global_bytes, used));
    if (total)
        *total = (size_t)di.global_bytes;
    return CUDA_SUCCESS;
}

CUresult drv_dev_alloc(const char *call, CUdeviceptr *dptr, size_t bytesize)
{
    NEED_CTX();
    if (!dptr || bytesize == 0)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    uint64_t used = warpsim_mem_allocated(drv_sim), free_bytes = di.global_bytes - MIN(di.global_bytes, used);
    if (bytesize > free_bytes)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, call, "%zu bytes: the device has %llu of its %llu bytes free",
                        bytesize, (unsigned long long)free_bytes, (unsigned long long)di.global_bytes);
    *dptr = warpsim_malloc(drv_sim, bytesize);
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    return drv_dev_alloc("cuMemAlloc", dptr, bytesize);
}

/* ElementSizeBytes (4, 8 or 16) is the widest access a kernel makes to a row; rows are aligned
 * far beyond it anyway. */
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                            unsigned int ElementSizeBytes)
{
    static const char call[] = "cuMemAllocPitch";
    if (!dptr || !pPitch || WidthInBytes == 0 || Height == 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s", !dptr || !pPitch ? "null pointer" : "an empty array");
    if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "element size %u: 4, 8 or 16 bytes", ElementSizeBytes);
    size_t pitch = (WidthInBytes + DRV_ROW_ALIGN - 1) / DRV_ROW_ALIGN * DRV_ROW_ALIGN;
    if (pitch < WidthInBytes || pitch > SIZE_MAX / Height)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, call, "%zu rows of %zu bytes", Height, WidthInBytes);
    CUresult r = drv_dev_alloc(call, dptr, pitch * Height);
    if (r == CUDA_SUCCESS)
        *pPitch = pitch;
    return r;
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    NEED_CTX();
    return drv_result(warpsim_free(drv_sim, dptr));
}

/* The allocation or variable holding dptr. */
CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    NEED_CTX();
    WarpsimRange r;
    if (!warpsim_mem_find(drv_sim, dptr, 1, &r))
        return drv_fail(CUDA_ERROR_NOT_FOUND, "cuMemGetAddressRange", "0x%llx is not in device memory",
                        (unsigned long long)dptr);
    if (pbase)
        *pbase = r.addr;
    if (psize)
        *psize = (size_t)r.size;
    return CUDA_SUCCESS;
}

/* ---- pinned host memory ---- */

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    static const char call[] = "cuMemHostAlloc";
    NEED_CTX();
    if (!pp)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    unsigned known = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED;
    if (Flags & ~known)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "flags 0x%x: expected CU_MEMHOSTALLOC_PORTABLE, "
                        "CU_MEMHOSTALLOC_DEVICEMAP or CU_MEMHOSTALLOC_WRITECOMBINED", Flags);
    WarpsimStatus st;
    *pp = api_host_alloc(&drv_host, drv_sim, bytesize, Flags, &st);
    if (!*pp && st == WARPSIM_E_MEMORY)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, call, "%zu bytes of host memory", bytesize);
    return *pp ? CUDA_SUCCESS : drv_result(st); /* a refused mapping: the simulator said why */
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    return cuMemHostAlloc(pp, bytesize, 0);
}

CUresult cuMemFreeHost(void *p)
{
    NEED_INIT();
    ApiHostRange *r = p ? api_host_find(&drv_host, p) : NULL;
    if (!r || r->p != p || !r->owned)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemFreeHost", "%p is not from cuMemAllocHost or cuMemHostAlloc",
                        p);
    api_host_remove(&drv_host, drv_sim, r);
    free(p);
    return CUDA_SUCCESS;
}

/* Page-locking the program's memory: recorded and mapped, whatever the flags ask. */
CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    static const char call[] = "cuMemHostRegister";
    NEED_CTX();
    unsigned known = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_IOMEMORY |
                     CU_MEMHOSTREGISTER_READ_ONLY;
    if (!p || bytesize == 0 || Flags & ~known)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s", !p ? "null pointer" : bytesize ? "unknown flags"
                                                                                            : "0 bytes");
    const ApiHostRange *o = api_host_overlap(&drv_host, p, bytesize);
    if (o)
        return drv_fail(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, call, "%p (%zu bytes) overlaps pinned memory at "
                        "%p", p, bytesize, (void *)o->p);
    return drv_result(api_host_add(&drv_host, drv_sim, p, bytesize, false, Flags));
}

CUresult cuMemHostUnregister(void *p)
{
    NEED_INIT();
    ApiHostRange *r = p ? api_host_find(&drv_host, p) : NULL;
    if (!r || r->p != p || r->owned)
        return drv_fail(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "cuMemHostUnregister", "%p is not a range of "
                        "cuMemHostRegister", p);
    api_host_remove(&drv_host, drv_sim, r);
    return CUDA_SUCCESS;
}

/* Under unified addressing the device pointer of pinned memory is its host pointer. */
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    NEED_CTX();
    if (!pdptr || !p || Flags != 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetDevicePointer", "%s",
                        Flags ? "flags must be 0" : "null pointer");
    if (!api_host_find(&drv_host, p))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetDevicePointer", "%p is not pinned memory "
                        "(cuMemHostAlloc, cuMemAllocHost or cuMemHostRegister)", p);
    *pdptr = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    NEED_INIT();
    const ApiHostRange *r = p ? api_host_find(&drv_host, p) : NULL;
    if (!pFlags || !r || !r->owned)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemHostGetFlags", "%p is not memory of cuMemHostAlloc or "
                        "cuMemAllocHost", p);
    *pFlags = r->flags;
    return CUDA_SUCCESS;
}

/* ---- what a pointer is ---- */

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    static const char call[] = "cuPointerGetAttribute";
    NEED_INIT();
    if (!data)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    WarpsimRange r;
    const ApiHostRange *h = api_host_find(&drv_host, (const void *)(uintptr_t)ptr);
    bool device = !h && warpsim_mem_find(drv_sim, ptr, 1, &r) && !r.is_mapped;
    if (!h && !device) /* CUDA too: memory the driver does not know is an error */
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "0x%llx is neither device nor pinned host memory",
                        (unsigned long long)ptr);
    switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data = drv_context(); break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *(unsigned *)data = device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(CUdeviceptr *)data = ptr; break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (device && !r.is_managed)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "0x%llx is device memory: no host pointer",
                            (unsigned long long)ptr);
        *(void **)data = (void *)(uintptr_t)ptr;
        break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(bool *)data = device && r.is_managed; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(CUdeviceptr *)data = device ? r.addr : (uintptr_t)h->p; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = device ? (size_t)r.size : h->n; break;
    case CU_POINTER_ATTRIBUTE_MAPPED: *(bool *)data = true; break;
    default:
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "attribute %d is not answered", (int)attribute);
    }
    return CUDA_SUCCESS;
}

/* ---- copies ---- */

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
    NEED_CTX();
    return drv_result(warpsim_memcpy_htod(drv_sim, dst, src, n));
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
    NEED_CTX();
    return drv_result(warpsim_memcpy_dtoh(drv_sim, dst, src, n));
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    NEED_CTX();
    return drv_result(warpsim_memcpy_dtod(drv_sim, dst, src, n));
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream hStream)
{
    return cuMemcpyHtoD_v2(dst, src, n);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream hStream)
{
    return cuMemcpyDtoH_v2(dst, src, n);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream hStream)
{
    return cuMemcpyDtoD_v2(dst, src, n);
}

/* ---- memsets ---- */

/* count elements of elem bytes (1, 2 or 4) at dst set to value: one memset when its bytes are
 * all alike, else copies of a patterned buffer. */
static CUresult fill(const char *call, CUdeviceptr dst, uint32_t value, unsigned elem, size_t count)
{
    if (count && !dst)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    if (count > SIZE_MAX / elem)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%zu elements", count);
    uint32_t byte = value & 0xff, mask = elem == 4 ? 0xffffffffu : (1u << (8 * elem)) - 1;
    if ((byte * 0x01010101u & mask) == (value & mask))
        return drv_result(warpsim_memset(drv_sim, dst, (int)byte, count * elem));
    if (!drv_is_device(dst, count * elem)) /* all or nothing, as one memset would be */
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%zu bytes at 0x%llx are not inside one device allocation",
                        count * elem, (unsigned long long)dst);
    uint8_t buf[4096];
    for (size_t i = 0; i < sizeof buf; i += elem)
        memcpy(buf + i, &value, elem); /* little-endian: the low bytes */
    for (size_t done = 0; done < count * elem;) {
        size_t k = MIN(count * elem - done, sizeof buf);
        CUresult r = drv_result(warpsim_memcpy_htod(drv_sim, dst + done, buf, k));
        if (r != CUDA_SUCCESS)
            return r;
        done += k;
    }
    return CUDA_SUCCESS;
}

/* height rows of width elements, rows pitch bytes apart. */
static CUresult fill_2d(const char *call, CUdeviceptr dst, size_t pitch, uint32_t value, unsigned elem, size_t width,
                        size_t height)
{
    NEED_CTX();
    if (height > 1 && (width > pitch / elem))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "rows of %zu elements of %u bytes in a pitch of %zu", width,
                        elem, pitch);
    for (size_t y = 0; y < height; y++) {
        CUresult r = fill(call, dst + y * pitch, value, elem, width);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char uc, size_t n)
{
    return fill_2d("cuMemsetD8", dst, n, uc, 1, n, 1);
}

CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short us, size_t n)
{
    return fill_2d("cuMemsetD16", dst, n * 2, us, 2, n, 1);
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int ui, size_t n)
{
    return fill_2d("cuMemsetD32", dst, n * 4, ui, 4, n, 1);
}

CUresult cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char uc, size_t width, size_t height)
{
    return fill_2d("cuMemsetD2D8", dst, pitch, uc, 1, width, height);
}

CUresult cuMemsetD2D16_v2(CUdeviceptr dst, size_t pitch, unsigned short us, size_t width, size_t height)
{
    return fill_2d("cuMemsetD2D16", dst, pitch, us, 2, width, height);
}

CUresult cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned int ui, size_t width, size_t height)
{
    return fill_2d("cuMemsetD2D32", dst, pitch, ui, 4, width, height);
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char uc, size_t n, CUstream s)
{
    return cuMemsetD8_v2(dst, uc, n);
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short us, size_t n, CUstream s)
{
    return cuMemsetD16_v2(dst, us, n);
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int ui, size_t n, CUstream s)
{
    return cuMemsetD32_v2(dst, ui, n);
}

CUresult cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char uc, size_t width, size_t height, CUstream s)
{
    return cuMemsetD2D8_v2(dst, pitch, uc, width, height);
}

CUresult cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short us, size_t width, size_t height, CUstream s)
{
    return cuMemsetD2D16_v2(dst, pitch, us, width, height);
}

CUresult cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned int ui, size_t width, size_t height, CUstream s)
{
    return cuMemsetD2D32_v2(dst, pitch, ui, width, height);
}

DRV_ALIAS(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2);
DRV_ALIAS(cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2);
DRV_ALIAS(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2);
DRV_ALIAS(cuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2);
DRV_ALIAS(cuMemcpyDtoHAsync_v2_ptsz, cuMemcpyDtoHAsync_v2);
DRV_ALIAS(cuMemcpyDtoDAsync_v2_ptsz, cuMemcpyDtoDAsync_v2);
DRV_ALIAS(cuMemsetD8_v2_ptds, cuMemsetD8_v2);
DRV_ALIAS(cuMemsetD16_v2_ptds, cuMemsetD16_v2);
DRV_ALIAS(cuMemsetD32_v2_ptds, cuMemsetD32_v2);
DRV_ALIAS(cuMemsetD2D8_v2_ptds, cuMemsetD2D8_v2);
DRV_ALIAS(cuMemsetD2D16_v2_ptds, cuMemsetD2D16_v2);
DRV_ALIAS(cuMemsetD2D32_v2_ptds, cuMemsetD2D32_v2);
DRV_ALIAS(cuMemsetD8Async_ptsz, cuMemsetD8Async);
DRV_ALIAS(cuMemsetD16Async_ptsz, cuMemsetD16Async);
DRV_ALIAS(cuMemsetD32Async_ptsz, cuMemsetD32Async);
DRV_ALIAS(cuMemsetD2D8Async_ptsz, cuMemsetD2D8Async);
DRV_ALIAS(cuMemsetD2D16Async_ptsz, cuMemsetD2D16Async);
DRV_ALIAS(cuMemsetD2D32Async_ptsz, cuMemsetD2D32Async);
