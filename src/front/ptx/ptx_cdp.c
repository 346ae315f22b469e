/* ptx_cdp.c: CUDA's device runtime (dynamic parallelism, CDP2 of CUDA 12 and later), the
 * entry points nvcc's PTX calls for the runtime API used inside a kernel, which the
 * interpreter provides itself (ptx_builtin.c appends their stubs and routes calls here):
 *
 *   __cudaCDP2GetParameterBufferV2(kernel, grid, block, smem)  the first half of k<<<...>>>:
 *       a parameter buffer in device memory for the kernel's arguments (NULL on failure)
 *   __cudaCDP2LaunchDeviceV2(buffer, stream)  the second half: queue the launch
 *   __cudaCDP2StreamCreateWithFlags / StreamDestroy   streams of the grid
 *   __cudaCDP2Malloc / Free   the device heap (cudaLimitMallocHeapSize)
 *   __cudaCDP2MemcpyAsync     device-to-device copies, queued like launches
 *   __cudaCDP2GetLastError / PeekAtLastError / GetErrorString
 *
 * Launches and copies are not run here: a grid's threads queue them, in the order the calls
 * happen, and whoever ran the grid takes the queue when it is complete
 * (ptx_launch_take_device_work) and runs it (sim_cdp.c). CDP2 has no device-side
 * synchronisation, so a parent never waits for its children and this is a legal schedule.
 *
 * Errors are CUDA's: a failed call returns its code and sets the calling thread's last error
 * (cudaGetLastError reads and clears it); a launch fails with cudaErrorLaunchMaxDepthExceeded
 * past PTX_CDP_MAX_DEPTH, GetParameterBuffer returns NULL with
 * cudaErrorLaunchPendingCountExceeded once max_pending items wait, a bad configuration is
 * cudaErrorInvalidConfiguration. Streams are the grid's own: a handle of another grid, or a
 * destroyed one, is cudaErrorInvalidResourceHandle. A call made without a device runtime
 * (ptx_launch_set_device_runtime) faults the launch, naming the call. */
#include "front/ptx/ptx_exec.h"
#include "front/ptx/ptx_ranges.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cudaError_t values of the calls' results */
enum {
    CDP_SUCCESS = 0,
    CDP_INVALID_VALUE = 1,
    CDP_MEMORY_ALLOCATION = 2,
    CDP_INVALID_CONFIGURATION = 9,
    CDP_INVALID_DEVICE_POINTER = 17,
    CDP_MAX_DEPTH_EXCEEDED = 65,
    CDP_PENDING_COUNT_EXCEEDED = 69,
    CDP_INVALID_DEVICE_FUNCTION = 98,
    CDP_INVALID_RESOURCE_HANDLE = 400,
};
#define CDP_MAX_ERROR 1024 /* error codes GetErrorString keeps a string for */

/* Special stream handles: cudaStreamTailLaunch and cudaStreamFireAndForget; the streams a grid
 * creates are CDP_STREAM_BASE + their index in the grid. */
#define CDP_STREAM_TAIL 3u
#define CDP_STREAM_FIRE_AND_FORGET 4u
#define CDP_STREAM_BASE 0x100u
#define CDP_STREAM_NON_BLOCKING 1u

struct PtxDeviceRuntime {
    PtxMemory *mem;
    uint64_t max_pending, pending; /* queued or reserved work not yet done */
    uint64_t heap_limit, heap_used;
    PtxRangeMap heap;              /* device-side cudaMalloc's live allocations */
    const char *(*describe)(int code);
    uint64_t *error_text;          /* [CDP_MAX_ERROR]: device address of each code's text, or 0 */
};

struct PtxCdpGrid {
    PtxDeviceWork *work;          /* queued, in call order */
    uint32_t n_work, cap_work;
    PtxDeviceWork *reserved;      /* parameter buffers given that no launch has taken yet */
    uint32_t n_reserved, cap_reserved;
    uint8_t *stream_live;         /* per stream this grid created */
    uint32_t n_streams, cap_streams;
    /* Last errors of the threads that had one: keyed by the thread's linear index in the grid
     * (addr, size 1), the code in kind. Few threads have one; most grids make no entry. */
    PtxRangeMap errors;
};

