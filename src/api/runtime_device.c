/* runtime_device.c: the device of warpsim's libcudart replacement (see runtime.c).
 *
 * One device, number 0, whose properties and attributes are the configured machine's (SM
 * count, clocks, threads, registers, shared memory, L2) with the compute capability of the
 * PTX nvcc 13 emits by default. Synchronisation has nothing to wait for; cudaDeviceReset frees
 * the program's allocations and texture objects and clears the errors. */
#include "api/device_attr.h"
#include "api/runtime_internal.h"

#include "base/base.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct cudaDeviceProp {
    char name[256];
    char uuid[16];
    char luid[8];
    unsigned luidDeviceNodeMask;
    size_t totalGlobalMem, sharedMemPerBlock;
    int regsPerBlock, warpSize;
    size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
    size_t totalConstMem;
    int major, minor;
    size_t textureAlignment, texturePitchAlignment;
    int multiProcessorCount, integrated, canMapHostMemory;
    int maxTexture1D, maxTexture1DMipmap, maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3];
    int maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap;
    int maxTexture1DLayered[2], maxTexture2DLayered[3], maxTextureCubemapLayered[2];
    int maxSurface1D, maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2], maxSurface2DLayered[3];
    int maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount;
    int unifiedAddressing, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID;
    int hostNativeAtomicSupported, pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported;
    int canUseHostPointerForRegisteredMem, cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
    unsigned gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers;
    int deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
    unsigned gpuPciDeviceID, gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

/* Sizes and offsets as CUDA 13's headers give them (x86-64). */
_Static_assert(sizeof(struct cudaDeviceProp) == 1008, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, totalGlobalMem) == 288, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, maxThreadsPerMultiProcessor) == 604, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, maxBlocksPerMultiProcessor) == 688, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, hostNumaMultinodeIpcSupported) == 780, "cudaDeviceProp layout");

/* What the runtime reports about the device beyond the configured machine. */
#define RT_VERSION 13000 /* CUDA 13.0, for cudaRuntimeGetVersion and cudaDriverGetVersion */

/* ---- the device ---- */

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return rt_fail(cudaErrorInvalidValue, "cudaGetDeviceCount", "null pointer");
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    if (device != 0)
        return rt_fail(cudaErrorInvalidDevice, "cudaSetDevice", "device %d: the simulator has one device, 0", device);
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return rt_fail(cudaErrorInvalidValue, "cudaGetDevice", "null pointer");
    *device = 0;
    return cudaSuccess;
}

/* The flags of cudaSetDeviceFlags, for cudaGetDeviceFlags: they choose how the host waits
 * (spin, yield, block), which the synchronous device never does. cudaDeviceMapHost (8) is
 * always reported, as NVIDIA's runtime does (measured: 0x8 before any cudaSetDeviceFlags,
 * 0xc after cudaDeviceScheduleBlockingSync); pinned memory is always mapped (runtime_memory.c). */
enum { cudaDeviceMapHost = 8 };
static unsigned rt_device_flags = cudaDeviceMapHost;

cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    API_LOCKED;
    if (flags & ~0x1fu) /* cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax */
        return rt_fail(cudaErrorInvalidValue, "cudaSetDeviceFlags", "flags 0x%x: not CUDA's device flags", flags);
    rt_device_flags = flags | cudaDeviceMapHost;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    API_LOCKED;
    if (!flags)
        return rt_fail(cudaErrorInvalidValue, "cudaGetDeviceFlags", "null pointer");
    *flags = rt_device_flags;
    return cudaSuccess;
}

cudaError_t cudaInitDevice(int device, unsigned deviceFlags, unsigned flags)
{
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess)
        e = rt_init("cudaInitDevice");
    return e == cudaSuccess ? cudaSetDeviceFlags(deviceFlags) : e;
}

/* Every device matches: there is one. */
cudaError_t cudaChooseDevice(int *device, const void *prop)
{
    if (!device || !prop)
        return rt_fail(cudaErrorInvalidValue, "cudaChooseDevice", "null pointer");
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceCanAccessPeer", "null pointer");
    if (device != 0 || peerDevice != 0)
        return rt_fail(cudaErrorInvalidDevice, "cudaDeviceCanAccessPeer", "device %d, peer %d: the simulator has one "
                       "device, 0", device, peerDevice);
    *canAccessPeer = 0; /* a device is not its own peer */
    return cudaSuccess;
}

