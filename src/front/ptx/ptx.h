/* ptx.h: the PTX front end: parse nvcc's PTX once into a decoded module, keep simulated device
 * memory, and run kernel launches functionally, either alone (ptx_run_kernel) or one warp
 * instruction at a time under the timing model (ptx_front_ops, see front/front.h).
 *
 * Typical host-side use:
 *     PtxModule *m = ptx_module_parse(text, "k.ptx", err, sizeof err);   // NULL + err on bad PTX
 *     PtxMemory *mem = ptx_memory_create();
 *     uint64_t d = ptx_memory_alloc(mem, n * 4);  ptx_memory_write(mem, d, host, n * 4);
 *     PtxLaunch *l = ptx_launch_create(m, "kernel", grid, block, dyn_smem, params, len, mem, err, n);
 *     ptx_run_kernel(l, &stats, err, sizeof err);                          // or drive via front ops
 * Errors are returned (NULL / false plus a message naming file:line); nothing here exits. */
#ifndef WARPSIM_PTX_H
#define WARPSIM_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "front/front.h"

typedef struct PtxModule PtxModule;
typedef struct PtxMemory PtxMemory;
typedef struct PtxLaunch PtxLaunch;

#define PTX_MAX_PARAMS 64

/* What the host needs to know about a kernel (.entry). */
typedef struct PtxKernelInfo {
    const char *name;
    uint32_t n_params;
    uint32_t param_offset[PTX_MAX_PARAMS]; /* byte offset in the parameter buffer (PTX alignment) */
    uint32_t param_size[PTX_MAX_PARAMS];
    uint32_t param_bytes;       /* total size of the parameter buffer */
    uint32_t smem_static_bytes; /* .shared variables the kernel (and its callees) use */
    uint32_t local_bytes;       /* .local bytes per thread */
    uint32_t regs_estimate;     /* 32-bit registers per thread, from the .reg declarations (capped at 255) */
    bool uses_dynamic_smem;     /* an `.extern .shared` array is referenced */
    uint32_t reg_lo, reg_hi;    /* the register storage slots a warp's start zeroes besides the
                                 * special registers: those that can be read before they are
                                 * written (ptx_regalloc.c) */
} PtxKernelInfo;

/* ---- module ---- */
PtxModule *ptx_module_parse(const char *text, const char *filename, char *err, size_t err_len);
/* Read and parse a file; NULL with a message if it cannot be read or parsed. */
PtxModule *ptx_module_load(const char *path, char *err, size_t err_len);
void ptx_module_free(PtxModule *m);
const PtxKernelInfo *ptx_module_kernel(const PtxModule *m, const char *name);
uint32_t ptx_module_n_kernels(const PtxModule *m);
const PtxKernelInfo *ptx_module_kernel_at(const PtxModule *m, uint32_t i);
/* The text to parse instead of a module's own when it declares vprintf, __assertfail or
 * cudaGraphSetConditional (CUDA's device printf and assert, and a graph condition's setter),
 * which the interpreter provides: the text with a definition of each appended (every line keeps
 * its number); NULL when it declares none. Free it. */
char *ptx_builtins_define(const char *text);
/* The text defines (not merely declares) one of those functions: the PTX of CUDA's device
 * runtime library (libcudadevrt), which the interpreter replaces, not code to load. */
bool ptx_defines_builtins(const char *text);
/* ptx_link.c: the PTX of n objects of one program built with relocatable device code (nvcc
 * -rdc) as one module's text: extern declarations resolved against the other objects'
 * definitions, duplicate .weak definitions dropped, names without linkage that two objects
 * use renamed in one (NAME_$oN). malloc'd; NULL with a message naming the name and objects if
 * two objects define one name. */
char *ptx_link(const char *const *texts, uint32_t n, char *err, size_t err_len);
/* Number of decoded instructions in the module (all functions). */
uint32_t ptx_module_n_insts(const PtxModule *m);
/* The source line of the module's first wmma instruction (tensor cores), 0 if none. */
uint32_t ptx_module_wmma_line(const PtxModule *m);

/* ---- simulated global memory: sparse, paged, 64-bit addresses ---- */
PtxMemory *ptx_memory_create(void);
void ptx_memory_destroy(PtxMemory *mem);
/* cudaMalloc: a fresh 256-byte-aligned range, the lowest free one that fits; 0 only when bytes
 * is 0. */