PtxDeviceRuntime *ptx_cdp_create(PtxMemory *mem, uint64_t max_pending, uint64_t heap_bytes)
{
    PtxDeviceRuntime *rt = xcalloc(1, sizeof *rt);
    rt->mem = mem;
    rt->max_pending = max_pending;
    rt->heap_limit = heap_bytes;
    ptx_ranges_init(&rt->heap);
    return rt;
}

void ptx_cdp_destroy(PtxDeviceRuntime *rt)
{
    if (!rt)
        return;
    ptx_ranges_free(&rt->heap);
    free(rt->error_text);
    free(rt);
}

void ptx_cdp_set_limits(PtxDeviceRuntime *rt, uint64_t max_pending, uint64_t heap_bytes)
{
    rt->max_pending = max_pending;
    rt->heap_limit = heap_bytes;
}

void ptx_cdp_set_describe(PtxDeviceRuntime *rt, const char *(*describe)(int code))
{
    rt->describe = describe;
}

void ptx_launch_set_device_runtime(PtxLaunch *l, PtxDeviceRuntime *rt, uint32_t depth)
{
    l->cdp_rt = rt;
    l->cdp_depth = depth;
}

void ptx_cdp_work_done(PtxDeviceRuntime *rt, const PtxDeviceWork *w)
{
    if (w->kind == PTX_WORK_LAUNCH)
        ptx_memory_free(rt->mem, w->params);
    rt->pending--;
}

PtxDeviceWork *ptx_launch_take_device_work(PtxLaunch *l, uint32_t *n)
{
    *n = 0;
    if (!l->cdp)
        return NULL;
    PtxDeviceWork *w = l->cdp->work;
    *n = l->cdp->n_work;
    l->cdp->work = NULL;
    l->cdp->n_work = l->cdp->cap_work = 0;
    return w;
}

void ptx_cdp_launch_free(PtxLaunch *l)
{
    PtxCdpGrid *g = l->cdp;
    if (!g)
        return;
    for (uint32_t i = 0; i < g->n_reserved; i++) /* buffers no launch took */
        ptx_cdp_work_done(l->cdp_rt, &g->reserved[i]);
    for (uint32_t i = 0; i < g->n_work; i++) /* work nobody took (the grid faulted) */
        ptx_cdp_work_done(l->cdp_rt, &g->work[i]);
    free(g->work);
    free(g->reserved);
    free(g->stream_live);
    ptx_ranges_free(&g->errors);
    free(g);
    l->cdp = NULL;
}

static PtxCdpGrid *grid_state(PtxLaunch *l)
{
    if (!l->cdp) {
        l->cdp = xcalloc(1, sizeof *l->cdp);
        ptx_ranges_init(&l->cdp->errors);
    }
    return l->cdp;
}

/* ---- per-thread last error ---- */

static uint64_t thread_key(const PtxLaunch *l, const PtxWarp *w, uint32_t lane)
{
    return w->cta->cta_id * l->threads_per_cta + w->first_tid + lane;
}

static int last_error(PtxLaunch *l, const PtxWarp *w, uint32_t lane, bool clear)
{
    PtxCdpGrid *g = grid_state(l);
    uint64_t key = thread_key(l, w, lane);
    const PtxRange *r = ptx_ranges_floor(&g->errors, key);
    if (!r || r->addr != key)
        return CDP_SUCCESS;
    int code = (int)r->kind;
    if (clear)
        ptx_ranges_remove(&g->errors, key, NULL);
    return code;
}

