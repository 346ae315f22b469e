// printf.cu: device printf from several blocks and threads, with the usual conversions (d i u
// x X o c s p e f g %, flags, widths, precisions, l/ll/h lengths), a string argument from
// device memory, and several calls per thread. warpsim prints a kernel's output on stdout when
// the kernel ends, ordered by block, then thread, then call, the same in every mode.
#include "hostile.h"

__device__ const char greeting[] = "hello";

__global__ void say(int n, float x, const char *word)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i % 37 != 0 || i >= n)
        return;
    printf("block %d thread %3d: %s %s|%-6s|%6.2f|%+d|%05d|%x|%X|%o|%c|%u%%\n", blockIdx.x, threadIdx.x, greeting,
           word, "ab", x * i, i, i, i * 255, i * 255, i, 'A' + i % 26, (unsigned)i * 3000000000u);
    printf("  %lld %llx %ld %hd %hhu %e %.3e %g %G %a %.0f %10.4f|%-10.1f|\n", (long long)i << 40,
           (unsigned long long)i << 36, -(long)i * 100000L, (short)(i * 1000), (unsigned char)(i + 250),
           (double)x * i, x / 3, x * 1e10, x * 1e-10, 1.0, 2.5, x, -x);
}

int main()
{
    char *word;
    CHECK(cudaMalloc((void **)&word, 8));
    CHECK(cudaMemcpy(word, "world", 6, cudaMemcpyHostToDevice));
    printf("before the kernel\n");
    say<<<3, 96>>>(3 * 96, 1.5f, word);
    CHECK(cudaDeviceSynchronize());
    printf("after the kernel\n");
    return 0;
}
