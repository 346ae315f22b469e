/* device_attr.c: the device attributes of the simulated machine (enum cudaDeviceAttr, which the
 * driver's CUdevice_attribute numbers alike), for cudaDeviceGetAttribute and cuDeviceGetAttribute
 * both, so that the two libraries report one device. */
#include "api/device_attr.h"

#include "api/runtime_internal.h"

#include <stddef.h>

/* The device attributes answered (enum cudaDeviceAttr). */
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
    ATTR_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST = 101, ATTR_MAX_PERSISTING_L2 = 108, ATTR_MAX_ACCESS_POLICY_WINDOW = 109,
    ATTR_TCC_DRIVER = 35, ATTR_MULTI_GPU_BOARD = 84, ATTR_MULTI_GPU_BOARD_GROUP = 85, ATTR_HOST_NATIVE_ATOMIC = 86,
    ATTR_COMPUTE_PREEMPTION = 90, ATTR_CAN_FLUSH_REMOTE_WRITES = 98, ATTR_PAGEABLE_USES_HOST_PAGE_TABLES = 100,
    ATTR_RESERVED_SHARED_PER_BLOCK = 111, ATTR_SPARSE_ARRAY = 112, ATTR_HOST_REGISTER_READ_ONLY = 113,
    ATTR_TIMELINE_SEMAPHORE_INTEROP = 114, ATTR_GPU_DIRECT_RDMA = 116, ATTR_GPU_DIRECT_RDMA_FLUSH = 117,
    ATTR_GPU_DIRECT_RDMA_ORDERING = 118, ATTR_POOL_HANDLE_TYPES = 119, ATTR_CLUSTER_LAUNCH = 120,
    ATTR_DEFERRED_MAPPING_ARRAY = 121, ATTR_IPC_EVENT = 125, ATTR_MEM_SYNC_DOMAIN_COUNT = 126, ATTR_NUMA_CONFIG = 130,
    ATTR_NUMA_ID = 131, ATTR_MPS_ENABLED = 133, ATTR_HOST_NUMA_ID = 134, ATTR_D3D12_CIG = 135, ATTR_VULKAN_CIG = 138,
    ATTR_GPU_PCI_DEVICE_ID = 139, ATTR_GPU_PCI_SUBSYSTEM_ID = 140, ATTR_HOST_NUMA_POOLS = 142,
    ATTR_HOST_NUMA_MULTINODE_IPC = 143, ATTR_HOST_POOLS = 144, ATTR_PARTIAL_HOST_NATIVE_ATOMIC = 147
};

/* The texture and surface size limits a program sizes its arrays by, as CUDA's technical
 * specifications give them per generation: Fermi (compute capability 2.x), Kepler (3.x) and
 * Maxwell on (5.0 and later; the values of Pascal, Volta, Turing and Ampere, which the
 * presets' machines are). 0: the generation has no such texture. The simulated arrays
 * themselves are bounded by memory only. */
