/* ptx_mem.c: simulated device global memory: sparse 4 KiB pages behind an open-addressing hash
 * table, a small direct-mapped translation cache for the interpreter's hot path, a
 * cudaMalloc-style allocator, and the map of what the program may address.
 *
 * Pages appear on first write (zero-filled); reading an untouched address gives zeros without
 * creating anything, so a 64-bit address space costs only what a program touches, and a limit
 * (ptx_memory_set_limit, the gpu.max_host_mb option) bounds the pages: a write that needs one
 * more fails. The allocator hands out 256-byte-aligned ranges from 4 GiB upward (so addresses
 * need all 64 bits, as on a real GPU, and truncation bugs show): the lowest free range that
 * fits, else the top of the heap; freed ranges merge with their free neighbours. A module's
 * .global and .const variables are placed (and initialised) once per memory, the first time the
 * module is bound; const variables live in global memory too, the const space differing only in
 * how the timing model caches it. Allocations and variables are ranges of one ordered map
 * (ptx_ranges.c, O(log n) per operation): every kernel access is checked against it (the ranges
 * of the last two hits answer most checks without a lookup), and so are the host's copies. Texture
 * and surface objects are a small table indexed by handle (ptx_tex.c reads them). Host memory
 * the device addresses (managed and mapped memory, ptx_hostmem.c) is found before the device's
 * pages: a page it lies in is the host's own. */
#include "front/ptx/ptx_mem.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_BASE PTX_HEAP_BASE
#define ALLOC_ALIGN PTX_ALLOC_ALIGN

typedef struct PageSlot {
    uint64_t pn; /* page number + 1; 0 = empty */
    uint8_t *data;
} PageSlot;

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
    ptx_ranges_init(&mem->live);
    ptx_ranges_init(&mem->holes);
    ptx_ranges_init(&mem->host);
    ptx_ranges_init(&mem->reserved);
    ptx_ranges_init(&mem->backed);
    return mem;
}

void ptx_memory_destroy(PtxMemory *mem)
{
    if (!mem)
        return;
    for (uint32_t i = 0; i < mem->cap; i++)
        free(mem->slots[i].data);
    free(mem->slots);
    for (const PtxRange *r = ptx_ranges_above(&mem->host, 0); r; r = ptx_ranges_above(&mem->host, 0))
        if (!ptx_memory_host_release(mem, r->addr))
            ptx_ranges_remove(&mem->host, r->addr, NULL); /* the program's: not ours to free */
    ptx_ranges_free(&mem->host);
    for (uint32_t i = 0; i < mem->n_binds; i++)
        free(mem->binds[i].managed);
    ptx_ranges_free(&mem->live);
    ptx_ranges_free(&mem->holes);
    ptx_ranges_free(&mem->reserved);
    ptx_ranges_free(&mem->backed); /* the host memory behind it is the caller's */
    free(mem->binds);
    free(mem->texs);
    free(mem);
}

void ptx_memory_set_limit(PtxMemory *mem, uint64_t max_bytes)
{
    mem->max_pages = (max_bytes + PTX_PAGE_SIZE - 1) / PTX_PAGE_SIZE;
}

