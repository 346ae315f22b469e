/* test_gpgpusim.c: the GPGPU-Sim config reader on GTX480- and QV100-class files written for
 * these tests and on the options of GPGPU-Sim's A100 file (tests/fixtures/gpgpusim), the
 * GTX480 machine file of configs/gpgpusim, its notes and errors on small inputs, and the
 * presets in configs/. Calls that exit (fatal errors, config_validate) run in a forked child
 * whose stderr and exit status are checked. */
#include "../test.h"

#include "base/base.h"
#include "conf/config.h"
#include "conf/gpgpusim.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* A fixture of tests/fixtures/gpgpusim: a whole machine in gpgpusim.config syntax. */
static const char *fixture(const char *name, char *buf, size_t len)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/fixtures/gpgpusim/%s", name);
    return data_path(rel, buf, len);
}

/* Everything written to a FILE* opened with tmpfile(). */
static void slurp(FILE *f, char *out, size_t cap)
{
    rewind(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
}

/* Load text; returns 1/0 as gpgpusim_load_text, the error in err, the notes in notes_out. */
static int load(Config *c, const char *text, char *err, size_t err_len, char *notes_out, size_t notes_cap)
{
    FILE *notes = tmpfile();
    if (!notes)
        return -1;
    err[0] = 0;
    int ok = gpgpusim_load_text(c, "t.config", text, notes, err, err_len);
    slurp(notes, notes_out, notes_cap);
    fclose(notes);
    return ok;
}

/* Run fn(arg) in a child with stderr captured; returns its exit status (128 + signal if it
 * was killed). A child that returns from fn exits 0 without running exit handlers. */
static int run_child(void (*fn)(const void *), const void *arg, char *err_out, size_t cap)
{
    int fds[2];
    if (pipe(fds))
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        close(fds[1]);
        /* A fatal() exit runs the runner's exit handler, which removes the shared scratch
         * directory with `rm`; an empty PATH keeps that from touching the parent's files. */
        setenv("PATH", "", 1);
        fn(arg);
        fflush(stderr);
        _exit(0);
    }
    close(fds[1]);
    size_t len = 0;
    ssize_t got;
    char buf[1024];
    while ((got = read(fds[0], buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < got && len + 1 < cap; i++)
            err_out[len++] = buf[i];
    err_out[len] = 0;
    close(fds[0]);
    int st;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The first line of s, in place. */
static char *first_line(char *s)
{
    char *nl = strchr(s, '\n');
    if (nl)
        *nl = 0;
    return s;
}

static int count_lines(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void validate_child(const void *arg) { config_validate((const Config *)arg); }

/* String equality with a short message (test.h's EXPECT_STR wants small buffers). */
static void expect_same(const char *file, int line, const char *got, const char *want)
{
    if (!strcmp(got, want))
        return;
    char m[1024];
    snprintf(m, sizeof m, "got \"%.400s\", want \"%.400s\"", got, want);
    test_fail(file, line, m);
}
#define EXPECT_SAME(got, want) expect_same(__FILE__, __LINE__, (got), (want))

/* Everything config_dump writes for c. */
static void dump(const Config *c, char *out, size_t cap)
{
    FILE *f = tmpfile();
    out[0] = 0;
    if (!f)
        return;
    config_dump(f, c);
    slurp(f, out, cap);
    fclose(f);
}

/* ---- whole machines ----------------------------------------------------------------------- */

TEST(gpgpusim_gtx480_file)
{
    Config c;
    config_init(&c);
    c.sm.fetch_lat = 7; /* not in the file: must keep its value */
    static char notes[32768];
    char err[600], path[1024];
    FILE *nf = tmpfile();
    ASSERT(nf);
    int ok = gpgpusim_load(&c, fixture("gtx480.config", path, sizeof path), nf, err, sizeof err);
    slurp(nf, notes, sizeof notes);
    fclose(nf);
    if (!ok)
        test_fail(__FILE__, __LINE__, err);
    ASSERT(ok);

    EXPECT_EQ_U(c.gpu.n_clusters, 15);
    EXPECT_EQ_U(c.gpu.cores_per_cluster, 1);
    EXPECT_NEAR(c.gpu.core_mhz, 700.0, 1e-9);
    EXPECT_NEAR(c.gpu.icnt_mhz, 700.0, 1e-9);
    EXPECT_NEAR(c.gpu.l2_mhz, 700.0, 1e-9);
    EXPECT_NEAR(c.gpu.dram_mhz, 924.0, 1e-9);
    EXPECT_EQ_U(c.sm.n_regs, 32768);
    EXPECT_EQ_U(c.sm.max_threads, 1536);
    EXPECT_EQ_U(c.sm.max_warps, 48);
    EXPECT_EQ_U(c.sm.max_ctas, 8);
    EXPECT_EQ_U(c.sm.n_sched, 2);
    EXPECT_STR(c.sm.sched, "gto");
    EXPECT_EQ_U(c.sm.n_sp_units, 2);
    EXPECT_EQ_U(c.sm.n_sfu_units, 1);
    EXPECT_EQ_U(c.sm.smem_bytes, 49152);
    EXPECT_EQ_U(c.sm.fetch_lat, 7);
    EXPECT_EQ_U(c.smem.n_banks, 32);
    EXPECT_EQ_U(c.smem.lat, 26);
    /* ADD,MAX,MUL,MAD,DIV[,SHFL]: int 4,13,4,5,145,32 / 1,2,2,1,8,4 */
    EXPECT_EQ_U(c.alu.int_add_lat, 4);
    EXPECT_EQ_U(c.alu.int_mul_lat, 4);
    EXPECT_EQ_U(c.alu.int_mad_lat, 5);
    EXPECT_EQ_U(c.alu.int_div_lat, 145);
    EXPECT_EQ_U(c.alu.int_add_ii, 1);
    EXPECT_EQ_U(c.alu.int_mul_ii, 2);
    EXPECT_EQ_U(c.alu.int_div_ii, 8);
    EXPECT_EQ_U(c.alu.fp_div_lat, 39);
    EXPECT_EQ_U(c.alu.dp_add_lat, 8);
    EXPECT_EQ_U(c.alu.dp_div_lat, 330);
    EXPECT_EQ_U(c.alu.dp_div_ii, 130);
    /* -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8 */
    EXPECT_EQ_U(c.l1d.n_sets, 32);
    EXPECT_EQ_U(c.l1d.assoc, 4);
    EXPECT_EQ_U(c.l1d.line_bytes, 128);
    EXPECT_STR(c.l1d.index, "fermi");
    EXPECT_STR(c.l1d.repl, "lru");
    EXPECT_EQ_U(c.l1d.alloc, CACHE_ALLOC_MISS);
    EXPECT_EQ_U(c.l1d.write, CACHE_WRITE_EVICT);
    EXPECT_EQ_U(c.l1d.mshr_entries, 64);
    EXPECT_EQ_U(c.l1d.mshr_max_merge, 8);
    EXPECT_EQ_U(c.l1d.miss_queue, 8);
    EXPECT_EQ_U(c.l1d.hit_lat, 35);
    EXPECT_EQ_U(c.sm.l1d_access, SM_L1D_QUEUED); /* GPGPU-Sim 4.x: every access passes the L1 latency queue */
    EXPECT_EQ_U(c.sm.l1d_flush, 1);      /* -gpgpu_flush_l1_cache 1 */
    EXPECT_EQ_U(c.mem.copy_warms_l2, 1); /* -gpgpu_perf_sim_memcpy: GPGPU-Sim's default, 1 */
    EXPECT_EQ_U(c.sm.ldst_queue, 4);      /* ID_OC_MEM 1 + OC_EX_MEM 1 + 2 memory collector units (default) */
    EXPECT_EQ_U(c.sm.ibuffer, 2);         /* GPGPU-Sim's front end: two-instruction buffers */
    EXPECT_EQ_U(c.sm.sched_rotate, 1);    /* GPGPU-Sim 4.x: the schedulers take turns at going first */
    EXPECT_EQ_U(c.sm.issue_per_warp, 2);  /* -gpgpu_max_insn_issue_per_warp: GPGPU-Sim's default */
    /* -gpgpu_cache:il1 N:4:128:4,L:R:f:N:L,S:2:32,4 */
    EXPECT_EQ_U(c.sm.icache_sets, 4);
    EXPECT_EQ_U(c.sm.icache_line, 128);
    EXPECT_EQ_U(c.sm.icache_assoc, 4);
    EXPECT_EQ_U(c.sm.icache_mshr, 2);
    EXPECT_EQ_U(c.l1d.sector_bytes, 0); /* N: normal */
    /* -gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4:0,32 */
    EXPECT_EQ_U(c.l2.sector_bytes, 32); /* S: GPGPU-Sim 4.x's 32-byte sectors */
    EXPECT_EQ_U(c.mem.sector_replies, 1);   /* GPGPU-Sim 4.x: one reply per sector */
    EXPECT_EQ_U(c.icnt.ejection_buffer, 32); /* -gpgpu_n_cluster_ejection_buffer_size 32 */
    EXPECT_EQ_U(c.sm.response_fifo, 2);      /* -gpgpu_n_ldst_response_buffer_size: GPGPU-Sim's default */
    EXPECT_EQ_U(c.l2.n_sets, 64);
    EXPECT_EQ_U(c.l2.assoc, 8);
    EXPECT_EQ_U(c.l2.line_bytes, 128);
    EXPECT_STR(c.l2.index, "conv");
    EXPECT_EQ_U(c.l2.write, CACHE_WRITE_BACK);
    EXPECT_EQ_U(c.l2.mshr_entries, 256);
    EXPECT_EQ_U(c.l2.mshr_max_merge, 4);
    EXPECT_EQ_U(c.l2.miss_queue, 4);
    EXPECT_EQ_U(c.mem.n_partitions, 6);
    EXPECT_EQ_U(c.mem.subpartitions, 2);
    EXPECT_EQ_U(c.mem.l2_lat, 120);
    EXPECT_EQ_U(c.mem.dram_lat, 100);
    EXPECT_STR(c.mem.addr_map, "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS");
    EXPECT_EQ_U(c.icnt.flit_bytes, 40);
    EXPECT_STR(c.dram.sched, "frfcfs");
    EXPECT_EQ_U(c.dram.queue, 64);
    EXPECT_EQ_U(c.dram.return_queue, 116);
    EXPECT_EQ_U(c.dram.chips, 2);
    EXPECT_EQ_U(c.dram.bus_bytes, 4);
    EXPECT_EQ_U(c.dram.burst, 8);
    EXPECT_EQ_U(c.dram.data_ratio, 4);
    /* the quoted timing string runs over two lines */
    EXPECT_EQ_U(c.dram.n_banks, 16);
    EXPECT_EQ_U(c.dram.n_bank_groups, 4);
    EXPECT_EQ_U(c.dram.tCCD, 2);
    EXPECT_EQ_U(c.dram.tRRD, 6);
    EXPECT_EQ_U(c.dram.tRCD, 12);
    EXPECT_EQ_U(c.dram.tRAS, 28);
    EXPECT_EQ_U(c.dram.tRP, 12);
    EXPECT_EQ_U(c.dram.tRC, 40);
    EXPECT_EQ_U(c.dram.tCL, 12);
    EXPECT_EQ_U(c.dram.tWL, 4);
    EXPECT_EQ_U(c.dram.tCDLR, 5);
    EXPECT_EQ_U(c.dram.tWR, 12);
    EXPECT_EQ_U(c.dram.tCCDL, 3);
    EXPECT_EQ_U(c.dram.tRTPL, 2);

    /* notes: unmodelled options by line, approximations of modelled values; none for
     * options that map exactly */
    EXPECT_CONTAINS(notes, ":9: note: -gpgpu_ptx_instruction_classification is not modelled by warpsim; ignored\n");
    EXPECT_CONTAINS(notes, ":84: note: -gpuwattch_xml_file is not modelled by warpsim; ignored\n");
    EXPECT_CONTAINS(notes, ":34: note: -gpgpu_operand_collector_num_units_sp is not modelled by warpsim; ignored\n");
    EXPECT(!strstr(notes, "sectored) cache modelled")); /* S: is modelled */
    EXPECT(!strstr(notes, "data port width"));           /* 32 B: one sector per access */
    EXPECT(!strstr(notes, "MSHR type S")); /* the L1D gathers a line's sector replies (mem.sector_replies) */
    EXPECT(!strstr(notes, "-gpgpu_n_clusters"));
    EXPECT(!strstr(notes, "-gpgpu_dram_timing_opt"));
    EXPECT(!strstr(notes, "indexing_policy")); /* 0 and 1 are exactly warpsim's */
    EXPECT_EQ_I(count_lines(notes, "is not modelled by warpsim; ignored\n"), 13);
    char cc[16];
    config_format_option(&c.gpu, config_find("gpu.compute_capability", NULL), cc, sizeof cc);
    EXPECT_STR(cc, "2.0"); /* -gpgpu_compute_capability_major 2 */
}

/* Two dumped machines (dump()) must be the same; else a failure at line naming the first line
 * that differs (the text before it is the same in both). */
static void expect_same_machine(const char *got, const char *want, const char *got_name, const char *want_name,
                                int line)
{
    if (!strcmp(got, want))
        return;
    size_t i = 0;
    while (got[i] == want[i])
        i++;
    while (i && got[i - 1] != '\n')
        i--;
    char m[512];
    snprintf(m, sizeof m, "%s gives \"%.*s\", %s \"%.*s\"", got_name, (int)strcspn(got + i, "\n"), got + i, want_name,
             (int)strcspn(want + i, "\n"), want + i);
    test_fail(__FILE__, line, m);
}

/* configs/gpgpusim/gtx480.config, the machine `warpsim bench` runs its divergent stream on,
 * holds only the options warpsim reads: it must resolve to exactly the fixture's machine
 * (whose values the test above pins), and that machine must be valid. */
TEST(gpgpusim_gtx480_machine_file)
{
    static char want[65536], got[65536];
    char err[600], path[1024], out[2048];
    Config fix, c;
    config_init(&fix);
    config_init(&c);
    int ok = gpgpusim_load(&fix, fixture("gtx480.config", path, sizeof path), NULL, err, sizeof err);
    if (!ok)
        test_fail(__FILE__, __LINE__, err);
    ASSERT(ok);
    FILE *nf = tmpfile();
    ASSERT(nf);
    ok = gpgpusim_load(&c, data_path("configs/gpgpusim/gtx480.config", path, sizeof path), nf, err, sizeof err);
    slurp(nf, got, sizeof got);
    fclose(nf);
    if (!ok)
        test_fail(__FILE__, __LINE__, err);
    ASSERT(ok);
    EXPECT(!strstr(got, "is not modelled by warpsim"));
    dump(&fix, want, sizeof want);
    dump(&c, got, sizeof got);
    EXPECT(strlen(want) > 1000);
    expect_same_machine(got, want, "configs/gpgpusim/gtx480.config", "the fixture", __LINE__);
    EXPECT_EQ_I(run_child(validate_child, &c, out, sizeof out), 0);
    EXPECT_SAME(out, "");
}

TEST(gpgpusim_qv100_file)
{
    char path[1024], err[600], out[2048];
    Config c;
    config_init(&c);
    int ok = gpgpusim_load(&c, fixture("qv100.config", path, sizeof path), NULL, err, sizeof err);
    if (!ok)
        test_fail(__FILE__, __LINE__, err);
    ASSERT(ok);
    EXPECT_EQ_U(c.gpu.n_clusters, 80);
    EXPECT_NEAR(c.gpu.core_mhz, 1447.0, 1e-9);
    EXPECT_NEAR(c.gpu.dram_mhz, 850.0, 1e-9);
    EXPECT_EQ_U(c.sm.max_warps, 64);
    EXPECT_EQ_U(c.sm.max_ctas, 32);
    EXPECT_EQ_U(c.sm.n_sched, 4);
    EXPECT_STR(c.sm.sched, "lrr");
    EXPECT_EQ_U(c.alu.int_add_ii, 2);
    EXPECT_EQ_U(c.alu.sfu_lat, 100); /* -ptx_opcode_latency_sfu */
    EXPECT_EQ_U(c.sm.n_tensor_units, 4); /* -gpgpu_num_tensor_core_units */
    EXPECT_EQ_U(c.alu.tensor_lat, 64);   /* -ptx_opcode_latency_tesnor */
    EXPECT_EQ_U(c.l1d.n_sets, 4);    /* S:4:128:64,L:T:m:L:L,A:512:8,16:0,32 */
    EXPECT_EQ_U(c.l1d.sector_bytes, 32);
    EXPECT_EQ_U(c.l2.sector_bytes, 32);
    EXPECT_EQ_U(c.icnt.ejection_buffer, 8); /* GPGPU-Sim's defaults: the file is silent */
    EXPECT_EQ_U(c.sm.response_fifo, 2);
    EXPECT_EQ_U(c.l1d.assoc, 64);
    EXPECT_EQ_U(c.l1d.mshr_entries, 512);
    EXPECT_EQ_U(c.l1d.miss_queue, 16);
    EXPECT_EQ_U(c.l1d.write, CACHE_WRITE_EVICT);
    EXPECT_STR(c.l2.index, "ipoly"); /* S:32:128:24,L:B:m:L:P,... */
    EXPECT_EQ_U(c.l2.assoc, 24);
    EXPECT_EQ_U(c.dram.bus_bytes, 16);
    EXPECT_EQ_U(c.dram.tCCD, 1);
    EXPECT_EQ_U(c.dram.tWR, 10);
    EXPECT_EQ_I(run_child(validate_child, &c, out, sizeof out), 0);
    EXPECT_SAME(out, "");
}

/* ---- syntax and mappings on small inputs -------------------------------------------------- */

TEST(gpgpusim_syntax_comments_quotes_crlf)
{
    Config c;
    config_init(&c);
    char err[600], notes[4096];
    const char *text = "# comment\r\n"
                       "-gpgpu_n_clusters 12   # trailing comment\r\n"
                       "\r\n"
                       "   -gpgpu_dram_timing_opt \"nbk=8:CCD=3:RRD=7\r\n"
                       "        :RCD=13:nbkgrp=2\"\r\n"
                       "-gpgpu_shader_cta 4#no space\n";
    EXPECT_EQ_I(load(&c, text, err, sizeof err, notes, sizeof notes), 1);
    EXPECT_SAME(err, "");
    EXPECT_EQ_U(c.gpu.n_clusters, 12);
    EXPECT_EQ_U(c.dram.n_banks, 8);
    EXPECT_EQ_U(c.dram.tCCD, 3);
    EXPECT_EQ_U(c.dram.tRRD, 7);
    EXPECT_EQ_U(c.dram.tRCD, 13);
    EXPECT_EQ_U(c.dram.n_bank_groups, 2);
    EXPECT_EQ_U(c.dram.tRAS, 28); /* not in the string: kept */
    EXPECT_EQ_U(c.sm.max_ctas, 4);
    EXPECT_SAME(notes, "");
}

TEST(gpgpusim_compute_capability)
{
    Config c;
    config_init(&c);
    char err[600], notes[4096], cc[16];
    EXPECT_EQ_I(load(&c, "-gpgpu_compute_capability_major 8\n-gpgpu_compute_capability_minor 6\n", err, sizeof err,
                     notes, sizeof notes), 1);
    config_format_option(&c.gpu, config_find("gpu.compute_capability", NULL), cc, sizeof cc);
    EXPECT_STR(cc, "8.6");
    config_init(&c);
    EXPECT_EQ_I(load(&c, "-gpgpu_compute_capability_major 7\n-gpgpu_compute_capability_minor 3\n", err, sizeof err,
                     notes, sizeof notes), 0);
    EXPECT_CONTAINS(err, ":2: -gpgpu_compute_capability_minor: gpu.compute_capability: expected one of 2.0|2.1|");
}

TEST(gpgpusim_mappings_and_approximations)
{
    Config c;
    config_init(&c);
    char err[600], notes[4096];
    const char *text = "-gpgpu_scheduler two_level_active:6:0:1\n"
                       "-gpgpu_frfcfs_dram_sched_queue_size 0\n"
                       "-gpgpu_dram_scheduler 0\n"
                       "-gpgpu_cache:dl1 32:128:8,F:B:f:W,A:32:4,6\n" /* GPGPU-Sim 3.x form */
                       "-gpgpu_cache:dl2 N:128:128:16,L:T:s:N:X,F:32:4,8:4\n"
                       "-gpgpu_dram_timing_opt 16:2:6:12:28:12:40:12:4:5:12:1:0:0\n"
                       "-gpgpu_num_dp_units 4\n"
                       "-dram_bnkgrp_indexing_policy 0\n"
                       "-gpgpu_perf_sim_memcpy 0\n"
                       "-gpgpu_dram_partition_queues 8:16:24:0\n"
                       "-gpgpu_pipeline_widths 1,1,1,1,2,1,1,1,1,3,1\n"
                       "-gpgpu_operand_collector_num_units_mem 5\n"
                       "-gpgpu_flush_l1_cache 2\n" /* GPGPU-Sim booleans: non-zero is true */
                       "-gpgpu_n_cluster_ejection_buffer_size 3\n"
                       "-gpgpu_n_ldst_response_buffer_size 5\n";
    EXPECT_EQ_I(load(&c, text, err, sizeof err, notes, sizeof notes), 1);
    EXPECT_SAME(err, "");
    EXPECT_EQ_U(c.mem.copy_warms_l2, 0);
    EXPECT_EQ_U(c.mem.l2_in_queue, 8);
    EXPECT_EQ_U(c.sm.ldst_queue, 2 + 5 + 3);
    EXPECT_EQ_U(c.mem.l2_out_queue, 4096); /* 0: unlimited in GPGPU-Sim */
    EXPECT_EQ_U(c.icnt.ejection_buffer, 3);
    EXPECT_EQ_U(c.sm.response_fifo, 5);
    EXPECT_EQ_U(c.mem.sector_replies, 1); /* set for every GPGPU-Sim file; no effect with an N: L2 */
    EXPECT_CONTAINS(notes, "t.config:10: note: -gpgpu_dram_partition_queues: the L2-to-DRAM and DRAM-to-L2 queues (16, 24) are not modelled");
    EXPECT_EQ_U(c.sm.l1d_flush, 1);
    EXPECT_EQ_U(c.sm.l1d_access, SM_L1D_QUEUED); /* without -gpgpu_l1_latency too */
    EXPECT_STR(c.sm.sched, "twolevel");
    EXPECT_STR(config_ext_find(&c, "sm.sched.twolevel.active")->value, "6");
    EXPECT_EQ_U(c.dram.queue, 4096);
    EXPECT_STR(c.dram.sched, "fcfs");
    EXPECT_EQ_U(c.l1d.n_sets, 32);
    EXPECT_EQ_U(c.l1d.assoc, 8);
    EXPECT_STR(c.l1d.repl, "fifo");
    EXPECT_EQ_U(c.l1d.alloc, CACHE_ALLOC_FILL);
    EXPECT_EQ_U(c.l1d.write, CACHE_WRITE_EVICT);
    EXPECT_STR(c.l1d.index, "conv"); /* no index letter: linear */
    EXPECT_EQ_U(c.l1d.miss_queue, 6);
    EXPECT_EQ_U(c.l1d.sector_bytes, 0); /* no type letter: normal */
    EXPECT_EQ_U(c.l2.sector_bytes, 0);
    EXPECT_STR(c.l2.index, "bxor");
    EXPECT_EQ_U(c.l2.alloc, CACHE_ALLOC_FILL);
    EXPECT_EQ_U(c.l2.write, CACHE_WRITE_BACK);
    EXPECT_EQ_U(c.dram.n_bank_groups, 1);
    EXPECT_EQ_U(c.dram.tCCD, 2);
    EXPECT_EQ_U(c.dram.tCCDL, 0); /* bank-group-less, verbatim */
    EXPECT_EQ_U(c.dram.tRTPL, 0);
    EXPECT_EQ_U(c.dram.tWR, 12);
    EXPECT_CONTAINS(notes, "t.config:1: note: -gpgpu_scheduler: the prioritisation fields");
    EXPECT_CONTAINS(notes, "t.config:2: note: -gpgpu_frfcfs_dram_sched_queue_size: 0 (unlimited in GPGPU-Sim) modelled as dram.queue = 4096");
    EXPECT_CONTAINS(notes, "t.config:4: note: -gpgpu_cache:dl1: write policy B modelled as E");
    EXPECT_CONTAINS(notes, "t.config:4: note: -gpgpu_cache:dl1: write-allocate policy W modelled as N");
    EXPECT_CONTAINS(notes, "t.config:5: note: -gpgpu_cache:dl2: write policy T modelled as B");
    EXPECT_CONTAINS(notes, "t.config:5: note: -gpgpu_cache:dl2: allocation policy s (streaming) modelled as f");
    EXPECT_CONTAINS(notes, "t.config:5: note: -gpgpu_cache:dl2: MSHR type F modelled as A");
    EXPECT(!strstr(notes, "t.config:6:"));
    EXPECT_CONTAINS(notes, "t.config:8: note: -dram_bnkgrp_indexing_policy: 0 modelled as 1: the bank group is");
    EXPECT_CONTAINS(notes, "t.config:7: note: -gpgpu_num_dp_units: warpsim has no separate pipelines");
}

/* ---- errors ------------------------------------------------------------------------------- */

/* Each malformed input must fail with exactly this message. */
static const struct {
    const char *text, *err;
} bad_inputs[] = {
    {"-gpgpu_n_clusters 15\n-gpgpu_bogus_option 1\n",
     "t.config:2: unknown GPGPU-Sim option -gpgpu_bogus_option (warpsim neither models nor knows it)"},
    {"\n-gpgpu_n_clusters 1x5\n", "t.config:2: -gpgpu_n_clusters: expected a non-negative integer, got '1x5'"},
    {"-gpgpu_n_clusters 1000\n", "t.config:1: -gpgpu_n_clusters: gpu.n_clusters: 1000 is out of range [1, 256]"},
    {"-gpgpu_n_ldst_response_buffer_size 0\n",
     "t.config:1: -gpgpu_n_ldst_response_buffer_size: expected at least 1 (with 0, GPGPU-Sim would never take a reply)"},
    {"-gpgpu_n_clusters\n-gpgpu_n_mem 6\n",
     "t.config:1: -gpgpu_n_clusters: missing value (GPGPU-Sim options take one value on the same line)"},
    {"gpgpu_n_clusters 15\n", "t.config:1: expected '-option value', got 'gpgpu_n_clusters'"},
    {"-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8\n",
     "t.config:1: -gpgpu_cache:dl1: expected [N|S:]<nsets>:<bsize>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>:<index>,"
     "<mshr>:<entries>:<merge>,<miss queue>[:<fifo>][,<port width>], got 'N:32:128:4,L:L:m:N:H,S:64:8'"},
    {"-gpgpu_cache:dl1 N:32:128,L:L:m:N:H,S:64:8,8\n",
     "t.config:1: -gpgpu_cache:dl1: expected [N|S:]<nsets>:<bsize>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>:<index>,"
     "<mshr>:<entries>:<merge>,<miss queue>[:<fifo>][,<port width>], got 'N:32:128,L:L:m:N:H,S:64:8,8'"},
    {"-gpgpu_cache:dl1 N:32:128:4,Q:L:m:N:H,S:64:8,8\n",
     "t.config:1: -gpgpu_cache:dl1: replacement policy 'Q': expected L (LRU) or F (FIFO)"},
    {"-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:Z,S:64:8,8\n",
     "t.config:1: -gpgpu_cache:dl1: set-index function 'Z': expected L (linear), H (Fermi hash), X (XOR), P (IPOLY) or C"},
    {"-gpgpu_cache:dl2 Q:64:128:8,L:B:m:L:L,A:256:4,4\n",
     "t.config:1: -gpgpu_cache:dl2: cache type 'Q': expected N (normal) or S (sectored)"},
    {"-gpgpu_cache:dl2 N:64:128:8,L:B:m:L:L,Y:256:4,4\n",
     "t.config:1: -gpgpu_cache:dl2: MSHR type 'Y': expected A (associative), S (sector), F or T (texture FIFO)"},
    {"-gpgpu_cache:dl2 N:64:128:8,L:BB:m:L:L,A:256:4,4\n",
     "t.config:1: -gpgpu_cache:dl2: write policy: expected one letter, got 'BB'"},
    {"-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:lots:8,8\n",
     "t.config:1: -gpgpu_cache:dl1: MSHR entries: expected a non-negative integer, got 'lots'"},
    {"-gpgpu_cache:dl1 none\n",
     "t.config:1: -gpgpu_cache:dl1: a disabled cache ('none') is not modelled; expected [N|S:]<nsets>:<bsize>:<assoc>,"
     "<rep>:<wr>:<alloc>:<wr_alloc>:<index>,<mshr>:<entries>:<merge>,<miss queue>[:<fifo>][,<port width>]"},
    {"# x\n-gpgpu_dram_timing_opt \"nbk=16:CCD=2:\n   RRD=6\n",
     "t.config:2: unterminated quote: the value opened here has no closing '\"'"},
    {"-gpgpu_clock_domains 700.0:700.0:700.0\n",
     "t.config:1: -gpgpu_clock_domains: expected <core>:<icnt>:<l2>:<dram> clock frequencies in MHz "
     "(e.g. 700.0:700.0:700.0:924.0), got '700.0:700.0:700.0'"},
    {"-gpgpu_clock_domains 700.0:fast:700.0:924.0\n",
     "t.config:1: -gpgpu_clock_domains: expected <core>:<icnt>:<l2>:<dram> clock frequencies in MHz "
     "(e.g. 700.0:700.0:700.0:924.0), got '700.0:fast:700.0:924.0'"},
    {"-gpgpu_shader_core_pipeline 2048:64\n",
     "t.config:1: -gpgpu_shader_core_pipeline: warp size 64: warpsim models 32-thread warps only (expected <threads>:32)"},
    {"-gpgpu_shader_core_pipeline 1536\n",
     "t.config:1: -gpgpu_shader_core_pipeline: expected <threads per SM>:<warp size> (e.g. 1536:32), got '1536'"},
    {"-gpgpu_scheduler fancy\n",
     "t.config:1: -gpgpu_scheduler: expected lrr, gto or two_level_active:<active warps>:<inner>:<outer>, got 'fancy'"},
    {"-gpgpu_dram_scheduler 2\n", "t.config:1: -gpgpu_dram_scheduler: expected 0 (FIFO) or 1 (FR-FCFS), got '2'"},
    {"-gpgpu_dram_timing_opt \"nbk=16:tXYZ=3\"\n",
     "t.config:1: -gpgpu_dram_timing_opt: unknown timing 'tXYZ' (expected nbk, CCD, RRD, RCD, RAS, RP, RC, CL, WL, "
     "CDLR, WR, nbkgrp, CCDL or RTPL)"},
    {"-ptx_opcode_latency_int 4,13,4,5\n",
     "t.config:1: -ptx_opcode_latency_int: expected ADD,MAX,MUL,MAD,DIV[,SHFL]: 5 or 6 comma-separated cycle counts, "
     "got '4,13,4,5'"},
    {"-gpgpu_gmem_skip_L1D 1\n", "t.config:1: -gpgpu_gmem_skip_L1D: only 0 is modelled by warpsim, got '1'"},
};

TEST(gpgpusim_errors)
{
    for (size_t i = 0; i < sizeof bad_inputs / sizeof bad_inputs[0]; i++) {
        Config c;
        config_init(&c);
        char err[1024], notes[4096];
        EXPECT_EQ_I(load(&c, bad_inputs[i].text, err, sizeof err, notes, sizeof notes), 0);
        EXPECT_SAME(err, bad_inputs[i].err);
        EXPECT(!strchr(err, '\n'));
    }
}

static void load_child(const void *path) { Config c; config_init(&c); config_load_gpgpusim(&c, path); }

static void load_quiet_child(const void *path)
{
    Config c;
    config_init(&c);
    config_load_gpgpusim_flags(&c, path, GPGPUSIM_QUIET);
}

TEST(gpgpusim_exit_status_and_quiet)
{
    char path[512], out[8192];
    snprintf(path, sizeof path, "%s/bad.config", test_tmpdir());
    FILE *f = fopen(path, "w");
    ASSERT(f);
    fputs("# GTX480\n-gpgpu_n_clusters 15\n-gpgpu_shader_core_pipeline 1536:64\n", f);
    fclose(f);
    EXPECT_EQ_I(run_child(load_child, path, out, sizeof out), 1);
    char want[700];
    snprintf(want, sizeof want, "warpsim: %s:3: -gpgpu_shader_core_pipeline: warp size 64: warpsim models "
             "32-thread warps only (expected <threads>:32)", path);
    EXPECT_SAME(first_line(out), want);

    snprintf(path, sizeof path, "%s/missing.config", test_tmpdir());
    EXPECT_EQ_I(run_child(load_child, path, out, sizeof out), 1);
    EXPECT_CONTAINS(out, "missing.config: cannot read GPGPU-Sim config file");
    /* not a config file: a device without end, a directory */
    Config c;
    config_init(&c);
    char err[512];
    EXPECT_EQ_I(gpgpusim_load(&c, "/dev/zero", NULL, err, sizeof err), 0);
    EXPECT_SAME(err, "/dev/zero: cannot read GPGPU-Sim config file: larger than the 64 MiB limit on input files");
    EXPECT_EQ_I(gpgpusim_load(&c, test_tmpdir(), NULL, err, sizeof err), 0);
    EXPECT_CONTAINS(err, ": cannot read GPGPU-Sim config file: Is a directory");

    /* a whole machine: notes on stderr by default, none with GPGPUSIM_QUIET */
    fixture("gtx480.config", path, sizeof path);
    EXPECT_EQ_I(run_child(load_child, path, out, sizeof out), 0);
    EXPECT_CONTAINS(out, "note: -visualizer_enabled is not modelled by warpsim; ignored");
    EXPECT_EQ_I(run_child(load_quiet_child, path, out, sizeof out), 0);
    EXPECT_SAME(out, "");
}

/* ---- presets ------------------------------------------------------------------------------ */

static void load_preset(Config *c, const char *name)
{
    char path[1024];
    config_init(c);
    config_load_file(c, config_preset_path(name, path, sizeof path));
}

static uint64_t l1d_bytes(const Config *c) { return (uint64_t)c->l1d.n_sets * c->l1d.assoc * c->l1d.line_bytes; }

static uint64_t l2_bytes(const Config *c)
{
    return (uint64_t)c->mem.n_partitions * c->mem.subpartitions * c->l2.n_sets * c->l2.assoc * c->l2.line_bytes;
}

static double dram_gbps(const Config *c)
{
    return c->mem.n_partitions * c->dram.chips * c->dram.bus_bytes * c->dram.data_ratio * c->gpu.dram_mhz / 1000.0;
}

TEST(gpgpusim_preset_gtx480)
{
    Config c;
    char out[2048];
    load_preset(&c, "gtx480");
    EXPECT_EQ_U(c.gpu.n_clusters * c.gpu.cores_per_cluster, 30);
    EXPECT_EQ_U(c.sm.max_warps, 48);
    EXPECT_EQ_U(c.sm.max_threads, 1536);
    EXPECT_EQ_U(c.sm.max_ctas, 8);
    EXPECT_EQ_U(c.sm.n_regs, 32768);
    EXPECT_EQ_U(c.sm.smem_bytes, 48 * 1024);
    EXPECT_EQ_U(c.sm.n_sched, 2);
    EXPECT_STR(c.sm.sched, "gto");
    EXPECT_EQ_U(l1d_bytes(&c), 32 * 1024);
    EXPECT_EQ_U(c.l1d.n_sets, 32);
    EXPECT_EQ_U(c.l1d.assoc, 8);
    EXPECT_EQ_U(c.l1d.mshr_entries, 32);
    EXPECT_STR(c.l1d.index, "conv");
    EXPECT_EQ_U(c.l1d.write, CACHE_WRITE_EVICT);
    EXPECT_EQ_U(c.l1d.alloc, CACHE_ALLOC_MISS);
    EXPECT_EQ_U(l2_bytes(&c), 768 * 1024);
    EXPECT_EQ_U(c.l2.n_sets, 32);
    EXPECT_EQ_U(c.l2.assoc, 16);
    EXPECT_EQ_U(c.mem.n_partitions, 6);
    EXPECT_EQ_U(c.mem.l2_lat, 120);
    EXPECT_EQ_U(c.mem.dram_lat, 100);
    EXPECT_EQ_U(c.dram.queue, 32);
    EXPECT_EQ_U(c.dram.n_banks, 16);
    EXPECT_EQ_U(c.dram.tCL, 12);
    EXPECT_EQ_U(c.dram.tRRD, 6);
    EXPECT_EQ_U(c.dram.tCDLR, 5);
    EXPECT_NEAR(dram_gbps(&c), 177.408, 1e-6);
    EXPECT_EQ_I(run_child(validate_child, &c, out, sizeof out), 0);
    EXPECT_SAME(out, "");
}

/* oaws.cfg: gtx480 with Table 5.1's Fermi hash and 5.5.2's allocate-on-fill. */
TEST(gpgpusim_preset_oaws)
{
    Config c;
    char out[2048];
    load_preset(&c, "oaws");
    EXPECT_EQ_U(c.gpu.n_clusters * c.gpu.cores_per_cluster, 30);
    EXPECT_EQ_U(c.sm.max_warps, 48);
    EXPECT_EQ_U(c.sm.n_sched, 2);
    EXPECT_STR(c.sm.sched, "gto");
    EXPECT_EQ_U(l1d_bytes(&c), 32 * 1024);
    EXPECT_EQ_U(c.l1d.assoc, 8);
    EXPECT_EQ_U(c.l1d.mshr_entries, 32);
    EXPECT_STR(c.l1d.index, "fermi");
    EXPECT_EQ_U(c.l1d.alloc, CACHE_ALLOC_FILL);
    EXPECT_EQ_U(l2_bytes(&c), 768 * 1024);
    EXPECT_EQ_U(c.mem.l2_lat, 120);
    EXPECT_EQ_U(c.mem.dram_lat, 100);
    EXPECT_EQ_U(c.dram.tRC, 40);
    EXPECT_EQ_I(run_child(validate_child, &c, out, sizeof out), 0);
    EXPECT_SAME(out, "");
}

TEST(gpgpusim_preset_gtx480_16k)
{
    Config c;
    char out[2048];
    load_preset(&c, "gtx480-16k");
    EXPECT_EQ_U(c.gpu.n_clusters * c.gpu.cores_per_cluster, 15);
    EXPECT_EQ_U(c.sm.max_threads, 1536);
    EXPECT_EQ_U(c.sm.max_ctas, 8);
    EXPECT_EQ_U(l1d_bytes(&c), 16 * 1024);
    EXPECT_EQ_U(c.l1d.assoc, 4);
    EXPECT_EQ_U(c.l1d.line_bytes, 128);
    EXPECT_EQ_U(l2_bytes(&c), 768 * 1024);
    EXPECT_EQ_U(c.l2.assoc, 8);
    EXPECT_EQ_U(c.mem.n_partitions, 6);
    EXPECT_EQ_U(c.dram.queue, 16);
    EXPECT_STR(c.l1d.index, "bxor");
    EXPECT_STR(c.l2.index, "bxor");
    EXPECT_EQ_U(c.dram.tRC, 40); /* from the included gtx480.cfg */
    EXPECT_EQ_I(run_child(validate_child, &c, out, sizeof out), 0);
    EXPECT_SAME(out, "");
}

TEST(gpgpusim_preset_gtx980)
{
    Config c;
    char out[2048];
    load_preset(&c, "gtx980");
    EXPECT_EQ_U(c.gpu.n_clusters * c.gpu.cores_per_cluster, 16);
    EXPECT_NEAR(c.gpu.core_mhz, 1126.0, 1e-9);
    EXPECT_EQ_U(c.sm.max_threads, 2048);
    EXPECT_EQ_U(c.sm.max_warps, 64);
    EXPECT_EQ_U(c.sm.max_ctas, 32);
    EXPECT_EQ_U(c.sm.n_sched, 4);
    EXPECT_STR(c.sm.sched, "gto");
    EXPECT_EQ_U(c.sm.n_regs * 4, 256 * 1024);
    EXPECT_EQ_U(c.sm.smem_bytes, 96 * 1024);
    EXPECT_EQ_U(l1d_bytes(&c), 48 * 1024);
    EXPECT_EQ_U(c.l1d.line_bytes, 128);
    EXPECT_EQ_U(c.l1d.mshr_entries, 64);
    EXPECT_EQ_U(l2_bytes(&c), 2048 * 1024);
    EXPECT_EQ_U(c.l2.assoc, 8);
    EXPECT_NEAR(dram_gbps(&c), 352.5, 1e-9);
    EXPECT_EQ_U(c.dram.tRRD, 6);
    EXPECT_EQ_U(c.dram.tRAS, 28);
    EXPECT_EQ_I(run_child(validate_child, &c, out, sizeof out), 0);
    EXPECT_SAME(out, "");
}

/* a100.cfg: GPGPU-Sim's A100 file as the reader translates it. The preset and the reader on
 * the fixture (every option line of that file) resolve to the same machine, option for option;
 * the values a program sees through cudaGetDeviceProperties are the A100's. */
TEST(gpgpusim_preset_a100)
{
    static char want[65536], got[65536];
    char err[600], path[1024], out[2048];
    Config c, fix;
    load_preset(&c, "a100");
    char cc[16];
    config_format_option(&c.gpu, config_find("gpu.compute_capability", NULL), cc, sizeof cc);
    EXPECT_STR(cc, "8.0");
    EXPECT_EQ_U(c.gpu.n_clusters * c.gpu.cores_per_cluster, 108);
    EXPECT_NEAR(c.gpu.core_mhz, 1410.0, 1e-9);
    EXPECT_NEAR(c.gpu.dram_mhz, 1512.0, 1e-9);
    EXPECT_EQ_U(c.sm.max_threads, 2048);
    EXPECT_EQ_U(c.sm.max_warps, 64);
    EXPECT_EQ_U(c.sm.max_ctas, 32);
    EXPECT_EQ_U(c.sm.n_regs, 65536);
    EXPECT_EQ_U(c.sm.smem_bytes, 164 * 1024);
    EXPECT_EQ_U(c.sm.n_sched, 4);
    EXPECT_STR(c.sm.sched, "lrr");
    EXPECT_EQ_U(c.sm.n_tensor_units, 4);
    EXPECT_EQ_U(c.alu.tensor_lat, 25);
    EXPECT_EQ_U(c.alu.tensor_ii, 16);
    EXPECT_EQ_U(l1d_bytes(&c), 32 * 1024);
    EXPECT_EQ_U(c.l1d.mshr_entries, 512);
    EXPECT_EQ_U(c.l1d.write, CACHE_WRITE_EVICT);
    EXPECT_EQ_U(c.l1d.alloc, CACHE_ALLOC_MISS);
    EXPECT_EQ_U(l2_bytes(&c), 40 * 1024 * 1024);
    EXPECT_STR(c.l2.index, "bxor");
    EXPECT_EQ_U(c.mem.n_partitions * c.dram.bus_bytes * 8, 5120); /* memoryBusWidth */
    EXPECT_NEAR(dram_gbps(&c), 1935.36, 1e-6);
    EXPECT_EQ_U(c.dram.tRCD, 22);
    EXPECT_EQ_I(run_child(validate_child, &c, out, sizeof out), 0);
    EXPECT_SAME(out, "");

    config_init(&fix);
    int ok = gpgpusim_load(&fix, fixture("a100.config", path, sizeof path), NULL, err, sizeof err);
    if (!ok)
        test_fail(__FILE__, __LINE__, err);
    ASSERT(ok);
    dump(&fix, want, sizeof want);
    dump(&c, got, sizeof got);
    EXPECT(strlen(want) > 1000);
    expect_same_machine(got, want, "configs/a100.cfg", "the A100 file", __LINE__);
}
