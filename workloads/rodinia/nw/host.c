/* host.c: Needleman-Wunsch global sequence alignment (Rodinia NW).
 *
 * Two random sequences of length n over 10 residues (as in the original: residues 1..10 of the
 * BLOSUM62 order A R N D C Q E G H I L ...) give the (n+1) x (n+1) substitution-score matrix
 * (BLOSUM62 entries) and the score matrix, whose row 0 and column 0 hold -i * penalty. Like the
 * original, the host launches nw_upper once per tile anti-diagonal 1..n/16 (with that many
 * 16-thread blocks) and then nw_lower for n/16-1..1, 2*n/16-1 launches in all, and downloads
 * the score matrix (the traceback is not done).
 *
 * Arguments: n (a multiple of 16), penalty, seed. Sizes:
 *   small (default) n=1024: 127 launches of up to 64 blocks, 4096 blocks in all; the same tile
 *     pattern as the paper size (the score column left of a tile is 16 different rows).
 *   paper n=4096: LAS Table 4.2 lists NW with 511 kernels and 65536 CTAs (256 x 256 tiles).
 *     CIAO Table II's 32 MB working set is n=2048.
 * Check: the whole score matrix against a CPU dynamic program, exactly. */
#include "wl.h"

#include <stdio.h>
#include <stdlib.h>

#define TILE 16
#define RESIDUES 10

/* BLOSUM62 among residues R N D C Q E G H I L (the original's indices 1..10) */
static const int blosum[RESIDUES][RESIDUES] = {
    {5, 0, -2, -3, 1, 0, -2, 0, -3, -2},     {0, 6, 1, -3, 0, 0, 0, 1, -3, -3},
    {-2, 1, 6, -3, 0, 2, -1, -1, -3, -4},    {-3, -3, -3, 9, -3, -4, -3, -3, -1, -1},
    {1, 0, 0, -3, 5, 2, -2, 0, -3, -2},      {0, 0, 2, -4, 2, 5, -2, 0, -3, -3},
    {-2, 0, -1, -3, -2, -2, 6, -2, -4, -4},  {0, 1, -1, -3, 0, 0, -2, 8, -3, -3},
    {-3, -3, -3, -1, -3, -3, -4, -3, 4, 2},  {-2, -3, -4, -1, -2, -3, -4, -3, 2, 4},
};

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"n", "penalty", "seed"};
    long val[] = {1024, 10, 1};
    wl_args(argc, argv, 3, keys, val);
    if (val[0] < TILE || val[0] % TILE || val[0] > 32768 || val[1] < 0 || val[1] > 1000) {
        fprintf(stderr, "nw: n must be a multiple of %d in %d..32768, penalty in 0..1000\n", TILE, TILE);
        return 2;
    }
    int n = (int)val[0], penalty = (int)val[1], cols = n + 1, tiles = n / TILE;
    size_t size = (size_t)cols * cols, bytes = size * sizeof(int);

    wl_seed((uint64_t)val[2]);
    int *seq1 = malloc(cols * sizeof *seq1), *seq2 = malloc(cols * sizeof *seq2);
    int *subst = calloc(size, sizeof *subst), *score = calloc(size, sizeof *score);
    int *want = malloc(bytes);
    if (!seq1 || !seq2 || !subst || !score || !want) {
        fprintf(stderr, "nw: out of memory\n");
        return 1;
    }
    for (int i = 1; i <= n; i++)
        seq1[i] = (int)wl_rand_below(RESIDUES);
    for (int j = 1; j <= n; j++)
        seq2[j] = (int)wl_rand_below(RESIDUES);
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            subst[(size_t)i * cols + j] = blosum[seq1[i]][seq2[j]];
    for (int i = 0; i <= n; i++) {
        score[(size_t)i * cols] = -i * penalty;
        score[i] = -i * penalty;
    }

    wl_init();
    CUfunction upper = wl_kernel("nw_upper"), lower = wl_kernel("nw_lower");
    CUdeviceptr d_subst = wl_upload(subst, bytes), d_score = wl_upload(score, bytes);
    for (int d = 1; d <= tiles; d++) {
        void *args[] = {&d_subst, &d_score, &cols, &penalty, &d, &tiles};
        wl_launch(upper, d, 1, 1, TILE, 1, 1, 0, args);
    }
    for (int d = tiles - 1; d >= 1; d--) {
        void *args[] = {&d_subst, &d_score, &cols, &penalty, &d, &tiles};
        wl_launch(lower, d, 1, 1, TILE, 1, 1, 0, args);
    }
    wl_download(score, d_score, bytes);

    for (int i = 0; i <= n; i++) {
        want[(size_t)i * cols] = -i * penalty;
        want[i] = -i * penalty;
    }
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            size_t k = (size_t)i * cols + j;
            want[k] = max3(want[k - cols - 1] + subst[k], want[k - 1] - penalty, want[k - cols] - penalty);
        }

    double err = wl_max_err_i(score, want, size);
    printf("nw: alignment score %d\n", score[size - 1]);
    free(seq1), free(seq2), free(subst), free(score), free(want);
    return wl_finish("nw", err, 0);
}
