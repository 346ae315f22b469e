/* ptx_mem.c: simulated device global memory: sparse 4 KiB pages behind an open-addressing hash
 * table, a small direct-mapped translation cache for the interpreter's hot path, and a
 * cudaMalloc-style allocator.
 *
 * Pages appear on first write (zero-filled); reading an untouched address gives zeros without
 * creating anything, so a 64-bit address space costs only what a program touches. The allocator
 * hands out 256-byte-aligned ranges from 4 GiB upward (so addresses need all 64 bits, as on a
 * real GPU, and truncation bugs show), reusing freed ranges first-fit. A module's .global and
 * .const variables are placed (and initialised) once per memory, the first time the module is
 * bound; const variables live in global memory too, the const space differing only in how the
 * timing model caches it. Texture objects (tex1Dfetch) are a small table of linear buffers
 * indexed by handle. */
#include "front/ptx/ptx_mem.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

#define HEAP_BASE 0x100000000ull
#define ALLOC_ALIGN 256ull

typedef struct PageSlot {
    uint64_t pn; /* page number + 1; 0 = empty */
    uint8_t *data;
} PageSlot;

typedef struct Range {
    uint64_t addr, size;
} Range;

static uint64_t hash_pn(uint64_t pn)
{
    pn ^= pn >> 29;
    pn *= 0xBF58476D1CE4E5B9ull;
    return pn ^ (pn >> 32);
}

PtxMemory *ptx_memory_create(void)
{
    PtxMemory *mem = xcalloc(1, sizeof *mem);
    mem->cap = 1024;
    mem->slots = xcalloc(mem->cap, sizeof *mem->slots);
    mem->next = HEAP_BASE;
    return mem;
}

void ptx_memory_destroy(PtxMemory *mem)
{
    if (!mem)
        return;
    for (uint32_t i = 0; i < mem->cap; i++)
        free(mem->slots[i].data);
    free(mem->slots);
    free(mem->live);
    free(mem->freed);
    free(mem->binds);
    free(mem->texs);
    free(mem);
}

static PageSlot *find_slot(PtxMemory *mem, uint64_t pn)
{
    uint32_t mask = mem->cap - 1;
    for (uint64_t h = hash_pn(pn);; h++) {
        PageSlot *s = &mem->slots[h & mask];
        if (s->pn == pn + 1 || s->pn == 0)
            return s;
    }
}

static void grow(PtxMemory *mem)
{
    PageSlot *old = mem->slots;
    uint32_t old_cap = mem->cap;
    mem->cap *= 2;
    mem->slots = xcalloc(mem->cap, sizeof *mem->slots);
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i].pn) {
            PageSlot *s = find_slot(mem, old[i].pn - 1);
            *s = old[i];
        }
    free(old);
    memset(mem->tlb, 0, sizeof mem->tlb);
}

uint8_t *ptx_memory_page(PtxMemory *mem, uint64_t addr, bool create)
{
    uint64_t pn = addr >> PTX_PAGE_BITS;
    PtxTlbEntry *e = &mem->tlb[pn & (PTX_TLB_SIZE - 1)];
    if (e->pn == pn + 1)
        return e->data;
    PageSlot *s = find_slot(mem, pn);
    if (!s->pn) {
        if (!create)
            return NULL;
        if ((mem->n_pages + 1) * 4 > (uint64_t)mem->cap * 3) {
            grow(mem);
            s = find_slot(mem, pn);
        }
        s->pn = pn + 1;
        s->data = xcalloc(1, PTX_PAGE_SIZE);
        mem->n_pages++;
    }
    e->pn = pn + 1;
    e->data = s->data;
    return s->data;
}

void ptx_memory_write(PtxMemory *mem, uint64_t addr, const void *src, size_t n)
{
    const uint8_t *p = src;
    while (n) {
        uint64_t off = addr & (PTX_PAGE_SIZE - 1);
        size_t chunk = MIN(n, (size_t)(PTX_PAGE_SIZE - off));
        memcpy(ptx_memory_page(mem, addr, true) + off, p, chunk);
        addr += chunk;
        p += chunk;
        n -= chunk;
    }
}

void ptx_memory_read(PtxMemory *mem, uint64_t addr, void *dst, size_t n)
{
    uint8_t *p = dst;
    while (n) {
        uint64_t off = addr & (PTX_PAGE_SIZE - 1);
        size_t chunk = MIN(n, (size_t)(PTX_PAGE_SIZE - off));
        const uint8_t *pg = ptx_memory_page(mem, addr, false);
        if (pg)
            memcpy(p, pg + off, chunk);
        else
            memset(p, 0, chunk);
        addr += chunk;
        p += chunk;
        n -= chunk;
    }
}

