/* test_nvrtc.c: NVRTC programs under `warpsim exec` get PTX where they ask for a cubin
 * (lib/libwarpsim-nvrtc.so, src/api/nvrtc_ptx.c). tests/cudart/nvrtc.c, built here with cc
 * against NVIDIA's libnvrtc.so.13 ($CUDA_HOME/lib64, default /usr/local/cuda), compiles a
 * kernel with each spelling of the architecture option, checks that its "cubin" is the PTX text
 * and runs it. Without libnvrtc (no CUDA toolkit) the test says so and passes. */
#include "../test.h"

#include "../cuda_exec.h"

#include <stdlib.h>
#include <unistd.h>

/* Build tests/cudart/nvrtc.c into the scratch folder; false (a skip, said) without libnvrtc. */
static bool nvrtc_program(char *prog, size_t len)
{
    const char *home = getenv("CUDA_HOME");
    char nvrtc[1024], cmd[4096]; /* the program finds libnvrtc by its rpath, our libcuda first */
    static char out[16384];
    snprintf(nvrtc, sizeof nvrtc, "%s/lib64/libnvrtc.so.13", home && *home ? home : "/usr/local/cuda");
    if (access(nvrtc, R_OK) != 0) {
        printf("note nvrtc_programs_get_ptx: %s not found (no CUDA 13 toolkit; set CUDA_HOME): skipped\n", nvrtc);
        return false;
    }
    snprintf(prog, len, "%s/nvrtc", test_tmpdir());
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -Iinclude/cuda -o %s tests/cudart/nvrtc.c -L%s -l:libcuda.so.1 %s -Wl,-rpath,%s/lib64", prog,
             lib_dir(), nvrtc, home && *home ? home : "/usr/local/cuda");
    int rc = test_run_cmd(cmd, out, sizeof out);
    if (rc != 0)
        printf("%s\n", out);
    EXPECT_EQ_I(rc, 0);
    return rc == 0;
}

TEST(nvrtc_programs_get_ptx)
{
    if (!have_library())
        return;
    char lib[1200];
    snprintf(lib, sizeof lib, "%s/libwarpsim-nvrtc.so", lib_dir());
    EXPECT(access(lib, R_OK) == 0); /* built by make's `all`, whether or not NVRTC is here */
    char prog[512], cmd[1024];
    if (!nvrtc_program(prog, sizeof prog))
        return;
    static char out[65536];
    /* the sample's spelling on qv100: CUDA 13's NVRTC has no sm_70, so compute_75, said once */
    snprintf(cmd, sizeof cmd, "%s --gpu-architecture=sm_70", prog);
    EXPECT_EQ_I(run_prog(NULL, cmd, "--functional --quiet --preset qv100", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "nvrtc: cubin: ");
    EXPECT_CONTAINS(out, " bytes of PTX text with .entry axpb\n");
    EXPECT_CONTAINS(out, "nvrtc: axpb ran, 0 mismatches\n");
    EXPECT_CONTAINS(out, "warpsim: NVRTC: sm_70 compiled as compute_75 PTX, the oldest architecture this NVRTC "
                         "supports\n");
    /* the other spellings, for architectures NVRTC has: no message */
    static const char *const spellings[] = {"-arch sm_80", "-arch=sm_86", "--gpu-architecture sm_75",
                                            "-default-device -arch=sm_90a"};
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s %s", prog, spellings[i]);
        EXPECT_EQ_I(run_prog(NULL, cmd, "--functional --quiet -o gpu.compute_capability=8.0", out, sizeof out), 0);
        EXPECT_CONTAINS(out, " bytes of PTX text with .entry axpb\n");
        EXPECT_CONTAINS(out, "nvrtc: axpb ran, 0 mismatches\n");
        EXPECT(!strstr(out, "warpsim: NVRTC"));
    }
    /* a virtual architecture, or none: NVRTC's own answer, no cubin, as on a GPU */
    snprintf(cmd, sizeof cmd, "%s -arch=compute_80", prog);
    EXPECT_EQ_I(run_prog(NULL, cmd, "--functional --quiet", out, sizeof out), 2);
    EXPECT_CONTAINS(out, "nvrtc: no cubin (size 0)\n");
    EXPECT_EQ_I(run_prog(NULL, prog, "--functional --quiet", out, sizeof out), 2);
    EXPECT_CONTAINS(out, "nvrtc: no cubin (size 0)\n");
}
