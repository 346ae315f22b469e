/* driver_device.c: device queries of warpsim's libcuda replacement (see driver.c).
 *
 * One device, 0, the configured machine: its name, memory, compute capability and attributes
 * (the runtime's table, device_attr.c, so both libraries report one device, and the driver's
 * own of virtual memory management), the deprecated CUdevprop, its UUID, and no peers. */
#include "api/driver_internal.h"

#include "api/device_attr.h"
#include "base/base.h"

#include <stdio.h>
#include <string.h>

_Static_assert(sizeof(CUdevprop) == 56, "CUdevprop layout");
_Static_assert(sizeof(CUuuid) == 16, "CUuuid layout");

CUresult cuDeviceGetCount(int *count)
{
    NEED_INIT();
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    NEED_INIT();
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    snprintf(name, (size_t)len, "%s", di.name);
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    *bytes = (size_t)di.global_bytes;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    switch ((int)attrib) { /* the driver's own: virtual memory management (driver_vmm.c) */
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED: *pi = 1; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED: *pi = 0; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED: *pi = drv_vmm_supports_compression(); return CUDA_SUCCESS;
    default: break;
    }
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    switch (api_device_attribute(&di, (int)attrib, pi)) { /* CUdevice_attribute numbers them as the runtime */
    case API_ATTR_OK:
        return CUDA_SUCCESS;
    case API_ATTR_UNKNOWN:
        fprintf(stderr, "warpsim: cuDeviceGetAttribute: %d is not a CUDA device attribute\n", (int)attrib);
        return CUDA_ERROR_INVALID_VALUE;
    default:
        fprintf(stderr, "warpsim: cuDeviceGetAttribute: attribute %d (%s) is not modelled\n", (int)attrib,
                api_device_attr_name((int)attrib));
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!major || !minor)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di; /* the configured machine's (gpu.compute_capability) */
    warpsim_device_info(drv_sim, &di);
    *major = (int)di.cc_major;
    *minor = (int)di.cc_minor;
    return CUDA_SUCCESS;
}

/* The deprecated properties: each field is the attribute of the same meaning. */
CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return drv_fail(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGetProperties", "device %d: the simulator has one "
                        "device, 0", dev);
    if (!prop)
        return drv_fail(CUDA_ERROR_INVALID_VALUE, "cuDeviceGetProperties", "null pointer");
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    struct {
        int *field;
        CUdevice_attribute attr;
    } map[] = {
        {&prop->maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
        {&prop->maxThreadsDim[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
        {&prop->maxThreadsDim[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
        {&prop->maxThreadsDim[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
        {&prop->maxGridSize[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
        {&prop->maxGridSize[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
        {&prop->maxGridSize[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
        {&prop->sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
        {&prop->totalConstantMemory, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
        {&prop->SIMDWidth, CU_DEVICE_ATTRIBUTE_WARP_SIZE},
        {&prop->memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH},
        {&prop->regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
        {&prop->clockRate, CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
        {&prop->textureAlign, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT},
    };
    for (size_t i = 0; i < ARRAY_LEN(map); i++)
        if (api_device_attribute(&di, (int)map[i].attr, map[i].field) != API_ATTR_OK)
            *map[i].field = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    NEED_INIT();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!uuid)
        return CUDA_ERROR_INVALID_VALUE;
    WarpsimDeviceInfo di;
    warpsim_device_info(drv_sim, &di);
    api_device_uuid(&di, (unsigned char *)uuid->bytes);
    return CUDA_SUCCESS;
}

/* The CUDA 9.2 form: the same answer (CUDA 11.4's _v2 only added MIG instances). */
#undef cuDeviceGetUuid
DRV_ALIAS(cuDeviceGetUuid, cuDeviceGetUuid_v2);

/* One device: no peer, not even itself (CUDA answers 0 for a device and itself too). */
CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    NEED_INIT();
    if (!canAccessPeer)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0 || peerDev != 0)
        return drv_fail(CUDA_ERROR_INVALID_DEVICE, "cuDeviceCanAccessPeer", "devices %d and %d: the simulator has "
                        "one device, 0", dev, peerDev);
    *canAccessPeer = 0;
    return CUDA_SUCCESS;
}
