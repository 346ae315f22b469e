// texture.cu: tex1Dfetch on texture objects over linear memory: a float buffer (including
// fetches past its end, which return 0) and an int2 buffer read one channel at a time.
#include "check.h"

__global__ void fetch(cudaTextureObject_t tf, cudaTextureObject_t ti, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int2 p = tex1Dfetch<int2>(ti, i);
    // i + n / 2 runs past the end of the float texture for the upper half: those fetches give 0
    out[i] = 2.0f * tex1Dfetch<float>(tf, i) + tex1Dfetch<float>(tf, i + n / 2) + (float)(p.x - p.y);
}

static cudaTextureObject_t make_texture(void *dev, size_t bytes, cudaChannelFormatDesc desc)
{
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = dev;
    res.res.linear.desc = desc;
    res.res.linear.sizeInBytes = bytes;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
    return t;
}

int main()
{
    const int n = 3000;
    float f[n], out[n];
    int2 pairs[n];
    for (int i = 0; i < n; i++) {
        f[i] = 0.25f * i;
        pairs[i] = make_int2(3 * i, i - 7);
    }
    float *df, *dout;
    int2 *dp;
    CHECK(cudaMalloc((void **)&df, sizeof f));
    CHECK(cudaMalloc((void **)&dp, sizeof pairs));
    CHECK(cudaMalloc((void **)&dout, sizeof out));
    CHECK(cudaMemcpy(df, f, sizeof f, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dp, pairs, sizeof pairs, cudaMemcpyHostToDevice));
    cudaTextureObject_t tf = make_texture(df, sizeof f, cudaCreateChannelDesc<float>());
    cudaTextureObject_t ti = make_texture(dp, sizeof pairs, cudaCreateChannelDesc<int2>());
    fetch<<<(n + 127) / 128, 128>>>(tf, ti, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaDestroyTextureObject(tf));
    CHECK(cudaDestroyTextureObject(ti));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float beyond = i + n / 2 < n ? f[i + n / 2] : 0.0f;
        bad += MISS(out[i] != 2.0f * f[i] + beyond + (float)(pairs[i].x - pairs[i].y));
    }
    printf("texture: %d fetches per texture, %d mismatches\n", n, bad);
    return bad ? 1 : 0;
}
