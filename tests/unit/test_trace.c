/* test_trace.c: the Accel-Sim trace front end: opcode table, instruction lines (every address
 * encoding), kernel files from memory, the command line's errors (file:line, exit 1) on
 * malformed traces, and the round trip PTX run -> trace -> trace run (identical stats). */
#include "../test.h"

#include "base/base.h"
#include "front/trace/trace_internal.h"

#include <stdlib.h>
#include <sys/stat.h>

#define FIXTURE "tests/fixtures/trace/small"

TEST(trace_sass_table_sorted_and_lookup)
{
    const TraceOpcode *t = trace_sass_table();
    for (size_t i = 1; i < trace_sass_table_size(); i++)
        EXPECT(strcmp(t[i - 1].name, t[i].name) < 0);
    TraceOpcode o;
    ASSERT(trace_sass_lookup("LDG.E.64.SYS", 12, &o));
    EXPECT_EQ_U(o.op, WOP_LOAD);
    EXPECT_EQ_U(o.space, WSPACE_GLOBAL);
    ASSERT(trace_sass_lookup("ATOMS.ADD", 9, &o));
    EXPECT_EQ_U(o.op, WOP_ATOMIC);
    EXPECT_EQ_U(o.space, WSPACE_SHARED);
    ASSERT(trace_sass_lookup("IMAD.MOV.U32", 12, &o));
    EXPECT_EQ_U(o.op, WOP_INT_ADD);
    ASSERT(trace_sass_lookup("IMAD.WIDE.U32", 13, &o));
    EXPECT_EQ_U(o.op, WOP_INT_MAD);
    ASSERT(trace_sass_lookup("MUFU.RSQ", 8, &o));
    EXPECT_EQ_U(o.op, WOP_SFU);
    ASSERT(trace_sass_lookup("DFMA", 4, &o));
    EXPECT_EQ_U(o.op, WOP_DP_MAD);
    EXPECT(!trace_sass_lookup("FROB.E", 6, &o));
    EXPECT(!trace_sass_lookup("LDGX", 4, &o));
    EXPECT(!trace_sass_lookup("WARPSIM.LOAD", 12, &o)); /* a memory class needs its space */
    EXPECT(!trace_sass_lookup("WARPSIM.INT_ADD.GLOBAL", 22, &o));
}

/* Every class and space the writer can meet is named so that the reader gets it back. */
TEST(trace_sass_writer_names_round_trip)
{
    char name[40];
    for (int op = 0; op < WOP_COUNT; op++) {
        bool mem = op == WOP_LOAD || op == WOP_STORE || op == WOP_ATOMIC;
        for (int sp = mem ? 1 : 0; sp < (mem ? WSPACE_COUNT : 1); sp++) {
            trace_sass_name((uint8_t)op, (uint8_t)sp, name, sizeof name);
            TraceOpcode o;
            ASSERT(trace_sass_lookup(name, strlen(name), &o));
            EXPECT_EQ_U(o.op, op);
            EXPECT_EQ_U(o.space, sp);
        }
    }
    EXPECT_STR(trace_sass_name(WOP_INT_DIV, WSPACE_NONE, name, sizeof name), "WARPSIM.INT_DIV");
    EXPECT_STR(trace_sass_name(WOP_LOAD, WSPACE_PARAM, name, sizeof name), "WARPSIM.LOAD.PARAM");
    EXPECT_STR(trace_sass_name(WOP_LOAD, WSPACE_SHARED, name, sizeof name), "LDS");
}

static bool parse(const TraceLineFormat *f, const char *text, Winst *w, char *err, size_t n)
{
    char line[1024];
    snprintf(line, sizeof line, "%s", text);
    memset(w, 0, sizeof *w);
    return trace_parse_inst(f, line, w, err, n);
}

