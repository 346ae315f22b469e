/* warpsim.h: the embedding API. A program (or warpsim's own libcuda and libcudart
 * replacements) creates a simulated GPU, loads PTX modules into it, moves data in and out of
 * its memory and launches kernels, which run on the cycle-level timing model (or, with
 * --functional, on the PTX interpreter alone).
 *
 *     char err[512];
 *     const char *args[] = {"--preset", "gtx480", "-o", "l1d.index=fup", "--json", "out.json"};
 *     WarpsimSim *s = warpsim_create(6, args, err, sizeof err);      // NULL + err on bad args
 *     WarpsimModule *m;  warpsim_module_load(s, ptx_text, "k.ptx", &m);
 *     uint64_t d = warpsim_malloc(s, bytes);  warpsim_memcpy_htod(s, d, host, bytes);
 *     warpsim_launch(s, m, "kernel", grid, block, 0, params, params_len);
 *     warpsim_destroy(s);                                              // writes the results
 *
 * Arguments are those of `warpsim run`: --preset NAME, --config FILE, --gpgpusim-config FILE,
 * -o key=value, plus --functional, --name NAME (the workload name in the results), --json FILE,
 * --csv FILE, --stats FILE (text), --quiet (no summary on stderr) and --trace-out DIR (the
 * launches' warp instructions and the copies also written as an Accel-Sim trace, docs/traces.md;
 * not with --functional). A bad argument, preset,
 * configuration file or option value, inconsistent options or an unknown policy make
 * warpsim_create return NULL with a message naming the argument, file and line, or key in err;
 * it never exits the program. Every other call that can fail returns a WarpsimStatus;
 * warpsim_error() gives the last failure's message, which is also printed on stderr.
 *
 * A kernel that faults (an illegal or misaligned address, a failed assert, trap) stops at the
 * fault: the message names the PTX file and line, the kernel, the thread and, for an address,
 * the nearest allocation; the stats count it (sim.faults) and the kernel's block of stats
 * carries its kind and place in its name. A kernel's printf output goes to stdout when the
 * kernel ends, ordered by block, thread and call. Not thread-safe: one thread at a time may
 * call into one simulator (the libraries serialise their own entry points). */
#ifndef WARPSIM_H
#define WARPSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct WarpsimSim WarpsimSim;
typedef struct WarpsimModule WarpsimModule;

typedef enum WarpsimStatus {
    WARPSIM_OK = 0,
    WARPSIM_E_INPUT,       /* a bad argument: null pointer, unknown address, size mismatch */
    WARPSIM_E_PTX,         /* the PTX does not parse, or uses what warpsim does not support */
    WARPSIM_E_NOT_FOUND,   /* no kernel or variable of that name */
    WARPSIM_E_LAUNCH,      /* a launch configuration the simulated GPU cannot run */
    WARPSIM_E_FAULT,       /* the kernel failed: trap, a bad texture handle, ... */
    WARPSIM_E_DEADLOCK,    /* the timing model stopped making progress */
    WARPSIM_E_CYCLE_LIMIT, /* a run limit stopped the kernel: gpu.max_cycles, gpu.spin_insts or
                              gpu.stall_insts (a kernel that never finishes) */
    WARPSIM_E_ILLEGAL_ADDRESS, /* the kernel accessed memory outside every allocation and
                                  variable, or its shared, local or parameter memory */
    WARPSIM_E_MISALIGNED,  /* the kernel accessed an address not a multiple of the access size */
    WARPSIM_E_ASSERT,      /* a device-side assert failed in the kernel */
    WARPSIM_E_MEMORY,      /* the simulated memory needs more host memory than gpu.max_host_mb */
    WARPSIM_E_UNSUPPORTED  /* valid on a GPU, but beyond what the simulator can do */
} WarpsimStatus;

/* What a host runtime needs to know about a kernel's parameters and resources. */
typedef struct WarpsimKernelInfo {
    const char *name;
    uint32_t n_params;
    const uint32_t *param_offset; /* byte offset of each parameter in the parameter buffer */
    const uint32_t *param_size;
    uint32_t param_bytes;         /* size of the whole parameter buffer */
    uint32_t regs_per_thread;     /* from ptxas's report when known, else an estimate */
    uint32_t smem_static_bytes;
    uint32_t local_bytes;
} WarpsimKernelInfo;

