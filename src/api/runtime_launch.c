/* runtime_launch.c: kernel launches of warpsim's libcudart replacement (see runtime.c).
 *
 * <<<grid, block, smem, stream>>> in nvcc's code pushes a call configuration that the kernel's
 * host stub pops before it launches (__cudaLaunchKernel with the kernel of __cudaGetKernel);
 * cudaLaunchKernel names the kernel by its host stub. A launch checks the configuration
 * against the device's limits, packs the arguments into the kernel's parameter buffer and
 * runs the kernel to completion on the simulator. Function attributes report ptxas's
 * register count and the occupancy limits that follow from it. */
#include "api/runtime_graph.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;
    int maxDynamicSharedSizeBytes, preferredShmemCarveout, clusterDimMustBeSet;
    int requiredClusterWidth, requiredClusterHeight, requiredClusterDepth;
    int clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
    int reserved[16];
};

/* Its size as CUDA 13's headers give it (x86-64). */
_Static_assert(sizeof(struct cudaFuncAttributes) == 144, "cudaFuncAttributes layout");

/* The configurations pushed by <<<...>>> and not yet popped by the launch stubs. */
typedef struct CallConfig {
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
} CallConfig;

#define RT_MAX_CALL_DEPTH 16

static _Thread_local CallConfig rt_calls[RT_MAX_CALL_DEPTH]; /* per host thread, as in CUDA */
static _Thread_local int rt_n_calls;

/* ---- <<<...>>> ---- */

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream)
{
    if (rt_n_calls == RT_MAX_CALL_DEPTH) {
        rt_fail(cudaErrorInvalidConfiguration, "<<<...>>>", "launches nested more than %d deep", RT_MAX_CALL_DEPTH);
        return 1;
    }
    rt_calls[rt_n_calls++] = (CallConfig){gridDim, blockDim, sharedMem, stream};
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (rt_n_calls == 0)
        return rt_fail(cudaErrorMissingConfiguration, "__cudaPopCallConfiguration", "no <<<...>>> configuration");
    const CallConfig *c = &rt_calls[--rt_n_calls];
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->smem;
    *(cudaStream_t *)stream = c->stream;
    return cudaSuccess;
}

/* ---- launches ---- */

cudaError_t rt_kernel_op(RtKernel *k, dim3 g, dim3 b, void **args, size_t smem, const char *call, RtOp *op)
{
    memset(op, 0, sizeof *op);
    op->kind = RT_OP_KERNEL;
    ENTER_NO_WAIT(call);
    if (!k)
        return rt_fail(cudaErrorInvalidDeviceFunction, call, "not a registered kernel");
    cudaError_t e = rt_kernel_ready(k, call);
    if (e != cudaSuccess)
        return e;
    const WarpsimKernelInfo *ki = &k->info;
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z)
        return rt_fail(cudaErrorInvalidConfiguration, call, "%s<<<(%u,%u,%u), (%u,%u,%u)>>>: every dimension must be "
                       "at least 1", k->name, g.x, g.y, g.z, b.x, b.y, b.z);
    /* More threads than a block may have, or a block deeper than 64 in z, is
     * cudaErrorInvalidValue, as NVIDIA's runtime 13.0 returns it (measured on an H200, driver
     * 580); older runtimes said cudaErrorInvalidConfiguration, which the other malformed shapes
     * still get. */
    if (threads > di.max_threads_per_cta)
        return rt_fail(cudaErrorInvalidValue, call, "%s: a block of %ux%ux%u threads exceeds the device's %u threads "
                       "per block", k->name, b.x, b.y, b.z, di.max_threads_per_cta);
    if (b.z > RT_MAX_BLOCK_Z)
        return rt_fail(cudaErrorInvalidValue, call, "%s: a block of %ux%ux%u threads exceeds the device's "
                       "%u threads in z", k->name, b.x, b.y, b.z, RT_MAX_BLOCK_Z);
    if (g.x > RT_MAX_GRID_X || g.y > RT_MAX_GRID_YZ || g.z > RT_MAX_GRID_YZ)
        return rt_fail(cudaErrorInvalidConfiguration, call, "%s: a grid of %ux%ux%u blocks exceeds %ux%ux%u", k->name,
                       g.x, g.y, g.z, RT_MAX_GRID_X, RT_MAX_GRID_YZ, RT_MAX_GRID_YZ);
    if (smem + ki->smem_static_bytes > di.smem_per_sm)
        return rt_fail(cudaErrorInvalidValue, call, "%s: %zu bytes of dynamic and %u of static shared memory exceed "
                       "the %u bytes of a block", k->name, smem, ki->smem_static_bytes, di.smem_per_sm);
    if (ki->n_params > 0 && !args)
        return rt_fail(cudaErrorInvalidValue, call, "%s takes %u parameters and none were given", k->name,
                       ki->n_params);
    op->k = k;
    op->param_bytes = ki->param_bytes;
    op->params = xcalloc(1, ki->param_bytes ? ki->param_bytes : 1);
    for (uint32_t i = 0; i < ki->n_params; i++)
        if (args[i])
            memcpy(op->params + ki->param_offset[i], args[i], ki->param_size[i]);
    op->grid[0] = g.x, op->grid[1] = g.y, op->grid[2] = g.z;
    op->block[0] = b.x, op->block[1] = b.y, op->block[2] = b.z;
    op->smem = (uint32_t)smem;
    return cudaSuccess;
}