TEST(trace_line_address_encodings)
{
    TraceLineFormat f = {.version = 3, .pc_shift = 1};
    Winst w;
    char err[200];
    /* list: one address per active lane (lanes 1, 3) */
    ASSERT(parse(&f, "0120 0000000a 1 R7 LDG.E.64 2 R2 R255 8 0 0x1000 0x2008", &w, err, sizeof err));
    EXPECT_EQ_U(w.s.pc, 0x90);
    EXPECT_EQ_U(w.active_mask, 0xa);
    EXPECT_EQ_U(w.s.n_dst, 1);
    EXPECT_EQ_U(w.s.dst[0], 7);
    EXPECT_EQ_U(w.s.n_src, 1); /* R255 is the zero register */
    EXPECT_EQ_U(w.s.access_bytes, 8);
    EXPECT_EQ_U(w.addr[1], 0x1000);
    EXPECT_EQ_U(w.addr[3], 0x2008);
    /* base+stride: the k-th active lane at base + k * stride */
    ASSERT(parse(&f, "0 000000f0 0 STS 2 R1 R300 4 1 0x400 -4", &w, err, sizeof err));
    EXPECT_EQ_U(w.s.op, WOP_STORE);
    EXPECT_EQ_U(w.s.space, WSPACE_SHARED);
    EXPECT_EQ_U(w.s.src[1], 299); /* ids from 255 on are written one higher */
    EXPECT_EQ_U(w.addr[4], 0x400);
    EXPECT_EQ_U(w.addr[7], 0x3f4);
    /* base+delta: each active lane after the first from the previous one */
    ASSERT(parse(&f, "10 80000101 1 R2 ATOMG.ADD 1 R4 4 2 0x10000 256 -128", &w, err, sizeof err));
    EXPECT_EQ_U(w.s.op, WOP_ATOMIC);
    EXPECT_EQ_U(w.addr[0], 0x10000);
    EXPECT_EQ_U(w.addr[8], 0x10100);
    EXPECT_EQ_U(w.addr[31], 0x10080);
    /* version 2 lines start with the block and warp; lineinfo adds a source line */
    TraceLineFormat f2 = {.version = 2, .pc_shift = 0};
    ASSERT(parse(&f2, "1 0 0 3 0008 ffffffff 1 R3 FFMA 3 R1 R2 R3 0", &w, err, sizeof err));
    EXPECT_EQ_U(w.s.pc, 8);
    EXPECT_EQ_U(w.s.op, WOP_FP_MAD);
    TraceLineFormat f4 = {.version = 4, .lineinfo = true, .pc_shift = 1};
    ASSERT(parse(&f4, "57 0010 ffffffff 0 EXIT 0 0", &w, err, sizeof err));
    EXPECT_EQ_U(w.s.op, WOP_EXIT);
    /* textures are recorded without addresses: timed as an SFU operation */
    ASSERT(parse(&f, "0 ffffffff 1 R1 TEX.SCR.LL 1 R2 0", &w, err, sizeof err));
    EXPECT_EQ_U(w.s.op, WOP_SFU);
    /* constant loads need no addresses */
    ASSERT(parse(&f, "0 ffffffff 1 R1 LDC 1 R2 0", &w, err, sizeof err));
    EXPECT_EQ_U(w.s.op, WOP_LOAD);
    EXPECT_EQ_U(w.s.space, WSPACE_CONST);
}

TEST(trace_line_errors)
{
    TraceLineFormat f = {.version = 3, .pc_shift = 1};
    Winst w;
    char err[200];
    EXPECT(!parse(&f, "0120 ffffffff 1 R7 LDG.E 1 R2 4 0 0x1000", &w, err, sizeof err));
    EXPECT_CONTAINS(err, "address count does not match the mask");
    EXPECT(!parse(&f, "0120 00000003 1 R7 LDG.E 1 R2 4 0 0x1000 0x1004 0x1008", &w, err, sizeof err));
    EXPECT_CONTAINS(err, "address count does not match the mask");
    EXPECT(!parse(&f, "0120 00000007 1 R7 LDG.E 1 R2 4 2 0x1000 4", &w, err, sizeof err));
    EXPECT_CONTAINS(err, "address count does not match the mask");
    EXPECT(!parse(&f, "0120 fffffffff 0 EXIT 0 0", &w, err, sizeof err));
    EXPECT_CONTAINS(err, "bad active mask");
    EXPECT(!parse(&f, "0120 ffzz 0 EXIT 0 0", &w, err, sizeof err));
    EXPECT_CONTAINS(err, "bad active mask");
    EXPECT(!parse(&f, "0120 ffffffff 0 FROB 0 0", &w, err, sizeof err));
    EXPECT_CONTAINS(err, "unknown opcode 'FROB'");
    EXPECT(!parse(&f, "0120 ffffffff 1 R7 IADD3 2 R1", &w, err, sizeof err));
    EXPECT_CONTAINS(err, "truncated line");
    EXPECT(!parse(&f, "0120 ffffffff 1 P0 ISETP 0 0", &w, err, sizeof err));
    EXPECT_CONTAINS(err, "bad destination register 'P0'");
    EXPECT(!parse(&f, "0120 ffffffff 1 R1 LDG.E 1 R2 0", &w, err, sizeof err));
    EXPECT_CONTAINS(err, "without a width and addresses");
}

