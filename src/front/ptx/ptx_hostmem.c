/* ptx_hostmem.c: host memory that the simulated device addresses directly: managed memory
 * (cudaMallocManaged, __managed__ variables) and mapped host memory (cudaHostAlloc with
 * cudaHostAllocMapped, cudaHostRegister with cudaHostRegisterMapped).
 *
 * Such memory is addressed by the device at the host's own addresses, as under CUDA's unified
 * addressing: the device pointer of a managed allocation or of mapped memory is its host
 * pointer. A page that host memory lies in is the host's own page (the translation is the
 * identity), so kernels, the runtime's copies and the program's own loads and stores all touch
 * the same bytes: there is nothing to keep coherent and nothing to copy at launches (the
 * simulated device is synchronous, so the host never runs during a kernel of its own thread).
 * Host ranges are ranges of the live map like allocations and variables, so every kernel
 * access to them is checked the same way, and a second map (PtxMemory.host) finds them by
 * page. A range must not overlap the device's own ranges: the allocator's heap, which grows
 * from 4 GiB, skips over host memory above its top, and a host range inside the heap is
 * refused. The memory owns (maps and unmaps) managed memory, page-aligned anonymous pages that
 * read as zeros, which do not count against gpu.max_host_mb (the simulated device's pages):
 * they are the program's memory. Mapped memory stays the program's.
 *
 * Backed memory (ptx_memory_back) is the other way round: device pages of the heap (an
 * allocation, a mapping in a reservation) whose bytes live in host memory at another address,
 * a file mapped shared with other processes for CUDA's interprocess memory. The translation is
 * by whole 4 KiB pages, found before the device's own pages as host pages are; the device's
 * map of what may be addressed is unchanged, so accesses are checked as before. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "front/ptx/ptx_mem.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

uint8_t *ptx_memory_host_page(const PtxMemory *mem, uint64_t pn)
{
    uint64_t base = pn << PTX_PAGE_BITS;
    const PtxRange *r = mem->backed.count ? ptx_ranges_floor(&mem->backed, base) : NULL;
    if (r && base - r->addr < r->size)
        return (uint8_t *)(uintptr_t)(r->reserve + (base - r->addr));
    r = mem->host.count ? ptx_ranges_floor(&mem->host, base + PTX_PAGE_SIZE - 1) : NULL;
    return r && r->addr + r->size > base ? (uint8_t *)(uintptr_t)base : NULL;
}

void ptx_memory_host_clear(PtxMemory *mem, uint64_t addr, uint64_t n)
{
    uint64_t end = n > UINT64_MAX - addr ? UINT64_MAX : addr + n;
    for (int backed = 0; backed < 2; backed++) { /* host ranges at their own addresses, then backing */
        const PtxRangeMap *map = backed ? &mem->backed : &mem->host;
        const PtxRange *r = ptx_ranges_floor(map, addr);
        if (!r || r->addr + r->size <= addr)
            r = ptx_ranges_above(map, addr);
        for (; r && r->addr < end; r = ptx_ranges_above(map, r->addr)) {
            uint64_t lo = MAX(addr, r->addr), hi = MIN(end, r->addr + r->size);
            uint64_t at = backed ? r->reserve + (lo - r->addr) : lo;
            if (lo < hi)
                memset((void *)(uintptr_t)at, 0, hi - lo);
        }
    }
}

uint64_t ptx_memory_host_skip(const PtxMemory *mem, uint64_t addr, uint64_t span)
{
    for (;;) {
        const PtxRange *r = ptx_ranges_floor(&mem->host, addr + span - 1);
        if (!r || r->addr + r->size <= addr)
            return addr;
        addr = (r->addr + r->size + PTX_ALLOC_ALIGN - 1) & ~(PTX_ALLOC_ALIGN - 1);
    }
}

/* Make [addr, addr + size) a host range of kind `kind`: false if it overlaps a live range or
 * lies in the allocator's heap. mapped: the bytes the memory mapped for it (0: not its own). */
static bool host_insert(PtxMemory *mem, uint64_t addr, uint64_t size, uint32_t kind, const void *label,
                        uint64_t mapped)
{
    if (addr < PTX_PAGE_SIZE || size == 0 || size > UINT64_MAX - addr)
        return false;
    if (addr < mem->next && addr + size > PTX_HEAP_BASE)
        return false;
    const PtxRange *r = ptx_ranges_floor(&mem->live, addr + size - 1);
    if (r && r->addr + r->size > addr)
        return false;
    PtxRange live = {.addr = addr, .size = size, .kind = kind, .label = label};
    PtxRange host = {.addr = addr, .size = size, .reserve = mapped};
    ptx_ranges_insert(&mem->live, &live);
    ptx_ranges_insert(&mem->host, &host);
    ptx_memory_changed(mem);
    return true;
}

/* Fresh zero-filled host memory of the memory's own for a range of kind `kind`; 0 if none. */
static uint64_t host_map_new(PtxMemory *mem, uint64_t bytes, uint32_t kind, const void *label)
{
    size_t len = (size_t)((bytes + PTX_PAGE_SIZE - 1) & ~(PTX_PAGE_SIZE - 1));
    if (bytes == 0 || len < bytes)
        return 0;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    if (!host_insert(mem, (uint64_t)(uintptr_t)p, bytes, kind, label, len)) {
        munmap(p, len);
        return 0;
    }
    return (uint64_t)(uintptr_t)p;
}

