/* runtime_ipc.c: interprocess communication of warpsim's libcudart replacement (see runtime.c):
 * cudaIpcGetMemHandle, cudaIpcOpenMemHandle, cudaIpcCloseMemHandle, cudaIpcGetEventHandle,
 * cudaIpcOpenEventHandle.
 *
 * Memory. Each process runs a simulator of its own; an exported allocation's bytes move into a
 * shared file (api_shm.c) the first time cudaIpcGetMemHandle names it, and stay there until
 * cudaFree: the file stands for the whole 4 KiB pages the allocation touches, so bytes of
 * another allocation on its first or last page live there too (and return to the device's
 * pages at the free), and two allocations exported in one process must not share a page
 * (cudaErrorNotSupported). The 64-byte handle carries the exporter's process id and its
 * descriptor of the file, the pages' length and the allocation's offset and size (struct
 * RtIpcMemData); the importer opens the file through /proc/PID/fd, maps it at a reservation of
 * its own and places an allocation at the same offset in the first page, so that kernels and
 * copies of both processes touch the same bytes. The exporter must keep the allocation until
 * the importers close it, as in CUDA. Opening a handle again in one process gives the same
 * pointer (counted: as many cudaIpcCloseMemHandle calls unmap it); in the exporting process
 * it is cudaErrorDeviceUninitialized ("invalid device context"), as on CUDA.
 *
 * Events. The simulated device is synchronous in every process: the work a process enqueues
 * has finished when the call that enqueues it returns, so every record of an interprocess
 * event is complete when made, seen from any process, and waiting for one has nothing to wait
 * for. The handle thus carries only what identifies the event (the exporter's process and a
 * serial number); the event it opens is a fresh one with the exported one's flags
 * (cudaEventInterprocess | cudaEventDisableTiming), and cross-process order is the one the
 * program makes on the host (a barrier in shared memory, waiting for a child), as it must be
 * for events recorded by another process on CUDA too. */
#include "api/api_shm.h"
#include "api/runtime_internal.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { cudaEventDisableTiming = 2, cudaEventInterprocess = 4, cudaIpcMemLazyEnablePeerAccess = 1 };

/* cudaIpcMemHandle_t and cudaIpcEventHandle_t: 64 opaque bytes, passed by value */
typedef struct cudaIpcMemHandle_st {
    char reserved[64];
} cudaIpcMemHandle_t;
typedef struct cudaIpcEventHandle_st {
    char reserved[64];
} cudaIpcEventHandle_t;

#define IPC_MEM_MAGIC 0x6d656d6370697377ull   /* "wsipcmem" */
#define IPC_EVENT_MAGIC 0x7476656370697377ull /* "wsipcevt" */

/* What a cudaIpcMemHandle_t carries. */
typedef struct RtIpcMemData {
    uint64_t magic;
    int32_t pid, fd;  /* the exporting process and its descriptor of the file */
    uint64_t bytes;   /* the file's pages */
    uint64_t offset;  /* the allocation's first byte in them */
    uint64_t size;    /* the allocation's bytes */
} RtIpcMemData;

typedef struct RtIpcEventData {
    uint64_t magic;
    int32_t pid;
    uint32_t flags;
    uint64_t serial;
} RtIpcEventData;

_Static_assert(sizeof(RtIpcMemData) <= sizeof(cudaIpcMemHandle_t), "the handle holds the data");
_Static_assert(sizeof(RtIpcEventData) <= sizeof(cudaIpcEventHandle_t), "the handle holds the data");

/* An allocation exported (data.pid is ours) or a handle opened (refs > 0). */
typedef struct RtIpcMem {
    RtIpcMemData data;
    uint64_t ptr;  /* the allocation in this process */
    int fd;        /* exported: the file (-1 for an import, whose mapping holds it) */
    ApiShm shm;
    unsigned refs;
    struct RtIpcMem *next;
} RtIpcMem;

static RtIpcMem *rt_ipc_mems;

static RtIpcMem *ipc_find_ptr(uint64_t ptr)
{
    for (RtIpcMem *m = rt_ipc_mems; m; m = m->next)
        if (m->ptr == ptr)
            return m;
    return NULL;
}

static void ipc_drop(RtIpcMem *m)
{
    for (RtIpcMem **q = &rt_ipc_mems; *q; q = &(*q)->next)
        if (*q == m) {
            *q = m->next;
            break;
        }
    api_shm_unmap(rt_sim, &m->shm);
    if (m->fd >= 0)
        close(m->fd);
    free(m);
}

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
    static const char call[] = "cudaIpcGetMemHandle";
    ENTER(call);
    WarpsimRange r;
    if (!handle || !devPtr)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (!warpsim_mem_find(rt_sim, (uint64_t)(uintptr_t)devPtr, 1, &r) || r.is_variable || r.is_managed)
        return rt_fail(cudaErrorInvalidValue, call, "%p is not inside an allocation of cudaMalloc", devPtr);
    RtIpcMem *m = ipc_find_ptr(r.addr);
    if (m && m->fd < 0)
        return rt_fail(cudaErrorInvalidValue, call, "%p was opened from another process's handle: export it there",
                       devPtr);
    if (!m) {
        char why[256];
        uint64_t base = r.addr & ~(uint64_t)(API_SHM_PAGE - 1), bytes = api_shm_pages(r.addr + r.size) - base;
        int fd = api_shm_create(bytes, why, sizeof why);
        ApiShm shm;
        if (fd < 0)
            return rt_fail(cudaErrorMemoryAllocation, call, "%s", why);
        if (!api_shm_map(rt_sim, fd, 0, base, bytes, true, &shm, why, sizeof why)) {
            close(fd);
            return rt_fail(cudaErrorNotSupported, call, "the allocation at 0x%llx: %s", (unsigned long long)r.addr,
                           why);
        }
        m = xcalloc(1, sizeof *m);
        *m = (RtIpcMem){.data = {IPC_MEM_MAGIC, (int32_t)getpid(), fd, bytes, r.addr - base, r.size},
                        .ptr = r.addr, .fd = fd, .shm = shm, .next = rt_ipc_mems};
        rt_ipc_mems = m;
    }
    memset(handle, 0, sizeof *handle);
    memcpy(handle, &m->data, sizeof m->data);
    return cudaSuccess;
}

cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned flags)
{
    static const char call[] = "cudaIpcOpenMemHandle";
    ENTER(call);
    RtIpcMemData d;
    memcpy(&d, &handle, sizeof d);
    if (!devPtr)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (flags & ~(unsigned)cudaIpcMemLazyEnablePeerAccess)
        return rt_fail(cudaErrorInvalidValue, call, "flags 0x%x: only cudaIpcMemLazyEnablePeerAccess (1) is defined",
                       flags);
    if (d.magic != IPC_MEM_MAGIC || d.offset + d.size > d.bytes || d.bytes % API_SHM_PAGE || d.size == 0)
        return rt_fail(cudaErrorInvalidResourceHandle, call, "not a handle of cudaIpcGetMemHandle");
    if (d.pid == (int32_t)getpid())
        return rt_fail(cudaErrorDeviceUninitialized, call, "the handle is this process's own: open it in another");
    for (RtIpcMem *m = rt_ipc_mems; m; m = m->next)
        if (m->fd < 0 && !memcmp(&m->data, &d, sizeof d)) {
            m->refs++;
            *devPtr = (void *)(uintptr_t)m->ptr;
            return cudaSuccess;
        }
    char why[320];
    uint64_t file_bytes;
    int fd = api_shm_open(d.pid, d.fd, true, &file_bytes, why, sizeof why);
    if (fd < 0)
        return rt_fail(cudaErrorMapBufferObjectFailed, call, "process %d's memory: %s (has it freed it, or ended?)",
                       (int)d.pid, why);
    ApiShm shm;
    bool ok = file_bytes >= d.bytes && api_shm_place(rt_sim, fd, 0, d.bytes, d.offset, d.size, &shm, why, sizeof why);
    close(fd); /* the mapping keeps the file */
    if (!ok)
        return rt_fail(cudaErrorMapBufferObjectFailed, call, "process %d's memory: %s", (int)d.pid,
                       file_bytes < d.bytes ? "the file is shorter than the handle says" : why);
    RtIpcMem *m = xcalloc(1, sizeof *m);
    *m = (RtIpcMem){.data = d, .ptr = shm.alloc, .fd = -1, .shm = shm, .refs = 1, .next = rt_ipc_mems};
    rt_ipc_mems = m;
    *devPtr = (void *)(uintptr_t)m->ptr;
    return cudaSuccess;
}

cudaError_t cudaIpcCloseMemHandle(void *devPtr)
{
    static const char call[] = "cudaIpcCloseMemHandle";
    ENTER(call);
    RtIpcMem *m = ipc_find_ptr((uint64_t)(uintptr_t)devPtr);
    if (!m || m->fd >= 0)
        return rt_fail(cudaErrorInvalidValue, call, "%p is not memory opened with cudaIpcOpenMemHandle", devPtr);
    if (--m->refs == 0)
        ipc_drop(m);
    return cudaSuccess;
}

bool rt_ipc_free(const char *call, void *devPtr, cudaError_t *e)
{
    RtIpcMem *m = ipc_find_ptr((uint64_t)(uintptr_t)devPtr);
    if (!m)
        return false;
    if (m->fd < 0) {
        *e = rt_fail(cudaErrorInvalidValue, call, "%p was opened with cudaIpcOpenMemHandle: close it with "
                     "cudaIpcCloseMemHandle", devPtr);
        return true;
    }
    ipc_drop(m); /* exported: the bytes go back to the device's pages, then the allocation is freed */
    return false;
}

void rt_ipc_reset(void)
{
    while (rt_ipc_mems)
        ipc_drop(rt_ipc_mems);
}

/* ---- events ---- */

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event)
{
    static const char call[] = "cudaIpcGetEventHandle";
    ENTER(call);
    static uint64_t serial;
    if (!handle)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (!event || !(event->flags & cudaEventInterprocess) || !(event->flags & cudaEventDisableTiming))
        return rt_fail(cudaErrorInvalidResourceHandle, call, "%s", event ? "the event was not created with "
                       "cudaEventInterprocess | cudaEventDisableTiming" : "null event");
    RtIpcEventData d = {IPC_EVENT_MAGIC, (int32_t)getpid(), event->flags, ++serial};
    memset(handle, 0, sizeof *handle);
    memcpy(handle, &d, sizeof d);
    return cudaSuccess;
}

cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle)
{
    static const char call[] = "cudaIpcOpenEventHandle";
    ENTER(call);
    RtIpcEventData d;
    memcpy(&d, &handle, sizeof d);
    if (!event)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (d.magic != IPC_EVENT_MAGIC)
        return rt_fail(cudaErrorInvalidResourceHandle, call, "not a handle of cudaIpcGetEventHandle");
    if (d.pid == (int32_t)getpid())
        return rt_fail(cudaErrorDeviceUninitialized, call, "the handle is this process's own: open it in another");
    *event = xcalloc(1, sizeof **event);
    (*event)->ns = -1;
    (*event)->flags = d.flags;
    return cudaSuccess;
}
