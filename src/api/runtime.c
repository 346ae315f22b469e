/* runtime.c: warpsim's replacement for the CUDA runtime library (libcudart.so.13).
 *
 * Programs built by nvcc 13 with -cudart shared run unmodified on the simulated GPU. nvcc's
 * generated constructors register each object's fat binary, kernels and variables
 * (__cudaRegisterFatBinary, __cudaRegisterFunction, __cudaRegisterVar; see docs/fatbin.md); a
 * kernel is known by the address of its host stub, a variable by that of its host shadow. A
 * fat binary is only parsed at registration: its PTX (the highest-arch entry) is loaded into the
 * simulator, with the register counts ptxas chose read from its cubin, the first time one of
 * its kernels or variables is used. A fat binary nobody uses costs nothing, and a corrupt one
 * fails exactly the calls that need it, with cudaErrorInvalidKernelImage.
 *
 * One device, synchronous: every launch and copy completes before the call returns, streams
 * are accepted and ignored, and an event holds the simulated time at which it was recorded.
 * Errors follow the runtime's rules: a failing call prints a message on stderr, returns its
 * cudaError_t and records it as the last error (cudaGetLastError reads and clears it); a kernel
 * that faults leaves a sticky error that every later call returns until cudaDeviceReset. The
 * simulator is configured from WARPSIM_ARGS on first use and writes its results at exit; after
 * that, calls (from destructors) return cudaErrorCudartUnloading. Not thread-safe: one host
 * thread drives the device. The types below mirror the layouts of CUDA 13's headers
 * (driver_types.h, texture_types.h), checked by the static assertions. */
#include "warpsim.h"

#include "base/base.h"
#include "front/fatbin/fatbin.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The exported functions' prototypes are NVIDIA's (cuda_runtime_api.h), which need not be
 * installed where warpsim builds; the definitions below follow them. */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"

/* ---- the ABI: CUDA 13's types, as far as this library reads or writes them ---- */

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidChannelDescriptor = 20,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorMissingConfiguration = 52,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidPtx = 218,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorSymbolNotFound = 500,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999,
} cudaError_t;

typedef struct dim3 {
    unsigned x, y, z;
} dim3;

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUkern_st *cudaKernel_t;
typedef unsigned long long cudaTextureObject_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaChannelFormatKind { cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned, cudaChannelFormatKindFloat };
enum { cudaResourceTypeLinear = 2 };
enum { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum { cudaEventDisableTiming = 2 };

struct cudaChannelFormatDesc {
    int x, y, z, w;
    int f; /* enum cudaChannelFormatKind */
};

struct cudaResourceDesc {
    int resType;
    union {
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        int reserved[32];
    } res;
    unsigned flags;
};

struct cudaTextureDesc {
    int addressMode[3];
    int filterMode;
    int readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;
    int maxDynamicSharedSizeBytes, preferredShmemCarveout, clusterDimMustBeSet;
    int requiredClusterWidth, requiredClusterHeight, requiredClusterDepth;
    int clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
    int reserved[16];
};

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
_Static_assert(sizeof(struct cudaFuncAttributes) == 144, "cudaFuncAttributes layout");
_Static_assert(sizeof(struct cudaResourceDesc) == 144, "cudaResourceDesc layout");
_Static_assert(offsetof(struct cudaResourceDesc, res.linear.sizeInBytes) == 40, "cudaResourceDesc layout");
_Static_assert(sizeof(struct cudaTextureDesc) == 72, "cudaTextureDesc layout");
_Static_assert(offsetof(struct cudaTextureDesc, normalizedCoords) == 40, "cudaTextureDesc layout");

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
    ATTR_MAX_BLOCKS_PER_SM = 106
};

/* What the runtime reports about the device beyond the configured machine: the PTX is
 * compute_75's (nvcc 13's default), whatever machine the configuration models. */
#define RT_CC_MAJOR 7
#define RT_CC_MINOR 5
#define RT_VERSION 13000 /* CUDA 13.0, for cudaRuntimeGetVersion and cudaDriverGetVersion */
#define RT_CONST_BYTES 65536
#define RT_MAX_GRID_X 0x7fffffff
#define RT_MAX_GRID_YZ 65535
#define RT_MAX_BLOCK_Z 64

const char *cudaGetErrorName(cudaError_t error); /* runtime_errors.c */

/* ---- state ---- */

/* One registered fat binary (the handle nvcc's code holds). */
typedef struct RtModule {
    uint32_t index;          /* 1, 2, ... in registration order, for its name */
    uint32_t wrapper_version;
    Fatbin fb;               /* borrows the program's .nv_fatbin section */
    bool bad;                /* the container did not parse: err says why */
    char err[512];
    WarpsimModule *m;        /* loaded on first use */
    cudaError_t load_error;  /* a failed load, given again on every use */
    uint32_t ptx_arch;
    struct RtModule *next;
} RtModule;

