/* host.c: StringMatch (SM), a Mars-style GPU MapReduce job (see kernel.cu).
 *
 * Input: `bytes` of synthetic lower-case text generated from `seed`: lines of 8-16 words drawn
 * from a 4096-word vocabulary with a Zipf (1/rank) distribution (frequent words short, rare
 * ones long). The keyword is the vocabulary's 20th most frequent word (about 0.5% of the
 * words). As in the Mars version, the text is cut into records of about 1 KB ending at a line
 * break, and the keyword lives in device memory.
 *
 * The host runs the Mars map-only flow with 256-thread blocks and one record per thread: map
 * count, a prefix sum of the counts on the GPU with the total read back to size the output,
 * map. The (offset, length) list of matches must equal a CPU scan of the text exactly.
 *
 * Arguments: bytes, seed. Sizes:
 *   small = paper (default) bytes=1048576: the 1 MB input of CIAO's Table II; about 980
 *     records (4 blocks) and 800 matches. The input is already small, so both sizes are the
 *     same. */
#include "wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VOCAB 4096
#define CHUNK 1024 /* record size before extending to the next line break */
#define KEYWORD_RANK 19

/* The kernels' int2 records. */
struct rec {
    int off, len;
};

static CUfunction k_scan_block, k_scan_add;

/* 256-thread blocks covering n threads (at least one block: the kernels check n). */
static unsigned blocks(long n)
{
    return n > 256 ? (unsigned)((n + 255) / 256) : 1;
}

/* Exclusive prefix sum of in[0..n) into out[0..n] (out[n] = total) on the GPU. */
static void scan_rec(CUdeviceptr in, CUdeviceptr out, int n)
{
    int nb = n / 256 + 1;
    CUdeviceptr sums = wl_alloc((size_t)nb * 4);
    void *a[] = {&in, &out, &sums, &n};
    wl_launch(k_scan_block, nb, 1, 1, 256, 1, 1, 0, a);
    if (nb > 1) {
        CUdeviceptr base = wl_alloc((size_t)(nb + 1) * 4);
        scan_rec(sums, base, nb);
        int m = n + 1;
        void *b[] = {&out, &base, &m};
        wl_launch(k_scan_add, nb, 1, 1, 256, 1, 1, 0, b);
        wl_free(base);
    }
    wl_free(sums);
}

/* The scan, then the total read back (the host sizes the output with it). */
static int scan(CUdeviceptr in, CUdeviceptr out, int n)
{
    scan_rec(in, out, n);
    int total;
    wl_download(&total, out + (CUdeviceptr)n * 4, 4);
    return total;
}

static char vocab[VOCAB][16];

/* Text of `size` bytes: Zipf-distributed words from a generated vocabulary. */
static char *make_text(long size)
{
    static double cdf[VOCAB];
    double sum = 0;
    for (int r = 0; r < VOCAB; r++) {
        int len = 2 + (int)(0.7 * log2(r + 1.0)) + (int)wl_rand_below(3);
        if (len > 14)
            len = 14;
        for (int c = 0; c < len; c++)
            vocab[r][c] = (char)('a' + wl_rand_below(26));
        vocab[r][len] = 0;
        sum += 1.0 / (r + 1);
        cdf[r] = sum;
    }
    char *text = malloc(size + 1);
    long at = 0;
    while (at < size) {
        int words = 8 + (int)wl_rand_below(9);
        for (int w = 0; w < words && at < size; w++) {
            double u = wl_randf() * sum;
            int lo = 0, hi = VOCAB - 1;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (cdf[mid] < u)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (const char *s = vocab[lo]; *s && at < size; s++)
                text[at++] = *s;
            if (at < size)
                text[at++] = w + 1 < words ? ' ' : '\n';
        }
    }
    text[size] = 0;
    return text;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"bytes", "seed"};
    long val[] = {1048576, 1};
    wl_args(argc, argv, 2, keys, val);
    if (val[0] < 1 || val[0] > 1000000000) {
        fprintf(stderr, "stringmatch: need 1 <= bytes <= 1e9\n");
        return 2;
    }
    long size = val[0];
    wl_seed((uint64_t)val[1]);
    char *text = make_text(size);
    const char *keyword = vocab[KEYWORD_RANK];
    int kw_len = (int)strlen(keyword);

    /* Records: CHUNK bytes, extended past the next line break. */
    int n_recs = 0;
    struct rec *recs = malloc(sizeof *recs * (size / CHUNK + 2));
    for (long s = 0; s < size;) {
        long e = s + CHUNK < size ? s + CHUNK : size;
        while (e < size && text[e - 1] != '\n')
            e++;
        recs[n_recs++] = (struct rec){(int)s, (int)(e - s)};
        s = e;
    }

    wl_init();
    k_scan_block = wl_kernel("sm_scan_block");
    k_scan_add = wl_kernel("sm_scan_add");
    CUfunction k_count = wl_kernel("sm_map_count"), k_map = wl_kernel("sm_map");

    CUdeviceptr d_text = wl_upload(text, size), d_recs = wl_upload(recs, sizeof *recs * n_recs);
    CUdeviceptr d_keyword = wl_upload(keyword, kw_len + 1);
    CUdeviceptr d_found = wl_alloc(4 * (size_t)n_recs), d_found_at = wl_alloc(4 * ((size_t)n_recs + 1));
    void *count_args[] = {&d_text, &d_recs, &n_recs, &d_keyword, &kw_len, &d_found};
    wl_launch(k_count, blocks(n_recs), 1, 1, 256, 1, 1, 0, count_args);
    int n_out = scan(d_found, d_found_at, n_recs);
    CUdeviceptr d_out = wl_alloc(sizeof(struct rec) * (size_t)n_out);
    void *map_args[] = {&d_text, &d_recs, &n_recs, &d_keyword, &kw_len, &d_found_at, &d_out};
    wl_launch(k_map, blocks(n_recs), 1, 1, 256, 1, 1, 0, map_args);
    struct rec *out = malloc(sizeof *out * (n_out + 1));
    wl_download(out, d_out, sizeof *out * n_out);

    /* CPU reference: every blank-separated word of the text equal to the keyword, in order. */
    long bad = 0;
    int n_want = 0;
    for (long i = 0; i <= size;) {
        long s = i;
        while (i < size && text[i] != ' ' && text[i] != '\n')
            i++;
        if (i - s == kw_len && !memcmp(text + s, keyword, kw_len)) {
            if (n_want >= n_out || out[n_want].off != s || out[n_want].len != kw_len)
                bad++;
            n_want++;
        }
        i++;
    }
    bad += labs((long)n_want - n_out);
    printf("stringmatch: %ld bytes, %d records, keyword \"%s\" found %d times\n", size, n_recs, keyword, n_out);

    free(text), free(recs), free(out);
    return wl_finish("stringmatch", (double)bad, 0);
}
