/* fuzz_fatbin.c: nvcc's fat-binary container, its compressed entries, PTX extraction and the
 * cubins' register counts, as libcudart's registration reaches them. */
#include "fuzz.h"

#include "front/fatbin/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fatbin fb;
    char err[512];
    if (!fatbin_parse(data, size, &fb, err, sizeof err))
        return 0;
    uint32_t arch, regs;
    char *ptx = fatbin_extract_ptx(&fb, &arch, err, sizeof err);
    free(ptx);
    fatbin_kernel_regs(&fb, "k", &regs, err, sizeof err);
    fatbin_free(&fb);
    return 0;
}