/* A kernel, known to the program by its host stub's address. */
struct CUkern_st {
    const void *host_fun;
    char *name;              /* mangled, as in the PTX */
    RtModule *mod;
    WarpsimKernelInfo info;  /* valid once the module is loaded */
    bool have_info;
    struct CUkern_st *next;
};
typedef struct CUkern_st RtKernel;

/* A __device__ or __constant__ variable, known by its host shadow's address. */
typedef struct RtVar {
    const void *host_var;
    char *name;
    RtModule *mod;
    size_t size;
    uint64_t addr;           /* once the module is loaded */
    struct RtVar *next;
} RtVar;

/* Device memory the program may name: allocations and module variables, sorted by address,
 * to check copies and to tell device from host pointers (cudaMemcpyDefault). */
typedef struct DevRange {
    uint64_t addr, size;
    bool symbol;
} DevRange;

struct CUstream_st {
    int unused;
};
struct CUevent_st {
    double ns;     /* simulated time when recorded; < 0: never recorded */
    unsigned flags;
};

typedef struct CallConfig {
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
} CallConfig;

#define RT_MAX_CALL_DEPTH 16

static WarpsimSim *rt_sim;
static bool rt_unloading;               /* the simulator has written its results */
static cudaError_t rt_last, rt_sticky;  /* last error; a kernel fault that stays */
static RtModule *rt_modules;
static uint32_t rt_n_modules;
static RtKernel *rt_kernels;
static RtVar *rt_vars;
static DevRange *rt_ranges;
static uint32_t rt_n_ranges, rt_cap_ranges;
static uint64_t rt_allocated;           /* bytes of live cudaMalloc allocations */
static void **rt_host_allocs;           /* cudaMallocHost / cudaHostAlloc blocks */
static uint32_t rt_n_host, rt_cap_host;
static uint64_t *rt_textures;           /* live texture objects */
static uint32_t rt_n_textures, rt_cap_textures;
static CallConfig rt_calls[RT_MAX_CALL_DEPTH];
static int rt_n_calls;

/* Record a failure of `call`, print why, and return it. */
static cudaError_t rt_fail(cudaError_t e, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static cudaError_t rt_fail(cudaError_t e, const char *call, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "warpsim: %s: %s (%s)\n", call, msg, cudaGetErrorName(e));
    rt_last = e;
    return e;
}

/* A failure the simulator has already explained on stderr. */
static cudaError_t rt_quiet_fail(cudaError_t e)
{
    rt_last = e;
    return e;
}

static void rt_exit(void)
{
    warpsim_destroy(rt_sim);
    rt_sim = NULL;
    rt_unloading = true;
}

/* The simulator, created on first use. */
static cudaError_t rt_init(const char *call)
{
    if (rt_sim)
        return cudaSuccess;
    if (rt_unloading)
        return rt_quiet_fail(cudaErrorCudartUnloading);
    char err[1024];
    rt_sim = warpsim_create_from_env(err, sizeof err);
    if (!rt_sim)
        return rt_fail(cudaErrorInitializationError, call, "WARPSIM_ARGS: %s", err);
    atexit(rt_exit);
    return cudaSuccess;
}

/* Every call that touches the device starts here: the simulator exists and no kernel has
 * faulted (a sticky error is returned again, as CUDA does until cudaDeviceReset). */
#define ENTER(call)                                                                                     \
    do {                                                                                                \
        cudaError_t e_ = rt_init(call);                                                                 \
        if (e_ != cudaSuccess)                                                                          \
            return e_;                                                                                  \
        if (rt_sticky != cudaSuccess)                                                                   \
            return rt_quiet_fail(rt_sticky);                                                            \
    } while (0)

static cudaError_t rt_status(WarpsimStatus st)
{
    switch (st) {
    case WARPSIM_OK: return cudaSuccess;
    case WARPSIM_E_INPUT: return rt_quiet_fail(cudaErrorInvalidValue);
    case WARPSIM_E_PTX: return rt_quiet_fail(cudaErrorInvalidPtx);
    case WARPSIM_E_NOT_FOUND: return rt_quiet_fail(cudaErrorSymbolNotFound);
    case WARPSIM_E_LAUNCH: return rt_quiet_fail(cudaErrorLaunchOutOfResources);
    case WARPSIM_E_FAULT:
    case WARPSIM_E_DEADLOCK: return rt_quiet_fail(rt_sticky = cudaErrorLaunchFailure);
    case WARPSIM_E_CYCLE_LIMIT: return rt_quiet_fail(rt_sticky = cudaErrorLaunchTimeout);
    }
    return rt_quiet_fail(cudaErrorUnknown);
}

/* ---- device ranges ---- */

