/* wl.h: the small host-side library every suite workload uses (workloads/<suite>/<name>/host.c).
 *
 * A workload's host program is plain C11 against the CUDA driver API: it runs unchanged on
 * warpsim (linked against warpsim's libcuda.so.1) and on a real NVIDIA GPU (linked against
 * NVIDIA's). Its kernels' PTX is compiled into the program (the build embeds kernel.ptx), so a
 * binary needs no files beside it. Every error exits with a message; a result check prints
 *     <name>: PASS max_err=<e>      or      <name>: FAIL max_err=<e> (tolerance <t>)
 * and wl_finish returns the exit status (0 pass, 1 fail). */
#ifndef WL_H
#define WL_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

/* Abort with the call's text, file and line when a driver call fails. */
#define WL_CHECK(call) wl_check((call), #call, __FILE__, __LINE__)
void wl_check(CUresult r, const char *what, const char *file, int line);

/* Parse `key=value` arguments (integers). keys[i] gets values[i] (which holds its default on
 * entry). An unknown key or a malformed value prints usage and exits 2. */
void wl_args(int argc, char **argv, int n_keys, const char *const keys[], long values[]);

/* cuInit, device 0, its primary context, and the embedded PTX module. */
void wl_init(void);
CUfunction wl_kernel(const char *name);
/* The device address of the module's __constant__ or __device__ variable `name` (cuModuleGetGlobal);
 * its size goes to *bytes unless bytes is NULL. Fill a __constant__ array with wl_copy_to. */
CUdeviceptr wl_symbol(const char *name, size_t *bytes);
CUdeviceptr wl_alloc(size_t bytes);
CUdeviceptr wl_upload(const void *host, size_t bytes); /* alloc + copy */
void wl_download(void *host, CUdeviceptr dev, size_t bytes);
void wl_copy_to(CUdeviceptr dev, const void *host, size_t bytes);
void wl_zero(CUdeviceptr dev, size_t bytes);
void wl_free(CUdeviceptr dev);
/* Launch and wait for completion. args as cuLaunchKernel's kernelParams. */
void wl_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
               unsigned smem_bytes, void **args);

/* Deterministic inputs: a 64-bit generator seeded by wl_seed (xorshift64*). */
void wl_seed(uint64_t seed);
uint64_t wl_rand(void);
uint32_t wl_rand_below(uint32_t n); /* uniform in [0, n) */
float wl_randf(void);               /* uniform in [0, 1) */

/* Largest |got - want| / max(1, |want|) over n values. */
double wl_max_err_f(const float *got, const float *want, size_t n);
/* Largest |got - want| over n integers. */
double wl_max_err_i(const int *got, const int *want, size_t n);

/* Print PASS/FAIL for `name` (max_err <= tol passes), release the context, return the exit status. */
int wl_finish(const char *name, double max_err, double tol);

#endif
