// streamattr.cu: stream attributes and persisting-L2 hints. The device reports persisting L2 by
// its compute capability (none below 8.0); a stream keeps an access policy window, its
// synchronisation policy and priority (clamped to the device's range) and reports them back;
// cudaCtxResetPersistingL2Cache and the persisting-L2 limit are accepted; a kernel run under a
// window computes what it computes without one; and misuse (a window larger than the device
// allows, a hit ratio above 1, an attribute streams do not have) is refused.
#include "check.h"

#include <cstdio>

__global__ void bump(int *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] += i;
}

int main()
{
    int bad = 0;
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    int max_l2 = -1, max_window = -1;
    CHECK(cudaDeviceGetAttribute(&max_l2, cudaDevAttrMaxPersistingL2CacheSize, 0));
    CHECK(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, 0));
    bad += MISS(max_l2 != p.persistingL2CacheMaxSize || max_window != p.accessPolicyMaxWindowSize);
    bool has = p.major >= 8;
    bad += MISS(has != (max_l2 > 0) || has != (max_window > 0));
    printf("streamattr: compute capability %d.%d, persisting L2 %d of %d bytes, window up to %d\n", p.major, p.minor,
           max_l2, p.l2CacheSize, max_window);

    const int n = 4096;
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemset(d, 0, n * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaStreamAttrValue v = {}, got = {};
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
    bad += MISS(got.accessPolicyWindow.num_bytes != 0);
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &got));
    // the policy a new stream reports: warpsim's is cudaSyncPolicyAuto, an H200's -1 (none set)
    bad += MISS(got.syncPolicy != cudaSyncPolicyAuto && got.syncPolicy != (cudaSynchronizationPolicy)-1);

    v.accessPolicyWindow.base_ptr = d;
    v.accessPolicyWindow.num_bytes = has ? n * sizeof(int) : 0;
    v.accessPolicyWindow.hitRatio = 0.6f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    if (has)
        CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, max_l2));
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
    bad += MISS(got.accessPolicyWindow.base_ptr != d || got.accessPolicyWindow.num_bytes != v.accessPolicyWindow.num_bytes ||
           got.accessPolicyWindow.hitRatio != 0.6f || got.accessPolicyWindow.hitProp != cudaAccessPropertyPersisting);
    v.syncPolicy = cudaSyncPolicyBlockingSync;
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &got));
    bad += MISS(got.syncPolicy != cudaSyncPolicyBlockingSync);
    v.priority = -3;
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributePriority, &v));
    int prio = 7;
    CHECK(cudaStreamGetPriority(s, &prio));
    int least, greatest; // warpsim's range is 0 to 0, an H200's 0 to -5: -3 clamped to it
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    bad += MISS(prio != (-3 < greatest ? greatest : -3 > least ? least : -3));

    for (int it = 0; it < 3; it++)
        bump<<<n / 256, 256, 0, s>>>(d, n);
    CHECK(cudaCtxResetPersistingL2Cache());
    CHECK(cudaStreamSynchronize(s));
    int h[n];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        bad += MISS(h[i] != 3 * i);

    // misuse
    v = {};
    v.accessPolicyWindow.base_ptr = d;
    v.accessPolicyWindow.num_bytes = (size_t)max_window + 4096;
    bad += MISS_ERR(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v), cudaErrorInvalidValue);
    v.accessPolicyWindow.num_bytes = 0;
    v.accessPolicyWindow.hitRatio = 1.5f;
    bad += MISS_ERR(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v), cudaErrorInvalidValue);
    bad += MISS_ERR(cudaStreamSetAttribute(s, cudaLaunchAttributeCooperative, &v), cudaErrorInvalidValue);
    cudaGetLastError();

    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
    printf("streamattr: %d mismatches\n", bad);
    return bad ? 1 : 0;
}