/* One device has no peers: enabling access to one fails as on a GPU alone (an H200 answers
 * cudaErrorPeerAccessUnsupported for device 0), and there is none to disable. */
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    if (peerDevice != 0)
        return rt_fail(cudaErrorInvalidDevice, "cudaDeviceEnablePeerAccess", "peer %d: the simulator has one "
                       "device, 0", peerDevice);
    if (flags)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceEnablePeerAccess", "flags %u: must be 0", flags);
    return rt_fail(cudaErrorPeerAccessUnsupported, "cudaDeviceEnablePeerAccess", "one device: no peer to access");
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    if (peerDevice != 0)
        return rt_fail(cudaErrorInvalidDevice, "cudaDeviceDisablePeerAccess", "peer %d: the simulator has one "
                       "device, 0", peerDevice);
    return rt_fail(cudaErrorPeerAccessNotEnabled, "cudaDeviceDisablePeerAccess", "peer access was never enabled");
}

/* The L1 / shared-memory split and the bank width a program prefers: recorded and reported
 * back, as CUDA documents them, a preference the device may ignore; the simulated machine's
 * split is its configuration's (l1d.size, smem.size). */
static int rt_cache_config, rt_smem_config;

/* Record a preference of 0..max (an enum named what) in *slot. */
static cudaError_t pref_set(const char *call, int *slot, int value, int max, const char *what)
{
    API_LOCKED;
    if (value < 0 || value > max)
        return rt_fail(cudaErrorInvalidValue, call, "%d is not a %s value", value, what);
    *slot = value;
    return cudaSuccess;
}

