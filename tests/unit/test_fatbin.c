/* test_fatbin.c: the fat-binary decoder (src/front/fatbin) on fixtures nvcc 13 built from
 * tests/fatbin/kernel.cu (see tests/fatbin/regen.sh): entries, zstd / LZ4 / raw payloads, the
 * PTX against `nvcc -ptx`, register counts against ptxas -v, the __cudaRegisterFatBinary
 * wrapper, and that every truncation and a set of corruptions give an error, never a crash
 * (run these under `make asan` to check no byte outside the input is read). */
#include "../test.h"

#include "base/base.h"
#include "front/fatbin/fatbin.h"
#include "front/fatbin/lz4.h"
#include "front/ptx/ptx.h"

#include <ctype.h>
#include <stdlib.h>

#define MAT4 "_Z4mat4iPK6float4S1_PS_"

static const char *const fixtures[] = {"default", "zstd", "lz4", "none"};

/* A fixture in a malloc'd buffer of exactly its size, so a read past the end is caught by ASan. */
static uint8_t *load_fixture(const char *name, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fatbin/kernel.%s.fatbin", name);
    char *text = read_file(path, len);
    if (!text) {
        printf("  cannot read %s\n", path);
        return NULL;
    }
    uint8_t *d = xmalloc(*len ? *len : 1);
    memcpy(d, text, *len);
    free(text);
    return d;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* One PTX line as the fatbinary step stores it: comments dropped, whitespace runs collapsed to one
 * space, no leading or trailing blanks. */
static void normalize_line(const char *s, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    bool space = false;
    for (size_t i = 0; i < n && o + 2 < cap; i++) {
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
            break;
        if (isspace((unsigned char)s[i])) {
            space = o > 0;
            continue;
        }
        if (space)
            out[o++] = ' ';
        space = false;
        out[o++] = s[i];
    }
    out[o] = 0;
}

/* Compare two PTX texts line by line after normalize_line; trailing empty lines do not count. */
static bool ptx_equivalent(const char *a, const char *b, char *why, size_t why_len)
{
    int line = 1;
    for (;;) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        size_t na = ea ? (size_t)(ea - a) : strlen(a), nb = eb ? (size_t)(eb - b) : strlen(b);
        char la[512], lb[512];
        normalize_line(a, na, la, sizeof la);
        normalize_line(b, nb, lb, sizeof lb);
        if (strcmp(la, lb) != 0) {
            bool rest_a_blank = true, rest_b_blank = true;
            for (const char *p = a; *p; p++)
                rest_a_blank &= isspace((unsigned char)*p) != 0;
            for (const char *p = b; *p; p++)
                rest_b_blank &= isspace((unsigned char)*p) != 0;
            if (rest_a_blank && rest_b_blank)
                return true;
            snprintf(why, why_len, "line %d: \"%s\" vs \"%s\"", line, la, lb);
            return false;
        }
        if (!ea && !eb)
            return true;
        a = ea ? ea + 1 : a + na;
        b = eb ? eb + 1 : b + nb;
        line++;
    }
}

/* Registers per kernel from kernel.ptxinfo (ptxas -v): "Compiling entry function 'K' for ..."
 * then "Used N registers". */
static int ptxinfo_regs(const char *kernel)
{
    char *info = read_file("tests/fatbin/kernel.ptxinfo", NULL);
    if (!info)
        return -1;
    char key[256];
    snprintf(key, sizeof key, "entry function '%s'", kernel);
    const char *p = strstr(info, key);
    const char *used = p ? strstr(p, "Used ") : NULL;
    int regs = used ? atoi(used + 5) : -1;
    free(info);
    return regs;
}