uint64_t ptx_memory_host_bytes(const PtxMemory *mem)
{
    return (uint64_t)mem->n_pages * PTX_PAGE_SIZE;
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
    uint8_t *host = mem->host.count || mem->backed.count ? ptx_memory_host_page(mem, pn) : NULL;
    if (host) {
        e->pn = pn + 1;
        e->data = host;
        return host;
    }
    PageSlot *s = find_slot(mem, pn);
    if (!s->pn) {
        if (!create)
            return NULL;
        if (mem->max_pages && mem->n_pages >= mem->max_pages) {
            mem->over_limit = true;
            return NULL;
        }
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

bool ptx_memory_write(PtxMemory *mem, uint64_t addr, const void *src, size_t n)
{
    const uint8_t *p = src;
    while (n) {
        uint64_t off = addr & (PTX_PAGE_SIZE - 1);
        size_t chunk = MIN(n, (size_t)(PTX_PAGE_SIZE - off));
        uint8_t *pg = ptx_memory_page(mem, addr, true);
        if (!pg)
            return false;
        memcpy(pg + off, p, chunk);
        addr += chunk;
        p += chunk;
        n -= chunk;
    }
    return true;
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

/* The bytes of page pn (its data) inside [addr, end), zeroed. */
static void clear_page(uint64_t pn, uint8_t *data, uint64_t addr, uint64_t end)
{
    uint64_t base = pn << PTX_PAGE_BITS, lo = MAX(addr, base), hi = MIN(end, base + PTX_PAGE_SIZE);
    if (lo < hi)
        memset(data + (lo - base), 0, hi - lo);
}

/* Zero [addr, addr + n) creating no page, since a page never written reads as zeros: page by
 * page, or over the pages held when the range spans more than that (a module's variables may
 * span terabytes that nothing has written). */
static void clear_range(PtxMemory *mem, uint64_t addr, uint64_t n)
{
    uint64_t end = n > UINT64_MAX - addr ? UINT64_MAX : addr + n;
    uint64_t first = addr >> PTX_PAGE_BITS, last = (end - 1) >> PTX_PAGE_BITS;
    if (last - first >= mem->n_pages) {
        for (uint32_t i = 0; i < mem->cap; i++)
            if (mem->slots[i].pn)
                clear_page(mem->slots[i].pn - 1, mem->slots[i].data, addr, end);
        return;
    }
    for (uint64_t pn = first; pn <= last; pn++) {
        PageSlot *s = find_slot(mem, pn);
        if (s->pn)
            clear_page(pn, s->data, addr, end);
    }
}

bool ptx_memory_set(PtxMemory *mem, uint64_t addr, int value, size_t n)
{
    if ((uint8_t)value == 0) {
        if (n)
            clear_range(mem, addr, n);
        if (n && (mem->host.count || mem->backed.count))
            ptx_memory_host_clear(mem, addr, n);
        return true;
    }
    while (n) {
        uint64_t off = addr & (PTX_PAGE_SIZE - 1);
        size_t chunk = MIN(n, (size_t)(PTX_PAGE_SIZE - off));
        uint8_t *pg = ptx_memory_page(mem, addr, true);
        if (!pg)
            return false;
        memset(pg + off, value, chunk);
        addr += chunk;
        n -= chunk;
    }
    return true;
}

/* ---- the allocator: free space as coalesced holes below the heap's top ---- */

static uint64_t reserve(PtxMemory *mem, uint64_t span)
{
    const PtxRange *h = ptx_ranges_first_fit(&mem->holes, span);
    if (!h) { /* the space skipped for host memory stays unused */
        uint64_t addr = mem->host.count ? ptx_memory_host_skip(mem, mem->next, span) : mem->next;
        mem->next = addr + span;
        return addr;
    }
    PtxRange rest = *h;
    uint64_t addr = rest.addr;
    ptx_ranges_remove(&mem->holes, addr, NULL);
    if (rest.size > span) {
        rest.addr += span;
        rest.size -= span;
        ptx_ranges_insert(&mem->holes, &rest);
    }
    return addr;
}

static void release(PtxMemory *mem, uint64_t addr, uint64_t span)
{
    PtxRange h = {.addr = addr, .size = span};
    const PtxRange *prev = ptx_ranges_floor(&mem->holes, addr);
    if (prev && prev->addr + prev->size == addr) {
        h.addr = prev->addr;
        h.size += prev->size;
        ptx_ranges_remove(&mem->holes, prev->addr, NULL);
    }
    const PtxRange *after = ptx_ranges_above(&mem->holes, addr);
    if (after && after->addr == addr + span) {
        h.size += after->size;
        ptx_ranges_remove(&mem->holes, after->addr, NULL);
    }
    if (h.addr + h.size == mem->next)
        mem->next = h.addr; /* the top of the heap comes down instead */
    else
        ptx_ranges_insert(&mem->holes, &h);
}

/* The map of addressable ranges changed: forget the remembered hits. */
static void live_changed(PtxMemory *mem)
{
    memset(mem->hit, 0, sizeof mem->hit);
}

void ptx_memory_changed(PtxMemory *mem)
{
    live_changed(mem);
    memset(mem->tlb, 0, sizeof mem->tlb);
}

uint64_t ptx_memory_alloc(PtxMemory *mem, uint64_t bytes)
{
    if (!bytes)
        return 0;
    uint64_t span = (bytes + ALLOC_ALIGN - 1) & ~(ALLOC_ALIGN - 1);
    PtxRange r = {.addr = reserve(mem, span), .size = bytes, .reserve = span, .kind = PTX_REGION_ALLOC};
    ptx_ranges_insert(&mem->live, &r);
    mem->allocated += bytes;
    live_changed(mem);
    return r.addr;
}

bool ptx_memory_free(PtxMemory *mem, uint64_t addr)
{
    const PtxRange *r = ptx_ranges_floor(&mem->live, addr);
    if (!r || r->addr != addr || r->kind != PTX_REGION_ALLOC)
        return false;
    PtxRange gone = *r;
    mem->allocated -= gone.size;
    if (ptx_memory_host_release(mem, addr)) /* managed: the host's memory */
        return true;
    ptx_ranges_remove(&mem->live, addr, NULL);
    if (gone.reserve) /* placed in a reservation (ptx_memory_alloc_at): its space stays reserved */
        release(mem, gone.addr, gone.reserve);
    live_changed(mem);
    return true;
}

void ptx_memory_free_all(PtxMemory *mem)
{
    /* nothing starts at address 0: ranges above it are all of them */
    for (const PtxRange *r = ptx_ranges_above(&mem->live, 0); r;) {
        uint64_t at = r->addr;
        if (r->kind == PTX_REGION_ALLOC)
            ptx_memory_free(mem, at);
        r = ptx_ranges_above(&mem->live, at);
    }
}

uint64_t ptx_memory_allocated(const PtxMemory *mem)
{
    return mem->allocated;
}

/* ---- what the program may address ---- */

static bool inside(const PtxRange *r, uint64_t addr, uint64_t bytes)
{
    return r && addr - r->addr < r->size && r->size - (addr - r->addr) >= bytes;
}

/* ---- address space without memory (virtual memory management) ---- */

uint64_t ptx_memory_reserve(PtxMemory *mem, uint64_t bytes, uint64_t align)
{
    if (!bytes || !align || (align & (align - 1)) || bytes > UINT64_MAX / 2)
        return 0;
    align = MAX(align, ALLOC_ALIGN);
    uint64_t span = (bytes + ALLOC_ALIGN - 1) & ~(ALLOC_ALIGN - 1), addr = mem->next;
    /* at the heap's top, aligned, past any host memory there; the gap below stays unused */
    for (;;) {
        uint64_t aligned = (addr + align - 1) & ~(align - 1);
        if (aligned < addr || aligned + span < aligned)
            return 0; /* the address space is exhausted */
        addr = mem->host.count ? ptx_memory_host_skip(mem, aligned, span) : aligned;
        if (addr == aligned)
            break;
    }
    mem->next = addr + span;
    ptx_ranges_insert(&mem->reserved, &(PtxRange){.addr = addr, .size = span});
    return addr;
}

bool ptx_memory_unreserve(PtxMemory *mem, uint64_t addr)
{
    const PtxRange *r = ptx_ranges_floor(&mem->reserved, addr);
    if (!r || r->addr != addr)
        return false;
    const PtxRange *last = ptx_ranges_floor(&mem->live, addr + r->size - 1);
    if (last && last->addr >= addr)
        return false; /* an allocation is still placed in it */
    PtxRange gone = *r;
    ptx_ranges_remove(&mem->reserved, addr, NULL);
    release(mem, gone.addr, gone.size);
    return true;
}

bool ptx_memory_alloc_at(PtxMemory *mem, uint64_t addr, uint64_t bytes)
{
    if (!bytes || !inside(ptx_ranges_floor(&mem->reserved, addr), addr, bytes))
        return false;
    const PtxRange *last = ptx_ranges_floor(&mem->live, addr + bytes - 1);
    if (last && last->addr + MAX(last->size, 1) > addr)
        return false; /* it overlaps one placed before */
    PtxRange r = {.addr = addr, .size = bytes, .reserve = 0, .kind = PTX_REGION_ALLOC};
    ptx_ranges_insert(&mem->live, &r);
    mem->allocated += bytes;
    live_changed(mem);
    return true;
}

bool ptx_memory_valid_slow(PtxMemory *mem, uint64_t addr, unsigned bytes, bool const_only)
{
    PtxHit *h = mem->hit[const_only], found = h[1];
    uint64_t off = addr - found.lo;
    if (!(off < found.size && found.size - off >= bytes)) {
        const PtxRange *r = ptx_ranges_floor(&mem->live, addr);
        if (!inside(r, addr, bytes) || (const_only && r->kind != PTX_REGION_CONST))
            return false;
        found = (PtxHit){r->addr, r->size};
    }
    h[1] = h[0];
    h[0] = found;
    return true;
}

static PtxRegion region_of(const PtxMemory *mem, const PtxRange *r)
{
    const PtxSymbol *sy = r->label;
    const PtxRange *h = mem->host.count ? ptx_ranges_floor(&mem->host, r->addr) : NULL;
    return (PtxRegion){.addr = r->addr, .size = r->size, .kind = (PtxRegionKind)r->kind,
                       .host = h && h->addr == r->addr, .name = sy ? sy->name : NULL};
}

bool ptx_memory_find(const PtxMemory *mem, uint64_t addr, uint64_t bytes, PtxRegion *out)
{
    const PtxRange *r = ptx_ranges_floor(&mem->live, addr);
    if (!inside(r, addr, bytes ? bytes : 1))
        return false;
    if (out)
        *out = region_of(mem, r);
    return true;
}

/* "the allocation at 0x100000000 (4000 bytes)", "the __device__ variable 'x' at ... (8 bytes)" */
static int name_region(const PtxMemory *mem, const PtxRange *r, char *buf, size_t len)
{
    PtxRegion g = region_of(mem, r);
    if (g.kind == PTX_REGION_ALLOC || g.kind == PTX_REGION_HOST)
        return snprintf(buf, len, "the %sallocation at 0x%llx (%llu bytes)",
                        g.kind == PTX_REGION_HOST ? "mapped host " : g.host ? "managed " : "",
                        (unsigned long long)g.addr, (unsigned long long)g.size);
    return snprintf(buf, len, "the %s variable '%s' at 0x%llx (%llu bytes)",
                    g.kind == PTX_REGION_CONST ? "__constant__" : g.host ? "__managed__" : "__device__", g.name,
                    (unsigned long long)g.addr, (unsigned long long)g.size);
}

void ptx_memory_describe(const PtxMemory *mem, uint64_t addr, uint64_t bytes, char *buf, size_t len)
{
    if (addr < PTX_PAGE_SIZE) {
        snprintf(buf, len, "a null pointer");
        return;
    }
    const PtxRange *before = ptx_ranges_floor(&mem->live, addr), *after = ptx_ranges_above(&mem->live, addr);
    char what[192];
    if (before && addr - before->addr < before->size) {
        name_region(mem, before, what, sizeof what);
        snprintf(buf, len, "its last %llu bytes lie past the end of %s",
                 (unsigned long long)(bytes - (before->size - (addr - before->addr))), what);
        return;
    }
    uint64_t gap_before = before ? addr - (before->addr + before->size) : UINT64_MAX;
    uint64_t gap_after = after ? after->addr - addr : UINT64_MAX;
    if (!before && !after) {
        snprintf(buf, len, "no allocation or variable exists");
    } else if (gap_before <= gap_after) {
        name_region(mem, before, what, sizeof what);
        snprintf(buf, len, "inside no allocation or variable: %llu bytes after the end of %s",
                 (unsigned long long)gap_before, what);
    } else {
        name_region(mem, after, what, sizeof what);
        snprintf(buf, len, "inside no allocation or variable: %llu bytes before %s", (unsigned long long)gap_after,
                 what);
    }
}

/* ---- module variables ---- */

/* The pages m's initialisers need at these bases that the memory does not hold yet (the
 * variables of a space lie in offset order, so a page two of them share is counted once). */
static uint64_t init_pages_needed(PtxMemory *mem, const PtxModule *m, uint64_t global_base, uint64_t const_base)
{
    uint64_t needed = 0, last[2] = {UINT64_MAX, UINT64_MAX};
    for (uint32_t s = 0; s < m->n_syms; s++) {
        const PtxSymbol *sy = &m->syms[s];
        if ((sy->space != SP_GLOBAL && sy->space != SP_CONST) || !sy->size || !sy->init || sy->managed)
            continue;
        int c = sy->space == SP_CONST;
        uint64_t addr = (c ? const_base : global_base) + sy->offset;
        for (uint64_t pn = addr >> PTX_PAGE_BITS; pn <= (addr + sy->size - 1) >> PTX_PAGE_BITS; pn++) {
            if (pn != last[c] && !find_slot(mem, pn)->pn)
                needed++;
            last[c] = pn;
        }
    }
    return needed;
}

const PtxBinding *ptx_memory_bind(PtxMemory *mem, const PtxModule *m)
{
    for (uint32_t i = 0; i < mem->n_binds; i++)
        if (mem->binds[i].module == m)
            return &mem->binds[i];
    PtxBinding nb = {.module = m};
    nb.global_reserve = (MAX(m->global_bytes, 1) + ALLOC_ALIGN - 1) & ~(ALLOC_ALIGN - 1);
    nb.const_reserve = (MAX(m->const_bytes, 1) + ALLOC_ALIGN - 1) & ~(ALLOC_ALIGN - 1);
    nb.global_base = reserve(mem, nb.global_reserve);
    nb.const_base = reserve(mem, nb.const_reserve);
    /* Initialisers past the host-memory limit: nothing is placed (the next use tries again). */
    if (mem->max_pages &&
        init_pages_needed(mem, m, nb.global_base, nb.const_base) > mem->max_pages - MIN(mem->n_pages, mem->max_pages)) {
        release(mem, nb.const_base, nb.const_reserve);
        release(mem, nb.global_base, nb.global_reserve);
        return NULL;
    }
    if (!ptx_memory_host_bind(mem, m, &nb)) {
        release(mem, nb.const_base, nb.const_reserve);
        release(mem, nb.global_base, nb.global_reserve);
        return NULL;
    }
    mem->binds = xrealloc(mem->binds, (mem->n_binds + 1) * sizeof *mem->binds);
    PtxBinding *b = &mem->binds[mem->n_binds++];
    *b = nb;
    ptx_memory_set(mem, b->global_base, 0, m->global_bytes);
    ptx_memory_set(mem, b->const_base, 0, m->const_bytes);
    for (uint32_t s = 0; s < m->n_syms; s++) {
        const PtxSymbol *sy = &m->syms[s];
        if ((sy->space != SP_GLOBAL && sy->space != SP_CONST) || !sy->size || sy->managed)
            continue;
        uint64_t base = sy->space == SP_GLOBAL ? b->global_base : b->const_base;
        PtxRange r = {.addr = base + sy->offset, .size = sy->size, .label = sy,
                      .kind = sy->space == SP_GLOBAL ? PTX_REGION_GLOBAL : PTX_REGION_CONST};
        ptx_ranges_insert(&mem->live, &r);
        if (sy->init)
            ptx_memory_write(mem, r.addr, sy->init, sy->size); /* its pages were counted above */
    }
    live_changed(mem);
    return b;
}

void ptx_memory_unbind(PtxMemory *mem, const PtxModule *m)
{
    for (uint32_t i = 0; i < mem->n_binds; i++) {
        PtxBinding *b = &mem->binds[i];
        if (b->module != m)
            continue;
        for (uint32_t s = 0; s < m->n_syms; s++) {
            const PtxSymbol *sy = &m->syms[s];
            if ((sy->space == SP_GLOBAL || sy->space == SP_CONST) && sy->size && !sy->managed)
                ptx_ranges_remove(&mem->live, (sy->space == SP_GLOBAL ? b->global_base : b->const_base) + sy->offset,
                                  NULL);
        }
        ptx_memory_host_unbind(mem, m, b);
        release(mem, b->global_base, b->global_reserve);
        release(mem, b->const_base, b->const_reserve);
        *b = mem->binds[--mem->n_binds];
        live_changed(mem);
        return;
    }
}

bool ptx_memory_place(PtxMemory *mem, const PtxModule *m)
{
    return ptx_memory_bind(mem, m) != NULL;
}

uint64_t ptx_memory_symbol(PtxMemory *mem, const PtxModule *m, const char *name, uint64_t *size_out)
{
    for (uint32_t s = 0; s < m->n_syms; s++) {
        const PtxSymbol *sy = &m->syms[s];
        if ((sy->space != SP_GLOBAL && sy->space != SP_CONST) || strcmp(sy->name, name))
            continue;
        const PtxBinding *b = ptx_memory_bind(mem, m);
        if (!b)
            return 0;
        if (size_out)
            *size_out = sy->size;
        if (sy->managed)
            return b->managed[s];
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
