// virtual.cu: device-side virtual functions and new/delete, each result checked against the CPU.
// One kernel makes an object of one of three classes per thread with new (device malloc), the
// class chosen by the thread's index, so that each warp holds all three; another calls their
// virtual functions through base-class pointers (calls through a vtable, the lanes of a warp
// going to different functions), one of them recursing through a virtual call; a third
// deletes them (virtual destructors, device free). Also: malloc of more than the heap gives
// NULL, and a lane-dependent function pointer called without a class.
#include "check.h"

#include <cstdio>

struct Shape {
    int id;
    __device__ Shape(int i) : id(i) {}
    __device__ virtual ~Shape() {}
    __device__ virtual int area(int scale) const = 0;
    __device__ virtual int sides() const { return 0; }
};

struct Square : Shape {
    int edge;
    __device__ Square(int i, int e) : Shape(i), edge(e) {}
    __device__ int area(int scale) const override { return edge * edge * scale; }
    __device__ int sides() const override { return 4; }
};

struct Rect : Shape {
    int w, h;
    __device__ Rect(int i, int a, int b) : Shape(i), w(a), h(b) {}
    __device__ int area(int scale) const override { return w * h * scale; }
    __device__ int sides() const override { return 4 + (w != h); }
};

// a tower of n squares: its area recurses through the virtual call of the one beneath
struct Tower : Shape {
    Shape *below;
    __device__ Tower(int i, Shape *b) : Shape(i), below(b) {}
    __device__ ~Tower() override { delete below; }
    __device__ int area(int scale) const override { return 1 + (below ? below->area(scale) : 0); }
};

__global__ void make(Shape **objs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    switch (i % 3) {
    case 0: objs[i] = new Square(i, i % 7); break;
    case 1: objs[i] = new Rect(i, i % 5, i % 11); break;
    default: {
        Shape *s = nullptr;
        for (int k = 0; k < i % 4; k++)
            s = new Tower(i, s);
        objs[i] = new Tower(i, s);
    }
    }
}

__global__ void use(Shape *const *objs, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[3 * i] = objs[i]->area(3);
        out[3 * i + 1] = objs[i]->sides();
        out[3 * i + 2] = objs[i]->id;
    }
}

__global__ void destroy(Shape **objs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        delete objs[i];
        objs[i] = nullptr;
    }
}

__device__ int twice(int x) { return 2 * x; }
__device__ int square(int x) { return x * x; }
typedef int (*Op)(int);
__device__ Op ops[2] = {twice, square};

__global__ void pointers(int *out, int n, unsigned long long huge)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = ops[(i >> 1) & 1](i);
    if (i == 0) // more than the heap: NULL, as CUDA's malloc gives
        out[n] = malloc(huge) == nullptr;
}

static int cpu_area(int i)
{
    switch (i % 3) {
    case 0: return (i % 7) * (i % 7) * 3;
    case 1: return (i % 5) * (i % 11) * 3;
    default: return 1 + i % 4;
    }
}

int main()
{
    const int n = 200, threads = 64, blocks = (n + threads - 1) / threads;
    Shape **objs;
    int *out;
    CHECK(cudaMalloc(&objs, n * sizeof *objs));
    CHECK(cudaMalloc(&out, (3 * n + 1) * sizeof *out));
    static int h[3 * n + 1];
    int bad = 0;
    for (int round = 0; round < 2; round++) { // the second round reuses what the first freed
        make<<<blocks, threads>>>(objs, n);
        use<<<blocks, threads>>>(objs, out, n);
        destroy<<<blocks, threads>>>(objs, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h, out, 3 * n * sizeof *out, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            bad += MISS(h[3 * i] != cpu_area(i));
            bad += MISS(h[3 * i + 1] != (i % 3 == 0 ? 4 : i % 3 == 1 ? 4 + (i % 5 != i % 11) : 0));
            bad += MISS(h[3 * i + 2] != i);
        }
    }
    pointers<<<blocks, threads>>>(out, n, 1ull << 40);
    CHECK(cudaMemcpy(h, out, (n + 1) * sizeof *out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        bad += MISS(h[i] != ((i >> 1) & 1 ? i * i : 2 * i));
    bad += MISS(h[n] != 1);
    printf("virtual: %d mismatches\n", bad);
    return bad != 0;
}
