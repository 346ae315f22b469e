/* runtime_internal.h: what the files of warpsim's libcudart replacement share (runtime*.c).
 *
 * The CUDA 13 ABI types more than one file reads or writes (the rest stay in the one file
 * that needs them, beside their layout checks), the registered fat binaries, kernels and
 * variables, the library's state and the helpers every entry point uses: the simulator created
 * on first use, the error rules, and the map of device memory. runtime.c describes the
 * library as a whole. */
#ifndef WARPSIM_RUNTIME_INTERNAL_H
#define WARPSIM_RUNTIME_INTERNAL_H

#include "warpsim.h"

#include "api/api_lock.h"
#include "api/api_texture.h"
#include "front/fatbin/fatbin.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The exported functions' prototypes are NVIDIA's (cuda_runtime_api.h), which need not be
 * installed where warpsim builds; the definitions follow them. */
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
    cudaErrorDeviceUninitialized = 201,
    cudaErrorMapBufferObjectFailed = 205,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorUnsupportedLimit = 215,
    cudaErrorPeerAccessUnsupported = 217,
    cudaErrorInvalidPtx = 218,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorSymbolNotFound = 500,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorPeerAccessNotEnabled = 705,
    cudaErrorAssert = 710,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorGraphExecUpdateFailure = 910,
    cudaErrorUnknown = 999,
} cudaError_t;

typedef struct dim3 {
    unsigned x, y, z;
} dim3;

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaChannelFormatKind { cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned, cudaChannelFormatKindFloat };

struct cudaChannelFormatDesc {
    int x, y, z, w;
    int f; /* enum cudaChannelFormatKind */
};

struct cudaExtent {
    size_t width, height, depth;
};

/* The row alignment a pitched 2D texture needs (cudaDevAttrTexturePitchAlignment). */
#define RT_PITCH_ALIGN API_PITCH_ALIGN

/* The device's limits on launches, beyond the configured machine. */
#define RT_MAX_GRID_X 0x7fffffff
#define RT_MAX_GRID_YZ 65535
#define RT_MAX_BLOCK_Z 64
#define RT_CONST_BYTES 65536 /* the device's constant memory */

const char *cudaGetErrorName(cudaError_t error); /* runtime_errors.c */
const char *cudaGetErrorString(cudaError_t error);

/* The per-thread-default-stream entry points (_ptsz, _ptds) that programs built with nvcc
 * --default-stream per-thread call: the device is synchronous and streams are ignored, so
 * each is its base function, under a second name. */
#define RT_PER_THREAD(name, fn) extern __typeof__(fn) name __attribute__((alias(#fn)))

/* ---- registered code (runtime_module.c) ---- */

/* One registered fat binary (the handle nvcc's code holds). */
typedef struct RtModule {
    uint32_t index;          /* 1, 2, ... in registration order, for its name */
    uint32_t wrapper_version;
    Fatbin fb;               /* borrows the program's .nv_fatbin section */
    const void *const *prelinked; /* -rdc: the objects' own fat binaries (fatbin_prelinked) */
    bool bad;                /* the container did not parse: err says why */
    char err[512];
    WarpsimModule *m;        /* loaded on first use */
    cudaError_t load_error;  /* a failed load, given again on every use */
    bool load_reported;      /* its message has been printed: later uses fail quietly */
    uint32_t ptx_arch;
    char *ptx_path;          /* the name the simulator's messages give its PTX (runtime_module.c) */
    bool ptx_kept;           /* the PTX has been written there */
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
    void **managed_ptr;      /* a __managed__ variable: where the program's code reads its address */
    bool foreign;            /* -rdc: of an object whose PTX was not linked (runtime_module.c) */
    struct RtVar *next;
} RtVar;

/* Write the module's PTX where the simulator's messages say it is, once: after a message that
 * cites it (a failed load, a kernel that faulted). */
void rt_module_keep_ptx(RtModule *mod);
/* The kernel of a host stub or a cudaKernel_t, or NULL. */
RtKernel *rt_kernel_of(const void *func);
/* Load the kernel's module if needed and fill in its info. */
cudaError_t rt_kernel_ready(RtKernel *k, const char *call);
/* The variable of a host shadow, its module loaded; fails (printing why) if there is none. */
cudaError_t rt_var_of(const void *symbol, const char *call, RtVar **out);

/* ---- device memory (runtime_memory.c, runtime_pool.c) ---- */

/* cudaMalloc and cudaFree under the name of the calling API function. */
cudaError_t rt_dev_alloc(const char *call, void **devPtr, size_t size);
cudaError_t rt_dev_free(const char *call, void *devPtr);
/* The device memory in use after an allocation: the pool's high-water marks follow it. */
void rt_pool_note_use(uint64_t bytes);
/* The device has size bytes free (else cudaErrorMemoryAllocation, printed). */
cudaError_t rt_dev_check_room(const char *call, size_t size);
/* Interprocess memory at cudaFree (runtime_ipc.c, runtime_pool_ipc.c): true when the call is
 * answered (*e), false when the ordinary free goes on (an exported allocation's bytes are back
 * in the device's pages by then). */
