/* synth.h: the built-in synthetic front end.
 *
 * A small text description (docs/synthetic.md) of one or more kernels -- geometry, arrays,
 * ALU runs, loads and stores with address expressions, loops, ifs, barriers -- is compiled
 * once into a flat program of precomputed instructions and bytecode expressions, and then
 * played back through FrontOps as warp-instruction streams. It lets the timing model, its
 * tests and its benchmarks run without PTX or traces.
 *
 * Lifetime: a SynthProgram owns every kernel; a SynthFront is the execution state of one of
 * its kernels and must not outlive the program. */
#ifndef WARPSIM_SYNTH_H
#define WARPSIM_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "front/front.h"

/* The register model the scoreboard sees (docs/synthetic.md, "Registers"). */
enum {
    SYNTH_REG_LOAD_FIRST = 1, /* loads write 1..8 in turn */
    SYNTH_N_LOAD_REGS = 8,
    SYNTH_REG_ACC = 9, /* the ALU chain's accumulator */
    SYNTH_MAX_SRC = 6, /* registers an instruction reads at most (the accumulator and 5 loaded) */
};

typedef struct SynthProgram SynthProgram;
typedef struct SynthFront SynthFront;

/* Parse a description. file_name only labels messages. On error returns NULL and writes
 * "file:line: what was expected" into err (err_cap bytes). */
SynthProgram *synth_parse(const char *text, const char *file_name, char *err, size_t err_cap);
/* Read and parse a file; a missing file or a bad description is fatal (exit 1). */
SynthProgram *synth_load_file(const char *path);
void synth_free(SynthProgram *p);

uint32_t synth_n_kernels(const SynthProgram *p);
/* Geometry and resources of kernel i (i < synth_n_kernels). */
const FrontKernel *synth_kernel(const SynthProgram *p, uint32_t i);
/* Static instructions of kernel i, the implicit exit included (pcs are 0, 8, ..., 8*(n-1)). */
uint32_t synth_kernel_n_insts(const SynthProgram *p, uint32_t i);
/* Warp instructions kernel i executes when every warp runs to its exit (a dry run). */
uint64_t synth_kernel_total_winsts(const SynthProgram *p, uint32_t i);

/* Execution state of kernel i; pass it as `self` to synth_front_ops. */
SynthFront *synth_front_create(const SynthProgram *p, uint32_t i);
void synth_front_destroy(SynthFront *f);

extern const FrontOps synth_front_ops;

#endif
