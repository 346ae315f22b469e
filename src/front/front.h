/* front.h: the interface every front end implements for the timing model.
 *
 * The timing model drives: for each kernel it calls kernel_begin, then cta_start each time it
 * places a CTA on an SM, then peek/exec per warp instruction, and cta_end when all the CTA's
 * warps have exited. Warp ids are the timing model's (sm * max_warps_per_sm + slot), below
 * n_warp_ids; a front end keeps its per-warp state in an array indexed by them. */
#ifndef WARPSIM_FRONT_H
#define WARPSIM_FRONT_H

#include "front/winst.h"

/* Address pre-computation (the LAS thesis, ch. 3): what a front end can tell about a kernel's
 * global-memory accesses before any thread runs, from each access's address slice. Only the
 * accesses whose address depends on nothing but the kernel's parameters, the thread and CTA
 * ids and constants are listed. */
typedef struct FrontAccessInfo {
    uint32_t pc;
    uint32_t array; /* its data array: the kernel parameter its address is based on */
    bool is_store;
} FrontAccessInfo;

typedef struct FrontFootprint {
    uint32_t n_access;
    const FrontAccessInfo *access; /* [n_access] */
    /* The byte address of each access, addr[n_access], for thread `thread` (linear in its CTA,
     * x fastest) of CTA cta_id (linear), whether or not that thread would take it. */
    void (*eval)(const struct FrontFootprint *fp, uint32_t cta_id, uint32_t thread, uint64_t *addr);
    void *self; /* the front end's */
} FrontFootprint;

typedef struct FrontKernel {
    char name[128];
    uint32_t grid[3];  /* CTAs in x, y, z */
    uint32_t block[3]; /* threads per CTA in x, y, z */
    uint32_t regs_per_thread;
    uint32_t smem_bytes_per_cta; /* static + dynamic shared memory */
    /* The kernel's precomputable accesses (n_access 0: none is precomputable), built on the
     * first call, for the policies that use them; valid while the kernel runs. NULL: the front
     * end cannot tell. */
    const FrontFootprint *(*footprint)(const struct FrontKernel *k);
    void *footprint_ctx; /* the front end's, for footprint() */
} FrontKernel;

static inline uint32_t front_kernel_n_ctas(const FrontKernel *k)
{
    return k->grid[0] * k->grid[1] * k->grid[2];
}

static inline uint32_t front_kernel_threads_per_cta(const FrontKernel *k)
{
    return k->block[0] * k->block[1] * k->block[2];
}

static inline uint32_t front_kernel_warps_per_cta(const FrontKernel *k)
{
    return (front_kernel_threads_per_cta(k) + WARP_SIZE - 1) / WARP_SIZE;
}

typedef struct FrontOps {
    const char *name;
    /* With gpu.threads > 1, SMs run their cycles on several threads (core/gpu_par.h).
     * peek_parallel: peek and peek_mask of warps of different SMs may run at once, and beside
     * exec of other warps. exec_parallel: so may exec of an instruction whose static view lacks
     * WINST_F_ORDERED, and cta_end. A call not allowed in parallel is made in the order one
     * thread would make it: every SM before the caller's has finished the cycle. */
    bool peek_parallel, exec_parallel;
    /* Optional: a core cycle's SMs are about to run. What a parallel exec reads of state that
     * an exec may change (a fault that ends the kernel) is taken from the last such call, so
     * that every SM of a cycle sees the same. */
    void (*cycle_begin)(void *self);
    /* A kernel starts; warp ids passed later are below n_warp_ids. */
    void (*kernel_begin)(void *self, const FrontKernel *k, uint32_t n_warp_ids);
    /* CTA cta_id (linear, x fastest) starts on SM sm; its warps get ids warp_id_base + i. */
    void (*cta_start)(void *self, uint32_t cta_id, uint32_t sm, uint32_t warp_id_base);
    /* Static view of the warp's next instruction; NULL once the warp has exited. The pointer
     * stays valid until the next exec of that warp. */
    const WinstStatic *(*peek)(void *self, uint32_t warp_id);
    /* Optional: the lanes that instruction runs for, before its guard predicate (the SIMT
     * stack's top), for schedulers that predict a load's divergence; NULL: cannot tell. */
    uint32_t (*peek_mask)(void *self, uint32_t warp_id);
    /* Execute that instruction: fill *out (static part, mask, addresses) and advance. */
    void (*exec)(void *self, uint32_t warp_id, Winst *out);
    void (*cta_end)(void *self, uint32_t cta_id);
    void (*kernel_end)(void *self);
} FrontOps;

/* A parallel exec about to change what other warps read (a fault) calls this first: with
 * gpu.threads > 1 it waits until the SMs before the calling one have finished the cycle, so that
 * such changes happen in one thread's order; otherwise it does nothing (core/gpu_par.c). */
void front_order_here(void);

#endif
