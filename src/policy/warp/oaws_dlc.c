/* oaws_dlc.c: OAWS's Divergent Load Classifier (Wang's thesis 5.3, Fig. 5.2, 5.4.3; see
 * oaws.h). A small table of the divergent load pcs of the running kernel with their history:
 * #inst (instances), #acc (line accesses) and #miss (L1D misses). Static OAWS only asks whether
 * a pc is in it; dynamic OAWS predicts with its history miss rate HMR = #miss / #acc.
 *
 * Choices the thesis leaves open: the history is counted when a divergent load has been looked
 * up in full (its accesses and misses together, so HMR never counts accesses whose outcome is
 * not known yet); "periodically updated" fields are halved together when #inst reaches its
 * 5-bit maximum; a new pc in a full table replaces the least recently updated entry (the thesis
 * mentions LRU for "more complicated workloads"). */
#include "policy/warp/oaws.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

void oaws_dlc_init(OawsDlc *d, uint32_t entries)
{
    memset(d, 0, sizeof *d);
    d->cap = entries;
    d->e = xcalloc(entries, sizeof *d->e);
}

void oaws_dlc_free(OawsDlc *d) { free(d->e); }

void oaws_dlc_clear(OawsDlc *d) { d->n = 0; }

static int find_index(const OawsDlc *d, uint32_t pc)
{
    for (uint32_t i = 0; i < d->n; i++)
        if (d->e[i].pc == pc)
            return (int)i;
    return -1;
}

const OawsDlcEntry *oaws_dlc_find(const OawsDlc *d, uint32_t pc)
{
    int i = find_index(d, pc);
    return i < 0 ? NULL : &d->e[i];
}

void oaws_dlc_update(OawsDlc *d, uint32_t pc, uint32_t accesses, uint32_t misses)
{
    int i = find_index(d, pc);
    OawsDlcEntry *e = i < 0 ? NULL : &d->e[i];
    if (!e) {
        if (d->n < d->cap) {
            e = &d->e[d->n++];
        } else {
            e = &d->e[0];
            for (uint32_t k = 1; k < d->n; k++)
                if (d->e[k].used < e->used)
                    e = &d->e[k];
            d->evictions++;
        }
        *e = (OawsDlcEntry){.pc = pc};
        d->inserts++;
    }
    e->inst++;
    e->acc += accesses;
    e->miss += MIN(misses, accesses);
    e->used = ++d->clock;
    if (e->inst >= OAWS_DLC_INST_MAX) {
        e->inst /= 2;
        e->acc /= 2;
        e->miss /= 2;
    }
}

uint32_t oaws_dlc_misses(const OawsDlcEntry *e, uint32_t div_pred)
{
    if (!e->acc)
        return 0;
    return (uint32_t)(((uint64_t)div_pred * e->miss + e->acc - 1) / e->acc);
}
