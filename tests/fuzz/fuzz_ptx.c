/* fuzz_ptx.c: the PTX parser and decoder (ptx_module_parse), as cuModuleLoadData reaches them,
 * and the address pre-computation of every kernel that parses (built, and each access evaluated
 * once with zero parameters). */
#include "fuzz.h"

#include "front/ptx/ptx.h"
#include "front/ptx/ptx_slice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[512];
    PtxModule *m = ptx_module_parse(text, "fuzz.ptx", err, sizeof err);
    for (uint32_t k = 0; m && k < ptx_module_n_kernels(m); k++) {
        const PtxKernelInfo *ki = ptx_module_kernel_at(m, k);
        PtxSlices *s = ptx_slices_build(m, ki, err, sizeof err);
        uint8_t *params = calloc(1, ki->param_bytes + 1);
        PtxSliceEnv env = {.params = params, .param_bytes = ki->param_bytes, .grid = {2, 2, 2}, .block = {4, 2, 2}};
        for (uint32_t i = 0; s && i < ptx_slices_count(s); i++) {
            uint64_t addr;
            ptx_slices_eval_linear(s, i, &env, 7, 15, &addr);
        }
        free(params);
        ptx_slices_free(s);
    }
    if (m)
        ptx_module_free(m);
    free(text);
    return 0;
}