/* Index of the first range whose address is above addr. */
static uint32_t range_upper(uint64_t addr)
{
    uint32_t lo = 0, hi = rt_n_ranges;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (rt_ranges[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The range holding [addr, addr + n) (n >= 1), or NULL. */
static const DevRange *range_find(uint64_t addr, uint64_t n)
{
    uint32_t i = range_upper(addr);
    if (i == 0)
        return NULL;
    const DevRange *r = &rt_ranges[i - 1];
    if (addr - r->addr >= r->size || n > r->size - (addr - r->addr))
        return NULL;
    return r;
}

static void range_add(uint64_t addr, uint64_t size, bool symbol)
{
    if (rt_n_ranges == rt_cap_ranges) {
        rt_cap_ranges = rt_cap_ranges ? 2 * rt_cap_ranges : 64;
        rt_ranges = xrealloc(rt_ranges, rt_cap_ranges * sizeof *rt_ranges);
    }
    uint32_t i = range_upper(addr);
    memmove(&rt_ranges[i + 1], &rt_ranges[i], (rt_n_ranges - i) * sizeof *rt_ranges);
    rt_ranges[i] = (DevRange){addr, size ? size : 1, symbol};
    rt_n_ranges++;
}

static void range_remove_at(uint32_t i)
{
    memmove(&rt_ranges[i], &rt_ranges[i + 1], (rt_n_ranges - i - 1) * sizeof *rt_ranges);
    rt_n_ranges--;
}

/* Index of the range starting exactly at addr, or -1. */
static int64_t range_at(uint64_t addr)
{
    uint32_t i = range_upper(addr);
    return i > 0 && rt_ranges[i - 1].addr == addr ? (int64_t)i - 1 : -1;
}

static bool is_device(const void *p)
{
    return p && range_find((uint64_t)(uintptr_t)p, 1) != NULL;
}

/* ---- registration (called from nvcc's constructors, before main) ---- */

void **__cudaRegisterFatBinary(void *fatCubin)
{
    RtModule *mod = xcalloc(1, sizeof *mod);
    mod->index = ++rt_n_modules;
    if (!fatbin_parse_wrapper(fatCubin, &mod->fb, mod->err, sizeof mod->err)) {
        mod->bad = true;
        fprintf(stderr, "warpsim: __cudaRegisterFatBinary: %s; the kernels and variables of this fat binary "
                        "cannot be used\n", mod->err);
    } else {
        mod->wrapper_version = ((const uint32_t *)fatCubin)[1];
    }
    mod->next = rt_modules;
    rt_modules = mod;
    return (void **)mod;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
}

char __cudaInitModule(void **fatCubinHandle)
{
    return 1;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, void *tid, void *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    if (!fatCubinHandle || !deviceName) {
        fprintf(stderr, "warpsim: __cudaRegisterFunction: %s\n", !deviceName ? "no kernel name" : "no fat binary");
        return;
    }
    RtKernel *k = xcalloc(1, sizeof *k);
    k->host_fun = hostFun;
    k->name = xstrdup(deviceName);
    k->mod = (RtModule *)fatCubinHandle;
    k->next = rt_kernels;
    rt_kernels = k;
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global)
{
    if (!fatCubinHandle || !deviceName) {
        fprintf(stderr, "warpsim: __cudaRegisterVar: %s\n", !deviceName ? "no variable name" : "no fat binary");
        return;
    }
    RtVar *v = xcalloc(1, sizeof *v);
    v->host_var = hostVar;
    v->name = xstrdup(deviceName);
    v->mod = (RtModule *)fatCubinHandle;
    v->size = size;
    v->next = rt_vars;
    rt_vars = v;
}

void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global)
{
    fprintf(stderr, "warpsim: __managed__ variable '%s': managed memory is not supported\n",
            deviceName ? deviceName : "?");
}

void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    RtModule *mod = (RtModule *)fatCubinHandle;
    for (RtKernel **p = &rt_kernels; *p;) {
        RtKernel *k = *p;
        if (k->mod != mod) {
            p = &k->next;
            continue;
        }
        *p = k->next;
        free(k->name);
        free(k);
    }
    for (RtVar **p = &rt_vars; *p;) {
        RtVar *v = *p;
        if (v->mod != mod) {
            p = &v->next;
            continue;
        }
        *p = v->next;
        int64_t i = v->addr ? range_at(v->addr) : -1;
        if (i >= 0)
            range_remove_at((uint32_t)i);
        free(v->name);
        free(v);
    }
    for (RtModule **p = &rt_modules; *p; p = &(*p)->next)
        if (*p == mod) {
            *p = mod->next;
            break;
        }
    if (mod->m && rt_sim) /* after exit the simulator has freed its modules */
        warpsim_module_unload(rt_sim, mod->m);
    fatbin_free(&mod->fb);
    free(mod);
}

/* ---- loading a fat binary's PTX on first use ---- */

/* Keep a copy of the PTX where WARPSIM_PTX_DIR says: the simulator's messages cite its lines. */
static void save_ptx(const char *name, const char *ptx)
{
    const char *dir = getenv("WARPSIM_PTX_DIR");
    if (!dir || !*dir)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(ptx, f) < 0 || fclose(f) != 0)
        fprintf(stderr, "warpsim: %s: cannot write: %s\n", path, strerror(errno));
}

