/* lb_vtt.c: Linebacker's Victim Tag Table (see lb_vtt.h). */
#include "policy/mpath/lb_vtt.h"

#include "base/base.h"
#include "policy/policy.h"

#include <stdlib.h>
#include <string.h>

void lb_vtt_init(LbVtt *v, uint32_t n_sets, uint32_t ways, uint32_t offset, uint32_t n_wregs, uint32_t max_ways)
{
    memset(v, 0, sizeof *v);
    v->n_sets = n_sets;
    v->ways = ways;
    v->offset = offset;
    uint32_t per_part = n_sets * ways;
    uint32_t fit = n_wregs > offset ? (n_wregs - offset) / per_part : 0;
    v->n_parts = MIN(max_ways / ways, fit);
    v->usable = xcalloc(v->n_parts ? v->n_parts : 1, sizeof *v->usable);
    v->e = xcalloc(v->n_parts ? (size_t)v->n_parts * per_part : 1, sizeof *v->e);
}

void lb_vtt_free(LbVtt *v)
{
    free(v->usable);
    free(v->e);
}

uint32_t lb_vtt_rn(const LbVtt *v, uint32_t part, uint32_t set, uint32_t way)
{
    return v->offset + part * v->n_sets * v->ways + set * v->ways + way;
}

uint32_t lb_vtt_set(const LbVtt *v, uint64_t line) { return (uint32_t)(line % v->n_sets); }

static LbVttEntry *entry(const LbVtt *v, uint32_t part, uint32_t set, uint32_t way)
{
    return &v->e[((size_t)part * v->n_sets + set) * v->ways + way];
}

static bool can_use(const LbVtt *v, uint32_t part) { return v->tags_only || v->usable[part]; }

void lb_vtt_clear(LbVtt *v) { memset(v->e, 0, (size_t)v->n_parts * v->n_sets * v->ways * sizeof *v->e); }

void lb_vtt_set_tags_only(LbVtt *v, bool on) { v->tags_only = on; }

uint32_t lb_vtt_set_usable(LbVtt *v, uint32_t part, bool usable)
{
    if (v->usable[part] == usable)
        return 0;
    v->usable[part] = usable;
    if (usable) {
        v->n_usable++;
        return 0;
    }
    v->n_usable--;
    uint32_t dropped = 0;
    if (!v->tags_only)
        for (uint32_t s = 0; s < v->n_sets; s++)
            for (uint32_t w = 0; w < v->ways; w++) {
                LbVttEntry *x = entry(v, part, s, w);
                dropped += x->stamp != 0;
                x->stamp = 0;
            }
    return dropped;
}

uint32_t lb_vtt_on_regfile(LbVtt *v, const RegfileView *rf)
{
    /* integrated over the sm.rf counters' window (RegfileView.in_kernel), so that their ratio
     * is a fraction */
    if (v->in_kernel && rf->cycle > v->last_rf_cycle)
        v->usable_cycles += (rf->cycle - v->last_rf_cycle) * v->usable_wregs;
    v->last_rf_cycle = rf->cycle;
    v->in_kernel = rf->in_kernel;
    uint32_t per_part = v->n_sets * v->ways, dropped = 0;
    for (uint32_t p = 0; p < v->n_parts; p++) {
        uint32_t first = lb_vtt_rn(v, p, 0, 0);
        bool idle = true;
        for (uint32_t r = first; r < first + per_part && idle; r++)
            idle = regfile_view_idle(rf, r);
        dropped += lb_vtt_set_usable(v, p, idle);
    }
    v->usable_wregs = v->n_usable * per_part;
    return dropped;
}

static void fill_slot(const LbVtt *v, LbVttSlot *s, uint32_t part, uint32_t set, uint32_t way)
{
    s->part = part;
    s->set = set;
    s->way = way;
    s->rn = lb_vtt_rn(v, part, set, way);
}

bool lb_vtt_lookup(LbVtt *v, uint64_t line, LbVttSlot *s)
{
    uint32_t set = lb_vtt_set(v, line);
    s->searched = 0;
    for (uint32_t p = 0; p < v->n_parts; p++) {
        if (!can_use(v, p))
            continue;
        s->searched++;
        for (uint32_t w = 0; w < v->ways; w++) {
            LbVttEntry *x = entry(v, p, set, w);
            if (x->stamp && x->line == line) {
                x->stamp = ++v->clock;
                fill_slot(v, s, p, set, w);
                return true;
            }
        }
    }
    return false;
}

bool lb_vtt_insert(LbVtt *v, uint64_t line, LbVttSlot *s)
{
    uint32_t set = lb_vtt_set(v, line);
    LbVttEntry *lru = NULL;
    uint32_t lru_p = 0, lru_w = 0;
    for (uint32_t p = 0; p < v->n_parts; p++) {
        if (!can_use(v, p))
            continue;
        for (uint32_t w = 0; w < v->ways; w++) {
            LbVttEntry *x = entry(v, p, set, w);
            if (!x->stamp) { /* an invalid way first (seeds/004 sec. 4: invalidated lines in priority) */
                lru = x, lru_p = p, lru_w = w;
                goto place;
            }
            if (!lru || x->stamp < lru->stamp)
                lru = x, lru_p = p, lru_w = w;
        }
    }
    if (!lru)
        return false;
place:
    s->replaced = lru->stamp != 0;
    lru->line = line;
    lru->stamp = ++v->clock;
    fill_slot(v, s, lru_p, set, lru_w);
    return true;
}

bool lb_vtt_invalidate(LbVtt *v, uint64_t line)
{
    uint32_t set = lb_vtt_set(v, line);
    for (uint32_t p = 0; p < v->n_parts; p++)
        for (uint32_t w = 0; w < v->ways; w++) {
            LbVttEntry *x = entry(v, p, set, w);
            if (x->stamp && x->line == line) {
                x->stamp = 0;
                return true;
            }
        }
    return false;
}
