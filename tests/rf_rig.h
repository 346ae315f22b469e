/* rf_rig.h: an L1D with a register-file miss-path component (Linebacker, CERF) on its own: a
 * direct-mapped L1D of one set (every line conflicts) and a register file, for the tests that
 * drive the component through L1D loads (tests/unit/rf_rig.c). */
#ifndef WARPSIM_RF_RIG_H
#define WARPSIM_RF_RIG_H

#include <stdint.h>

#include "conf/config.h"
#include "core/regfile.h"
#include "mem/l1d.h"
#include "mem/memreq.h"
#include "stats/stats.h"

typedef struct RfRig {
    Config c;
    Stats st;
    MemPool pool;
    L1d l1;
    Regfile rf;
} RfRig;

/* The L1D's shape and a register file of n_regs registers; set the component's options next. */
void rf_rig_config(RfRig *r, uint32_t n_regs);
/* Options "name=value" as prefix.name (e.g. "l1d.cerf"); a bad one fails the test run. */
void rf_rig_options(RfRig *r, const char *prefix, const char *const *kv, uint32_t n);
/* Check the configuration and build the L1D and the register file, at kernel start. */
void rf_rig_start(RfRig *r);
void rf_rig_free(RfRig *r);
/* Tell the L1D's components the register file as it is at `now`. */
void rf_rig_tell_rf(RfRig *r, uint64_t now);

#endif
