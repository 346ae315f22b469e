/* trace_internal.h: shared pieces of the trace front end: where bytes come from (TraceSource),
 * the line reader over a window of them (TraceLines), the instruction-line parser and the
 * SASS opcode table. */
#ifndef WARPSIM_TRACE_INTERNAL_H
#define WARPSIM_TRACE_INTERNAL_H

#include "front/trace/trace.h"

#include <stdio.h>

/* Bytes of a kernel file: a file descriptor read with pread, or memory. */
typedef struct TraceSource {
    int fd;           /* -1 for memory */
    const char *mem;
    uint64_t size;
    char *name;       /* for messages */
} TraceSource;

/* Read up to n bytes at off; the count read (0 at the end), -1 on a read error. */
long trace_source_read(const TraceSource *s, uint64_t off, char *buf, size_t n);

/* Lines of a source from an offset, through a window of cap bytes: a line longer than
 * cap - 1 bytes is an error. Lines are returned NUL-terminated, without "\r\n". */
typedef struct TraceLines {
    const TraceSource *src;
    char *buf;     /* [cap + 1] */
    uint32_t cap, start, end;
    uint64_t off;  /* source offset of buf[0] */
    uint32_t line; /* number of the line last returned (1-based) */
    bool eof;
} TraceLines;

void trace_lines_init(TraceLines *r, const TraceSource *src, char *buf, uint32_t cap);
/* Start at source offset off, whose line has number line. */
void trace_lines_seek(TraceLines *r, uint64_t off, uint32_t line);
/* The next line (*line_off: its source offset); 0 at the end, 1 for a line, -1 for an error
 * (too long, read error) with the message in err. */
int trace_lines_next(TraceLines *r, char **line, uint64_t *line_off, char *err, size_t err_len);

/* The SASS opcode table (trace_sass.c). */
typedef struct TraceOpcode {
    const char *name;   /* the opcode without modifiers */
    uint8_t op;         /* WinstOp */
    uint8_t space;      /* WinstSpace of memory instructions */
    uint8_t no_addr_op; /* the class when a memory instruction's line has no addresses (textures
                           and bulk copies, which the tracer records without them); WOP_COUNT:
                           the line must carry them */
} TraceOpcode;

/* The entry for an opcode with modifiers ("LDG.E.64" -> LDG) into *out; false when unknown. */
bool trace_sass_lookup(const char *opcode, size_t len, TraceOpcode *out);
/* The table itself (sorted by name), for tests. */
size_t trace_sass_table_size(void);
const TraceOpcode *trace_sass_table(void);
/* The opcode the writer uses for an op class and space (a SASS opcode where one has exactly
 * that meaning, else a warpsim one, "WARPSIM.CLASS[.SPACE]"), written into buf. */
const char *trace_sass_name(uint8_t op, uint8_t space, char *buf, size_t len);

/* How an instruction line is laid out (the kernel header says). */
typedef struct TraceLineFormat {
    uint32_t version;  /* below 3: each line starts with the block's x y z and the warp */
    bool lineinfo;     /* a source line number before the pc */
    uint32_t pc_shift; /* SASS pc >> pc_shift = warpsim pc (16-byte instructions: 1) */
} TraceLineFormat;

/* Parse one instruction line into *out (its static part, mask and addresses). False with
 * "what is wrong" in err (no file:line: the caller adds it). */
bool trace_parse_inst(const TraceLineFormat *f, char *line, Winst *out, char *err, size_t err_len);

/* Where one warp's instructions start in the file. */
typedef struct TraceWarpIndex {
    uint64_t off;  /* of its first instruction line */
    uint32_t line; /* that line's number */
    uint32_t n;    /* its instructions ("insts = n") */
} TraceWarpIndex;

/* A warp being streamed: its window on the file and its next instruction, parsed. */
typedef struct TraceWarp {
    bool live;
    uint32_t left;    /* instruction lines not yet read */
    uint8_t exec_op;  /* cur's class when executed (a partial EXIT runs as a no-op) */
    char *buf;        /* the window, TRACE_WINDOW + 1 bytes, allocated on first use */
    TraceLines lines;
    Winst cur;
} TraceWarp;

#define TRACE_WINDOW 2048u

struct TraceKernel {
    TraceSource src;
    FrontKernel fk;
    TraceLineFormat fmt;
    uint32_t n_ctas, wpc;    /* CTAs, warps per CTA */
    uint32_t n_tbs;          /* thread blocks in the file */
    uint32_t *cta_tb;        /* [n_ctas]: the CTA's thread block, in file order */
    TraceWarpIndex *index;   /* [n_tbs * wpc] */
    TraceWarp *warps;        /* [n_warp_ids] */
    uint32_t n_warp_ids;
    bool failed;
    char error[512];
};

/* Start streaming warp w of thread block tb into ws; false (k->error set) on an error. */
bool trace_warp_start(TraceKernel *k, TraceWarp *ws, uint32_t tb, uint32_t w);
/* Read ws's next instruction into ws->cur (the warp's last one: ws->left becomes 0). */
bool trace_warp_advance(TraceKernel *k, TraceWarp *ws);

#endif