/* What cudaGetDeviceProperties / cuDeviceGetAttribute report: the configured machine. */
typedef struct WarpsimDeviceInfo {
    char name[64];
    uint32_t n_sms, core_mhz, mem_mhz, bus_bits;
    uint32_t max_threads_per_sm, max_threads_per_cta, max_ctas_per_sm, regs_per_sm, smem_per_sm;
    uint32_t l2_bytes;
    uint64_t global_bytes;
    uint32_t cc_major, cc_minor; /* gpu.compute_capability */
} WarpsimDeviceInfo;

WarpsimSim *warpsim_create(int argc, const char *const *argv, char *err, size_t err_len);
/* Arguments from the environment variable WARPSIM_ARGS (blank-separated); unset means the
 * defaults (gtx480 preset, timing model, summary on stderr). */
WarpsimSim *warpsim_create_from_env(char *err, size_t err_len);
/* Write the results (summary, --json/--csv/--stats files) and free everything. */
void warpsim_destroy(WarpsimSim *s);
const char *warpsim_error(const WarpsimSim *s);
/* The first results file the run writes (--json, then --csv, then --stats), or NULL. */
const char *warpsim_results_file(const WarpsimSim *s);
void warpsim_device_info(const WarpsimSim *s, WarpsimDeviceInfo *out);

WarpsimStatus warpsim_module_load(WarpsimSim *s, const char *ptx_text, const char *name, WarpsimModule **out);
/* The PTX of n objects linked as one module's text (relocatable device code, nvcc -rdc:
 * extern declarations resolved across the objects), to pass to warpsim_module_load; malloc'd,
 * free it. NULL with a message (warpsim_error) if two objects define one name. */
char *warpsim_ptx_link(WarpsimSim *s, const char *const *texts, uint32_t n);
/* The PTX is that of CUDA's device runtime library (libcudadevrt: it defines the functions of
 * the device runtime, which the simulator provides itself), not to be linked. */
int warpsim_ptx_is_device_runtime(const char *ptx_text);
void warpsim_module_unload(WarpsimSim *s, WarpsimModule *m);
WarpsimStatus warpsim_kernel_info(WarpsimSim *s, const WarpsimModule *m, const char *kernel,
                                  WarpsimKernelInfo *out);
/* CTAs of `block_threads` threads and `dynamic_smem` bytes of dynamic shared memory that one
 * empty SM holds, by the same rule the CTA dispatcher uses (threads, warps, registers, shared
 * memory and CTA slots); 0 when such a CTA does not fit at all. */
WarpsimStatus warpsim_kernel_occupancy(WarpsimSim *s, const WarpsimModule *m, const char *kernel,
                                       uint32_t block_threads, uint32_t dynamic_smem, uint32_t *ctas_per_sm);
/* A kernel's register count from ptxas (e.g. from a cubin); overrides the PTX's own report. */
void warpsim_kernel_set_regs(WarpsimModule *m, const char *kernel, uint32_t regs);
/* Register counts from a ptxas -v report (a .ptxinfo file); overrides earlier ones. */
void warpsim_module_add_ptxinfo(WarpsimModule *m, const char *ptxas_report);
/* Address and size of a module's .global or .const variable. */
WarpsimStatus warpsim_symbol(WarpsimSim *s, const WarpsimModule *m, const char *name, uint64_t *addr,
                             uint64_t *size);

/* Device memory: 0 from warpsim_malloc only for 0 bytes. Copies and memsets must stay inside
 * one allocation or module variable (WARPSIM_E_INPUT otherwise, with where the bytes lie). */
uint64_t warpsim_malloc(WarpsimSim *s, uint64_t bytes);
WarpsimStatus warpsim_free(WarpsimSim *s, uint64_t addr);
/* Free every allocation (module variables stay). */
void warpsim_free_all(WarpsimSim *s);
/* Bytes of the live allocations, as asked for. */
uint64_t warpsim_mem_allocated(const WarpsimSim *s);

/* Virtual memory management (the driver's cuMemAddressReserve and cuMemMap): address space
 * reserved without memory, and allocations placed inside it. warpsim_address_reserve: bytes of
 * address space at a multiple of align (a power of two), which no other allocation takes until
 * warpsim_address_free (WARPSIM_E_INPUT while memory is placed in it); 0 if none is left.
 * warpsim_malloc_at: an allocation of bytes at addr, wholly inside one reservation and
 * overlapping no memory placed there (WARPSIM_E_INPUT otherwise); warpsim_free frees it and
 * leaves its space reserved. */
uint64_t warpsim_address_reserve(WarpsimSim *s, uint64_t bytes, uint64_t align);
WarpsimStatus warpsim_address_free(WarpsimSim *s, uint64_t addr);
WarpsimStatus warpsim_malloc_at(WarpsimSim *s, uint64_t addr, uint64_t bytes);

