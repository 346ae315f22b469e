/* api_host.h: pinned host memory as both CUDA libraries keep it (api_host.c): the runtime's
 * cudaHostAlloc / cudaHostRegister and the driver's cuMemHostAlloc / cuMemHostRegister. */
#ifndef WARPSIM_API_HOST_H
#define WARPSIM_API_HOST_H

#include "warpsim.h"

#include <stdbool.h>
#include <stddef.h>

/* A pinned range: a block the library allocated (owned) or the program's registered memory. */
typedef struct ApiHostRange {
    char *p;
    size_t n;
    bool owned;
    unsigned flags; /* the allocation's or registration's, for cudaHostGetFlags / cuMemHostGetFlags */
} ApiHostRange;

typedef struct ApiHostTable {
    ApiHostRange *r;
    uint32_t n, cap;
} ApiHostTable;

/* Map [p, p + n) into the device's address space at its own address and record it
 * (WARPSIM_E_INPUT, the simulator having said why, if it overlaps memory the device addresses). */
WarpsimStatus api_host_add(ApiHostTable *t, WarpsimSim *s, void *p, size_t n, bool owned, unsigned flags);
/* Unmap and forget r (the memory itself is the caller's to free). */
void api_host_remove(ApiHostTable *t, WarpsimSim *s, ApiHostRange *r);
/* The range holding p, or NULL. */
ApiHostRange *api_host_find(const ApiHostTable *t, const void *p);
/* A range overlapping [p, p + n), or NULL. */
ApiHostRange *api_host_overlap(const ApiHostTable *t, const void *p, size_t n);
/* A new page-aligned block of size bytes (at least 1), mapped and recorded as owned; NULL with
 * *st WARPSIM_E_MEMORY if the host has none to give, or the mapping's status. */
void *api_host_alloc(ApiHostTable *t, WarpsimSim *s, size_t size, unsigned flags, WarpsimStatus *st);

#endif