uint64_t ptx_memory_alloc(PtxMemory *mem, uint64_t bytes);
/* cudaFree: false if addr is not the start of a live allocation. */
bool ptx_memory_free(PtxMemory *mem, uint64_t addr);
/* Free every allocation (module variables stay). */
void ptx_memory_free_all(PtxMemory *mem);
/* Address space without memory (virtual memory management): bytes at a multiple of align (a
 * power of two), which no allocation takes until ptx_memory_unreserve; 0 if none is left.
 * ptx_memory_unreserve: false if no reservation starts at addr or an allocation lies in it.
 * ptx_memory_alloc_at: an allocation at addr, wholly inside one reservation and overlapping no
 * allocation placed there before (false otherwise), freed by ptx_memory_free, which leaves its
 * space reserved. */
uint64_t ptx_memory_reserve(PtxMemory *mem, uint64_t bytes, uint64_t align);
bool ptx_memory_unreserve(PtxMemory *mem, uint64_t addr);
bool ptx_memory_alloc_at(PtxMemory *mem, uint64_t addr, uint64_t bytes);
/* Host-side access, unchecked (the caller checks the range with ptx_memory_find). Writes are
 * false when the host-memory limit refused a page (part of the bytes may be written); a set to
 * zero creates no page (an unwritten one reads as zeros) and never fails. */
bool ptx_memory_write(PtxMemory *mem, uint64_t addr, const void *src, size_t n);
void ptx_memory_read(PtxMemory *mem, uint64_t addr, void *dst, size_t n);
bool ptx_memory_set(PtxMemory *mem, uint64_t addr, int value, size_t n);
/* Address of a module's .global or .const variable in this memory (the module's variables are
 * placed and initialised the first time it is bound, here or by a launch); 0 if no such name. */
uint64_t ptx_memory_symbol(PtxMemory *mem, const PtxModule *m, const char *name, uint64_t *size_out);
/* Place and initialise m's variables now if they are not (they are on first use otherwise); false
 * when their initialisers need more host memory than ptx_memory_set_limit allows. */
bool ptx_memory_place(PtxMemory *mem, const PtxModule *m);
/* Forget a module's variables (before the module is freed); nothing if it was never bound. */
void ptx_memory_unbind(PtxMemory *mem, const PtxModule *m);

/* Host memory the device addresses directly, at the host's own addresses (ptx_hostmem.c):
 * managed memory (cudaMallocManaged; __managed__ variables, placed so when their module is
 * bound) and mapped host memory (cudaHostAlloc / cudaHostRegister with the mapped flag).
 * A managed allocation: page-aligned host memory of the memory's own, zero-filled, which
 * ptx_memory_free releases; 0 if the host has no such memory to give. */
uint64_t ptx_memory_alloc_host(PtxMemory *mem, uint64_t bytes);
/* Let kernels address the program's [p, p + bytes) (a PTX_REGION_HOST range); false if it
 * overlaps memory the device already addresses. */
bool ptx_memory_map_host(PtxMemory *mem, const void *p, uint64_t bytes);
/* Forget a range of ptx_memory_map_host; false if none starts at addr. */
bool ptx_memory_unmap_host(PtxMemory *mem, uint64_t addr);
/* Device pages [addr, addr + bytes) whose bytes are the host's at `host` (all three 4 KiB
 * aligned): a file mapped shared with other processes (interprocess memory). What may be
 * addressed is unchanged (place an allocation there too). adopt: the bytes the device holds
 * there now are copied in first, and ptx_memory_unback copies the first and last pages back,
 * which other allocations may share. False if the range is not aligned or overlaps backing or
 * host memory. ptx_memory_unback: false if no backing starts at addr. */
bool ptx_memory_back(PtxMemory *mem, uint64_t addr, void *host, uint64_t bytes, bool adopt);
bool ptx_memory_unback(PtxMemory *mem, uint64_t addr);

/* What a device address may name: an allocation, a module variable, or mapped host memory. */
typedef enum PtxRegionKind { PTX_REGION_ALLOC, PTX_REGION_GLOBAL, PTX_REGION_CONST, PTX_REGION_HOST } PtxRegionKind;

