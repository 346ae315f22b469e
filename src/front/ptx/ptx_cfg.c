/* ptx_cfg.c: control-flow graph and immediate post-dominators of a PTX function.
 *
 * The SIMT stack reconverges a divergent branch at its immediate post-dominator (IPDOM), as in
 * Fung et al., "Dynamic Warp Formation" (MICRO'07) and GPGPU-Sim's PDOM stack. Basic blocks
 * start at the function entry, at branch targets and after bra/ret/exit; a guarded branch or
 * return also falls through. ret/exit lead to one virtual exit node, trap to the code after it.
 * Post-dominators are the dominators of the reversed CFG, computed with the iterative algorithm
 * of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001). A branch whose
 * IPDOM is the exit node (or that cannot reach it, as in an infinite loop) gets rpc =
 * PTX_NO_PC: its paths only join when threads leave. */
#include "front/ptx/ptx_ir.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

static int intersect(const int32_t *ipdom, const int32_t *po, int a, int b)
{
    while (a != b) {
        while (po[a] < po[b])
            a = ipdom[a];
        while (po[b] < po[a])
            b = ipdom[b];
    }
    return a;
}

void ptx_cfg_compute_rpc(PtxModule *m, uint32_t f)
{
    const PtxFunc *fn = &m->funcs[f];
    uint32_t first = fn->first_inst, n = fn->n_insts;
    if (n == 0)
        return;
    PtxInst *insts = m->insts + first;
    /* leaders */
    uint8_t *leader = xcalloc(n + 1, 1);
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t op = insts[i].op;
        if (op == OP_BRA) {
            uint32_t t = (uint32_t)insts[i].o[0].imm - first;
            if (t < n)
                leader[t] = 1;
        }
        if ((op == OP_BRA || op == OP_RET || op == OP_EXIT) && i + 1 < n)
            leader[i + 1] = 1;
    }
    int32_t *block_of = xmalloc(n * sizeof *block_of);
    uint32_t *block_start = xmalloc((n + 1) * sizeof *block_start);
    int nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i])
            block_start[nb++] = i;
        block_of[i] = nb - 1;
    }
    int exit_node = nb, nn = nb + 1;
    /* successors: at most two per block */
    int32_t (*succ)[2] = xmalloc((size_t)nn * sizeof *succ);
    for (int b = 0; b < nn; b++)
        succ[b][0] = succ[b][1] = -1;
    for (int b = 0; b < nb; b++) {
        uint32_t last = (b + 1 < nb ? block_start[b + 1] : n) - 1;
        const PtxInst *in = &insts[last];
        int fall = last + 1 < n ? block_of[last + 1] : exit_node;
        bool guarded = in->guard != PTX_NO_REG;
        if (in->op == OP_BRA) {
            uint32_t t = (uint32_t)in->o[0].imm - first;
            succ[b][0] = t < n ? block_of[t] : exit_node;
            if (guarded)
                succ[b][1] = fall;
        } else if (in->op == OP_EXIT && in->mode == EXIT_TRAP) {
            /* A trap fails the whole launch, so no thread goes on from it, and its block may
             * lead anywhere: to the code after it, as nvcc lays out a switch whose default
             * traps (cuda_pipeline's zero-fill sizes). Leading it to the exit instead would
             * move the switch's reconvergence past a following bar.sync, which the warp would
             * then reach with only some of its lanes. */
            succ[b][0] = fall;
        } else if (in->op == OP_RET || in->op == OP_EXIT) {
            succ[b][0] = exit_node;
            if (guarded)
                succ[b][1] = fall;
        } else {
            succ[b][0] = fall;
        }
    }
    /* predecessors (CSR) */
    int32_t *npred = xcalloc((size_t)nn + 1, sizeof *npred);
    for (int b = 0; b < nb; b++)
        for (int k = 0; k < 2; k++)
            if (succ[b][k] >= 0)
                npred[succ[b][k] + 1]++;
    for (int b = 0; b < nn; b++)
        npred[b + 1] += npred[b];
    int32_t *pred = xmalloc(((size_t)npred[nn] + 1) * sizeof *pred);
    int32_t *fill = xcalloc((size_t)nn, sizeof *fill);
    for (int b = 0; b < nb; b++)
        for (int k = 0; k < 2; k++)
            if (succ[b][k] >= 0) {
                int s = succ[b][k];
                pred[npred[s] + fill[s]++] = b;
            }
    /* postorder of the reversed graph from the exit node (iterative DFS) */
    int32_t *po = xmalloc((size_t)nn * sizeof *po);
    int32_t *order = xmalloc((size_t)nn * sizeof *order);
    int32_t *stack = xmalloc((size_t)nn * sizeof *stack);
    int32_t *it = xcalloc((size_t)nn, sizeof *it);
    for (int b = 0; b < nn; b++)
        po[b] = -1;
    uint8_t *seen = xcalloc((size_t)nn, 1);
    int sp = 0, cnt = 0;
    stack[sp++] = exit_node;
    seen[exit_node] = 1;
    while (sp) {
        int b = stack[sp - 1];
        if (it[b] < npred[b + 1] - npred[b]) {
            int p = pred[npred[b] + it[b]++];
            if (!seen[p]) {
                seen[p] = 1;
                stack[sp++] = p;
            }
        } else {
            po[b] = cnt;
            order[cnt++] = b;
            sp--;
        }
    }
    int32_t *ipdom = xmalloc((size_t)nn * sizeof *ipdom);
    for (int b = 0; b < nn; b++)
        ipdom[b] = -1;
    ipdom[exit_node] = exit_node;
    bool changed = true;
    while (changed) {
        changed = false;
        for (int i = cnt - 1; i >= 0; i--) { /* reverse postorder */
            int b = order[i];
            if (b == exit_node)
                continue;
            int nd = -1;
            for (int k = 0; k < 2; k++) {
                int s = succ[b][k];
                if (s < 0 || ipdom[s] < 0)
                    continue;
                nd = nd < 0 ? s : intersect(ipdom, po, s, nd);
            }
            if (nd >= 0 && ipdom[b] != nd) {
                ipdom[b] = nd;
                changed = true;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        PtxInst *in = &insts[i];
        if (in->op != OP_BRA)
            continue;
        int d = ipdom[block_of[i]];
        in->rpc = (d < 0 || d == exit_node) ? PTX_NO_PC : first + block_start[d];
    }
    free(leader);
    free(block_of);
    free(block_start);
    free(succ);
    free(npred);
    free(pred);
    free(fill);
    free(po);
    free(order);
    free(stack);
    free(it);
    free(seen);
    free(ipdom);
}
