/* runtime_unsupported.c: the CUDA runtime's entry points that warpsim does not implement
 * (runtime_unsupported.def lists them), so that every program built against CUDA 13's
 * libcudart loads and runs: the dynamic loader would otherwise stop it before main, with no
 * results written. Each fails with cudaErrorNotSupported, recorded as the last error, and says
 * so once per entry point, naming it.
 *
 * They are defined without their parameters: a function that ignores its arguments returns
 * correctly to a caller that passed any (the C calling conventions of the x86-64 and AArch64
 * ABIs leave the arguments to the caller), and every one of them returns cudaError_t, an int. */
#include "api/runtime_internal.h"

#include <stdatomic.h>
#include <stdio.h>

static cudaError_t unsupported(const char *call, atomic_flag *said)
{
    if (!atomic_flag_test_and_set(said))
        fprintf(stderr, "warpsim: %s: not supported by the simulator (cudaErrorNotSupported); see docs/cuda.md\n",
                call);
    return rt_quiet_fail(cudaErrorNotSupported);
}

#define RT_UNSUPPORTED(name)                                                                            \
    cudaError_t name(void);                                                                             \
    cudaError_t name(void)                                                                              \
    {                                                                                                   \
        static atomic_flag said = ATOMIC_FLAG_INIT;                                                     \
        return unsupported(#name, &said);                                                               \
    }
#include "api/runtime_unsupported.def"
#undef RT_UNSUPPORTED