static cudaError_t module_load(RtModule *mod, const char *call)
{
    if (mod->m)
        return cudaSuccess;
    if (mod->load_error != cudaSuccess)
        return rt_fail(mod->load_error, call, "fat binary %u: %s", mod->index, mod->err);
    if (mod->bad) {
        mod->load_error = cudaErrorInvalidKernelImage;
        return module_load(mod, call);
    }
    char err[512];
    char *ptx = fatbin_extract_ptx(&mod->fb, &mod->ptx_arch, err, sizeof err);
    if (!ptx) {
        bool no_ptx = fatbin_best_entry(&mod->fb, FATBIN_KIND_PTX) < 0;
        mod->load_error = no_ptx ? cudaErrorNoKernelImageForDevice : cudaErrorInvalidKernelImage;
        snprintf(mod->err, sizeof mod->err, "%s%s", err,
                 !no_ptx ? ""
                 : mod->wrapper_version == 2 ? " (relocatable device code, nvcc -rdc, is not supported)"
                 : " (warpsim runs PTX: build with it, e.g. -gencode arch=compute_75,code=[sm_75,compute_75])");
        return module_load(mod, call);
    }
    char name[64];
    snprintf(name, sizeof name, "fatbin%u.compute_%u.ptx", mod->index, mod->ptx_arch);
    save_ptx(name, ptx);
    WarpsimStatus st = warpsim_module_load(rt_sim, ptx, name, &mod->m);
    free(ptx);
    if (st != WARPSIM_OK) { /* the simulator said why */
        mod->load_error = st == WARPSIM_E_PTX ? cudaErrorInvalidPtx : cudaErrorInvalidKernelImage;
        snprintf(mod->err, sizeof mod->err, "%s", warpsim_error(rt_sim));
        return rt_quiet_fail(mod->load_error);
    }
    /* ptxas's register counts, from the cubin beside the PTX (PTX-only fat binaries have none:
     * the simulator then estimates them) */
    bool have_cubin = fatbin_best_entry(&mod->fb, FATBIN_KIND_ELF) >= 0;
    for (RtKernel *k = rt_kernels; k; k = k->next) {
        uint32_t regs;
        if (k->mod != mod)
            continue;
        if (fatbin_kernel_regs(&mod->fb, k->name, &regs, err, sizeof err))
            warpsim_kernel_set_regs(mod->m, k->name, regs);
        else if (have_cubin)
            fprintf(stderr, "warpsim: %s: no register count (%s); using an estimate\n", k->name, err);
    }
    for (RtVar *v = rt_vars; v; v = v->next) {
        uint64_t size = 0;
        if (v->mod != mod || warpsim_symbol(rt_sim, mod->m, v->name, &v->addr, &size) != WARPSIM_OK)
            continue;
        range_add(v->addr, size, true);
    }
    return cudaSuccess;
}

static cudaError_t kernel_ready(RtKernel *k, const char *call)
{
    if (k->have_info)
        return cudaSuccess;
    cudaError_t e = module_load(k->mod, call);
    if (e != cudaSuccess)
        return e;
    if (warpsim_kernel_info(rt_sim, k->mod->m, k->name, &k->info) != WARPSIM_OK)
        return rt_quiet_fail(cudaErrorInvalidDeviceFunction);
    k->have_info = true;
    return cudaSuccess;
}

static RtKernel *kernel_of(const void *func)
{
    for (RtKernel *k = rt_kernels; k; k = k->next)
        if (k->host_fun == func || k == func) /* a host stub, or a cudaKernel_t */
            return k;
    return NULL;
}

static cudaError_t var_of(const void *symbol, const char *call, RtVar **out)
{
    *out = NULL;
    RtVar *v = rt_vars;
    while (v && v->host_var != symbol)
        v = v->next;
    if (!v)
        return rt_fail(cudaErrorInvalidSymbol, call, "%p is not a __device__ or __constant__ variable", symbol);
    cudaError_t e = module_load(v->mod, call);
    if (e != cudaSuccess)
        return e;
    if (!v->addr)
        return rt_fail(cudaErrorInvalidSymbol, call, "variable '%s' is not in the module's PTX", v->name);
    *out = v;
    return cudaSuccess;
}

