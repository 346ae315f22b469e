/* nvrtc_ptx.c: libwarpsim-nvrtc.so, which `warpsim exec` preloads so that NVRTC programs get PTX.
 *
 * A program that compiles its kernels at run time usually asks NVIDIA's libnvrtc for a real
 * architecture (--gpu-architecture=sm_XY, from the device's compute capability) and loads the
 * cubin (nvrtcGetCUBIN) with cuModuleLoadData. warpsim runs PTX only, so this library defines
 * a few NVRTC entry points in front of libnvrtc's: nvrtcCompileProgram compiles such a program
 * for the virtual compute_XY instead, which makes NVRTC emit PTX, and remembers it;
 * nvrtcGetCUBINSize / nvrtcGetCUBIN then answer with its PTX (NUL-terminated, as nvrtcGetPTX
 * gives it). Everything else goes to libnvrtc untouched: a program compiled for a virtual
 * architecture, or without one, gets what NVRTC gives (no cubin: size 0), as on a GPU.
 *
 * When this NVRTC does not support compute_XY (CUDA 13 starts at 7.5, warpsim's qv100 is 7.0)
 * the lowest architecture above it that it supports is used, with one line on stderr: PTX for
 * a later architecture is what the simulator runs anyway, while NVRTC would refuse the option.
 *
 * The real functions are found with dlsym(RTLD_NEXT) at the first call: loading this library
 * needs no libnvrtc and does nothing (no constructor), so programs without NVRTC never notice. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <cuda/nvrtc.h>

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the real NVRTC, found after us in the program's search order ---- */

typedef nvrtcResult (*NvrtcCompileFn)(nvrtcProgram, int, const char *const *);
typedef nvrtcResult (*NvrtcDestroyFn)(nvrtcProgram *);
typedef nvrtcResult (*NvrtcSizeFn)(nvrtcProgram, size_t *);
typedef nvrtcResult (*NvrtcGetFn)(nvrtcProgram, char *);
typedef nvrtcResult (*NvrtcIntFn)(int *);

enum {
    REAL_COMPILE, REAL_DESTROY, REAL_PTX_SIZE, REAL_PTX, REAL_CUBIN_SIZE, REAL_CUBIN, REAL_NUM_ARCHS, REAL_ARCHS,
    REAL_N
};
static const char *const nvrtc_names[REAL_N] = {
    "nvrtcCompileProgram", "nvrtcDestroyProgram", "nvrtcGetPTXSize",           "nvrtcGetPTX",
    "nvrtcGetCUBINSize",   "nvrtcGetCUBIN",       "nvrtcGetNumSupportedArchs", "nvrtcGetSupportedArchs",
};
static _Atomic(void *) nvrtc_fns[REAL_N];

/* The real function (looked up at its first call; concurrent first calls find the same one);
 * NULL, with a message, when no library after this one defines it. */
static void *nvrtc_real(int which)
{
    void *f = atomic_load_explicit(&nvrtc_fns[which], memory_order_acquire);
    if (f)
        return f;
    f = dlsym(RTLD_NEXT, nvrtc_names[which]);
    if (!f) {
        const char *err = dlerror();
        fprintf(stderr, "warpsim: NVRTC: %s: no definition after libwarpsim-nvrtc.so (%s)\n", nvrtc_names[which],
                err ? err : "libnvrtc is not loaded");
        return NULL;
    }
    atomic_store_explicit(&nvrtc_fns[which], f, memory_order_release);
    return f;
}

/* ---- the programs compiled here for a virtual architecture in place of a real one ---- */

/* Live programs only (nvrtcDestroyProgram forgets them), so the table stays as small as the
 * number of programs a process holds at once. */
static pthread_mutex_t nvrtc_lock = PTHREAD_MUTEX_INITIALIZER;
static nvrtcProgram *nvrtc_progs;
static size_t nvrtc_n, nvrtc_cap;

/* Under nvrtc_lock: the index of prog in the table, or nvrtc_n. */
static size_t nvrtc_find(nvrtcProgram prog)
{
    size_t i = 0;
    while (i < nvrtc_n && nvrtc_progs[i] != prog)
        i++;
    return i;
}

/* Remember prog (ptx true) or forget it; false when the table cannot grow. */
static bool nvrtc_mark(nvrtcProgram prog, bool ptx)
{
    bool ok = true;
    pthread_mutex_lock(&nvrtc_lock);
    size_t i = nvrtc_find(prog);
    if (ptx && i == nvrtc_n) {
        if (nvrtc_n == nvrtc_cap) {
            size_t cap = nvrtc_cap ? 2 * nvrtc_cap : 16;
            nvrtcProgram *v = realloc(nvrtc_progs, cap * sizeof *v);
            if (v) {
                nvrtc_progs = v;
                nvrtc_cap = cap;
            }
        }
        if (nvrtc_n < nvrtc_cap)
            nvrtc_progs[nvrtc_n++] = prog;
        else
            ok = false;
    } else if (!ptx && i < nvrtc_n) {
        nvrtc_progs[i] = nvrtc_progs[--nvrtc_n];
    }
    pthread_mutex_unlock(&nvrtc_lock);
    return ok;
}

static bool nvrtc_remembered(nvrtcProgram prog)
{
    pthread_mutex_lock(&nvrtc_lock);
    bool found = nvrtc_find(prog) < nvrtc_n;
    pthread_mutex_unlock(&nvrtc_lock);
    return found;
}

/* ---- the architecture option ---- */

#define NVRTC_ARCH_LEN 32

