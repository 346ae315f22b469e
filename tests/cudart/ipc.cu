// ipc.cu: memory and events shared between two processes. The parent exports a cudaMalloc
// allocation (cudaIpcGetMemHandle) and an interprocess event, a pool allocation of a pool
// shared by POSIX file descriptor (cudaMemPoolExportToShareableHandle, cudaMemPoolExportPointer)
// and a driver allocation made shareable (cuMemCreate, cuMemExportToShareableHandle), writes
// each with a kernel, and runs itself again as a child (fork and exec, as CUDA requires), the
// handles on its command line and the descriptors inherited. The child opens each, checks on
// the CPU the values the parent wrote, adds to them with a kernel and exits; the parent then
// checks on the CPU the values the child wrote, and that an allocation sharing a page with the
// exported one keeps its bytes when that one is freed.
#include "check.h"

#include <cuda.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#define CHECK_DRV(call)                                                                               \
    do {                                                                                              \
        CUresult r_ = (call);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                     \
            fprintf(stderr, "CUDA driver error %d at %s:%d: %s\n", (int)r_, __FILE__, __LINE__, #call); \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

static const int n = 3000;
static const size_t vmm_bytes = 2u << 20;

__global__ void set(int *x, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = base + i;
}

__global__ void bump(int *x, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += k;
}

// Mismatches of x[i] == base + i, read back to the CPU.
static int count_bad(const int *dev, int base)
{
    std::vector<int> h(n);
    CHECK(cudaMemcpy(h.data(), dev, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h[i] != base + i;
    return bad;
}

static void to_hex(const void *p, size_t len, char *out)
{
    for (size_t i = 0; i < len; i++)
        sprintf(out + 2 * i, "%02x", ((const unsigned char *)p)[i]);
}

static void from_hex(const char *s, void *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        sscanf(s + 2 * i, "%2hhx", (unsigned char *)p + i);
}

// A driver allocation's mapping: reserved, mapped and made accessible.
static CUdeviceptr map_vmm(CUmemGenericAllocationHandle h)
{
    CUdeviceptr p;
    CUmemAccessDesc acc = {};
    acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    acc.location.id = 0;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CHECK_DRV(cuMemAddressReserve(&p, vmm_bytes, 0, 0, 0));
    CHECK_DRV(cuMemMap(p, vmm_bytes, 0, h, 0));
    CHECK_DRV(cuMemSetAccess(p, vmm_bytes, &acc, 1));
    return p;
}

static void unmap_vmm(CUdeviceptr p)
{
    CHECK_DRV(cuMemUnmap(p, vmm_bytes));
    CHECK_DRV(cuMemAddressFree(p, vmm_bytes));
}

// argv: child MEMHANDLE EVENTHANDLE POOLPTRDATA POOLFD VMMFD
static int child(char **argv)
{
    cudaIpcMemHandle_t hmem, bad_handle;
    cudaIpcEventHandle_t hev;
    cudaMemPoolPtrExportData pdata;
    from_hex(argv[2], &hmem, sizeof hmem);
    from_hex(argv[3], &hev, sizeof hev);
    from_hex(argv[4], &pdata, sizeof pdata);
    int pool_fd = atoi(argv[5]), vmm_fd = atoi(argv[6]), bad = 0;
    const int blocks = (n + 255) / 256;

    // the cudaMalloc allocation and the event
    int *a = nullptr, *again = nullptr;
    cudaEvent_t ev;
    const bool ws = on_warpsim(); // checks of what CUDA does not document run only there
    CHECK(cudaIpcOpenMemHandle((void **)&a, hmem, cudaIpcMemLazyEnablePeerAccess));
    if (ws) { // opened again: the same pointer, closed as many times
        CHECK(cudaIpcOpenMemHandle((void **)&again, hmem, cudaIpcMemLazyEnablePeerAccess));
        bad += MISS(again != a);
    }
    CHECK(cudaIpcOpenEventHandle(&ev, hev));
    bad += MISS(count_bad(a, 1000) != 0);
    bump<<<blocks, 256>>>(a, n, 1);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev, 0));
    CHECK(cudaEventSynchronize(ev));
    bad += MISS(cudaEventQuery(ev) != cudaSuccess);
    if (ws) {
        memset(&bad_handle, 0x5a, sizeof bad_handle);
        void *none;
        bad += MISS_ERR(cudaIpcOpenMemHandle(&none, bad_handle, cudaIpcMemLazyEnablePeerAccess),
                        cudaErrorInvalidResourceHandle);
        bad += MISS_ERR(cudaFree(a), cudaErrorInvalidValue);
        cudaGetLastError(); // the expected failures
        CHECK(cudaIpcCloseMemHandle(again));
    }
    CHECK(cudaIpcCloseMemHandle(a));
    CHECK(cudaEventDestroy(ev));

    // the pool's allocation
    cudaMemPool_t pool;
    int *b = nullptr;
    CHECK(cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)pool_fd, cudaMemHandleTypePosixFileDescriptor,
                                               0));
    close(pool_fd);
    CHECK(cudaMemPoolImportPointer((void **)&b, pool, &pdata));
    bad += MISS(count_bad(b, 2000) != 0);
    bump<<<blocks, 256>>>(b, n, 2);
    CHECK(cudaGetLastError());
    CHECK(cudaFreeAsync(b, 0));
    CHECK(cudaDeviceSynchronize());

    // the driver's allocation
    CUmemGenericAllocationHandle h;
    CHECK_DRV(cuMemImportFromShareableHandle(&h, (void *)(intptr_t)vmm_fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(vmm_fd);
    CUdeviceptr c = map_vmm(h);
    CHECK_DRV(cuMemRelease(h));
    bad += MISS(count_bad((int *)c, 3000) != 0);
    bump<<<blocks, 256>>>((int *)c, n, 3);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    unmap_vmm(c);

    printf("ipc child: %d mismatches\n", bad);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc == 7 && !strcmp(argv[1], "child"))
        return child(argv);
    const int blocks = (n + 255) / 256;
    int bad = 0, supported = 0, types = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrIpcEventSupport, 0));
    CHECK(cudaDeviceGetAttribute(&types, cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
    bad += MISS(!supported || !(types & cudaMemHandleTypePosixFileDescriptor));

    // a small allocation first, which shares a page with the exported one on warpsim
    char *small, small_h[100];
    int *a;
    CHECK(cudaMalloc((void **)&small, sizeof small_h));
    CHECK(cudaMemset(small, 0x5a, sizeof small_h));
    CHECK(cudaMalloc((void **)&a, n * sizeof(int)));
    set<<<blocks, 256>>>(a, n, 1000);
    CHECK(cudaGetLastError());
    cudaIpcMemHandle_t hmem;
    cudaIpcEventHandle_t hev;
    cudaEvent_t ev, timed;
    CHECK(cudaIpcGetMemHandle(&hmem, a));
    CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming | cudaEventInterprocess));
    CHECK(cudaIpcGetEventHandle(&hev, ev));
    CHECK(cudaEventCreate(&timed));
    if (on_warpsim()) { // what CUDA does not document: a timed event, this process's own handle
        void *own;
        bad += MISS_ERR(cudaIpcGetEventHandle(&hev, timed), cudaErrorInvalidResourceHandle);
        bad += MISS_ERR(cudaIpcOpenMemHandle(&own, hmem, cudaIpcMemLazyEnablePeerAccess), cudaErrorDeviceUninitialized);
        cudaGetLastError(); // the expected failures
        CHECK(cudaIpcGetEventHandle(&hev, ev));
    }

    // a pool shared by file descriptor, and an allocation of it
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool;
    int *b, pool_fd = -1;
    CHECK(cudaMemPoolCreate(&pool, &props));
    CHECK(cudaMallocFromPoolAsync((void **)&b, n * sizeof(int), pool, 0));
    set<<<blocks, 256>>>(b, n, 2000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemPoolExportToShareableHandle(&pool_fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
    cudaMemPoolPtrExportData pdata;
    CHECK(cudaMemPoolExportPointer(&pdata, b));

    // a driver allocation made shareable, mapped here too
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUmemGenericAllocationHandle h;
    int vmm_fd = -1;
    CHECK_DRV(cuMemCreate(&h, vmm_bytes, &prop, 0));
    CHECK_DRV(cuMemExportToShareableHandle(&vmm_fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUdeviceptr c = map_vmm(h);
    set<<<blocks, 256>>>((int *)c, n, 3000);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    // the child: this program again, the handles as hex, the descriptors inherited
    char mem_hex[2 * sizeof hmem + 1], ev_hex[2 * sizeof hev + 1], ptr_hex[2 * sizeof pdata + 1], pfd[16], vfd[16];
    to_hex(&hmem, sizeof hmem, mem_hex);
    to_hex(&hev, sizeof hev, ev_hex);
    to_hex(&pdata, sizeof pdata, ptr_hex);
    snprintf(pfd, sizeof pfd, "%d", pool_fd);
    snprintf(vfd, sizeof vfd, "%d", vmm_fd);
    fcntl(pool_fd, F_SETFD, 0);
    fcntl(vmm_fd, F_SETFD, 0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "child", mem_hex, ev_hex, ptr_hex, pfd, vfd, (char *)nullptr);
        _exit(127);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    close(pool_fd);
    close(vmm_fd);
    bad += MISS(!WIFEXITED(status) || WEXITSTATUS(status) != 0);

    // what the child wrote
    CHECK(cudaEventSynchronize(ev));
    bad += MISS(count_bad(a, 1001) != 0);
    bad += MISS(count_bad(b, 2002) != 0);
    bad += MISS(count_bad((int *)c, 3003) != 0);
    CHECK(cudaFree(a));
    CHECK(cudaMemcpy(small_h, small, sizeof small_h, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < sizeof small_h; i++)
        bad += MISS(small_h[i] != 0x5a);
    CHECK(cudaFreeAsync(b, 0));
    CHECK(cudaMemPoolDestroy(pool));
    unmap_vmm(c);
    CHECK_DRV(cuMemRelease(h));
    CHECK(cudaFree(small));
    CHECK(cudaEventDestroy(ev));
    CHECK(cudaEventDestroy(timed));
    printf("ipc: %d mismatches\n", bad);
    return bad != 0;
}
