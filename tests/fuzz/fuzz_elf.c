/* fuzz_elf.c: the cubin (ELF) reader that finds a kernel's register count. */
#include "fuzz.h"

#include "front/fatbin/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t regs;
    char err[256];
    fatbin_elf_kernel_regs(data, size, "k", &regs, err, sizeof err);
    fatbin_elf_kernel_regs(data, size, "_Z6kernelPf", &regs, err, sizeof err);
    return 0;
}