/* A failed call's code becomes the thread's last error. */
static void set_error(PtxLaunch *l, const PtxWarp *w, uint32_t lane, int code)
{
    if (code == CDP_SUCCESS)
        return;
    PtxCdpGrid *g = grid_state(l);
    uint64_t key = thread_key(l, w, lane);
    const PtxRange *r = ptx_ranges_floor(&g->errors, key);
    if (r && r->addr == key)
        ptx_ranges_remove(&g->errors, key, NULL);
    ptx_ranges_insert(&g->errors, &(PtxRange){.addr = key, .size = 1, .kind = (uint32_t)code});
}

/* ---- launches ---- */

static bool stream_ok(const PtxLaunch *l, uint64_t stream)
{
    if (stream == 0 || stream == CDP_STREAM_TAIL || stream == CDP_STREAM_FIRE_AND_FORGET)
        return true;
    const PtxCdpGrid *g = l->cdp;
    return g && stream >= CDP_STREAM_BASE && stream - CDP_STREAM_BASE < g->n_streams &&
           g->stream_live[stream - CDP_STREAM_BASE];
}

/* The kernel at a function address (mov.u64 %rd, kernel), or NULL. */
static const PtxKernelInfo *kernel_at(const PtxLaunch *l, uint64_t addr, uint32_t *func)
{
    const PtxModule *m = l->m;
    if (addr < PTX_WIN_CODE || addr - PTX_WIN_CODE >= m->n_funcs)
        return NULL;
    *func = (uint32_t)(addr - PTX_WIN_CODE);
    for (uint32_t k = 0; k < m->n_kernels; k++)
        if (m->kernel_func[k] == *func)
            return &m->kernels[k];
    return NULL;
}

static bool config_ok(const uint32_t grid[3], const uint32_t block[3])
{
    for (int d = 0; d < 3; d++)
        if (!grid[d] || !block[d])
            return false;
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    return grid[0] <= 0x7fffffffu && grid[1] <= 65535 && grid[2] <= 65535 && threads <= 1024 && block[2] <= 64;
}

static uint64_t get_parameter_buffer(PtxLaunch *l, PtxWarp *w, uint32_t lane, const PtxInst *call, int *code)
{
    PtxDeviceRuntime *rt = l->cdp_rt;
    PtxDeviceWork d = {.kind = PTX_WORK_LAUNCH};
    const PtxKernelInfo *ki = kernel_at(l, ptx_call_arg(l, w, lane, call, 0), &d.func);
    ptx_call_arg_bytes(l, w, lane, call, 1, d.grid, sizeof d.grid);
    ptx_call_arg_bytes(l, w, lane, call, 2, d.block, sizeof d.block);
    d.smem_bytes = (uint32_t)ptx_call_arg(l, w, lane, call, 3);
    if (!ki) {
        *code = CDP_INVALID_DEVICE_FUNCTION;
        return 0;
    }
    if (rt->pending >= rt->max_pending) {
        *code = CDP_PENDING_COUNT_EXCEEDED;
        return 0;
    }
    d.param_bytes = ki->param_bytes;
    d.kernel = ki->name;
    d.params = ptx_memory_alloc(rt->mem, MAX(d.param_bytes, 8u)); /* never NULL: NULL is failure */
    PtxCdpGrid *g = grid_state(l);
    if (g->n_reserved == g->cap_reserved) {
        g->cap_reserved = g->cap_reserved ? 2 * g->cap_reserved : 32;
        g->reserved = xrealloc(g->reserved, g->cap_reserved * sizeof *g->reserved);
    }
    g->reserved[g->n_reserved++] = d;
    rt->pending++;
    *code = CDP_SUCCESS;
    return d.params;
}

static void queue(PtxCdpGrid *g, const PtxDeviceWork *d)
{
    if (g->n_work == g->cap_work) {
        g->cap_work = g->cap_work ? 2 * g->cap_work : 32;
        g->work = xrealloc(g->work, g->cap_work * sizeof *g->work);
    }
    g->work[g->n_work++] = *d;
}

