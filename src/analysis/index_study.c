/* index_study.c: the set-index metrics of the FUP paper (Wang et al., "Eliminating Intra-Warp
 * Conflict Misses in GPU", eqs. 1 and 2; Wang's thesis, sec. 3.2.1 and 3.3.4) and the
 * `warpsim index` command, which applies every registered index function to a synthetic
 * column-major strided stream and prints its average intra-warp concentration and its balance:
 * the paper's Fig. 3/Fig. 9 in table form, without timing.
 *
 * The stream: warp w, iteration k, lane l is thread t = w*lanes + l; it walks its own row r
 * (r = t, or t mod rows for a preset's matrix) of an array of elem-byte elements:
 *     address = base + r*row_bytes + k*elem                      (A[t*STRIDE + k])
 * which is the main loop of PolyBench/GPU's ATAX, BICG, MVT, GESUMMV (thread i, loop j over
 * A[i*N + j]) and the strided operands of SYRK/SYR2K (thread j, loop k over a[j*M + k]).
 * Only these strided loads are generated: the uniform (x[j], a[i*M+k]) and coalesced loads of
 * those loops touch one line and have concentration 1 under every function, and the paper's
 * averages (32 for ATAX under CONV) count only the divergent ("bursty") loads.
 * Output, one line per registered function:
 *     <name> concentration <x> balance <y> sets <s> over_assoc <z>
 * x: eq. 1 averaged over loads; y: eq. 2 over the per-set access counts of the whole stream;
 * s: distinct sets a load touches, averaged (the paper states CONV's SYRK/SYR2K result as
 * "2 and 4 sets"); z: fraction of loads that put more lines into one set than the cache has
 * ways (those loads evict their own lines: intra-warp conflicts). Lines starting with '#'
 * describe the stream. */
#include "analysis/index_study.h"

#include "base/base.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- metrics ---------------------------------------------------------------------------- */

/* Distinct line addresses of a load, in first-seen order; returns their number. */
static uint32_t study_lines(unsigned line_bits, const uint64_t *lane_addrs, uint32_t n_lanes, uint64_t *lines)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < n_lanes; i++) {
        uint64_t line = lane_addrs[i] >> line_bits;
        uint32_t j = 0;
        while (j < n && lines[j] != line)
            j++;
        if (j == n)
            lines[n++] = line;
    }
    return n;
}

double index_study_load_concentration(const IndexFn *fn, const uint64_t *lane_addrs, uint32_t n_lanes,
                                      uint32_t *n_acc_out, uint32_t *n_touched_out)
{
    CHECK(n_lanes <= INDEX_STUDY_MAX_LINES);
    uint64_t lines[INDEX_STUDY_MAX_LINES];
    uint32_t sets[INDEX_STUDY_MAX_LINES];
    uint32_t n = study_lines(fn->line_bits, lane_addrs, n_lanes, lines);
    for (uint32_t i = 0; i < n; i++)
        sets[i] = index_fn_set(fn, lines[i] << fn->line_bits);
    uint32_t touched = index_metric_sets_touched(sets, n);
    if (n_acc_out)
        *n_acc_out = n;
    if (n_touched_out)
        *n_touched_out = touched;
    return index_metric_concentration(n, touched);
}

double index_study_balance(const uint64_t *set_counts, uint32_t n_sets)
{
    double m = 0, weights = 0;
    for (uint32_t j = 0; j < n_sets; j++) {
        double b = (double)set_counts[j];
        m += b;
        weights += b * (b + 1) / 2;
    }
    if (m == 0 || n_sets == 0)
        return 1.0;
    return weights / (m / (2.0 * n_sets) * (m + 2.0 * n_sets - 1));
}

/* ---- the `warpsim index` command -------------------------------------------------------- */

/* A PolyBench/GPU main loop whose strided loads walk rows of n x n matrices of floats. */
typedef struct StudyPreset {
    const char *name;
    uint64_t n;        /* matrix width = rows = elements per row (the paper's input size) */
    uint32_t n_arrays; /* strided loads per iteration, one per matrix, matrices back to back */
    const char *expr;
} StudyPreset;

