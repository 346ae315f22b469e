// driver_api.cu: kernels for the driver-API tests (tests/unit/test_cuda_driver.c): a SAXPY,
// and a kernel that reads a __device__ scale and bumps a __device__ counter.
__device__ float dev_scale = 1.0f;
__device__ unsigned int dev_calls;

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void scale_by_global(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] *= dev_scale;
    if (i == 0)
        atomicAdd(&dev_calls, 1u);
}
