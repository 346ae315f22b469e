/* test_cudart.c: warpsim's libcudart replacement (src/api/runtime.c) and the tex.1d fetches
 * of the PTX interpreter it relies on.
 *
 * End to end: the runtime-API programs of tests/cudart/ (nvcc 13, -cudart shared; prebuilt in
 * tests/cudart/bin, and rebuilt from source into a scratch folder when nvcc is installed) run
 * under `warpsim exec`, functional and on the timing model, and check their own results;
 * tests/cudart/corrupt.c, built here with cc, registers damaged fat binaries and must exit 1
 * with a clear message. In-process: registration and launches through the library's entry
 * points on the fat-binary fixtures of tests/fatbin, and the errors and last-error rules; and
 * a fresh copy of each built library (libcudart.so.13, libcuda.so.1) with a bad WARPSIM_ARGS,
 * whose first call must fail with the init error code, saying why once, and not exit. The
 * end-to-end tests need <build>/lib/libcudart.so.13 (the `all` target builds it). */
#define _GNU_SOURCE /* dlvsym */
#include "../test.h"

#include "../cuda_exec.h"

#include "base/base.h"
#include "front/fatbin/fatbin.h"
#include "warpsim.h"

#include <dlfcn.h>
#include <stdlib.h>

/* ---- end to end ---- */

static const struct {
    const char *prog, *expect, *kernel, *config; /* config: before the other arguments (NULL: none) */
} programs[] = {
    {"vecadd", "vecadd: n=5000, 0 mismatches", "_Z6vecaddPKfS0_Pfi", NULL},
    {"vecadd_lz4", "vecadd: n=5000, 0 mismatches", "_Z6vecaddPKfS0_Pfi", NULL},
    {"symbols", "symbols: 84 values above 100 (expected 84), 0 mismatches", "_Z4polyPKfPfi", NULL},
    {"reduce", "sum 3990000 (static), 3990000 (dynamic), expected 3990000", "_Z11sum_dynamicPKiPii", NULL},
    {"texture", "texture: 3000 fetches per texture, 0 mismatches", "_Z5fetchyyPfi", NULL},
    {"devprops", "devprops: ok", "_Z5scalePffi", NULL},
    {"pools", "pools: supported 1, threshold kept 1, used 32768 bytes at most, 0 mismatches", "_Z4fillPii", NULL},
    {"runtime_api", "runtime_api: pitch 512 bytes for rows of 148", "_Z10scale_rowsPfmii", NULL},
    {"runtime_api", "runtime_api: 0 mismatches", "_Z10scale_rowsPfmii", NULL},
    {"vecadd_ptsz", "vecadd: n=5000, 0 mismatches", "_Z6vecaddPKfS0_Pfi", NULL},
    {"managed", "managed: 0 mismatches", "_Z4bumpPii", NULL},
    {"graphs", "graphs: 0 mismatches", "_Z5scalePffi", NULL},
    {"graphupdate", "graphupdate: 0 mismatches", "_Z4stepPKfPffi", NULL},
    {"graphedges", "graphedges: 0 mismatches", "_Z6affinePfffi", NULL},
    {"graphmem", "graphmem: 0 mismatches", "_Z6negatePKfPfi", NULL},
    {"graphcond", "graphcond: 0 mismatches", "_Z4stepPiS_y", NULL},
    {"virtual", "virtual: 0 mismatches", "_Z3usePKP5ShapePii", NULL},
    {"streamattr", "streamattr: 0 mismatches", "_Z4bumpPii", NULL},
    /* launches into created streams held until the host waits: a kernel spins on a host flag */
    {"streams", "streams: 0 mismatches", "_Z13wait_for_flagPVjPi", NULL},
    /* gtx480's Fermi (2.0) has no cooperative launch: claim Pascal's 6.0 for the same SMs */
    {"coop", "coop: 0 mismatches", "_Z13wait_for_lastPViPi", "-o gpu.compute_capability=6.0"},
    {"arrays", "arrays: 28 checks, 0 mismatches", "_Z7scale3d14cudaPitchedPtriii", NULL},
    {"textures", "textures: 6602 fetches, 0 mismatches", "_Z5fetchyiPK6float4PS_i", NULL},
    {"surfaces", "surfaces: 9 checks, 0 mismatches", "_Z6othersyyyyi", NULL},
    /* dynamic parallelism (-rdc, two objects): the leaves are launched by the nest's last level */
    {"cdp", "cdp: 0 mismatches", "_Z4leafPxicsixfd4PairPKi [device launch, depth 4, by _Z4nestPiPxPKii]", NULL},
    /* a driver-API launch, on the runtime's memory, in the same results as the runtime's */
    {"drvrt", "drvrt: 0 mismatches", "scale_add", NULL},
    /* driver calls in the primary context the runtime made current, in each thread using it */
    {"drvctx", "drvctx: 0 mismatches", "fill", NULL},
    /* two processes: memory, a pool and a driver allocation exported, an interprocess event */
    {"ipc", "ipc: 0 mismatches", "_Z3setPiii", NULL},
};

static void run_all_functional(const char *dir)
{
    static char out[16384];
    for (size_t i = 0; i < ARRAY_LEN(programs); i++) {
        char args[600];
        snprintf(args, sizeof args, "%s --functional --quiet", programs[i].config ? programs[i].config : "");
        int rc = run_prog(dir, programs[i].prog, args, out, sizeof out);
        EXPECT_EQ_I(rc, 0);
        EXPECT_CONTAINS(out, programs[i].expect);
    }
}

