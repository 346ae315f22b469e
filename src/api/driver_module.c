/* driver_module.c: modules, functions and globals of warpsim's libcuda replacement (see
 * driver.c).
 *
 * warpsim runs PTX. A module comes from PTX text (cuModuleLoad reads a file, with ptxas's
 * report beside it for the register counts), or from a fat binary (what nvcc -fatbin writes and
 * programs load with cuModuleLoadData or cuModuleLoadFatBinary, or the wrapper nvcc embeds),
 * whose PTX entry of the highest architecture it runs, with the register counts ptxas chose
 * read from the cubins beside it (src/front/fatbin, as the runtime does; docs/fatbin.md). A
 * cubin alone is refused: there is no PTX to run. JIT options are accepted and change nothing;
 * the logs they ask for are filled. */
#include "api/driver_internal.h"

#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JIT options ---- */

/* The log buffers and wall time a JIT option list asks for: the info log gets `info`, the error
 * log `error` (each cut to its buffer, NUL-terminated, its size option overwritten with the
 * bytes written), the wall time 0 ms. */
void drv_jit_outputs(unsigned n, const CUjit_option *opts, void **vals, const char *info, const char *error)
{
    if (!opts || !vals)
        return;
    for (unsigned i = 0; i < n; i++) {
        bool is_info = opts[i] == CU_JIT_INFO_LOG_BUFFER, is_error = opts[i] == CU_JIT_ERROR_LOG_BUFFER;
        if (opts[i] == CU_JIT_WALL_TIME) {
            float ms = 0; /* an option value is a float in the pointer's bytes */
            vals[i] = NULL;
            memcpy(&vals[i], &ms, sizeof ms);
        }
        if ((!is_info && !is_error) || !vals[i])
            continue;
        CUjit_option size_opt = is_info ? CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES : CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
        for (unsigned j = 0; j < n; j++) {
            if (opts[j] != size_opt)
                continue;
            size_t cap = (unsigned)(uintptr_t)vals[j], len = strlen(is_info ? info : error);
            if (cap == 0)
                break;
            len = MIN(len, cap - 1);
            memcpy(vals[i], is_info ? info : error, len);
            ((char *)vals[i])[len] = 0;
            vals[j] = (void *)(uintptr_t)len;
            break;
        }
    }
}

/* A list a JIT call may take: options and values both given, each option one CUDA 13 has. */
CUresult drv_jit_check(const char *call, unsigned n, const CUjit_option *opts, void *const *vals)
{
    if (n > 0 && (!opts || !vals))
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "%u JIT options with a null option or value array", n);
    for (unsigned i = 0; i < n; i++)
        if ((unsigned)opts[i] >= DRV_JIT_NUM_OPTIONS)
            return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "JIT option %d is not CUDA's", (int)opts[i]);
    return CUDA_SUCCESS;
}

/* ---- loading ---- */

static CUresult module_new(const char *ptx, const char *name, CUmodule *module)
{
    WarpsimModule *m;
    WarpsimStatus st = warpsim_module_load(drv_sim, ptx, name, &m);
    if (st != WARPSIM_OK)
        return drv_result(st);
    struct CUmod_st *mod = xcalloc(1, sizeof *mod);
    mod->m = m;
    *module = mod;
    return CUDA_SUCCESS;
}

/* A fat binary (or nvcc's wrapper of one): its PTX loaded, and a copy of it kept for the
 * register counts of its cubins (the program's image need not outlive the call). Its header
 * gives its size, which must be trusted when the image's length is not known (len 0), as CUDA
 * does. */
static CUresult module_from_fatbin(const char *call, const void *image, size_t len, uint32_t magic, CUmodule *module)
{
    struct {
        uint32_t magic, version;
        const void *data, *unused;
    } wrapper = {FATBIN_WRAPPER_MAGIC, 1, image, NULL}; /* a bare fat binary, wrapped to learn its size */
    const void *data;
    char err[512];
    size_t size = fatbin_size_from_wrapper(magic == FATBIN_MAGIC ? (const void *)&wrapper : image, &data, err,
                                           sizeof err);
    if (!size)
        return drv_fail(CUDA_ERROR_INVALID_IMAGE, call, "%s", err);
    if (len && size > len)
        return drv_fail(CUDA_ERROR_INVALID_IMAGE, call, "fat binary: its header gives %zu bytes, there are %zu", size,
                        len);
    uint8_t *copy = xmalloc(size);
    memcpy(copy, data, size);
    Fatbin fb;
    if (!fatbin_parse(copy, size, &fb, err, sizeof err)) {
        free(copy);
        return drv_fail(CUDA_ERROR_INVALID_IMAGE, call, "%s", err);
    }
    uint32_t arch;
    char *ptx = fatbin_extract_ptx_for(&fb, api_device_arch(), &arch, err, sizeof err);
    if (!ptx) {
        bool no_ptx = fatbin_best_entry(&fb, FATBIN_KIND_PTX) < 0;
        fatbin_free(&fb);
        free(copy);
        return drv_fail(no_ptx ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_IMAGE, call, "fat binary: %s%s",
                        err, no_ptx ? "; warpsim runs PTX" : "");
    }
    char name[32];
    snprintf(name, sizeof name, "fatbin.compute_%u.ptx", arch);
    CUresult r = module_new(ptx, name, module);
    free(ptx);
    if (r != CUDA_SUCCESS) {
        fatbin_free(&fb);
        free(copy);
        return r;
    }
    (*module)->fatbin = copy;
    (*module)->fb = fb;
    return CUDA_SUCCESS;
}