bool rt_ipc_free(const char *call, void *devPtr, cudaError_t *e);
bool rt_pool_ipc_free(const char *call, void *devPtr, cudaError_t *e);
/* cudaDeviceReset: forget interprocess memory. */
void rt_ipc_reset(void);
void rt_pool_ipc_reset(void);

/* ---- state and errors (runtime.c) ---- */

#define rt_sim api_sim() /* the process's simulator (api_lock.c) */
extern _Thread_local cudaError_t rt_last; /* the calling host thread's last error */
extern cudaError_t rt_sticky;             /* a kernel fault that stays, for every thread */

/* One host thread at a time runs in the library: API_LOCKED (api_lock.h) at the top of an
 * entry point holds its lock until the function returns; ENTER does it too. */

/* Record a failure of `call`, print why, and return it. */
cudaError_t rt_fail(cudaError_t e, const char *call, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A shared check's failure (api_array.h), with its message. */
cudaError_t rt_api_fail(ApiErr e, const char *call, const char *msg);
/* A failure the simulator has already explained on stderr. */
cudaError_t rt_quiet_fail(cudaError_t e);
/* The sticky error of a kernel fault, returned again: the program has now been told of it
 * (warpsim_fault_returned). */
cudaError_t rt_sticky_fail(void);
/* What a launch returns for e: a kernel's fault is asynchronous on a GPU, so the launch that
 * ran the faulting kernel returns success and the next call the sticky error. */
cudaError_t rt_async_error(cudaError_t e);
/* The simulator, created on first use. */
cudaError_t rt_init(const char *call);
/* The runtime's error for a simulator status (faults stay as the sticky error). */
cudaError_t rt_status(WarpsimStatus st);

/* Every call that touches the device starts here: it holds the library's lock, the simulator
 * exists, the launches held back on streams have run (runtime_queue.c) and no kernel has
 * faulted (a sticky error is returned again, as CUDA does until cudaDeviceReset). Three
 * statements: only at the top of a function body. */
#define ENTER(call)                                                                                     \
    ENTER_NO_WAIT(call);                                                                                \
    api_flush();                                                                                        \
    do {                                                                                                \
        if (rt_sticky != cudaSuccess)                                                                   \
            return rt_sticky_fail();                                                                    \
    } while (0)

/* ENTER for what does not make the host wait for the held launches: a launch, a hint. */
#define ENTER_NO_WAIT(call)                                                                             \
    API_LOCKED;                                                                                         \
    do {                                                                                                \
        cudaError_t e_ = rt_init(call);                                                                 \
        if (e_ != cudaSuccess)                                                                          \
            return e_;                                                                                  \
        if (rt_sticky != cudaSuccess)                                                                   \
            return rt_sticky_fail();                                                                    \
    } while (0)

/* ---- device memory (runtime_memory.c) ---- */

/* The bytes [p, p + n) must lie in one allocation or variable of the device (the simulator
 * keeps the map of both). */
cudaError_t rt_check_device(const void *p, size_t n, const char *call, const char *what);
/* A copy of count bytes in direction kind (cudaMemcpyDefault: told by the map), checked
 * against the map, under the name of the calling API function. */
cudaError_t rt_copy(void *dst, const void *src, size_t count, int kind, const char *call);
/* cudaMemset under the name of the calling API function. */
cudaError_t rt_memset(void *devPtr, int value, size_t count, const char *call);

/* ---- streams, events, graphs and stream capture (runtime_stream.c, runtime_graph.c) ---- */

/* A stream remembers what the program may ask about it; its work is never queued. While it
 * is captured (cudaStreamBeginCapture), its work is recorded instead, each node depending on
 * the stream's last ones (deps). */
struct CUstream_st {
    unsigned flags;
    int priority;
    unsigned long long id;
    struct RtCapture *capture; /* NULL: not capturing */
    cudaGraphNode_t *deps;
    size_t n_deps;
};

/* Forget a destroyed stream's attributes (runtime_stream_attr.c). */
void rt_stream_attr_forget(cudaStream_t stream);

/* An event holds the simulated time when it was recorded; recorded in a capture, it holds the
 * capturing stream's last nodes, for another stream that waits on it to join the capture. */
struct CUevent_st {
    double ns;     /* simulated time when recorded; < 0: never recorded */
    unsigned flags;
    unsigned long long capture_id; /* 0: not recorded in a capture */
    cudaGraphNode_t *deps;
    size_t n_deps;
};

/* One piece of stream-ordered work, run at once or recorded as a graph node. */
typedef enum RtOpKind {
    RT_OP_KERNEL, RT_OP_MEMCPY, RT_OP_MEMSET, RT_OP_HOST, RT_OP_EMPTY,
    RT_OP_MEMALLOC, RT_OP_MEMFREE, /* graph memory nodes (runtime_graph_mem.c): dst, width bytes */
    RT_OP_GRAPH, RT_OP_COND        /* child graph and conditional nodes (runtime_graph_body.c) */
} RtOpKind;

typedef struct RtOp {
    RtOpKind kind;
    /* a kernel: its packed parameters (owned) */
    RtKernel *k;
    uint32_t grid[3], block[3], smem;
    uint8_t *params;
    uint32_t param_bytes;
    bool cooperative;
    /* a copy of height rows of width bytes, or a memset of height rows of width elements of
     * elem bytes (1, 2 or 4) to value */
    void *dst;
    const void *src;
    size_t width, height, dpitch, spitch;
    int copy_kind;
    unsigned value, elem;
    /* host work */
    void (*fn)(void *);
    void *data;
    /* a child graph or a conditional: its bodies (owned), graphs in a graph's node and
     * executables in an executable's op; a conditional's type and handle (held) */
    cudaGraph_t *graphs;
    cudaGraphExec_t *execs;
    unsigned n_bodies;
    int cond_type;
    struct RtCondHandle *cond;
} RtOp;

/* A kernel launch's checks and its parameters packed into op (runtime_launch.c); the caller
 * frees op->params. */
cudaError_t rt_kernel_op(RtKernel *k, dim3 g, dim3 b, void **args, size_t smem, const char *call, RtOp *op);
/* Run a packed kernel launch now. */
cudaError_t rt_kernel_run(const RtOp *op);
/* Launches into a stream the program created are held until the host next waits
 * (runtime_queue.c): rt_queue_holds says whether a launch into stream is, and rt_queue_push
 * holds op, taking its parameters. */
bool rt_queue_holds(cudaStream_t stream);
void rt_queue_push(RtOp *op);
/* Run op now, under the name of the calling API function. */
cudaError_t rt_op_run(const RtOp *op, const char *call);
/* Run a child graph or conditional op of a graph executable (runtime_graph_body.c). */
cudaError_t rt_graph_body_run(const RtOp *op, const char *call);
/* A stream the program created: not the legacy (0, cudaStreamLegacy 1) or per-thread
 * (cudaStreamPerThread 2) default stream, which are handles (runtime_graph.c). */
bool rt_own_stream(cudaStream_t s);
/* The stream is being captured (the legacy and per-thread default streams never are). */
bool rt_capturing(cudaStream_t stream);
/* Record op as the capturing stream's next node, taking its parameters (op->params is NULL
 * after, whatever the result). */
cudaError_t rt_capture_op(cudaStream_t stream, RtOp *op, const char *call);
/* An event recorded in a capturing stream, and a stream waiting on one (runtime_graph.c). */
void rt_capture_event_record(cudaEvent_t event, cudaStream_t stream);
cudaError_t rt_capture_event_wait(cudaStream_t stream, cudaEvent_t event, const char *call);
/* ---- CUDA arrays (runtime_array.c, runtime_copy3d.c) ---- */

/* A CUDA array (api_array.h: its shape, layout and device allocation) and the descriptor it
 * was made with. */
typedef struct cudaArray {
    struct cudaChannelFormatDesc desc;
    ApiArray a;
    struct cudaArray *next;
} RtArray;

/* cudaMemcpy3DParms and its parts (driver_types.h; layout checked in runtime_copy3d.c) */
struct cudaPos {
    size_t x, y, z;
};

struct cudaPitchedPtr {
    void *ptr;
    size_t pitch, xsize, ysize;
};

struct cudaMemcpy3DParms {
    RtArray *srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    RtArray *dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    int kind; /* enum cudaMemcpyKind */
};

enum {
    cudaArrayLayered = API_ARRAY_LAYERED,
    cudaArraySurfaceLoadStore = API_ARRAY_SURFACE_LDST,
    cudaArrayCubemap = API_ARRAY_CUBEMAP,
    cudaArrayTextureGather = API_ARRAY_TEXTURE_GATHER
};

/* The live array of a handle, or NULL. */
RtArray *rt_array_of(const void *handle);
/* A channel descriptor's channels (1 to 4 of equal width: 8, 16 or 32-bit integers, 16 or
 * 32-bit floats) and their format; false (and the error recorded) if it is not one. */
bool rt_channels(const struct cudaChannelFormatDesc *c, uint32_t *channels, uint32_t *bits, WarpsimTexFormat *format,
                 const char *call);
/* Free every array's bookkeeping (cudaDeviceReset, which frees their memory). */
void rt_array_reset(void);

/* ---- texture objects (runtime_texture.c) ---- */

/* Destroy every texture object (cudaDeviceReset). */
void rt_texture_reset(void);

#endif
