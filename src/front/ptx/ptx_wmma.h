/* ptx_wmma.h: the warp-level matrix instructions wmma.load, wmma.store and wmma.mma (PTX ISA
 * 9.7.14.4), as nvcc emits them for nvcuda::wmma (internal to src/front/ptx). A PtxInst of
 * op OP_WMMA keeps its sub-operation in mode, its shape in shape, its row/col layouts in layout
 * (WMMA_COL_* bits), and its element types in type (load/store: the fragment's; mma: the a and
 * b inputs'), type2 (mma: d) and type3 (mma: c). See ptx_wmma.c for the fragment layout. */
#ifndef WARPSIM_PTX_WMMA_H
#define WARPSIM_PTX_WMMA_H

#include "front/ptx/ptx_ir.h"

#include <stddef.h>

enum { WMMA_LOAD_A, WMMA_LOAD_B, WMMA_LOAD_C, WMMA_STORE_D, WMMA_MMA };
enum { WMMA_M16N16K16, WMMA_M32N8K16, WMMA_M8N32K16, WMMA_M16N16K8, WMMA_M8N8K4, WMMA_N_SHAPES };
/* The .tf32 element type (an f32 whose low 13 mantissa bits the mma ignores) has no PtxType:
 * in a wmma instruction's type fields it is this value, past every PtxType. */
enum { WMMA_TF32 = PT_COUNT };
enum { WMMA_COL_A = 1, WMMA_COL_B = 2 }; /* load/store: WMMA_COL_A is the memory layout */

/* Decode a mnemonic starting "wmma." into in (ptx_decode_mnemonic has set the defaults). False
 * with a message in why for a form warpsim does not run. */
bool ptx_wmma_decode(const char *word, size_t len, PtxInst *in, char *why, size_t why_len);
/* The operands' kinds and register counts: NULL if right, else what is wrong. */
const char *ptx_wmma_check(const PtxInst *in, char *buf, size_t len);
/* Operand counts (load and store: the stride is optional). */
void ptx_wmma_arity(const PtxInst *in, unsigned *lo, unsigned *hi);
/* Bytes of memory a lane's fragment covers (the timing model's access size); 0 for mma. */
unsigned ptx_wmma_lane_bytes(const PtxInst *in);

#endif