/* len: the image's bytes when known (a file), else 0. */
static CUresult module_from_image(const char *call, CUmodule *module, const void *image, size_t len,
                                  const char *name)
{
    NEED_CTX();
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    uint32_t magic = 0;
    if (strnlen(image, sizeof magic) == sizeof magic) /* the magic numbers hold no NUL; text may be short */
        memcpy(&magic, image, sizeof magic);
    if (magic == FATBIN_MAGIC || magic == FATBIN_WRAPPER_MAGIC)
        return module_from_fatbin(call, image, len, magic, module);
    if (magic == 0x464c457fu) /* "\177ELF" */
        return drv_fail(CUDA_ERROR_INVALID_IMAGE, call, "a cubin (ELF) image; warpsim runs PTX, so load the PTX "
                        "text or a fat binary that holds it");
    return module_new(image, name, module);
}

CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    NEED_CTX();
    if (!fname)
        return CUDA_ERROR_INVALID_VALUE;
    size_t len = 0;
    char *text = read_file(fname, &len);
    if (!text)
        return drv_fail(CUDA_ERROR_FILE_NOT_FOUND, "cuModuleLoad", "%s: %s", fname, strerror(errno));
    CUresult r = module_from_image("cuModuleLoad", module, text, len, fname);
    free(text);
    if (r != CUDA_SUCCESS || (*module)->fatbin)
        return r;
    /* k.ptx -> k.ptxinfo: ptxas's report beside the PTX gives the register counts */
    char info_path[4096];
    snprintf(info_path, sizeof info_path, "%s", fname);
    size_t n = strlen(info_path);
    if (n > 4 && !strcmp(info_path + n - 4, ".ptx") && n + 4 < sizeof info_path)
        strcat(info_path, "info");
    else if (n + 8 < sizeof info_path)
        strcat(info_path, ".ptxinfo");
    char *info = read_file(info_path, NULL);
    if (info) {
        warpsim_module_add_ptxinfo((*module)->m, info);
        free(info);
    }
    return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    return module_from_image("cuModuleLoadData", module, image, 0, "module.ptx");
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    return module_from_image("cuModuleLoadFatBinary", module, fatCubin, 0, "module.ptx");
}

/* The options are accepted; a failure's message goes into the error log too. */
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues)
{
    NEED_CTX();
    CUresult r = drv_jit_check("cuModuleLoadDataEx", numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    r = module_from_image("cuModuleLoadDataEx", module, image, 0, "module.ptx");
    drv_jit_outputs(numOptions, options, optionValues, "",
                    r == CUDA_SUCCESS ? "" : r == CUDA_ERROR_INVALID_PTX ? warpsim_error(drv_sim) : "not loaded");
    return r;
}

CUresult cuModuleUnload(CUmodule hmod)
{
    NEED_INIT();
    if (!hmod)
        return CUDA_ERROR_INVALID_HANDLE;
    while (hmod->funcs) {
        struct CUfunc_st *f = hmod->funcs;
        hmod->funcs = f->next;
        free(f);
    }
    warpsim_module_unload(drv_sim, hmod->m);
    if (hmod->fatbin) {
        fatbin_free(&hmod->fb);
        free(hmod->fatbin);
    }
    free(hmod);
    return CUDA_SUCCESS;
}

/* ---- functions and globals ---- */

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    NEED_CTX();
    if (!hfunc || !name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!hmod)
        return CUDA_ERROR_INVALID_HANDLE;
    for (struct CUfunc_st *f = hmod->funcs; f; f = f->next)
        if (!strcmp(f->info.name, name)) {
            *hfunc = f;
            return CUDA_SUCCESS;
        }
    struct CUfunc_st *f = xcalloc(1, sizeof *f);
    WarpsimStatus st = warpsim_kernel_info(drv_sim, hmod->m, name, &f->info);
    uint32_t regs;
    char err[256];
    if (st == WARPSIM_OK && hmod->fatbin && fatbin_kernel_regs(&hmod->fb, name, &regs, err, sizeof err)) {
        warpsim_kernel_set_regs(hmod->m, name, regs); /* ptxas's count, from the cubin */
        st = warpsim_kernel_info(drv_sim, hmod->m, name, &f->info);
    }
    if (st != WARPSIM_OK) {
        free(f);
        return drv_result(st);
    }
    f->mod = hmod;
    f->next = hmod->funcs;
    hmod->funcs = f;
    *hfunc = f;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    NEED_CTX();
    if (!hmod)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t addr = 0, size = 0;
    WarpsimStatus st = warpsim_symbol(drv_sim, hmod->m, name, &addr, &size);
    if (st != WARPSIM_OK)
        return drv_result(st);
    if (dptr)
        *dptr = addr;
    if (bytes)
        *bytes = (size_t)size;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    NEED_INIT();
    if (!hfunc)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = (int)di.max_threads_per_cta; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)hfunc->info.smem_static_bytes; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)hfunc->info.local_bytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = (int)hfunc->info.regs_per_thread; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = 75; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}