/* ---- launches ---- */

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

static cudaError_t launch(RtKernel *k, dim3 g, dim3 b, void **args, size_t smem, const char *call)
{
    ENTER(call);
    if (!k)
        return rt_fail(cudaErrorInvalidDeviceFunction, call, "not a registered kernel");
    cudaError_t e = kernel_ready(k, call);
    if (e != cudaSuccess)
        return e;
    const WarpsimKernelInfo *ki = &k->info;
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z)
        return rt_fail(cudaErrorInvalidConfiguration, call, "%s<<<(%u,%u,%u), (%u,%u,%u)>>>: every dimension must be "
                       "at least 1", k->name, g.x, g.y, g.z, b.x, b.y, b.z);
    if (threads > di.max_threads_per_cta || b.z > RT_MAX_BLOCK_Z)
        return rt_fail(cudaErrorInvalidConfiguration, call, "%s: a block of %ux%ux%u threads exceeds the device's "
                       "%u threads per block (and %u in z)", k->name, b.x, b.y, b.z, di.max_threads_per_cta,
                       RT_MAX_BLOCK_Z);
    if (g.x > RT_MAX_GRID_X || g.y > RT_MAX_GRID_YZ || g.z > RT_MAX_GRID_YZ)
        return rt_fail(cudaErrorInvalidConfiguration, call, "%s: a grid of %ux%ux%u blocks exceeds %ux%ux%u", k->name,
                       g.x, g.y, g.z, RT_MAX_GRID_X, RT_MAX_GRID_YZ, RT_MAX_GRID_YZ);
    if (smem + ki->smem_static_bytes > di.smem_per_sm)
        return rt_fail(cudaErrorInvalidValue, call, "%s: %zu bytes of dynamic and %u of static shared memory exceed "
                       "the %u bytes of a block", k->name, smem, ki->smem_static_bytes, di.smem_per_sm);
    if (ki->n_params > 0 && !args)
        return rt_fail(cudaErrorInvalidValue, call, "%s takes %u parameters and none were given", k->name,
                       ki->n_params);
    uint8_t stack_buf[512];
    uint8_t *buf = ki->param_bytes <= sizeof stack_buf ? stack_buf : xmalloc(ki->param_bytes);
    memset(buf, 0, ki->param_bytes);
    for (uint32_t i = 0; i < ki->n_params; i++)
        if (args[i])
            memcpy(buf + ki->param_offset[i], args[i], ki->param_size[i]);
    const uint32_t grid[3] = {g.x, g.y, g.z}, block[3] = {b.x, b.y, b.z};
    e = rt_status(warpsim_launch(rt_sim, k->mod->m, k->name, grid, block, (uint32_t)smem, buf, ki->param_bytes));
    if (buf != stack_buf)
        free(buf);
    return e;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    RtKernel *k = NULL;
    for (RtKernel *p = rt_kernels; p && !k; p = p->next)
        if (p->host_fun == hostFun)
            k = p;
    if (kernel)
        *kernel = k;
    if (!k)
        return rt_fail(cudaErrorInvalidDeviceFunction, "__cudaGetKernel", "no kernel registered for host function %p",
                       hostFun);
    return cudaSuccess;
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream)
{
    return launch(kernel, gridDim, blockDim, args, sharedMem, "kernel launch");
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    return launch(kernel, gridDim, blockDim, args, sharedMem, "kernel launch");
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
    return launch(kernel_of(func), gridDim, blockDim, args, sharedMem, "cudaLaunchKernel");
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                  cudaStream_t stream)
{
    return launch(kernel_of(func), gridDim, blockDim, args, sharedMem, "cudaLaunchKernel");
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    ENTER("cudaFuncGetAttributes");
    if (!attr)
        return rt_fail(cudaErrorInvalidValue, "cudaFuncGetAttributes", "null attributes pointer");
    RtKernel *k = kernel_of(func);
    if (!k)
        return rt_fail(cudaErrorInvalidDeviceFunction, "cudaFuncGetAttributes", "%p is not a kernel", func);
    cudaError_t e = kernel_ready(k, "cudaFuncGetAttributes");
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
    if (!kernel_of(func))
        return rt_fail(cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute", "%p is not a kernel", func);
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig)
{
    if (!kernel_of(func))
        return rt_fail(cudaErrorInvalidDeviceFunction, "cudaFuncSetCacheConfig", "%p is not a kernel", func);
    return cudaSuccess;
}

/* ---- device ---- */

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

cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    cudaError_t e = rt_init("cudaGetDeviceProperties");
    if (e != cudaSuccess)
        return e;
    if (!prop)
        return rt_fail(cudaErrorInvalidValue, "cudaGetDeviceProperties", "null pointer");
    if (device != 0)
        return rt_fail(cudaErrorInvalidDevice, "cudaGetDeviceProperties", "device %d: the simulator has one device, 0",
                       device);
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
    prop->major = RT_CC_MAJOR;
    prop->minor = RT_CC_MINOR;
    prop->textureAlignment = 512;
    prop->texturePitchAlignment = 32;
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
    return cudaSuccess;
}