typedef struct PtxRegion {
    uint64_t addr, size;  /* the bytes asked for (an allocation holds them rounded up to 256) */
    PtxRegionKind kind;
    bool host;            /* host memory: managed, or mapped (PTX_REGION_HOST) */
    const char *name;     /* a variable's name; NULL for allocations */
} PtxRegion;

/* The allocation or variable holding all of [addr, addr + bytes) (bytes >= 1), or false. */
bool ptx_memory_find(const PtxMemory *mem, uint64_t addr, uint64_t bytes, PtxRegion *out);
/* Why [addr, addr + bytes) is not one allocation's or variable's, for a message: "a null
 * pointer", or where it lies against the nearest ones ("96 bytes after the allocation at ..."). */
void ptx_memory_describe(const PtxMemory *mem, uint64_t addr, uint64_t bytes, char *buf, size_t len);
/* Bytes of the live allocations, as asked for. */
uint64_t ptx_memory_allocated(const PtxMemory *mem);
/* Bound the host memory the simulated memory's pages take (0: no limit): a write that needs a
 * page beyond it fails. */
void ptx_memory_set_limit(PtxMemory *mem, uint64_t max_bytes);
/* Host memory the pages take now. */
uint64_t ptx_memory_host_bytes(const PtxMemory *mem);

/* ---- texture and surface objects ---- */
typedef enum PtxTexFormat { PTX_TEX_SIGNED, PTX_TEX_UNSIGNED, PTX_TEX_FLOAT } PtxTexFormat;
/* What the object reads: linear memory (tex1Dfetch), pitched 2D memory, a CUDA array. */
typedef enum PtxTexKind { PTX_TEXK_LINEAR, PTX_TEXK_PITCH2D, PTX_TEXK_ARRAY } PtxTexKind;
/* CUDA's address modes, by their cudaTextureAddressMode values. */
typedef enum PtxTexAddress { PTX_ADDR_WRAP, PTX_ADDR_CLAMP, PTX_ADDR_MIRROR, PTX_ADDR_BORDER } PtxTexAddress;

/* CUDA arrays of two or more dimensions are stored in tiles of PTX_TILE_BYTES x PTX_TILE_ROWS
 * (512 bytes), tiles row-major, slices one after another; 1D arrays row-major. */
#define PTX_TILE_BYTES 64
#define PTX_TILE_ROWS 8

typedef struct PtxTexLayout {
    uint64_t row_bytes;   /* untiled: bytes from one row to the next; tiled: the padded row */
    uint64_t slice_bytes; /* from one slice (depth, layer, cube face) to the next */
    bool tiled;
} PtxTexLayout;

/* Byte offset of byte xb of row y of slice z. */
static inline uint64_t ptx_tex_offset(const PtxTexLayout *l, uint64_t xb, uint64_t y, uint64_t z)
{
    if (!l->tiled)
        return z * l->slice_bytes + y * l->row_bytes + xb;
    return z * l->slice_bytes + (y / PTX_TILE_ROWS) * l->row_bytes * PTX_TILE_ROWS +
           (xb / PTX_TILE_BYTES) * (PTX_TILE_BYTES * PTX_TILE_ROWS) + (y % PTX_TILE_ROWS) * PTX_TILE_BYTES +
           xb % PTX_TILE_BYTES;
}

typedef struct PtxTexture {
    uint64_t base;          /* device address of element 0 */
    uint64_t count;         /* linear: elements; a tex1Dfetch at any other index returns zeros */
    uint32_t channels;      /* 1 to 4; the channels an element lacks read as 0 */
    uint32_t channel_bytes; /* 1, 2 or 4 (a 2-byte float channel is a half) */
    uint8_t format;         /* PtxTexFormat */
    bool normalized;        /* 1- and 2-byte integers read as floats in [0, 1] or [-1, 1] */
    /* Pitched 2D memory and arrays (linear memory: width = count, height = depth = 1). */
    uint8_t kind;           /* PtxTexKind */
    uint8_t dims;           /* 1, 2 or 3: the coordinates a fetch takes (a cube map: 2 per face) */
    bool layered, cube;
    bool surface;           /* a surface object: suld / sust, not tex */
    bool linear_filter;     /* cudaFilterModeLinear */
    bool norm_coords;       /* coordinates in [0, 1) */
    uint8_t address[3];     /* PtxTexAddress per dimension */
    uint32_t width, height, depth; /* texels; height 1 for 1D, depth 1 below 3D */
    uint32_t slices;        /* layers (x 6 faces for a cube map); 1 when not layered */
    PtxTexLayout layout;
    float border[4];        /* cudaAddressModeBorder's colour */
} PtxTexture;

