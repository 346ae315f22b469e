/* sim_memory.c: the embedding API's device memory (include/warpsim.h): allocations, managed and
 * mapped host memory, memory shared with other processes, the host's copies and memsets (each checked to stay inside one allocation
 * or variable, and bounded by gpu.max_host_mb), and texture and surface objects. */
#include "sim/sim_internal.h"

#include "base/base.h"
#include "sim/sim_texture.h"

#include <string.h>

uint64_t warpsim_malloc(WarpsimSim *s, uint64_t bytes)
{
    return ptx_memory_alloc(s->mem, bytes);
}

WarpsimStatus warpsim_free(WarpsimSim *s, uint64_t addr)
{
    if (addr == 0)
        return WARPSIM_OK;
    if (!ptx_memory_free(s->mem, addr))
        return sim_fail(s, WARPSIM_E_INPUT, "free of 0x%llx, which is not the start of an allocation",
                    (unsigned long long)addr);
    return WARPSIM_OK;
}

uint64_t warpsim_address_reserve(WarpsimSim *s, uint64_t bytes, uint64_t align)
{
    return ptx_memory_reserve(s->mem, bytes, align);
}

WarpsimStatus warpsim_address_free(WarpsimSim *s, uint64_t addr)
{
    if (!ptx_memory_unreserve(s->mem, addr))
        return sim_fail(s, WARPSIM_E_INPUT, "freeing the address space at 0x%llx: no reservation starts there, or "
                    "memory is still placed in it", (unsigned long long)addr);
    return WARPSIM_OK;
}

WarpsimStatus warpsim_malloc_at(WarpsimSim *s, uint64_t addr, uint64_t bytes)
{
    if (!ptx_memory_alloc_at(s->mem, addr, bytes))
        return sim_fail(s, WARPSIM_E_INPUT, "placing %llu bytes at 0x%llx: not inside one reservation, or over memory "
                    "placed there already", (unsigned long long)bytes, (unsigned long long)addr);
    return WARPSIM_OK;
}

uint64_t warpsim_malloc_managed(WarpsimSim *s, uint64_t bytes)
{
    return ptx_memory_alloc_host(s->mem, bytes);
}

WarpsimStatus warpsim_map_host(WarpsimSim *s, const void *p, uint64_t bytes)
{
    if (!p || !bytes)
        return sim_fail(s, WARPSIM_E_INPUT, "mapping host memory: %s", p ? "0 bytes" : "a null pointer");
    if (!ptx_memory_map_host(s->mem, p, bytes))
        return sim_fail(s, WARPSIM_E_INPUT, "mapping host memory at %p (%llu bytes): it overlaps memory the device "
                    "addresses already", p, (unsigned long long)bytes);
    return WARPSIM_OK;
}

WarpsimStatus warpsim_unmap_host(WarpsimSim *s, const void *p)
{
    if (!ptx_memory_unmap_host(s->mem, (uint64_t)(uintptr_t)p))
        return sim_fail(s, WARPSIM_E_INPUT, "unmapping host memory at %p: not mapped", p);
    return WARPSIM_OK;
}

WarpsimStatus warpsim_map_shared(WarpsimSim *s, uint64_t addr, void *host, uint64_t bytes, int adopt)
{
    if (!ptx_memory_back(s->mem, addr, host, bytes, adopt != 0))
        return sim_fail(s, WARPSIM_E_INPUT, "sharing %llu bytes at 0x%llx: not whole 4 KiB pages, or over memory "
                    "shared or mapped already", (unsigned long long)bytes, (unsigned long long)addr);
    return WARPSIM_OK;
}

WarpsimStatus warpsim_unmap_shared(WarpsimSim *s, uint64_t addr)
{
    if (!ptx_memory_unback(s->mem, addr))
        return sim_fail(s, WARPSIM_E_INPUT, "unsharing 0x%llx: no shared memory starts there", (unsigned long long)addr);
    return WARPSIM_OK;
}

void warpsim_free_all(WarpsimSim *s)
{
    ptx_memory_free_all(s->mem);
}

uint64_t warpsim_mem_allocated(const WarpsimSim *s)
{
    return ptx_memory_allocated(s->mem);
}

int warpsim_mem_find(const WarpsimSim *s, uint64_t addr, uint64_t bytes, WarpsimRange *out)
{
    PtxRegion r;
    if (!ptx_memory_find(s->mem, addr, bytes ? bytes : 1, &r))
        return 0;
    if (out)
        *out = (WarpsimRange){.addr = r.addr, .size = r.size, .is_variable = r.kind != PTX_REGION_ALLOC,
                              .is_managed = r.host && r.kind != PTX_REGION_HOST,
                              .is_mapped = r.kind == PTX_REGION_HOST};
    return 1;
}