/* The fixture's kernel from memory: geometry, and every warp read to its EXIT. */
TEST(trace_kernel_from_memory)
{
    size_t len;
    char *text = read_file(FIXTURE "/kernel-1.traceg", &len), err[600];
    ASSERT(text);
    TraceKernel *k = trace_kernel_open_mem(text, len, "k.traceg", err, sizeof err);
    ASSERT(k);
    const FrontKernel *fk = trace_kernel_info(k);
    EXPECT_STR(fk->name, "k1");
    EXPECT_EQ_U(fk->grid[0], 2);
    EXPECT_EQ_U(fk->block[0], 40);
    EXPECT_EQ_U(fk->regs_per_thread, 8);
    EXPECT_EQ_U(trace_kernel_version(k), 3);
    uint64_t n = 0;
    EXPECT(trace_kernel_check(k, &n, err, sizeof err));
    EXPECT_EQ_U(n, 10);
    trace_kernel_close(k);
    /* a missing warp, a block outside the grid, a short warp */
    const char *cuts[][2] = {
        {"warp = 1\ninsts = 1\n0000 000000ff 0 EXIT 0 0\n#END_TB", "#END_TB"},
        {"thread block = 1,0,0", "thread block = 2,0,0"},
        {"insts = 3", "insts = 4"},
    };
    const char *want[] = {"has no warp 1", "bad 'thread block = 2,0,0'", "announces 4 instructions"};
    for (size_t i = 0; i < ARRAY_LEN(cuts); i++) {
        char *bad = xmalloc(len + 64), *at = strstr(text, cuts[i][0]);
        ASSERT(at);
        size_t pre = (size_t)(at - text);
        memcpy(bad, text, pre);
        strcpy(bad + pre, cuts[i][1]);
        strcat(bad, at + strlen(cuts[i][0]));
        k = trace_kernel_open_mem(bad, strlen(bad), "k.traceg", err, sizeof err);
        if (k) /* a short warp is found when it is read */
            EXPECT(!trace_kernel_check(k, NULL, err, sizeof err));
        EXPECT_CONTAINS(err, want[i]);
        trace_kernel_close(k);
        free(bad);
    }
    free(text);
}

/* A copy of the fixture with one line of the kernel file replaced. */
static const char *bad_trace(const char *name, const char *from, const char *to)
{
    static char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", test_tmpdir(), name);
    mkdir(dir, 0755);
    size_t len;
    char *text = read_file(FIXTURE "/kernel-1.traceg", &len), path[1100];
    char *list = read_file(FIXTURE "/kernelslist.g", &len);
    if (!text || !list)
        return dir;
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *f = fopen(path, "w");
    fputs(list, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    f = fopen(path, "w");
    char *at = from ? strstr(text, from) : NULL;
    if (at) {
        fwrite(text, 1, (size_t)(at - text), f);
        fputs(to, f);
        fputs(at + strlen(from), f);
    } else if (from) {
        fputs("(fixture changed)", f);
    } else {
        fputs(text, f);
    }
    fclose(f);
    free(text);
    free(list);
    return dir;
}

static void expect_fails(const char *dir, const char *want)
{
    char cmd[1400], out[4096];
    snprintf(cmd, sizeof cmd, "%s trace run --quiet %s", test_warpsim(), dir);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 1);
    EXPECT_CONTAINS(out, want);
}

TEST(trace_run_malformed)
{
    /* truncated line (line 19 is warp 0's second instruction) */
    expect_fails(bad_trace("trunc", "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000000 4", "0010 ffffffff 1 R2 LDG.E 1"),
                 "kernel-1.traceg:19: truncated line");
    expect_fails(bad_trace("mask", "0030 ffffffff 0 EXIT", "0030 fffffffg 0 EXIT"),
                 "kernel-1.traceg:21: bad active mask 'fffffffg'");
    expect_fails(bad_trace("opcode", "0000 000000ff 1 R1 S2R", "0000 000000ff 1 R1 S2Q"),
                 "kernel-1.traceg:24: unknown opcode 'S2Q'");
    expect_fails(bad_trace("count", "0x10000108 0x1000010c", "0x10000108"),
                 "kernel-1.traceg:20: address count does not match the mask: 0000000f has 4 active lanes, the "
                 "line has 3 addresses");
    /* the file ends in the middle of a line, and of its block */
    expect_fails(bad_trace("cut", "0010 0000ff00 1 R3 LDS", "0010 0000ff00 1 R3"), "kernel-1.traceg:33:");
    /* missing kernel file */
    const char *dir = bad_trace("missing", NULL, NULL);
    char path[1100];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    remove(path);
    expect_fails(dir, "kernelslist.g:2: kernel file");
}