TEST(cudart_programs_functional)
{
    if (!have_library())
        return;
    run_all_functional("tests/cudart/bin");
    static char out[16384];
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "reduce", "--functional --quiet", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "kernel times 0.000000 ms, 0.000000 ms"); /* no simulated time */
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "devprops", "--functional --quiet", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "devices: 1 (current 0), runtime 13000, driver 13000");
    EXPECT_CONTAINS(out, "SMs: 30, warp size 32, max threads per block 1024, per SM 1536"); /* gtx480 */
    EXPECT_CONTAINS(out, "clock 700000 kHz, memory clock 924000 kHz, per SM: shared 49152, registers 32768, blocks 8");
    EXPECT_CONTAINS(out, "scale: 8 registers"); /* ptxas's count, from the cubin */
    /* the SM's placement rule: 1536 threads, 8 CTA slots, 48 KB of shared memory (gtx480) */
    EXPECT_CONTAINS(out, "occupancy: 6 blocks of 256, 1 of 1024, 2 of 64 with 20000 B shared, 0 with 1 MiB");
    EXPECT_CONTAINS(out, "limits: stack 1024, heap 64 MiB"); /* CUDA's default; the value set */
    /* compute capability 2.0 (gtx480): no cooperative launch, as on a Fermi GPU */
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "coop", "--functional --quiet", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "coop: no cooperative launch on this device, refused: cudaErrorNotSupported, 0 mismatches");
    /* the device runtime's limits and errors, and the children's order (depth first) */
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "cdp", "--functional --quiet", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "nest: depth 0 launched depth 1\nnest: depth 1 launched depth 2\n"
                         "nest: depth 2 launched depth 3\nleaf: slot 0\n");
    EXPECT_CONTAINS(out, "cdp: nesting stopped at depth 24: cudaErrorLaunchMaxDepthExceeded");
    EXPECT_CONTAINS(out, "cdp: 4 of 8 launches with 4 pending at most, 4 refused");
    EXPECT_CONTAINS(out, "cdp: device error text: launch would exceed maximum depth of nested launches");
}

TEST(cudart_programs_timing)
{
    if (!have_library())
        return;
    static char out[16384];
    for (size_t i = 0; i < ARRAY_LEN(programs); i++) {
        char args[1100], json[512];
        snprintf(json, sizeof json, "%s/%s.json", test_tmpdir(), programs[i].prog);
        snprintf(args, sizeof args, "%s --quiet --json %s", programs[i].config ? programs[i].config : "", json);
        EXPECT_EQ_I(run_prog("tests/cudart/bin", programs[i].prog, args, out, sizeof out), 0);
        EXPECT_CONTAINS(out, programs[i].expect);
        char *text = read_file(json, NULL);
        EXPECT_CONTAINS(text, programs[i].kernel); /* one stats block per launch */
        EXPECT_CONTAINS(text, "\"sim.cycles\"");
        if (!strcmp(programs[i].prog, "drvrt"))
            EXPECT_CONTAINS(text, "_Z6negatePfi"); /* the runtime's launch, on the driver's memory */
        if (!strcmp(programs[i].prog, "streams")) { /* 9 appends, the last held at exit */
            const char *key = "\"name\": \"_Z6appendPiS_i\"";
            int n = 0;
            for (const char *p = strstr(text, key); p; p = strstr(p + 1, key))
                n++;
            EXPECT_EQ_I(n, 9);
        }
        free(text);
        if (!strcmp(programs[i].prog, "reduce")) {
            const char *t = strstr(out, "kernel times ");
            double ms1 = 0, ms2 = 0;
            EXPECT(t && sscanf(t, "kernel times %lf ms, %lf ms", &ms1, &ms2) == 2);
            EXPECT(ms1 > 0 && ms2 > 0); /* events hold simulated time */
        }
    }
}

/* The prebuilt programs hold what the tests claim: PTX compressed with zstd (nvcc's default)
 * or LZ4 (--compress-mode=speed), and a cubin for the register counts. A linked program holds
 * one fat binary per object (nvlink adds a cubin-only one): look for the one with PTX. */
TEST(cudart_prebuilt_fatbin_compression)
{
    const char *names[] = {"vecadd", "vecadd_lz4"};
    for (int p = 0; p < 2; p++) {
        char path[256], err[256];
        snprintf(path, sizeof path, "tests/cudart/bin/%s", names[p]);
        size_t len = 0;
        uint8_t *bin = (uint8_t *)read_file(path, &len);
        ASSERT(bin);
        int found = 0;
        for (size_t off = 0; off + 16 <= len; off += 8) { /* .nv_fatbin is 8-byte aligned */
            Fatbin fb;
            if (bin[off] != 0x50 || bin[off + 1] != 0xED || !fatbin_parse(bin + off, len - off, &fb, err, sizeof err))
                continue;
            int ptx = fatbin_best_entry(&fb, FATBIN_KIND_PTX);
            if (ptx >= 0) {
                found++;
                EXPECT_EQ_I(fb.entries[ptx].compression, p == 0 ? FATBIN_ZSTD : FATBIN_LZ4);
                EXPECT(fatbin_best_entry(&fb, FATBIN_KIND_ELF) >= 0);
            }
            fatbin_free(&fb);
        }
        EXPECT_EQ_I(found, 1);
        free(bin);
    }
}

/* Persisting L2 exists from compute capability 8.0: the device reports it and a window is a
 * hint kept on the stream (the default gtx480 run in the table above reports none). */
TEST(cudart_persisting_l2_at_8_0)
{
    if (!have_library())
        return;
    static char out[16384];
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "streamattr", "--functional --quiet --preset a100", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "compute capability 8.0, persisting L2 31457280 of 41943040 bytes, window up to 134213632");
    EXPECT_CONTAINS(out, "streamattr: 0 mismatches");
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "streamattr", "--functional --quiet --preset qv100 "
                         "-o gpu.compute_capability=8.0", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "compute capability 8.0, persisting L2 4718592 of 6291456 bytes, window up to 134213632");
}