/* Register a texture or surface object: its handle, never 0, is what the kernel receives (a
 * .u64). */
uint64_t ptx_texture_create(PtxMemory *mem, const PtxTexture *t);
/* False if handle is not a live texture object. */
bool ptx_texture_destroy(PtxMemory *mem, uint64_t handle);

/* ---- launches ---- */
typedef struct PtxRunStats {
    uint64_t warp_insts;   /* warp instructions executed */
    uint64_t thread_insts; /* sum over warp instructions of the active lanes (before predication) */
    uint64_t ctas;
} PtxRunStats;

PtxLaunch *ptx_launch_create(const PtxModule *m, const char *kernel, const uint32_t grid[3],
                             const uint32_t block[3], uint32_t dyn_smem_bytes, const void *params,
                             size_t params_len, PtxMemory *mem, char *err, size_t err_len);
void ptx_launch_destroy(PtxLaunch *l);
/* The kernel as the timing model sees it (name, geometry, registers, shared memory). */
void ptx_launch_describe(const PtxLaunch *l, FrontKernel *out);
/* The launch's precomputable global accesses, for FrontKernel.footprint (built on the first
 * call, valid until the launch is destroyed). */
const FrontFootprint *ptx_launch_footprint(PtxLaunch *l);
/* The same as FrontKernel.footprint, for a kernel whose footprint_ctx is its launch. */
const FrontFootprint *ptx_kernel_footprint(const FrontKernel *k);
/* Add 1 to *counter (a stats counter) when the launch faults, at the fault, so that the stats
 * of the kernel count it. */
void ptx_launch_count_faults(PtxLaunch *l, uint64_t *counter);
/* Stop a run with an error after this many warp instructions (0: no limit); guards against hangs. */
void ptx_launch_set_inst_limit(PtxLaunch *l, uint64_t max_warp_insts);
/* The value %clock/%clock64 read from now on (the timing model sets its cycle count). */
void ptx_launch_set_clock(PtxLaunch *l, uint64_t cycle);
/* What stopped a launch before its end. */
typedef enum PtxFault {
    PTX_FAULT_NONE,
    PTX_FAULT_FAILURE,         /* trap, a bad texture handle, ...: an unspecified launch failure */
    PTX_FAULT_ILLEGAL_ADDRESS, /* outside every allocation and variable, or the shared, local or
                                  parameter memory of the thread */
    PTX_FAULT_MISALIGNED,      /* an address not a multiple of the access size */
    PTX_FAULT_ASSERT,          /* a failed device-side assert (a call of __assertfail) */
    PTX_FAULT_HOST_MEMORY,     /* a store needed a page beyond ptx_memory_set_limit */
    PTX_FAULT_INST_LIMIT,      /* ptx_launch_set_inst_limit's count was reached */
} PtxFault;

/* A run-time fault: "file:line: kernel K: what, where and why", or NULL if none. */
const char *ptx_launch_error(const PtxLaunch *l);
PtxFault ptx_launch_fault_kind(const PtxLaunch *l);
PtxRunStats ptx_launch_stats(const PtxLaunch *l);

/* Run limits of ptx_run_kernel, for a kernel that never finishes (0: no limit): it stops once
 * the kernel has executed spin_insts warp instructions since a CTA last completed or a thread
 * last wrote global or local memory (a store or an atomic), or stall_insts since a CTA last
 * completed. The run then fails and ptx_launch_stop says which limit ended it. */
typedef enum PtxStop { PTX_STOP_NONE, PTX_STOP_SPIN, PTX_STOP_STALL } PtxStop;
void ptx_launch_set_limits(PtxLaunch *l, uint64_t spin_insts, uint64_t stall_insts);
/* A cooperative launch's grid workspace: the address of 8 zeroed bytes of global memory, which
 * the launch's threads read from %envreg1 (high half) and %envreg2 (low half), as the CUDA
 * driver passes it; grid.sync() of cooperative groups counts the CTAs' arrivals there. 0 (the
 * default) makes grid.sync() trap, as on a GPU for a launch that is not cooperative. Set it
 * before the run. */
