/* ptx_mem.h: the inside of PtxMemory, for the interpreter's fast loads and stores (internal to
 * src/front/ptx). See ptx_mem.c. */
#ifndef WARPSIM_PTX_MEM_H
#define WARPSIM_PTX_MEM_H

#include "front/ptx/ptx_ir.h"

#include <string.h>

#define PTX_PAGE_BITS 12
#define PTX_PAGE_SIZE (1ull << PTX_PAGE_BITS)
#define PTX_TLB_SIZE 64

typedef struct PtxTlbEntry {
    uint64_t pn; /* page number + 1; 0 = empty */
    uint8_t *data;
} PtxTlbEntry;

/* Where one module's variables live in one memory. */
typedef struct PtxBinding {
    const PtxModule *module;
    uint64_t global_base, const_base;
} PtxBinding;

struct PtxMemory {
    struct PageSlot *slots;
    uint32_t cap, n_pages;
    PtxTlbEntry tlb[PTX_TLB_SIZE];
    uint64_t next;
    struct Range *live, *freed;
    uint32_t n_live, cap_live, n_freed, cap_freed;
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

/* The page holding addr (its first byte), created zero-filled if create; NULL if absent. */
uint8_t *ptx_memory_page(PtxMemory *mem, uint64_t addr, bool create);
/* Place and initialise m's variables on first use. The pointer is valid until the next bind. */
const PtxBinding *ptx_memory_bind(PtxMemory *mem, const PtxModule *m);

/* Little-endian scalar access of 1, 2, 4 or 8 bytes. */
static inline uint64_t ptx_mem_load(PtxMemory *mem, uint64_t addr, unsigned size)
{
    uint64_t off = addr & (PTX_PAGE_SIZE - 1), v = 0;
    if (off + size <= PTX_PAGE_SIZE) {
        const uint8_t *pg = ptx_memory_page(mem, addr, false);
        if (pg)
            memcpy(&v, pg + off, size);
        return v;
    }
    ptx_memory_read(mem, addr, &v, size);
    return v;
}

static inline void ptx_mem_store(PtxMemory *mem, uint64_t addr, uint64_t v, unsigned size)
{
    uint64_t off = addr & (PTX_PAGE_SIZE - 1);
    if (off + size <= PTX_PAGE_SIZE)
        memcpy(ptx_memory_page(mem, addr, true) + off, &v, size);
    else
        ptx_memory_write(mem, addr, &v, size);
}

#endif