/* The a100 preset's machine (configs/a100.cfg, GPGPU-Sim's A100 file) as a program sees it:
 * 108 SMs at 1410 MHz, 2048 threads and 32 blocks an SM, 64K registers, 164 KB of shared
 * memory, a 40 MB L2, 40 HBM2 channels of 16 bytes at 1512 MHz. */
TEST(cudart_devprops_a100)
{
    if (!have_library())
        return;
    static char out[16384];
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "devprops", "--functional --quiet --preset a100", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "compute capability 8.0 (attributes 8.0)");
    EXPECT_CONTAINS(out, "SMs: 108, warp size 32, max threads per block 1024, per SM 2048");
    EXPECT_CONTAINS(out, "shared per block 167936, registers per block 65536, L2 41943040 bytes, bus 5120 bits");
    EXPECT_CONTAINS(out, "clock 1410000 kHz, memory clock 1512000 kHz, per SM: shared 167936, registers 65536, "
                         "blocks 32");
    /* 2048 threads; 164 KB holds 8 blocks of 20000 B */
    EXPECT_CONTAINS(out, "occupancy: 8 blocks of 256, 2 of 1024, 8 of 64 with 20000 B shared, 0 with 1 MiB");
    EXPECT_CONTAINS(out, "devprops: ok");
}

TEST(cudart_bad_launch_configuration)
{
    if (!have_library())
        return;
    static char out[16384];
    EXPECT_EQ_I(run_prog("tests/cudart/bin", "badlaunch", "--functional --quiet", out, sizeof out), 1);
    EXPECT_CONTAINS(out, "2048 threads per block: cudaErrorInvalidValue");
    EXPECT_CONTAINS(out, "a block of 2048x1x1 threads exceeds the device's 1024 threads per block");
    EXPECT_CONTAINS(out, "a valid launch after it: ok");
    EXPECT_CONTAINS(out, "a block of 4x1x128 threads exceeds the device's 64 threads in z (cudaErrorInvalidValue)");
    EXPECT_CONTAINS(out, "CUDA error: invalid argument (cudaErrorInvalidValue) at badlaunch.cu:30");
    EXPECT(!strstr(out, "not reached"));
}

