// surfaces.cu: surface objects on CUDA arrays: surf1D, surf2D, surf3D, surf1DLayered and
// surf2DLayered reads and writes of 1 to 16-byte elements, the clamp and zero boundary modes,
// a texture fetch of what a surface wrote, and the errors of surface objects. Every result is
// checked on the CPU.
#include "check.h"

#include <vector>

static int checks, bad;

static void expect(bool ok, const char *what)
{
    checks++;
    if (!ok) {
        bad++;
        printf("mismatch: %s\n", what);
    }
}

// out = 2 * in + 1 over a w x h int surface, one thread per element
__global__ void twice(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h)
        surf2Dwrite(2 * surf2Dread<int>(in, x * 4, y) + 1, out, x * 4, y);
}

// Row y of a float4 surface read from x = -2 .. w + 1: clamped reads into a, zero-mode reads
// into b; zero-mode writes of 5 outside (dropped) and inside (kept, at even x).
__global__ void edges(cudaSurfaceObject_t s, float4 *a, float4 *b, int w, int y)
{
    int x = threadIdx.x - 2;
    a[threadIdx.x] = surf2Dread<float4>(s, x * 16, y, cudaBoundaryModeClamp);
    b[threadIdx.x] = surf2Dread<float4>(s, x * 16, y, cudaBoundaryModeZero);
    __syncthreads();
    if (x % 2 == 0 || x < 0 || x >= w)
        surf2Dwrite(make_float4(5, 5, 5, 5), s, x * 16, y + 1, cudaBoundaryModeZero);
}

// 1D uchar2, 3D short, 1D layered float, 2D layered long long: each element + its coordinates
__global__ void others(cudaSurfaceObject_t s1, cudaSurfaceObject_t s3, cudaSurfaceObject_t sl1,
                       cudaSurfaceObject_t sl2, int n)
{
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    if (x >= n)
        return;
    if (y == 0 && z == 0) {
        uchar2 c = surf1Dread<uchar2>(s1, x * 2);
        surf1Dwrite(make_uchar2(c.x + 1, c.y + 2), s1, x * 2);
    }
    short v = surf3Dread<short>(s3, x * 2, y, z);
    surf3Dwrite((short)(v + x + 10 * y + 100 * z), s3, x * 2, y, z);
    if (y == 0) {
        float f = surf1DLayeredread<float>(sl1, x * 4, z);
        surf1DLayeredwrite(f * 3, sl1, x * 4, z);
    }
    long long q = surf2DLayeredread<long long>(sl2, x * 8, y, z);
    surf2DLayeredwrite(q * 1000000007LL, sl2, x * 8, y, z);
}

__global__ void read_tex(cudaTextureObject_t t, int *out, int w, int h)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h)
        out[y * w + x] = tex2D<int>(t, x + 0.5f, y + 0.5f);
}

static cudaSurfaceObject_t surface(cudaArray_t a)
{
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &res));
    return s;
}

// (CUDA has no 64-bit channels: a 64-bit element is an int2, read as a long long.)
template <typename T> static cudaArray_t array(cudaExtent e, unsigned flags, const std::vector<T> &init)
{
    cudaChannelFormatDesc desc = sizeof(T) == 8 ? cudaCreateChannelDesc<int2>() : cudaCreateChannelDesc<T>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, e, flags | cudaArraySurfaceLoadStore));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr((void *)init.data(), e.width * sizeof(T), e.width, e.height ? e.height : 1);
    p.dstArray = a;
    p.extent = make_cudaExtent(e.width, e.height ? e.height : 1, e.depth ? e.depth : 1);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    return a;
}

template <typename T> static std::vector<T> back(cudaArray_t a, size_t n)
{
    cudaExtent e;
    CHECK(cudaArrayGetInfo(NULL, &e, NULL, a));
    std::vector<T> out(n);
    cudaMemcpy3DParms p = {};
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(out.data(), e.width * sizeof(T), e.width, e.height ? e.height : 1);
    p.extent = make_cudaExtent(e.width, e.height ? e.height : 1, e.depth ? e.depth : 1);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    return out;
}

