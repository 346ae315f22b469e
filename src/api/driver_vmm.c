/* driver_vmm.c: virtual memory management of warpsim's libcuda replacement (see driver.c).
 *
 * cuMemAddressReserve takes address space without memory from the simulator
 * (warpsim_address_reserve), cuMemCreate makes a physical allocation (a handle: its size and
 * properties), and cuMemMap places it in a reservation (warpsim_malloc_at), where kernels and
 * copies reach it as any allocation; cuMemUnmap takes it out again. The simulated memory is
 * addressed, not indirected through page tables, so an allocation lives where it is mapped:
 * one allocation mapped at two addresses at once (aliasing), or mapped in part (an offset, a
 * size other than its own), is refused with CUDA_ERROR_NOT_SUPPORTED; its bytes are kept
 * across an unmap and a later map while the handle lives. Access is granted when memory is
 * mapped: cuMemSetAccess checks its arguments and records the flags for cuMemGetAccess, but a
 * read-only or no-access mapping is not enforced. The granularity is 2 MiB, as on NVIDIA's
 * GPUs. Pinned device memory only: managed allocations and allocations on the host are
 * refused; generic compression is accepted where the machine's generation has it (compute
 * capability 8.0 on, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED) and changes nothing.
 *
 * Shareable allocations (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, for another process): the
 * allocation is a shared file (api_shm.c) from cuMemCreate on, and a mapping maps the file, so
 * its bytes stay in the file between mappings and every process that maps it sees the same
 * ones. cuMemExportToShareableHandle gives a descriptor of the file, which another process
 * turns into an allocation handle of its own with cuMemImportFromShareableHandle (after
 * passing it over a unix socket) and maps where it likes. Win32 and fabric handles are
 * refused (CUDA_ERROR_NOT_SUPPORTED). */
#define _GNU_SOURCE /* F_DUPFD_CLOEXEC */
#include "api/api_shm.h"
#include "api/driver_internal.h"

#include "base/base.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(sizeof(CUmemAllocationProp) == 32 && offsetof(CUmemAllocationProp, allocFlags) == 24,
               "CUmemAllocationProp layout");
_Static_assert(sizeof(CUmemAccessDesc) == 12, "CUmemAccessDesc layout");

#define DRV_VMM_GRANULARITY (2u << 20)

/* A physical allocation (cuMemCreate), its handle a pointer to this. */
typedef struct DrvPhys {
    size_t size;
    CUmemAllocationProp prop;
    CUdeviceptr mapped;     /* where it is mapped; 0: nowhere */
    unsigned long long access; /* cuMemSetAccess's flags for its mapping */
    uint8_t *kept;          /* its bytes while unmapped, after a mapping (NULL: never mapped) */
    int fd;                 /* a shareable allocation's file (its bytes); -1: none */
    ApiShm shm;             /* the file's mapping while mapped */
    unsigned refs;          /* cuMemCreate and cuMemRetainAllocationHandle, less cuMemRelease */
    struct DrvPhys *next;
} DrvPhys;

/* A reservation of address space (cuMemAddressReserve). */
typedef struct DrvVa {
    CUdeviceptr addr;
    size_t size;
    struct DrvVa *next;
} DrvVa;

static DrvPhys *drv_phys;
static DrvVa *drv_vas;

bool drv_vmm_supports_compression(void)
{
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    return di.cc_major >= 8;
}

static DrvPhys *phys_of(CUmemGenericAllocationHandle h)
{
    for (DrvPhys *p = drv_phys; p; p = p->next)
        if ((uintptr_t)p == h && p->refs > 0)
            return p;
    return NULL;
}

/* The mapping holding address a, or NULL. */
static DrvPhys *mapping_at(CUdeviceptr a)
{
    for (DrvPhys *p = drv_phys; p; p = p->next)
        if (p->mapped && a >= p->mapped && a - p->mapped < p->size)
            return p;
    return NULL;
}

static void phys_free_if_done(DrvPhys *p)
{
    if (p->refs > 0 || p->mapped)
        return;
    for (DrvPhys **q = &drv_phys; *q; q = &(*q)->next)
        if (*q == p) {
            *q = p->next;
            free(p->kept);
            if (p->fd >= 0)
                close(p->fd);
            free(p);
            return;
        }
}

