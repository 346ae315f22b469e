/* gpu_par.h: one simulation's SMs advanced on several threads (gpu.threads), with the same
 * results as on one.
 *
 * Each core cycle the awake SMs run on n threads, thread t taking a fixed run of consecutive
 * SMs; the calling thread takes the first run and the rest of the machine (CTA dispatch, the
 * interconnect, L2 and DRAM) runs on it alone between those phases. What one SM's cycle writes
 * outside itself is per thread or atomic: requests come from a per-thread view of the request
 * pool (memreq.h), the miss-queue words are updated atomically (l1d.c), and the CTAs an SM
 * completed are collected after the phase in SM order. The front end's calls that it does not
 * allow in parallel (FrontOps.peek_parallel, exec_parallel; a PTX warp's exec reads and writes
 * global memory) wait until every SM before the caller has finished the cycle, so they run in
 * the order of one thread: SM 0's, then SM 1's, and so on. Hence the stats, cycles and
 * program output equal those of gpu.threads = 1, whatever the number of threads. */
#ifndef WARPSIM_GPU_PAR_H
#define WARPSIM_GPU_PAR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/sm.h"
#include "mem/memreq.h"

typedef struct GpuPar GpuPar;

/* n_threads (2 or more, at most n_sms) threads over sms[n_sms]; the workers start here and
 * sleep while no cycle runs. Cycles with fewer than min_sms busy SMs a thread (on average) run
 * on the calling thread; with more, timed trials choose (gpu.par_min_sms; 0: every cycle on
 * all threads). On all threads, each SM's L1D takes its requests from its thread's view of
 * pool. */
GpuPar *gpu_par_new(Sm *sms, uint32_t n_sms, uint32_t n_threads, uint32_t min_sms, MemPool *pool);
/* Stop the workers and give each SM its L1D's pool back. */
void gpu_par_free(GpuPar *p);
/* A kernel starts: the timing of serial and parallel cycles starts again. */
void gpu_par_kernel_begin(GpuPar *p);
/* Whether the next cycle runs on the calling thread alone: the caller runs the awake SMs itself
 * (each is set up as with one thread) and tells how many ran (gpu_par_serial_ran). */
bool gpu_par_serial(const GpuPar *p);
void gpu_par_serial_ran(GpuPar *p, uint32_t ran);
/* Otherwise: one core cycle of every SM awake at `now` (next_wake <= now) on all threads;
 * true if any made progress. The caller collects the SMs' completed CTAs afterwards
 * (gpu_par_noted). */
bool gpu_par_cycle(GpuPar *p, uint64_t now);
/* The SMs whose last cycle left something for the GPU (completed CTAs, a CTA cap that grew),
 * in SM order: their count, the list in *sms. */
uint32_t gpu_par_noted(const GpuPar *p, const uint32_t **sms);

#endif