static const StudyPreset study_presets[] = {
    {"atax", 8192, 1, "atax_kernel1: tmp[i] += A[i*NY + j] * x[j]"},
    {"bicg", 8192, 1, "bicg_kernel2: q[i] += A[i*NY + j] * p[j]"},
    {"mvt", 8192, 1, "mvt_kernel1: x1[i] += a[i*N + j] * y_1[j]"},
    {"gesummv", 4096, 2, "gesummv_kernel: tmp[i] += A[i*N + j] * x[j]; y[i] += B[i*N + j] * x[j]"},
    {"syrk", 512, 1, "syrk_kernel: c[i*N + j] += alpha * a[i*M + k] * a[j*M + k]"},
    {"syr2k", 256, 2, "syr2k_kernel: c[i*N + j] += alpha*a[i*M + k]*b[j*M + k] + alpha*b[i*M + k]*a[j*M + k]"},
};

typedef struct StudyArgs {
    uint64_t stride, sets, line, assoc, lanes, warps, iterations, base, elem;
    bool warps_given, iterations_given;
    const StudyPreset *preset;
} StudyArgs;

static void study_usage(FILE *f)
{
    fprintf(f, "usage: warpsim index (--stride BYTES | --pattern NAME) [--sets N] [--line BYTES]\n"
               "                     [--assoc WAYS] [--lanes N] [--warps N] [--iterations N]\n"
               "                     [--base ADDR] [--elem BYTES]\n"
               "  Average intra-warp concentration and balance of every set-index function for the\n"
               "  loads A[tid*STRIDE + k*ELEM] (tid = warp*lanes + lane, k = iteration).\n"
               "  --stride BYTES    distance between consecutive threads' rows (suffix K, M, G allowed)\n"
               "  --pattern NAME    a PolyBench/GPU main loop:");
    for (size_t i = 0; i < ARRAY_LEN(study_presets); i++)
        fprintf(f, " %s", study_presets[i].name);
    fprintf(f, "\n  defaults: --sets 32 --line 128 --assoc 8 --lanes 32 --base 0 --elem 4;\n"
               "  --warps 1 --iterations 1 with --stride, --warps 16 --iterations 64 with --pattern\n");
}

/* A number with an optional binary suffix K, M or G. */
static bool study_parse_size(const char *s, uint64_t *out)
{
    size_t len = strlen(s);
    unsigned shift = 0;
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len + 1);
    switch (buf[len - 1]) {
    case 'K': case 'k': shift = 10; break;
    case 'M': case 'm': shift = 20; break;
    case 'G': case 'g': shift = 30; break;
    default: break;
    }
    if (shift)
        buf[len - 1] = 0;
    uint64_t v;
    if (!parse_u64(buf, &v) || (shift && v > (UINT64_MAX >> shift)))
        return false;
    *out = v << shift;
    return true;
}

typedef struct StudyOpt {
    const char *name;
    size_t offset;
    uint64_t lo, hi;
    bool pow2;
} StudyOpt;

static const StudyOpt study_opts[] = {
    {"--stride", offsetof(StudyArgs, stride), 1, (uint64_t)1 << 40, false},
    {"--sets", offsetof(StudyArgs, sets), 1, 1048576, true},
    {"--line", offsetof(StudyArgs, line), 4, 4096, true},
    {"--assoc", offsetof(StudyArgs, assoc), 1, 1024, false},
    {"--lanes", offsetof(StudyArgs, lanes), 1, INDEX_STUDY_MAX_LINES, false},
    {"--warps", offsetof(StudyArgs, warps), 1, 1048576, false},
    {"--iterations", offsetof(StudyArgs, iterations), 1, 1048576, false},
    {"--base", offsetof(StudyArgs, base), 0, (uint64_t)1 << 48, false},
    {"--elem", offsetof(StudyArgs, elem), 1, 4096, false},
};