static void test_2d()
{
    const int w = 33, h = 17;
    std::vector<int> img(w * h);
    for (int i = 0; i < w * h; i++)
        img[i] = i * 5 - 300;
    cudaArray_t a = array(make_cudaExtent(w, h, 0), 0, img), b = array(make_cudaExtent(w, h, 0), 0, img);
    cudaSurfaceObject_t sa = surface(a), sb = surface(b);
    twice<<<dim3((w + 31) / 32, h), 32>>>(sa, sb, w, h);
    CHECK(cudaGetLastError());
    std::vector<int> out = back<int>(b, w * h);
    int wrong = 0;
    for (int i = 0; i < w * h; i++)
        wrong += out[i] != 2 * img[i] + 1;
    expect(wrong == 0, "surf2Dread / surf2Dwrite");
    // the texture path reads what the surface wrote
    cudaResourceDesc res;
    CHECK(cudaGetSurfaceObjectResourceDesc(&res, sb));
    expect(res.resType == cudaResourceTypeArray && res.res.array.array == b, "the surface's resource");
    cudaTextureDesc td = {};
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
    int *dout;
    CHECK(cudaMalloc(&dout, w * h * sizeof(int)));
    read_tex<<<h, 64>>>(t, dout, w, h);
    std::vector<int> seen(w * h);
    CHECK(cudaMemcpy(seen.data(), dout, w * h * sizeof(int), cudaMemcpyDeviceToHost));
    expect(seen == out, "tex2D of what a surface wrote");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(dout));
    CHECK(cudaDestroySurfaceObject(sa));
    CHECK(cudaDestroySurfaceObject(sb));
    // destroying one twice: no error, as on an H200
    expect(!MISS_ERR(cudaDestroySurfaceObject(sa), cudaSuccess), "destroying a surface twice is quiet");
    CHECK(cudaFreeArray(a));
    CHECK(cudaFreeArray(b));
}

