/* fifo.c: first-in first-out replacement: the victim is the line inserted longest ago; hits
 * do not change the order (GPGPU-Sim's 'F' replacement letter). */
#include "policy/policy.h"

#include "base/base.h"

#include <stdlib.h>

typedef struct Fifo {
    uint32_t assoc;
    uint64_t clock;
    uint64_t *inserted; /* per line: insertion sequence number */
} Fifo;

static void *fifo_create(const PolicyCtx *ctx, uint32_t n_sets, uint32_t assoc)
{
    Fifo *f = xmalloc(sizeof *f);
    f->assoc = assoc;
    f->clock = 0;
    f->inserted = xcalloc((size_t)n_sets * assoc, sizeof *f->inserted);
    return f;
}

static void fifo_destroy(void *self)
{
    Fifo *f = self;
    free(f->inserted);
    free(f);
}

static int fifo_victim(void *self, const ReplAccess *a, uint64_t candidates)
{
    Fifo *f = self;
    const uint64_t *ins = &f->inserted[a->set * f->assoc];
    int best = -1;
    for (uint32_t w = 0; w < f->assoc; w++)
        if ((candidates >> w & 1) && (best < 0 || ins[w] < ins[best]))
            best = (int)w;
    return best;
}

static void fifo_insert(void *self, const ReplAccess *a)
{
    Fifo *f = self;
    f->inserted[a->set * f->assoc + a->way] = ++f->clock;
}

const ReplOps repl_fifo_ops = {
    .meta = {.name = "fifo", .help = "first in, first out; hits do not reorder"},
    .create = fifo_create,
    .destroy = fifo_destroy,
    .victim = fifo_victim,
    .on_insert = fifo_insert,
};