/* Most loads one run may generate, so that a typo cannot make the command run for hours. */
#define STUDY_MAX_LOADS ((uint64_t)1 << 20)

/* One-line error for bad arguments; returns the exit status 1. */
static int study_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int study_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("warpsim index: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

static int study_parse(int argc, char **argv, StudyArgs *a, bool *help)
{
    memset(a, 0, sizeof *a);
    a->sets = 32;
    a->line = 128;
    a->assoc = 8;
    a->lanes = 32;
    a->warps = 1;
    a->iterations = 1;
    a->elem = 4;
    *help = false;
    for (int i = 1; i < argc; i++) {
        char name[32];
        const char *arg = argv[i], *value = NULL;
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            *help = true;
            return 0;
        }
        if (strncmp(arg, "--", 2) || name_len >= sizeof name)
            return study_error("unexpected argument '%s' (see warpsim index --help)", arg);
        memcpy(name, arg, name_len);
        name[name_len] = 0;
        if (eq)
            value = eq + 1;
        else if (i + 1 < argc)
            value = argv[++i];
        else
            return study_error("%s needs a value", name);
        if (!strcmp(name, "--pattern")) {
            for (size_t p = 0; p < ARRAY_LEN(study_presets); p++)
                if (!strcmp(study_presets[p].name, value))
                    a->preset = &study_presets[p];
            if (!a->preset)
                return study_error("--pattern: unknown pattern '%s' (choose from: atax, bicg, mvt, gesummv, "
                                   "syrk, syr2k)",
                                   value);
            continue;
        }
        const StudyOpt *o = NULL;
        for (size_t k = 0; k < ARRAY_LEN(study_opts); k++)
            if (!strcmp(study_opts[k].name, name))
                o = &study_opts[k];
        if (!o)
            return study_error("unknown option '%s' (see warpsim index --help)", name);
        uint64_t v;
        if (!study_parse_size(value, &v) || v < o->lo || v > o->hi || (o->pow2 && !is_pow2_u64(v)))
            return study_error("%s: expected %s in [%llu, %llu], got '%s'", name,
                               o->pow2 ? "a power of two" : "an integer", (unsigned long long)o->lo,
                               (unsigned long long)o->hi, value);
        *(uint64_t *)((char *)a + o->offset) = v;
        a->warps_given |= o->offset == offsetof(StudyArgs, warps);
        a->iterations_given |= o->offset == offsetof(StudyArgs, iterations);
    }
    if (!a->stride == !a->preset)
        return study_error("give exactly one of --stride BYTES and --pattern NAME");
    if (a->preset) {
        a->warps = a->warps_given ? a->warps : 16;
        a->iterations = a->iterations_given ? a->iterations : 64;
        /* The loop walks one row of the matrix: j < NY for ATAX, k < M for SYRK. */
        if (a->iterations > a->preset->n)
            return study_error("--iterations: the %s loop has %llu iterations, got %llu", a->preset->name,
                               (unsigned long long)a->preset->n, (unsigned long long)a->iterations);
    }
    uint32_t n_arrays = a->preset ? a->preset->n_arrays : 1;
    if (a->warps * a->iterations * n_arrays > STUDY_MAX_LOADS)
        return study_error("--warps x --iterations x loads per iteration must be at most %llu",
                           (unsigned long long)STUDY_MAX_LOADS);
    return 0;
}

/* What one index function accumulates over the stream. */
typedef struct StudyAcc {
    IndexFn fn;
    uint64_t *set_counts;
    double conc_sum;
    uint64_t touched_sum; /* distinct sets per load, summed */
    uint64_t over_assoc;
} StudyAcc;