cudaError_t rt_kernel_run(const RtOp *op)
{
    WarpsimStatus st = (op->cooperative ? warpsim_launch_cooperative : warpsim_launch)(
        rt_sim, op->k->mod->m, op->k->name, op->grid, op->block, op->smem, op->params, op->param_bytes);
    cudaError_t e = rt_status(st);
    if (st == WARPSIM_E_FAULT || st == WARPSIM_E_ILLEGAL_ADDRESS || st == WARPSIM_E_MISALIGNED ||
        st == WARPSIM_E_ASSERT || st == WARPSIM_E_DEADLOCK) /* the message cites the PTX's lines */
        rt_module_keep_ptx(op->k->mod);
    return e;
}

/* A cooperative launch needs a device of compute capability 6.0 or later (cooperativeLaunch),
 * and its grid must fit on the device at once, as CUDA requires. */
static cudaError_t check_cooperative(const RtOp *op, const char *call)
{
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    if (di.cc_major < 6)
        return rt_fail(cudaErrorNotSupported, call, "compute capability %u.%u: cooperative launches need 6.0 or later "
                       "(cudaDevAttrCooperativeLaunch is 0), as on a GPU; simulate another machine (--preset qv100) "
                       "or claim one (-o gpu.compute_capability=6.0)", di.cc_major, di.cc_minor);
    uint64_t fit = 0, n = (uint64_t)op->grid[0] * op->grid[1] * op->grid[2];
    if (warpsim_cooperative_max_blocks(rt_sim, op->k->mod->m, op->k->name, op->block, op->smem, &fit) != WARPSIM_OK)
        return rt_quiet_fail(cudaErrorInvalidDeviceFunction);
    if (n > fit)
        return rt_fail(cudaErrorCooperativeLaunchTooLarge, call, "%s: a grid of %llu blocks of %ux%ux%u threads; at "
                       "most %llu fit on the device at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor x "
                       "multiProcessorCount)", op->k->name, (unsigned long long)n, op->block[0], op->block[1],
                       op->block[2], (unsigned long long)fit);
    return cudaSuccess;
}

/* A launch into a stream: run now, or recorded while the stream is captured. */
static cudaError_t launch(RtKernel *k, dim3 g, dim3 b, void **args, size_t smem, cudaStream_t stream,
                          const char *call, bool cooperative)
{
    API_LOCKED;
    RtOp op;
    cudaError_t e = rt_kernel_op(k, g, b, args, smem, call, &op);
    op.cooperative = cooperative;
    if (e == cudaSuccess && cooperative)
        e = check_cooperative(&op, call);
    if (e == cudaSuccess && rt_capturing(stream)) {
        e = rt_capture_op(stream, &op, call);
    } else if (e == cudaSuccess && rt_queue_holds(stream)) {
        rt_queue_push(&op); /* runs when the host next waits (runtime_queue.c) */
    } else if (e == cudaSuccess) {
        api_flush(); /* the held launches first, in issue order */
        e = rt_sticky != cudaSuccess ? rt_sticky_fail() : rt_kernel_run(&op);
    }
    free(op.params);
    return rt_async_error(e);
}

cudaError_t rt_async_error(cudaError_t e)
{
    return e != cudaSuccess && e == rt_sticky ? cudaSuccess : e;
}

