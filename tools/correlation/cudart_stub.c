/* cudart_stub.c: a link-time stand-in for libcudart.so.13, never run.
 *
 * correlate.py links a workload's program for GPGPU-Sim against this library (built with the
 * soname libcudart.so.13) rather than NVIDIA's, whose symbols carry version tags that GPGPU-Sim's
 * libcudart does not define. At run time GPGPU-Sim's library, found first on LD_LIBRARY_PATH
 * under that name, provides the real functions. Only the names matter here: one empty function
 * per runtime entry point rtdrv.c calls. */
#define CUDART_STUB(name) \
    void name(void);      \
    void name(void) {}

CUDART_STUB(__cudaRegisterFatBinary)
CUDART_STUB(__cudaRegisterFatBinaryEnd)
CUDART_STUB(__cudaRegisterFunction)
CUDART_STUB(__cudaPushCallConfiguration)
CUDART_STUB(cudaMalloc)
CUDART_STUB(cudaFree)
CUDART_STUB(cudaMemcpy)
CUDART_STUB(cudaMemset)
CUDART_STUB(cudaLaunchKernel)
CUDART_STUB(cudaDeviceSynchronize)
CUDART_STUB(cudaGetErrorString)
