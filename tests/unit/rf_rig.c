/* rf_rig.c: see tests/rf_rig.h. */
#include "../rf_rig.h"

#include "base/base.h"
#include "policy/policy.h"

#include <stdio.h>
#include <string.h>

void rf_rig_config(RfRig *r, uint32_t n_regs)
{
    config_init(&r->c);
    r->c.l1d.n_sets = 1;
    r->c.l1d.assoc = 1;
    r->c.l1d.mshr_entries = 8;
    r->c.l1d.miss_queue = 16;
    r->c.sm.n_regs = n_regs;
}

void rf_rig_options(RfRig *r, const char *prefix, const char *const *kv, uint32_t n)
{
    char err[512];
    for (uint32_t i = 0; i < n; i++) {
        char key[128];
        const char *eq = strchr(kv[i], '=');
        CHECK(eq);
        snprintf(key, sizeof key, "%s.%.*s", prefix, (int)(eq - kv[i]), kv[i]);
        CHECK(config_set(&r->c, key, eq + 1, err, sizeof err));
    }
}

void rf_rig_start(RfRig *r)
{
    char err[512];
    CHECK(policy_check_config(&r->c, err, sizeof err));
    stats_init(&r->st);
    mempool_init(&r->pool);
    l1d_init(&r->l1, 0, &r->c, &r->pool, &r->st);
    regfile_init(&r->rf, r->c.sm.n_regs, 8);
    l1d_kernel_begin(&r->l1, 0);
}

void rf_rig_free(RfRig *r)
{
    l1d_free(&r->l1);
    regfile_free(&r->rf);
    mempool_free(&r->pool);
    stats_free(&r->st);
}

void rf_rig_tell_rf(RfRig *r, uint64_t now)
{
    RegfileView v = regfile_view(&r->rf, now);
    l1d_regfile_changed(&r->l1, &v);
}
