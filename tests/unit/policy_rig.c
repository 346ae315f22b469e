/* policy_rig.c: see tests/policy_rig.h. */
#include "../policy_rig.h"

#include "base/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The config with owner = name and each "option=value" as <owner>.<name>.<option>, checked. */
static void configure(PolicyRig *r, const char *owner, const char *name, const char *const *kv, uint32_t n)
{
    char err[256], key[128];
    memset(r, 0, sizeof *r);
    config_init(&r->c);
    CHECK(config_set(&r->c, owner, name, err, sizeof err));
    for (uint32_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        CHECK(eq);
        snprintf(key, sizeof key, "%s.%s.%.*s", owner, name, (int)(eq - kv[i]), kv[i]);
        CHECK(config_set(&r->c, key, eq + 1, err, sizeof err));
    }
    CHECK(policy_check_config(&r->c, err, sizeof err));
    stats_init(&r->st);
}

void prig_warp(PolicyRig *r, const char *name, const char *const *kv, uint32_t n)
{
    configure(r, "sm.sched", name, kv, n);
    r->warp = policy_warp(name);
    CHECK(r->warp);
    policy_ctx_init(&r->ctx, &r->warp->meta, "sm.sched", &r->c, &r->st, "t", 0, 0);
    r->ctx.count = 1;
    r->shared = r->warp->create_shared ? r->warp->create_shared(&r->ctx) : NULL;
    r->ctx.shared = r->shared;
    r->self = r->warp->create(&r->ctx);
}

void prig_cta(PolicyRig *r, const char *name, uint32_t n_sms, const char *const *kv, uint32_t n)
{
    configure(r, "gpu.cta_sched", name, kv, n);
    r->cta = policy_cta(name);
    CHECK(r->cta);
    policy_ctx_init(&r->ctx, &r->cta->meta, "gpu.cta_sched", &r->c, &r->st, "t", 0, 0);
    r->self = r->cta->create ? r->cta->create(&r->ctx, n_sms) : NULL;
}

void prig_free(PolicyRig *r)
{
    if (r->warp) {
        r->warp->destroy(r->self);
        if (r->warp->destroy_shared)
            r->warp->destroy_shared(r->shared);
    } else if (r->cta && r->cta->destroy) {
        r->cta->destroy(r->self);
    }
    policy_ctx_free(&r->ctx);
    stats_free(&r->st);
}

void prig_launch(PolicyRig *r, WarpSlotInfo *slots, uint64_t *ages, SmView *view, uint32_t n)
{
    memset(slots, 0, 64 * sizeof *slots);
    *view = (SmView){.max_warps = 48, .n_sched = 1, .mshr_free = 32, .slot = slots};
    for (uint32_t i = 0; i < n; i++) {
        slots[i] = (WarpSlotInfo){.live = true, .has_next = true, .age = i, .next_lanes = 32};
        ages[i] = i;
        view->live_mask |= 1ull << i;
    }
    view->live_warps = n;
    r->warp->on_cta_launch(r->self, 0, 0, n);
}

uint64_t test_stat(const Stats *st, const char *fmt, ...)
{
    char key[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(key, sizeof key, fmt, ap);
    va_end(ap);
    int found = 0;
    uint64_t v = stats_get(st, key, &found);
    CHECK(found);
    return v;
}

uint64_t prig_stat(const PolicyRig *r, const char *name) { return test_stat(&r->st, "t.%s", name); }