uint64_t ptx_memory_alloc_host(PtxMemory *mem, uint64_t bytes)
{
    uint64_t addr = host_map_new(mem, bytes, PTX_REGION_ALLOC, NULL);
    if (addr)
        mem->allocated += bytes;
    return addr;
}

bool ptx_memory_map_host(PtxMemory *mem, const void *p, uint64_t bytes)
{
    return host_insert(mem, (uint64_t)(uintptr_t)p, bytes, PTX_REGION_HOST, NULL, 0);
}

/* Take the host range at addr out of both maps; its mapped bytes (0: the program's). */
static bool host_remove(PtxMemory *mem, uint64_t addr, bool owned, uint64_t *mapped)
{
    const PtxRange *h = ptx_ranges_floor(&mem->host, addr);
    if (!h || h->addr != addr || (h->reserve != 0) != owned)
        return false;
    *mapped = h->reserve;
    ptx_ranges_remove(&mem->host, addr, NULL);
    ptx_ranges_remove(&mem->live, addr, NULL);
    ptx_memory_changed(mem);
    return true;
}

bool ptx_memory_unmap_host(PtxMemory *mem, uint64_t addr)
{
    uint64_t mapped;
    return host_remove(mem, addr, false, &mapped);
}

bool ptx_memory_host_release(PtxMemory *mem, uint64_t addr)
{
    uint64_t mapped;
    if (!host_remove(mem, addr, true, &mapped))
        return false;
    munmap((void *)(uintptr_t)addr, (size_t)mapped);
    return true;
}

bool ptx_memory_host_bind(PtxMemory *mem, const PtxModule *m, PtxBinding *b)
{
    b->managed = NULL;
    for (uint32_t s = 0; s < m->n_syms; s++) {
        const PtxSymbol *sy = &m->syms[s];
        if (!sy->managed || !sy->size)
            continue;
        if (!b->managed)
            b->managed = xcalloc(m->n_syms, sizeof *b->managed);
        uint64_t addr = host_map_new(mem, sy->size, PTX_REGION_GLOBAL, sy);
        if (!addr) {
            ptx_memory_host_unbind(mem, m, b);
            return false;
        }
        b->managed[s] = addr;
        if (sy->init)
            memcpy((void *)(uintptr_t)addr, sy->init, sy->size);
    }
    return true;
}

void ptx_memory_host_unbind(PtxMemory *mem, const PtxModule *m, PtxBinding *b)
{
    if (!b->managed)
        return;
    for (uint32_t s = 0; s < m->n_syms; s++)
        if (b->managed[s])
            ptx_memory_host_release(mem, b->managed[s]);
    free(b->managed);
    b->managed = NULL;
}

/* ---- backing: device pages whose bytes are host memory elsewhere ---- */

static bool page_aligned(uint64_t v) { return (v & (PTX_PAGE_SIZE - 1)) == 0; }

bool ptx_memory_back(PtxMemory *mem, uint64_t addr, void *host, uint64_t bytes, bool adopt)
{
    uint64_t h = (uint64_t)(uintptr_t)host;
    if (!bytes || !page_aligned(addr) || !page_aligned(bytes) || !page_aligned(h) || bytes > UINT64_MAX - addr)
        return false;
    const PtxRange *r = ptx_ranges_floor(&mem->backed, addr + bytes - 1);
    if (r && r->addr + r->size > addr)
        return false;
    r = ptx_ranges_floor(&mem->host, addr + bytes - 1);
    if (r && r->addr + r->size > addr)
        return false;
    if (adopt) /* the pages the device holds now; those never written stay the host's zeros */
        for (uint64_t off = 0; off < bytes; off += PTX_PAGE_SIZE) {
            const uint8_t *pg = ptx_memory_page(mem, addr + off, false);
            if (pg)
                memcpy((uint8_t *)host + off, pg, PTX_PAGE_SIZE);
        }
    ptx_ranges_insert(&mem->backed, &(PtxRange){.addr = addr, .size = bytes, .reserve = h, .kind = adopt});
    ptx_memory_changed(mem);
    return true;
}

bool ptx_memory_unback(PtxMemory *mem, uint64_t addr)
{
    PtxRange r;
    if (!ptx_ranges_remove(&mem->backed, addr, &r))
        return false;
    ptx_memory_changed(mem);
    if (r.kind) { /* adopted: the first and last pages may hold other allocations' bytes */
        const uint8_t *host = (const uint8_t *)(uintptr_t)r.reserve;
        ptx_memory_write(mem, r.addr, host, PTX_PAGE_SIZE);
        if (r.size > PTX_PAGE_SIZE)
            ptx_memory_write(mem, r.addr + r.size - PTX_PAGE_SIZE, host + r.size - PTX_PAGE_SIZE, PTX_PAGE_SIZE);
    }
    return true;
}