/* A physical allocation of one reference; fd: its shared file (-1: none). */
static CUmemGenericAllocationHandle phys_new(size_t size, const CUmemAllocationProp *prop, int fd)
{
    DrvPhys *p = xcalloc(1, sizeof *p);
    p->size = size;
    p->prop = *prop;
    if (!drv_vmm_supports_compression()) /* made without, as CUDA does where there is none */
        p->prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_NONE;
    p->fd = fd;
    p->refs = 1;
    p->next = drv_phys;
    drv_phys = p;
    return (uintptr_t)p;
}

/* The properties of an allocation warpsim makes: pinned memory on device 0. */
static CUresult check_prop(const char *call, const CUmemAllocationProp *prop)
{
    if (!prop)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null properties");
    if (prop->type != CU_MEM_ALLOCATION_TYPE_PINNED)
        return drv_fail(prop->type == CU_MEM_ALLOCATION_TYPE_MANAGED ? CUDA_ERROR_NOT_SUPPORTED
                                                                    : CUDA_ERROR_INVALID_VALUE,
                        call, "allocation type %d: warpsim makes pinned device memory (CU_MEM_ALLOCATION_TYPE_PINNED)",
                        (int)prop->type);
    if (prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, call, "location type %d: warpsim places memory on the device "
                        "(CU_MEM_LOCATION_TYPE_DEVICE)", (int)prop->location.type);
    if (prop->location.id != 0)
        return drv_fail(CUDA_ERROR_INVALID_DEVICE, call, "device %d: the simulator has one device, 0",
                        prop->location.id);
    return CUDA_SUCCESS;
}

CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                       CUmemAllocationGranularity_flags option)
{
    static const char call[] = "cuMemGetAllocationGranularity";
    NEED_INIT(); /* a device's memory, not a context's: CUDA's needs none current */
    if (!granularity)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "option %d is not CUDA's", (int)option);
    CUresult r = check_prop(call, prop);
    if (r == CUDA_SUCCESS)
        *granularity = DRV_VMM_GRANULARITY;
    return r;
}

CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                     unsigned long long flags)
{
    static const char call[] = "cuMemCreate";
    NEED_INIT(); /* a device's memory, not a context's: CUDA's needs none current */
    if (!handle || flags)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s", handle ? "flags must be 0" : "null pointer");
    CUresult r = check_prop(call, prop);
    if (r != CUDA_SUCCESS)
        return r;
    if (size == 0 || size % DRV_VMM_GRANULARITY)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%zu bytes: a multiple of the granularity, %u", size,
                        DRV_VMM_GRANULARITY);
    if (prop->requestedHandleTypes & ~CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, call, "shareable handle types 0x%x: warpsim shares memory by POSIX "
                        "file descriptor (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) only",
                        (unsigned)prop->requestedHandleTypes);
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    uint64_t used = warpsim_mem_allocated(drv_sim);
    if (size > di.global_bytes - MIN(di.global_bytes, used))
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, call, "%zu bytes: the device has %llu bytes free", size,
                        (unsigned long long)(di.global_bytes - MIN(di.global_bytes, used)));
    int fd = -1;
    char why[256];
    if (prop->requestedHandleTypes && (fd = api_shm_create(size, why, sizeof why)) < 0)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, call, "%s", why);
    *handle = phys_new(size, prop, fd);
    return CUDA_SUCCESS;
}

/* A descriptor of the allocation's file, for another process. */
CUresult cuMemExportToShareableHandle(void *shareableHandle, CUmemGenericAllocationHandle handle,
                                      CUmemAllocationHandleType handleType, unsigned long long flags)
{
    static const char call[] = "cuMemExportToShareableHandle";
    NEED_INIT();
    DrvPhys *p = phys_of(handle);
    if (!p)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "0x%llx is not an allocation handle", handle);
    if (!shareableHandle || flags)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s", flags ? "flags must be 0" : "null pointer");
    if (handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR || p->fd < 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "handle type %d: the allocation was made with requested "
                        "handle types 0x%x", (int)handleType, (unsigned)p->prop.requestedHandleTypes);
    int fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, call, "no file descriptor left");
    memcpy(shareableHandle, &fd, sizeof fd);
    return CUDA_SUCCESS;
}

