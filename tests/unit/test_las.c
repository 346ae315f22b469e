/* test_las.c: locality-aware scheduling by address pre-computation (the LAS thesis, seeds/001,
 * ch. 3): the cache-line view of data arrays (src/policy/las_map.c), the overlap formula, the
 * `las` CTA scheduler's choices on row-major and column-major kernels, and the `las` warp
 * scheduler's vectors, inter-warp locality, promotion and starvation release. The footprints
 * here are mock front ends whose addresses are the kernels' formulas. */
#include "../policy_rig.h"
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "front/ptx/ptx.h"
#include "policy/las_map.h"
#include "policy/policy.h"
#include "stats/stats.h"

#include <string.h>

/* ---- mock footprints: one float array, 16 x 16 CTAs on a GX x GY grid ---------------------- */

enum { MAJOR_ROW, MAJOR_COL };

typedef struct Mock {
    FrontFootprint fp;
    FrontAccessInfo acc[1];
    FrontKernel k;
    int major;
    uint64_t base;
} Mock;

/* Row-major: a[(by * 16 + ty) * W + bx * 16 + tx], W = 16 GX floats a row. Column-major: the
 * transpose, a[(bx * 16 + tx) * H + by * 16 + ty], H = 16 GY. */
static void mock_eval(const FrontFootprint *fp, uint32_t cta, uint32_t t, uint64_t *addr)
{
    const Mock *m = fp->self;
    uint64_t gx = m->k.grid[0], gy = m->k.grid[1];
    uint64_t bx = cta % gx, by = cta / gx, tx = t % 16, ty = t / 16;
    uint64_t row = m->major == MAJOR_ROW ? by * 16 + ty : bx * 16 + tx;
    uint64_t col = m->major == MAJOR_ROW ? bx * 16 + tx : by * 16 + ty;
    uint64_t pitch = m->major == MAJOR_ROW ? 16 * gx : 16 * gy;
    addr[0] = m->base + 4 * (row * pitch + col);
}

static const FrontFootprint *mock_footprint(const FrontKernel *k) { return &((Mock *)k->footprint_ctx)->fp; }

static void mock_init(Mock *m, int major, uint32_t gx, uint32_t gy)
{
    memset(m, 0, sizeof *m);
    m->major = major;
    m->base = 0x100000;
    m->acc[0] = (FrontAccessInfo){.pc = 8, .array = 0};
    m->fp = (FrontFootprint){.n_access = 1, .access = m->acc, .eval = mock_eval, .self = m};
    m->k = (FrontKernel){.grid = {gx, gy, 1}, .block = {16, 16, 1}, .footprint = mock_footprint, .footprint_ctx = m};
}

TEST(las_overlap_formula)
{
    /* Fig. 3.9: two 4 x 3 rectangles whose corners are (1, 1) apart share (4 - 1) x (3 - 1) = 6
     * lines; as far apart as they are wide, or tall, none. */
    LasRect a = {.x = 10, .y = 20, .w = 4, .h = 3}, b = {.x = 11, .y = 21, .w = 4, .h = 3};
    EXPECT_EQ_U(las_rect_overlap(&a, &b), 6);
    EXPECT_EQ_U(las_rect_overlap(&b, &a), 6);
    b.x = 14;
    EXPECT_EQ_U(las_rect_overlap(&a, &b), 0);
    b.x = 7; /* to the left: 4 - 3 = 1 column */
    b.y = 20;
    EXPECT_EQ_U(las_rect_overlap(&a, &b), 3);
    b.y = 23;
    EXPECT_EQ_U(las_rect_overlap(&a, &b), 0);
    EXPECT_EQ_U(las_rect_overlap(&a, &a), 12);
    LasRect none = {0};
    EXPECT_EQ_U(las_rect_overlap(&a, &none), 0);
    /* different sizes: the intersection */
    LasRect big = {.x = 0, .y = 0, .w = 100, .h = 100};
    EXPECT_EQ_U(las_rect_overlap(&a, &big), 12);
}

