/* regfile.c: the register file's allocation map (see regfile.h). Stats (registered by the SM):
 * sm[i].rf.sur_cycles, dur_cycles (idle warp registers summed over kernel cycles) and
 * kernel_cycles, whose ratios are the average SUR and DUR sizes of seeds/004 Fig. 9. */
#include "core/regfile.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

static void set_bits(uint64_t *m, uint32_t first, uint32_t n, bool on)
{
    for (uint32_t r = first; r < first + n; r++) {
        if (on)
            m[r / 64] |= 1ull << (r % 64);
        else
            m[r / 64] &= ~(1ull << (r % 64));
    }
}

static bool bit(const uint64_t *m, uint32_t r) { return m[r / 64] >> (r % 64) & 1; }

void regfile_init(Regfile *rf, uint32_t n_regs, uint32_t max_ctas)
{
    memset(rf, 0, sizeof *rf);
    rf->n_wregs = n_regs / 32;
    rf->n_words = (rf->n_wregs + 63) / 64;
    rf->alloc = xcalloc(rf->n_words ? rf->n_words : 1, sizeof *rf->alloc);
    rf->idle = xcalloc(rf->n_words ? rf->n_words : 1, sizeof *rf->idle);
    set_bits(rf->idle, 0, rf->n_wregs, true);
    rf->max_ctas = max_ctas;
    rf->cta = xcalloc(max_ctas, sizeof *rf->cta);
}

void regfile_free(Regfile *rf)
{
    free(rf->alloc);
    free(rf->idle);
    free(rf->cta);
}

uint32_t regfile_warp_regs(uint32_t regs) { return regs / 32; }

uint32_t regfile_sur(const Regfile *rf) { return rf->n_wregs - rf->n_alloc; }
uint32_t regfile_dur(const Regfile *rf) { return rf->n_inactive; }

/* Integrate the idle sizes up to now (kernel time only). */
static void advance(Regfile *rf, uint64_t now)
{
    if (rf->counting && now > rf->last_cycle) {
        uint64_t d = now - rf->last_cycle;
        rf->sur_cycles += d * regfile_sur(rf);
        rf->dur_cycles += d * regfile_dur(rf);
        rf->cycles += d;
    }
    rf->last_cycle = now;
}

void regfile_kernel_end(Regfile *rf, uint64_t now)
{
    advance(rf, now);
    rf->counting = false;
}

uint32_t regfile_alloc(Regfile *rf, uint32_t slot, uint32_t n, uint64_t now)
{
    CHECK(slot < rf->max_ctas && !rf->cta[slot].live);
    advance(rf, now);
    rf->counting = true; /* from the kernel's first CTA on this SM to the kernel's end */
    uint32_t frn = 0, run = 0;
    for (uint32_t r = 0; r < rf->n_wregs && run < n; r++) {
        if (bit(rf->alloc, r)) {
            run = 0;
            frn = r + 1;
        } else {
            run++;
        }
    }
    CHECK(run >= n); /* regfile.h: the occupancy check guarantees a hole */
    set_bits(rf->alloc, frn, n, true);
    set_bits(rf->idle, frn, n, false);
    rf->n_alloc += n;
    rf->cta[slot] = (RegfileCta){.live = true, .active = true, .frn = frn, .n = n};
    return frn;
}

void regfile_release(Regfile *rf, uint32_t slot, uint64_t now)
{
    RegfileCta *c = &rf->cta[slot];
    CHECK(slot < rf->max_ctas && c->live);
    advance(rf, now);
    set_bits(rf->alloc, c->frn, c->n, false);
    set_bits(rf->idle, c->frn, c->n, true);
    rf->n_alloc -= c->n;
    rf->n_inactive -= c->active ? 0 : c->n;
    memset(c, 0, sizeof *c);
}

void regfile_set_active(Regfile *rf, uint32_t slot, bool active, uint64_t now)
{
    RegfileCta *c = &rf->cta[slot];
    CHECK(slot < rf->max_ctas && c->live);
    if (c->active == active)
        return;
    advance(rf, now);
    c->active = active;
    set_bits(rf->idle, c->frn, c->n, !active);
    if (active)
        rf->n_inactive -= c->n;
    else
        rf->n_inactive += c->n;
}

uint32_t regfile_lrn_end(const Regfile *rf)
{
    uint32_t end = 0;
    for (uint32_t s = 0; s < rf->max_ctas; s++)
        if (rf->cta[s].live && rf->cta[s].active)
            end = MAX(end, rf->cta[s].frn + rf->cta[s].n);
    return end;
}

bool regfile_range_idle(const Regfile *rf, uint32_t first, uint32_t n)
{
    if (first > rf->n_wregs || n > rf->n_wregs - first)
        return false;
    for (uint32_t r = first; r < first + n; r++)
        if (!bit(rf->idle, r))
            return false;
    return true;
}

RegfileView regfile_view(const Regfile *rf, uint64_t now)
{
    return (RegfileView){.n_wregs = rf->n_wregs, .sur = regfile_sur(rf), .dur = regfile_dur(rf),
                         .lrn_end = regfile_lrn_end(rf), .idle = rf->idle, .cycle = now,
                         .in_kernel = rf->counting};
}