TEST(fatbin_entries)
{
    static const FatbinCompression ptx_comp[] = {FATBIN_ZSTD, FATBIN_ZSTD, FATBIN_LZ4, FATBIN_RAW};
    static const FatbinCompression elf_comp[] = {FATBIN_RAW, FATBIN_ZSTD, FATBIN_LZ4, FATBIN_RAW};
    size_t first_elf_len = 0;
    for (size_t f = 0; f < ARRAY_LEN(fixtures); f++) {
        size_t len;
        uint8_t *d = load_fixture(fixtures[f], &len);
        ASSERT(d);
        Fatbin fb;
        char err[256];
        bool ok = fatbin_parse(d, len, &fb, err, sizeof err);
        if (!ok)
            printf("  %s: %s\n", fixtures[f], err);
        ASSERT(ok);
        EXPECT_EQ_U(fb.size, len);
        ASSERT(fb.n_entries == 3);
        EXPECT_EQ_U(fb.entries[0].kind, FATBIN_KIND_ELF);
        EXPECT_EQ_U(fb.entries[0].arch, 75);
        EXPECT_EQ_U(fb.entries[0].compression, elf_comp[f]);
        if (elf_comp[f] == FATBIN_RAW)
            EXPECT_EQ_U(fb.entries[0].data_size, fb.entries[0].payload_size);
        else
            EXPECT_EQ_U(fb.entries[0].data_size, get64(d + 16 + 0x38)); /* the decompressed size field */
        for (uint32_t i = 1; i < 3; i++) {
            EXPECT_EQ_U(fb.entries[i].kind, FATBIN_KIND_PTX);
            EXPECT_EQ_U(fb.entries[i].compression, ptx_comp[f]);
            EXPECT_EQ_U(fb.entries[i].version_major, 9);
            EXPECT_EQ_U(fb.entries[i].version_minor, 0);
            EXPECT(fb.entries[i].flags & FATBIN_FLAG_64BIT);
        }
        EXPECT_EQ_U(fb.entries[1].arch, 75);
        EXPECT_EQ_U(fb.entries[2].arch, 86);
        EXPECT_EQ_I(fatbin_best_entry(&fb, FATBIN_KIND_PTX), 2);
        EXPECT_EQ_I(fatbin_best_entry(&fb, FATBIN_KIND_ELF), 0);
        EXPECT_EQ_I(fatbin_best_entry(&fb, 7), -1);
        /* the PTX a device runs: the newest at or below its compute capability, else the oldest */
        EXPECT_EQ_U(fatbin_ptx_arch_for(&fb, 80), 75);
        EXPECT_EQ_U(fatbin_ptx_arch_for(&fb, 86), 86);
        EXPECT_EQ_U(fatbin_ptx_arch_for(&fb, 90), 86);
        EXPECT_EQ_U(fatbin_ptx_arch_for(&fb, 70), 75);
        EXPECT_EQ_U(fatbin_ptx_arch_for(&fb, 20), 75);
        /* the decompressed cubin is the same ELF in every fixture */
        size_t elf_len;
        uint8_t *elf = fatbin_entry_data(&fb, 0, &elf_len, err, sizeof err);
        ASSERT(elf);
        EXPECT(elf_len > 64 && memcmp(elf, "\x7f" "ELF", 4) == 0);
        EXPECT_EQ_U(elf_len, fb.entries[0].data_size);
        if (!first_elf_len)
            first_elf_len = elf_len;
        EXPECT_EQ_U(elf_len, first_elf_len);
        free(elf);
        EXPECT(fatbin_entry_data(&fb, 3, NULL, err, sizeof err) == NULL);
        EXPECT_CONTAINS(err, "no entry 3");
        fatbin_free(&fb);
        free(d);
    }
}

