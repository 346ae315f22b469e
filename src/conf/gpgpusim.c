/* gpgpusim.c: the reader of GPGPU-Sim `gpgpusim.config` files (see gpgpusim.h).
 *
 * Syntax (GPGPU-Sim's option parser, 3.x and 4.x files): the file is a stream of
 * `-option value` pairs; '#' starts a comment, also after a value; a value in double quotes
 * may run over several lines (the line breaks and the indentation around them are dropped,
 * as in -gpgpu_dram_timing_opt of the GTX480 file). We require the value on the option's
 * line, which every GPGPU-Sim file does, so that a missing value is caught where it is.
 *
 * Meaning: one table, `options[]` (its lines are gpgpusim_options.def), lists every GPGPU-Sim
 * option warpsim knows. An entry with an apply function maps the option onto warpsim keys
 * (docs/config.md lists each mapping); an entry without one is a known option of a part
 * warpsim does not model (power, PTX-mode flags, statistics, operand collector, ...) and is
 * named in a note. Values are set with
 * config_set, so the ranges of the .def tables apply; a GPGPU-Sim value warpsim cannot
 * represent is either approximated with a note saying what is done instead, or an error.
 *
 * Units: GPGPU-Sim's core clock is the warp-issue clock (Fermi: half the 1400 MHz shader
 * clock), which is what gpu.core_mhz means; latencies are copied cycle for cycle. For the L2,
 * GPGPU-Sim's nsets/assoc are per memory sub-partition, as warpsim's l2.* are.
 *
 * The reader keeps no state outside the Reader on its stack. */
#include "conf/gpgpusim.h"

#include "base/base.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define VALUE_MAX 1024 /* longest value (the longest real ones are ~100 characters) */
#define ERR_MAX 512

typedef struct Reader {
    Config *c;
    const char *file;
    FILE *notes;  /* NULL: quiet */
    char *err;
    size_t err_len;
    int line;        /* line of the option being applied */
    const char *opt; /* its name, without the '-' */
    /* the memory pipeline ahead of the LD/ST unit, GPGPU-Sim's defaults until the file says */
    uint64_t id_oc_mem, oc_ex_mem, oc_units_mem;
} Reader;

/* ---- messages --------------------------------------------------------------------------- */

