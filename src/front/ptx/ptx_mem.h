/* ptx_mem.h: the inside of PtxMemory, for the interpreter's fast loads, stores and access checks
 * (internal to src/front/ptx). See ptx_mem.c. */
#ifndef WARPSIM_PTX_MEM_H
#define WARPSIM_PTX_MEM_H

#include "front/ptx/ptx_ir.h"
#include "front/ptx/ptx_ranges.h"

#include <string.h>

#define PTX_PAGE_BITS 12
#define PTX_PAGE_SIZE (1ull << PTX_PAGE_BITS)
#define PTX_TLB_SIZE 64
#define PTX_HEAP_BASE 0x100000000ull /* where the allocator's ranges start */
#define PTX_ALLOC_ALIGN 256ull

typedef struct PtxTlbEntry {
    uint64_t pn; /* page number + 1; 0 = empty */
    uint8_t *data;
} PtxTlbEntry;

/* A range an access fell in (size 0: none). */
typedef struct PtxHit {
    uint64_t lo, size;
} PtxHit;

/* Where one module's variables live in one memory. */
typedef struct PtxBinding {
    const PtxModule *module;
    uint64_t global_base, const_base;
    uint64_t global_reserve, const_reserve; /* the bytes each block holds */
    uint64_t *managed; /* per symbol: a __managed__ variable's host address (NULL: the module has none) */
} PtxBinding;

struct PtxMemory {
    struct PageSlot *slots;
    uint32_t cap, n_pages;
    uint64_t max_pages;   /* 0: no limit */
    bool over_limit;      /* a page was refused since the last ptx_memory_take_over_limit */
    PtxTlbEntry tlb[PTX_TLB_SIZE];
    uint64_t next;        /* the heap's top: everything above is free */
    PtxRangeMap live;     /* allocations (PTX_REGION_ALLOC) and module variables */
    PtxRangeMap holes;    /* free space below next, coalesced */
    PtxRangeMap host;     /* host memory the device addresses (ptx_hostmem.c); reserve: the
                             bytes mapped for it when the memory owns it, else 0 */
    PtxRangeMap reserved; /* address space reserved without memory (ptx_memory_reserve) */
    PtxRangeMap backed;   /* device pages whose bytes are host memory elsewhere (ptx_memory_back):
                             reserve is the host address of the first byte; kind 1 if adopted */
    uint64_t allocated;   /* bytes of live allocations, as requested */
    /* The ranges the last checked accesses fell in, the latest first: [0] for any access, [1]
     * for the const space (__constant__ variables only). Two, so that a loop reading two arrays
     * in turn (A[i][k] and x[k]) finds both without a lookup. */
    PtxHit hit[2][2];
    PtxBinding *binds;
    uint32_t n_binds;
    PtxTexture *texs; /* texture object handle h is texs[h - 1]; channels == 0: free slot */
    uint32_t n_texs;
};

/* The texture object of a handle, or NULL. */
static inline const PtxTexture *ptx_memory_texture(const PtxMemory *mem, uint64_t handle)
{
    if (handle == 0 || handle > mem->n_texs || mem->texs[handle - 1].channels == 0)
        return NULL;
    return &mem->texs[handle - 1];
}

/* The page holding addr (its first byte), created zero-filled if create; NULL if absent, or if
 * creating it would pass the memory's limit (over_limit is then set). */
uint8_t *ptx_memory_page(PtxMemory *mem, uint64_t addr, bool create);
/* The host's own page holding page number pn, when host memory the device addresses lies
 * in it (host memory is addressed at its own addresses), or the host page backing it
 * (ptx_memory_back); else NULL. */
uint8_t *ptx_memory_host_page(const PtxMemory *mem, uint64_t pn);
/* Zero the host memory inside [addr, addr + n), backing included (a set to zero creates no
 * device page). */
void ptx_memory_host_clear(PtxMemory *mem, uint64_t addr, uint64_t n);
/* The allocator's next range at the heap's top would be [addr, addr + span): the first start
 * at or above addr where it overlaps no host memory. */