TEST(fatbin_ptx_matches_nvcc)
{
    char *expected = read_file("tests/fatbin/kernel.ptx", NULL);
    ASSERT(expected);
    char *first = NULL;
    for (size_t f = 0; f < ARRAY_LEN(fixtures); f++) {
        size_t len;
        uint8_t *d = load_fixture(fixtures[f], &len);
        ASSERT(d);
        Fatbin fb;
        char err[256], why[1200];
        ASSERT(fatbin_parse(d, len, &fb, err, sizeof err));
        uint32_t arch = 0;
        char *ptx = fatbin_extract_ptx(&fb, &arch, err, sizeof err);
        if (!ptx)
            printf("  %s: %s\n", fixtures[f], err);
        ASSERT(ptx);
        EXPECT_EQ_U(arch, 86);
        EXPECT_CONTAINS(ptx, "\n.target sm_86\n");
        EXPECT_CONTAINS(ptx, "\n.visible .entry " MAT4 "(\n");
        bool same = ptx_equivalent(ptx, expected, why, sizeof why);
        if (!same)
            printf("  %s: %s\n", fixtures[f], why);
        EXPECT(same);
        /* every compression gives exactly the same text */
        if (!first)
            first = xstrdup(ptx);
        else
            EXPECT(strcmp(first, ptx) == 0);
        /* and the PTX front end accepts it */
        PtxModule *m = ptx_module_parse(ptx, "kernel.ptx", err, sizeof err);
        if (!m)
            printf("  %s: %s\n", fixtures[f], err);
        EXPECT(m && ptx_module_kernel(m, "saxpy") && ptx_module_kernel(m, MAT4));
        ptx_module_free(m);
        free(ptx);
        fatbin_free(&fb);
        free(d);
    }
    free(first);
    free(expected);
}

TEST(fatbin_regs_match_ptxas)
{
    int saxpy = ptxinfo_regs("saxpy"), mat4 = ptxinfo_regs(MAT4);
    ASSERT(saxpy > 0 && mat4 > 0);
    EXPECT(mat4 > saxpy); /* the fixture is built so; otherwise the test would prove less */
    for (size_t f = 0; f < ARRAY_LEN(fixtures); f++) {
        size_t len;
        uint8_t *d = load_fixture(fixtures[f], &len);
        ASSERT(d);
        Fatbin fb;
        char err[256];
        ASSERT(fatbin_parse(d, len, &fb, err, sizeof err));
        uint32_t regs = 0;
        bool ok = fatbin_kernel_regs(&fb, "saxpy", &regs, err, sizeof err);
        if (!ok)
            printf("  %s: %s\n", fixtures[f], err);
        EXPECT(ok);
        EXPECT_EQ_U(regs, (unsigned)saxpy);
        EXPECT(fatbin_kernel_regs(&fb, MAT4, &regs, err, sizeof err));
        EXPECT_EQ_U(regs, (unsigned)mat4);
        EXPECT(!fatbin_kernel_regs(&fb, "mat4", &regs, err, sizeof err)); /* the unmangled name is not it */
        EXPECT_CONTAINS(err, "none of its 1 cubins has kernel mat4");
        EXPECT(!fatbin_kernel_regs(&fb, "saxp", &regs, err, sizeof err));
        fatbin_free(&fb);
        free(d);
    }
    /* a fat binary with PTX only: relabel the cubin entry as an unknown kind */
    size_t len;
    uint8_t *d = load_fixture("none", &len);
    ASSERT(d);
    d[16] = 9;
    Fatbin fb;
    char err[256];
    uint32_t regs;
    ASSERT(fatbin_parse(d, len, &fb, err, sizeof err));
    EXPECT(!fatbin_kernel_regs(&fb, "saxpy", &regs, err, sizeof err));
    EXPECT_CONTAINS(err, "no cubin entry");
    fatbin_free(&fb);
    free(d);
}

