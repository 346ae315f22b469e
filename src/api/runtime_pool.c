/* runtime_pool.c: stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) and memory pools:
 * the device's default pool, pools the program creates, and pools shared between processes.
 *
 * The simulated device is synchronous, so an allocation ordered on a stream happens when the
 * call returns, exactly as cudaMalloc's. A pool holds no memory back (trimming has nothing to
 * release); its attributes are kept and reported: the reuse policies and release threshold as
 * set, the reserved and used memory as the bytes the device has allocated now and their
 * high-water mark (the same figures for every pool: the device's).
 *
 * Interprocess pools (cudaMemHandleTypePosixFileDescriptor, what
 * cudaDevAttrMemoryPoolSupportedHandleTypes reports): the pool is a shared file (api_shm.c),
 * each allocation whole pages of it at the end, mapped at a reservation of its own
 * (api_shm_place). cudaMemPoolExportToShareableHandle gives a descriptor of the file, which
 * another process imports (cudaMemPoolImportFromShareableHandle, after passing it over a unix
 * socket); cudaMemPoolExportPointer's 64 bytes name the allocation's place in the file and
 * the file itself (device and inode), so that cudaMemPoolImportPointer maps the same bytes and
 * refuses data of another pool. The importer frees an imported pointer with cudaFree or
 * cudaFreeAsync (it unmaps it), before the exporter frees the allocation, as CUDA requires.
 * The file only grows: its pages go when the pool is destroyed and every process has unmapped
 * them. A pool destroyed with allocations outstanding goes when the last is freed, as in CUDA. */
#define _GNU_SOURCE /* F_DUPFD_CLOEXEC */
#include "api/api_shm.h"
#include "api/runtime_graph.h"

#include "base/base.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* cudaMemPoolAttr's values (CUDA 13, driver_types.h) */
enum {
    POOL_REUSE_FOLLOW_EVENTS = 1, POOL_REUSE_OPPORTUNISTIC = 2, POOL_REUSE_INTERNAL_DEPS = 3,
    POOL_RELEASE_THRESHOLD = 4, POOL_RESERVED_CURRENT = 5, POOL_RESERVED_HIGH = 6, POOL_USED_CURRENT = 7,
    POOL_USED_HIGH = 8,
};

enum { cudaMemAllocationTypePinned = 1, cudaMemLocationTypeDevice = 1, cudaMemHandleTypePosixFileDescriptor = 1,
       cudaMemAccessFlagsProtNone = 0, cudaMemAccessFlagsProtRead = 1, cudaMemAccessFlagsProtReadWrite = 3 };

struct cudaMemLocation {
    int type, id;
};
struct cudaMemPoolProps {
    int allocType, handleTypes;
    struct cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};
struct cudaMemAccessDesc {
    struct cudaMemLocation location;
    int flags;
};
struct cudaMemPoolPtrExportData {
    unsigned char reserved[64];
};
_Static_assert(sizeof(struct cudaMemPoolProps) == 88, "cudaMemPoolProps layout");
_Static_assert(sizeof(struct cudaMemAccessDesc) == 12, "cudaMemAccessDesc layout");

/* An allocation in a pool's shared file, or a pointer imported from one. */
typedef struct RtPoolAlloc {
    uint64_t offset, size; /* its place in the file: whole pages from offset */
    ApiShm shm;            /* shm.alloc: the pointer */
    struct RtPoolAlloc *next;
} RtPoolAlloc;

typedef struct RtPool {
    int reuse[4];               /* [1..3]: the reuse policies, on (1) by default */
    uint64_t release_threshold; /* 0 by default */
    int fd;                     /* an interprocess pool's file; -1: none */
    uint64_t file_bytes;        /* its length, where the next allocation goes */
    bool imported;              /* cudaMemPoolImportFromShareableHandle: pointers are imported */
    bool destroyed;             /* destroyed with allocations outstanding */
    RtPoolAlloc *allocs;
    struct RtPool *next;
} RtPool;

static RtPool rt_pool = {{0, 1, 1, 1}, 0, -1, 0, false, false, NULL, NULL}; /* the device's default */
static RtPool *rt_pools;                                                    /* the program's */
static uint64_t rt_pool_high; /* the most bytes allocated at once since the mark was reset */