TEST(las_map_rectangles_row_and_column_major)
{
    /* Row-major on 8 x 4 CTAs: rows of 128 floats (512 B, 4 lines); the y step of a thread is a
     * row, so the pitch is 512; CTA (bx, by) covers line column bx / 2 (16 floats are half a
     * line) and rows 16 by .. 16 by + 15. */
    Mock m;
    mock_init(&m, MAJOR_ROW, 8, 4);
    LasMap map;
    ASSERT(las_map_init(&map, &m.k, 128));
    EXPECT_EQ_U(map.n_arrays, 1);
    EXPECT_EQ_U(map.arr[0].pitch, 512);
    EXPECT_EQ_U(map.arr[0].lo, m.base);
    EXPECT_EQ_U(map.arr[0].hi, m.base + 4 * (63 * 128 + 127));
    LasRect r;
    las_map_cta_rects(&map, 8 + 3, &r); /* (3, 1) */
    EXPECT_EQ_I(r.x, 1);
    EXPECT_EQ_I(r.y, 16);
    EXPECT_EQ_U(r.w, 1);
    EXPECT_EQ_U(r.h, 16);
    int64_t x, y;
    las_map_point(&map, 0, m.base + 4 * (5 * 128 + 100), &x, &y);
    EXPECT_EQ_I(x, 3);
    EXPECT_EQ_I(y, 5);
    las_map_point(&map, 0, m.base - 4, &x, &y); /* a halo below the origin */
    EXPECT_EQ_I(x, 3);
    EXPECT_EQ_I(y, -1);
    las_map_free(&map);

    /* Column-major on 4 x 8 CTAs: rows of 128 floats indexed by x; the x step is a row. CTA
     * (bx, by) covers rows 16 bx .. 16 bx + 15, line column by / 2. */
    mock_init(&m, MAJOR_COL, 4, 8);
    ASSERT(las_map_init(&map, &m.k, 128));
    EXPECT_EQ_U(map.arr[0].pitch, 512);
    las_map_cta_rects(&map, 4 * 5 + 2, &r); /* (2, 5) */
    EXPECT_EQ_I(r.x, 2);
    EXPECT_EQ_I(r.y, 32);
    EXPECT_EQ_U(r.w, 1);
    EXPECT_EQ_U(r.h, 16);
    las_map_free(&map);

    /* No footprint, or nothing precomputable: no map. */
    FrontKernel plain = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    EXPECT(!las_map_init(&map, &plain, 128));
    m.fp.n_access = 0;
    EXPECT(!las_map_init(&map, &m.k, 128));
}

/* ---- the CTA scheduler ---------------------------------------------------------------------- */

typedef struct CtaT {
    PolicyRig p;
    uint8_t launched[64];
    CtaSmInfo sm[4];
    CtaSchedView v;
} CtaT;

/* `las` with `window` candidates (NULL for the default) for m's kernel on n_sms SMs. */
static void cta_make(CtaT *t, Mock *m, uint32_t n_sms, const char *window)
{
    memset(t, 0, sizeof *t);
    const char *kv[] = {window};
    prig_cta(&t->p, "las", n_sms, kv, window ? 1 : 0);
    t->p.cta->on_kernel_begin(t->p.self, &m->k);
    uint32_t n = front_kernel_n_ctas(&m->k);
    for (uint32_t s = 0; s < n_sms; s++)
        t->sm[s] = (CtaSmInfo){.room = 8, .room_empty = 8};
    t->v = (CtaSchedView){.n_ctas = n, .launched = t->launched, .n_unlaunched = n, .n_sms = n_sms, .sm = t->sm,
                          .kernel = &m->k};
}

static void cta_free(CtaT *t)
{
    t->p.cta->on_kernel_end(t->p.self);
    prig_free(&t->p);
}