static void test_edges()
{
    const int w = 6, h = 3;
    std::vector<float4> img(w * h);
    for (int i = 0; i < w * h; i++)
        img[i] = make_float4(i, -i, 0.5f * i, 1);
    cudaArray_t a = array(make_cudaExtent(w, h, 0), 0, img);
    cudaSurfaceObject_t s = surface(a);
    float4 *da, *db;
    CHECK(cudaMalloc(&da, (w + 4) * sizeof(float4)));
    CHECK(cudaMalloc(&db, (w + 4) * sizeof(float4)));
    edges<<<1, w + 4>>>(s, da, db, w, 1);
    CHECK(cudaGetLastError());
    std::vector<float4> ra(w + 4), rb(w + 4);
    CHECK(cudaMemcpy(ra.data(), da, ra.size() * sizeof(float4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rb.data(), db, rb.size() * sizeof(float4), cudaMemcpyDeviceToHost));
    std::vector<float4> out = back<float4>(a, w * h);
    int wrong = 0;
    for (int k = 0; k < w + 4; k++) {
        int x = k - 2, cx = x < 0 ? 0 : x >= w ? w - 1 : x;
        float4 c = img[w + cx];
        wrong += ra[k].x != c.x || ra[k].y != c.y || ra[k].z != c.z;
        bool in = x >= 0 && x < w;
        wrong += rb[k].x != (in ? img[w + x].x : 0) || rb[k].w != (in ? 1.0f : 0.0f);
    }
    for (int x = 0; x < w; x++) // row 2: 5 at even x, the rest as it was
        wrong += out[2 * w + x].x != (x % 2 == 0 ? 5.0f : img[2 * w + x].x);
    for (int i = 0; i < 2 * w; i++) // rows 0 and 1 untouched
        wrong += out[i].x != img[i].x;
    expect(wrong == 0, "clamp and zero boundary modes");
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
}

static void test_others()
{
    const int n = 24, h = 5, d = 3;
    std::vector<uchar2> v1(n);
    std::vector<short> v3(n * h * d);
    std::vector<float> vl1(n * d);
    std::vector<long long> vl2(n * h * d);
    for (int i = 0; i < n; i++)
        v1[i] = make_uchar2(i, 200 + i);
    for (size_t i = 0; i < v3.size(); i++)
        v3[i] = (short)(i * 3 - 99);
    for (size_t i = 0; i < vl1.size(); i++)
        vl1[i] = 0.25f * i;
    for (size_t i = 0; i < vl2.size(); i++)
        vl2[i] = (long long)i - 40;
    cudaArray_t a1 = array(make_cudaExtent(n, 0, 0), 0, v1), a3 = array(make_cudaExtent(n, h, d), 0, v3);
    cudaArray_t al1 = array(make_cudaExtent(n, 0, d), cudaArrayLayered, vl1);
    cudaArray_t al2 = array(make_cudaExtent(n, h, d), cudaArrayLayered, vl2);
    cudaSurfaceObject_t s1 = surface(a1), s3 = surface(a3), sl1 = surface(al1), sl2 = surface(al2);
    others<<<dim3(h, d), 32>>>(s1, s3, sl1, sl2, n);
    CHECK(cudaGetLastError());
    std::vector<uchar2> o1 = back<uchar2>(a1, n);
    std::vector<short> o3 = back<short>(a3, v3.size());
    std::vector<float> ol1 = back<float>(al1, vl1.size());
    std::vector<long long> ol2 = back<long long>(al2, vl2.size());
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += o1[i].x != (unsigned char)(i + 1) || o1[i].y != (unsigned char)(202 + i);
    expect(wrong == 0, "surf1D of uchar2");
    wrong = 0;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < n; x++) {
                size_t i = ((size_t)z * h + y) * n + x;
                wrong += o3[i] != (short)(v3[i] + x + 10 * y + 100 * z);
                wrong += ol2[i] != vl2[i] * 1000000007LL;
            }
    for (size_t i = 0; i < vl1.size(); i++)
        wrong += ol1[i] != vl1[i] * 3;
    expect(wrong == 0, "surf3D, surf1DLayered, surf2DLayered");
    cudaSurfaceObject_t all[4] = {s1, s3, sl1, sl2};
    cudaArray_t arrs[4] = {a1, a3, al1, al2};
    for (int i = 0; i < 4; i++) {
        CHECK(cudaDestroySurfaceObject(all[i]));
        CHECK(cudaFreeArray(arrs[i]));
    }
}

int main()
{
    test_2d();
    test_edges();
    test_others();
    // an array without cudaArraySurfaceLoadStore: CUDA's documentation asks for the flag, an
    // H200 makes the surface all the same, and it is read and written like any other
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &desc, 8, 8));
    int in[64], back[64];
    for (int i = 0; i < 64; i++)
        in[i] = i * 5 - 100;
    CHECK(cudaMemcpy2DToArray(a, 0, 0, in, 8 * sizeof(int), 8 * sizeof(int), 8, cudaMemcpyHostToDevice));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaSurfaceObject_t s;
    expect(!MISS_ERR(cudaCreateSurfaceObject(&s, &res), cudaSuccess), "a surface without the flag");
    twice<<<dim3(1, 8), 32>>>(s, s, 8, 8);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2DFromArray(back, 8 * sizeof(int), a, 0, 0, 8 * sizeof(int), 8, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < 64; i++)
        wrong += back[i] != 2 * in[i] + 1;
    expect(wrong == 0, "written through a surface without the flag");
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    printf("surfaces: %d checks, %d mismatches\n", checks, bad);
    return bad ? 1 : 0;
}
