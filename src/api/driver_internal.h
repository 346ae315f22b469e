/* driver_internal.h: what the files of warpsim's libcuda replacement share (driver*.c).
 *
 * The handles' structures, the library's state, the error rules and the guards every entry
 * point starts with. driver.c describes the library as a whole. */
#ifndef WARPSIM_DRIVER_INTERNAL_H
#define WARPSIM_DRIVER_INTERNAL_H

#include "warpsim.h"

#include "api/api_array.h"
#include "api/api_lock.h"
#include "front/fatbin/fatbin.h"

#include <cuda/cuda.h>
#include <stdbool.h>

struct CUctx_st {
    int unused;
};
struct CUstream_st {
    int unused;
};
struct CUevent_st {
    double ns; /* simulated time when recorded; < 0: never recorded */
};
struct CUfunc_st {
    struct CUmod_st *mod;
    WarpsimKernelInfo info;
    struct CUfunc_st *next;
};
struct CUmod_st {
    WarpsimModule *m;
    struct CUfunc_st *funcs;
    uint8_t *fatbin; /* a copy of the fat binary it was loaded from (NULL: PTX text), whose
                        cubins give ptxas's register counts as kernels are looked up */
    Fatbin fb;
};

/* ---- state and errors (driver.c) ---- */

#define drv_sim api_sim() /* the process's simulator, shared with libcudart (api_lock.c) */
extern CUresult drv_sticky; /* a kernel fault, until the context is destroyed */
/* drv_sticky returned again: the program has now been told of it (warpsim_fault_returned). */
CUresult drv_sticky_fail(void);

/* The driver's error for a simulator status (faults become the sticky error). */
CUresult drv_result(WarpsimStatus st);
/* Print "warpsim: call: message" and return r. */
CUresult drv_fail(CUresult r, const char *call, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A shared check's failure (api_array.h), with its message. */
CUresult drv_api_fail(ApiErr e, const char *call, const char *msg);

/* The context is current in the calling thread (driver_context.c). */
bool drv_ctx_is_current(void);
/* The one context's handle. */
CUcontext drv_context(void);

/* Every entry point that needs the simulator starts here (two statements: only at the top of a
 * function body): it holds the lock until it returns, and the runtime's held launches have run. */
#define NEED_INIT()                                                                                     \
    API_LOCKED;                                                                                         \
    do {                                                                                                \
        if (!drv_sim)                                                                                   \
            return CUDA_ERROR_NOT_INITIALIZED;                                                          \
        api_flush(); /* the runtime's launches held on streams run first (runtime_queue.c) */          \
    } while (0)

/* NEED_INIT, a context current in the calling thread, and no sticky fault. */
#define NEED_CTX()                                                                                      \
    NEED_INIT();                                                                                        \
    do {                                                                                                \
        if (!drv_ctx_is_current())                                                                      \
            return CUDA_ERROR_INVALID_CONTEXT;                                                          \
        if (drv_sticky != CUDA_SUCCESS)                                                                 \
            return drv_sticky_fail();                                                                   \
    } while (0)

/* A second name of fn. The per-thread-default-stream forms (_ptds, _ptsz) that programs built
 * with CUDA_API_PER_THREAD_DEFAULT_STREAM call are their base functions: the device is
 * synchronous and streams are not queues. A name cuda.h maps to another (cuDeviceGetUuid ->
 * cuDeviceGetUuid_v2) must be #undef'd first. */
#define DRV_ALIAS(name, fn) extern __typeof__(fn) name __attribute__((alias(#fn)))

/* ---- modules (driver_module.c) ---- */

#define DRV_JIT_NUM_OPTIONS 35 /* CUDA 13's CU_JIT_NUM_OPTIONS */

/* A JIT option list (cuModuleLoadDataEx, cuLinkCreate): both arrays given, each option CUDA's. */
CUresult drv_jit_check(const char *call, unsigned n, const CUjit_option *opts, void *const *vals);
/* The outputs it asks for: the info and error logs (cut to their buffers; their size options
 * overwritten with the bytes written) and the wall time (0 ms). */
void drv_jit_outputs(unsigned n, const CUjit_option *opts, void **vals, const char *info, const char *error);

/* ---- memory (driver_memory.c) ---- */

/* [p, p + n) lies in one allocation or variable of the device (n 0 counts as 1). */
bool drv_is_device(CUdeviceptr p, size_t n);
/* cuMemAlloc under the name of the calling entry point. */
CUresult drv_dev_alloc(const char *call, CUdeviceptr *dptr, size_t bytes);

/* ---- arrays (driver_array.c) ---- */

/* An element format: channels (1, 2 or 4) of channel_bytes, of a kind; fails saying why. */
CUresult drv_format(const char *call, CUarray_format format, unsigned channels, uint32_t *channel_bytes,
                    WarpsimTexFormat *kind);
/* The live array of a handle, or NULL. */
const ApiArray *drv_array_of(CUarray handle);

/* ---- virtual memory management (driver_vmm.c) ---- */

/* The machine has generic memory compression (CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED). */
bool drv_vmm_supports_compression(void);

#endif