uint64_t ptx_memory_host_skip(const PtxMemory *mem, uint64_t addr, uint64_t span);
/* Release a managed allocation or variable (a host range the memory owns) starting at addr;
 * false if there is none. */
bool ptx_memory_host_release(PtxMemory *mem, uint64_t addr);
/* Place m's __managed__ variables, each in host memory of its own, initialised, into b; false
 * if the host gave no memory (nothing placed). */
bool ptx_memory_host_bind(PtxMemory *mem, const PtxModule *m, PtxBinding *b);
/* Forget b's __managed__ variables. */
void ptx_memory_host_unbind(PtxMemory *mem, const PtxModule *m, PtxBinding *b);
/* The map of addressable ranges or the host pages changed: forget the remembered hits and
 * translations. */
void ptx_memory_changed(PtxMemory *mem);
/* Place and initialise m's variables on first use. The pointer is valid until the next bind;
 * NULL (nothing placed) when their initialisers need more pages than the memory's limit. */
const PtxBinding *ptx_memory_bind(PtxMemory *mem, const PtxModule *m);

/* The slow path of ptx_mem_valid: the other remembered range, else a lookup; the range found
 * becomes the latest. */
bool ptx_memory_valid_slow(PtxMemory *mem, uint64_t addr, unsigned bytes, bool const_only);

/* An access of bytes at addr lies inside one allocation or module variable (const_only: inside
 * one __constant__ variable). The latest range hit answers here; the one before it, or a lookup,
 * out of line. */
static inline bool ptx_mem_valid(PtxMemory *mem, uint64_t addr, unsigned bytes, bool const_only)
{
    const PtxHit *h = mem->hit[const_only];
    uint64_t off = addr - h[0].lo;
    if (off < h[0].size && h[0].size - off >= bytes)
        return true;
    return ptx_memory_valid_slow(mem, addr, bytes, const_only);
}

/* The size bytes at p as a little-endian value, and the reverse: fixed-size copies for the
 * sizes of PTX's scalars (a variable-size memcpy is a library call). */
static inline uint64_t ptx_bytes_get(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    switch (size) {
    case 1: return p[0];
    case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
    case 8: memcpy(&v, p, 8); return v;
    default: memcpy(&v, p, size); return v;
    }
}
static inline void ptx_bytes_put(uint8_t *p, uint64_t v, unsigned size)
{
    switch (size) {
    case 1: p[0] = (uint8_t)v; return;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); return; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); return; }
    case 8: memcpy(p, &v, 8); return;
    default: memcpy(p, &v, size); return;
    }
}

/* ptx_memory_page with its TLB hit inline. */
static inline uint8_t *ptx_mem_page(PtxMemory *mem, uint64_t addr, bool create)
{
    uint64_t pn = addr >> PTX_PAGE_BITS;
    const PtxTlbEntry *e = &mem->tlb[pn & (PTX_TLB_SIZE - 1)];
    return e->pn == pn + 1 ? e->data : ptx_memory_page(mem, addr, create);
}

/* Little-endian scalar access of 1, 2, 4 or 8 bytes. */
static inline uint64_t ptx_mem_load(PtxMemory *mem, uint64_t addr, unsigned size)
{
    uint64_t off = addr & (PTX_PAGE_SIZE - 1), v = 0;
    if (off + size <= PTX_PAGE_SIZE) {
        const uint8_t *pg = ptx_mem_page(mem, addr, false);
        return pg ? ptx_bytes_get(pg + off, size) : 0;
    }
    ptx_memory_read(mem, addr, &v, size);
    return v;
}

/* False if the memory's host-memory limit refused a page. */
static inline bool ptx_mem_store(PtxMemory *mem, uint64_t addr, uint64_t v, unsigned size)
{
    uint64_t off = addr & (PTX_PAGE_SIZE - 1);
    if (off + size > PTX_PAGE_SIZE)
        return ptx_memory_write(mem, addr, &v, size);
    uint8_t *pg = ptx_mem_page(mem, addr, true);
    if (!pg)
        return false;
    ptx_bytes_put(pg + off, v, size);
    return true;
}

#endif