/* SM s takes the CTA the policy picks; returns it. */
static uint32_t dispatch(CtaT *t, uint32_t s)
{
    uint32_t ctas[8];
    CHECK(t->p.cta->pick(t->p.self, s, &t->v, ctas) == 1);
    CHECK(!t->launched[ctas[0]]);
    t->launched[ctas[0]] = 1;
    t->v.n_unlaunched--;
    while (t->v.next_unlaunched < t->v.n_ctas && t->launched[t->v.next_unlaunched])
        t->v.next_unlaunched++;
    return ctas[0];
}

TEST(las_cta_row_major_keeps_neighbours_together)
{
    /* Row-major, 8 x 4 CTAs, 2 SMs: CTAs 2k and 2k + 1 share their line column (16 floats are
     * half a line). SM 0 takes CTA 0 (no locality anywhere: the lowest id); SM 1 the lowest CTA
     * sharing nothing with SM 0's, CTA 2; then each SM the neighbour of its CTA. */
    Mock m;
    mock_init(&m, MAJOR_ROW, 8, 4);
    CtaT t;
    cta_make(&t, &m, 2, NULL);
    EXPECT_EQ_U(dispatch(&t, 0), 0);
    EXPECT_EQ_U(dispatch(&t, 1), 2);
    EXPECT_EQ_U(dispatch(&t, 0), 1);
    EXPECT_EQ_U(dispatch(&t, 1), 3);
    EXPECT_EQ_U(prig_stat(&t.p, "picks_local"), 2);
    EXPECT_EQ_U(prig_stat(&t.p, "picks_far"), 2);
    EXPECT_EQ_U(prig_stat(&t.p, "shared_lines"), 32); /* 16 rows x 1 line, twice */
    /* SM 0 (CTAs 0 and 1, rows 0-15 of line column 0) shares nothing with the rest: the
     * lowest CTA sharing nothing with SM 1 either is CTA 4; once 0 and 1 are done, too. */
    t.p.cta->on_cta_done(t.p.self, 0, 0, &t.v);
    t.p.cta->on_cta_done(t.p.self, 0, 1, &t.v);
    EXPECT_EQ_U(dispatch(&t, 0), 4);
    EXPECT_EQ_U(dispatch(&t, 0), 5);
    cta_free(&t);
}

TEST(las_cta_column_major_finds_strided_neighbours)
{
    /* Column-major, 4 x 8 CTAs: CTA (bx, by) = 4 by + bx shares its rows with (bx, by ^ 1), four
     * ids away, the column-major locality of thesis Fig. 2.2 that BCS cannot see. */
    Mock m;
    mock_init(&m, MAJOR_COL, 4, 8);
    CtaT t;
    cta_make(&t, &m, 2, NULL);
    EXPECT_EQ_U(dispatch(&t, 0), 0);
    EXPECT_EQ_U(dispatch(&t, 1), 1);
    EXPECT_EQ_U(dispatch(&t, 0), 4);
    EXPECT_EQ_U(dispatch(&t, 1), 5);
    EXPECT_EQ_U(dispatch(&t, 0), 2); /* rows of 0 and 4 exhausted: far from SM 1's 1 and 5 */
    cta_free(&t);
    /* With a window of 2 candidates CTA 4 is out of sight: SM 0 falls back to CTA 1, which
     * shares nothing with anything. */
    cta_make(&t, &m, 2, "window=2");
    EXPECT_EQ_U(dispatch(&t, 0), 0);
    EXPECT_EQ_U(dispatch(&t, 0), 1);
    cta_free(&t);
}

/* ---- the warp scheduler --------------------------------------------------------------------- */

typedef struct WarpT {
    PolicyRig p;
    uint64_t age[64];
    SmView sm;
    WarpSlotInfo slot[64];
} WarpT;