/* The programs as nvcc builds them today, when nvcc is installed. */
TEST(cudart_programs_rebuilt_with_nvcc)
{
    if (!have_library())
        return;
    static char out[16384];
    if (test_run_cmd("command -v nvcc || test -x /usr/local/cuda/bin/nvcc", out, sizeof out) != 0) {
        printf("note: cudart_programs_rebuilt_with_nvcc: no nvcc, only the prebuilt programs were run\n");
        return;
    }
    char dir[512], cmd[1024];
    snprintf(dir, sizeof dir, "%s/nvcc", test_tmpdir());
    snprintf(cmd, sizeof cmd, "sh tests/cudart/build.sh %s", dir);
    int rc = test_run_cmd(cmd, out, sizeof out);
    EXPECT_EQ_I(rc, 0);
    if (rc != 0) {
        printf("%s\n", out);
        return;
    }
    run_all_functional(dir);
    EXPECT_EQ_I(run_prog(dir, "texture", "--quiet", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "0 mismatches");
    EXPECT_EQ_I(run_prog(dir, "badlaunch", "--functional --quiet", out, sizeof out), 1);
    EXPECT_CONTAINS(out, "CUDA error: invalid argument (cudaErrorInvalidValue) at badlaunch.cu:30");
}

/* A damaged fat binary: a message naming what is wrong, then exit status 1, never a crash. */
TEST(cudart_corrupt_fatbin_program)
{
    if (!have_library())
        return;
    static char out[16384];
    char prog[512], cmd[2048], path[512];
    snprintf(prog, sizeof prog, "%s/corrupt", test_tmpdir());
    snprintf(cmd, sizeof cmd, "cc -std=c11 -o %s tests/cudart/corrupt.c -L%s -l:libcudart.so.13", prog, lib_dir());
    ASSERT(test_run_cmd(cmd, out, sizeof out) == 0);
    const char *fixture = "tests/fatbin/kernel.default.fatbin";
    size_t len = 0;
    uint8_t *fb = (uint8_t *)read_file(fixture, &len);
    ASSERT(fb && len > 1000);

    snprintf(cmd, sizeof cmd, "%s %s", prog, fixture);
    EXPECT_EQ_I(run_prog(NULL, cmd, "--functional --quiet", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "corrupt: saxpy ran, 0 mismatches");

    size_t cuts[] = {17, 80, 100, 3000, len / 2, len - 8};
    for (size_t i = 0; i < ARRAY_LEN(cuts); i++) {
        snprintf(cmd, sizeof cmd, "%s %s %zu", prog, fixture, cuts[i]);
        EXPECT_EQ_I(run_prog(NULL, cmd, "--functional --quiet", out, sizeof out), 1);
        EXPECT_CONTAINS(out, "warpsim: __cudaRegisterFatBinary: fatbin: entry");
        EXPECT_CONTAINS(out, "failed: cudaErrorInvalidKernelImage");
    }
    /* The compute_86 PTX, which a device of 8.6 runs, is the last entry: garble its zstd frame. A
     * device below 8.6 runs the compute_75 entry and does not notice. */
    for (size_t i = len - 300; i < len - 40; i++)
        fb[i] ^= 0x5A;
    snprintf(path, sizeof path, "%s/garbled.fatbin", test_tmpdir());
    FILE *f = fopen(path, "wb");
    ASSERT(f && fwrite(fb, 1, len, f) == len);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s %s", prog, path);
    EXPECT_EQ_I(run_prog(NULL, cmd, "--functional --quiet", out, sizeof out), 0);
    EXPECT_CONTAINS(out, "corrupt: saxpy ran, 0 mismatches");
    EXPECT_EQ_I(run_prog(NULL, cmd, "--functional --quiet -o gpu.compute_capability=8.6", out, sizeof out), 1);
    EXPECT_CONTAINS(out, "warpsim: cudaLaunchKernel: fat binary 1: fatbin: PTX entry 2");
    const char *said = strstr(out, "fat binary 1: fatbin");
    EXPECT(said && !strstr(said + 1, "fat binary 1: fatbin")); /* once, not at every launch */
    EXPECT_CONTAINS(out, "corrupt: relaunch: cudaErrorInvalidKernelImage");
    EXPECT_CONTAINS(out, "failed: cudaErrorInvalidKernelImage");
    /* Not a fat binary at all: the wrapper points at text. */
    snprintf(cmd, sizeof cmd, "%s tests/cudart/corrupt.c", prog);
    EXPECT_EQ_I(run_prog(NULL, cmd, "--functional --quiet", out, sizeof out), 1);
    EXPECT_CONTAINS(out, "bad magic");
    free(fb);
}

/* Every entry point of CUDA 13.0's libcudart.so.13 (tests/cudart/cudart13.syms, from
 * src/api/cudart_exports.sh) resolves with the version nvcc 13 programs ask for: implemented,
 * or failing with cudaErrorNotSupported (runtime_unsupported.c), never a loader error. */
TEST(cudart_library_exports_versioned_symbols)
{
    if (!have_library())
        return;
    char path[1100];
    snprintf(path, sizeof path, "%s/libcudart.so.13", lib_dir());
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ASSERT(h);
    char *list = read_file("tests/cudart/cudart13.syms", NULL);
    ASSERT(list);
    unsigned n = 0;
    for (char *save = NULL, *name = strtok_r(list, "\n", &save); name; name = strtok_r(NULL, "\n", &save), n++)
        if (!dlvsym(h, name, "libcudart.so.13")) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s@libcudart.so.13 is not exported", name);
            test_fail(__FILE__, __LINE__, msg);
        }
    free(list);
    EXPECT_EQ_U(n, 422); /* CUDA 13.0's count: a truncated list must not pass */
    EXPECT(dlvsym(h, "warpsim_create", "libcudart.so.13") != NULL);
    /* one that is not implemented: the error, recorded as the last one */
    typedef int (*SetPool)(int, void *);
    SetPool set_pool = (SetPool)dlvsym(h, "cudaDeviceSetMemPool", "libcudart.so.13");
    int (*last_error)(void) = (int (*)(void))dlvsym(h, "cudaGetLastError", "libcudart.so.13");
    ASSERT(set_pool && last_error);
    EXPECT_EQ_I(set_pool(0, NULL), 801); /* cudaErrorNotSupported */
    EXPECT_EQ_I(last_error(), 801);
    EXPECT_EQ_I(last_error(), 0);
    EXPECT(dlsym(h, "ptx_module_parse") == NULL); /* the simulator's own symbols stay inside */
    EXPECT(dlsym(h, "xmalloc") == NULL);
    dlclose(h);
}

/* ---- in-process: the library's entry points, linked into this test ---- */

typedef struct {
    unsigned x, y, z;
} Dim3;

void **__cudaRegisterFatBinary(void *wrapper);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, void *tid, void *bid, Dim3 *bDim, Dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global);
unsigned __cudaPushCallConfiguration(Dim3 grid, Dim3 block, size_t smem, void *stream);
int __cudaPopCallConfiguration(Dim3 *grid, Dim3 *block, size_t *smem, void *stream);
int __cudaGetKernel(void **kernel, const void *hostFun);
int __cudaLaunchKernel(void *kernel, Dim3 grid, Dim3 block, void **args, size_t smem, void *stream);
int cudaLaunchKernel(const void *func, Dim3 grid, Dim3 block, void **args, size_t smem, void *stream);
int cudaMalloc(void **p, size_t n);
int cudaFree(void *p);
int cudaMemcpy(void *dst, const void *src, size_t n, int kind);
int cudaGetLastError(void);
int cudaPeekAtLastError(void);
int cudaFuncGetAttributes(void *attr, const void *func);
int cudaDeviceGetAttribute(int *value, int attr, int device);
int cudaGetDeviceProperties(void *prop, int device);
int cudaDeviceSetLimit(int limit, size_t value);

enum { H2D = 1, D2H = 2, DEFAULT = 4 };
enum { E_INVALID_VALUE = 1, E_INVALID_CONFIGURATION = 9, E_INVALID_DEVICE_FUNCTION = 98, E_INVALID_IMAGE = 200 };

/* Stand-ins for the host stubs nvcc generates: only their addresses matter. */
static void stub_saxpy(void) {}
static void stub_mat4(void) {}
static void stub_bad(void) {}
static void stub_none(void) {}
#define FN(f) ((const void *)(uintptr_t)(f))

struct Wrapper {
    int magic, version;
    const void *data;
    void *unused;
};

/* The runtime's simulator comes from WARPSIM_ARGS on its first use: functional and quiet here,
 * without leaving the variable changed for other tests. */
static void runtime_first_use(void)
{
    char *keep = env_set("--functional --quiet");
    void *p = NULL;
    cudaMalloc(&p, 4);
    cudaFree(p);
    env_restore(keep);
}