TEST(fatbin_wrapper)
{
    size_t len;
    uint8_t *d = load_fixture("zstd", &len);
    ASSERT(d);
    /* a linked .nv_fatbin section holds more after this fat binary: the header gives the size */
    uint8_t *section = xcalloc(len + 64, 1);
    memcpy(section, d, len);
    struct {
        uint32_t magic, version;
        const void *data;
        void *unused;
    } w = {FATBIN_WRAPPER_MAGIC, 1, section, NULL};
    const void *data = NULL;
    char err[256];
    EXPECT_EQ_U(fatbin_size_from_wrapper(&w, &data, err, sizeof err), len);
    EXPECT(data == section);
    Fatbin fb;
    ASSERT(fatbin_parse_wrapper(&w, &fb, err, sizeof err));
    EXPECT_EQ_U(fb.n_entries, 3);
    EXPECT_EQ_U(fb.size, len);
    fatbin_free(&fb);
    ASSERT(fatbin_parse(section, len + 64, &fb, err, sizeof err)); /* the tail is ignored */
    EXPECT_EQ_U(fb.size, len);
    fatbin_free(&fb);
    w.version = 2; /* relocatable device code: data is still a fat binary */
    EXPECT_EQ_U(fatbin_size_from_wrapper(&w, NULL, err, sizeof err), len);

    w.version = 3;
    EXPECT_EQ_U(fatbin_size_from_wrapper(&w, &data, err, sizeof err), 0);
    EXPECT_CONTAINS(err, "unknown version 3");
    EXPECT(data == NULL);
    w.version = 1;
    w.magic = 0x12345678;
    EXPECT(!fatbin_parse_wrapper(&w, &fb, err, sizeof err));
    EXPECT_CONTAINS(err, "bad magic 0x12345678");
    w.magic = FATBIN_WRAPPER_MAGIC;
    w.data = NULL;
    EXPECT_EQ_U(fatbin_size_from_wrapper(&w, &data, err, sizeof err), 0);
    EXPECT_CONTAINS(err, "NULL fat binary pointer");
    EXPECT_EQ_U(fatbin_size_from_wrapper(NULL, &data, err, sizeof err), 0);
    w.data = section + 8; /* not at a fat binary header */
    EXPECT_EQ_U(fatbin_size_from_wrapper(&w, &data, err, sizeof err), 0);
    EXPECT_CONTAINS(err, "bad magic");
    free(section);
    free(d);
}

/* Parse, then use everything the parse found; true if all of it decoded. Must never crash. */
static bool use_all(const uint8_t *d, size_t len, char *err, size_t err_len)
{
    Fatbin fb;
    if (!fatbin_parse(d, len, &fb, err, err_len))
        return false;
    bool all = true;
    for (uint32_t i = 0; i < fb.n_entries; i++) {
        size_t n;
        uint8_t *data = fatbin_entry_data(&fb, i, &n, err, err_len);
        all &= data != NULL;
        free(data);
    }
    uint32_t regs;
    char *ptx = fatbin_extract_ptx(&fb, NULL, err, err_len);
    all &= ptx != NULL;
    free(ptx);
    all &= fatbin_kernel_regs(&fb, "saxpy", &regs, err, err_len);
    all &= fatbin_kernel_regs(&fb, MAT4, &regs, err, err_len);
    fatbin_free(&fb);
    return all;
}

