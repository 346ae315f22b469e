/* test_robust.c: reproducers of malformed and hostile input, each run the way a user meets it
 * (the driver API, the warpsim command): every one must end in a clear error naming the file,
 * the line where there is one, and what was expected; never a crash, a hang or memory without
 * bound. The readers' own tests (test_ptx_parse.c, test_synth.c, test_config.c, ...) cover
 * the details. */
#include "../test.h"

#include "base/base.h"

#include <cuda/cuda.h>
#include <stdlib.h>

/* A PTX module whose kernel is declared, then redefined with a malformed parameter list (the
 * parser freed the declaration's list twice). */
TEST(robust_cu_module_load_data_redefinition)
{
    setenv("WARPSIM_ARGS", "--quiet", 1);
    ASSERT(cuInit(0) == CUDA_SUCCESS);
    CUcontext ctx;
    ASSERT(cuDevicePrimaryCtxRetain(&ctx, 0) == CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS);
    static const char *const ptx = ".version 7.0\n.target sm_50\n.address_size 64\n"
                                   ".visible .entry k(.param .u64 a);\n"
                                   ".visible .entry k(.param .u64 a, junk";
    CUmodule mod = NULL;
    EXPECT(cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS);
    EXPECT(mod == NULL);
}