TEST(cudart_inprocess_registration_and_launch)
{
    runtime_first_use();
    size_t len = 0;
    char *file = read_file("tests/fatbin/kernel.default.fatbin", &len);
    ASSERT(file);
    uint64_t *image = xcalloc(len / 8 + 1, 8); /* 8-byte aligned, as in .nv_fatbin */
    memcpy(image, file, len);
    free(file);
    struct Wrapper w = {0x466243b1, 1, image, NULL};
    void **h = __cudaRegisterFatBinary(&w);
    ASSERT(h);
    char saxpy[] = "saxpy", mat4[] = "_Z4mat4iPK6float4S1_PS_";
    __cudaRegisterFunction(h, FN(stub_saxpy), saxpy, saxpy, -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h, FN(stub_mat4), mat4, mat4, -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);

    /* register counts from the fixture's sm_75 cubin (tests/fatbin/kernel.ptxinfo) */
    uint8_t attr[144];
    EXPECT_EQ_I(cudaFuncGetAttributes(attr, FN(stub_saxpy)), 0);
    int regs;
    memcpy(&regs, attr + 28, sizeof regs); /* cudaFuncAttributes.numRegs */
    EXPECT_EQ_I(regs, 10);
    EXPECT_EQ_I(cudaFuncGetAttributes(attr, FN(stub_mat4)), 0);
    memcpy(&regs, attr + 28, sizeof regs);
    EXPECT_EQ_I(regs, 28);

    enum { N = 700 };
    static float x[N], y[N], got[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 3.0f;
    }
    float *dx, *dy, a = 0.5f;
    int n = N;
    ASSERT(cudaMalloc((void **)&dx, sizeof x) == 0 && cudaMalloc((void **)&dy, sizeof y) == 0);
    EXPECT_EQ_I(cudaMemcpy(dx, x, sizeof x, H2D), 0);
    EXPECT_EQ_I(cudaMemcpy(dy, y, sizeof y, DEFAULT), 0); /* direction from the pointers */
    void *args[] = {&n, &a, &dx, &dy};
    Dim3 grid = {(N + 255) / 256, 1, 1}, block = {256, 1, 1};
    /* the launch path of nvcc's code: push at <<<>>>, then the stub's get / pop / launch */
    EXPECT_EQ_I(__cudaPushCallConfiguration(grid, block, 0, NULL), 0);
    void *k = NULL, *stream = NULL;
    Dim3 g2, b2;
    size_t smem = 1;
    EXPECT_EQ_I(__cudaGetKernel(&k, FN(stub_saxpy)), 0);
    EXPECT_EQ_I(__cudaPopCallConfiguration(&g2, &b2, &smem, &stream), 0);
    EXPECT(g2.x == grid.x && b2.x == 256 && smem == 0);
    EXPECT_EQ_I(__cudaLaunchKernel(k, g2, b2, args, smem, stream), 0);
    /* and the legacy one, by host function */
    EXPECT_EQ_I(cudaLaunchKernel(FN(stub_saxpy), grid, block, args, 0, NULL), 0);
    EXPECT_EQ_I(cudaMemcpy(got, dy, sizeof got, D2H), 0);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += got[i] != (float)i + 3.0f; /* two launches: y = 0.5 x + (0.5 x + 3), exact */
    EXPECT_EQ_I(bad, 0);

    /* errors: returned, recorded as the last error, read once */
    capture_begin();
    Dim3 huge = {2048, 1, 1};
    int e1 = cudaLaunchKernel(FN(stub_saxpy), grid, huge, args, 0, NULL);
    int e2 = cudaLaunchKernel(FN(stub_none), grid, block, args, 0, NULL);
    int e3 = cudaMemcpy((void *)(uintptr_t)0x10, x, sizeof x, H2D);
    char *msg = capture_end();
    EXPECT_EQ_I(e1, E_INVALID_VALUE); /* CUDA 13.0 says so, measured */
    EXPECT_EQ_I(e2, E_INVALID_DEVICE_FUNCTION);
    EXPECT_EQ_I(e3, E_INVALID_VALUE);
    EXPECT_CONTAINS(msg, "a block of 2048x1x1 threads exceeds");
    EXPECT_CONTAINS(msg, "warpsim: cudaLaunchKernel: not a registered kernel (cudaErrorInvalidDeviceFunction)");
    EXPECT_CONTAINS(msg, "is not inside a device allocation");
    free(msg);
    EXPECT_EQ_I(cudaPeekAtLastError(), E_INVALID_VALUE);
    EXPECT_EQ_I(cudaGetLastError(), E_INVALID_VALUE);
    EXPECT_EQ_I(cudaGetLastError(), 0);
    capture_begin();
    EXPECT_EQ_I(__cudaPopCallConfiguration(&g2, &b2, &smem, &stream), 52); /* nothing pushed */
    free(capture_end());
    EXPECT_EQ_I(cudaGetLastError(), 52);

    EXPECT_EQ_I(cudaFree(dx), 0);
    EXPECT_EQ_I(cudaFree(dy), 0);
    capture_begin();
    EXPECT_EQ_I(cudaFree(dy), E_INVALID_VALUE); /* twice */
    free(capture_end());
    cudaGetLastError();
    __cudaUnregisterFatBinary(h);
    free(image);
}

/* cudaMalloc and cudaFree cost O(log n) in the live allocations: 300,000 of them, freed oldest
 * first, take well under a second (40 s when both were scans and moves of sorted arrays). */
TEST(cudart_malloc_free_scale)
{
    runtime_first_use();
    enum { N = 300000 };
    void **p = xmalloc(N * sizeof *p);
    double t0 = wall_seconds();
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += cudaMalloc(&p[i], 16) != 0;
    for (int i = 0; i < N; i++)
        bad += cudaFree(p[i]) != 0;
    double secs = wall_seconds() - t0;
    EXPECT_EQ_I(bad, 0);
    EXPECT(secs < 10);
    if (secs >= 10)
        printf("  300000 cudaMalloc and cudaFree took %.1f s\n", secs);
    free(p);
}

