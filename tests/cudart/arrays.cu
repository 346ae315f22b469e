// arrays.cu: CUDA arrays and 3D copies: 1D, 2D, 3D, layered and cube-map arrays filled and read
// back through every copy call (flat, 2D, array to array, cudaMemcpy3D with arrays and pitched
// pointers, their Async forms), cudaMalloc3D and cudaMemset3D, a kernel on 3D pitched memory,
// cudaArrayGetInfo, and the errors of copies that leave an array. Every result is checked on
// the CPU.
#include "check.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" // the flat array copies are deprecated, and tested

#include <cstring>
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

// Each element of the 3D pitched volume: doubled, plus its slice.
__global__ void scale3d(cudaPitchedPtr p, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x >= w || y >= h || z >= d)
        return;
    int *row = (int *)((char *)p.ptr + (z * p.ysize + y) * p.pitch);
    row[x] = 2 * row[x] + z;
}

static void test_2d()
{
    const int w = 37, h = 19; // not whole tiles: rows of 148 bytes, 19 rows
    std::vector<float> in(w * h), out(w * h, -1.0f);
    for (int i = 0; i < w * h; i++)
        in[i] = 0.5f * i - 3;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a, b;
    CHECK(cudaMallocArray(&a, &desc, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, in.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DFromArray(out.data(), w * sizeof(float), a, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    expect(in == out, "2D round trip");
    // a 5 x 4 block from (3, 2) of a into (10, 7) of b
    CHECK(cudaMallocArray(&b, &desc, w, h));
    std::vector<float> zero(w * h, 0.0f);
    CHECK(cudaMemcpy2DToArrayAsync(b, 0, 0, zero.data(), w * sizeof(float), w * sizeof(float), h,
                                   cudaMemcpyHostToDevice, 0));
    CHECK(cudaMemcpy2DArrayToArray(b, 10 * sizeof(float), 7, a, 3 * sizeof(float), 2, 5 * sizeof(float), 4,
                                   cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy2DFromArrayAsync(out.data(), w * sizeof(float), b, 0, 0, w * sizeof(float), h,
                                     cudaMemcpyDefault, 0));
    int wrong = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            bool inside = x >= 10 && x < 15 && y >= 7 && y < 11;
            wrong += out[y * w + x] != (inside ? in[(y - 5) * w + x - 7] : 0.0f);
        }
    expect(wrong == 0, "2D array to array");
    // flat copies run on from one row into the next: 50 floats from (30, 1)
    std::vector<float> run(50);
    CHECK(cudaMemcpyFromArray(run.data(), a, 30 * sizeof(float), 1, sizeof(float) * run.size(), cudaMemcpyDeviceToHost));
    expect(!memcmp(run.data(), &in[1 * w + 30], sizeof(float) * run.size()), "flat copy from an array");
    for (size_t i = 0; i < run.size(); i++)
        run[i] = 1000.0f + i;
    CHECK(cudaMemcpyToArray(b, 20 * sizeof(float), 3, run.data(), sizeof(float) * run.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DFromArray(out.data(), w * sizeof(float), b, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    expect(!memcmp(&out[3 * w + 20], run.data(), sizeof(float) * run.size()), "flat copy into an array");
    // out of the array: refused
    expect(cudaMemcpy2DToArray(a, 4, 0, in.data(), w * sizeof(float), w * sizeof(float), 1,
                               cudaMemcpyHostToDevice) == cudaErrorInvalidValue, "a row past the array's end fails");
    expect(cudaGetLastError() == cudaErrorInvalidValue, "the failure is the last error");
    expect(cudaMemcpyToArray(a, 0, 0, in.data(), 4, cudaMemcpyDeviceToHost) == cudaErrorInvalidMemcpyDirection,
           "a copy into an array from the device to the host fails");
    cudaGetLastError();
    CHECK(cudaFreeArray(a));
    CHECK(cudaFreeArray(b));
    if (on_warpsim()) { // undefined on a GPU: NVIDIA's driver crashes
        expect(cudaFreeArray(a) == cudaErrorInvalidResourceHandle, "freeing an array twice fails");
        cudaGetLastError();
    }
}

static void test_1d()
{
    const int n = 300;
    std::vector<uchar4> in(n), out(n);
    for (int i = 0; i < n; i++)
        in[i] = make_uchar4(i, i >> 8, 255 - i, 7);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a, c;
    CHECK(cudaMallocArray(&a, &desc, n));
    CHECK(cudaMallocArray(&c, &desc, n));
    CHECK(cudaMemcpyToArrayAsync(a, 0, 0, in.data(), n * sizeof(uchar4), cudaMemcpyHostToDevice, 0));
    CHECK(cudaMemcpyArrayToArray(c, 0, 0, a, 0, 0, n * sizeof(uchar4), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpyFromArrayAsync(out.data(), c, 0, 0, n * sizeof(uchar4), cudaMemcpyDeviceToHost, 0));
    expect(!memcmp(in.data(), out.data(), n * sizeof(uchar4)), "1D round trip");
    cudaChannelFormatDesc got;
    cudaExtent e;
    unsigned flags = 99;
    CHECK(cudaArrayGetInfo(&got, &e, &flags, a));
    expect(got.x == 8 && got.y == 8 && got.z == 8 && got.w == 8 && got.f == cudaChannelFormatKindUnsigned,
           "1D array's channels");
    expect(e.width == (size_t)n && e.height == 0 && e.depth == 0 && flags == 0, "1D array's extent");
    CHECK(cudaFreeArray(a));
    CHECK(cudaFreeArray(c));
}

// A host volume of w x h x d ints through a 3D array (flags) and a pitched device volume.
static void test_3d(unsigned flags, int w, int h, int d, const char *what)
{
    std::vector<int> in(w * h * d), out(w * h * d, -1);
    for (int i = 0; i < w * h * d; i++)
        in[i] = i * 7 - 100;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
    cudaArray_t a;
    cudaExtent ext = make_cudaExtent(w, h, d);
    CHECK(cudaMalloc3DArray(&a, &desc, ext, flags));
    cudaExtent got;
    unsigned gflags;
    CHECK(cudaArrayGetInfo(NULL, &got, &gflags, a));
    expect(got.width == (size_t)w && got.height == (size_t)h && got.depth == (size_t)d && gflags == flags, what);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(in.data(), w * sizeof(int), w, h);
    p.dstArray = a;
    p.extent = ext;
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    // the array into pitched device memory, set to 0x01 bytes first
    cudaPitchedPtr dv;
    cudaExtent bytes = make_cudaExtent(w * sizeof(int), h, d);
    CHECK(cudaMalloc3D(&dv, bytes));
    expect(dv.pitch % 512 == 0 && dv.pitch >= w * sizeof(int) && dv.xsize == w * sizeof(int) && dv.ysize == (size_t)h,
           "cudaMalloc3D's pitched pointer");
    CHECK(cudaMemset3DAsync(dv, 1, bytes, 0));
    cudaMemcpy3DParms q = {};
    q.srcArray = a;
    q.dstPtr = dv;
    q.extent = ext;
    q.kind = cudaMemcpyDeviceToDevice;
    q.srcPos = make_cudaPos(1, 0, 0); // all but the first column, into column 0 on
    q.extent.width = w - 1;
    CHECK(cudaMemcpy3DAsync(&q, 0));
    scale3d<<<dim3((w + 31) / 32, h, d), 32>>>(dv, w, h, d);
    CHECK(cudaGetLastError());
    cudaMemcpy3DParms r = {};
    r.srcPtr = dv;
    r.dstPtr = make_cudaPitchedPtr(out.data(), w * sizeof(int), w, h);
    r.extent = bytes; // no array: bytes
    r.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&r));
    int wrong = 0;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int v = x < w - 1 ? in[(z * h + y) * w + x + 1] : 0x01010101;
                wrong += out[(z * h + y) * w + x] != 2 * v + z;
            }
    expect(wrong == 0, what);
    // a box past the last slice is refused
    p.extent.depth = d + 1;
    expect(cudaMemcpy3D(&p) == cudaErrorInvalidValue, "a 3D copy past the array fails");
    cudaGetLastError();
    CHECK(cudaFree(dv.ptr));
    CHECK(cudaFreeArray(a));
}

int main()
{
    test_2d();
    test_1d();
    test_3d(0, 45, 13, 5, "3D array");
    test_3d(cudaArrayLayered, 20, 9, 3, "2D layered array");
    test_3d(cudaArrayCubemap, 16, 16, 6, "cube map");
    test_3d(cudaArrayCubemap | cudaArrayLayered, 8, 8, 12, "layered cube map");
    cudaArray_t a;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    expect(cudaMalloc3DArray(&a, &desc, make_cudaExtent(8, 9, 6), cudaArrayCubemap) == cudaErrorInvalidValue,
           "a cube map of faces that are not square fails");
    cudaGetLastError();
    printf("arrays: %d checks, %d mismatches\n", checks, bad);
    return bad ? 1 : 0;
}