/* Host memory the device addresses at the host's own addresses (unified addressing): the
 * device pointer is the host pointer, and kernels and the host touch the same bytes.
 * warpsim_malloc_managed: managed memory (cudaMallocManaged), zero-filled, freed by
 * warpsim_free; 0 if the host has none to give. warpsim_map_host: the program's memory, for
 * mapped pinned memory (WARPSIM_E_INPUT if it overlaps memory the device addresses already);
 * warpsim_unmap_host forgets it. A module's __managed__ variables are placed so too. */
uint64_t warpsim_malloc_managed(WarpsimSim *s, uint64_t bytes);
WarpsimStatus warpsim_map_host(WarpsimSim *s, const void *p, uint64_t bytes);
WarpsimStatus warpsim_unmap_host(WarpsimSim *s, const void *p);

/* Interprocess memory: device addresses [addr, addr + bytes) whose bytes are the host memory
 * at `host` (a file mapped shared with other processes), for kernels, copies and the timing
 * model alike. All three are multiples of 4 KiB; what the device may address does not change
 * (the range holds, or will hold, an allocation). adopt: the bytes the device holds there now
 * are copied in first (exporting an existing allocation), and warpsim_unmap_shared copies the
 * first and last 4 KiB back, which neighbouring allocations may share. WARPSIM_E_INPUT if the
 * range is misaligned or overlaps shared or host memory; warpsim_unmap_shared: if none starts
 * at addr. */
WarpsimStatus warpsim_map_shared(WarpsimSim *s, uint64_t addr, void *host, uint64_t bytes, int adopt);
WarpsimStatus warpsim_unmap_shared(WarpsimSim *s, uint64_t addr);

/* An allocation or module variable: its first byte and size (the bytes asked for). */
typedef struct WarpsimRange {
    uint64_t addr, size;
    int is_variable; /* a __device__ or __constant__ variable, or mapped host memory, which
                        warpsim_free refuses */
    int is_managed;  /* managed memory (warpsim_malloc_managed, a __managed__ variable) */
    int is_mapped;   /* the program's host memory (warpsim_map_host) */
} WarpsimRange;

/* The allocation or variable holding all of [addr, addr + bytes) (bytes 0 counts as 1): 1 and
 * *out, or 0 (and nothing printed). */
int warpsim_mem_find(const WarpsimSim *s, uint64_t addr, uint64_t bytes, WarpsimRange *out);
WarpsimStatus warpsim_memcpy_htod(WarpsimSim *s, uint64_t dst, const void *src, size_t bytes);
WarpsimStatus warpsim_memcpy_dtoh(WarpsimSim *s, void *dst, uint64_t src, size_t bytes);
WarpsimStatus warpsim_memcpy_dtod(WarpsimSim *s, uint64_t dst, uint64_t src, size_t bytes);
WarpsimStatus warpsim_memset(WarpsimSim *s, uint64_t dst, int value, size_t bytes);

/* CUDA arrays in device memory. An array of `slices` slices (its depth, its layers, a cube
 * map's faces) of `height` rows of width_bytes is one allocation of `bytes`, laid out in tiles
 * of 64 bytes x 8 rows (512 bytes) when tiled (arrays of two or more dimensions: a 2D
 * neighbourhood shares cache lines, as in a GPU's block-linear layout), tiles row-major,
 * slices one after another; row after row otherwise (1D arrays). */
typedef struct WarpsimArrayLayout {
    uint64_t width_bytes, height, slices; /* as asked */
    uint64_t row_bytes;   /* tiled: the row padded to whole tiles; else width_bytes */
    uint64_t slice_bytes, bytes;
    int tiled;
} WarpsimArrayLayout;

/* The layout of an array; 0 if its size overflows 64 bits. */
int warpsim_array_layout(uint64_t width_bytes, uint64_t height, uint64_t slices, int tiled,
                         WarpsimArrayLayout *out);
/* The offset of byte xb of row y of slice z from the array's start; *run (if not NULL): the
 * bytes from there on that are contiguous in memory and in the row (to the end of its tile or
 * row). */
uint64_t warpsim_array_offset(const WarpsimArrayLayout *l, uint64_t xb, uint64_t y, uint64_t z, uint64_t *run);