static int launch_device(PtxLaunch *l, PtxWarp *w, uint32_t lane, const PtxInst *call)
{
    uint64_t buf = ptx_call_arg(l, w, lane, call, 0), stream = ptx_call_arg(l, w, lane, call, 1);
    PtxCdpGrid *g = grid_state(l);
    uint32_t i = g->n_reserved;
    while (i > 0 && g->reserved[i - 1].params != buf) /* the latest first: the usual one */
        i--;
    if (i == 0)
        return CDP_INVALID_VALUE; /* not a buffer GetParameterBuffer gave */
    PtxDeviceWork d = g->reserved[i - 1];
    g->reserved[i - 1] = g->reserved[--g->n_reserved];
    int code = CDP_SUCCESS;
    if (l->cdp_depth >= PTX_CDP_MAX_DEPTH)
        code = CDP_MAX_DEPTH_EXCEEDED;
    else if (!config_ok(d.grid, d.block))
        code = CDP_INVALID_CONFIGURATION;
    else if (!stream_ok(l, stream))
        code = CDP_INVALID_RESOURCE_HANDLE;
    if (code != CDP_SUCCESS) {
        ptx_cdp_work_done(l->cdp_rt, &d);
        return code;
    }
    d.stream = stream;
    d.tail = stream == CDP_STREAM_TAIL;
    queue(g, &d);
    return CDP_SUCCESS;
}

static int memcpy_async(PtxLaunch *l, PtxWarp *w, uint32_t lane, const PtxInst *call)
{
    PtxDeviceRuntime *rt = l->cdp_rt;
    PtxDeviceWork d = {.kind = PTX_WORK_COPY};
    d.dst = ptx_call_arg(l, w, lane, call, 0);
    d.src = ptx_call_arg(l, w, lane, call, 1);
    d.bytes = ptx_call_arg(l, w, lane, call, 2);
    uint32_t kind = (uint32_t)ptx_call_arg(l, w, lane, call, 3);
    d.stream = ptx_call_arg(l, w, lane, call, 4);
    d.tail = d.stream == CDP_STREAM_TAIL;
    PtxRegion a, b;
    if (kind != 3 && kind != 4) /* cudaMemcpyDeviceToDevice, cudaMemcpyDefault: all a kernel may copy */
        return CDP_INVALID_VALUE;
    if (!d.bytes)
        return CDP_SUCCESS;
    if (!ptx_memory_find(rt->mem, d.dst, d.bytes, &a) || !ptx_memory_find(rt->mem, d.src, d.bytes, &b))
        return CDP_INVALID_VALUE;
    if (!stream_ok(l, d.stream))
        return CDP_INVALID_RESOURCE_HANDLE;
    if (rt->pending >= rt->max_pending)
        return CDP_PENDING_COUNT_EXCEEDED;
    rt->pending++;
    queue(grid_state(l), &d);
    return CDP_SUCCESS;
}

/* ---- streams, memory, errors ---- */

static bool store_u64(PtxLaunch *l, PtxWarp *w, uint32_t lane, uint64_t addr, uint64_t v, uint32_t pc)
{
    uint64_t taddr;
    uint8_t space;
    return ptx_lane_access(l, w, lane, SP_GENERIC, addr, 8, true, &v, pc, &taddr, &space);
}

static int stream_create(PtxLaunch *l, PtxWarp *w, uint32_t lane, const PtxInst *call, uint32_t pc)
{
    uint64_t at = ptx_call_arg(l, w, lane, call, 0);
    uint32_t flags = (uint32_t)ptx_call_arg(l, w, lane, call, 1);
    if (!at || flags != CDP_STREAM_NON_BLOCKING) /* a kernel's streams must be non-blocking */
        return CDP_INVALID_VALUE;
    PtxCdpGrid *g = grid_state(l);
    if (g->n_streams == g->cap_streams) {
        g->cap_streams = g->cap_streams ? 2 * g->cap_streams : 16;
        g->stream_live = xrealloc(g->stream_live, g->cap_streams);
    }
    uint64_t handle = CDP_STREAM_BASE + g->n_streams;
    if (!store_u64(l, w, lane, at, handle, pc))
        return -1;
    g->stream_live[g->n_streams++] = 1;
    return CDP_SUCCESS;
}