void ptx_memory_set(PtxMemory *mem, uint64_t addr, int value, size_t n)
{
    while (n) {
        uint64_t off = addr & (PTX_PAGE_SIZE - 1);
        size_t chunk = MIN(n, (size_t)(PTX_PAGE_SIZE - off));
        memset(ptx_memory_page(mem, addr, true) + off, value, chunk);
        addr += chunk;
        n -= chunk;
    }
}

uint64_t ptx_memory_alloc(PtxMemory *mem, uint64_t bytes)
{
    if (!bytes)
        return 0;
    uint64_t size = (bytes + ALLOC_ALIGN - 1) & ~(ALLOC_ALIGN - 1);
    uint64_t addr = 0;
    for (uint32_t i = 0; i < mem->n_freed; i++) {
        Range *r = &mem->freed[i];
        if (r->size < size)
            continue;
        addr = r->addr;
        r->addr += size;
        r->size -= size;
        if (!r->size)
            mem->freed[i] = mem->freed[--mem->n_freed];
        break;
    }
    if (!addr) {
        addr = mem->next;
        mem->next += size;
    }
    if (mem->n_live == mem->cap_live) {
        mem->cap_live = mem->cap_live ? 2 * mem->cap_live : 16;
        mem->live = xrealloc(mem->live, mem->cap_live * sizeof *mem->live);
    }
    mem->live[mem->n_live].addr = addr;
    mem->live[mem->n_live++].size = size;
    return addr;
}

bool ptx_memory_free(PtxMemory *mem, uint64_t addr)
{
    for (uint32_t i = 0; i < mem->n_live; i++) {
        if (mem->live[i].addr != addr)
            continue;
        if (mem->n_freed == mem->cap_freed) {
            mem->cap_freed = mem->cap_freed ? 2 * mem->cap_freed : 16;
            mem->freed = xrealloc(mem->freed, mem->cap_freed * sizeof *mem->freed);
        }
        mem->freed[mem->n_freed++] = mem->live[i];
        mem->live[i] = mem->live[--mem->n_live];
        return true;
    }
    return false;
}

const PtxBinding *ptx_memory_bind(PtxMemory *mem, const PtxModule *m)
{
    for (uint32_t i = 0; i < mem->n_binds; i++)
        if (mem->binds[i].module == m)
            return &mem->binds[i];
    mem->binds = xrealloc(mem->binds, (mem->n_binds + 1) * sizeof *mem->binds);
    PtxBinding *b = &mem->binds[mem->n_binds++];
    b->module = m;
    b->global_base = ptx_memory_alloc(mem, m->global_bytes ? m->global_bytes : 1);
    b->const_base = ptx_memory_alloc(mem, m->const_bytes ? m->const_bytes : 1);
    ptx_memory_set(mem, b->global_base, 0, m->global_bytes);
    ptx_memory_set(mem, b->const_base, 0, m->const_bytes);
    for (uint32_t s = 0; s < m->n_syms; s++) {
        const PtxSymbol *sy = &m->syms[s];
        if (!sy->init)
            continue;
        uint64_t base = sy->space == SP_GLOBAL ? b->global_base : b->const_base;
        ptx_memory_write(mem, base + sy->offset, sy->init, sy->size);
    }
    return b;
}

uint64_t ptx_memory_symbol(PtxMemory *mem, const PtxModule *m, const char *name, uint64_t *size_out)
{
    for (uint32_t s = 0; s < m->n_syms; s++) {
        const PtxSymbol *sy = &m->syms[s];
        if ((sy->space != SP_GLOBAL && sy->space != SP_CONST) || strcmp(sy->name, name))
            continue;
        const PtxBinding *b = ptx_memory_bind(mem, m);
        if (size_out)
            *size_out = sy->size;
        return (sy->space == SP_GLOBAL ? b->global_base : b->const_base) + sy->offset;
    }
    return 0;
}

uint64_t ptx_texture_create(PtxMemory *mem, const PtxTexture *t)
{
    uint32_t i = 0;
    while (i < mem->n_texs && mem->texs[i].channels != 0)
        i++;
    if (i == mem->n_texs)
        mem->texs = xrealloc(mem->texs, ++mem->n_texs * sizeof *mem->texs);
    mem->texs[i] = *t;
    return (uint64_t)i + 1;
}

bool ptx_texture_destroy(PtxMemory *mem, uint64_t handle)
{
    if (!ptx_memory_texture(mem, handle))
        return false;
    memset(&mem->texs[handle - 1], 0, sizeof mem->texs[0]);
    return true;
}
