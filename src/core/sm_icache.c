/* sm_icache.c: the instruction cache of one SM (see sm_icache.h). */
#include "core/sm_icache.h"

#include "base/base.h"

#include <stdlib.h>

void icache_init(Icache *ic, uint32_t sets, uint32_t assoc, uint32_t line_bytes, uint32_t n_mshr)
{
    *ic = (Icache){.sets = sets, .assoc = assoc, .line_bits = log2_u64(line_bytes), .n_mshr = MIN(n_mshr, ICACHE_MAX_MSHR)};
    ic->tag = xcalloc((size_t)sets * assoc, sizeof *ic->tag);
    ic->used = xcalloc((size_t)sets * assoc, sizeof *ic->used);
}

void icache_free(Icache *ic)
{
    free(ic->tag);
    free(ic->used);
}

uint64_t icache_line_of(const Icache *ic, uint64_t addr) { return addr >> ic->line_bits << ic->line_bits; }

static int find_miss(const Icache *ic, uint64_t line)
{
    for (uint32_t i = 0; i < ic->n_mshr; i++)
        if (ic->miss_line[i] == line + 1)
            return (int)i;
    return -1;
}

IcacheResult icache_fetch(Icache *ic, uint32_t slot, uint64_t addr)
{
    uint64_t line = addr >> ic->line_bits;
    uint32_t set = (uint32_t)(line & (ic->sets - 1));
    uint64_t *tag = &ic->tag[(size_t)set * ic->assoc], *used = &ic->used[(size_t)set * ic->assoc];
    for (uint32_t w = 0; w < ic->assoc; w++)
        if (tag[w] == line + 1) {
            used[w] = ++ic->clock;
            ic->hits++;
            return ICACHE_HIT;
        }
    int m = find_miss(ic, line);
    if (m >= 0) {
        ic->miss_waiters[m] |= 1ull << slot;
        return ICACHE_WAIT;
    }
    m = find_miss(ic, UINT64_MAX); /* a free entry: line + 1 == 0 */
    if (m < 0)
        return ICACHE_FULL;
    ic->miss_line[m] = line + 1;
    ic->miss_waiters[m] = 1ull << slot;
    ic->misses++;
    return ICACHE_SEND;
}

void icache_unsend(Icache *ic, uint64_t addr)
{
    int m = find_miss(ic, addr >> ic->line_bits);
    CHECK(m >= 0);
    ic->miss_line[m] = 0;
    ic->miss_waiters[m] = 0;
    ic->misses--;
}

uint64_t icache_fill(Icache *ic, uint64_t line_addr)
{
    uint64_t line = line_addr >> ic->line_bits;
    int m = find_miss(ic, line);
    CHECK(m >= 0);
    uint64_t waiters = ic->miss_waiters[m];
    ic->miss_line[m] = 0;
    ic->miss_waiters[m] = 0;
    uint32_t set = (uint32_t)(line & (ic->sets - 1));
    uint64_t *tag = &ic->tag[(size_t)set * ic->assoc], *used = &ic->used[(size_t)set * ic->assoc];
    uint32_t victim = 0;
    for (uint32_t w = 1; w < ic->assoc; w++)
        if (used[w] < used[victim])
            victim = w; /* invalid ways have used 0 */
    tag[victim] = line + 1;
    used[victim] = ++ic->clock;
    return waiters;
}
