/* las_map.h: the cache-line view of a kernel's data arrays that locality-aware scheduling
 * works in (the LAS thesis, seeds/001, 3.3.1 and 3.4.1), built from the front end's
 * address pre-computation (FrontFootprint). Shared by the `las` CTA scheduler (cta/las.c:
 * access rectangles and their overlap) and the `las` warp scheduler (warp/las.c: region and
 * sub-region vectors).
 *
 * The thesis views each data array as a 2-D plane of bytes and maps it to cache-line
 * coordinates (Figs. 3.6-3.7): byte (x, y) is line (x / line, y). It leaves open how the row
 * length is known; here it is the array's row pitch found from the address slices: the
 * address step between neighbouring threads in x and in y of CTA 0 (threads 0, 1 and
 * block.x), the larger of those that is at least a line (a row-major access steps a row
 * with y, a column-major one with x); an array whose steps are all below a line is one row.
 * Coordinates count from the array's origin, the lowest address that the first and last
 * threads of the kernel's first and last CTAs reach; that span is also the extent the warp
 * scheduler divides into regions. */
#ifndef WARPSIM_POLICY_LAS_MAP_H
#define WARPSIM_POLICY_LAS_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "front/front.h"

#define LAS_MAX_ARRAYS 8

typedef struct LasArray {
    uint32_t param; /* FrontAccessInfo.array */
    uint64_t lo, hi; /* bytes the kernel's first and last CTAs' first and last threads reach */
    uint64_t pitch; /* bytes a row; 0: one row */
} LasArray;

typedef struct LasMap {
    const FrontFootprint *fp;
    uint32_t line_bytes, threads; /* threads per CTA */
    uint32_t block_x, block_y;
    uint32_t n_ctas;
    uint32_t n_arrays;
    LasArray arr[LAS_MAX_ARRAYS];
    uint8_t *arr_of; /* [fp->n_access]: the access's array, or LAS_NO_ARRAY past the eighth */
    uint64_t *addr;  /* [fp->n_access]: scratch for eval */
} LasMap;

#define LAS_NO_ARRAY 0xFF

/* A rectangle of cache lines (start, width, height), as a CTA's access range on one array. */
typedef struct LasRect {
    int64_t x, y;
    uint64_t w, h; /* 0: the CTA reaches nothing of that array */
} LasRect;

/* Build the map of kernel k (false, and nothing to free, when it has no precomputable access). */
bool las_map_init(LasMap *m, const FrontKernel *k, uint32_t line_bytes);
void las_map_free(LasMap *m);
/* The line coordinates of byte address addr of array a. */
void las_map_point(const LasMap *m, uint32_t a, uint64_t addr, int64_t *x, int64_t *y);
/* CTA cta's access rectangle on each array, out[n_arrays]: the bounding box, in line
 * coordinates, of the addresses of its first and last threads over the array's accesses
 * (thesis 3.3.1: start, width and height from the first and last thread). */
void las_map_cta_rects(LasMap *m, uint32_t cta, LasRect *out);
/* Cache lines two rectangles share (thesis 3.3.2, Fig. 3.9): with distance_x and distance_y
 * the distances between their upper-left corners, (width - distance_x) * (height - distance_y)
 * when both are positive, else 0; for rectangles of different sizes, the area of their
 * intersection, which is the same for equal ones. */
uint64_t las_rect_overlap(const LasRect *a, const LasRect *b);

#endif