TEST(fatbin_truncated)
{
    for (size_t f = 0; f < ARRAY_LEN(fixtures); f++) {
        size_t len;
        uint8_t *d = load_fixture(fixtures[f], &len);
        ASSERT(d);
        Fatbin fb;
        char err[256];
        ASSERT(fatbin_parse(d, len, &fb, err, sizeof err));
        ASSERT(fb.n_entries == 3);
        /* the cuts that end exactly after an entry (or before the first) */
        const size_t bounds[3] = {16, fb.entries[1].offset, fb.entries[2].offset};
        for (size_t cut = 0; cut < len; cut++) {
            uint8_t *p = xmalloc(cut ? cut : 1);
            Fatbin t;
            memcpy(p, d, cut);
            /* as stored: the header promises more than there is */
            err[0] = 0;
            EXPECT(!fatbin_parse(p, cut, &t, err, sizeof err));
            EXPECT(err[0] != 0);
            if (cut >= 16) {
                EXPECT(strstr(err, "truncated") != NULL);
                /* with the header's size cut to match: the entry list itself ends early */
                put64(p + 8, cut - 16);
                bool boundary = cut == bounds[0] || cut == bounds[1] || cut == bounds[2];
                bool ok = fatbin_parse(p, cut, &t, err, sizeof err);
                if (ok != boundary)
                    printf("  %s cut at %zu: parse %s (%s)\n", fixtures[f], cut, ok ? "succeeded" : "failed", err);
                EXPECT(ok == boundary);
                if (ok)
                    fatbin_free(&t);
                use_all(p, cut, err, sizeof err);
            } else {
                EXPECT_CONTAINS(err, "cannot hold the 16-byte header");
            }
            free(p);
        }
        /* compressed payloads cut short (the entry's compressed size lowered) never decode */
        size_t n_cut = 0;
        for (uint32_t i = 0; i < fb.n_entries; i++) {
            const FatbinEntry *e = &fb.entries[i];
            if (e->compression == FATBIN_RAW)
                continue;
            for (size_t k = 1; k < e->payload_size; k++) {
                uint8_t *p = xmalloc(len);
                memcpy(p, d, len);
                put32(p + e->offset + 0x10, (uint32_t)k);
                Fatbin t;
                ASSERT(fatbin_parse(p, len, &t, err, sizeof err));
                n_cut++;
                uint8_t *data = fatbin_entry_data(&t, i, NULL, err, sizeof err);
                if (data)
                    printf("  %s entry %u cut to %zu bytes decoded\n", fixtures[f], i, k);
                EXPECT(data == NULL);
                free(data);
                fatbin_free(&t);
                free(p);
            }
        }
        EXPECT(f == 3 ? n_cut == 0 : n_cut > 1000);
        fatbin_free(&fb);
        free(d);
    }
}

/* Patch a copy of fixture `name` (the `width` bytes at off set to v), then parse and use it: it
 * must fail, and the last error must contain `want`. */
static void expect_corrupt(const char *name, size_t off, int width, uint64_t v, const char *want, int line)
{
    size_t len;
    uint8_t *d = load_fixture(name, &len);
    if (!d || off + (size_t)width > len) {
        test_fail(__FILE__, line, "fixture missing or patch outside it");
        free(d);
        return;
    }
    for (int i = 0; i < width; i++)
        d[off + i] = (uint8_t)(v >> (8 * i));
    char err[512] = "";
    bool ok = use_all(d, len, err, sizeof err);
    if (ok || !strstr(err, want)) {
        char m[800];
        snprintf(m, sizeof m, "%s: patch at %zu: want an error with \"%s\", got %s \"%s\"", name, off, want,
                 ok ? "success" : "error", err);
        test_fail(__FILE__, line, m);
    }
    free(d);
}

/* Entry i of a fixture, as parsed (to aim the patches below). */
static FatbinEntry fixture_entry(const char *name, uint32_t i)
{
    FatbinEntry e = {0};
    size_t len;
    uint8_t *d = load_fixture(name, &len);
    Fatbin fb;
    char err[256];
    if (d && fatbin_parse(d, len, &fb, err, sizeof err)) {
        if (i < fb.n_entries)
            e = fb.entries[i];
        fatbin_free(&fb);
    }
    free(d);
    return e;
}