/* Device queries that cannot be answered name what was asked: an attribute by its CUDA name. */
TEST(cudart_device_attribute_names)
{
    runtime_first_use();
    int v = -1;
    capture_begin();
    int e1 = cudaDeviceGetAttribute(&v, 87, 0); /* not modelled */
    int e2 = cudaDeviceGetAttribute(&v, 9999, 0);
    int e3 = cudaDeviceSetLimit(42, 1);
    char *msg = capture_end();
    EXPECT_EQ_I(e1, 1); /* cudaErrorInvalidValue */
    EXPECT_EQ_I(e2, 1);
    EXPECT_EQ_I(e3, 215); /* cudaErrorUnsupportedLimit */
    EXPECT_CONTAINS(msg, "cudaDeviceGetAttribute: cudaDevAttrSingleToDoublePrecisionPerfRatio (87) is not modelled");
    EXPECT_CONTAINS(msg, "cudaDeviceGetAttribute: 9999 is not a CUDA device attribute");
    EXPECT_CONTAINS(msg, "cudaDeviceSetLimit: limit 42 is not one of CUDA's");
    free(msg);
    cudaGetLastError();
}

/* Every attribute of CUDA 13 is answered but the performance ratio, which the machine model does
 * not know, and the reserved ones; cudaDeviceProp's texture and surface limits and other fields
 * are the attributes' answers (here gtx480's Fermi limits). */
TEST(cudart_device_attributes_all)
{
    runtime_first_use();
    int v, answered = 0;
    capture_begin();
    for (int attr = 1; attr <= 147; attr++) {
        if (cudaDeviceGetAttribute(&v, attr, 0) == 0)
            answered++;
        cudaGetLastError();
    }
    int e = cudaDeviceGetAttribute(&v, 92, 0); /* cudaDevAttrReserved92 */
    free(capture_end());
    cudaGetLastError();
    EXPECT_EQ_I(e, 1);
    /* 137 names in CUDA 13 between 1 and 147, of which 13 are reserved, and the ratio */
    EXPECT_EQ_I(answered, 137 - 13 - 1);
    static unsigned char prop[1008]; /* cudaDeviceProp, CUDA 13's layout */
    EXPECT_EQ_I(cudaGetDeviceProperties(prop, 0), 0);
    int tex1d, tex2d[2], surf3d[3], preempt;
    size_t surf_align;
    memcpy(&tex1d, prop + 396, sizeof tex1d);
    memcpy(tex2d, prop + 404, sizeof tex2d);
    memcpy(surf3d, prop + 508, sizeof surf3d);
    memcpy(&surf_align, prop + 552, sizeof surf_align);
    memcpy(&preempt, prop + 660, sizeof preempt);
    EXPECT_EQ_I(tex1d, 65536);
    EXPECT_EQ_I(tex2d[0], 65536);
    EXPECT_EQ_I(tex2d[1], 65535);
    EXPECT_EQ_I(surf3d[0], 65536);
    EXPECT_EQ_I(surf3d[2], 2048);
    EXPECT_EQ_I((int)surf_align, 512);
    EXPECT_EQ_I(preempt, 0);
    EXPECT_EQ_I(cudaDeviceGetAttribute(&v, 23, 0), 0); /* cudaDevAttrMaxTexture2DHeight */
    EXPECT_EQ_I(v, tex2d[1]);
    EXPECT_EQ_I(cudaDeviceGetAttribute(&v, 131, 0), 0); /* cudaDevAttrNumaId: none */
    EXPECT_EQ_I(v, -1);
}

TEST(cudart_inprocess_corrupt_fatbin)
{
    runtime_first_use();
    size_t len = 0;
    char *file = read_file("tests/fatbin/kernel.lz4.fatbin", &len);
    ASSERT(file);
    uint64_t *image = xcalloc(len / 8 + 1, 8);
    memcpy(image, file, len);
    free(file);
    image[1] = len / 3; /* the header now ends the entries in the middle of one */
    struct Wrapper truncated = {0x466243b1, 1, image, NULL}, bad_magic = {0x12345678, 1, image, NULL};
    char saxpy[] = "saxpy";
    capture_begin();
    void **h1 = __cudaRegisterFatBinary(&truncated);
    void **h2 = __cudaRegisterFatBinary(&bad_magic);
    __cudaRegisterFunction(h1, FN(stub_bad), saxpy, saxpy, -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h2, FN(stub_none), saxpy, saxpy, -1, NULL, NULL, NULL, NULL, NULL);
    float *d = NULL;
    int n = 1;
    float a = 1;
    void *args[] = {&n, &a, &d, &d};
    Dim3 one = {1, 1, 1};
    int e1 = cudaLaunchKernel(FN(stub_bad), one, one, args, 0, NULL);
    int e2 = cudaLaunchKernel(FN(stub_none), one, one, args, 0, NULL);
    uint8_t attr[144];
    int e3 = cudaFuncGetAttributes(attr, FN(stub_bad));
    char *msg = capture_end();
    EXPECT_EQ_I(e1, E_INVALID_IMAGE);
    EXPECT_EQ_I(e2, E_INVALID_IMAGE);
    EXPECT_EQ_I(e3, E_INVALID_IMAGE);
    EXPECT_CONTAINS(msg, "warpsim: __cudaRegisterFatBinary: fatbin: entry");
    EXPECT_CONTAINS(msg, "bad magic 0x12345678");
    EXPECT_CONTAINS(msg, "(cudaErrorInvalidKernelImage)");
    free(msg);
    EXPECT_EQ_I(cudaGetLastError(), E_INVALID_IMAGE);
    EXPECT_EQ_I(cudaGetLastError(), 0); /* not sticky: the device still works */
    void *p = NULL;
    EXPECT_EQ_I(cudaMalloc(&p, 64), 0);
    EXPECT_EQ_I(cudaFree(p), 0);
    __cudaUnregisterFatBinary(h1);
    __cudaUnregisterFatBinary(h2);
    free(image);
}

/* ---- tex.1d in the PTX interpreter, through the embedding API ---- */