/* Stream-ordered work, run now (a graph's nodes; the device is synchronous). */
cudaError_t rt_op_run(const RtOp *op, const char *call)
{
    ENTER(call);
    switch (op->kind) {
    case RT_OP_KERNEL:
        return rt_kernel_run(op);
    case RT_OP_MEMCPY:
        for (size_t r = 0; r < op->height; r++) {
            cudaError_t e = rt_copy((char *)op->dst + r * op->dpitch, (const char *)op->src + r * op->spitch,
                                    op->width, op->copy_kind, call);
            if (e != cudaSuccess)
                return e;
        }
        return cudaSuccess;
    case RT_OP_MEMSET:
        for (size_t r = 0; r < op->height; r++) {
            char *row = (char *)op->dst + r * op->dpitch;
            cudaError_t e;
            if (op->elem == 1) {
                e = rt_memset(row, (int)op->value, op->width, call);
            } else { /* 2- or 4-byte elements: the row is written as a copy */
                size_t bytes = op->width * op->elem;
                uint8_t *buf = xmalloc(bytes ? bytes : 1);
                for (size_t i = 0; i < op->width; i++)
                    memcpy(buf + i * op->elem, &op->value, op->elem); /* little-endian: the low bytes */
                e = rt_copy(row, buf, bytes, cudaMemcpyDefault, call);
                free(buf);
            }
            if (e != cudaSuccess)
                return e;
        }
        return cudaSuccess;
    case RT_OP_HOST:
        op->fn(op->data);
        return cudaSuccess;
    case RT_OP_EMPTY:
        return cudaSuccess;
    case RT_OP_MEMALLOC:
    case RT_OP_MEMFREE:
        return rt_graph_mem_run(op, call);
    case RT_OP_GRAPH:
    case RT_OP_COND:
        return rt_graph_body_run(op, call);
    }
    return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream)
{
    return launch(kernel, gridDim, blockDim, args, sharedMem, stream, "kernel launch", false);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    return launch(kernel, gridDim, blockDim, args, sharedMem, stream, "kernel launch", false);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
    return launch(rt_kernel_of(func), gridDim, blockDim, args, sharedMem, stream, "cudaLaunchKernel", false);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                  cudaStream_t stream)
{
    return launch(rt_kernel_of(func), gridDim, blockDim, args, sharedMem, stream, "cudaLaunchKernel", false);
}

/* Its CTAs all fit on the device at once and may synchronise grid-wide (grid.sync()). */
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                        cudaStream_t stream)
{
    return launch(rt_kernel_of(func), gridDim, blockDim, args, sharedMem, stream, "cudaLaunchCooperativeKernel",
                  true);
}

RT_PER_THREAD(cudaLaunchCooperativeKernel_ptsz, cudaLaunchCooperativeKernel);

/* cudaLaunchConfig_t and cudaLaunchAttribute as CUDA 13's driver_types.h lays them out. */
typedef struct RtLaunchAttr {
    int id; /* cudaLaunchAttributeID */
    char pad[4];
    union {
        char bytes[64];
        int cooperative;
        struct { unsigned x, y, z; } cluster;
    } val;
} RtLaunchAttr;
typedef struct RtLaunchConfig {
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
    const RtLaunchAttr *attrs;
    unsigned n_attrs;
} RtLaunchConfig;
_Static_assert(sizeof(RtLaunchAttr) == 72, "cudaLaunchAttribute layout");
_Static_assert(sizeof(RtLaunchConfig) == 56, "cudaLaunchConfig_t layout");

/* A launch with attributes (cudaLaunchKernelEx's). Cooperative is a cooperative launch; the
 * hints that change no result (an access policy window, priority, memory synchronisation
 * domains, the shared-memory carveout, cluster scheduling and NVLink preferences) are accepted
 * and change nothing, as for streams; programmatic stream serialisation holds because launches
 * run one after another; a cluster of 1 x 1 x 1 is no cluster. Anything else is
 * cudaErrorNotSupported, naming the attribute. */
cudaError_t cudaLaunchKernelExC(const RtLaunchConfig *config, const void *func, void **args)
{
    static const char call[] = "cudaLaunchKernelExC";
    if (!config)
        return rt_fail(cudaErrorInvalidValue, call, "null configuration");
    if (config->n_attrs && !config->attrs)
        return rt_fail(cudaErrorInvalidValue, call, "%u attributes but a null attribute list", config->n_attrs);
    bool cooperative = false;
    for (unsigned i = 0; i < config->n_attrs; i++) {
        const RtLaunchAttr *a = &config->attrs[i];
        switch (a->id) {
        case 0: case 1: case 5: case 6: case 8: case 9: case 10: case 14: case 16:
            break; /* ignored entry; hints */
        case 2:
            cooperative = a->val.cooperative != 0;
            break;
        case 4: case 11: /* cluster dimensions */
            if (a->val.cluster.x * a->val.cluster.y * a->val.cluster.z <= 1)
                break;
            return rt_fail(cudaErrorNotSupported, call, "attribute %d: clusters of %ux%ux%u thread blocks are not "
                           "modelled", a->id, a->val.cluster.x, a->val.cluster.y, a->val.cluster.z);
        default:
            return rt_fail(cudaErrorNotSupported, call, "launch attribute %d (cudaLaunchAttributeID) is not supported",
                           a->id);
        }
    }
    return launch(rt_kernel_of(func), config->grid, config->block, args, config->smem, config->stream, call,
                  cooperative);
}