TEST(fatbin_corrupt)
{
    /* every fixture: the cubin, then compute_75 and compute_86 PTX (see regen.sh) */
    const FatbinEntry zelf = fixture_entry("zstd", 0), zptx = fixture_entry("zstd", 2);
    const FatbinEntry lptx = fixture_entry("lz4", 2), relf = fixture_entry("none", 0);
    ASSERT(zelf.offset == 16 && zptx.data_size > 0 && lptx.data_size > 0 && relf.payload_size > 0);
    const size_t z = zelf.offset, zp = zptx.offset, lp = lptx.offset, elf = relf.payload_offset;
    char want[200];

    expect_corrupt("zstd", 0, 4, 0xdeadbeef, "bad magic 0xdeadbeef at offset 0", __LINE__);
    expect_corrupt("zstd", 4, 2, 2, "unknown version 2 at offset 4", __LINE__);
    expect_corrupt("zstd", 6, 2, 8, "header size 8 at offset 6", __LINE__);
    expect_corrupt("zstd", 8, 8, 1ull << 40, "implausibly large", __LINE__);
    expect_corrupt("zstd", 8, 8, 100000, "truncated", __LINE__);
    expect_corrupt("zstd", z + 4, 4, 32, "entry 0 at offset 16: header size 32", __LINE__);
    expect_corrupt("zstd", z + 4, 4, 0xffffffffu, "entry 0 at offset 16: header size", __LINE__);
    expect_corrupt("zstd", z + 8, 8, ~0ull, "entry 0 at offset 16: payload of", __LINE__);
    /* a raw cubin said to be 8 bytes: the next entry header is read from inside the ELF */
    snprintf(want, sizeof want, "entry 1 at offset %zu", relf.payload_offset + 8);
    expect_corrupt("none", relf.offset + 8, 8, 8, want, __LINE__);
    expect_corrupt("zstd", z + 0x10, 4, 0, "compressed size 0", __LINE__);
    expect_corrupt("zstd", z + 0x10, 4, 100000, "compressed size 100000 is 0 or above", __LINE__);
    expect_corrupt("zstd", z + 0x28, 2, 0xa011, "name both LZ4 and zstd", __LINE__);
    expect_corrupt("zstd", z + 0x38, 8, 0, "decompressed size 0", __LINE__);
    expect_corrupt("zstd", z + 0x38, 8, 1ull << 40, "implausibly large", __LINE__);
    snprintf(want, sizeof want, "zstd frame holds %zu bytes, the header says %zu", zptx.data_size, zptx.data_size + 1);
    expect_corrupt("zstd", zp + 0x38, 8, zptx.data_size + 1, want, __LINE__);
    expect_corrupt("zstd", zp + 0x38, 8, zptx.data_size - 1, "zstd frame holds", __LINE__);
    expect_corrupt("zstd", zptx.payload_offset, 4, 0x12345678, "is not a zstd frame", __LINE__);
    expect_corrupt("zstd", zp + 0x28, 2, 0x2011, "LZ4:", __LINE__); /* zstd data read as LZ4 */
    expect_corrupt("lz4", lp + 0x28, 2, 0x8011, "not a zstd frame", __LINE__);
    snprintf(want, sizeof want, "LZ4: block decodes to %zu bytes, the header announces %zu", lptx.data_size,
             lptx.data_size + 1);
    expect_corrupt("lz4", lp + 0x38, 8, lptx.data_size + 1, want, __LINE__);
    snprintf(want, sizeof want, "LZ4: output overflows the announced %zu bytes", lptx.data_size - 1);
    expect_corrupt("lz4", lp + 0x38, 8, lptx.data_size - 1, want, __LINE__);
    /* the block's first sequence (the PTX's leading blank lines: a few literals and a match):
     * point its match offset far before the start */
    uint8_t tok = 0;
    {
        size_t len;
        uint8_t *d = load_fixture("lz4", &len);
        ASSERT(d);
        tok = d[lptx.payload_offset];
        free(d);
    }
    EXPECT((tok >> 4) < 15 && (tok >> 4) > 0);
    expect_corrupt("lz4", lptx.payload_offset + 1 + (tok >> 4), 2, 0x7000, "reaches before the output start", __LINE__);
    expect_corrupt("none", elf, 4, 0x464c4500, "not an ELF image", __LINE__);
    expect_corrupt("none", elf + 4, 1, 1, "ELF class 1", __LINE__);
    expect_corrupt("none", elf + 0x12, 2, 62, "ELF machine 62", __LINE__);
    expect_corrupt("none", elf + 0x28, 8, 1ull << 32, "section table", __LINE__);
    expect_corrupt("none", elf + 0x3C, 2, 0xffff, "section table", __LINE__);
    expect_corrupt("none", elf + 0x3E, 2, 0x200, "section-name table index 512", __LINE__);

    Fatbin fb;
    char err[256];
    size_t len;
    uint8_t *d;
    /* a PTX entry whose text is empty */
    d = load_fixture("none", &len);
    ASSERT(d);
    ASSERT(fatbin_parse(d, len, &fb, err, sizeof err));
    memset(d + fb.entries[2].payload_offset, 0, 8);
    EXPECT(fatbin_extract_ptx(&fb, NULL, err, sizeof err) == NULL);
    EXPECT_CONTAINS(err, "is empty");
    fatbin_free(&fb);
    free(d);
}