static int fail_at(Reader *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "<file>:<line>: <message>"; returns 0 so that handlers can `return fail(...)`. */
static int fail_at(Reader *r, int line, const char *fmt, ...)
{
    char msg[ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->err_len, "%s:%d: %s", r->file, line, msg);
    return 0;
}

/* "<file>:<line>: -<option>: <message>" for the option being applied. */
static int fail(Reader *r, const char *fmt, ...)
{
    char msg[ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fail_at(r, r->line, "-%s: %s", r->opt, msg);
}

/* "<file>:<line>: note: -<option>: <message>": an approximation of the option's value. */
static void note(Reader *r, const char *fmt, ...)
{
    if (!r->notes)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(r->notes, "%s:%d: note: -%s: ", r->file, r->line, r->opt);
    vfprintf(r->notes, fmt, ap);
    fputc('\n', r->notes);
    va_end(ap);
}

/* ---- setting warpsim keys ----------------------------------------------------------------- */

static int set(Reader *r, const char *key, const char *value)
{
    char e[ERR_MAX];
    if (config_set(r->c, key, value, e, sizeof e))
        return 1;
    return fail(r, "%s", e);
}

static int set_u(Reader *r, const char *key, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    return set(r, key, buf);
}

/* Key "<prefix>.<name>" of one module (cache "l1d"/"l2", alu group, ...). */
static int set_in(Reader *r, const char *prefix, const char *name, const char *value)
{
    char key[64];
    snprintf(key, sizeof key, "%s.%s", prefix, name);
    return set(r, key, value);
}

/* A whole-string non-negative integer, or an error naming what it is (what: the field of a
 * compound value, or NULL for the whole value). */
static int get_u(Reader *r, const char *what, const char *s, uint64_t *out)
{
    if (parse_u64(s, out))
        return 1;
    return fail(r, "%s%sexpected a non-negative integer, got '%s'", what ? what : "", what ? ": " : "", s);
}

/* Split s in place at sep into at most max fields; returns the count, or max + 1 if there
 * are more. Fields are trimmed. */
static int split(char *s, char sep, char **out, int max)
{
    int n = 0;
    for (char *p = s;; n++) {
        char *q = strchr(p, sep);
        if (n == max)
            return max + 1;
        if (q)
            *q = 0;
        out[n] = str_trim(p);
        if (!q)
            return n + 1;
        p = q + 1;
    }
}

/* ---- the simple mappings ----------------------------------------------------------------- */

/* An unsigned value copied to key. */
static int apply_uint(Reader *r, const char *v, const char *key)
{
    uint64_t u = 0;
    return get_u(r, NULL, v, &u) && set_u(r, key, u);
}

/* A GPGPU-Sim boolean (a number, non-zero true) copied to key. */
static int apply_bool(Reader *r, const char *v, const char *key)
{
    uint64_t u = 0;
    return get_u(r, NULL, v, &u) && set(r, key, u ? "true" : "false");
}

/* -gpgpu_compute_capability_major / _minor (which: "major" or "minor"): that part of
 * gpu.compute_capability, the other part kept. */
static int apply_cc(Reader *r, const char *v, const char *which)
{
    uint64_t u = 0;
    char cur[16], val[48];
    unsigned major = 0, minor = 0;
    if (!get_u(r, NULL, v, &u))
        return 0;
    config_format_option(&r->c->gpu, config_find("gpu.compute_capability", NULL), cur, sizeof cur);
    if (sscanf(cur, "%u.%u", &major, &minor) != 2)
        return fail(r, "gpu.compute_capability is '%s'", cur);
    if (u > 99)
        return fail(r, "expected at most 99, got %llu", (unsigned long long)u);
    if (which[1] == 'a')
        major = (unsigned)u;
    else
        minor = (unsigned)u;
    snprintf(val, sizeof val, "%u.%u", major, minor);
    return set(r, "gpu.compute_capability", val);
}

/* A string copied verbatim (the address mapping). */
static int apply_str(Reader *r, const char *v, const char *key) { return set(r, key, v); }

/* A buffer size GPGPU-Sim checks as `size < N` before it takes a reply: with 0 it never would,
 * while 0 is warpsim's "unbounded", so 0 is an error. */
static int apply_buffer(Reader *r, const char *v, const char *key)
{
    uint64_t u = 0;
    if (!get_u(r, NULL, v, &u))
        return 0;
    if (u == 0)
        return fail(r, "expected at least 1 (with 0, GPGPU-Sim would never take a reply)");
    return set_u(r, key, u);
}

/* A queue size where GPGPU-Sim's 0 means unlimited: warpsim's queues are bounded, so 0
 * becomes the option's maximum. */
static int apply_queue(Reader *r, const char *v, const char *key)
{
    uint64_t u = 0;
    if (!get_u(r, NULL, v, &u))
        return 0;
    if (u == 0) {
        const OptDesc *d = config_find(key, NULL);
        CHECK(d);
        note(r, "0 (unlimited in GPGPU-Sim) modelled as %s = %.0f, the largest warpsim allows", key, d->hi);
        u = (uint64_t)d->hi;
    }
    return set_u(r, key, u);
}

/* -gpgpu_dram_partition_queues <icnt->L2>:<L2->DRAM>:<DRAM->L2>:<L2->icnt>: the first and last
 * are mem.l2_in_queue and mem.l2_out_queue; warpsim's L2 sends its DRAM traffic straight into
 * the DRAM latency line and the controller's queue (dram.queue), and fills from the return
 * queue (dram.return_queue), so the middle two are checked and noted. */
static int apply_partition_queues(Reader *r, const char *v, const char *key)
{
    (void)key;
    char buf[VALUE_MAX], *f[4];
    snprintf(buf, sizeof buf, "%s", v);
    uint64_t u;
    int ok = split(buf, ':', f, 4) == 4;
    for (int i = 0; ok && i < 4; i++)
        ok = parse_u64(f[i], &u);
    if (!ok)
        return fail(r, "expected <icnt-L2>:<L2-DRAM>:<DRAM-L2>:<L2-icnt> queue sizes (e.g. 64:64:64:64), got '%s'", v);
    note(r, "the L2-to-DRAM and DRAM-to-L2 queues (%s, %s) are not modelled: L2 misses enter the DRAM latency line "
            "at once and wait in the controller's queue (dram.queue)", f[1], f[2]);
    return apply_queue(r, f[0], "mem.l2_in_queue") && apply_queue(r, f[3], "mem.l2_out_queue");
}

/* -gpgpu_pipeline_widths ID_OC_SP,ID_OC_DP,ID_OC_INT,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,OC_EX_DP,
 * OC_EX_INT,OC_EX_SFU,OC_EX_MEM,EX_WB[,...] (GPGPU-Sim 4.x order): the memory pipeline's two
 * registers count towards sm.ldst_queue; the others are noted. */
static int apply_pipeline_widths(Reader *r, const char *v, const char *key)
{
    (void)key;
    char buf[VALUE_MAX], *f[16];
    snprintf(buf, sizeof buf, "%s", v);
    int n = split(buf, ',', f, 16); /* 17: more than 16 fields */
    uint64_t u[16];
    int ok = n >= 10 && n <= 16;
    for (int i = 0; ok && i < n; i++)
        ok = parse_u64(f[i], &u[i]);
    if (!ok)
        return fail(r, "expected 10 to 16 comma-separated widths ID_OC_SP,ID_OC_DP,ID_OC_INT,ID_OC_SFU,ID_OC_MEM,"
                       "OC_EX_SP,OC_EX_DP,OC_EX_INT,OC_EX_SFU,OC_EX_MEM,..., got '%s'", v);
    r->id_oc_mem = u[4];
    r->oc_ex_mem = u[9];
    note(r, "only the memory pipeline's widths (ID_OC_MEM %llu, OC_EX_MEM %llu) are modelled, in sm.ldst_queue",
         (unsigned long long)u[4], (unsigned long long)u[9]);
    return 1;
}

/* -gpgpu_operand_collector_num_units_mem: counts towards sm.ldst_queue. */
static int apply_oc_units_mem(Reader *r, const char *v, const char *key)
{
    (void)key;
    return get_u(r, NULL, v, &r->oc_units_mem);
}

/* -gpgpu_cache:il1 [N:]<nsets>:<bsize>:<assoc>,<policies>,<mshr type>:<entries>:<merge>,...:
 * the instruction cache's geometry and its lines in flight (the MSHR entries). */
static int apply_icache(Reader *r, const char *v, const char *key)
{
    (void)key;
    char buf[VALUE_MAX], *part[4], *f[4];
    snprintf(buf, sizeof buf, "%s", v);
    int np = split(buf, ',', part, 4);
    int nf = np >= 3 ? split(part[0], ':', f, 4) : 0;
    uint64_t u[3], mshr = 0;
    int first = nf == 4 ? 1 : 0; /* an optional type letter */
    int ok = nf - first == 3 && (nf == 3 || !strcmp(f[0], "N"));
    for (int i = 0; ok && i < 3; i++)
        ok = parse_u64(f[first + i], &u[i]);
    char *m[3];
    if (ok)
        ok = split(part[2], ':', m, 3) == 3 && parse_u64(m[1], &mshr);
    if (!ok)
        return fail(r, "expected [N:]<nsets>:<bsize>:<assoc>,<policies>,<mshr>:<entries>:<merge>,... , got '%s'", v);
    return set_u(r, "sm.icache_sets", u[0]) && set_u(r, "sm.icache_line", u[1]) &&
           set_u(r, "sm.icache_assoc", u[2]) && set_u(r, "sm.icache_mshr", mshr);
}

/* -gpgpu_clock_domains <core>:<icnt>:<l2>:<dram> in MHz. */
static int apply_clocks(Reader *r, const char *v, const char *key)
{
    static const char *const keys[4] = {"gpu.core_mhz", "gpu.icnt_mhz", "gpu.l2_mhz", "gpu.dram_mhz"};
    char buf[VALUE_MAX], *f[4];
    snprintf(buf, sizeof buf, "%s", v);
    int ok = split(buf, ':', f, 4) == 4;
    for (int i = 0; ok && i < 4; i++) {
        double x;
        ok = parse_f64(f[i], &x) && x > 0;
    }
    if (!ok)
        return fail(r, "expected <core>:<icnt>:<l2>:<dram> clock frequencies in MHz "
                       "(e.g. 700.0:700.0:700.0:924.0), got '%s'", v);
    for (int i = 0; i < 4; i++)
        if (!set(r, keys[i], f[i]))
            return 0;
    return 1;
}

/* -gpgpu_shader_core_pipeline <threads per SM>:<warp size>. */
static int apply_pipeline(Reader *r, const char *v, const char *key)
{
    char buf[VALUE_MAX], *f[2];
    snprintf(buf, sizeof buf, "%s", v);
    uint64_t threads, warp;
    if (split(buf, ':', f, 2) != 2 || !parse_u64(f[0], &threads) || !parse_u64(f[1], &warp))
        return fail(r, "expected <threads per SM>:<warp size> (e.g. 1536:32), got '%s'", v);
    if (warp != 32)
        return fail(r, "warp size %llu: warpsim models 32-thread warps only (expected <threads>:32)",
                    (unsigned long long)warp);
    if (threads % 32)
        return fail(r, "%llu threads per SM is not a whole number of 32-thread warps", (unsigned long long)threads);
    return set_u(r, "sm.max_threads", threads) && set_u(r, "sm.max_warps", threads / 32);
}

/* -gpgpu_scheduler lrr | gto | two_level_active:<active warps>[:<inner>:<outer>]. */
static int apply_scheduler(Reader *r, const char *v, const char *key)
{
    if (!strcmp(v, "gto") || !strcmp(v, "lrr"))
        return set(r, "sm.sched", v);
    char buf[VALUE_MAX], *f[4];
    snprintf(buf, sizeof buf, "%s", v);
    int n = split(buf, ':', f, 4);
    uint64_t active;
    if (!strcmp(f[0], "two_level_active") && n >= 2 && n <= 4 && parse_u64(f[1], &active)) {
        if (n > 2)
            note(r, "the prioritisation fields after the active-warp count are not configurable; "
                    "warpsim's twolevel uses its own order");
        return set(r, "sm.sched", "twolevel") && set_u(r, "sm.sched.twolevel.active", active);
    }
    return fail(r, "expected lrr, gto or two_level_active:<active warps>:<inner>:<outer>, got '%s'", v);
}

/* -ptx_opcode_latency_<grp> / -ptx_opcode_initiation_<grp>: ADD,MAX,MUL,MAD,DIV[,SHFL].
 * key is "<grp>:<lat|ii>". MAX (min/max) and SHFL have no class of their own in warpsim
 * (min/max run in the add class), so those two entries are read but used nowhere. */
static int apply_alu(Reader *r, const char *v, const char *key)
{
    static const char *const cls[6] = {"add", NULL, "mul", "mad", "div", NULL};
    char grp[8], kind[4], buf[VALUE_MAX], *f[6];
    CHECK(sscanf(key, "%7[a-z]:%3s", grp, kind) == 2);
    snprintf(buf, sizeof buf, "%s", v);
    int n = split(buf, ',', f, 6);
    if (n < 5 || n > 6)
        return fail(r, "expected ADD,MAX,MUL,MAD,DIV[,SHFL]: 5 or 6 comma-separated cycle counts, got '%s'", v);
    for (int i = 0; i < n; i++) {
        uint64_t u;
        char name[32];
        if (!get_u(r, "cycle count", f[i], &u))
            return 0;
        if (!cls[i])
            continue;
        snprintf(name, sizeof name, "%s_%s_%s", grp, cls[i], kind);
        if (!set_in(r, "alu", name, f[i]))
            return 0;
    }
    return 1;
}

/* -gpgpu_dram_scheduler 0 (FIFO) | 1 (FR-FCFS). */
static int apply_dram_sched(Reader *r, const char *v, const char *key)
{
    if (!strcmp(v, "0"))
        return set(r, "dram.sched", "fcfs");
    if (!strcmp(v, "1"))
        return set(r, "dram.sched", "frfcfs");
    return fail(r, "expected 0 (FIFO) or 1 (FR-FCFS), got '%s'", v);
}

/* Counts of separate DP / INT pipelines: warpsim runs those instructions elsewhere (key
 * names the pipelines that do). 0, Fermi's value, is exactly warpsim's model. */
static int apply_units_elsewhere(Reader *r, const char *v, const char *key)
{
    uint64_t u = 0;
    if (!get_u(r, NULL, v, &u))
        return 0;
    if (u)
        note(r, "warpsim has no separate pipelines of this kind; these instructions run on the %s pipelines", key);
    return 1;
}

/* Options whose only value warpsim models is one constant (key holds it). */
static int apply_only(Reader *r, const char *v, const char *key)
{
    if (!strcmp(v, key))
        return 1;
    return fail(r, "only %s is modelled by warpsim, got '%s'", key, v);
}

/* Index-hashing options where warpsim implements one value exactly; arg is
 * "<that value>|<what warpsim does>" and any other value is approximated by it. */
static int apply_exact_or_note(Reader *r, const char *v, const char *arg)
{
    const char *bar = strchr(arg, '|');
    uint64_t u = 0;
    CHECK(bar);
    if (!get_u(r, NULL, v, &u))
        return 0;
    if (strlen(v) != (size_t)(bar - arg) || strncmp(v, arg, (size_t)(bar - arg)))
        note(r, "%s modelled as %.*s: %s", v, (int)(bar - arg), arg, bar + 1);
    return 1;
}

/* ---- -gpgpu_dram_timing_opt ---------------------------------------------------------------- */

/* The names in GPGPU-Sim's order (its positional form uses the same order). */
static const struct { const char *name, *key; } timing_keys[] = {
    {"nbk", "dram.n_banks"}, {"CCD", "dram.tCCD"}, {"RRD", "dram.tRRD"},   {"RCD", "dram.tRCD"},
    {"RAS", "dram.tRAS"},    {"RP", "dram.tRP"},   {"RC", "dram.tRC"},     {"CL", "dram.tCL"},
    {"WL", "dram.tWL"},      {"CDLR", "dram.tCDLR"}, {"WR", "dram.tWR"},   {"nbkgrp", "dram.n_bank_groups"},
    {"CCDL", "dram.tCCDL"},  {"RTPL", "dram.tRTPL"},
};
enum { T_COUNT = ARRAY_LEN(timing_keys) };

static int timing_index(const char *name)
{
    for (int i = 0; i < T_COUNT; i++)
        if (!strcmp(timing_keys[i].name, name))
            return i;
    return -1;
}

/* "nbk=16:CCD=2:...:RTPL=2" or the positional "16:2:...:2". Fields not given keep their
 * values. Bank-group-less timing (nbkgrp=1, CCDL=0, RTPL=0) needs no translation: warpsim,
 * like GPGPU-Sim, spaces any two column commands by tCCD and those of one group by tCCDL. */
static int apply_timing(Reader *r, const char *v, const char *key)
{
    char buf[VALUE_MAX], *f[T_COUNT];
    uint64_t val[T_COUNT] = {0};
    int seen[T_COUNT] = {0};
    snprintf(buf, sizeof buf, "%s", v);
    int n = split(buf, ':', f, T_COUNT);
    if (n > T_COUNT)
        return fail(r, "more than %d fields; expected name=cycles fields separated by ':'", T_COUNT);
    int positional = !strchr(v, '=');
    if (positional && n != T_COUNT)
        return fail(r, "expected nbk=<n>:CCD=<c>:... or all %d positional fields, got '%s'", T_COUNT, v);
    for (int i = 0; i < n; i++) {
        char *name = f[i], *num = f[i];
        int idx = i;
        if (!positional) {
            char *eq = strchr(f[i], '=');
            if (!eq)
                return fail(r, "field '%s': expected name=cycles", f[i]);
            *eq = 0;
            name = str_trim(f[i]);
            num = str_trim(eq + 1);
            idx = timing_index(name);
            if (idx < 0)
                return fail(r, "unknown timing '%s' (expected nbk, CCD, RRD, RCD, RAS, RP, RC, CL, WL, CDLR, WR, "
                               "nbkgrp, CCDL or RTPL)", name);
        }
        if (!get_u(r, positional ? timing_keys[i].name : name, num, &val[idx]))
            return 0;
        seen[idx] = 1;
    }
    for (int i = 0; i < T_COUNT; i++)
        if (seen[i] && !set_u(r, timing_keys[i].key, val[i]))
            return 0;
    return 1;
}

/* ---- -gpgpu_cache:dl1 / -gpgpu_cache:dl2 ---------------------------------------------------- */

#define CACHE_FORMAT                                                                               \
    "[N|S:]<nsets>:<bsize>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>:<index>,<mshr>:<entries>:<merge>," \
    "<miss queue>[:<fifo>][,<port width>]"

/* One policy letter: a field of exactly one character. */
static int letter(Reader *r, const char *what, const char *field, char *out)
{
    if (strlen(field) != 1)
        return fail(r, "%s: expected one letter, got '%s'", what, field);
    *out = field[0];
    return 1;
}

/* The policy group <rep>:<wr>:<alloc>:<wr_alloc>[:<index>] of cache `cache` ("l1d"/"l2"). */
static int cache_policies(Reader *r, const char *cache, char **f, int n)
{
    int l1 = !strcmp(cache, "l1d");
    char rep = 0, wr = 0, alloc = 0, wa = 0, idx = 'L';
    if (!letter(r, "replacement policy", f[0], &rep) || !letter(r, "write policy", f[1], &wr) ||
        !letter(r, "allocation policy", f[2], &alloc) || !letter(r, "write-allocate policy", f[3], &wa) ||
        (n == 5 && !letter(r, "set-index function", f[4], &idx)))
        return 0;

    if (rep != 'L' && rep != 'F')
        return fail(r, "replacement policy '%c': expected L (LRU) or F (FIFO)", rep);
    if (!set_in(r, cache, "repl", rep == 'L' ? "lru" : "fifo"))
        return 0;

    /* warpsim's L1D is write-evict / no-allocate for global stores; its L2 is write-back /
     * write-allocate (config_validate insists). GPGPU-Sim's L policy is local write-back,
     * global write-evict: for global stores exactly warpsim's evict. */
    if (!strchr("RBTEL", wr))
        return fail(r, "write policy '%c': expected R, B, T, E or L", wr);
    if (l1 && wr != 'E' && wr != 'L')
        note(r, "write policy %c modelled as E (global stores evict the line on a hit)", wr);
    if (!l1 && wr != 'B')
        note(r, "write policy %c modelled as B (write-back)", wr);
    if (!set_in(r, cache, "write", l1 ? "evict" : "back"))
        return 0;

    if (alloc != 'm' && alloc != 'f' && alloc != 's')
        return fail(r, "allocation policy '%c': expected m (on miss), f (on fill) or s (streaming)", alloc);
    if (alloc == 's')
        note(r, "allocation policy s (streaming) modelled as f (allocate on fill)");
    if (!set_in(r, cache, "alloc", alloc == 'm' ? "miss" : "fill"))
        return 0;

    if (!strchr("NWFL", wa))
        return fail(r, "write-allocate policy '%c': expected N, W, F or L", wa);
    if (l1 && wa != 'N')
        note(r, "write-allocate policy %c modelled as N: the L1D does not allocate on a store miss", wa);
    if (!l1 && wa != 'W')
        note(r, "write-allocate policy %c modelled as W: the L2 allocates on a store miss", wa);

    const char *index = NULL;
    switch (idx) {
    case 'L': index = "conv"; break;
    case 'H': index = "fermi"; break;
    case 'X': index = "bxor"; break;
    case 'P': index = "ipoly"; break;
    case 'C':
        note(r, "set-index function C (custom, a source edit in GPGPU-Sim) modelled as L (conv)");
        index = "conv";
        break;
    default:
        return fail(r, "set-index function '%c': expected L (linear), H (Fermi hash), X (XOR), P (IPOLY) or C", idx);
    }
    return set_in(r, cache, "index", index);
}

/* The MSHR group <type>:<entries>:<merge>. */
static int cache_mshr(Reader *r, const char *cache, char **f)
{
    char type = 0;
    uint64_t u = 0;
    if (!letter(r, "MSHR type", f[0], &type))
        return 0;
    if (!strchr("ASFT", type))
        return fail(r, "MSHR type '%c': expected A (associative), S (sector), F or T (texture FIFO)", type);
    /* S (sector) entries of a normal cache wait for a line's sector replies from a sectored
     * L2: warpsim's requesters gather a request's sector replies (mem.sector_replies, set for
     * every GPGPU-Sim file), so S and A behave alike (an A entry of a sectored cache fetches
     * one sector, whose reply it takes as it comes). */
    if (type != 'A' && type != 'S')
        note(r, "MSHR type %c modelled as A (associative)", type);
    return get_u(r, "MSHR entries", f[1], &u) && set_in(r, cache, "mshr_entries", f[1]) &&
           get_u(r, "MSHR merge", f[2], &u) && set_in(r, cache, "mshr_max_merge", f[2]);
}

static int apply_cache(Reader *r, const char *v, const char *cache)
{
    char buf[VALUE_MAX], *g[5], *geo[4], *pol[5], *mshr[3], *mq[2];
    uint64_t u = 0;
    if (!strcmp(v, "none"))
        return fail(r, "a disabled cache ('none') is not modelled; expected " CACHE_FORMAT);
    snprintf(buf, sizeof buf, "%s", v);
    int ng = split(buf, ',', g, 5);
    int ngeo = ng >= 4 && ng <= 5 ? split(g[0], ':', geo, 4) : 0;
    int npol = ngeo ? split(g[1], ':', pol, 5) : 0;
    int nmshr = ngeo ? split(g[2], ':', mshr, 3) : 0;
    int nmq = ngeo ? split(g[3], ':', mq, 2) : 0;
    if (ngeo == 3 && isalpha((unsigned char)geo[0][0]))
        ngeo = 0; /* a type letter and only two numbers: a field is missing */
    if (ngeo < 3 || ngeo > 4 || npol < 4 || npol > 5 || nmshr != 3 || nmq < 1 || nmq > 2)
        return fail(r, "expected " CACHE_FORMAT ", got '%s'", v);

    char **num = geo; /* nsets, bsize, assoc */
    char type = 'N';
    if (ngeo == 4) {
        if (!letter(r, "cache type", geo[0], &type))
            return 0;
        if (type != 'N' && type != 'S')
            return fail(r, "cache type '%c': expected N (normal) or S (sectored)", type);
        num = geo + 1;
    }
    /* GPGPU-Sim 4.x's sector cache: 32-byte sectors (SECTOR_SIZE) */
    if (!set_in(r, cache, "sector_bytes", type == 'S' ? "32" : "0"))
        return 0;
    uint64_t bsize = 0;
    if (!get_u(r, "nsets", num[0], &u) || !get_u(r, "bsize", num[1], &bsize) || !get_u(r, "assoc", num[2], &u) ||
        !set_in(r, cache, "n_sets", num[0]) || !set_in(r, cache, "line_bytes", num[1]) ||
        !set_in(r, cache, "assoc", num[2]))
        return 0;
    if (!cache_policies(r, cache, pol, npol) || !cache_mshr(r, cache, mshr))
        return 0;
    if (!get_u(r, "miss queue", mq[0], &u) || !set_in(r, cache, "miss_queue", mq[0]))
        return 0;
    /* The result-FIFO size only matters to texture FIFO MSHRs, which are modelled as A. */
    if (nmq == 2 && !get_u(r, "fifo entries", mq[1], &u))
        return 0;
    /* GPGPU-Sim's data port width (0: the line size) splits a line access into several
     * array cycles; warpsim moves a line, or in a sectored cache a sector, in one access. */
    uint64_t port;
    if (ng == 5 && !get_u(r, "data port width", g[4], &port))
        return 0;
    if (ng == 5 && port && port != bsize && !(type == 'S' && port == 32))
        note(r, "data port width %llu B not modelled (a line moves in one access); ignored", (unsigned long long)port);
    return 1;
}

/* ---- the option table ------------------------------------------------------------------- */

typedef int (*ApplyFn)(Reader *r, const char *value, const char *arg);

typedef struct GsOption {
    const char *name; /* without the '-'; a trailing '*' matches any suffix */
    ApplyFn apply;    /* NULL: known, not modelled */
    const char *arg;  /* apply's argument (a key, a cache, ...) */
    const char *doc;  /* what it maps to, or the part warpsim does not model */
} GsOption;

#define MAP(name, fn, arg, doc) {name, fn, arg, doc}
#define NOT(name, doc) {name, NULL, NULL, doc}

static const GsOption options[] = {
#include "conf/gpgpusim_options.def"
};

static const GsOption *find_option(const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(options); i++) {
        const char *o = options[i].name;
        size_t len = strlen(o);
        if (len && o[len - 1] == '*' ? !strncmp(o, name, len - 1) : !strcmp(o, name))
            return &options[i];
    }
    return NULL;
}

void gpgpusim_help(FILE *f)
{
    for (size_t i = 0; i < ARRAY_LEN(options); i++)
        fprintf(f, "  -%-42s %s%s\n", options[i].name, options[i].apply ? "-> " : "not modelled: ",
                options[i].doc);
}

/* ---- tokens ------------------------------------------------------------------------------ */

typedef struct Lexer {
    const char *p;
    int line;
} Lexer;

/* The next token into buf (a word, or a quoted value without its quotes). Returns 1, 0 at the
 * end of the text, or -1 on an error (in r->err). *tok_line: the line it starts on. */
static int lex(Reader *r, Lexer *lx, char *buf, size_t cap, int *tok_line)
{
    const char *p = lx->p;
    for (;; p++) {
        if (*p == '\n')
            lx->line++;
        else if (*p == '#')
            while (p[1] && p[1] != '\n')
                p++;
        else if (!isspace((unsigned char)*p))
            break;
    }
    *tok_line = lx->line;
    if (!*p) {
        lx->p = p;
        return 0;
    }
    size_t n = 0;
    if (*p == '"') {
        for (p++; *p != '"'; p++) {
            if (!*p) {
                fail_at(r, *tok_line, "unterminated quote: the value opened here has no closing '\"'");
                return -1;
            }
            if (*p == '\n') { /* a continued value: drop the break and the indentation around it */
                lx->line++;
                while (n && isspace((unsigned char)buf[n - 1]))
                    n--;
                while (p[1] == ' ' || p[1] == '\t')
                    p++;
                continue;
            }
            if (n + 1 >= cap) {
                fail_at(r, *tok_line, "value longer than %zu characters", cap - 1);
                return -1;
            }
            buf[n++] = *p;
        }
        p++;
        if (*p && !isspace((unsigned char)*p) && *p != '#') {
            fail_at(r, lx->line, "expected a space or the end of the line after the closing quote");
            return -1;
        }
    } else {
        for (; *p && !isspace((unsigned char)*p) && *p != '#'; p++) {
            if (n + 1 >= cap) {
                fail_at(r, *tok_line, "token longer than %zu characters", cap - 1);
                return -1;
            }
            buf[n++] = *p;
        }
    }
    buf[n] = 0;
    lx->p = p;
    return 1;
}

/* ---- the reader -------------------------------------------------------------------------- */

static int load_text(Reader *r, const char *text)
{
    Lexer lx = {text, 1};
    char opt[VALUE_MAX], val[VALUE_MAX];
    int opt_line, val_line, got;
    while ((got = lex(r, &lx, opt, sizeof opt, &opt_line)) == 1) {
        if (opt[0] != '-' || !opt[1])
            return fail_at(r, opt_line, "expected '-option value', got '%s'", opt);
        got = lex(r, &lx, val, sizeof val, &val_line);
        if (got < 0)
            return 0;
        if (got == 0 || val_line != opt_line)
            return fail_at(r, opt_line, "%s: missing value (GPGPU-Sim options take one value on the same line)", opt);
        const GsOption *o = find_option(opt + 1);
        if (!o)
            return fail_at(r, opt_line, "unknown GPGPU-Sim option %s (warpsim neither models nor knows it)", opt);
        r->line = opt_line;
        r->opt = opt + 1;
        if (!o->apply) {
            if (r->notes)
                fprintf(r->notes, "%s:%d: note: %s is not modelled by warpsim; ignored\n", r->file, opt_line, opt);
        } else if (!o->apply(r, val, o->arg)) {
            return 0;
        }
    }
    return got == 0;
}

int gpgpusim_load_text(Config *c, const char *name, const char *text, FILE *notes, char *err, size_t err_len)
{
    Reader r = {c, name, notes, err, err_len, 0, "", .id_oc_mem = 1, .oc_ex_mem = 1, .oc_units_mem = 2};
    /* What any GPGPU-Sim 4.x file means unless its options say otherwise: every L1D access
     * passes the L1 latency queue (-gpgpu_l1_latency cycles, GPGPU-Sim's default 1), copies
     * warm the L2 (-gpgpu_perf_sim_memcpy, default 1), warps issue from two-instruction
     * buffers that one fetch a cycle refills (its front end; the buffer size is fixed), a
     * sectored L2 replies per sector (memory_sub_partition::breakdown_request_to_sector_requests;
     * the L1D's and instruction cache's S-type MSHRs gather them), and replies reach the LD/ST
     * unit through the cluster's ejection buffer (-gpgpu_n_cluster_ejection_buffer_size, default
     * 8) and its response FIFO (-gpgpu_n_ldst_response_buffer_size, default 2); the SM's
     * schedulers take turns at going first (shader_core_ctx::issue's Issue_Prio), and a scheduler may
     * issue two instructions of its warp a cycle to different units (-gpgpu_max_insn_issue_per_warp,
     * default 2). */
    if (!set(&r, "sm.l1d_access", "queued") || !set(&r, "mem.copy_warms_l2", "true") ||
        !set(&r, "sm.ibuffer", "2") || !set(&r, "mem.sector_replies", "true") ||
        !set(&r, "icnt.ejection_buffer", "8") || !set(&r, "sm.response_fifo", "2") ||
        !set(&r, "sm.sched_rotate", "true") || !set(&r, "sm.issue_per_warp", "2"))
        return 0;
    if (!load_text(&r, text))
        return 0;
    /* A memory instruction issued while the LD/ST unit is busy waits in ID_OC_MEM, a memory
     * operand collector unit or OC_EX_MEM: that many can be ahead of the unit. */
    r.line = 0;
    r.opt = "gpgpu_pipeline_widths";
    return set_u(&r, "sm.ldst_queue", r.id_oc_mem + r.oc_units_mem + r.oc_ex_mem);
}

int gpgpusim_load(Config *c, const char *path, FILE *notes, char *err, size_t err_len)
{
    char *text = read_file(path, NULL);
    if (!text) {
        snprintf(err, err_len, "%s: cannot read GPGPU-Sim config file: %s", path, read_file_error(errno));
        return 0;
    }
    int ok = gpgpusim_load_text(c, path, text, notes, err, err_len);
    free(text);
    return ok;
}

void config_load_gpgpusim_flags(Config *c, const char *path, unsigned flags)
{
    char err[ERR_MAX + 64];
    if (!gpgpusim_load(c, path, (flags & GPGPUSIM_QUIET) ? NULL : stderr, err, sizeof err))
        fatal("%s", err);
}

void config_load_gpgpusim(Config *c, const char *path) { config_load_gpgpusim_flags(c, path, 0); }
