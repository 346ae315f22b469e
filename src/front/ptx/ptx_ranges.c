/* ptx_ranges.c: an ordered map of disjoint address ranges: an AVL tree (Adelson-Velsky and
 * Landis; Knuth, TAOCP vol. 3, 6.2.3) keyed by start address, over a pool of nodes addressed by
 * index (0 is the empty tree; removed nodes go on a free list). Every node also keeps the
 * largest size in its subtree, so that "the lowest range of at least n bytes" descends one path.
 * Insertion, removal and every lookup take O(log n): the tree's height stays below 1.45 log2 n.
 *
 * PtxMemory keeps two: its allocations and module variables (to check every access and copy),
 * and its free space below the heap top (first fit by address, for the allocator). */
#include "front/ptx/ptx_ranges.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

typedef struct PtxRangeNode {
    PtxRange r;
    uint64_t max_size; /* the largest r.size in the subtree */
    uint32_t child[2]; /* lower and higher addresses */
    int32_t height;    /* 1 for a leaf; the empty tree (node 0) has 0 */
} PtxRangeNode;

void ptx_ranges_init(PtxRangeMap *t)
{
    memset(t, 0, sizeof *t);
    t->cap = 16;
    t->nodes = xcalloc(t->cap, sizeof *t->nodes);
    t->n_nodes = 1;
}

void ptx_ranges_free(PtxRangeMap *t)
{
    free(t->nodes);
    memset(t, 0, sizeof *t);
}

static uint32_t node_new(PtxRangeMap *t, const PtxRange *r)
{
    uint32_t i = t->free_head;
    if (i) {
        t->free_head = t->nodes[i].child[0];
    } else {
        if (t->n_nodes == t->cap) {
            t->cap *= 2;
            t->nodes = xrealloc(t->nodes, t->cap * sizeof *t->nodes);
        }
        i = t->n_nodes++;
    }
    PtxRangeNode *n = &t->nodes[i];
    n->r = *r;
    n->max_size = r->size;
    n->child[0] = n->child[1] = 0;
    n->height = 1;
    return i;
}

static void update(PtxRangeMap *t, uint32_t i)
{
    PtxRangeNode *n = &t->nodes[i];
    const PtxRangeNode *l = &t->nodes[n->child[0]], *r = &t->nodes[n->child[1]];
    n->height = 1 + MAX(l->height, r->height);
    n->max_size = MAX(n->r.size, MAX(l->max_size, r->max_size)); /* node 0 holds zeros */
}

/* Rotate subtree i: its child on side `up` (0: the lower, 1: the higher) becomes its root. */
static uint32_t rotate(PtxRangeMap *t, uint32_t i, int up)
{
    uint32_t c = t->nodes[i].child[up];
    t->nodes[i].child[up] = t->nodes[c].child[!up];
    t->nodes[c].child[!up] = i;
    update(t, i);
    update(t, c);
    return c;
}

/* Height of the lower subtree minus that of the higher one. */
static int32_t balance_of(const PtxRangeMap *t, uint32_t i)
{
    return t->nodes[t->nodes[i].child[0]].height - t->nodes[t->nodes[i].child[1]].height;
}

/* Restore the AVL property at i, whose subtrees are AVL trees differing in height by at most 2:
 * the taller side comes up, after a rotation of its own if its inner grandchild is the taller. */
static uint32_t rebalance(PtxRangeMap *t, uint32_t i)
{
    update(t, i);
    int32_t b = balance_of(t, i);
    if (b >= -1 && b <= 1)
        return i;
    int up = b < 0; /* the taller side */
    uint32_t c = t->nodes[i].child[up];
    if (up ? balance_of(t, c) > 0 : balance_of(t, c) < 0)
        t->nodes[i].child[up] = rotate(t, c, !up);
    return rotate(t, i, up);
}

static uint32_t insert_at(PtxRangeMap *t, uint32_t i, uint32_t fresh)
{
    if (!i)
        return fresh;
    int side = t->nodes[fresh].r.addr > t->nodes[i].r.addr;
    uint32_t sub = insert_at(t, t->nodes[i].child[side], fresh);
    t->nodes[i].child[side] = sub;
    return rebalance(t, i);
}

bool ptx_ranges_insert(PtxRangeMap *t, const PtxRange *r)
{
    const PtxRange *at = ptx_ranges_floor(t, r->addr);
    if (at && at->addr == r->addr)
        return false;
    uint32_t fresh = node_new(t, r);
    t->root = insert_at(t, t->root, fresh);
    t->count++;
    return true;
}

/* Detach the lowest node of subtree i into *min; returns the subtree without it. */
static uint32_t remove_min(PtxRangeMap *t, uint32_t i, uint32_t *min)
{
    if (!t->nodes[i].child[0]) {
        *min = i;
        return t->nodes[i].child[1];
    }
    uint32_t l = remove_min(t, t->nodes[i].child[0], min);
    t->nodes[i].child[0] = l;
    return rebalance(t, i);
}

static uint32_t remove_at(PtxRangeMap *t, uint32_t i, uint64_t addr, uint32_t *gone)
{
    if (!i)
        return 0;
    PtxRangeNode *n = &t->nodes[i];
    if (addr == n->r.addr) {
        *gone = i;
        if (!n->child[0] || !n->child[1])
            return n->child[0] ? n->child[0] : n->child[1];
        uint32_t succ, higher = remove_min(t, n->child[1], &succ);
        t->nodes[succ].child[0] = t->nodes[i].child[0];
        t->nodes[succ].child[1] = higher;
        return rebalance(t, succ);
    }
    int side = addr > n->r.addr;
    uint32_t sub = remove_at(t, n->child[side], addr, gone);
    t->nodes[i].child[side] = sub;
    return rebalance(t, i);
}

bool ptx_ranges_remove(PtxRangeMap *t, uint64_t addr, PtxRange *out)
{
    uint32_t gone = 0;
    t->root = remove_at(t, t->root, addr, &gone);
    if (!gone)
        return false;
    if (out)
        *out = t->nodes[gone].r;
    t->nodes[gone].child[0] = t->free_head;
    t->free_head = gone;
    t->count--;
    return true;
}

/* The range of greatest start <= addr (above: of smallest start > addr), or NULL. */
static const PtxRange *nearest(const PtxRangeMap *t, uint64_t addr, bool above)
{
    uint32_t best = 0;
    for (uint32_t i = t->root; i;) {
        bool go_left = t->nodes[i].r.addr > addr;
        if (go_left == above) /* a candidate: the best so far */
            best = i;
        i = t->nodes[i].child[!go_left];
    }
    return best ? &t->nodes[best].r : NULL;
}

const PtxRange *ptx_ranges_floor(const PtxRangeMap *t, uint64_t addr)
{
    return nearest(t, addr, false);
}

const PtxRange *ptx_ranges_above(const PtxRangeMap *t, uint64_t addr)
{
    return nearest(t, addr, true);
}

const PtxRange *ptx_ranges_first_fit(const PtxRangeMap *t, uint64_t size)
{
    uint32_t i = t->root;
    if (!i || t->nodes[i].max_size < size)
        return NULL;
    for (;;) { /* invariant: subtree i holds a fit */
        const PtxRangeNode *n = &t->nodes[i];
        if (n->child[0] && t->nodes[n->child[0]].max_size >= size)
            i = n->child[0];
        else if (n->r.size >= size)
            return &n->r;
        else
            i = n->child[1];
    }
}
