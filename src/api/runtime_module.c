/* runtime_module.c: registered code of warpsim's libcudart replacement (see runtime.c).
 *
 * nvcc's constructors register each object's fat binary, kernels and variables before main;
 * a fat binary is only parsed then. Its PTX (the highest-arch entry) is loaded into the
 * simulator the first time one of its kernels or variables is used, with ptxas's register
 * counts from the cubin beside it, and its variables are placed in the simulator's memory. A corrupt
 * fat binary fails exactly the calls that need it, with the same error each time. Kernels are
 * looked up by their host stub (or as a cudaKernel_t), variables by their host shadow. */
#include "api/runtime_internal.h"

#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static RtModule *rt_modules;
static uint32_t rt_n_modules;
static RtKernel *rt_kernels;
static RtVar *rt_vars;

static cudaError_t module_load(RtModule *mod, const char *call);

/* ---- registration (called from nvcc's constructors, before main) ---- */

void **__cudaRegisterFatBinary(void *fatCubin)
{
    API_LOCKED;
    RtModule *mod = xcalloc(1, sizeof *mod);
    mod->index = ++rt_n_modules;
    if (!fatbin_parse_wrapper(fatCubin, &mod->fb, mod->err, sizeof mod->err)) {
        mod->bad = true;
        fprintf(stderr, "warpsim: __cudaRegisterFatBinary: %s; the kernels and variables of this fat binary "
                        "cannot be used\n", mod->err);
    } else {
        mod->wrapper_version = ((const uint32_t *)fatCubin)[1];
        mod->prelinked = fatbin_prelinked(fatCubin);
    }
    mod->next = rt_modules;
    rt_modules = mod;
    return (void **)mod;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
}

/* nvcc's code calls this before its first use of a __managed__ variable (through a pointer
 * that the module's load sets): load the module now. */
char __cudaInitModule(void **fatCubinHandle)
{
    API_LOCKED;
    RtModule *mod = (RtModule *)fatCubinHandle;
    if (!mod || rt_init("__cudaInitModule") != cudaSuccess || module_load(mod, "__cudaInitModule") != cudaSuccess) {
        fprintf(stderr, "warpsim: __cudaInitModule: the __managed__ variables of fat binary %u cannot be placed; "
                "the program's accesses to them will fail\n", mod ? mod->index : 0);
        return 0;
    }
    return 1;
}

/* A kernel or variable names its fat binary and itself; if not, say which is missing. */
static bool registration_ok(const char *call, void **fatCubinHandle, const char *name, const char *no_name)
{
    if (fatCubinHandle && name)
        return true;
    fprintf(stderr, "warpsim: %s: %s\n", call, !name ? no_name : "no fat binary");
    return false;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, void *tid, void *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    API_LOCKED;
    if (!registration_ok("__cudaRegisterFunction", fatCubinHandle, deviceName, "no kernel name"))
        return;
    RtKernel *k = xcalloc(1, sizeof *k);
    k->host_fun = hostFun;
    k->name = xstrdup(deviceName);
    k->mod = (RtModule *)fatCubinHandle;
    k->next = rt_kernels;
    rt_kernels = k;
}

static void register_var(void **fatCubinHandle, const void *hostVar, void **managed_ptr, const char *deviceName,
                         size_t size)
{
    RtVar *v = xcalloc(1, sizeof *v);
    v->host_var = hostVar;
    v->managed_ptr = managed_ptr;
    v->name = xstrdup(deviceName);
    v->mod = (RtModule *)fatCubinHandle;
    v->size = size;
    v->next = rt_vars;
    rt_vars = v;
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global)
{
    API_LOCKED;
    if (registration_ok("__cudaRegisterVar", fatCubinHandle, deviceName, "no variable name"))
        register_var(fatCubinHandle, hostVar, NULL, deviceName, size);
}

/* A __managed__ variable: the program's code reaches it through *hostVarPtrAddress (after
 * __cudaInitModule), which the module's load points at the variable's memory, host memory
 * the device addresses at the same address; the symbol the program passes to
 * cudaMemcpyToSymbol and the like is that address. */
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global)
{
    API_LOCKED;
    if (!registration_ok("__cudaRegisterManagedVar", fatCubinHandle, deviceName, "no variable name"))
        return;
    if (!hostVarPtrAddress) {
        fprintf(stderr, "warpsim: __cudaRegisterManagedVar: '%s': no pointer to set\n", deviceName);
        return;
    }
    register_var(fatCubinHandle, hostVarPtrAddress, hostVarPtrAddress, deviceName, size);
}

