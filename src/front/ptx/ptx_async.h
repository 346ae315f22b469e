/* ptx_async.h: cp.async, the asynchronous copy from global to shared memory of sm_80 (PTX ISA
 * 9.7.9.25), and its groups: cp.async.commit_group, cp.async.wait_group N, cp.async.wait_all
 * (internal to src/front/ptx). A PtxInst of op OP_CPASYNC keeps which in mode (CPA_*); a copy
 * has the operands [dst], [src], cp-size (an immediate), an optional src-size and, with
 * .L2::cache_hint (boolop CPA_HINT), a cache policy; wait_group has N. See ptx_async.c. */
#ifndef WARPSIM_PTX_ASYNC_H
#define WARPSIM_PTX_ASYNC_H

#include "front/ptx/ptx_ir.h"

#include <stddef.h>

enum { CPA_COPY, CPA_COMMIT, CPA_WAIT, CPA_WAIT_ALL };
enum { CPA_HINT = 1 }; /* boolop: the copy names a cache policy (its last operand) */

/* Decode a mnemonic starting "cp." into in (ptx_decode_mnemonic has set the defaults). False
 * with a message in why for a form warpsim does not run. */
bool ptx_async_decode(const char *word, size_t len, PtxInst *in, char *why, size_t why_len);
/* Operand counts. */
void ptx_async_arity(const PtxInst *in, unsigned *lo, unsigned *hi);
/* The operands' kinds and values: NULL if right, else what is wrong. */
const char *ptx_async_check(const PtxInst *in, char *buf, size_t len);
/* The timing model's view: flags (WINST_F_ASYNC*), the groups a wait may leave pending, and a
 * copy's bytes per lane. */
void ptx_async_static(const PtxInst *in, WinstStatic *s);

#endif