static const struct {
    int attr, limit[3];
} tex_limits[] = {
    {21, {65536, 65536, 131072}},         /* MaxTexture1DWidth */
    {22, {65536, 65536, 131072}},         /* MaxTexture2DWidth */
    {23, {65535, 65536, 65536}},          /* MaxTexture2DHeight */
    {24, {2048, 4096, 16384}},            /* MaxTexture3DWidth */
    {25, {2048, 4096, 16384}},            /* MaxTexture3DHeight */
    {26, {2048, 4096, 16384}},            /* MaxTexture3DDepth */
    {27, {16384, 16384, 32768}},          /* MaxTexture2DLayeredWidth */
    {28, {16384, 16384, 32768}},          /* MaxTexture2DLayeredHeight */
    {29, {2048, 2048, 2048}},             /* MaxTexture2DLayeredLayers */
    {30, {512, 512, 512}},                /* SurfaceAlignment */
    {42, {16384, 16384, 32768}},          /* MaxTexture1DLayeredWidth */
    {43, {2048, 2048, 2048}},             /* MaxTexture1DLayeredLayers */
    {45, {16384, 16384, 32768}},          /* MaxTexture2DGatherWidth */
    {46, {16384, 16384, 32768}},          /* MaxTexture2DGatherHeight */
    {47, {0, 2048, 8192}},                /* MaxTexture3DWidthAlt */
    {48, {0, 2048, 8192}},                /* MaxTexture3DHeightAlt */
    {49, {0, 16384, 32768}},              /* MaxTexture3DDepthAlt */
    {52, {16384, 16384, 32768}},          /* MaxTextureCubemapWidth */
    {53, {16384, 16384, 32768}},          /* MaxTextureCubemapLayeredWidth */
    {54, {2046, 2046, 2046}},             /* MaxTextureCubemapLayeredLayers */
    {55, {65536, 65536, 32768}},          /* MaxSurface1DWidth */
    {56, {65536, 65536, 131072}},         /* MaxSurface2DWidth */
    {57, {32768, 32768, 65536}},          /* MaxSurface2DHeight */
    {58, {65536, 65536, 16384}},          /* MaxSurface3DWidth */
    {59, {32768, 32768, 16384}},          /* MaxSurface3DHeight */
    {60, {2048, 2048, 16384}},            /* MaxSurface3DDepth */
    {61, {65536, 65536, 32768}},          /* MaxSurface1DLayeredWidth */
    {62, {2048, 2048, 2048}},             /* MaxSurface1DLayeredLayers */
    {63, {65536, 65536, 32768}},          /* MaxSurface2DLayeredWidth */
    {64, {32768, 32768, 32768}},          /* MaxSurface2DLayeredHeight */
    {65, {2048, 2048, 2048}},             /* MaxSurface2DLayeredLayers */
    {66, {32768, 32768, 32768}},          /* MaxSurfaceCubemapWidth */
    {67, {32768, 32768, 32768}},          /* MaxSurfaceCubemapLayeredWidth */
    {68, {2046, 2046, 2046}},             /* MaxSurfaceCubemapLayeredLayers */
    {70, {65000, 65000, 131072}},         /* MaxTexture2DLinearWidth */
    {71, {65000, 65000, 65000}},          /* MaxTexture2DLinearHeight */
    {72, {1048544, 1048544, 2097120}},    /* MaxTexture2DLinearPitch */
    {73, {16384, 16384, 32768}},          /* MaxTexture2DMipmappedWidth */
    {74, {16384, 16384, 32768}},          /* MaxTexture2DMipmappedHeight */
    {77, {16384, 16384, 32768}},          /* MaxTexture1DMipmappedWidth */
};

static int tex_limit(const WarpsimDeviceInfo *di, int attr, bool *found)
{
    int gen = di->cc_major < 3 ? 0 : di->cc_major < 5 ? 1 : 2;
    for (size_t i = 0; i < sizeof tex_limits / sizeof tex_limits[0]; i++)
        if (tex_limits[i].attr == attr) {
            *found = true;
            return tex_limits[i].limit[gen];
        }
    *found = false;
    return 0;
}

/* Persisting L2 (access policy windows, cudaLimitPersistingL2CacheSize) is a feature of compute
 * capability 8.0 and later; there the device reports what an A100 does (3/4 of its L2 may
 * persist, windows up to 128 MiB - 4 KiB) and the runtime accepts the hints, which change
 * nothing: the modelled L2 has no persisting lines. Below 8.0 it reports 0, as such GPUs do. */
void api_persisting_l2(const WarpsimDeviceInfo *di, int *max_bytes, int *max_window)
{
    bool has = di->cc_major >= 8;
    *max_bytes = has ? (int)(di->l2_bytes / 4 * 3) : 0;
    *max_window = has ? 134213632 : 0;
}

