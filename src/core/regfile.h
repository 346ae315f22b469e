/* regfile.h: where each resident CTA's registers lie in an SM's register file, and which warp
 * registers are idle (Linebacker, seeds/004 sec. 2.4 and 4.1).
 *
 * The unit is the warp register: 32 lanes x 4 bytes = 128 bytes, one L1D line (sm.n_regs / 32
 * of them; the gtx980 preset's 256 KB is 2048, register numbers RN 0..2047). A CTA takes a
 * contiguous run of warp registers, first fit from RN 0, so its first register number (FRN)
 * is the paper's Per-CTA Info field; every CTA of a kernel has the same size and one kernel runs
 * at a time, so the hole a finished CTA leaves always fits the next one. Idle registers are of
 * two kinds: statically unused (SUR: allocated to no resident CTA) and dynamically unused (DUR:
 * allocated to a CTA that is resident but inactive, i.e. throttled, its registers backed up).
 * The idle bitmap (bit RN: idle) is what miss-path components see (RegfileView, policy.h). */
#ifndef WARPSIM_REGFILE_H
#define WARPSIM_REGFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/policy.h"

#define REGFILE_WARP_BYTES 128u /* one warp register: 32 lanes x 4 bytes */

typedef struct RegfileCta {
    bool live, active;
    uint32_t frn, n; /* first warp register, how many */
} RegfileCta;

typedef struct Regfile {
    uint32_t n_wregs;    /* warp registers */
    uint32_t n_words;    /* 64-bit words of the bitmaps */
    uint64_t *alloc;     /* bit RN: allocated to a resident CTA */
    uint64_t *idle;      /* bit RN: SUR or DUR */
    RegfileCta *cta;     /* per CTA slot of the SM */
    uint32_t max_ctas;
    uint32_t n_alloc, n_inactive; /* warp registers allocated, and of them held by inactive CTAs */
    /* time integrals for the average idle sizes (seeds/004 Fig. 9) */
    uint64_t last_cycle, sur_cycles, dur_cycles, cycles;
    bool counting;       /* a kernel is running */
} Regfile;

void regfile_init(Regfile *rf, uint32_t n_regs, uint32_t max_ctas);
void regfile_free(Regfile *rf);
/* Warp registers of a CTA that holds `regs` 32-bit registers (the occupancy count, which is a
 * whole number of warp registers whenever sm.reg_alloc_unit is a multiple of 32; otherwise the
 * fraction is dropped, so that what the occupancy check admits always fits). */
uint32_t regfile_warp_regs(uint32_t regs);
/* CTA slot `slot` takes n warp registers, active; returns its FRN. */
uint32_t regfile_alloc(Regfile *rf, uint32_t slot, uint32_t n, uint64_t now);
/* The CTA of `slot` completed: its registers become statically unused. */
void regfile_release(Regfile *rf, uint32_t slot, uint64_t now);
/* The CTA of `slot` becomes inactive (its registers dynamically unused) or active again. */
void regfile_set_active(Regfile *rf, uint32_t slot, bool active, uint64_t now);
uint32_t regfile_sur(const Regfile *rf);
uint32_t regfile_dur(const Regfile *rf);
/* One past the largest warp register of an active CTA (0: none): the paper's LRN + 1. */
uint32_t regfile_lrn_end(const Regfile *rf);
/* Every warp register of [first, first + n) is idle (false when the range leaves the file). */
bool regfile_range_idle(const Regfile *rf, uint32_t first, uint32_t n);
/* What miss-path components are told. */
RegfileView regfile_view(const Regfile *rf, uint64_t now);
/* The idle sizes are integrated over kernel time only: from the SM's first CTA of a kernel
 * (regfile_alloc) to the kernel's end. */
void regfile_kernel_end(Regfile *rf, uint64_t now);

#endif