/* The allocation of a descriptor another process exported: a handle of this process's. */
CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle,
                                        CUmemAllocationHandleType shHandleType)
{
    static const char call[] = "cuMemImportFromShareableHandle";
    NEED_INIT(); /* a device's memory, not a context's: CUDA's needs none current */
    if (!handle)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "null pointer");
    if (shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, call, "handle type %d: warpsim shares memory by POSIX file "
                        "descriptor (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) only", (int)shHandleType);
    char why[320];
    uint64_t bytes;
    int fd = api_shm_open(0, (int)(intptr_t)osHandle, false, &bytes, why, sizeof why);
    if (fd < 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s", why);
    if (bytes == 0 || bytes % DRV_VMM_GRANULARITY) {
        close(fd);
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "the file holds %llu bytes: not an allocation of cuMemCreate",
                        (unsigned long long)bytes);
    }
    CUmemAllocationProp prop = {.type = CU_MEM_ALLOCATION_TYPE_PINNED,
                                .requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                .location = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0}};
    *handle = phys_new((size_t)bytes, &prop, fd);
    return CUDA_SUCCESS;
}

/* Freed once no handle refers to it and it is unmapped. */
CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
    NEED_INIT();
    DrvPhys *p = phys_of(handle);
    if (!p)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemRelease", "0x%llx is not an allocation handle", handle);
    p->refs--;
    phys_free_if_done(p);
    return CUDA_SUCCESS;
}

CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
    NEED_INIT();
    DrvPhys *p = phys_of(handle);
    if (!prop || !p)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemGetAllocationPropertiesFromHandle", "%s",
                        prop ? "not an allocation handle" : "null pointer");
    *prop = p->prop;
    return CUDA_SUCCESS;
}

CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
    NEED_INIT();
    DrvPhys *p = mapping_at((uintptr_t)addr);
    if (!handle || !p)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemRetainAllocationHandle", "%s",
                        handle ? "the address is not in mapped memory" : "null pointer");
    p->refs++;
    *handle = (uintptr_t)p;
    return CUDA_SUCCESS;
}

/* ---- address space ---- */

CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                             unsigned long long flags)
{
    static const char call[] = "cuMemAddressReserve";
    NEED_CTX();
    if (!ptr || flags)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s", ptr ? "flags must be 0" : "null pointer");
    if (size == 0 || size % DRV_VMM_GRANULARITY || (alignment & (alignment - 1)))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%zu bytes aligned to %zu: a multiple of the granularity, "
                        "%u, aligned to a power of two", size, alignment, DRV_VMM_GRANULARITY);
    /* the address asked for is a hint, as in CUDA: this one is wherever the space is */
    uint64_t a = warpsim_address_reserve(drv_sim, size, MAX(alignment, (size_t)DRV_VMM_GRANULARITY));
    if (!a)
        return drv_fail(CUDA_ERROR_OUT_OF_MEMORY, call, "no address space left for %zu bytes", size);
    DrvVa *v = xcalloc(1, sizeof *v);
    *v = (DrvVa){a, size, drv_vas};
    drv_vas = v;
    *ptr = a;
    return CUDA_SUCCESS;
}

CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    static const char call[] = "cuMemAddressFree";
    NEED_INIT();
    for (DrvVa **q = &drv_vas; *q; q = &(*q)->next) {
        DrvVa *v = *q;
        if (v->addr != ptr)
            continue;
        if (v->size != size)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%zu bytes at 0x%llx: the reservation has %zu", size,
                            (unsigned long long)ptr, v->size);
        if (warpsim_address_free(drv_sim, ptr) != WARPSIM_OK) /* the simulator said why */
            return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "unmap its memory (cuMemUnmap) first");
        *q = v->next;
        free(v);
        return CUDA_SUCCESS;
    }
    return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "0x%llx is not a reservation of cuMemAddressReserve",
                    (unsigned long long)ptr);
}

/* ---- mappings ---- */

CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                  unsigned long long flags)
{
    static const char call[] = "cuMemMap";
    NEED_CTX();
    DrvPhys *p = phys_of(handle);
    if (!p || flags)
        return drv_fail(p ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_INVALID_HANDLE, call, "%s",
                        p ? "flags must be 0" : "not an allocation handle");
    if (offset != 0 || size != p->size)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, call, "%zu bytes from offset %zu of an allocation of %zu: warpsim "
                        "maps whole allocations", size, offset, p->size);
    if (p->mapped)
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, call, "the allocation is mapped at 0x%llx already: mapping one "
                        "allocation at two addresses is not modelled", (unsigned long long)p->mapped);
    if (warpsim_malloc_at(drv_sim, ptr, size) != WARPSIM_OK) /* the simulator said why */
        return CUDA_ERROR_INVALID_VALUE;
    char why[256];
    if (p->fd >= 0 && !api_shm_map(drv_sim, p->fd, 0, ptr, size, false, &p->shm, why, sizeof why)) {
        warpsim_free(drv_sim, ptr);
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%s", why);
    }
    p->mapped = ptr;
    p->access = CU_MEM_ACCESS_FLAGS_PROT_NONE;
    if (p->kept) { /* its bytes from an earlier mapping */
        CUresult r = drv_result(warpsim_memcpy_htod(drv_sim, ptr, p->kept, p->size));
        free(p->kept);
        p->kept = NULL;
        return r;
    }
    return CUDA_SUCCESS;
}

/* Every mapping [ptr, ptr + size) touches must lie inside it. */
CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    static const char call[] = "cuMemUnmap";
    NEED_INIT();
    bool any = false;
    for (DrvPhys *p = drv_phys; p; p = p->next)
        if (p->mapped && p->mapped < ptr + size && ptr < p->mapped + p->size) {
            if (p->mapped < ptr || p->mapped + p->size > ptr + size)
                return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%zu bytes at 0x%llx cut the mapping at 0x%llx (%zu "
                                "bytes): unmap whole mappings", size, (unsigned long long)ptr,
                                (unsigned long long)p->mapped, p->size);
            any = true;
        }
    if (!any)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "nothing is mapped in %zu bytes at 0x%llx", size,
                        (unsigned long long)ptr);
    for (DrvPhys *p = drv_phys, *next; p; p = next) {
        next = p->next;
        if (!p->mapped || p->mapped < ptr || p->mapped >= ptr + size)
            continue;
        if (p->fd >= 0) /* its bytes stay in its file */
            api_shm_unmap(drv_sim, &p->shm);
        else if (p->refs > 0) { /* a handle may map it again: keep its bytes */
            p->kept = malloc(p->size);
            if (!p->kept || warpsim_memcpy_dtoh(drv_sim, p->kept, p->mapped, p->size) != WARPSIM_OK) {
                free(p->kept);
                p->kept = NULL;
                fprintf(stderr, "warpsim: %s: the contents of %zu bytes at 0x%llx are lost (no host memory to keep "
                        "them)\n", call, p->size, (unsigned long long)p->mapped);
            }
        }
        warpsim_free(drv_sim, p->mapped);
        p->mapped = 0;
        phys_free_if_done(p);
    }
    return CUDA_SUCCESS;
}

/* The range must be mapped throughout; each descriptor names device 0. */
CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
    static const char call[] = "cuMemSetAccess";
    NEED_CTX();
    if (!desc || count == 0 || size == 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "no access descriptors or no bytes");
    for (size_t i = 0; i < count; i++) {
        if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || desc[i].location.id != 0)
            return drv_fail(CUDA_ERROR_INVALID_DEVICE, call, "descriptor %zu: location %d of type %d: the simulator "
                            "has one device, 0", i, desc[i].location.id, (int)desc[i].location.type);
        if (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
            desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "descriptor %zu: flags %d", i, (int)desc[i].flags);
    }
    for (CUdeviceptr a = ptr; a - ptr < size;) {
        DrvPhys *p = mapping_at(a);
        if (!p)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "0x%llx is not mapped (cuMemMap)", (unsigned long long)a);
        a = p->mapped + p->size;
    }
    for (CUdeviceptr a = ptr; a - ptr < size;) {
        DrvPhys *p = mapping_at(a);
        p->access = desc[count - 1].flags;
        a = p->mapped + p->size;
    }
    return CUDA_SUCCESS;
}

CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr)
{
    NEED_INIT();
    DrvPhys *p = mapping_at(ptr);
    if (!flags || !location || !p)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuMemGetAccess", "%s",
                        flags && location ? "the address is not mapped" : "null pointer");
    if (location->type != CU_MEM_LOCATION_TYPE_DEVICE || location->id != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *flags = p->access;
    return CUDA_SUCCESS;
}
