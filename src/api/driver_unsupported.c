/* driver_unsupported.c: the CUDA driver's entry points that warpsim does not implement
 * (driver_unsupported.def lists them), so that every program built against CUDA 13's
 * libcuda.so.1 loads and runs: the dynamic loader would otherwise stop it before main (or at
 * the first call, under lazy binding), with no results written. Each fails with
 * CUDA_ERROR_NOT_SUPPORTED and says so once per entry point, naming it.
 *
 * They are defined without their parameters: a function that ignores its arguments returns
 * correctly to a caller that passed any (the C calling conventions of the x86-64 and AArch64
 * ABIs leave the arguments to the caller), and every one of them returns CUresult, an int.
 * cuda.h is not included: it maps some of these names (the CUDA 1.x-3.x forms) to others. */
#include <stdatomic.h>
#include <stdio.h>

enum { DRV_ERROR_NOT_SUPPORTED = 801 }; /* CUDA_ERROR_NOT_SUPPORTED */

static int unsupported(const char *call, atomic_flag *said)
{
    if (!atomic_flag_test_and_set(said))
        fprintf(stderr, "warpsim: %s: not supported by the simulator (CUDA_ERROR_NOT_SUPPORTED); see docs/cuda.md\n",
                call);
    return DRV_ERROR_NOT_SUPPORTED;
}

#define DRV_UNSUPPORTED(name)                                                                           \
    int name(void);                                                                                     \
    int name(void)                                                                                      \
    {                                                                                                   \
        static atomic_flag said = ATOMIC_FLAG_INIT;                                                     \
        return unsupported(#name, &said);                                                               \
    }
#include "api/driver_unsupported.def"
#undef DRV_UNSUPPORTED
