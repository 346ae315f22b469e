/* wl.c: see wl.h. */
#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char wl_ptx[]; /* generated from kernel.ptx (and kernel.ptxinfo) by embed.sh */

static CUdevice wl_dev;
static CUcontext wl_ctx;
static CUmodule wl_mod;
static uint64_t wl_state = 0x9E3779B97F4A7C15ull;

void wl_check(CUresult r, const char *what, const char *file, int line)
{
    if (r == CUDA_SUCCESS)
        return;
    const char *msg = NULL;
    cuGetErrorString(r, &msg);
    fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", file, line, what, msg ? msg : "unknown error", (int)r);
    exit(1);
}

void wl_args(int argc, char **argv, int n_keys, const char *const keys[], long values[])
{
    for (int i = 1; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        int k = -1;
        for (int j = 0; eq && j < n_keys; j++)
            if (strlen(keys[j]) == (size_t)(eq - argv[i]) && !strncmp(argv[i], keys[j], eq - argv[i]))
                k = j;
        char *end = NULL;
        long v = k >= 0 ? strtol(eq + 1, &end, 10) : 0;
        if (k < 0 || !end || end == eq + 1 || *end) {
            fprintf(stderr, "%s: bad argument '%s'; usage: %s", argv[0], argv[i], argv[0]);
            for (int j = 0; j < n_keys; j++)
                fprintf(stderr, " [%s=%ld]", keys[j], values[j]);
            fprintf(stderr, "\n");
            exit(2);
        }
        values[k] = v;
    }
}

void wl_init(void)
{
    WL_CHECK(cuInit(0));
    WL_CHECK(cuDeviceGet(&wl_dev, 0));
    WL_CHECK(cuDevicePrimaryCtxRetain(&wl_ctx, wl_dev));
    WL_CHECK(cuCtxSetCurrent(wl_ctx));
    WL_CHECK(cuModuleLoadData(&wl_mod, wl_ptx));
}

CUfunction wl_kernel(const char *name)
{
    CUfunction f;
    WL_CHECK(cuModuleGetFunction(&f, wl_mod, name));
    return f;
}

CUdeviceptr wl_symbol(const char *name, size_t *bytes)
{
    CUdeviceptr d;
    WL_CHECK(cuModuleGetGlobal(&d, bytes, wl_mod, name));
    return d;
}

CUdeviceptr wl_alloc(size_t bytes)
{
    CUdeviceptr d;
    WL_CHECK(cuMemAlloc(&d, bytes ? bytes : 1));
    return d;
}

CUdeviceptr wl_upload(const void *host, size_t bytes)
{
    CUdeviceptr d = wl_alloc(bytes);
    wl_copy_to(d, host, bytes);
    return d;
}

void wl_copy_to(CUdeviceptr dev, const void *host, size_t bytes)
{
    if (bytes)
        WL_CHECK(cuMemcpyHtoD(dev, host, bytes));
}

void wl_download(void *host, CUdeviceptr dev, size_t bytes)
{
    if (bytes)
        WL_CHECK(cuMemcpyDtoH(host, dev, bytes));
}

void wl_zero(CUdeviceptr dev, size_t bytes)
{
    if (bytes)
        WL_CHECK(cuMemsetD8(dev, 0, bytes));
}

void wl_free(CUdeviceptr dev)
{
    WL_CHECK(cuMemFree(dev));
}

void wl_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
               unsigned smem_bytes, void **args)
{
    WL_CHECK(cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem_bytes, NULL, args, NULL));
    WL_CHECK(cuCtxSynchronize());
}

void wl_seed(uint64_t seed)
{
    wl_state = seed * 0x9E3779B97F4A7C15ull + 1; /* never 0 */
}

uint64_t wl_rand(void)
{
    wl_state ^= wl_state >> 12;
    wl_state ^= wl_state << 25;
    wl_state ^= wl_state >> 27;
    return wl_state * 0x2545F4914F6CDD1Dull;
}

uint32_t wl_rand_below(uint32_t n)
{
    return (uint32_t)(((wl_rand() >> 32) * (uint64_t)n) >> 32);
}

float wl_randf(void)
{
    return (float)(wl_rand() >> 40) / 16777216.0f;
}

double wl_max_err_f(const float *got, const float *want, size_t n)
{
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - (double)want[i]) / fmax(1.0, fabs((double)want[i]));
        if (!(d <= worst)) /* NaN counts as the worst */
            worst = isnan(d) ? INFINITY : d;
    }
    return worst;
}

double wl_max_err_i(const int *got, const int *want, size_t n)
{
    double worst = 0;
    for (size_t i = 0; i < n; i++)
        worst = fmax(worst, fabs((double)got[i] - (double)want[i]));
    return worst;
}

int wl_finish(const char *name, double max_err, double tol)
{
    int pass = max_err <= tol;
    if (pass)
        printf("%s: PASS max_err=%g\n", name, max_err);
    else
        printf("%s: FAIL max_err=%g (tolerance %g)\n", name, max_err, tol);
    cuModuleUnload(wl_mod);
    cuDevicePrimaryCtxRelease(wl_dev);
    return pass ? 0 : 1;
}
