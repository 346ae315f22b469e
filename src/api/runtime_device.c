/* runtime_device.c: the device of warpsim's libcudart replacement (see runtime.c).
 *
 * One device, number 0, whose properties and attributes are the configured machine's (SM
 * count, clocks, threads, registers, shared memory, L2) with the compute capability of the
 * PTX nvcc 13 emits by default. Synchronisation has nothing to wait for; cudaDeviceReset frees
 * the program's allocations and texture objects and clears the errors. */
#include "api/runtime_internal.h"

#include "base/base.h"

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

/* Device attributes (enum cudaDeviceAttr) that cudaDeviceGetAttribute answers. */
enum {
    ATTR_MAX_THREADS_PER_BLOCK = 1, ATTR_MAX_BLOCK_DIM_X = 2, ATTR_MAX_BLOCK_DIM_Y = 3, ATTR_MAX_BLOCK_DIM_Z = 4,
    ATTR_MAX_GRID_DIM_X = 5, ATTR_MAX_GRID_DIM_Y = 6, ATTR_MAX_GRID_DIM_Z = 7, ATTR_MAX_SHARED_PER_BLOCK = 8,
    ATTR_TOTAL_CONSTANT_MEMORY = 9, ATTR_WARP_SIZE = 10, ATTR_MAX_PITCH = 11, ATTR_MAX_REGS_PER_BLOCK = 12,
    ATTR_CLOCK_RATE = 13, ATTR_TEXTURE_ALIGNMENT = 14, ATTR_GPU_OVERLAP = 15, ATTR_MULTIPROCESSOR_COUNT = 16,
    ATTR_KERNEL_EXEC_TIMEOUT = 17, ATTR_INTEGRATED = 18, ATTR_CAN_MAP_HOST_MEMORY = 19, ATTR_COMPUTE_MODE = 20,
    ATTR_CONCURRENT_KERNELS = 31, ATTR_ECC_ENABLED = 32, ATTR_PCI_BUS_ID = 33, ATTR_PCI_DEVICE_ID = 34,
    ATTR_MEMORY_CLOCK_RATE = 36, ATTR_BUS_WIDTH = 37, ATTR_L2_CACHE_SIZE = 38, ATTR_MAX_THREADS_PER_SM = 39,
    ATTR_ASYNC_ENGINE_COUNT = 40, ATTR_UNIFIED_ADDRESSING = 41, ATTR_PCI_DOMAIN_ID = 50,
    ATTR_MAX_TEXTURE_1D_LINEAR_WIDTH = 69, ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76,
    ATTR_GLOBAL_L1_CACHE = 79, ATTR_LOCAL_L1_CACHE = 80, ATTR_MAX_SHARED_PER_SM = 81, ATTR_MAX_REGS_PER_SM = 82,
    ATTR_MANAGED_MEMORY = 83, ATTR_COOPERATIVE_LAUNCH = 95, ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 97,
    ATTR_MEMORY_POOLS_SUPPORTED = 115, ATTR_TEXTURE_PITCH_ALIGNMENT = 51, ATTR_STREAM_PRIORITIES = 78,
    ATTR_HOST_REGISTER = 99, ATTR_MAX_BLOCKS_PER_SM = 106, ATTR_CONCURRENT_MANAGED_ACCESS = 89,
    ATTR_PAGEABLE_MEMORY_ACCESS = 88, ATTR_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM = 91,
    ATTR_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST = 101, ATTR_MAX_PERSISTING_L2 = 108, ATTR_MAX_ACCESS_POLICY_WINDOW = 109
};

/* Persisting L2 (access policy windows, cudaLimitPersistingL2CacheSize) is a feature of compute
 * capability 8.0 and later; there the device reports what an A100 does (3/4 of its L2 may
 * persist, windows up to 128 MiB - 4 KiB) and the runtime accepts the hints, which change
 * nothing: the modelled L2 has no persisting lines. Below 8.0 it reports 0, as such GPUs do. */
static void persisting_l2(const WarpsimDeviceInfo *di, int *max_bytes, int *max_window)
{
    bool has = di->cc_major >= 8;
    *max_bytes = has ? (int)(di->l2_bytes / 4 * 3) : 0;
    *max_window = has ? 134213632 : 0;
}

/* What the runtime reports about the device beyond the configured machine. */
#define RT_VERSION 13000 /* CUDA 13.0, for cudaRuntimeGetVersion and cudaDriverGetVersion */
#define RT_CONST_BYTES 65536

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

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    cudaError_t e = device_query("cudaGetDeviceProperties", prop, device);
    if (e != cudaSuccess)
        return e;
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "%s", di.name);
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
    persisting_l2(&di, &prop->persistingL2CacheMaxSize, &prop->accessPolicyMaxWindowSize);
    return cudaSuccess;
}

/* The CUDA 12 name of the same call. */
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device)
{
    return cudaGetDeviceProperties(prop, device);
}

