/* api_shm.c: device memory shared with other processes (CUDA's IPC), for both libraries.
 *
 * Every process under `warpsim exec` runs a simulator of its own; what processes share is the
 * bytes of the memory one exports. Exportable memory lives in a file of its own (memfd_create,
 * named "warpsim-..."), mapped MAP_SHARED into each process that uses it and standing for the
 * device pages of the allocation (warpsim_map_shared): kernels on the functional interpreter
 * and the timing model, copies and memsets of every such process read and write the same
 * bytes, with the simulator's page (4 KiB) the unit. A handle that travels as bytes (the
 * runtime's cudaIpcMemHandle_t) names the exporter's process and descriptor, which the
 * importer opens through /proc/PID/fd (the same user, as CUDA's IPC requires); a shareable
 * handle (a POSIX file descriptor, passed over a unix socket) is the file itself. Nothing
 * outlives the processes: the file goes when the last descriptor and mapping do. */
#define _GNU_SOURCE /* memfd_create */
#include "api/api_shm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHM_NAME "warpsim-ipc" /* how api_shm_open knows a file of ours */

int api_shm_create(uint64_t bytes, char *why, size_t len)
{
    int fd = memfd_create(SHM_NAME, MFD_CLOEXEC);
    if (fd < 0) {
        snprintf(why, len, "cannot create a shared file: %s", strerror(errno));
        return -1;
    }
    if (ftruncate(fd, (off_t)bytes) != 0) {
        snprintf(why, len, "cannot size a shared file to %llu bytes: %s", (unsigned long long)bytes, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int api_shm_open(int pid, int fd, bool remote, uint64_t *bytes, char *why, size_t len)
{
    char path[64], target[128];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", remote ? pid : (int)getpid(), fd);
    ssize_t n = fd < 0 ? -1 : readlink(path, target, sizeof target - 1);
    if (n < 0) {
        snprintf(why, len, "%s: %s", path, fd < 0 ? "not a file descriptor" : strerror(errno));
        return -1;
    }
    target[n] = '\0';
    if (strncmp(target, "/memfd:" SHM_NAME, strlen("/memfd:" SHM_NAME)) != 0) {
        snprintf(why, len, "%s is %s, not memory warpsim exported", path, target);
        return -1;
    }
    int own = remote ? open(path, O_RDWR | O_CLOEXEC) : fcntl(fd, F_DUPFD_CLOEXEC, 0);
    struct stat st;
    if (own < 0 || fstat(own, &st) != 0) {
        snprintf(why, len, "%s: %s", path, strerror(errno));
        if (own >= 0)
            close(own);
        return -1;
    }
    *bytes = (uint64_t)st.st_size;
    return own;
}

bool api_shm_map(WarpsimSim *s, int fd, uint64_t file_off, uint64_t base, uint64_t bytes, bool adopt, ApiShm *out,
                 char *why, size_t len)
{
    *out = (ApiShm){0};
    void *host = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)file_off);
    if (host == MAP_FAILED) {
        snprintf(why, len, "cannot map %llu bytes of a shared file: %s", (unsigned long long)bytes, strerror(errno));
        return false;
    }
    if (warpsim_map_shared(s, base, host, bytes, adopt) != WARPSIM_OK) { /* the simulator said why */
        snprintf(why, len, "the %llu bytes at 0x%llx share a 4 KiB page with memory exported before",
                 (unsigned long long)bytes, (unsigned long long)base);
        munmap(host, (size_t)bytes);
        return false;
    }
    *out = (ApiShm){.base = base, .bytes = bytes, .host = host};
    return true;
}

bool api_shm_place(WarpsimSim *s, int fd, uint64_t file_off, uint64_t bytes, uint64_t offset, uint64_t size,
                   ApiShm *out, char *why, size_t len)
{
    *out = (ApiShm){0};
    uint64_t base = warpsim_address_reserve(s, bytes, API_SHM_PAGE);
    if (!base) {
        snprintf(why, len, "no address space left for %llu bytes", (unsigned long long)bytes);
        return false;
    }
    if (warpsim_malloc_at(s, base + offset, size) != WARPSIM_OK) {
        snprintf(why, len, "%llu bytes at offset %llu do not fit the %llu bytes shared", (unsigned long long)size,
                 (unsigned long long)offset, (unsigned long long)bytes);
        warpsim_address_free(s, base);
        return false;
    }
    if (!api_shm_map(s, fd, file_off, base, bytes, false, out, why, len)) {
        warpsim_free(s, base + offset);
        warpsim_address_free(s, base);
        return false;
    }
    out->alloc = base + offset;
    return true;
}

void api_shm_unmap(WarpsimSim *s, ApiShm *m)
{
    if (!m->base)
        return;
    warpsim_unmap_shared(s, m->base);
    munmap(m->host, (size_t)m->bytes);
    if (m->alloc) {
        warpsim_free(s, m->alloc);
        warpsim_address_free(s, m->base);
    }
    *m = (ApiShm){0};
}
