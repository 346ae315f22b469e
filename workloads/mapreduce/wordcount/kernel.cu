/* kernel.cu: WordCount (WC) as a GPU MapReduce job in the style of the Mars framework.
 *
 * Input: upper-case text cut into records of about 2 KB (each ends at a word boundary),
 * described by recs[r] = {byte offset, length}. Thread r maps record r, so the 32 lanes of a
 * warp walk 32 records about 2 KB apart byte by byte: every text load touches 32 lines.
 *
 * Phases (the host launches them in this order):
 *   wc_map_count   each thread counts its words of at least MIN_WORD letters and their bytes;
 *   wc_scan_*      exclusive prefix sums of both counts give every thread its output slots;
 *   wc_map         each thread copies its words into the key buffer at its byte slot and
 *                  writes one pair {key offset, key length, value 1} per word at its pair slot;
 *   wc_sort        one step (k, j) of a bitonic sort of the pairs by key string (the host
 *                  launches one step per launch, over a power-of-two array padded with
 *                  length -1 entries that sort last);
 *   wc_group_mark  flags each sorted pair whose key differs from its predecessor's;
 *   wc_group_start after a prefix sum of the flags, records where each group (word) starts;
 *   wc_reduce      one thread per word adds up its values: the word's count.
 * Like Mars, only words of at least six letters are emitted. */

#include "../common/mapreduce.cuh"

#define MIN_WORD 6

MR_SCAN_KERNELS(wc) /* wc_scan_block, wc_scan_add */

/* ---- map ---- */

__device__ bool is_letter(char c)
{
    return c >= 'A' && c <= 'Z';
}

extern "C" __global__ void wc_map_count(const char *text, const int2 *recs, int n_recs, int *n_words,
                                        int *n_bytes)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_recs)
        return;
    int2 rec = recs[r];
    const char *p = text + rec.x;
    int words = 0, bytes = 0, run = 0;
    for (int i = 0; i < rec.y; i++) {
        if (is_letter(p[i])) {
            run++;
        } else {
            if (run >= MIN_WORD) {
                words++;
                bytes += run;
            }
            run = 0;
        }
    }
    if (run >= MIN_WORD) {
        words++;
        bytes += run;
    }
    n_words[r] = words;
    n_bytes[r] = bytes;
}

extern "C" __global__ void wc_map(const char *text, const int2 *recs, int n_recs, const int *word_at,
                                  const int *byte_at, char *keys, int4 *pairs)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_recs)
        return;
    int2 rec = recs[r];
    const char *p = text + rec.x;
    int slot = word_at[r], key_at = byte_at[r], run = 0;
    for (int i = 0; i <= rec.y; i++) {
        if (i < rec.y && is_letter(p[i])) {
            run++;
            continue;
        }
        if (run >= MIN_WORD) {
            /* emit: copy the key bytes into the key buffer, then the pair */
            for (int c = 0; c < run; c++)
                keys[key_at + c] = p[i - run + c];
            pairs[slot++] = make_int4(key_at, run, 1, 0);
            key_at += run;
        }
        run = 0;
    }
}

/* ---- group: bitonic sort by key, group boundaries ---- */

MR_GROUP_KERNELS(wc, mr_key_order) /* wc_sort, wc_group_mark, wc_group_start */

/* ---- reduce ---- */

/* out[g] = {key offset, key length, sum of the values} of word g. */
extern "C" __global__ void wc_reduce(const int4 *pairs, const int *start, int groups, int4 *out)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= groups)
        return;
    int s = start[g], e = start[g + 1], sum = 0;
    for (int i = s; i < e; i++)
        sum += pairs[i].z;
    out[g] = make_int4(pairs[s].x, pairs[s].y, sum, 0);
}
