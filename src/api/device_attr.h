/* device_attr.h: the device attributes of the simulated machine (device_attr.c), shared by the
 * runtime (cudaDeviceGetAttribute, cudaGetDeviceProperties) and the driver library
 * (cuDeviceGetAttribute). */
#ifndef WARPSIM_API_DEVICE_ATTR_H
#define WARPSIM_API_DEVICE_ATTR_H

#include "warpsim.h"

typedef enum {
    API_ATTR_OK,           /* *value set */
    API_ATTR_UNKNOWN,      /* not an attribute of CUDA 13 */
    API_ATTR_NOT_MODELLED, /* an attribute warpsim does not answer */
} ApiAttrStatus;

/* Attribute attr (a cudaDeviceAttr value) of the machine di describes. */
ApiAttrStatus api_device_attribute(const WarpsimDeviceInfo *di, int attr, int *value);
/* "cudaDevAttrNAME" of an attribute value, or NULL when CUDA 13 has none. */
const char *api_device_attr_name(int attr);
/* The device's UUID (cudaDeviceProp.uuid, cuDeviceGetUuid): a hash of the configured machine's
 * name and compute capability, so that the two libraries report the same one and two machines
 * differ, laid out as an RFC 4122 name-based UUID. */
void api_device_uuid(const WarpsimDeviceInfo *di, unsigned char uuid[16]);
/* Persisting L2 (cudaDevAttrMaxPersistingL2CacheSize, ...AccessPolicyMaxWindowSize). */
void api_persisting_l2(const WarpsimDeviceInfo *di, int *max_bytes, int *max_window);

#endif
