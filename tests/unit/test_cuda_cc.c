/* test_cuda_cc.c: the compute capability the device reports (gpu.compute_capability): the
 * configured machine's, through the runtime (cudaDeviceProp, cudaDeviceGetAttribute) and the
 * driver (cuDeviceComputeCapability, cuDeviceGetAttribute), while the sm_75 PTX of nvcc 13 runs
 * on every preset, a 2.0 one included. */
#define _GNU_SOURCE /* dlvsym */
#include "../test.h"

#include "../cuda_exec.h"

#include <dlfcn.h>
#include <stdlib.h>

TEST(cuda_cc_runtime_per_preset)
{
    if (!have_library())
        return;
    static char out[16384];
    static const struct {
        const char *args, *want;
    } cases[] = {
        {"--functional --quiet", "compute capability 2.0 (attributes 2.0)"}, /* gtx480, the default */
        {"--functional --quiet --preset gtx980", "compute capability 5.2 (attributes 5.2)"},
        {"--functional --quiet --preset qv100", "compute capability 7.0 (attributes 7.0)"},
        {"--quiet --preset a100", "compute capability 8.0 (attributes 8.0)"},
        {"--quiet --preset qv100 -o gpu.compute_capability=8.6", "compute capability 8.6 (attributes 8.6)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        EXPECT_EQ_I(run_prog("tests/cudart/bin", "devprops", cases[i].args, out, sizeof out), 0);
        EXPECT_CONTAINS(out, cases[i].want);
        EXPECT_CONTAINS(out, "devprops: ok"); /* its sm_75 kernel ran */
    }
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "devprops", "--functional --quiet -o gpu.compute_capability=7.3", out,
                         sizeof out), 1);
    EXPECT_CONTAINS(out, "gpu.compute_capability: expected one of 2.0|2.1|3.0|");
}

TEST(cuda_cc_driver)
{
    if (!have_library())
        return;
    void *sym = NULL;
    void *h = lib_open("libcuda.so.1", "cuInit", NULL, &sym);
    ASSERT(h && sym);
    int (*drv_init)(unsigned), (*drv_cc)(int *, int *, int), (*drv_attr)(int *, int, int);
    memcpy(&drv_init, &sym, sizeof sym);
    sym = dlsym(h, "cuDeviceComputeCapability");
    ASSERT(sym);
    memcpy(&drv_cc, &sym, sizeof sym);
    sym = dlsym(h, "cuDeviceGetAttribute");
    ASSERT(sym);
    memcpy(&drv_attr, &sym, sizeof sym);
    char *keep = env_set("--functional --quiet --preset qv100");
    int major = -1, minor = -1, amajor = -1, aminor = -1;
    EXPECT_EQ_I(drv_init(0), 0);
    EXPECT_EQ_I(drv_cc(&major, &minor, 0), 0);
    EXPECT_EQ_I(drv_attr(&amajor, 75, 0), 0); /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
    EXPECT_EQ_I(drv_attr(&aminor, 76, 0), 0);
    env_restore(keep);
    EXPECT_EQ_I(major, 7);
    EXPECT_EQ_I(minor, 0);
    EXPECT_EQ_I(amajor, 7);
    EXPECT_EQ_I(aminor, 0);
    dlclose(h);
}