static const char tex_ptx[] =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry fetchf(.param .u64 t, .param .u64 out)\n{\n"
    "  .reg .b32 %r<4>; .reg .f32 %f<5>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [t];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  sub.s32 %r2, %r1, 2;\n" /* indices -2 .. 5 */
    "  tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r2}];\n"
    "  mul.wide.u32 %rd3, %r1, 16;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.v4.f32 [%rd4], {%f1, %f2, %f3, %f4};\n  ret;\n}\n"
    ".visible .entry fetchi(.param .u64 t, .param .u64 out)\n{\n"
    "  .reg .b32 %r<6>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [t];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  sub.s32 %r2, %r1, 2;\n"
    "  tex.1d.v4.s32.s32 {%r3, %r4, _, _}, [%rd1, {%r2}];\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.v2.u32 [%rd4], {%r3, %r4};\n  ret;\n}\n";

/* Run kernel over 8 threads (indices -2 .. 5) on a texture of 4 elements; out gets 8 rows. */
static bool tex_run(WarpsimSim *s, WarpsimModule *m, const char *kernel, const WarpsimTexture *t,
                    const void *elems, size_t row_bytes, void *out)
{
    uint64_t buf = warpsim_malloc(s, 64), dout = warpsim_malloc(s, 8 * row_bytes), h = 0;
    warpsim_memcpy_htod(s, buf, elems, t->channels * t->channel_bytes * 4);
    WarpsimTexture tt = *t;
    tt.base = buf;
    tt.count = 4;
    if (warpsim_texture_create(s, &tt, &h) != WARPSIM_OK || h == 0)
        return false;
    uint64_t params[2] = {h, dout};
    const uint32_t grid[3] = {1, 1, 1}, block[3] = {8, 1, 1};
    bool ok = warpsim_launch(s, m, kernel, grid, block, 0, params, sizeof params) == WARPSIM_OK;
    warpsim_memcpy_dtoh(s, out, dout, 8 * row_bytes);
    ok &= warpsim_texture_destroy(s, h) == WARPSIM_OK;
    warpsim_free(s, buf);
    warpsim_free(s, dout);
    return ok;
}

static void tex_formats(bool timing)
{
    const char *argv[] = {"--quiet", "--functional"};
    char err[512];
    WarpsimSim *s = warpsim_create(timing ? 1 : 2, argv, err, sizeof err);
    ASSERT(s);
    WarpsimModule *m;
    ASSERT(warpsim_module_load(s, tex_ptx, "tex.ptx", &m) == WARPSIM_OK);
    float of[8][4];
    int32_t oi[8][2];

    const float f1[4] = {1.5f, -2.0f, 3.25f, 8.0f};
    WarpsimTexture t = {.channels = 1, .channel_bytes = 4, .format = WARPSIM_TEX_FLOAT};
    ASSERT(tex_run(s, m, "fetchf", &t, f1, 16, of));
    for (int i = 0; i < 8; i++) {
        int x = i - 2;
        EXPECT_EQ_I(of[i][0] == (x >= 0 && x < 4 ? f1[x] : 0.0f), 1); /* out of range: 0 */
        EXPECT(of[i][1] == 0.0f && of[i][2] == 0.0f && of[i][3] == 0.0f);  /* missing channels: 0 */
    }
    const float f4[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    t.channels = 4;
    ASSERT(tex_run(s, m, "fetchf", &t, f4, 16, of));
    EXPECT(of[2][0] == 1 && of[3][1] == 6 && of[5][3] == 16 && of[6][0] == 0 && of[1][3] == 0);

    const uint16_t half[4] = {0x3C00, 0xC000, 0x3400, 0x0001}; /* 1, -2, 0.25, 2^-24 */
    t = (WarpsimTexture){.channels = 1, .channel_bytes = 2, .format = WARPSIM_TEX_FLOAT};
    ASSERT(tex_run(s, m, "fetchf", &t, half, 16, of));
    EXPECT(of[2][0] == 1.0f && of[3][0] == -2.0f && of[4][0] == 0.25f && of[5][0] == 0x1p-24f);

    const uint8_t rgba[16] = {0, 255, 51, 0, 10, 20, 30, 40, 0, 0, 0, 0, 0, 0, 0, 0};
    t = (WarpsimTexture){.channels = 4, .channel_bytes = 1, .format = WARPSIM_TEX_UNSIGNED, .normalized = 1};
    ASSERT(tex_run(s, m, "fetchf", &t, rgba, 16, of));
    EXPECT(of[2][0] == 0.0f && of[2][1] == 1.0f && of[2][2] == 0.2f && of[3][3] == 40.0f / 255.0f);

    const int16_t shorts[8] = {-5, 7, -32768, 1, 100, -100, 3, 4};
    t = (WarpsimTexture){.channels = 2, .channel_bytes = 2, .format = WARPSIM_TEX_SIGNED};
    ASSERT(tex_run(s, m, "fetchi", &t, shorts, 8, oi));
    EXPECT(oi[2][0] == -5 && oi[2][1] == 7 && oi[3][0] == -32768 && oi[4][1] == -100 && oi[1][0] == 0 &&
           oi[6][1] == 0);
    const uint32_t words[4] = {0xFFFFFFFFu, 2, 3, 4};
    t = (WarpsimTexture){.channels = 1, .channel_bytes = 4, .format = WARPSIM_TEX_UNSIGNED};
    ASSERT(tex_run(s, m, "fetchi", &t, words, 8, oi));
    EXPECT(oi[2][0] == -1 && oi[5][0] == 4 && oi[2][1] == 0);

    /* a handle that is no texture object faults the launch, on the timing model too */
    uint64_t params[2] = {77, warpsim_malloc(s, 256)};
    const uint32_t grid[3] = {1, 1, 1}, block[3] = {8, 1, 1};
    capture_begin();
    EXPECT_EQ_I(warpsim_launch(s, m, "fetchf", grid, block, 0, params, sizeof params), WARPSIM_E_FAULT);
    EXPECT_EQ_I(warpsim_texture_destroy(s, 77), WARPSIM_E_INPUT);
    free(capture_end());
    EXPECT_CONTAINS(warpsim_error(s), "0x4d is not a texture object");
    warpsim_destroy(s);
}

TEST(cudart_tex_fetch_formats)
{
    tex_formats(false);
    tex_formats(true); /* the same on the timing model: a load in the texture space */
}

TEST(cudart_tex_unsupported_forms)
{
    const char *argv[] = {"--quiet", "--functional"};
    char err[512];
    WarpsimSim *s = warpsim_create(2, argv, err, sizeof err);
    ASSERT(s);
    static const struct {
        const char *inst, *msg;
    } cases[] = {
        {"tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f1}], %f1;", "(tex*Lod, tex*Grad: mipmapped "
         "textures) is not supported"},
        {"tex.2d.v4.f16.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f1}];", "only tex.{1d,2d,3d,a1d,a2d,cube,acube}.v4"},
        {"tex.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];", "only tex.{1d,2d,3d,a1d,a2d,cube,acube}.v4"},
        {"tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [texref, {%r1}];", "texture references are not supported"},
        {"tex.1d.v4.f32.s32 {%f1, %f2}, [%rd1, {%r1}];", "expected 'tex.GEOMETRY.v4 {d0, d1, d2, d3}"},
        {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}];", "with 2 coordinate registers"},
        {"tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f1}];", "unsupported instruction 'tld4"},
        {"suld.p.2d.v4.f32.trap {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r1}];", "unsupported modifier '.p'"},
        {"sust.b.cube.b32.trap [%rd1, {%r1, %r1, %r1, %r1}], {%r1};", "only sust.b.{1d,2d,3d,a1d,a2d}"},
        {"suld.b.2d.v2.b32.trap {%r1}, [%rd1, {%r1, %r1}];", "expected 'suld.b.GEOMETRY {2 registers}"},
        {"sust.b.3d.b32.zero [%rd1, {%r1, %r1}], {%r1};", "expected 'sust.b.GEOMETRY [handle, {4 coordinates}]"},
        {"sust.b.2d.b32.clamp [surfref, {%r1, %r1}], {%r1};", "texture references are not supported (nor surface"},
        {"suld.b.2d.b32.wrap {%r1}, [%rd1, {%r1, %r1}];", "unsupported modifier '.wrap'"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx,
                 ".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 t)\n{\n"
                 "  .reg .b32 %%r<2>; .reg .f32 %%f<5>; .reg .b64 %%rd<2>;\n  %s\n  ret;\n}\n", cases[i].inst);
        WarpsimModule *m = NULL;
        capture_begin();
        WarpsimStatus st = warpsim_module_load(s, ptx, "bad.ptx", &m);
        free(capture_end());
        EXPECT_EQ_I(st, WARPSIM_E_PTX);
        EXPECT_CONTAINS(warpsim_error(s), cases[i].msg);
    }
    warpsim_destroy(s);
}

/* ---- a bad configuration fails the libraries' calls, never the program ---- */

/* How many times needle occurs in hay. */
static int occurrences(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

TEST(cudart_bad_config_fails_the_first_call)
{
    if (!have_library())
        return;
    void *sym;
    void *h = lib_open("libcudart.so.13", "cudaMalloc", "libcudart.so.13", &sym);
    ASSERT(h && sym);
    int (*rt_malloc)(void **, size_t), (*rt_last_error)(void);
    memcpy(&rt_malloc, &sym, sizeof sym);
    sym = dlvsym(h, "cudaGetLastError", "libcudart.so.13");
    ASSERT(sym);
    memcpy(&rt_last_error, &sym, sizeof sym);
    char *keep = env_set("--quiet -o l1d.n_sets=3");
    capture_begin();
    void *p = NULL;
    int e1 = rt_malloc(&p, 64), e2 = rt_malloc(&p, 64); /* the process goes on after both */
    char *msg = capture_end();
    env_restore(keep);
    EXPECT_EQ_I(e1, 3); /* cudaErrorInitializationError */
    EXPECT_EQ_I(e2, 3);
    EXPECT(p == NULL);
    EXPECT_EQ_I(rt_last_error(), 3);
    EXPECT_CONTAINS(msg, "warpsim: cudaMalloc: WARPSIM_ARGS: l1d.n_sets: 3 must be a power of two "
                         "(cudaErrorInitializationError)");
    EXPECT_EQ_I(occurrences(msg, "l1d.n_sets"), 1); /* said once */
    free(msg);
    dlclose(h);
}

TEST(cudart_bad_config_fails_cuinit)
{
    if (!have_library())
        return;
    void *sym;
    void *h = lib_open("libcuda.so.1", "cuInit", NULL, &sym);
    ASSERT(h && sym);
    int (*drv_init)(unsigned), (*drv_count)(int *);
    memcpy(&drv_init, &sym, sizeof sym);
    sym = dlsym(h, "cuDeviceGetCount");
    ASSERT(sym);
    memcpy(&drv_count, &sym, sizeof sym);
    char *keep = env_set("--quiet -o sm.sched=nope");
    capture_begin();
    int e1 = drv_init(0), e2 = drv_init(0), n = -1, e3 = drv_count(&n);
    char *msg = capture_end();
    env_restore(keep);
    EXPECT_EQ_I(e1, 1); /* CUDA_ERROR_INVALID_VALUE */
    EXPECT_EQ_I(e2, 1);
    EXPECT_EQ_I(e3, 3); /* CUDA_ERROR_NOT_INITIALIZED */
    EXPECT_CONTAINS(msg, "warpsim: WARPSIM_ARGS: sm.sched: unknown warp policy 'nope'");
    EXPECT_EQ_I(occurrences(msg, "sm.sched"), 1);
    free(msg);
    dlclose(h);
}