static cudaError_t pref_get(const char *call, const int *slot, int *out)
{
    API_LOCKED;
    if (!out)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    *out = *slot;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(int cacheConfig)
{
    return pref_set("cudaDeviceSetCacheConfig", &rt_cache_config, cacheConfig, 3, "cudaFuncCache");
}

cudaError_t cudaDeviceGetCacheConfig(int *pCacheConfig)
{
    return pref_get("cudaDeviceGetCacheConfig", &rt_cache_config, pCacheConfig);
}

cudaError_t cudaDeviceSetSharedMemConfig(int config)
{
    return pref_set("cudaDeviceSetSharedMemConfig", &rt_smem_config, config, 2, "cudaSharedMemConfig");
}

cudaError_t cudaDeviceGetSharedMemConfig(int *pConfig)
{
    return pref_get("cudaDeviceGetSharedMemConfig", &rt_smem_config, pConfig);
}

/* What every query of the device starts with: the simulator exists, the answer has somewhere
 * to go, and the device is the one there is. */
static cudaError_t device_query(const char *call, const void *out, int device)
{
    cudaError_t e = rt_init(call);
    if (e != cudaSuccess)
        return e;
    if (!out)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (device != 0)
        return rt_fail(cudaErrorInvalidDevice, call, "device %d: the simulator has one device, 0", device);
    return cudaSuccess;
}

/* The fields answered as the device attributes of the same name are (device_attr.c), so that
 * the two never disagree: the texture and surface limits, and the features of other hardware. */
static const struct {
    size_t off;
    int attr;
} prop_attrs[] = {
#define F(field, attr) {offsetof(struct cudaDeviceProp, field), attr}
    F(maxTexture1D, 21), F(maxTexture1DMipmap, 77), F(maxTexture2D[0], 22), F(maxTexture2D[1], 23),
    F(maxTexture2DMipmap[0], 73), F(maxTexture2DMipmap[1], 74), F(maxTexture2DLinear[0], 70),
    F(maxTexture2DLinear[1], 71), F(maxTexture2DLinear[2], 72), F(maxTexture2DGather[0], 45),
    F(maxTexture2DGather[1], 46), F(maxTexture3D[0], 24), F(maxTexture3D[1], 25), F(maxTexture3D[2], 26),
    F(maxTexture3DAlt[0], 47), F(maxTexture3DAlt[1], 48), F(maxTexture3DAlt[2], 49), F(maxTextureCubemap, 52),
    F(maxTexture1DLayered[0], 42), F(maxTexture1DLayered[1], 43), F(maxTexture2DLayered[0], 27),
    F(maxTexture2DLayered[1], 28), F(maxTexture2DLayered[2], 29), F(maxTextureCubemapLayered[0], 53),
    F(maxTextureCubemapLayered[1], 54), F(maxSurface1D, 55), F(maxSurface2D[0], 56), F(maxSurface2D[1], 57),
    F(maxSurface3D[0], 58), F(maxSurface3D[1], 59), F(maxSurface3D[2], 60), F(maxSurface1DLayered[0], 61),
    F(maxSurface1DLayered[1], 62), F(maxSurface2DLayered[0], 63), F(maxSurface2DLayered[1], 64),
    F(maxSurface2DLayered[2], 65), F(maxSurfaceCubemap, 66), F(maxSurfaceCubemapLayered[0], 67),
    F(maxSurfaceCubemapLayered[1], 68), F(computePreemptionSupported, 90), F(deviceNumaId, 131),
    F(hostNumaId, 134),
#undef F
};

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    cudaError_t e = device_query("cudaGetDeviceProperties", prop, device);
    if (e != cudaSuccess)
        return e;
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "%s", di.name);
    api_device_uuid(&di, (unsigned char *)prop->uuid);
    prop->totalGlobalMem = (size_t)di.global_bytes;
    prop->sharedMemPerBlock = di.smem_per_sm;
    prop->regsPerBlock = (int)di.regs_per_sm;
    prop->warpSize = 32;
    prop->memPitch = 0x7fffffff;
    prop->maxThreadsPerBlock = (int)di.max_threads_per_cta;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = (int)di.max_threads_per_cta;
    prop->maxThreadsDim[2] = RT_MAX_BLOCK_Z;
    prop->maxGridSize[0] = RT_MAX_GRID_X;
    prop->maxGridSize[1] = prop->maxGridSize[2] = RT_MAX_GRID_YZ;
    prop->totalConstMem = RT_CONST_BYTES;
    prop->major = (int)di.cc_major;
    prop->minor = (int)di.cc_minor;
    prop->textureAlignment = 512;
    prop->texturePitchAlignment = RT_PITCH_ALIGN;
    prop->multiProcessorCount = (int)di.n_sms;
    prop->unifiedAddressing = 1;
    prop->memoryBusWidth = (int)di.bus_bits;
    prop->l2CacheSize = (int)di.l2_bytes;
    prop->maxThreadsPerMultiProcessor = (int)di.max_threads_per_sm;
    prop->globalL1CacheSupported = prop->localL1CacheSupported = 1;
    prop->sharedMemPerMultiprocessor = di.smem_per_sm;
    prop->regsPerMultiprocessor = (int)di.regs_per_sm;
    prop->sharedMemPerBlockOptin = di.smem_per_sm;
    prop->maxBlocksPerMultiProcessor = (int)di.max_ctas_per_sm;
    /* One copy engine that overlaps kernels, as on the GPUs the presets model: programs that
     * check take the path they take on hardware. The simulator runs copies and kernels in call
     * order either way. */
    prop->asyncEngineCount = 1;
    prop->memoryPoolsSupported = 1; /* cudaMallocAsync and the default pool (runtime_pool.c) */
    prop->hostRegisterSupported = 1; /* cudaHostRegister (runtime_memory.c) */
    /* Pinned memory is mapped at its own address; managed memory is host memory the device
     * addresses at the same address, which the host may touch at any time (runtime_managed.c) */
    prop->canMapHostMemory = prop->canUseHostPointerForRegisteredMem = 1;
    prop->managedMemory = prop->concurrentManagedAccess = prop->directManagedMemAccessFromHost = 1;
    prop->cooperativeLaunch = di.cc_major >= 6; /* cudaLaunchCooperativeKernel, grid.sync(): Pascal on */
    api_persisting_l2(&di, &prop->persistingL2CacheMaxSize, &prop->accessPolicyMaxWindowSize);
    for (size_t i = 0; i < sizeof prop_attrs / sizeof prop_attrs[0]; i++) {
        int v = 0;
        api_device_attribute(&di, prop_attrs[i].attr, &v);
        memcpy((char *)prop + prop_attrs[i].off, &v, sizeof v);
    }
    int align = 0;
    api_device_attribute(&di, 30, &align); /* cudaDevAttrSurfaceAlignment */
    prop->surfaceAlignment = (size_t)align;
    return cudaSuccess;
}