typedef struct CUmemPoolHandle_st *cudaMemPool_t;
#define POOL_HANDLE ((cudaMemPool_t)&rt_pool)

void rt_pool_note_use(uint64_t bytes) { rt_pool_high = MAX(rt_pool_high, bytes); }

static cudaError_t check_pool(const char *call, cudaMemPool_t pool, RtPool **out)
{
    *out = (RtPool *)pool;
    if (pool == POOL_HANDLE)
        return cudaSuccess;
    for (RtPool *p = rt_pools; p; p = p->next)
        if ((cudaMemPool_t)p == pool && !p->destroyed)
            return cudaSuccess;
    return rt_fail(cudaErrorInvalidValue, call, "%p is not a memory pool", (void *)pool);
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

/* ---- creating and destroying pools ---- */

static cudaError_t check_location(const char *call, const struct cudaMemLocation *loc)
{
    if (loc->type != cudaMemLocationTypeDevice)
        return rt_fail(cudaErrorNotSupported, call, "location type %d: pools of warpsim are on the device "
                       "(cudaMemLocationTypeDevice)", loc->type);
    if (loc->id != 0)
        return rt_fail(cudaErrorInvalidDevice, call, "device %d: the simulator has one device, 0", loc->id);
    return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const struct cudaMemPoolProps *props)
{
    static const char call[] = "cudaMemPoolCreate";
    ENTER(call);
    if (!pool || !props)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (props->allocType != cudaMemAllocationTypePinned)
        return rt_fail(cudaErrorInvalidValue, call, "allocation type %d: pinned (cudaMemAllocationTypePinned) only",
                       props->allocType);
    cudaError_t e = check_location(call, &props->location);
    if (e != cudaSuccess)
        return e;
    if (props->handleTypes & ~cudaMemHandleTypePosixFileDescriptor)
        return rt_fail(cudaErrorNotSupported, call, "handle types 0x%x: warpsim shares pools by POSIX file "
                       "descriptor (cudaMemHandleTypePosixFileDescriptor) only", (unsigned)props->handleTypes);
    int fd = -1;
    if (props->handleTypes) {
        char why[256];
        if ((fd = api_shm_create(0, why, sizeof why)) < 0)
            return rt_fail(cudaErrorMemoryAllocation, call, "%s", why);
    }
    RtPool *p = xcalloc(1, sizeof *p);
    *p = (RtPool){.reuse = {0, 1, 1, 1}, .fd = fd, .next = rt_pools};
    rt_pools = p;
    *pool = (cudaMemPool_t)p;
    return cudaSuccess;
}

/* Free the pool once it is destroyed and holds no allocation. */
static void pool_free_if_done(RtPool *p)
{
    if (!p->destroyed || p->allocs)
        return;
    for (RtPool **q = &rt_pools; *q; q = &(*q)->next)
        if (*q == p) {
            *q = p->next;
            break;
        }
    if (p->fd >= 0)
        close(p->fd);
    free(p);
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool)
{
    static const char call[] = "cudaMemPoolDestroy";
    ENTER(call);
    RtPool *p;
    cudaError_t e = check_pool(call, pool, &p);
    if (e != cudaSuccess)
        return e;
    if (p == &rt_pool)
        return rt_fail(cudaErrorInvalidValue, call, "the device's default pool cannot be destroyed");
    p->destroyed = true;
    pool_free_if_done(p);
    return cudaSuccess;
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const struct cudaMemAccessDesc *descs, size_t count)
{
    static const char call[] = "cudaMemPoolSetAccess";
    ENTER(call);
    RtPool *p;
    cudaError_t e = check_pool(call, pool, &p);
    if (e == cudaSuccess && count && !descs)
        e = rt_fail(cudaErrorInvalidValue, call, "null descriptors");
    for (size_t i = 0; i < count && e == cudaSuccess; i++) {
        e = check_location(call, &descs[i].location);
        if (e == cudaSuccess && descs[i].flags != cudaMemAccessFlagsProtReadWrite &&
            descs[i].flags != cudaMemAccessFlagsProtRead && descs[i].flags != cudaMemAccessFlagsProtNone)
            e = rt_fail(cudaErrorInvalidValue, call, "descriptor %zu: flags %d", i, descs[i].flags);
    }
    return e; /* the device that owns the pool has read-write access, whatever is asked */
}

cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t pool, struct cudaMemLocation *location)
{
    static const char call[] = "cudaMemPoolGetAccess";
    ENTER(call);
    RtPool *p;
    cudaError_t e = check_pool(call, pool, &p);
    if (e == cudaSuccess && (!flags || !location))
        e = rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (e == cudaSuccess)
        e = check_location(call, location);
    if (e == cudaSuccess)
        *flags = cudaMemAccessFlagsProtReadWrite;
    return e;
}