RT_PER_THREAD(cudaLaunchKernelExC_ptsz, cudaLaunchKernelExC);

/* ---- function attributes ---- */

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    ENTER("cudaFuncGetAttributes");
    if (!attr)
        return rt_fail(cudaErrorInvalidValue, "cudaFuncGetAttributes", "null attributes pointer");
    RtKernel *k = rt_kernel_of(func);
    if (!k)
        return rt_fail(cudaErrorInvalidDeviceFunction, "cudaFuncGetAttributes", "%p is not a kernel", func);
    cudaError_t e = rt_kernel_ready(k, "cudaFuncGetAttributes");
    if (e != cudaSuccess)
        return e;
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    memset(attr, 0, sizeof *attr);
    uint32_t regs = k->info.regs_per_thread ? k->info.regs_per_thread : 1;
    uint32_t by_regs = di.regs_per_sm / regs / 32 * 32; /* threads whose registers fit one SM */
    attr->sharedSizeBytes = k->info.smem_static_bytes;
    attr->localSizeBytes = k->info.local_bytes;
    attr->maxThreadsPerBlock = (int)MIN(di.max_threads_per_cta, by_regs);
    attr->numRegs = (int)k->info.regs_per_thread;
    attr->ptxVersion = attr->binaryVersion = (int)k->mod->ptx_arch;
    attr->maxDynamicSharedSizeBytes = (int)(di.smem_per_sm - MIN(di.smem_per_sm, k->info.smem_static_bytes));
    return cudaSuccess;
}

/* Hints a synchronous simulator has no use for; the function must still be a kernel. */
cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    if (!rt_kernel_of(func))
        return rt_fail(cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute", "%p is not a kernel", func);
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig)
{
    if (!rt_kernel_of(func))
        return rt_fail(cudaErrorInvalidDeviceFunction, "cudaFuncSetCacheConfig", "%p is not a kernel", func);
    return cudaSuccess;
}

/* A preference, like the cache configuration (runtime_device.c): accepted for a kernel. */
cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config)
{
    if (!rt_kernel_of(func))
        return rt_fail(cudaErrorInvalidDeviceFunction, "cudaFuncSetSharedMemConfig", "%p is not a kernel", func);
    if (config < 0 || config > 2)
        return rt_fail(cudaErrorInvalidValue, "cudaFuncSetSharedMemConfig", "%d is not a cudaSharedMemConfig value",
                       config);
    return cudaSuccess;
}

/* CTAs of func per SM at a block size: the simulated SM's own placement rule (registers, shared
 * memory, threads, warps and CTA slots), as the CTA dispatcher applies it. */
static cudaError_t occupancy(const char *call, int *num_blocks, const void *func, int block_size, size_t dyn_smem,
                             unsigned flags)
{
    ENTER(call);
    if (!num_blocks)
        return rt_fail(cudaErrorInvalidValue, call, "null result pointer");
    if (flags > 1) /* cudaOccupancyDefault, cudaOccupancyDisableCachingOverride */
        return rt_fail(cudaErrorInvalidValue, call, "unknown flags 0x%x", flags);
    if (block_size <= 0)
        return rt_fail(cudaErrorInvalidValue, call, "block size %d", block_size);
    RtKernel *k = rt_kernel_of(func);
    if (!k)
        return rt_fail(cudaErrorInvalidDeviceFunction, call, "%p is not a kernel", func);
    cudaError_t e = rt_kernel_ready(k, call);
    if (e != cudaSuccess)
        return e;
    uint32_t ctas = 0;
    uint32_t dyn = dyn_smem > UINT32_MAX ? UINT32_MAX : (uint32_t)dyn_smem;
    if (warpsim_kernel_occupancy(rt_sim, k->mod->m, k->name, (uint32_t)block_size, dyn, &ctas) != WARPSIM_OK)
        return rt_fail(cudaErrorInvalidValue, call, "%s", warpsim_error(rt_sim));
    *num_blocks = (int)ctas;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize)
{
    return occupancy("cudaOccupancyMaxActiveBlocksPerMultiprocessor", numBlocks, func, blockSize, dynamicSMemSize, 0);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned flags)
{
    return occupancy("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", numBlocks, func, blockSize,
                     dynamicSMemSize, flags);
}