/* The CUDA 12 name of the same call. */
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device)
{
    return cudaGetDeviceProperties(prop, device);
}

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    cudaError_t e = device_query("cudaDeviceGetAttribute", value, device);
    if (e != cudaSuccess)
        return e;
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    int v;
    switch (api_device_attribute(&di, attr, &v)) {
    case API_ATTR_OK:
        *value = v;
        return cudaSuccess;
    case API_ATTR_UNKNOWN:
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "%d is not a CUDA device attribute", attr);
    default:
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "%s (%d) is not modelled",
                       api_device_attr_name(attr), attr);
    }
}

cudaError_t cudaDeviceSynchronize(void)
{
    ENTER("cudaDeviceSynchronize");
    return cudaSuccess;
}

/* Frees every allocation, array and texture object and clears the errors, like destroying the
 * context. The simulator, its statistics and the loaded modules stay. */
cudaError_t cudaDeviceReset(void)
{
    API_LOCKED;
    cudaError_t e = rt_init("cudaDeviceReset");
    if (e != cudaSuccess)
        return e;
    api_flush(); /* the launches held on streams were issued: they run first */
    rt_ipc_reset(); /* before the allocations go: exported bytes return to the device's pages */
    rt_pool_ipc_reset();
    warpsim_free_all(rt_sim);
    rt_texture_reset();
    rt_array_reset();
    rt_last = rt_sticky = cudaSuccess;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return rt_fail(cudaErrorInvalidValue, "cudaRuntimeGetVersion", "null pointer");
    *runtimeVersion = RT_VERSION;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return rt_fail(cudaErrorInvalidValue, "cudaDriverGetVersion", "null pointer");
    *driverVersion = RT_VERSION;
    return cudaSuccess;
}

/* CUDA's per-device limits (cudaLimitStackSize ... cudaLimitPersistingL2CacheSize), with CUDA's
 * defaults, kept and reported back. Two constrain a simulated kernel, through the device
 * runtime of dynamic parallelism: the heap of a kernel's cudaMalloc (cudaLimitMallocHeapSize)
 * and the launches a grid may have pending (cudaLimitDevRuntimePendingLaunchCount). The others
 * do not: warpsim sizes local memory (the stack) from each kernel's own needs, there is no
 * device-side synchronisation to bound in CUDA 12 and later (cudaLimitDevRuntimeSyncDepth),
 * and device-side malloc(), printf's FIFO and L2 persistence are not modelled (docs/cuda.md). */
enum { RT_N_LIMITS = 7 };
static size_t rt_limits[RT_N_LIMITS] = {1024, 1048576, 8388608, 2, 2048, 64, 0};

cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    ENTER("cudaDeviceSetLimit");
    if (limit < 0 || limit >= RT_N_LIMITS)
        return rt_fail(cudaErrorUnsupportedLimit, "cudaDeviceSetLimit", "limit %d is not one of CUDA's", limit);
    if (limit == 5 && (value > 128 || (value & (value - 1)))) /* cudaLimitMaxL2FetchGranularity */
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceSetLimit",
                       "the L2 fetch granularity must be a power of two of at most 128 bytes, not %zu", value);
    rt_limits[limit] = value;
    warpsim_set_device_runtime_limits(rt_sim, rt_limits[4], rt_limits[2]);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    ENTER("cudaDeviceGetLimit");
    if (!value)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetLimit", "null pointer");
    if (limit < 0 || limit >= RT_N_LIMITS)
        return rt_fail(cudaErrorUnsupportedLimit, "cudaDeviceGetLimit", "limit %d is not one of CUDA's", limit);
    *value = rt_limits[limit];
    return cudaSuccess;
}

/* The profiler's range markers: warpsim's statistics always cover the whole run. */
cudaError_t cudaProfilerStart(void)
{
    ENTER("cudaProfilerStart");
    return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
    ENTER("cudaProfilerStop");
    return cudaSuccess;
}