/* The CUDA 12 name of the same call. */
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device)
{
    return cudaGetDeviceProperties(prop, device);
}

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    cudaError_t e = rt_init("cudaDeviceGetAttribute");
    if (e != cudaSuccess)
        return e;
    if (!value)
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "null pointer");
    if (device != 0)
        return rt_fail(cudaErrorInvalidDevice, "cudaDeviceGetAttribute", "device %d: the simulator has one device, 0",
                       device);
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
    case ATTR_CC_MAJOR: v = RT_CC_MAJOR; break;
    case ATTR_CC_MINOR: v = RT_CC_MINOR; break;
    case ATTR_UNIFIED_ADDRESSING: case ATTR_GLOBAL_L1_CACHE: case ATTR_LOCAL_L1_CACHE: v = 1; break;
    case ATTR_MAX_TEXTURE_1D_LINEAR_WIDTH: v = 1 << 27; break;
    case ATTR_GPU_OVERLAP: case ATTR_KERNEL_EXEC_TIMEOUT: case ATTR_INTEGRATED: case ATTR_CAN_MAP_HOST_MEMORY:
    case ATTR_COMPUTE_MODE: case ATTR_CONCURRENT_KERNELS: case ATTR_ECC_ENABLED: case ATTR_PCI_BUS_ID:
    case ATTR_PCI_DEVICE_ID: case ATTR_PCI_DOMAIN_ID: case ATTR_ASYNC_ENGINE_COUNT: case ATTR_MANAGED_MEMORY:
    case ATTR_COOPERATIVE_LAUNCH:
        v = 0; break;
    default:
        return rt_fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute", "attribute %d is not modelled", attr);
    }
    *value = v;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    ENTER("cudaDeviceSynchronize");
    return cudaSuccess;
}

/* Frees every allocation and texture object and clears the errors, like destroying the
 * context. The simulator, its statistics and the loaded modules stay. */
cudaError_t cudaDeviceReset(void)
{
    cudaError_t e = rt_init("cudaDeviceReset");
    if (e != cudaSuccess)
        return e;
    for (uint32_t i = 0; i < rt_n_ranges;) {
        if (rt_ranges[i].symbol) {
            i++;
            continue;
        }
        warpsim_free(rt_sim, rt_ranges[i].addr);
        range_remove_at(i);
    }
    rt_allocated = 0;
    while (rt_n_textures > 0)
        warpsim_texture_destroy(rt_sim, rt_textures[--rt_n_textures]);
    rt_last = rt_sticky = cudaSuccess;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    ENTER("cudaMemGetInfo");
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    if (free_bytes)
        *free_bytes = (size_t)(di.global_bytes - MIN(di.global_bytes, rt_allocated));
    if (total)
        *total = (size_t)di.global_bytes;
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

/* ---- errors ---- */

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = rt_sticky != cudaSuccess ? rt_sticky : rt_last;
    rt_last = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    return rt_sticky != cudaSuccess ? rt_sticky : rt_last;
}

/* ---- memory ---- */

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    ENTER("cudaMalloc");
    if (!devPtr)
        return rt_fail(cudaErrorInvalidValue, "cudaMalloc", "null pointer");
    *devPtr = NULL;
    if (size == 0)
        return cudaSuccess;
    WarpsimDeviceInfo di;
    warpsim_device_info(rt_sim, &di);
    if (size > di.global_bytes - MIN(di.global_bytes, rt_allocated))
        return rt_fail(cudaErrorMemoryAllocation, "cudaMalloc", "%zu bytes: the device has %llu of its %llu bytes "
                       "free", size, (unsigned long long)(di.global_bytes - MIN(di.global_bytes, rt_allocated)),
                       (unsigned long long)di.global_bytes);
    uint64_t a = warpsim_malloc(rt_sim, size);
    range_add(a, size, false);
    rt_allocated += size;
    *devPtr = (void *)(uintptr_t)a;
    return cudaSuccess;
}