/* Texture and surface objects. Linear memory (WARPSIM_TEX_LINEAR, what tex1Dfetch reads):
 * count elements at base. Pitched 2D memory: width x height elements, rows `pitch` bytes apart.
 * An array: width x height x depth elements (height 0: 1D; depth 0: not 3D) in
 * `layers` layers (0: not layered), or a cube map (six faces of width x width, x layers if
 * layered), laid out by `layout`. Each element has `channels` channels (1 to 4) of
 * channel_bytes (1, 2 or 4; a 2-byte float is a half). normalized: 1- and 2-byte integers read
 * as floats in [0, 1] / [-1, 1]. address, linear_filter, normalized_coords and border are the
 * sampling of tex1D/2D/3D (cudaTextureDesc's fields; address by cudaTextureAddressMode
 * value). surface: a surface object (surf*read / surf*write on an array). The handle (never 0)
 * is the value a kernel receives as its cudaTextureObject_t or cudaSurfaceObject_t. */
typedef enum WarpsimTexFormat { WARPSIM_TEX_SIGNED, WARPSIM_TEX_UNSIGNED, WARPSIM_TEX_FLOAT } WarpsimTexFormat;
typedef enum WarpsimTexKind { WARPSIM_TEX_LINEAR, WARPSIM_TEX_PITCH2D, WARPSIM_TEX_ARRAY } WarpsimTexKind;

typedef struct WarpsimTexture {
    uint64_t base, count;
    uint32_t channels, channel_bytes;
    WarpsimTexFormat format;
    int normalized;
    WarpsimTexKind kind;
    uint64_t width, height, depth, layers, pitch;
    int cube;
    WarpsimArrayLayout layout;
    int address[3], linear_filter, normalized_coords;
    float border[4];
    int surface;
} WarpsimTexture;

WarpsimStatus warpsim_texture_create(WarpsimSim *s, const WarpsimTexture *t, uint64_t *handle);
WarpsimStatus warpsim_texture_destroy(WarpsimSim *s, uint64_t handle);

/* Run a kernel to completion. params: the packed parameter buffer (see WarpsimKernelInfo). */
WarpsimStatus warpsim_launch(WarpsimSim *s, WarpsimModule *m, const char *kernel, const uint32_t grid[3],
                             const uint32_t block[3], uint32_t dyn_smem_bytes, const void *params,
                             size_t params_len);

/* A cooperative launch (cudaLaunchCooperativeKernel): the whole grid must fit on the device at
 * once (at most warpsim_cooperative_max_blocks blocks; WARPSIM_E_LAUNCH otherwise), and its
 * threads may synchronise grid-wide (cooperative groups' grid.sync(), which reads the grid
 * workspace the launch passes in %envreg1:%envreg2). --functional runs its CTAs taking turns,
 * so that they may wait for one another. */
WarpsimStatus warpsim_launch_cooperative(WarpsimSim *s, WarpsimModule *m, const char *kernel, const uint32_t grid[3],
                                         const uint32_t block[3], uint32_t dyn_smem_bytes, const void *params,
                                         size_t params_len);
/* The blocks of that shape a cooperative launch may have: the CTAs one SM holds x the SMs. */
WarpsimStatus warpsim_cooperative_max_blocks(WarpsimSim *s, const WarpsimModule *m, const char *kernel,
                                             const uint32_t block[3], uint32_t dyn_smem_bytes, uint64_t *max_blocks);

/* Dynamic parallelism: kernels launch kernels (k<<<...>>> in device code, nvcc -rdc). A grid's
 * launches and cudaMemcpyAsync copies run once it is complete, before the launch that ran it
 * returns (docs/cuda.md, "Dynamic parallelism"), each launch in the stats as its own kernel.
 * Its limits: work pending at once (cudaLimitDevRuntimePendingLaunchCount, default 2048) and
 * the heap of device-side cudaMalloc (cudaLimitMallocHeapSize, default 8 MiB). describe names
 * an error code for a kernel's cudaGetErrorString (NULL: "unrecognized error code"). */
void warpsim_set_device_runtime_limits(WarpsimSim *s, uint64_t pending_launches, uint64_t heap_bytes);
void warpsim_set_error_describer(WarpsimSim *s, const char *(*describe)(int code));
/* The program has been given a kernel fault's error by a call after the faulting launch (a
 * synchronisation, cudaGetLastError, any call that returns the sticky error): handling it is
 * now the program's, so `warpsim exec` exits with the program's own status, as on a GPU. */
void warpsim_fault_returned(WarpsimSim *s);

/* Simulated time so far in nanoseconds (core cycles at the core clock; 0 when functional). */
double warpsim_time_ns(const WarpsimSim *s);

#ifdef __cplusplus
}
#endif

#endif
