/* sm_reexec.c: the cache access re-execution queue (sm.reexec_queue; Sethia et al., "Mascar:
 * Speeding up GPU Warps by Reducing Memory Pitstops", HPCA 2015, sec. 4.2; the OAWS thesis's
 * MASCAR baseline, 5.5.1, with 32 entries).
 *
 * Without it, an access the L1D refuses for want of a resource holds the LD/ST unit, and every
 * access behind it waits, hits included (memory occlusion). With it, a global load's access
 * refused for want of an MSHR entry, merge room in one, or room in the miss queue goes into
 * this FIFO and the unit moves on, so later accesses that hit are served under the misses.
 * The head is looked up again, before the unit's own access (the L1D takes one lookup a cycle),
 * once a fill or a miss-queue drain may have freed what it lacked; its record is owed one
 * lookup meanwhile, so the load is not done before it. A full queue, a store, an atomic, or a
 * refusal of another kind (no replaceable line, a miss-path component's port) holds the unit
 * as before.
 *
 * Choices the paper leaves open, made here: the queue takes loads only (the paper re-executes
 * loads that find their data in the cache; stores do not wait for data); entries go back in
 * arrival order, only the head is tried; a cycle in which the queue holds entries and its head
 * does not get through counts as sm.ldst.stall_reexec (the thesis's MASCAR_Replay, Fig. 5.5).
 * While the queue holds entries the SM is visited every cycle rather than sleeping. */
#include "core/sm_internal.h"

bool sm_reexec_defer(Sm *sm, const LqEntry *e, L1dResult res)
{
    Ldst *u = &sm->ldst;
    if (u->rq_n == u->rq_cap || e->op != WOP_LOAD || e->rec == SM_NO_REC || !sm->recs[e->rec].global)
        return false;
    if (res != L1D_FAIL_MSHR && res != L1D_FAIL_MERGE && res != L1D_FAIL_MISSQ && res != L1D_FAIL_ICNT)
        return false;
    if (u->rq_n == 0)
        u->rq_retry = false; /* refused just now: nothing to gain before the next fill or drain */
    u->rq[(u->rq_head + u->rq_n++) % u->rq_cap] = *e;
    sm->recs[e->rec].outstanding++; /* owed until the L1D has looked it up */
    sm->reexec_deferred++;
    return true;
}

bool sm_reexec_step(Sm *sm, uint64_t now)
{
    Ldst *u = &sm->ldst;
    if (!u->rq_retry) {
        sm->stall_reexec++;
        return false;
    }
    const LqEntry *e = &u->rq[u->rq_head];
    if (l1d_failed(sm_ldst_lookup(sm, e, 0, now))) {
        u->rq_retry = false;
        sm->stall_reexec++;
        return true;
    }
    uint32_t rec = e->rec;
    u->rq_head = (u->rq_head + 1) % u->rq_cap;
    u->rq_n--;
    sm->reexec_done++;
    sm_ldst_rec_return(sm, rec, now); /* the lookup owed; what it added keeps the record open */
    /* the next entry was refused earlier: it is worth a try next cycle */
    return true;
}
