/* gpu_build.c: building and freeing the machine (gpu.h), and the L2 side of host-device
 * copies; gpu.c runs it. */
#include "core/gpu.h"

#include "core/gpu_par.h"

#include "base/base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The DRAM is done with a write: recycle its request. */
static void gpu_dram_write_done(void *pool, MemReq *r) { mempool_put(pool, r); }

void gpu_copy_touch(Gpu *g, uint64_t addr, uint64_t bytes)
{
    if (!g->cfg.mem.copy_warms_l2)
        return;
    /* GPGPU-Sim steps the copy 32 bytes at a time from its first byte */
    for (uint64_t off = 0; off < bytes; off += 32) {
        AddrLoc loc;
        addrdec_decode(&g->addrdec, addr + off, &loc);
        l2_wake(&g->slices[loc.slice], g->cycle[DOMAIN_L2]);
        l2_copy_fill(&g->slices[loc.slice], loc.local, g->cycle[DOMAIN_CORE]);
    }
}

Gpu *gpu_create(const Config *cfg)
{
    Gpu *g = xcalloc(1, sizeof *g);
    g->cfg = *cfg;
    cfg = &g->cfg;
    stats_init(&g->stats);
    mempool_init(&g->pool);
    addrdec_init(&g->addrdec, cfg);
    g->n_clusters = cfg->gpu.n_clusters;
    g->sms_per_cluster = cfg->gpu.cores_per_cluster;
    g->n_sms = g->n_clusters * g->sms_per_cluster;
    g->n_partitions = cfg->mem.n_partitions;
    g->n_slices = g->n_partitions * cfg->mem.subpartitions;
    stats_counter(&g->stats, &g->sim_cycles, "sim.cycles", "core cycles simulated");
    stats_counter(&g->stats, &g->sim_warp_insts, "sim.warp_insts", "warp instructions issued");
    stats_counter(&g->stats, &g->sim_thread_insts, "sim.thread_insts", "thread instructions issued");
    stats_counter(&g->stats, &g->kernels, "sim.kernels", "kernels run");
    stats_counter(&g->stats, &g->reply_stall, "icnt.reply_stall",
                  "interconnect cycles an L2 slice's next reply waited for the reply network, summed over the slices "
                  "(GPGPU-Sim's gpu_stall_icnt2sh)");
    stats_counter(&g->stats, &g->reply_held, "icnt.reply_held",
                  "interconnect cycles a reply delivered to a cluster stayed in the reply network because the cluster "
                  "could not take it (its ejection buffer full, or without one its SM's response FIFO), summed over "
                  "the clusters");
    stats_counter(&g->stats, &g->reply_net.packets, "icnt.reply_packets",
                  "packets sent on the reply network (read data, store acknowledgements; with mem.sector_replies one "
                  "per sector)");
    stats_counter(&g->stats, &g->reply_net.flits, "icnt.reply_flits", "flits of those packets (icnt.flit_bytes each)");
    if (cfg->gpu.sample_cycles) {
        g->stats.series_period = cfg->gpu.sample_cycles;
        g->next_sample = cfg->gpu.sample_cycles;
        g->series_ipc = stats_series(&g->stats, "sim.ipc", "thread instructions per core cycle in the period");
        g->series_warps = stats_series(&g->stats, "sm.active_warps", "warps resident on all SMs at the sample");
        g->series_l1d_hit = stats_series(&g->stats, "l1d.hit_rate", "L1D load hits per access in the period (0: none)");
        g->series_unthrottled = stats_series(&g->stats, "sm.sched.active_warps",
                                             "warps resident on all SMs that their schedulers do not throttle at the "
                                             "sample (WarpSchedOps.throttled: SWL's and PCAL's throttled warps, CIAO's "
                                             "stalled ones, the warps CCWS admits no load)");
    }
    g->sms = xcalloc(g->n_sms, sizeof *g->sms);
    for (uint32_t i = 0; i < g->n_sms; i++) {
        sm_init(&g->sms[i], i, cfg, &g->pool, &g->stats);
        g->sms[i].l1d.queued_total = &g->missq_total;
        g->sms[i].view.mem = &g->mem_busy;
    }
    g->slices = xcalloc(g->n_slices, sizeof *g->slices);
    for (uint32_t i = 0; i < g->n_slices; i++) {
        l2_init(&g->slices[i], i, cfg, &g->pool, &g->stats);
        g->slices[i].replies_total = &g->replies_total;
        g->slices[i].index_drop = g->addrdec.sub_mask;
    }
    g->drams = xcalloc(g->n_partitions, sizeof *g->drams);
    for (uint32_t i = 0; i < g->n_partitions; i++)
    {
        g->drams[i] = dram_create(cfg, i, &g->stats);
        dram_set_write_done(g->drams[i], gpu_dram_write_done, &g->pool);
        dram_set_busy_total(g->drams[i], &g->mem_busy.dram_busy_cycles);
    }
    g->mem_busy = (MemBusy){.l2_cycle = &g->cycle[DOMAIN_L2], .dram_cycle = &g->cycle[DOMAIN_DRAM],
                            .n_l2_slices = g->n_slices, .n_dram_channels = g->n_partitions};
    g->dram_delay = xcalloc(g->n_partitions, sizeof *g->dram_delay);
    g->dram_wake = xcalloc(g->n_partitions, sizeof *g->dram_wake);
    g->dram_due = xcalloc(g->n_partitions, sizeof *g->dram_due);
    g->fetch_loc = xcalloc(g->n_slices, sizeof *g->fetch_loc);
    for (uint32_t p = 0; p < g->n_partitions; p++)
        g->dram_wake[p] = g->dram_due[p] = UINT64_MAX; /* empty: nothing to do until a request arrives */
    g->cluster_rr = xcalloc(g->n_clusters, sizeof *g->cluster_rr);
    g->cta_last_core = xcalloc(g->n_clusters, sizeof *g->cta_last_core);
    g->cta_last_cluster = g->n_clusters - 1; /* the first dispatch starts at cluster 0, core 0 */
    for (uint32_t c = 0; c < g->n_clusters; c++)
        g->cta_last_core[c] = g->sms_per_cluster - 1;
    g->eject = xcalloc(g->n_clusters, sizeof *g->eject);
    g->slice_input = xcalloc(bits_words(g->n_slices), sizeof *g->slice_input);
    g->slice_replies = xcalloc(bits_words(g->n_slices), sizeof *g->slice_replies);
    g->eject_queued = xcalloc(bits_words(g->n_clusters), sizeof *g->eject_queued);
    g->missq_queued = xcalloc(bits_words(g->n_sms), sizeof *g->missq_queued);
    g->inject_wake = xcalloc(g->n_clusters, sizeof *g->inject_wake);
    g->credit_asleep = xcalloc(bits_words(g->n_clusters), sizeof *g->credit_asleep);
    g->credit_wait = xcalloc((size_t)g->n_slices * bits_words(g->n_clusters), sizeof *g->credit_wait);
    for (uint32_t i = 0; i < g->n_sms; i++) {
        g->sms[i].l1d.queued_bits = g->missq_queued;
        g->sms[i].l1d.inject_wake = &g->inject_wake[i / g->sms_per_cluster];
    }
    g->cta_sm = xcalloc(g->n_sms, sizeof *g->cta_sm);
    g->cta_ops = policy_cta(cfg->gpu.cta_sched);
    CHECK(g->cta_ops);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "gpu.cta_sched.%s", g->cta_ops->meta.name);
    policy_ctx_init(&g->cta_ctx, &g->cta_ops->meta, "gpu.cta_sched", cfg, &g->stats, prefix, 0, 0);
    g->cta_sched = g->cta_ops->create ? g->cta_ops->create(&g->cta_ctx, g->n_sms) : NULL;
    /* mem.dram_lat is in core cycles (as GPGPU-Sim's -dram_latency); served in DRAM cycles. */
    g->dram_delay_cycles = (uint64_t)llround(cfg->mem.dram_lat * cfg->gpu.dram_mhz / cfg->gpu.core_mhz);
    icnt_init(&g->req_net, g->n_clusters, g->n_slices, &cfg->icnt);
    icnt_init(&g->reply_net, g->n_slices, g->n_clusters, &cfg->icnt);
    const double mhz[DOMAIN_COUNT] = {cfg->gpu.core_mhz, cfg->gpu.icnt_mhz, cfg->gpu.l2_mhz, cfg->gpu.dram_mhz};
    for (int d = 0; d < DOMAIN_COUNT; d++)
        g->period[d] = 1e9 / mhz[d];
    return g;
}