void api_device_uuid(const WarpsimDeviceInfo *di, unsigned char uuid[16])
{
    uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull}; /* FNV-1a, two seeds */
    for (int k = 0; k < 2; k++) {
        for (const char *c = di->name; *c; c++)
            h[k] = (h[k] ^ (unsigned char)*c) * 0x100000001b3ull;
        h[k] = (h[k] ^ (di->cc_major * 10 + di->cc_minor)) * 0x100000001b3ull;
    }
    for (int i = 0; i < 16; i++)
        uuid[i] = (unsigned char)(h[i / 8] >> (8 * (i % 8)));
    uuid[6] = (unsigned char)((uuid[6] & 0x0f) | 0x50); /* version 5 (name-based) */
    uuid[8] = (unsigned char)((uuid[8] & 0x3f) | 0x80); /* the RFC 4122 variant */
}

/* cudaDevAttrNAME of an attribute value, or NULL when CUDA 13 has none. */
const char *api_device_attr_name(int attr)
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

ApiAttrStatus api_device_attribute(const WarpsimDeviceInfo *di, int attr, int *value)
{
    int v;
    switch (attr) {
    case ATTR_MAX_THREADS_PER_BLOCK: case ATTR_MAX_BLOCK_DIM_X: case ATTR_MAX_BLOCK_DIM_Y:
        v = (int)di->max_threads_per_cta; break;
    case ATTR_MAX_BLOCK_DIM_Z: v = RT_MAX_BLOCK_Z; break;
    case ATTR_MAX_GRID_DIM_X: v = RT_MAX_GRID_X; break;
    case ATTR_MAX_GRID_DIM_Y: case ATTR_MAX_GRID_DIM_Z: v = RT_MAX_GRID_YZ; break;
    case ATTR_MAX_SHARED_PER_BLOCK: case ATTR_MAX_SHARED_PER_SM: case ATTR_MAX_SHARED_PER_BLOCK_OPTIN:
        v = (int)di->smem_per_sm; break;
    case ATTR_TOTAL_CONSTANT_MEMORY: v = RT_CONST_BYTES; break;
    case ATTR_WARP_SIZE: v = 32; break;
    case ATTR_MAX_PITCH: v = 0x7fffffff; break;
    case ATTR_MAX_REGS_PER_BLOCK: case ATTR_MAX_REGS_PER_SM: v = (int)di->regs_per_sm; break;
    case ATTR_CLOCK_RATE: v = (int)di->core_mhz * 1000; break; /* kHz */
    case ATTR_MEMORY_CLOCK_RATE: v = (int)di->mem_mhz * 1000; break;
    case ATTR_TEXTURE_ALIGNMENT: v = 512; break;
    case ATTR_MULTIPROCESSOR_COUNT: v = (int)di->n_sms; break;
    case ATTR_BUS_WIDTH: v = (int)di->bus_bits; break;
    case ATTR_L2_CACHE_SIZE: v = (int)di->l2_bytes; break;
    case ATTR_MAX_THREADS_PER_SM: v = (int)di->max_threads_per_sm; break;
    case ATTR_MAX_BLOCKS_PER_SM: v = (int)di->max_ctas_per_sm; break;
    case ATTR_CC_MAJOR: v = (int)di->cc_major; break;
    case ATTR_CC_MINOR: v = (int)di->cc_minor; break;
    case ATTR_UNIFIED_ADDRESSING: case ATTR_GLOBAL_L1_CACHE: case ATTR_LOCAL_L1_CACHE: v = 1; break;
    case ATTR_MAX_TEXTURE_1D_LINEAR_WIDTH: v = 1 << 27; break;
    case ATTR_GPU_OVERLAP: case ATTR_ASYNC_ENGINE_COUNT: v = 1; break; /* as asyncEngineCount above */
    case ATTR_MEMORY_POOLS_SUPPORTED: v = 1; break; /* as memoryPoolsSupported above */
    case ATTR_HOST_REGISTER: v = 1; break;
    case ATTR_CAN_MAP_HOST_MEMORY: case ATTR_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM: v = 1; break; /* as below */
    case ATTR_MANAGED_MEMORY: case ATTR_CONCURRENT_MANAGED_ACCESS: case ATTR_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST:
        v = 1; break;
    case ATTR_COOPERATIVE_LAUNCH: v = di->cc_major >= 6; break; /* cudaLaunchCooperativeKernel (runtime_launch.c) */
    case ATTR_TEXTURE_PITCH_ALIGNMENT: v = RT_PITCH_ALIGN; break;
    case ATTR_MAX_PERSISTING_L2: case ATTR_MAX_ACCESS_POLICY_WINDOW: {
        int bytes, window;
        api_persisting_l2(di, &bytes, &window);
        v = attr == ATTR_MAX_PERSISTING_L2 ? bytes : window;
        break;
    }
    case ATTR_KERNEL_EXEC_TIMEOUT: case ATTR_INTEGRATED:
    case ATTR_COMPUTE_MODE: case ATTR_CONCURRENT_KERNELS: case ATTR_ECC_ENABLED: case ATTR_PCI_BUS_ID:
    case ATTR_PCI_DEVICE_ID: case ATTR_PCI_DOMAIN_ID: case ATTR_PAGEABLE_MEMORY_ACCESS:
    case ATTR_STREAM_PRIORITIES:
        v = 0; break;
    /* Compute preemption came with Pascal. */
    case ATTR_COMPUTE_PREEMPTION: v = di->cc_major >= 6; break;
    /* A discrete board of one GPU on PCIe, without NUMA memory, MPS or the features of
     * interconnects and interop the simulator has no model of (RDMA, sparse and
     * deferred-mapping arrays, host memory pools, clusters, which compute capability 9.0 adds),
     * and one memory synchronisation domain, as GPUs before 9.0. Interprocess memory and
     * events work between processes of one machine (runtime_ipc.c), pools shared by POSIX
     * file descriptor (cudaMemHandleTypePosixFileDescriptor, runtime_pool.c). */
    case ATTR_MEM_SYNC_DOMAIN_COUNT: case ATTR_IPC_EVENT: case ATTR_POOL_HANDLE_TYPES: v = 1; break;
    case ATTR_NUMA_ID: case ATTR_HOST_NUMA_ID: v = -1; break;
    case ATTR_TCC_DRIVER: case ATTR_MULTI_GPU_BOARD: case ATTR_MULTI_GPU_BOARD_GROUP:
    case ATTR_HOST_NATIVE_ATOMIC: case ATTR_CAN_FLUSH_REMOTE_WRITES: case ATTR_PAGEABLE_USES_HOST_PAGE_TABLES:
    case ATTR_RESERVED_SHARED_PER_BLOCK: case ATTR_SPARSE_ARRAY: case ATTR_HOST_REGISTER_READ_ONLY:
    case ATTR_TIMELINE_SEMAPHORE_INTEROP: case ATTR_GPU_DIRECT_RDMA: case ATTR_GPU_DIRECT_RDMA_FLUSH:
    case ATTR_GPU_DIRECT_RDMA_ORDERING: case ATTR_CLUSTER_LAUNCH:
    case ATTR_DEFERRED_MAPPING_ARRAY: case ATTR_NUMA_CONFIG: case ATTR_MPS_ENABLED:
    case ATTR_D3D12_CIG: case ATTR_VULKAN_CIG: case ATTR_GPU_PCI_DEVICE_ID: case ATTR_GPU_PCI_SUBSYSTEM_ID:
    case ATTR_HOST_NUMA_POOLS: case ATTR_HOST_NUMA_MULTINODE_IPC: case ATTR_HOST_POOLS:
    case ATTR_PARTIAL_HOST_NATIVE_ATOMIC:
        v = 0; break;
    default: {
        bool found;
        v = tex_limit(di, attr, &found);
        if (!found)
            return api_device_attr_name(attr) ? API_ATTR_NOT_MODELLED : API_ATTR_UNKNOWN;
    }
    }
    *value = v;
    return API_ATTR_OK;
}
