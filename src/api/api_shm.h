/* api_shm.h: device memory shared with other processes, for CUDA's interprocess communication
 * in both libraries (api_shm.c): the runtime's IPC handles and exportable memory pools, the
 * driver's shareable allocation handles. */
#ifndef WARPSIM_API_SHM_H
#define WARPSIM_API_SHM_H

#include "warpsim.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define API_SHM_PAGE 4096u /* the unit of sharing: the simulator's page */

/* Bytes rounded up to whole pages. */
static inline uint64_t api_shm_pages(uint64_t bytes) { return (bytes + API_SHM_PAGE - 1) & ~(uint64_t)(API_SHM_PAGE - 1); }

/* Device pages whose bytes are a shared file's, mapped into this process. */
typedef struct ApiShm {
    uint64_t base;  /* the device address of the first page; 0: nothing mapped */
    uint64_t bytes; /* whole pages */
    void *host;     /* the file's bytes, mapped shared */
    uint64_t alloc; /* api_shm_place: the allocation made there, in a reservation of its own */
} ApiShm;

/* A new shared file of bytes (zeros), close-on-exec: its descriptor, or -1 with why. */
int api_shm_create(uint64_t bytes, char *why, size_t len);
/* A descriptor of this process for a file of warpsim's: another process's descriptor fd
 * (/proc/PID/fd/FD, remote) or one of ours handed over (a shareable handle: duplicated); -1
 * with why when the descriptor is no file of warpsim's. *bytes: the file's length. */
int api_shm_open(int pid, int fd, bool remote, uint64_t *bytes, char *why, size_t len);
/* Map bytes of the file from file_off (whole pages) at device address base (whole pages),
 * adopting the bytes the device holds there (see warpsim_map_shared); false with why. */
bool api_shm_map(WarpsimSim *s, int fd, uint64_t file_off, uint64_t base, uint64_t bytes, bool adopt, ApiShm *out,
                 char *why, size_t len);
/* Map bytes of the file from file_off at a fresh reservation and place an allocation of size
 * bytes at offset `offset` inside it: out->alloc; false with why. */
bool api_shm_place(WarpsimSim *s, int fd, uint64_t file_off, uint64_t bytes, uint64_t offset, uint64_t size,
                   ApiShm *out, char *why, size_t len);
/* Undo api_shm_map or api_shm_place (the allocation and reservation of a placement too). */
void api_shm_unmap(WarpsimSim *s, ApiShm *m);

#endif