void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    API_LOCKED;
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
    free(mod->ptx_path);
    free(mod);
}

/* ---- loading a fat binary's PTX on first use ---- */

/* Where a module's PTX is kept: the simulator's messages cite its lines, so a file of that
 * name must exist when they are read. With WARPSIM_PTX_DIR set, every module's PTX is written
 * there as it loads. Otherwise a module's PTX is written only after a message cites it (a
 * failed load, a kernel fault): beside the run's results (its first results file's folder), or
 * in the temporary folder when the run writes none, under a name of its own. */
static char *ptx_path(const RtModule *mod)
{
    char name[64], path[4096];
    snprintf(name, sizeof name, "fatbin%u.compute_%u.ptx", mod->index, mod->ptx_arch);
    const char *dir = getenv("WARPSIM_PTX_DIR"), *res = warpsim_results_file(rt_sim);
    const char *slash = res && strncmp(res, "/dev/", 5) != 0 ? strrchr(res, '/') : NULL;
    if (dir && *dir)
        snprintf(path, sizeof path, "%s/%s", dir, name);
    else if (res && strncmp(res, "/dev/", 5) != 0)
        snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - res + 1) : 0, res, name);
    else {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/warpsim-%ld.%s", tmp && *tmp ? tmp : "/tmp", (long)getpid(), name);
    }
    return xstrdup(path);
}

static void save_ptx(RtModule *mod, const char *ptx)
{
    mod->ptx_kept = true;
    FILE *f = fopen(mod->ptx_path, "w");
    if (!f || fputs(ptx, f) < 0 || fclose(f) != 0)
        fprintf(stderr, "warpsim: %s: cannot write: %s\n", mod->ptx_path, strerror(errno));
    else if (!getenv("WARPSIM_PTX_DIR"))
        fprintf(stderr, "warpsim: the PTX those lines are in: %s\n", mod->ptx_path);
}

void rt_module_keep_ptx(RtModule *mod)
{
    if (mod->ptx_kept || !mod->ptx_path)
        return;
    char err[512];
    uint32_t arch;
    char *ptx = fatbin_extract_ptx_for(&mod->fb, mod->m ? mod->ptx_arch : api_device_arch(), &arch, err,
                                       sizeof err); /* the one it runs */
    if (ptx)
        save_ptx(mod, ptx);
    free(ptx);
}

/* A program linked with relocatable device code (nvcc -rdc): its fat binary holds only the
 * cubin nvlink made, and the PTX is in the objects' own fat binaries. Link the PTX of those
 * whose PTX is for the cubin's architecture or below (ptx_link); the others are skipped, and so
 * is the device runtime library's (libcudadevrt, which carries PTX only for the newest
 * architecture): the simulator provides the device runtime itself. NULL with a message if no
 * object is left. */
static char *prelinked_ptx(const RtModule *mod, uint32_t *arch, char *err, size_t err_len)
{
    int cubin = fatbin_best_entry(&mod->fb, FATBIN_KIND_ELF);
    uint32_t max_arch = cubin >= 0 ? mod->fb.entries[cubin].arch : UINT32_MAX;
    uint32_t n = 0;
    for (const void *const *p = mod->prelinked; *p; p++)
        n++;
    char **texts = xcalloc(n ? n : 1, sizeof *texts);
    uint32_t n_texts = 0;
    bool bad = false;
    *arch = 0;
    for (uint32_t i = 0; i < n; i++) {
        Fatbin fb;
        char why[256];
        uint32_t a = 0;
        if (!fatbin_parse_unsized(mod->prelinked[i], &fb, why, sizeof why)) {
            snprintf(err, err_len, "the fat binary of object %u of the -rdc link: %s", i + 1, why);
            bad = true;
            break;
        }
        char *ptx = fatbin_extract_ptx_upto(&fb, max_arch, &a, why, sizeof why);
        fatbin_free(&fb);
        if (!ptx || warpsim_ptx_is_device_runtime(ptx)) {
            free(ptx);
            continue;
        }
        texts[n_texts++] = ptx;
        *arch = MAX(*arch, a);
    }
    char *out = NULL;
    if (!bad && n_texts == 1) {
        out = texts[0];
        texts[0] = NULL;
    } else if (!bad && n_texts > 1) {
        out = warpsim_ptx_link(rt_sim, (const char *const *)texts, n_texts);
        if (!out)
            snprintf(err, err_len, "%s", warpsim_error(rt_sim));
    } else if (!bad) {
        snprintf(err, err_len, "fatbin: relocatable device code (nvcc -rdc): none of its %u objects carries PTX "
                 "for compute_%u or below but the device runtime library's (warpsim runs PTX: build with it, "
                 "e.g. -gencode arch=compute_75,code=[sm_75,compute_75])", n, max_arch);
    }
    for (uint32_t i = 0; i < n_texts; i++)
        free(texts[i]);
    free(texts);
    return out;
}