/* ---- allocations ---- */

/* Whole pages at the end of an interprocess pool's file, mapped at a reservation of their own. */
static cudaError_t pool_alloc_shared(const char *call, RtPool *p, void **devPtr, size_t size)
{
    ENTER(call);
    if (!devPtr)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    *devPtr = NULL;
    if (p->imported)
        return rt_fail(cudaErrorInvalidValue, call, "an imported pool: its memory is allocated by its exporter");
    if (size == 0)
        return cudaSuccess;
    cudaError_t e = rt_dev_check_room(call, size);
    if (e != cudaSuccess)
        return e;
    uint64_t bytes = api_shm_pages(size);
    char why[256];
    ApiShm shm;
    if (ftruncate(p->fd, (off_t)(p->file_bytes + bytes)) != 0)
        return rt_fail(cudaErrorMemoryAllocation, call, "cannot grow the pool's file to %llu bytes",
                       (unsigned long long)(p->file_bytes + bytes));
    if (!api_shm_place(rt_sim, p->fd, p->file_bytes, bytes, 0, size, &shm, why, sizeof why))
        return rt_fail(cudaErrorMemoryAllocation, call, "%s", why);
    RtPoolAlloc *a = xcalloc(1, sizeof *a);
    *a = (RtPoolAlloc){.offset = p->file_bytes, .size = size, .shm = shm, .next = p->allocs};
    p->allocs = a;
    p->file_bytes += bytes;
    rt_pool_note_use(warpsim_mem_allocated(rt_sim));
    *devPtr = (void *)(uintptr_t)shm.alloc;
    return cudaSuccess;
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
    static const char call[] = "cudaMallocFromPoolAsync";
    RtPool *p;
    cudaError_t e;
    {
        API_LOCKED;
        e = check_pool(call, pool, &p);
    }
    if (e == cudaSuccess && p->fd >= 0)
        return pool_alloc_shared(call, p, devPtr, size);
    if (e == cudaSuccess && rt_capturing(stream))
        return rt_graph_mem_capture_alloc(stream, devPtr, size, call);
    return e != cudaSuccess ? e : rt_dev_alloc(call, devPtr, size);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    if (rt_capturing(stream))
        return rt_graph_mem_capture_free(stream, devPtr, "cudaFreeAsync");
    return rt_dev_free("cudaFreeAsync", devPtr);
}

bool rt_pool_ipc_free(const char *call, void *devPtr, cudaError_t *e)
{
    (void)call;
    for (RtPool *p = rt_pools; p; p = p->next)
        for (RtPoolAlloc **q = &p->allocs; *q; q = &(*q)->next) {
            RtPoolAlloc *a = *q;
            if (a->shm.alloc != (uint64_t)(uintptr_t)devPtr)
                continue;
            *q = a->next;
            api_shm_unmap(rt_sim, &a->shm);
            free(a);
            pool_free_if_done(p);
            *e = cudaSuccess;
            return true;
        }
    return false;
}

void rt_pool_ipc_reset(void)
{
    for (RtPool *p = rt_pools, *next; p; p = next) {
        next = p->next;
        while (p->allocs) {
            RtPoolAlloc *a = p->allocs;
            p->allocs = a->next;
            api_shm_unmap(rt_sim, &a->shm);
            free(a);
        }
        pool_free_if_done(p);
    }
}

/* ---- sharing pools between processes ---- */

#define POOL_PTR_MAGIC 0x72747070636f7077ull /* "wpocpptr" */

/* What cudaMemPoolExportPointer's data carries: the allocation's place and its pool's file. */
typedef struct RtPoolPtrData {
    uint64_t magic;
    uint64_t dev, ino; /* the file (its device and inode) */
    uint64_t offset, size;
} RtPoolPtrData;
_Static_assert(sizeof(RtPoolPtrData) <= sizeof(struct cudaMemPoolPtrExportData), "the export data holds it");