/* The fixture runs, and writing it back as a trace gives the same file's stream: same stats. */
TEST(trace_run_fixture_and_rewrite)
{
    char cmd[2048], out[4096];
    const char *tmp = test_tmpdir();
    snprintf(cmd, sizeof cmd, "%s trace run --quiet " FIXTURE " --trace-out %s/again --stats %s/a.txt && "
             "%s trace run --quiet %s/again --stats %s/b.txt && grep -v -e ^workload -e ^wall_seconds %s/a.txt > %s/a && "
             "grep -v -e ^workload -e ^wall_seconds %s/b.txt > %s/b && cmp %s/a %s/b && grep '^sim.warp_insts ' %s/a",
             test_warpsim(), tmp, tmp, test_warpsim(), tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "sim.warp_insts 10");
    snprintf(cmd, sizeof cmd, "%s trace check %s/again", test_warpsim(), tmp);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "1 kernels, 1 copies, 10 warp instructions");
}

/* A compressed kernel file, read through xz (skipped where xz is not installed). */
TEST(trace_run_xz)
{
    char cmd[2048], out[4096];
    if (test_run_cmd("command -v xz", out, sizeof out) != 0)
        return;
    const char *tmp = test_tmpdir();
    snprintf(cmd, sizeof cmd, "mkdir -p %s/xz && cp " FIXTURE "/kernelslist.g " FIXTURE "/kernel-1.traceg %s/xz/ && "
             "xz %s/xz/kernel-1.traceg && %s trace check %s/xz", tmp, tmp, tmp, test_warpsim(), tmp);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "kernel-1.traceg.xz: k1");
}

/* Suite workloads at their small size: the PTX run written as a trace and the trace's run have
 * identical stats (tools/trace_roundtrip.sh; `make trace-roundtrip` does every workload). */
TEST(trace_roundtrip_suite)
{
    char cmd[1024], out[8192];
    const char *ws = test_warpsim();
    char build[512];
    snprintf(build, sizeof build, "%s", ws);
    char *slash = strrchr(build, '/');
    if (slash)
        *slash = 0;
    snprintf(cmd, sizeof cmd, "sh tools/trace_roundtrip.sh %s gesummv nn backprop", build);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "3 same, 0 different");
}

/* The ATAX-like stream of `make bench` (divergent) written as a trace and run by the trace front
 * end on the same machine: the same simulated cycles (and every other stat). */
TEST(trace_bench_stream_same_cycles)
{
    char cmd[3072], out[4096];
    const char *tmp = test_tmpdir(), *ws = test_warpsim();
    const char *cfg = "--gpgpusim-config configs/gpgpusim/gtx480.config";
    snprintf(cmd, sizeof cmd, "%s run --quiet %s workloads/synthetic/atax1.syn --trace-out %s/atax --stats %s/s.txt && "
             "%s trace run --quiet %s %s/atax --stats %s/t.txt && grep '^sim.cycles ' %s/s.txt > %s/c1 && "
             "grep '^sim.cycles ' %s/t.txt > %s/c2 && cmp %s/c1 %s/c2 && "
             "grep -v -e ^workload -e ^wall_seconds %s/s.txt > %s/a && grep -v -e ^workload -e ^wall_seconds %s/t.txt > %s/b && "
             "cmp %s/a %s/b && cat %s/c2",
             ws, cfg, tmp, tmp, ws, cfg, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "sim.cycles ");
}

/* A sweep spec's workload may be a trace folder: `warpsim sweep` runs it as `warpsim run` does. */
TEST(trace_sweep_workload)
{
    char cmd[2048], out[4096];
    const char *tmp = test_tmpdir();
    snprintf(cmd, sizeof cmd, "printf 'name tracesweep\\npreset gtx480\\nworkload small " FIXTURE "\\n"
             "variant lru: l1d.repl=lru\\nvariant fifo: l1d.repl=fifo\\n' > %s/spec && "
             "%s sweep %s/spec --results %s/res -j 1 && grep -l '\"status\": \"complete\"' %s/res/runs/*.json | wc -l",
             tmp, test_warpsim(), tmp, tmp, tmp);
    EXPECT_EQ_I(test_run_cmd(cmd, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "2 runs: 2 done now");
}