/* If value is a real architecture sm_XY[a|f] (XY its number), the virtual one to compile for
 * instead into out: compute_XY with its suffix when this NVRTC supports XY, else the lowest
 * number above XY it supports (without the suffix, which belongs to XY). False when value is
 * not a real architecture or nothing suitable is supported: the option is left as it is. */
static bool nvrtc_virtual_arch(const char *value, char *out, size_t len)
{
    if (strncmp(value, "sm_", 3) || !isdigit((unsigned char)value[3]))
        return false;
    char *end;
    long xy = strtol(value + 3, &end, 10);
    if (xy <= 0 || xy > 100000 || strlen(end) > 1 || (*end && *end != 'a' && *end != 'f'))
        return false;
    long use = xy;
    NvrtcIntFn count = (NvrtcIntFn)nvrtc_real(REAL_NUM_ARCHS), list = (NvrtcIntFn)nvrtc_real(REAL_ARCHS);
    int n = 0, *archs = NULL;
    if (count && list && count(&n) == NVRTC_SUCCESS && n > 0 && (archs = malloc((size_t)n * sizeof *archs)) &&
        list(archs) == NVRTC_SUCCESS) {
        long lowest = -1, above = -1;
        bool supported = false;
        for (int i = 0; i < n; i++) {
            supported |= archs[i] == xy;
            if (lowest < 0 || archs[i] < lowest)
                lowest = archs[i];
            if (archs[i] > xy && (above < 0 || archs[i] < above))
                above = archs[i];
        }
        if (!supported && above < 0) {
            free(archs);
            return false; /* newer than this NVRTC: let it say so */
        }
        if (!supported) {
            use = above;
            static atomic_flag said = ATOMIC_FLAG_INIT;
            if (!atomic_flag_test_and_set(&said))
                fprintf(stderr,
                        "warpsim: NVRTC: %s compiled as compute_%ld PTX, the %s architecture this NVRTC supports\n",
                        value, use, use == lowest ? "oldest" : "next");
        }
    }
    free(archs);
    /* Without the list (an NVRTC older than 11.2) compute_XY is tried as it is. */
    snprintf(out, len, "compute_%ld%s", use, use == xy ? end : "");
    return true;
}

/* ---- the entry points ---- */

nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options)
{
    NvrtcCompileFn fn = (NvrtcCompileFn)nvrtc_real(REAL_COMPILE);
    if (!fn)
        return NVRTC_ERROR_INTERNAL_ERROR;
    if (numOptions <= 0 || !options) {
        nvrtc_mark(prog, false);
        return fn(prog, numOptions, options);
    }
    /* The same options with each architecture rewritten: --gpu-architecture=X, -arch=X, and
     * either name followed by X as the next string (NVRTC's spellings). */
    const char **opts = malloc((size_t)numOptions * sizeof *opts);
    char(*bufs)[NVRTC_ARCH_LEN + 24] = malloc((size_t)numOptions * sizeof *bufs);
    if (!opts || !bufs) {
        free(opts);
        free(bufs);
        return NVRTC_ERROR_OUT_OF_MEMORY;
    }
    bool rewritten = false;
    for (int i = 0; i < numOptions; i++) {
        opts[i] = options[i];
        const char *o = options[i];
        if (!o)
            continue;
        static const char *const names[] = {"--gpu-architecture", "-arch"};
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            size_t len = strlen(names[k]);
            if (strncmp(o, names[k], len))
                continue;
            char arch[NVRTC_ARCH_LEN];
            if (o[len] == '=' && nvrtc_virtual_arch(o + len + 1, arch, sizeof arch)) {
                snprintf(bufs[i], sizeof bufs[i], "%s=%s", names[k], arch);
                opts[i] = bufs[i];
                rewritten = true;
            } else if (!o[len] && i + 1 < numOptions && options[i + 1] &&
                       nvrtc_virtual_arch(options[i + 1], arch, sizeof arch)) {
                i++;
                opts[i] = bufs[i];
                snprintf(bufs[i], sizeof bufs[i], "%s", arch);
                rewritten = true;
            }
            break;
        }
    }
    nvrtcResult r = fn(prog, numOptions, rewritten ? opts : options);
    free(opts);
    free(bufs);
    if (rewritten && !nvrtc_mark(prog, true)) {
        fprintf(stderr, "warpsim: NVRTC: out of memory remembering a program compiled to PTX\n");
        return NVRTC_ERROR_OUT_OF_MEMORY;
    }
    if (!rewritten)
        nvrtc_mark(prog, false); /* compiled again, as the program asked this time */
    return r;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog)
{
    NvrtcDestroyFn fn = (NvrtcDestroyFn)nvrtc_real(REAL_DESTROY);
    if (!fn)
        return NVRTC_ERROR_INTERNAL_ERROR;
    if (prog && *prog)
        nvrtc_mark(*prog, false);
    return fn(prog);
}

/* The cubin of a program compiled here is its PTX; cuModuleLoadData takes either. */
nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet)
{
    NvrtcSizeFn fn = (NvrtcSizeFn)nvrtc_real(nvrtc_remembered(prog) ? REAL_PTX_SIZE : REAL_CUBIN_SIZE);
    return fn ? fn(prog, cubinSizeRet) : NVRTC_ERROR_INTERNAL_ERROR;
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin)
{
    NvrtcGetFn fn = (NvrtcGetFn)nvrtc_real(nvrtc_remembered(prog) ? REAL_PTX : REAL_CUBIN);
    return fn ? fn(prog, cubin) : NVRTC_ERROR_INTERNAL_ERROR;
}