/* cudaDevAttrNAME of an attribute value, or NULL when CUDA 13 has none. */
static const char *attr_name(int attr)
{
    static const struct { int value; const char *name; } names[] = {
#define DEVICE_ATTR(v, n) {v, "cudaDevAttr" #n},
#include "api/device_attrs.def"
#undef DEVICE_ATTR
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].value == attr)
            return names[i].name;
    return NULL;
}

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    cudaError_t e = device_query("cudaDeviceGetAttribute", value, device);
    if (e != cudaSuccess)
        return e;
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    int v;
    switch (attr) {
    case ATTR_MAX_THREADS_PER_BLOCK: case ATTR_MAX_BLOCK_DIM_X: case ATTR_MAX_BLOCK_DIM_Y:
        v = (int)di.max_threads_per_cta; break;
    case ATTR_MAX_BLOCK_DIM_Z: v = RT_MAX_BLOCK_Z; break;
    case ATTR_MAX_GRID_DIM_X: v = RT_MAX_GRID_X; break;
    case ATTR_MAX_GRID_DIM_Y: case ATTR_MAX_GRID_DIM_Z: v = RT_MAX_GRID_YZ; break;
    case ATTR_MAX_SHARED_PER_BLOCK: case ATTR_MAX_SHARED_PER_SM: case ATTR_MAX_SHARED_PER_BLOCK_OPTIN:
        v = (int)di.smem_per_sm; break;
    case ATTR_TOTAL_CONSTANT_MEMORY: v = RT_CONST_BYTES; break;
    case ATTR_WARP_SIZE: v = 32; break;
    case ATTR_MAX_PITCH: v = 0x7fffffff; break;
    case ATTR_MAX_REGS_PER_BLOCK: case ATTR_MAX_REGS_PER_SM: v = (int)di.regs_per_sm; break;
    case ATTR_CLOCK_RATE: v = (int)di.core_mhz * 1000; break; /* kHz */
    case ATTR_MEMORY_CLOCK_RATE: v = (int)di.mem_mhz * 1000; break;
    case ATTR_TEXTURE_ALIGNMENT: v = 512; break;
    case ATTR_MULTIPROCESSOR_COUNT: v = (int)di.n_sms; break;
    case ATTR_BUS_WIDTH: v = (int)di.bus_bits; break;
    case ATTR_L2_CACHE_SIZE: v = (int)di.l2_bytes; break;
    case ATTR_MAX_THREADS_PER_SM: v = (int)di.max_threads_per_sm; break;
    case ATTR_MAX_BLOCKS_PER_SM: v = (int)di.max_ctas_per_sm; break;
    case ATTR_CC_MAJOR: v = (int)di.cc_major; break;
    case ATTR_CC_MINOR: v = (int)di.cc_minor; break;
    case ATTR_UNIFIED_ADDRESSING: case ATTR_GLOBAL_L1_CACHE: case ATTR_LOCAL_L1_CACHE: v = 1; break;
    case ATTR_MAX_TEXTURE_1D_LINEAR_WIDTH: v = 1 << 27; break;
    case ATTR_GPU_OVERLAP: case ATTR_ASYNC_ENGINE_COUNT: v = 1; break; /* as asyncEngineCount above */
    case ATTR_MEMORY_POOLS_SUPPORTED: v = 1; break; /* as memoryPoolsSupported above */
    case ATTR_HOST_REGISTER: v = 1; break;
    case ATTR_CAN_MAP_HOST_MEMORY: case ATTR_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM: v = 1; break; /* as below */
    case ATTR_MANAGED_MEMORY: case ATTR_CONCURRENT_MANAGED_ACCESS: case ATTR_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST:
        v = 1; break;
    case ATTR_COOPERATIVE_LAUNCH: v = di.cc_major >= 6; break; /* cudaLaunchCooperativeKernel (runtime_launch.c) */
    case ATTR_TEXTURE_PITCH_ALIGNMENT: v = RT_PITCH_ALIGN; break;
    case ATTR_MAX_PERSISTING_L2: case ATTR_MAX_ACCESS_POLICY_WINDOW: {
        int bytes, window;
        persisting_l2(&di, &bytes, &window);
        v = attr == ATTR_MAX_PERSISTING_L2 ? bytes : window;
        break;
    }
    case ATTR_KERNEL_EXEC_TIMEOUT: case ATTR_INTEGRATED:
    case ATTR_COMPUTE_MODE: case ATTR_CONCURRENT_KERNELS: case ATTR_ECC_ENABLED: case ATTR_PCI_BUS_ID:
    case ATTR_PCI_DEVICE_ID: case ATTR_PCI_DOMAIN_ID: case ATTR_PAGEABLE_MEMORY_ACCESS:
    case ATTR_STREAM_PRIORITIES:
        v = 0; break;
    default:
        if (!attr_name(attr))
            return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "%d is not a CUDA device attribute", attr);
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "%s (%d) is not modelled", attr_name(attr),
                       attr);
    }
    *value = v;
    return cudaSuccess;
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
 * defaults, kept and reported back. None of them constrains a simulated kernel: warpsim sizes
 * local memory (the stack) from each kernel's own needs, and device-side malloc, printf's FIFO,
 * dynamic parallelism and L2 persistence are not modelled (docs/cuda.md). */
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
