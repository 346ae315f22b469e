/* runtime_errors.c: the names and messages of the CUDA runtime's error codes
 * (cudaGetErrorName, cudaGetErrorString) for warpsim's libcudart replacement (runtime.c).
 *
 * The codes are those of CUDA 13's driver_types.h; a program prints these strings when a call
 * fails, so they are the ones the real runtime gives. Codes warpsim never returns are listed
 * too when programs commonly test for them. */
#include <stddef.h>

typedef int cudaError_t; /* enum cudaError: an int in the C ABI */

const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

static const struct {
    cudaError_t code;
    const char *name, *text;
} rt_errors[] = {
    {0, "cudaSuccess", "no error"},
    {1, "cudaErrorInvalidValue", "invalid argument"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {4, "cudaErrorCudartUnloading", "driver shutting down"},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {16, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {18, "cudaErrorInvalidTexture", "invalid texture reference"},
    {20, "cudaErrorInvalidChannelDescriptor", "invalid channel descriptor"},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {31, "cudaErrorNotYetImplemented", "feature not yet implemented"},
    {35, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"},
    {52, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {53, "cudaErrorPriorLaunchFailure", "unspecified launch failure in prior launch"},
    {65, "cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"},
    {69, "cudaErrorLaunchPendingCountExceeded",
     "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount"},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {201, "cudaErrorDeviceUninitialized", "invalid device context"},
    {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {215, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {217, "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices"},
    {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {300, "cudaErrorInvalidSource", "device kernel image is invalid"},
    {301, "cudaErrorFileNotFound", "file not found"},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {401, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {500, "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {705, "cudaErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {710, "cudaErrorAssert", "device-side assert triggered"},
    {715, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {712, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
    {713, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
    {716, "cudaErrorMisalignedAddress", "misaligned address"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {720, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
    {800, "cudaErrorNotPermitted", "operation not permitted"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {900, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {901, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
    {903, "cudaErrorStreamCaptureUnmatched", "capture was not initiated in this stream"},
    {910, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which "
     "violated constraints specific to instantiated graph update"},
    {999, "cudaErrorUnknown", "unknown error"},
};

static int rt_error_index(cudaError_t error)
{
    for (size_t i = 0; i < sizeof rt_errors / sizeof rt_errors[0]; i++)
        if (rt_errors[i].code == error)
            return (int)i;
    return -1;
}

const char *cudaGetErrorName(cudaError_t error)
{
    int i = rt_error_index(error);
    return i < 0 ? "unrecognized error code" : rt_errors[i].name;
}

const char *cudaGetErrorString(cudaError_t error)
{
    int i = rt_error_index(error);
    return i < 0 ? "unrecognized error code" : rt_errors[i].text;
}