/* Random byte changes anywhere, in every fixture: errors or not, nothing may crash or read
 * outside the input (ASan). A changed byte in a payload may still decode (zstd frames here carry
 * no checksum), so only safety is checked. */
TEST(fatbin_fuzz)
{
    uint64_t seed = 12345;
    for (size_t f = 0; f < ARRAY_LEN(fixtures); f++) {
        size_t len;
        uint8_t *d = load_fixture(fixtures[f], &len);
        ASSERT(d);
        uint8_t *p = xmalloc(len);
        int failed = 0;
        for (int iter = 0; iter < 400; iter++) {
            memcpy(p, d, len);
            int n = 1 + (int)(rng_next(&seed) % 4);
            for (int k = 0; k < n; k++) {
                uint64_t r = rng_next(&seed);
                /* half the changes hit the headers and ELF tables, where they matter most */
                size_t at = (r & 1) ? (size_t)(r >> 8) % MIN(len, 400) : (size_t)(r >> 8) % len;
                p[at] = (uint8_t)(r >> 32);
            }
            char err[256];
            failed += !use_all(p, len, err, sizeof err);
        }
        EXPECT(failed > 0);
        free(p);
        free(d);
    }
}

TEST(fatbin_elf_regs)
{
    size_t len;
    uint8_t *d = load_fixture("none", &len);
    ASSERT(d);
    Fatbin fb;
    char err[256];
    ASSERT(fatbin_parse(d, len, &fb, err, sizeof err));
    const uint8_t *elf = d + fb.entries[0].payload_offset;
    size_t elf_len = fb.entries[0].payload_size;
    uint32_t regs = 0;
    EXPECT(fatbin_elf_kernel_regs(elf, elf_len, "saxpy", &regs, err, sizeof err));
    int want = ptxinfo_regs("saxpy");
    EXPECT_EQ_I(regs, want);
    EXPECT(!fatbin_elf_kernel_regs(elf, elf_len, "nope", &regs, err, sizeof err));
    EXPECT_CONTAINS(err, "no section .text.nope");
    /* every prefix of the image: an error, or the count once the prefix holds the ELF header,
     * the section table and the section names, which are all the lookup reads */
    uint64_t shoff = get64(elf + 0x28);
    size_t shnum = elf[0x3C] | elf[0x3D] << 8, shstrndx = elf[0x3E] | elf[0x3F] << 8;
    const uint8_t *strsh = elf + shoff + shstrndx * 64;
    size_t need = MAX((size_t)shoff + shnum * 64, (size_t)(get64(strsh + 0x18) + get64(strsh + 0x20)));
    for (size_t cut = 0; cut < elf_len; cut++) {
        uint8_t *p = xmalloc(cut ? cut : 1);
        memcpy(p, elf, cut);
        regs = 0;
        bool ok = fatbin_elf_kernel_regs(p, cut, "saxpy", &regs, err, sizeof err);
        if (ok != (cut >= need))
            printf("  ELF cut at %zu (needs %zu): %s\n", cut, need, ok ? "found" : err);
        EXPECT(ok == (cut >= need));
        EXPECT(!ok || regs == (uint32_t)want);
        free(p);
    }
    fatbin_free(&fb);
    free(d);
}

