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
#include "../common/mapreduce_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 1024 /* record size before extending to the next line break */
#define KEYWORD_RANK 19

/* The kernels' int2 records. */
struct rec {
    int off, len;
};

static char vocab[MR_VOCAB][16];

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
    char *text = mr_make_text(size, vocab, 'a');
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
    mr_k_scan_block = wl_kernel("sm_scan_block");
    mr_k_scan_add = wl_kernel("sm_scan_add");
    CUfunction k_count = wl_kernel("sm_map_count"), k_map = wl_kernel("sm_map");

    CUdeviceptr d_text = wl_upload(text, size), d_recs = wl_upload(recs, sizeof *recs * n_recs);
    CUdeviceptr d_keyword = wl_upload(keyword, kw_len + 1);
    CUdeviceptr d_found = wl_alloc(4 * (size_t)n_recs), d_found_at = wl_alloc(4 * ((size_t)n_recs + 1));
    void *count_args[] = {&d_text, &d_recs, &n_recs, &d_keyword, &kw_len, &d_found};
    mr_launch(k_count, n_recs, count_args);
    int n_out = mr_scan(d_found, d_found_at, n_recs);
    CUdeviceptr d_out = wl_alloc(sizeof(struct rec) * (size_t)n_out);
    void *map_args[] = {&d_text, &d_recs, &n_recs, &d_keyword, &kw_len, &d_found_at, &d_out};
    mr_launch(k_map, n_recs, map_args);
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