cudaError_t cudaFree(void *devPtr)
{
    ENTER("cudaFree");
    if (!devPtr)
        return cudaSuccess;
    int64_t i = range_at((uint64_t)(uintptr_t)devPtr);
    if (i < 0 || rt_ranges[i].symbol)
        return rt_fail(cudaErrorInvalidValue, "cudaFree", "%p is not an allocation of cudaMalloc", devPtr);
    rt_allocated -= rt_ranges[i].size;
    range_remove_at((uint32_t)i);
    return rt_status(warpsim_free(rt_sim, (uint64_t)(uintptr_t)devPtr));
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned flags)
{
    if (!pHost)
        return rt_fail(cudaErrorInvalidValue, "cudaHostAlloc", "null pointer");
    void *p = NULL;
    if (posix_memalign(&p, 4096, size ? size : 1) != 0)
        return rt_fail(cudaErrorMemoryAllocation, "cudaHostAlloc", "%zu bytes of host memory", size);
    if (rt_n_host == rt_cap_host) {
        rt_cap_host = rt_cap_host ? 2 * rt_cap_host : 16;
        rt_host_allocs = xrealloc(rt_host_allocs, rt_cap_host * sizeof *rt_host_allocs);
    }
    rt_host_allocs[rt_n_host++] = p;
    *pHost = p;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return cudaHostAlloc(ptr, size, 0);
}

cudaError_t cudaFreeHost(void *ptr)
{
    if (!ptr)
        return cudaSuccess;
    for (uint32_t i = 0; i < rt_n_host; i++)
        if (rt_host_allocs[i] == ptr) {
            rt_host_allocs[i] = rt_host_allocs[--rt_n_host];
            free(ptr);
            return cudaSuccess;
        }
    return rt_fail(cudaErrorInvalidValue, "cudaFreeHost", "%p is not from cudaMallocHost or cudaHostAlloc", ptr);
}

/* The bytes [p, p + n) must lie in one allocation or variable of the device. */
static cudaError_t check_device(const void *p, size_t n, const char *call, const char *what)
{
    if (n && !range_find((uint64_t)(uintptr_t)p, n))
        return rt_fail(cudaErrorInvalidValue, call, "%s %p (%zu bytes) is not inside a device allocation", what, p, n);
    return cudaSuccess;
}

static cudaError_t copy(void *dst, const void *src, size_t count, int kind, const char *call)
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
        if ((e = check_device(dst, count, call, "destination")) != cudaSuccess)
            return e;
        return rt_status(warpsim_memcpy_htod(rt_sim, d, src, count));
    case cudaMemcpyDeviceToHost:
        if ((e = check_device(src, count, call, "source")) != cudaSuccess)
            return e;
        return rt_status(warpsim_memcpy_dtoh(rt_sim, dst, s, count));
    case cudaMemcpyDeviceToDevice:
        if ((e = check_device(src, count, call, "source")) != cudaSuccess ||
            (e = check_device(dst, count, call, "destination")) != cudaSuccess)
            return e;
        return rt_status(warpsim_memcpy_dtod(rt_sim, d, s, count));
    default:
        return rt_fail(cudaErrorInvalidMemcpyDirection, call, "copy kind %d", kind);
    }
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
    return copy(dst, src, count, kind, "cudaMemcpy");
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, cudaStream_t stream)
{
    return copy(dst, src, count, kind, "cudaMemcpyAsync");
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    ENTER("cudaMemset");
    cudaError_t e = check_device(devPtr, count, "cudaMemset", "destination");
    if (e != cudaSuccess)
        return e;
    return rt_status(warpsim_memset(rt_sim, (uint64_t)(uintptr_t)devPtr, value, count));
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return cudaMemset(devPtr, value, count);
}

static cudaError_t symbol_copy(const void *symbol, void *host, size_t count, size_t offset, int kind, bool to,
                               const char *call)
{
    ENTER(call);
    RtVar *v;
    cudaError_t e = var_of(symbol, call, &v);
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
    return to ? copy(dev, host, count, k, call) : copy(host, dev, count, k, call);
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

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    ENTER("cudaGetSymbolAddress");
    if (!devPtr)
        return rt_fail(cudaErrorInvalidValue, "cudaGetSymbolAddress", "null pointer");
    RtVar *v;
    cudaError_t e = var_of(symbol, "cudaGetSymbolAddress", &v);
    if (e != cudaSuccess)
        return e;
    *devPtr = (void *)(uintptr_t)v->addr;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    ENTER("cudaGetSymbolSize");
    if (!size)
        return rt_fail(cudaErrorInvalidValue, "cudaGetSymbolSize", "null pointer");
    RtVar *v;
    cudaError_t e = var_of(symbol, "cudaGetSymbolSize", &v);
    if (e != cudaSuccess)
        return e;
    *size = v->size;
    return cudaSuccess;
}