TEST(fatbin_lz4_blocks)
{
    uint8_t out[1200];
    char err[256];
    /* literals only */
    EXPECT(lz4_decode_block((const uint8_t *)"\x50hello", 6, out, 5, err, sizeof err));
    EXPECT(memcmp(out, "hello", 5) == 0);
    /* an empty block is zero bytes */
    EXPECT(lz4_decode_block(out, 0, out, 0, err, sizeof err));
    /* a match overlapping its own output repeats it: 'a' then 8 more */
    EXPECT(lz4_decode_block((const uint8_t *)"\x14" "a\x01\x00", 4, out, 9, err, sizeof err));
    EXPECT(memcmp(out, "aaaaaaaaa", 9) == 0);
    /* a match then final literals; offset 2 repeats "ab" */
    EXPECT(lz4_decode_block((const uint8_t *)"\x22" "ab\x02\x00\x10z", 7, out, 9, err, sizeof err));
    EXPECT(memcmp(out, "abababab" "z", 9) == 0);
    /* long literal run: 15 + 255 + 3 = 273 bytes */
    uint8_t src[400];
    src[0] = 0xF0;
    src[1] = 0xFF;
    src[2] = 0x03;
    for (int i = 0; i < 273; i++)
        src[3 + i] = (uint8_t)i;
    EXPECT(lz4_decode_block(src, 276, out, 273, err, sizeof err));
    EXPECT(out[0] == 0 && out[272] == (uint8_t)272);
    /* long match: 4 + 15 + 255 + 255 + 16 = 545 copies of 'x' after one literal */
    EXPECT(lz4_decode_block((const uint8_t *)"\x1Fx\x01\x00\xFF\xFF\x10", 7, out, 546, err, sizeof err));
    EXPECT(out[0] == 'x' && out[545] == 'x');

    EXPECT(!lz4_decode_block((const uint8_t *)"\x14" "a\x00\x00", 4, out, 9, err, sizeof err));
    EXPECT_CONTAINS(err, "match offset 0 at input offset 2");
    EXPECT(!lz4_decode_block((const uint8_t *)"\x14" "a\x02\x00", 4, out, 9, err, sizeof err));
    EXPECT_CONTAINS(err, "reaches before the output start");
    EXPECT(!lz4_decode_block((const uint8_t *)"\x50hell", 5, out, 5, err, sizeof err));
    EXPECT_CONTAINS(err, "5 literals at input offset 1 run past the end");
    EXPECT(!lz4_decode_block((const uint8_t *)"\x50hello", 6, out, 4, err, sizeof err));
    EXPECT_CONTAINS(err, "output overflows the announced 4 bytes");
    EXPECT(!lz4_decode_block((const uint8_t *)"\x50hello", 6, out, 6, err, sizeof err));
    EXPECT_CONTAINS(err, "decodes to 5 bytes, the header announces 6");
    EXPECT(!lz4_decode_block((const uint8_t *)"\x14" "a\x01", 3, out, 9, err, sizeof err));
    EXPECT_CONTAINS(err, "match offset at input offset 2 is cut off");
    EXPECT(!lz4_decode_block((const uint8_t *)"\x1F" "a\x01\x00\xFF", 5, out, 1000, err, sizeof err));
    EXPECT_CONTAINS(err, "is cut off");
    EXPECT(!lz4_decode_block((const uint8_t *)"\x1F" "a\x01\x00\xFF\xFF\xFF\xFF\x00", 9, out, 100, err, sizeof err));
    EXPECT_CONTAINS(err, "output overflows the announced 100 bytes");
    EXPECT(!lz4_decode_block((const uint8_t *)"\xF0\xFF", 2, out, 100, err, sizeof err));
    EXPECT_CONTAINS(err, "literal length of the sequence at input offset 0 runs past the end");
    /* a long run of 255s in a length: refused early, no overflow */
    uint8_t ffs[1000];
    memset(ffs, 0xFF, sizeof ffs);
    ffs[0] = 0xF0;
    EXPECT(!lz4_decode_block(ffs, sizeof ffs, out, sizeof out, err, sizeof err));
}
