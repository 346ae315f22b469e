/* fuzz_ptx.c: the PTX parser and decoder (ptx_module_parse), as cuModuleLoadData reaches them. */
#include "fuzz.h"

#include "front/ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[512];
    PtxModule *m = ptx_module_parse(text, "fuzz.ptx", err, sizeof err);
    if (m)
        ptx_module_free(m);
    free(text);
    return 0;
}