void gpu_destroy(Gpu *g)
{
    if (!g)
        return;
    gpu_par_free(g->par); /* first: its threads stop, and the SMs get the machine's pool back */
    if (g->cta_ops && g->cta_ops->destroy)
        g->cta_ops->destroy(g->cta_sched);
    if (g->cta_ops)
        policy_ctx_free(&g->cta_ctx);
    for (uint32_t i = 0; i < g->n_sms; i++)
        sm_free(&g->sms[i]);
    for (uint32_t i = 0; i < g->n_slices; i++)
        l2_free(&g->slices[i]);
    for (uint32_t i = 0; i < g->n_partitions; i++)
        dram_destroy(g->drams[i]);
    icnt_free(&g->req_net);
    icnt_free(&g->reply_net);
    free(g->sms);
    free(g->slices);
    free(g->drams);
    free(g->dram_delay);
    free(g->dram_wake);
    free(g->dram_due);
    free(g->fetch_loc);
    free(g->cluster_rr);
    free(g->cta_last_core);
    free(g->eject);
    free(g->slice_input);
    free(g->slice_replies);
    free(g->eject_queued);
    free(g->missq_queued);
    free(g->inject_wake);
    free(g->credit_asleep);
    free(g->credit_wait);
    free(g->launched);
    free(g->cta_sm);
    mempool_free(&g->pool);
    stats_free(&g->stats);
    free(g);
}