void ptx_launch_set_grid_workspace(PtxLaunch *l, uint64_t addr);
/* ptx_run_kernel runs up to n CTAs at once, taking turns, so that CTAs may wait for one another
 * (grid.sync(), a flag set by another CTA); default 1: one after another. */
void ptx_launch_set_coresident(PtxLaunch *l, uint64_t n_ctas);
/* ptx_run_kernel starts more CTAs beside the running ones, up to n in all, when those have run
 * PTX_WIDEN_INSTS warp instructions (or the spin limit, if lower) without writing memory or
 * completing: as many CTAs as the machine holds at once, so that a CTA waiting for a later one
 * finishes as on a GPU, while kernels that do not wait keep running one CTA at a time (the
 * fastest). Default 0: never. */
void ptx_launch_set_resident_max(PtxLaunch *l, uint64_t n_ctas);
#define PTX_WIDEN_INSTS (1ull << 20)
PtxStop ptx_launch_stop(const PtxLaunch *l);

/* ---- the device runtime: launches, streams and memory of kernels (ptx_cdp.c) ---- */
/* CUDA's nesting limit of device-side launches: a grid the host launched is at depth 0, and a
 * launch from a grid at depth PTX_CDP_MAX_DEPTH fails (cudaErrorLaunchMaxDepthExceeded). */
#define PTX_CDP_MAX_DEPTH 24
typedef struct PtxDeviceRuntime PtxDeviceRuntime;
/* What a grid's threads queued, in the order they queued it: a kernel launch
 * (<<<...>>> in a kernel) or a device-to-device cudaMemcpyAsync. */
typedef enum PtxWorkKind { PTX_WORK_LAUNCH, PTX_WORK_COPY } PtxWorkKind;
typedef struct PtxDeviceWork {
    uint8_t kind;     /* PtxWorkKind */
    bool tail;        /* into cudaStreamTailLaunch: after all the grid's other work */
    uint32_t func;    /* LAUNCH: the kernel's function index */
    const char *kernel; /* LAUNCH: its name (the module's) */
    uint32_t grid[3], block[3], smem_bytes;
    uint64_t params;  /* LAUNCH: its parameter buffer in device memory, param_bytes long */
    uint32_t param_bytes;
    uint64_t dst, src, bytes; /* COPY */
    uint64_t stream;
} PtxDeviceWork;
/* The device runtime of one simulated device: its pending-work count (launches and copies
 * queued and not yet run, at most max_pending, cudaLimitDevRuntimePendingLaunchCount) and the
 * heap device-side cudaMalloc takes from (heap_bytes, cudaLimitMallocHeapSize). describe gives
 * cudaGetErrorString's text for an error code (NULL: none known). */
PtxDeviceRuntime *ptx_cdp_create(PtxMemory *mem, uint64_t max_pending, uint64_t heap_bytes);
void ptx_cdp_destroy(PtxDeviceRuntime *rt);
void ptx_cdp_set_limits(PtxDeviceRuntime *rt, uint64_t max_pending, uint64_t heap_bytes);
void ptx_cdp_set_describe(PtxDeviceRuntime *rt, const char *(*describe)(int code));
/* Give the launch the device runtime, as a grid at nesting depth depth; without it a call of
 * the device runtime faults the launch. */
void ptx_launch_set_device_runtime(PtxLaunch *l, PtxDeviceRuntime *rt, uint32_t depth);
/* After the run: the work the grid queued (*n items, malloc'd, NULL when none), each of which
 * the caller runs or drops and then passes to ptx_cdp_work_done (which frees its parameter
 * buffer and its pending slot). */
PtxDeviceWork *ptx_launch_take_device_work(PtxLaunch *l, uint32_t *n);
void ptx_cdp_work_done(PtxDeviceRuntime *rt, const PtxDeviceWork *w);

/* Run the whole launch functionally: CTAs one after another, each CTA's warps interleaved (a
 * bounded number of instructions each in turn, so a warp spinning on another's flag lets it
 * run). False with a message on a run-time fault, the instruction limit or a run limit. */
bool ptx_run_kernel(PtxLaunch *l, PtxRunStats *stats, char *err, size_t err_len);

/* The front-end interface for the timing model; `self` is the PtxLaunch. */
extern const FrontOps ptx_front_ops;

#endif