int index_study_main(int argc, char **argv)
{
    StudyArgs a;
    bool help;
    if (study_parse(argc, argv, &a, &help))
        return 1;
    if (help) {
        study_usage(stdout);
        return 0;
    }
    const StudyPreset *p = a.preset;
    uint64_t row_bytes = p ? p->n * a.elem : a.stride;
    uint64_t rows = p ? p->n : 0; /* threads beyond the matrix wrap around to row 0 */
    uint32_t n_arrays = p ? p->n_arrays : 1;
    uint32_t n_fns = policy_count(POLICY_INDEX);

    StudyAcc *acc = xcalloc(n_fns, sizeof *acc);
    for (uint32_t f = 0; f < n_fns; f++) {
        index_fn_init(&acc[f].fn, policy_index(policy_name_at(POLICY_INDEX, f)), (uint32_t)a.sets,
                      (uint32_t)a.line);
        acc[f].set_counts = xcalloc(a.sets, sizeof *acc[f].set_counts);
    }

    if (p)
        printf("# pattern %s (%s), n=%llu, elem %llu B: row stride %llu B\n", p->name, p->expr,
               (unsigned long long)p->n, (unsigned long long)a.elem, (unsigned long long)row_bytes);
    printf("# stride %llu B, %llu sets x %llu ways, %llu B lines, %llu lanes, %llu warps x %llu iterations, "
           "base 0x%llx\n",
           (unsigned long long)row_bytes, (unsigned long long)a.sets, (unsigned long long)a.assoc,
           (unsigned long long)a.line, (unsigned long long)a.lanes, (unsigned long long)a.warps,
           (unsigned long long)a.iterations, (unsigned long long)a.base);

    /* Lines of the current load per set, zeroed again after each load. */
    uint32_t *load_counts = xcalloc(a.sets, sizeof *load_counts);
    uint64_t addrs[INDEX_STUDY_MAX_LINES], lines[INDEX_STUDY_MAX_LINES];
    uint32_t sets[INDEX_STUDY_MAX_LINES];
    uint64_t n_loads = 0;
    unsigned line_bits = log2_u64(a.line);
    for (uint64_t w = 0; w < a.warps; w++) {
        for (uint64_t k = 0; k < a.iterations; k++) {
            for (uint32_t arr = 0; arr < n_arrays; arr++) {
                /* Matrices of a preset lie back to back, in allocation order. */
                uint64_t base = a.base + arr * rows * row_bytes;
                for (uint64_t l = 0; l < a.lanes; l++) {
                    uint64_t t = w * a.lanes + l;
                    uint64_t r = rows ? t % rows : t;
                    addrs[l] = base + r * row_bytes + k * a.elem;
                }
                uint32_t n = study_lines(line_bits, addrs, (uint32_t)a.lanes, lines);
                n_loads++;
                for (uint32_t f = 0; f < n_fns; f++) {
                    StudyAcc *s = &acc[f];
                    uint32_t touched = 0, most = 0;
                    for (uint32_t i = 0; i < n; i++) {
                        sets[i] = index_fn_set(&s->fn, lines[i] << line_bits);
                        CHECK(sets[i] < a.sets);
                        s->set_counts[sets[i]]++;
                        uint32_t c = ++load_counts[sets[i]];
                        touched += c == 1;
                        most = MAX(most, c);
                    }
                    for (uint32_t i = 0; i < n; i++)
                        load_counts[sets[i]] = 0;
                    s->conc_sum += index_metric_concentration(n, touched);
                    s->touched_sum += touched;
                    s->over_assoc += most > a.assoc;
                }
            }
        }
    }

    for (uint32_t f = 0; f < n_fns; f++) {
        StudyAcc *s = &acc[f];
        printf("%s concentration %.4f balance %.4f sets %.2f over_assoc %.4f\n", s->fn.ops->meta.name,
               s->conc_sum / n_loads, index_study_balance(s->set_counts, (uint32_t)a.sets),
               (double)s->touched_sum / n_loads, (double)s->over_assoc / n_loads);
        free(s->set_counts);
    }
    free(acc);
    free(load_counts);
    fflush(stdout);
    return 0;
}