static cudaError_t module_load(RtModule *mod, const char *call)
{
    if (mod->m)
        return cudaSuccess;
    if (mod->load_error != cudaSuccess && mod->load_reported) /* said once; CUDA's code again */
        return rt_quiet_fail(mod->load_error);
    if (mod->load_error != cudaSuccess) {
        mod->load_reported = true;
        return rt_fail(mod->load_error, call, "fat binary %u: %s", mod->index, mod->err);
    }
    if (mod->bad) {
        mod->load_error = cudaErrorInvalidKernelImage;
        return module_load(mod, call);
    }
    char err[512] = "";
    bool no_ptx = fatbin_best_entry(&mod->fb, FATBIN_KIND_PTX) < 0;
    char *ptx = no_ptx && mod->prelinked ? prelinked_ptx(mod, &mod->ptx_arch, err, sizeof err)
                                         : fatbin_extract_ptx_for(&mod->fb, api_device_arch(), &mod->ptx_arch, err,
                                                                  sizeof err);
    if (!ptx) {
        mod->load_error = no_ptx ? cudaErrorNoKernelImageForDevice : cudaErrorInvalidKernelImage;
        snprintf(mod->err, sizeof mod->err, "%s%s", err,
                 !no_ptx || mod->prelinked ? ""
                 : " (warpsim runs PTX: build with it, e.g. -gencode arch=compute_75,code=[sm_75,compute_75])");
        return module_load(mod, call);
    }
    free(mod->ptx_path);
    mod->ptx_path = ptx_path(mod);
    const char *dir = getenv("WARPSIM_PTX_DIR");
    if (dir && *dir)
        save_ptx(mod, ptx);
    WarpsimStatus st = warpsim_module_load(rt_sim, ptx, mod->ptx_path, &mod->m);
    if (st != WARPSIM_OK && !mod->ptx_kept)
        save_ptx(mod, ptx);
    /* -rdc: the variables of the objects not linked (the device runtime library's, which the
     * simulator replaces) are not looked for; a use of one fails, naming it */
    for (RtVar *v = rt_vars; v && st == WARPSIM_OK && no_ptx; v = v->next)
        v->foreign = v->mod == mod && !strstr(ptx, v->name);
    free(ptx);
    if (st != WARPSIM_OK) { /* the simulator said why */
        mod->load_error = st == WARPSIM_E_PTX ? cudaErrorInvalidPtx : cudaErrorInvalidKernelImage;
        snprintf(mod->err, sizeof mod->err, "%s", warpsim_error(rt_sim));
        mod->load_reported = true; /* the simulator has printed why */
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
        if (v->mod != mod)
            continue;
        if (v->foreign || warpsim_symbol(rt_sim, mod->m, v->name, &v->addr, NULL) != WARPSIM_OK)
            v->addr = 0;
        if (v->managed_ptr)
            *v->managed_ptr = (void *)(uintptr_t)v->addr;
    }
    return cudaSuccess;
}

/* ---- kernels and variables by their host addresses ---- */

cudaError_t rt_kernel_ready(RtKernel *k, const char *call)
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

RtKernel *rt_kernel_of(const void *func)
{
    for (RtKernel *k = rt_kernels; k; k = k->next)
        if (k->host_fun == func || k == func) /* a host stub, or a cudaKernel_t */
            return k;
    return NULL;
}

cudaError_t rt_var_of(const void *symbol, const char *call, RtVar **out)
{
    *out = NULL;
    RtVar *v = rt_vars; /* a __managed__ variable is named by its address */
    while (v && v->host_var != symbol && !(v->managed_ptr && symbol && *v->managed_ptr == symbol))
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

/* nvcc's launch stubs ask for the kernel of their own address. */
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