/* ---- streams and events: everything has completed when the call returns ---- */

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    if (!pStream)
        return rt_fail(cudaErrorInvalidValue, "cudaStreamCreate", "null pointer");
    *pStream = xcalloc(1, sizeof **pStream);
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned flags)
{
    return cudaStreamCreate(pStream);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if (!stream)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy", "the default stream cannot be destroyed");
    free(stream);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    ENTER("cudaStreamSynchronize");
    return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    ENTER("cudaStreamQuery");
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags)
{
    ENTER("cudaStreamWaitEvent");
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
{
    if (!event)
        return rt_fail(cudaErrorInvalidValue, "cudaEventCreate", "null pointer");
    *event = xcalloc(1, sizeof **event);
    (*event)->ns = -1;
    (*event)->flags = flags;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, 0);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventDestroy", "null event");
    free(event);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    ENTER("cudaEventRecord");
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventRecord", "null event");
    event->ns = warpsim_time_ns(rt_sim);
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    ENTER("cudaEventSynchronize");
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize", "null event");
    return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    ENTER("cudaEventQuery");
    if (!event)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventQuery", "null event");
    return cudaSuccess;
}

/* Milliseconds of simulated time between the two records (kernels only: copies take none). */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    ENTER("cudaEventElapsedTime");
    if (!ms)
        return rt_fail(cudaErrorInvalidValue, "cudaEventElapsedTime", "null pointer");
    if (!start || !end)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime", "null event");
    if ((start->flags | end->flags) & cudaEventDisableTiming)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                       "an event created with cudaEventDisableTiming");
    if (start->ns < 0 || end->ns < 0)
        return rt_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime", "an event that was never recorded");
    *ms = (float)((end->ns - start->ns) / 1e6);
    return cudaSuccess;
}

/* ---- texture objects over linear memory (tex1Dfetch) ---- */

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc, const void *pResViewDesc)
{
    static const char call[] = "cudaCreateTextureObject";
    ENTER(call);
    if (!pTexObject || !pResDesc)
        return rt_fail(cudaErrorInvalidValue, call, "null pointer");
    if (pResDesc->resType != cudaResourceTypeLinear)
        return rt_fail(cudaErrorNotSupported, call, "resource type %d: only linear memory (cudaResourceTypeLinear, "
                       "read with tex1Dfetch) is supported", pResDesc->resType);
    const struct cudaChannelFormatDesc *c = &pResDesc->res.linear.desc;
    int bits[4] = {c->x, c->y, c->z, c->w}, channels = 0;
    while (channels < 4 && bits[channels] != 0)
        channels++;
    bool ok = channels > 0 && (bits[0] == 8 || bits[0] == 16 || bits[0] == 32) && c->f >= 0 &&
              c->f <= cudaChannelFormatKindFloat && !(c->f == cudaChannelFormatKindFloat && bits[0] == 8);
    for (int i = 0; i < 4; i++)
        ok &= i < channels ? bits[i] == bits[0] : bits[i] == 0;
    if (!ok)
        return rt_fail(cudaErrorInvalidChannelDescriptor, call, "channels of %d, %d, %d, %d bits, kind %d", c->x,
                       c->y, c->z, c->w, c->f);
    uint32_t elem = (uint32_t)channels * (uint32_t)bits[0] / 8;
    size_t bytes = pResDesc->res.linear.sizeInBytes;
    cudaError_t e = check_device(pResDesc->res.linear.devPtr, bytes ? bytes : 1, call, "the texture's memory");
    if (e != cudaSuccess)
        return e;
    WarpsimTexture t = {
        .base = (uint64_t)(uintptr_t)pResDesc->res.linear.devPtr,
        .count = bytes / elem,
        .channels = (uint32_t)channels,
        .channel_bytes = (uint32_t)bits[0] / 8,
        .format = c->f == cudaChannelFormatKindFloat ? WARPSIM_TEX_FLOAT
                  : c->f == cudaChannelFormatKindSigned ? WARPSIM_TEX_SIGNED : WARPSIM_TEX_UNSIGNED,
        .normalized = pTexDesc && pTexDesc->readMode == cudaReadModeNormalizedFloat && bits[0] < 32 &&
                      c->f != cudaChannelFormatKindFloat,
    };
    uint64_t h;
    e = rt_status(warpsim_texture_create(rt_sim, &t, &h));
    if (e != cudaSuccess)
        return e;
    if (rt_n_textures == rt_cap_textures) {
        rt_cap_textures = rt_cap_textures ? 2 * rt_cap_textures : 16;
        rt_textures = xrealloc(rt_textures, rt_cap_textures * sizeof *rt_textures);
    }
    rt_textures[rt_n_textures++] = h;
    *pTexObject = h;
    return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    ENTER("cudaDestroyTextureObject");
    if (texObject == 0)
        return cudaSuccess;
    for (uint32_t i = 0; i < rt_n_textures; i++)
        if (rt_textures[i] == texObject) {
            rt_textures[i] = rt_textures[--rt_n_textures];
            return rt_status(warpsim_texture_destroy(rt_sim, texObject));
        }
    return rt_fail(cudaErrorInvalidValue, "cudaDestroyTextureObject", "%llu is not a texture object", texObject);
}