static int stream_destroy(PtxLaunch *l, PtxWarp *w, uint32_t lane, const PtxInst *call)
{
    uint64_t stream = ptx_call_arg(l, w, lane, call, 0);
    if (stream < CDP_STREAM_BASE || !stream_ok(l, stream))
        return CDP_INVALID_RESOURCE_HANDLE;
    l->cdp->stream_live[stream - CDP_STREAM_BASE] = 0; /* its queued work still runs */
    return CDP_SUCCESS;
}

/* Device malloc: the heap's memory, or NULL when it has no room (as CUDA's). */
static uint64_t device_malloc(PtxDeviceRuntime *rt, uint64_t size)
{
    if (!size || size > rt->heap_limit - rt->heap_used)
        return 0;
    uint64_t p = ptx_memory_alloc(rt->mem, size);
    ptx_ranges_insert(&rt->heap, &(PtxRange){.addr = p, .size = size});
    rt->heap_used += size;
    return p;
}

static int heap_malloc(PtxLaunch *l, PtxWarp *w, uint32_t lane, const PtxInst *call, uint32_t pc)
{
    PtxDeviceRuntime *rt = l->cdp_rt;
    uint64_t at = ptx_call_arg(l, w, lane, call, 0), size = ptx_call_arg(l, w, lane, call, 1);
    if (!at)
        return CDP_INVALID_VALUE;
    uint64_t p = 0;
    int code = CDP_SUCCESS;
    if (size > rt->heap_limit - rt->heap_used) {
        code = CDP_MEMORY_ALLOCATION;
    } else {
        p = device_malloc(rt, size);
    }
    if (!store_u64(l, w, lane, at, p, pc))
        return -1;
    return code;
}

static int heap_free(PtxLaunch *l, PtxWarp *w, uint32_t lane, const PtxInst *call)
{
    PtxDeviceRuntime *rt = l->cdp_rt;
    uint64_t p = ptx_call_arg(l, w, lane, call, 0);
    PtxRange r;
    if (!p)
        return CDP_SUCCESS;
    if (!ptx_ranges_remove(&rt->heap, p, &r)) /* only what a kernel's cudaMalloc gave */
        return CDP_INVALID_DEVICE_POINTER;
    rt->heap_used -= r.size;
    ptx_memory_free(rt->mem, p);
    return CDP_SUCCESS;
}

/* The device address of the error's text, written into device memory on its first request. */
static uint64_t error_string(PtxDeviceRuntime *rt, int code)
{
    uint32_t slot = code >= 0 && code < CDP_MAX_ERROR ? (uint32_t)code : CDP_MAX_ERROR - 1;
    if (!rt->error_text)
        rt->error_text = xcalloc(CDP_MAX_ERROR, sizeof *rt->error_text);
    if (rt->error_text[slot])
        return rt->error_text[slot];
    char buf[200];
    const char *text = rt->describe && slot == (uint32_t)code ? rt->describe(code) : NULL;
    if (!text) {
        snprintf(buf, sizeof buf, "unrecognized error code");
        text = buf;
    }
    size_t n = strlen(text) + 1;
    uint64_t p = ptx_memory_alloc(rt->mem, n);
    if (!ptx_memory_write(rt->mem, p, text, n)) {
        ptx_memory_free(rt->mem, p);
        return 0;
    }
    return rt->error_text[slot] = p;
}

