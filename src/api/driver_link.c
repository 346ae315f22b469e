/* driver_link.c: the JIT linker of warpsim's libcuda replacement (cuLink*; see driver.c).
 *
 * warpsim runs PTX, so the linked image of a single PTX input is that PTX text, which
 * cuModuleLoadData accepts. That is what programs that JIT one PTX file through the linker
 * (cuda-samples' ptxjit) need. Linking separate modules (a second input, whose extern symbols
 * the first would resolve) is not provided, nor inputs that are not PTX (cubins, fat binaries,
 * objects, libraries, NVVM IR): those fail with CUDA_ERROR_NOT_SUPPORTED, saying why. The PTX
 * is parsed when it is added, as CUDA compiles it then, so a bad one fails there with
 * CUDA_ERROR_INVALID_PTX and the parser's message in the error log. The options are accepted
 * and kept, as CUDA keeps them until cuLinkDestroy: the logs they ask for get the outcome (an
 * empty info log, the error if any) and the wall time is 0 ms. */
#include "api/driver_internal.h"

#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CUlinkState_st {
    unsigned n_opts;
    CUjit_option *opts; /* the caller's arrays: the outputs are written there */
    void **vals;
    char *ptx;          /* the PTX input, NUL-terminated: the linked image */
    size_t ptx_bytes;   /* with its NUL */
    CUresult refused;   /* an input that could not be added: cuLinkComplete fails with it */
    struct CUlinkState_st *next;
};

static struct CUlinkState_st *drv_links; /* live states, so that a stale handle is refused */

static bool link_live(CUlinkState s)
{
    for (CUlinkState p = drv_links; p; p = p->next)
        if (p == s)
            return true;
    return false;
}

CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut)
{
    NEED_CTX();
    if (!stateOut)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuLinkCreate", "null pointer");
    CUresult r = drv_jit_check("cuLinkCreate", numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    CUlinkState s = xcalloc(1, sizeof *s);
    s->n_opts = numOptions;
    s->opts = options;
    s->vals = optionValues;
    s->next = drv_links;
    drv_links = s;
    *stateOut = s;
    return CUDA_SUCCESS;
}

/* Fail an input, with the reason in the state's error log (and on stderr). */
static CUresult link_refuse(CUlinkState s, CUresult r, const char *call, const char *why)
{
    s->refused = r;
    drv_jit_outputs(s->n_opts, s->opts, s->vals, "", why);
    return drv_fail(r, call, "%s", why);
}

static CUresult add_ptx(CUlinkState s, CUjitInputType type, const void *data, size_t size, const char *name,
                        const char *call)
{
    static const char *const kinds[] = {"a cubin", "PTX", "a fat binary", "an object", "a library", "NVVM IR"};
    char why[512];
    if ((unsigned)type > CU_JIT_INPUT_NVVM)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "input type %d is not CUDA's", (int)type);
    if (type != CU_JIT_INPUT_PTX) {
        snprintf(why, sizeof why, "%s input (%s): warpsim links PTX only, one input, whose text is the linked "
                 "image", kinds[type], name ? name : "unnamed");
        return link_refuse(s, CUDA_ERROR_NOT_SUPPORTED, call, why);
    }
    if (s->ptx) {
        snprintf(why, sizeof why, "a second PTX input (%s): linking separate PTX modules is not provided; put "
                 "the code in one PTX module", name ? name : "unnamed");
        return link_refuse(s, CUDA_ERROR_NOT_SUPPORTED, call, why);
    }
    if (!data || size == 0)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, call, "no data");
    char *ptx = xmalloc(size + 1);
    memcpy(ptx, data, size);
    ptx[size] = 0; /* the size may or may not count a NUL */
    WarpsimModule *m; /* parsed now, as CUDA compiles an input when it is added */
    WarpsimStatus st = warpsim_module_load(drv_sim, ptx, name ? name : "link.ptx", &m);
    if (st != WARPSIM_OK) {
        free(ptx);
        s->refused = drv_result(st);
        drv_jit_outputs(s->n_opts, s->opts, s->vals, "", warpsim_error(drv_sim));
        return s->refused;
    }
    warpsim_module_unload(drv_sim, m);
    s->ptx = ptx;
    s->ptx_bytes = strlen(ptx) + 1;
    return CUDA_SUCCESS;
}

CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                          unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    NEED_CTX();
    if (!link_live(state))
        return drv_fail(CUDA_ERROR_INVALID_HANDLE, "cuLinkAddData", "%p is not a link state", (void *)state);
    CUresult r = drv_jit_check("cuLinkAddData", numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    return add_ptx(state, type, data, size, name, "cuLinkAddData");
}

CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                          CUjit_option *options, void **optionValues)
{
    NEED_CTX();
    if (!link_live(state))
        return drv_fail(CUDA_ERROR_INVALID_HANDLE, "cuLinkAddFile", "%p is not a link state", (void *)state);
    CUresult r = drv_jit_check("cuLinkAddFile", numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    if (!path)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuLinkAddFile", "null path");
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text)
        return drv_fail(CUDA_ERROR_FILE_NOT_FOUND, "cuLinkAddFile", "%s: %s", path, strerror(errno));
    r = add_ptx(state, type, text, len, path, "cuLinkAddFile");
    free(text);
    return r;
}

/* The linked image: the PTX input's text, which the state owns until cuLinkDestroy. */
CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    NEED_CTX();
    if (!link_live(state))
        return drv_fail(CUDA_ERROR_INVALID_HANDLE, "cuLinkComplete", "%p is not a link state", (void *)state);
    if (!cubinOut || !sizeOut)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuLinkComplete", "null pointer");
    if (state->refused != CUDA_SUCCESS)
        return state->refused; /* said when the input was refused */
    if (!state->ptx)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuLinkComplete", "nothing to link: no input was added");
    drv_jit_outputs(state->n_opts, state->opts, state->vals, "", "");
    *cubinOut = state->ptx;
    *sizeOut = state->ptx_bytes;
    return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState state)
{
    NEED_INIT();
    for (CUlinkState *p = &drv_links; *p; p = &(*p)->next)
        if (*p == state) {
            *p = state->next;
            free(state->ptx);
            free(state);
            return CUDA_SUCCESS;
        }
    return drv_fail(CUDA_ERROR_INVALID_HANDLE, "cuLinkDestroy", "%p is not a link state", (void *)state);
}

/* The CUDA 5.5 names take the same arguments. */
#undef cuLinkCreate
#undef cuLinkAddData
#undef cuLinkAddFile
DRV_ALIAS(cuLinkCreate, cuLinkCreate_v2);
DRV_ALIAS(cuLinkAddData, cuLinkAddData_v2);
DRV_ALIAS(cuLinkAddFile, cuLinkAddFile_v2);