/* `las` with M = 2 and N = 16 and an active group of 2, one scheduler, for m's kernel. */
static void warp_make(WarpT *t, Mock *m)
{
    memset(t, 0, sizeof *t);
    const char *kv[] = {"region_bits=2", "active=2"};
    prig_warp(&t->p, "las", kv, 2);
    t->p.warp->on_kernel_start(t->p.self, &m->k);
    for (uint32_t i = 0; i < 64; i++)
        t->age[i] = i;
    t->sm = (SmView){.max_warps = 64, .n_sched = 1, .slot = t->slot};
}

static int warp_pick(WarpT *t, uint64_t valid, uint64_t ready, uint64_t mem_wait)
{
    WarpSchedView v = {.ready = ready, .valid = valid, .mem_wait = mem_wait, .age = t->age, .sm = &t->sm};
    int w = t->p.warp->pick(t->p.self, &v);
    if (w >= 0)
        t->p.warp->on_issue(t->p.self, (uint32_t)w, &v);
    return w;
}

TEST(las_warp_locality_promotion_and_starvation)
{
    /* Row-major, 8 x 4 CTAs of 8 warps: the array's 64 rows of 512 B in 2^2 regions of 16 rows,
     * each of 16 one-row sub-regions. CTA (bx, by)'s region is by; its warp w reads rows 2w and
     * 2w + 1 of it. So warp w of CTA 0 (slots 0-7) and warp w of CTA 1 (slots 8-15) share two
     * sub-regions; CTA 8 (slots 16-23, by = 1) shares nothing with either. */
    Mock m;
    mock_init(&m, MAJOR_ROW, 8, 4);
    WarpT t;
    warp_make(&t, &m);
    t.p.warp->on_cta_launch(t.p.self, 0, 0, 8);
    t.p.warp->on_cta_launch(t.p.self, 1, 8, 8);
    t.p.warp->on_cta_launch(t.p.self, 8, 16, 8);
    const uint64_t valid = 0xFFFFFF;
    /* The active group fills: the oldest warp, 0, then the warp with the most locality with
     * it, 8 (not 1, the next oldest). Greedy on 0 while it is ready, then 8. */
    EXPECT_EQ_I(warp_pick(&t, valid, valid, 0), 0);
    EXPECT_EQ_I(warp_pick(&t, valid, valid, 0), 0);
    EXPECT_EQ_I(warp_pick(&t, valid, valid & ~1ull, 0), 8);
    EXPECT_EQ_U(prig_stat(&t.p, "promotions"), 2);
    /* 0 and 8 wait on loads: both leave the group; 1 (the oldest) comes in, and then 9. The
     * ready warps outside the group do not issue. */
    uint64_t waiting = 1ull | 1ull << 8;
    EXPECT_EQ_I(warp_pick(&t, valid, valid & ~waiting, waiting), 1);
    EXPECT_EQ_I(warp_pick(&t, valid, 1ull << 9 | 1ull << 2, waiting), 9);
    EXPECT_EQ_I(warp_pick(&t, valid, 1ull << 2, waiting), -1);
    EXPECT_EQ_U(prig_stat(&t.p, "promotions"), 4);
    /* Greedy-then-locality: with 1 not ready and the last warp 9, the active group is {1, 9}:
     * 9 again. */
    EXPECT_EQ_I(warp_pick(&t, valid, valid & ~waiting & ~2ull, waiting), 9);
    EXPECT_EQ_U(prig_stat(&t.p, "starved_picks"), 0);
    /* Starvation: 17 more CTAs (of one warp, slots 24-40) make CTA 0 more than 2 x 8 dispatches
     * old: its ready warps issue first, the oldest of them, though it is pending. */
    for (uint32_t c = 0; c < 17; c++)
        t.p.warp->on_cta_launch(t.p.self, 9 + c, 24 + c, 1);
    EXPECT_EQ_I(warp_pick(&t, valid, 1ull << 9 | 1ull << 5 | 1ull << 3, waiting), 3);
    EXPECT_EQ_U(prig_stat(&t.p, "starved_picks"), 1);
    /* CTA 1 (age 1) is 18 dispatches old too; CTA 8 (age 2) 17: all starved. */
    EXPECT_EQ_I(warp_pick(&t, valid, 1ull << 20, waiting), 20);
    /* A warp that exits leaves both groups. */
    t.p.warp->on_warp_exit(t.p.self, 9);
    EXPECT_EQ_I(warp_pick(&t, valid & ~(1ull << 9), 1ull << 1, waiting), 1);
    prig_free(&t.p);
}