static bool file_id(int fd, uint64_t *dev, uint64_t *ino)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return false;
    *dev = (uint64_t)st.st_dev;
    *ino = (uint64_t)st.st_ino;
    return true;
}

cudaError_t cudaMemPoolExportToShareableHandle(void *handle, cudaMemPool_t pool, int type, unsigned flags)
{
    static const char call[] = "cudaMemPoolExportToShareableHandle";
    ENTER(call);
    RtPool *p;
    cudaError_t e = check_pool(call, pool, &p);
    if (e != cudaSuccess)
        return e;
    if (!handle || flags)
        return rt_fail(cudaErrorInvalidValue, call, "%s", handle ? "flags must be 0" : "null pointer");
    if (p->fd < 0 || p->imported || type != cudaMemHandleTypePosixFileDescriptor)
        return rt_fail(cudaErrorInvalidValue, call, "handle type %d: the pool was %s", type,
                       p->imported ? "imported" : p->fd < 0 ? "created without handle types"
                                                            : "created for cudaMemHandleTypePosixFileDescriptor");
    int fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return rt_fail(cudaErrorMemoryAllocation, call, "no file descriptor left");
    memcpy(handle, &fd, sizeof fd);
    return cudaSuccess;
}

cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *pool, void *handle, int type, unsigned flags)
{
    static const char call[] = "cudaMemPoolImportFromShareableHandle";
    ENTER(call);
    if (!pool || flags)
        return rt_fail(cudaErrorInvalidValue, call, "%s", pool ? "flags must be 0" : "null pointer");
    if (type != cudaMemHandleTypePosixFileDescriptor)
        return rt_fail(cudaErrorNotSupported, call, "handle type %d: warpsim shares pools by POSIX file descriptor "
                       "(cudaMemHandleTypePosixFileDescriptor) only", type);
    char why[320];
    uint64_t bytes;
    int fd = api_shm_open(0, (int)(intptr_t)handle, false, &bytes, why, sizeof why);
    if (fd < 0)
        return rt_fail(cudaErrorInvalidValue, call, "%s", why);
    RtPool *p = xcalloc(1, sizeof *p);
    *p = (RtPool){.reuse = {0, 1, 1, 1}, .fd = fd, .file_bytes = bytes, .imported = true, .next = rt_pools};
    rt_pools = p;
    *pool = (cudaMemPool_t)p;
    return cudaSuccess;
}

cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *data, void *ptr)
{
    static const char call[] = "cudaMemPoolExportPointer";
    ENTER(call);
    if (!data)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    for (RtPool *p = rt_pools; p; p = p->next)
        for (RtPoolAlloc *a = p->allocs; a && !p->imported; a = a->next) {
            RtPoolPtrData d = {POOL_PTR_MAGIC, 0, 0, a->offset, a->size};
            if (a->shm.alloc != (uint64_t)(uintptr_t)ptr)
                continue;
            if (!file_id(p->fd, &d.dev, &d.ino))
                return rt_fail(cudaErrorInvalidValue, call, "the pool's file is gone");
            memset(data, 0, sizeof *data);
            memcpy(data, &d, sizeof d);
            return cudaSuccess;
        }
    return rt_fail(cudaErrorInvalidValue, call, "%p is not an allocation of a pool created with handle types", ptr);
}

cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t pool, struct cudaMemPoolPtrExportData *data)
{
    static const char call[] = "cudaMemPoolImportPointer";
    ENTER(call);
    RtPool *p;
    cudaError_t e = check_pool(call, pool, &p);
    if (e != cudaSuccess)
        return e;
    if (!ptr || !data)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (!p->imported)
        return rt_fail(cudaErrorInvalidValue, call, "the pool was not imported (cudaMemPoolImportFromShareableHandle)");
    RtPoolPtrData d;
    uint64_t dev, ino;
    memcpy(&d, data, sizeof d);
    if (d.magic != POOL_PTR_MAGIC || !file_id(p->fd, &dev, &ino) || d.dev != dev || d.ino != ino)
        return rt_fail(cudaErrorInvalidValue, call, "the data is not of an allocation of this pool");
    for (RtPoolAlloc *a = p->allocs; a; a = a->next)
        if (a->offset == d.offset) {
            *ptr = (void *)(uintptr_t)a->shm.alloc;
            return cudaSuccess;
        }
    char why[256];
    ApiShm shm;
    uint64_t bytes = api_shm_pages(d.size);
    if (!file_id(p->fd, &dev, &ino) || d.size == 0 || d.offset % API_SHM_PAGE ||
        !api_shm_place(rt_sim, p->fd, d.offset, bytes, 0, d.size, &shm, why, sizeof why))
        return rt_fail(cudaErrorInvalidValue, call, "the allocation of %llu bytes at offset %llu of the pool: %s",
                       (unsigned long long)d.size, (unsigned long long)d.offset,
                       d.size == 0 || d.offset % API_SHM_PAGE ? "not one the pool made" : why);
    RtPoolAlloc *a = xcalloc(1, sizeof *a);
    *a = (RtPoolAlloc){.offset = d.offset, .size = d.size, .shm = shm, .next = p->allocs};
    p->allocs = a;
    *ptr = (void *)(uintptr_t)shm.alloc;
    return cudaSuccess;
}

/* ---- attributes ---- */

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep)
{
    (void)minBytesToKeep; /* nothing is held back */
    ENTER("cudaMemPoolTrimTo");
    RtPool *p;
    return check_pool("cudaMemPoolTrimTo", pool, &p);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *value)
{
    ENTER("cudaMemPoolSetAttribute");
    RtPool *p;
    cudaError_t e = check_pool("cudaMemPoolSetAttribute", pool, &p);
    if (e != cudaSuccess)
        return e;
    if (!value)
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolSetAttribute", "null value");
    switch (attr) {
    case POOL_REUSE_FOLLOW_EVENTS: case POOL_REUSE_OPPORTUNISTIC: case POOL_REUSE_INTERNAL_DEPS:
        p->reuse[attr] = *(const int *)value != 0;
        return cudaSuccess;
    case POOL_RELEASE_THRESHOLD:
        memcpy(&p->release_threshold, value, sizeof p->release_threshold);
        return cudaSuccess;
    case POOL_RESERVED_HIGH: case POOL_USED_HIGH: { /* only a reset to 0, which restarts the mark */
        uint64_t v;
        memcpy(&v, value, sizeof v);
        if (v != 0)
            return rt_fail(cudaErrorInvalidValue, "cudaMemPoolSetAttribute", "attribute %d can only be reset to 0", attr);
        rt_pool_high = warpsim_mem_allocated(rt_sim);
        return cudaSuccess;
    }
    default:
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolSetAttribute", "attribute %d cannot be set", attr);
    }
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value)
{
    ENTER("cudaMemPoolGetAttribute");
    RtPool *p;
    cudaError_t e = check_pool("cudaMemPoolGetAttribute", pool, &p);
    if (e != cudaSuccess)
        return e;
    if (!value)
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolGetAttribute", "null value");
    uint64_t now = warpsim_mem_allocated(rt_sim), v;
    switch (attr) {
    case POOL_REUSE_FOLLOW_EVENTS: case POOL_REUSE_OPPORTUNISTIC: case POOL_REUSE_INTERNAL_DEPS:
        *(int *)value = p->reuse[attr];
        return cudaSuccess;
    case POOL_RELEASE_THRESHOLD: v = p->release_threshold; break;
    case POOL_RESERVED_CURRENT: case POOL_USED_CURRENT: v = now; break;
    case POOL_RESERVED_HIGH: case POOL_USED_HIGH: v = MAX(rt_pool_high, now); break;
    default:
        return rt_fail(cudaErrorInvalidValue, "cudaMemPoolGetAttribute", "%d is not a memory pool attribute", attr);
    }
    memcpy(value, &v, sizeof v);
    return cudaSuccess;
}

RT_PER_THREAD(cudaMallocAsync_ptsz, cudaMallocAsync);
RT_PER_THREAD(cudaMallocFromPoolAsync_ptsz, cudaMallocFromPoolAsync);
RT_PER_THREAD(cudaFreeAsync_ptsz, cudaFreeAsync);
