/* trace.h: the Accel-Sim trace front end: kernelslist.g and kernel-N.traceg files (written by
 * NVBit's tracer and its post-processing), read as warp-instruction streams, and a writer that
 * records any front end's stream in the same format (docs/traces.md).
 *
 * A TraceKernel is one kernel file, opened and indexed (where each warp's instructions start);
 * as the timing model runs it through trace_front_ops, each resident warp reads its own lines
 * through a small window, so memory holds the index (16 bytes per warp) and a window per
 * resident warp, never the trace. Bad input gives a message "file:line: what is wrong": at open
 * time from the open functions, and while streaming (trace_front_ops has no error return) the
 * kernel stops, every warp exits, and trace_kernel_error says why. */
#ifndef WARPSIM_TRACE_H
#define WARPSIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "front/front.h"

/* ---- kernelslist.g ---- */

typedef enum TraceCmdKind { TRACE_CMD_KERNEL, TRACE_CMD_HTOD, TRACE_CMD_DTOH } TraceCmdKind;

typedef struct TraceCmd {
    uint8_t kind;    /* TraceCmdKind */
    uint32_t line;   /* in kernelslist.g */
    uint64_t addr, bytes; /* copies */
    char *path;      /* kernels: the kernel file, the list's folder prepended */
} TraceCmd;

typedef struct TraceList {
    char *name; /* the list file, for messages */
    TraceCmd *cmds;
    uint32_t n;
} TraceList;

/* DIR/kernelslist.g (or DIR itself when it names a file). False with "file:line: why" in err. */
bool trace_list_load(const char *dir, TraceList *out, char *err, size_t err_len);
/* The same from text; kernel paths are dir + "/" + the line. */
bool trace_list_parse(const char *text, size_t len, const char *dir, const char *name, TraceList *out, char *err,
                      size_t err_len);
void trace_list_free(TraceList *l);

/* ---- kernel files ---- */

typedef struct TraceKernel TraceKernel;

/* A .traceg file, or a .xz-compressed one (decompressed by the xz program into an unnamed
 * temporary file). NULL with "file:line: why" in err. */
TraceKernel *trace_kernel_open(const char *path, char *err, size_t err_len);
/* The same from memory (kept, not copied: it must outlive the kernel); name labels messages. */
TraceKernel *trace_kernel_open_mem(const char *data, size_t len, const char *name, char *err, size_t err_len);
void trace_kernel_close(TraceKernel *k);
/* Geometry, resources and name from the header. */
const FrontKernel *trace_kernel_info(const TraceKernel *k);
/* The tracer's format version (the "-accelsim tracer version" line). */
uint32_t trace_kernel_version(const TraceKernel *k);
/* Why streaming stopped ("file:line: why"), NULL while it has not. */
const char *trace_kernel_error(const TraceKernel *k);
/* Read every warp's instructions once, in file order, without the timing model: false with
 * the first error (the fuzz harness and `warpsim trace check`); *n_insts counts them. */
bool trace_kernel_check(TraceKernel *k, uint64_t *n_insts, char *err, size_t err_len);

/* self: a TraceKernel. */
extern const FrontOps trace_front_ops;

/* ---- writer ---- */

typedef struct TraceWriter TraceWriter;

/* A writer into folder dir (created if missing): kernelslist.g and one kernel-N.traceg per
 * kernel. NULL with a message in err. */
TraceWriter *trace_writer_create(const char *dir, char *err, size_t err_len);
/* Write kernelslist.g and close; false with a message when a file could not be written. */
bool trace_writer_finish(TraceWriter *w, char *err, size_t err_len);
/* A host-device copy (MemcpyHtoD, MemcpyDtoH lines). */
void trace_writer_copy(TraceWriter *w, bool to_device, uint64_t addr, uint64_t bytes);

/* A front end wrapped so that every warp instruction it executes is also written: run the
 * timing model on tee.ops with &tee as self. One kernel at a time. */
typedef struct TraceTee {
    FrontOps ops;
    const FrontOps *inner;
    void *inner_self;
    TraceWriter *w;
} TraceTee;
void trace_tee_init(TraceTee *tee, const FrontOps *inner, void *inner_self, TraceWriter *w);

#endif