/* ---- the PTX front end's footprint ---------------------------------------------------------- */

TEST(las_ptx_footprint_of_transpose)
{
    /* workloads/sdk/transpose's naive kernel: odata[x * h + y + r] = idata[(y + r) * w + x] for
     * r = 0, 8, 16, 24, x = 32 bx + tx, y = 32 by + ty, on 2 x 2 CTAs of 32 x 8 and w = h = 64. */
    char err[512];
    PtxModule *m = ptx_module_load("workloads/sdk/transpose/kernel.ptx", err, sizeof err);
    ASSERT(m);
    PtxMemory *mem = ptx_memory_create();
    const uint64_t out = ptx_memory_alloc(mem, 64 * 64 * 4), in = ptx_memory_alloc(mem, 64 * 64 * 4);
    const PtxKernelInfo *ki = ptx_module_kernel(m, "transpose_naive");
    ASSERT(ki && ki->n_params == 4);
    uint8_t params[64] = {0};
    const int32_t w = 64, h = 64;
    memcpy(params + ki->param_offset[0], &out, 8);
    memcpy(params + ki->param_offset[1], &in, 8);
    memcpy(params + ki->param_offset[2], &w, 4);
    memcpy(params + ki->param_offset[3], &h, 4);
    const uint32_t grid[3] = {2, 2, 1}, block[3] = {32, 8, 1};
    PtxLaunch *l = ptx_launch_create(m, "transpose_naive", grid, block, 0, params, ki->param_bytes, mem, err, sizeof err);
    ASSERT(l);
    const FrontFootprint *fp = ptx_launch_footprint(l);
    ASSERT(fp == ptx_launch_footprint(l)); /* built once */
    ASSERT(fp->n_access == 8);
    uint64_t addr[8];
    fp->eval(fp, 3, 37, addr); /* CTA (1, 1), thread (5, 1): x = 37, y = 33 */
    uint32_t loads = 0, stores = 0;
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t r = (fp->access[i].is_store ? stores++ : loads++) * 8;
        if (fp->access[i].is_store) {
            EXPECT_EQ_U(fp->access[i].array, 0);
            EXPECT_EQ_U(addr[i], out + 4 * (37 * 64 + 33 + r));
        } else {
            EXPECT_EQ_U(fp->access[i].array, 1);
            EXPECT_EQ_U(addr[i], in + 4 * ((33 + r) * 64 + 37));
        }
    }
    EXPECT_EQ_U(loads, 4);
    /* The map: both arrays 256 B a row (idata's y step, odata's x step); CTA (1, 1) reads line
     * column 1 of rows 32-63 of idata and writes line column 1 (floats 32-63) of rows 32-63. */
    FrontKernel fk;
    ptx_launch_describe(l, &fk);
    fk.footprint = ptx_kernel_footprint;
    fk.footprint_ctx = l;
    LasMap map;
    ASSERT(las_map_init(&map, &fk, 128));
    ASSERT(map.n_arrays == 2);
    EXPECT_EQ_U(map.arr[0].pitch, 256);
    EXPECT_EQ_U(map.arr[1].pitch, 256);
    LasRect r[2];
    las_map_cta_rects(&map, 3, r);
    for (uint32_t a = 0; a < 2; a++) {
        EXPECT_EQ_I(r[a].x, 1);
        EXPECT_EQ_I(r[a].y, 32);
        EXPECT_EQ_U(r[a].w, 1);
        EXPECT_EQ_U(r[a].h, 32);
    }
    las_map_free(&map);
    ptx_launch_destroy(l);
    ptx_memory_destroy(mem);
    ptx_module_free(m);
}