static const char *call_name(uint8_t which)
{
    switch (which) {
    case PTX_BUILTIN_CDP_GET_PARAMETER_BUFFER: return "__cudaCDP2GetParameterBufferV2";
    case PTX_BUILTIN_CDP_LAUNCH_DEVICE: return "__cudaCDP2LaunchDeviceV2";
    case PTX_BUILTIN_CDP_STREAM_CREATE: return "__cudaCDP2StreamCreateWithFlags";
    case PTX_BUILTIN_CDP_STREAM_DESTROY: return "__cudaCDP2StreamDestroy";
    case PTX_BUILTIN_CDP_MALLOC: return "__cudaCDP2Malloc";
    case PTX_BUILTIN_CDP_FREE: return "__cudaCDP2Free";
    case PTX_BUILTIN_CDP_GET_LAST_ERROR: return "__cudaCDP2GetLastError";
    case PTX_BUILTIN_CDP_PEEK_AT_LAST_ERROR: return "__cudaCDP2PeekAtLastError";
    case PTX_BUILTIN_CDP_MEMCPY_ASYNC: return "__cudaCDP2MemcpyAsync";
    case PTX_BUILTIN_MALLOC: return "malloc";
    case PTX_BUILTIN_FREE: return "free";
    default: return "__cudaCDP2GetErrorString";
    }
}

void ptx_cdp_call(PtxLaunch *l, PtxWarp *w, const PtxInst *call, uint32_t pc, uint32_t active, uint8_t which)
{
    if (!l->cdp_rt) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s: the device runtime (dynamic parallelism) is not available to this launch",
                 call_name(which));
        ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, msg);
        return;
    }
    FOR_LANES(active, i) {
        int code = CDP_SUCCESS;
        switch (which) {
        case PTX_BUILTIN_CDP_GET_PARAMETER_BUFFER: {
            ptx_call_return(l, w, i, call, get_parameter_buffer(l, w, i, call, &code));
            set_error(l, w, i, code);
            continue;
        }
        case PTX_BUILTIN_CDP_GET_ERROR_STRING:
            ptx_call_return(l, w, i, call, error_string(l->cdp_rt, (int)(int32_t)ptx_call_arg(l, w, i, call, 0)));
            continue;
        case PTX_BUILTIN_MALLOC:
            ptx_call_return(l, w, i, call, device_malloc(l->cdp_rt, ptx_call_arg(l, w, i, call, 0)));
            continue;
        case PTX_BUILTIN_FREE:
            if (heap_free(l, w, i, call) != CDP_SUCCESS) { /* undefined in CUDA: a fault here */
                char who[96], msg[200];
                ptx_thread_coords(l, w, i, who, sizeof who);
                snprintf(msg, sizeof msg, "free(%#llx) by %s: not an address device malloc gave",
                         (unsigned long long)ptx_call_arg(l, w, i, call, 0), who);
                ptx_launch_fault(l, pc, PTX_FAULT_FAILURE, msg);
                return;
            }
            continue;
        case PTX_BUILTIN_CDP_GET_LAST_ERROR:
        case PTX_BUILTIN_CDP_PEEK_AT_LAST_ERROR:
            ptx_call_return(l, w, i, call,
                            (uint32_t)last_error(l, w, i, which == PTX_BUILTIN_CDP_GET_LAST_ERROR));
            continue;
        case PTX_BUILTIN_CDP_LAUNCH_DEVICE: code = launch_device(l, w, i, call); break;
        case PTX_BUILTIN_CDP_STREAM_CREATE: code = stream_create(l, w, i, call, pc); break;
        case PTX_BUILTIN_CDP_STREAM_DESTROY: code = stream_destroy(l, w, i, call); break;
        case PTX_BUILTIN_CDP_MALLOC: code = heap_malloc(l, w, i, call, pc); break;
        case PTX_BUILTIN_CDP_FREE: code = heap_free(l, w, i, call); break;
        case PTX_BUILTIN_CDP_MEMCPY_ASYNC: code = memcpy_async(l, w, i, call); break;
        default: CHECK(0 && "not a device runtime call");
        }
        if (code < 0) /* a store through the call's pointer faulted the launch */
            return;
        ptx_call_return(l, w, i, call, (uint32_t)code);
        set_error(l, w, i, code);
    }
}
