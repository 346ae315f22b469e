/* kernel.cu: StringMatch (SM) as a GPU MapReduce job in the style of the Mars framework.
 *
 * Input: lines of text cut into records of about 1 KB that end at a line break, described by
 * recs[r] = {byte offset, length}, and a keyword. Thread r maps record r: it walks the record
 * byte by byte, word by word, and emits {offset, length} for every word equal to the keyword.
 * The 32 lanes of a warp walk 32 records about 1 KB apart, so every text load touches 32
 * lines; the keyword loads are the same address for all lanes.
 *
 * Phases: sm_map_count (matches per record), an exclusive prefix sum of the counts
 * (sm_scan_*) giving each thread its output slots, sm_map (writes the matches). As in Mars,
 * the job is map-only: the matches come out in record order and need no sort or reduce. */

#include "../common/mapreduce.cuh"

MR_SCAN_KERNELS(sm) /* sm_scan_block, sm_scan_add */

/* ---- map ---- */

__device__ bool is_space(char c)
{
    return c == ' ' || c == '\n';
}

/* Does the word p[0..len) equal the keyword? Only same-length words are compared. */
__device__ bool matches(const char *p, int len, const char *keyword, int kw_len)
{
    if (len != kw_len)
        return false;
    for (int i = 0; i < len; i++)
        if (p[i] != keyword[i])
            return false;
    return true;
}

extern "C" __global__ void sm_map_count(const char *text, const int2 *recs, int n_recs, const char *keyword,
                                        int kw_len, int *n_found)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_recs)
        return;
    int2 rec = recs[r];
    const char *p = text + rec.x;
    int found = 0, start = 0;
    for (int i = 0; i < rec.y; i++) {
        if (is_space(p[i])) {
            found += matches(p + start, i - start, keyword, kw_len);
            start = i + 1;
        }
    }
    found += matches(p + start, rec.y - start, keyword, kw_len);
    n_found[r] = found;
}

extern "C" __global__ void sm_map(const char *text, const int2 *recs, int n_recs, const char *keyword, int kw_len,
                                  const int *found_at, int2 *out)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n_recs)
        return;
    int2 rec = recs[r];
    const char *p = text + rec.x;
    int slot = found_at[r], start = 0;
    for (int i = 0; i <= rec.y; i++) {
        if (i == rec.y || is_space(p[i])) {
            if (matches(p + start, i - start, keyword, kw_len))
                out[slot++] = make_int2(rec.x + start, i - start);
            start = i + 1;
        }
    }
}
