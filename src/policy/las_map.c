/* las_map.c: the cache-line view of a kernel's data arrays for locality-aware scheduling
 * (see las_map.h). */
#include "policy/las_map.h"

#include "base/base.h"

#include <stdlib.h>
#include <string.h>

static uint64_t dist(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* The array index of data array `param`, adding it if there is room; LAS_NO_ARRAY if not. */
static uint8_t array_index(LasMap *m, uint32_t param)
{
    for (uint32_t a = 0; a < m->n_arrays; a++)
        if (m->arr[a].param == param)
            return (uint8_t)a;
    if (m->n_arrays == LAS_MAX_ARRAYS)
        return LAS_NO_ARRAY;
    m->arr[m->n_arrays] = (LasArray){.param = param, .lo = UINT64_MAX, .hi = 0};
    return (uint8_t)m->n_arrays++;
}

/* Widen each array's extent by the addresses of thread t of CTA cta. */
static void extend(LasMap *m, uint32_t cta, uint32_t t)
{
    m->fp->eval(m->fp, cta, t, m->addr);
    for (uint32_t i = 0; i < m->fp->n_access; i++) {
        if (m->arr_of[i] == LAS_NO_ARRAY)
            continue;
        LasArray *a = &m->arr[m->arr_of[i]];
        a->lo = MIN(a->lo, m->addr[i]);
        a->hi = MAX(a->hi, m->addr[i]);
    }
}

bool las_map_init(LasMap *m, const FrontKernel *k, uint32_t line_bytes)
{
    memset(m, 0, sizeof *m);
    const FrontFootprint *fp = k->footprint ? k->footprint(k) : NULL;
    if (!fp || !fp->n_access)
        return false;
    m->fp = fp;
    m->line_bytes = line_bytes;
    m->threads = front_kernel_threads_per_cta(k);
    m->block_x = k->block[0];
    m->block_y = k->block[1];
    m->n_ctas = front_kernel_n_ctas(k);
    m->arr_of = xmalloc(fp->n_access);
    m->addr = xcalloc(fp->n_access, sizeof *m->addr);
    for (uint32_t i = 0; i < fp->n_access; i++)
        m->arr_of[i] = array_index(m, fp->access[i].array);
    uint32_t last = m->threads - 1;
    extend(m, 0, 0);
    extend(m, 0, last);
    extend(m, m->n_ctas - 1, 0);
    extend(m, m->n_ctas - 1, last);
    /* the row pitch: the steps to the x and y neighbours of thread 0 of CTA 0 */
    uint64_t *a0 = xcalloc(fp->n_access, sizeof *a0);
    fp->eval(fp, 0, 0, a0);
    for (uint32_t n = 0; n < 2; n++) {
        uint32_t t = n == 0 ? 1 : m->block_x;
        if ((n == 0 && m->block_x < 2) || (n == 1 && m->block_y < 2))
            continue;
        fp->eval(fp, 0, t, m->addr);
        for (uint32_t i = 0; i < fp->n_access; i++) {
            uint64_t step = dist(m->addr[i], a0[i]);
            if (m->arr_of[i] != LAS_NO_ARRAY && step >= line_bytes)
                m->arr[m->arr_of[i]].pitch = MAX(m->arr[m->arr_of[i]].pitch, step);
        }
    }
    free(a0);
    return true;
}

void las_map_free(LasMap *m)
{
    free(m->arr_of);
    free(m->addr);
    memset(m, 0, sizeof *m);
}

void las_map_point(const LasMap *m, uint32_t a, uint64_t addr, int64_t *x, int64_t *y)
{
    const LasArray *r = &m->arr[a];
    int64_t off = (int64_t)(addr - r->lo); /* below the origin (a halo) is negative */
    if (!r->pitch) {
        *x = floor_div(off, m->line_bytes);
        *y = 0;
        return;
    }
    int64_t row = floor_div(off, (int64_t)r->pitch);
    *y = row;
    *x = (off - row * (int64_t)r->pitch) / m->line_bytes;
}

void las_map_cta_rects(LasMap *m, uint32_t cta, LasRect *out)
{
    int64_t x0[LAS_MAX_ARRAYS], y0[LAS_MAX_ARRAYS], x1[LAS_MAX_ARRAYS], y1[LAS_MAX_ARRAYS];
    bool seen[LAS_MAX_ARRAYS] = {false};
    for (uint32_t pass = 0; pass < 2; pass++) {
        m->fp->eval(m->fp, cta, pass ? m->threads - 1 : 0, m->addr);
        for (uint32_t i = 0; i < m->fp->n_access; i++) {
            uint32_t a = m->arr_of[i];
            if (a == LAS_NO_ARRAY)
                continue;
            int64_t x, y;
            las_map_point(m, a, m->addr[i], &x, &y);
            if (!seen[a]) {
                seen[a] = true;
                x0[a] = x1[a] = x;
                y0[a] = y1[a] = y;
                continue;
            }
            x0[a] = MIN(x0[a], x);
            x1[a] = MAX(x1[a], x);
            y0[a] = MIN(y0[a], y);
            y1[a] = MAX(y1[a], y);
        }
    }
    for (uint32_t a = 0; a < m->n_arrays; a++)
        out[a] = seen[a] ? (LasRect){.x = x0[a], .y = y0[a], .w = (uint64_t)(x1[a] - x0[a]) + 1,
                                     .h = (uint64_t)(y1[a] - y0[a]) + 1}
                         : (LasRect){0};
}

/* How much of [a, a + wa) and [b, b + wb) coincide. */
static uint64_t span_overlap(int64_t a, uint64_t wa, int64_t b, uint64_t wb)
{
    int64_t lo = MAX(a, b), hi = MIN(a + (int64_t)wa, b + (int64_t)wb);
    return hi > lo ? (uint64_t)(hi - lo) : 0;
}

uint64_t las_rect_overlap(const LasRect *a, const LasRect *b)
{
    return span_overlap(a->x, a->w, b->x, b->w) * span_overlap(a->y, a->h, b->y, b->h);
}