/* The device bytes of a copy lie in one allocation or variable; what fails names where they lie. */
static WarpsimStatus check_device(WarpsimSim *s, const char *what, uint64_t addr, size_t bytes)
{
    if (!bytes || ptx_memory_find(s->mem, addr, bytes, NULL))
        return WARPSIM_OK;
    char why[320];
    ptx_memory_describe(s->mem, addr, bytes, why, sizeof why);
    return sim_fail(s, WARPSIM_E_INPUT, "%s of %zu bytes at 0x%llx: %s", what, bytes, (unsigned long long)addr, why);
}

/* A write the host-memory limit refused. */
WarpsimStatus sim_over_limit(WarpsimSim *s, const char *what, size_t bytes)
{
    return sim_fail(s, WARPSIM_E_MEMORY, "%s of %zu bytes: the simulated device memory would take more than "
                "gpu.max_host_mb = %llu MiB of host memory", what, bytes,
                (unsigned long long)s->cfg.gpu.max_host_mb);
}

WarpsimStatus warpsim_memcpy_htod(WarpsimSim *s, uint64_t dst, const void *src, size_t bytes)
{
    if (bytes && (!dst || !src))
        return sim_fail(s, WARPSIM_E_INPUT, "copy of %zu bytes to the device with a null pointer", bytes);
    WarpsimStatus st = check_device(s, "copy to the device", dst, bytes);
    if (st == WARPSIM_OK && !ptx_memory_write(s->mem, dst, src, bytes))
        st = sim_over_limit(s, "copy to the device", bytes);
    if (st == WARPSIM_OK && s->gpu)
        gpu_copy_touch(s->gpu, dst, bytes);
    if (st == WARPSIM_OK && s->trace)
        trace_writer_copy(s->trace, true, dst, bytes);
    return st;
}

WarpsimStatus warpsim_memcpy_dtoh(WarpsimSim *s, void *dst, uint64_t src, size_t bytes)
{
    if (bytes && (!dst || !src))
        return sim_fail(s, WARPSIM_E_INPUT, "copy of %zu bytes from the device with a null pointer", bytes);
    WarpsimStatus st = check_device(s, "copy from the device", src, bytes);
    if (st == WARPSIM_OK)
        ptx_memory_read(s->mem, src, dst, bytes);
    if (st == WARPSIM_OK && s->gpu) /* GPGPU-Sim's copy engine touches the L2 both ways */
        gpu_copy_touch(s->gpu, src, bytes);
    if (st == WARPSIM_OK && s->trace)
        trace_writer_copy(s->trace, false, src, bytes);
    return st;
}

WarpsimStatus warpsim_memcpy_dtod(WarpsimSim *s, uint64_t dst, uint64_t src, size_t bytes)
{
    if (bytes && (!dst || !src))
        return sim_fail(s, WARPSIM_E_INPUT, "device copy of %zu bytes with a null pointer", bytes);
    WarpsimStatus st = check_device(s, "device copy from", src, bytes);
    if (st == WARPSIM_OK)
        st = check_device(s, "device copy to", dst, bytes);
    uint8_t buf[4096];
    for (size_t done = 0; done < bytes && st == WARPSIM_OK;) {
        size_t n = bytes - done < sizeof buf ? bytes - done : sizeof buf;
        ptx_memory_read(s->mem, src + done, buf, n);
        if (!ptx_memory_write(s->mem, dst + done, buf, n))
            st = sim_over_limit(s, "device copy", bytes);
        done += n;
    }
    return st;
}

WarpsimStatus warpsim_memset(WarpsimSim *s, uint64_t dst, int value, size_t bytes)
{
    if (bytes && !dst)
        return sim_fail(s, WARPSIM_E_INPUT, "memset of %zu bytes at a null pointer", bytes);
    WarpsimStatus st = check_device(s, "memset", dst, bytes);
    if (st == WARPSIM_OK && !ptx_memory_set(s->mem, dst, value, bytes))
        st = sim_over_limit(s, "memset", bytes);
    return st;
}

WarpsimStatus warpsim_texture_create(WarpsimSim *s, const WarpsimTexture *t, uint64_t *handle)
{
    *handle = 0;
    PtxTexture pt;
    char why[320];
    if (!sim_texture_convert(t, &pt, why, sizeof why))
        return sim_fail(s, WARPSIM_E_INPUT, "%s", why);
    *handle = ptx_texture_create(s->mem, &pt);
    return WARPSIM_OK;
}

WarpsimStatus warpsim_texture_destroy(WarpsimSim *s, uint64_t handle)
{
    if (!ptx_texture_destroy(s->mem, handle))
        return sim_fail(s, WARPSIM_E_INPUT, "0x%llx is not a texture object", (unsigned long long)handle);
    return WARPSIM_OK;
}
