/* test_index.c: the set-index functions: every registered one maps into [0, n_sets) for any
 * geometry; the prime schemes never use their unreachable sets; hand-computed values of the
 * Fermi hash, IPOLY (against GPGPU-Sim's XOR equations) and FUP; and the paper's stride sweep
 * (FUP paper Fig. 3 / Fig. 9): A[tid*STRIDE], tid 0..31, STRIDE 128 B..32 MB, 32 sets, 128 B. */
#include "../test.h"

#include "analysis/index_study.h"
#include "base/base.h"
#include "policy/policy.h"

static IndexFn index_make(const char *name, uint32_t n_sets, uint32_t line_bytes)
{
    IndexFn fn;
    const IndexOps *ops = policy_index(name);
    CHECK(ops);
    index_fn_init(&fn, ops, n_sets, line_bytes);
    return fn;
}

/* Concentration of the load A[tid*stride], tid 0..31, A at base. */
static double index_stride_conc(const IndexFn *fn, uint64_t base, uint64_t stride)
{
    uint64_t addrs[32];
    for (uint32_t t = 0; t < 32; t++)
        addrs[t] = base + t * stride;
    return index_study_load_concentration(fn, addrs, 32, NULL, NULL);
}

static uint64_t index_largest_prime_upto(uint64_t n)
{
    for (;; n--) {
        bool prime = n >= 2;
        for (uint64_t d = 2; d * d <= n && prime; d++)
            prime = n % d != 0;
        if (prime || n <= 1)
            return n;
    }
}

TEST(index_all_registered)
{
    static const char *const want[] = {"conv", "bxor", "pmod", "pdisp", "fermi", "ipoly", "fup"};
    for (size_t i = 0; i < ARRAY_LEN(want); i++)
        EXPECT(policy_index(want[i]) != NULL);
    EXPECT(policy_count(POLICY_INDEX) >= ARRAY_LEN(want));
}

TEST(index_range_random_addresses)
{
    uint64_t rng = 12345;
    uint32_t n_fns = policy_count(POLICY_INDEX);
    for (uint32_t f = 0; f < n_fns; f++) {
        const char *name = policy_name_at(POLICY_INDEX, f);
        for (uint32_t sets = 1; sets <= 1024; sets <<= 1) {
            for (uint32_t line = 32; line <= 256; line <<= 1) {
                IndexFn fn = index_make(name, sets, line);
                uint32_t bad = 0, max_seen = 0;
                for (int i = 0; i < 4000; i++) {
                    uint64_t a = rng_next(&rng);
                    if (i & 1)
                        a &= ((uint64_t)1 << 36) - 1; /* plausible device addresses too */
                    uint32_t s = index_fn_set(&fn, a);
                    bad += s >= sets;
                    max_seen = MAX(max_seen, s);
                }
                if (bad) {
                    char msg[128];
                    snprintf(msg, sizeof msg, "%s sets=%u line=%u: %u out of range", name, sets, line, bad);
                    test_fail(__FILE__, __LINE__, msg);
                }
                /* 4000 random lines reach the top of a small index range. */
                if (sets >= 8 && sets <= 64 && strcmp(name, "pmod") && strcmp(name, "pdisp"))
                    EXPECT_EQ_U(max_seen, sets - 1);
            }
        }
        /* The largest cache the config allows. */
        IndexFn big = index_make(name, 1u << 20, 128);
        for (int i = 0; i < 1000; i++)
            EXPECT(index_fn_set(&big, rng_next(&rng)) < (1u << 20));
    }
}

TEST(index_prime_schemes_skip_unreachable_sets)
{
    uint64_t rng = 99;
    for (uint32_t sets = 4; sets <= 1024; sets <<= 1) {
        uint64_t p_mod = index_largest_prime_upto(sets);     /* pmod: largest prime <= n */
        uint64_t p_disp = index_largest_prime_upto(sets - 1); /* pdisp: largest prime < n */
        IndexFn pm = index_make("pmod", sets, 128);
        IndexFn pd = index_make("pdisp", sets, 128);
        uint32_t pm_max = 0, pd_max = 0;
        for (int i = 0; i < 20000; i++) {
            uint64_t a = rng_next(&rng);
            pm_max = MAX(pm_max, index_fn_set(&pm, a));
            pd_max = MAX(pd_max, index_fn_set(&pd, a));
        }
        /* Every reachable set is reached, none beyond. */
        EXPECT_EQ_U(pm_max, p_mod - 1);
        EXPECT_EQ_U(pd_max, p_disp - 1);
        /* Consecutive lines: pmod walks 0..p-1 then wraps to 0. */
        EXPECT_EQ_U(index_fn_set(&pm, (p_mod - 1) * 128), p_mod - 1);
        EXPECT_EQ_U(index_fn_set(&pm, p_mod * 128), 0);
    }
    /* 32 sets: pmod uses 31 sets (32 is not prime), pdisp 31 (largest prime < 32). */
    IndexFn pm = index_make("pmod", 32, 128);
    EXPECT_EQ_U(pm.param[0], 31);
    IndexFn pd = index_make("pdisp", 32, 128);
    EXPECT_EQ_U(pd.param[0], 31);
    /* pdisp by hand: line 0x1234 -> T = 0x91, x = 0x14; (257*145 + 20) mod 31 = 37285 mod 31 = 23. */
    EXPECT_EQ_U(index_fn_set(&pd, (uint64_t)0x1234 * 128), 37285 % 31);
    EXPECT_EQ_U(37285 % 31, 23);
}

TEST(index_fermi_hand_computed)
{
    IndexFn f32 = index_make("fermi", 32, 128);
    EXPECT_EQ_U(index_fn_set(&f32, 0x0), 0);
    EXPECT_EQ_U(index_fn_set(&f32, 0x80), 1);        /* line bit 0 */
    EXPECT_EQ_U(index_fn_set(&f32, 0xf80), 31);      /* bits 7..11 all set */
    EXPECT_EQ_U(index_fn_set(&f32, 0x1000), 0);      /* bit 12 is not used with 32 sets */
    EXPECT_EQ_U(index_fn_set(&f32, 0x2000), 1);      /* bit 13 -> index bit 0 */
    EXPECT_EQ_U(index_fn_set(&f32, 0x2080), 0);      /* bit 7 ^ bit 13 */
    EXPECT_EQ_U(index_fn_set(&f32, 0x10000), 0);     /* bit 16 is not used */
    EXPECT_EQ_U(index_fn_set(&f32, 0x20000), 8);     /* bit 17 -> index bit 3 */
    EXPECT_EQ_U(index_fn_set(&f32, 0x80000), 16);    /* bit 19 -> index bit 4 */
    EXPECT_EQ_U(index_fn_set(&f32, 0x40000), 0);     /* bit 18 is not used */
    /* 0xABCDE80: bits 7..11 = 0b11101 (29); bits 13,14,15,17,19 = 0,1,1,0,1 -> 0b10110 (22);
     * 29 ^ 22 = 11. */
    EXPECT_EQ_U(index_fn_set(&f32, 0xABCDE80), 11);
    IndexFn f64 = index_make("fermi", 64, 128);
    EXPECT_EQ_U(index_fn_set(&f64, 0x1000), 32);     /* bit 12 prepended as index bit 5 */
    EXPECT_EQ_U(index_fn_set(&f64, 0x3080), 32);     /* bit 12 | (bit 7 ^ bit 13) */
    EXPECT_EQ_U(index_fn_set(&f64, 0xABCDE80), 32 | 11); /* bit 12 of 0xABCDE80 is 1 */
    EXPECT_EQ_U(index_fn_set(&f64, 0xABCDF80), 32 | (31 ^ 22));
    EXPECT_EQ_U(index_fn_set(&f64, 0xABCCE80), 11);      /* the same with bit 12 clear */
    /* Other line sizes: the five low bits follow the line, the XORed bits stay absolute. */
    IndexFn f32l64 = index_make("fermi", 32, 64);
    EXPECT_EQ_U(index_fn_set(&f32l64, 0x40), 1);
    EXPECT_EQ_U(index_fn_set(&f32l64, 0x2000), 1);   /* line bit 7 is not in bits 0..4 */
    /* Generalisations: 16 sets keep the low 4 bits; 128 sets add line-address bits 5..6. */
    IndexFn f16 = index_make("fermi", 16, 128);
    EXPECT_EQ_U(index_fn_set(&f16, 0x80000), 0);
    EXPECT_EQ_U(index_fn_set(&f16, 0xABCDE80), 11);
    IndexFn f128 = index_make("fermi", 128, 128);
    EXPECT_EQ_U(index_fn_set(&f128, 0x1000), 32);
    EXPECT_EQ_U(index_fn_set(&f128, 0x2000), 64 | 1);
}

/* GPGPU-Sim's IPOLY equations for 32 sets (hashing.cc), transcribed: a = the line-address bits
 * above the index, b = the conventional index bits. */
static uint32_t index_gpgpusim_ipoly32(uint64_t addr)
{
    uint64_t a = addr >> 12, b = (addr >> 7) & 31;
#define A(i) ((uint32_t)(a >> (i)) & 1)
#define B(i) ((uint32_t)(b >> (i)) & 1)
    uint32_t n0 = A(13) ^ A(12) ^ A(11) ^ A(10) ^ A(9) ^ A(6) ^ A(5) ^ A(3) ^ A(0) ^ B(0);
    uint32_t n1 = A(14) ^ A(13) ^ A(12) ^ A(11) ^ A(10) ^ A(7) ^ A(6) ^ A(4) ^ A(1) ^ B(1);
    uint32_t n2 = A(14) ^ A(10) ^ A(9) ^ A(8) ^ A(7) ^ A(6) ^ A(3) ^ A(2) ^ A(0) ^ B(2);
    uint32_t n3 = A(11) ^ A(10) ^ A(9) ^ A(8) ^ A(7) ^ A(4) ^ A(3) ^ A(1) ^ B(3);
    uint32_t n4 = A(12) ^ A(11) ^ A(10) ^ A(9) ^ A(8) ^ A(5) ^ A(4) ^ A(2) ^ B(4);
    return n0 | n1 << 1 | n2 << 2 | n3 << 3 | n4 << 4;
}

/* The same for 64 sets. */
static uint32_t index_gpgpusim_ipoly64(uint64_t addr)
{
    uint64_t a = addr >> 13, b = (addr >> 7) & 63;
    uint32_t n0 = A(18) ^ A(17) ^ A(16) ^ A(15) ^ A(12) ^ A(10) ^ A(6) ^ A(5) ^ A(0) ^ B(0);
    uint32_t n1 = A(15) ^ A(13) ^ A(12) ^ A(11) ^ A(10) ^ A(7) ^ A(5) ^ A(1) ^ A(0) ^ B(1);
    uint32_t n2 = A(16) ^ A(14) ^ A(13) ^ A(12) ^ A(11) ^ A(8) ^ A(6) ^ A(2) ^ A(1) ^ B(2);
    uint32_t n3 = A(17) ^ A(15) ^ A(14) ^ A(13) ^ A(12) ^ A(9) ^ A(7) ^ A(3) ^ A(2) ^ B(3);
    uint32_t n4 = A(18) ^ A(16) ^ A(15) ^ A(14) ^ A(13) ^ A(10) ^ A(8) ^ A(4) ^ A(3) ^ B(4);
    uint32_t n5 = A(17) ^ A(16) ^ A(15) ^ A(14) ^ A(11) ^ A(9) ^ A(5) ^ A(4) ^ B(5);
#undef A
#undef B
    return n0 | n1 << 1 | n2 << 2 | n3 << 3 | n4 << 4 | n5 << 5;
}

TEST(index_ipoly_matches_gpgpusim_equations)
{
    IndexFn p32 = index_make("ipoly", 32, 128);
    IndexFn p64 = index_make("ipoly", 64, 128);
    uint64_t rng = 7;
    uint32_t mismatches = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t a = rng_next(&rng);
        mismatches += index_fn_set(&p32, a) != index_gpgpusim_ipoly32(a);
        mismatches += index_fn_set(&p64, a) != index_gpgpusim_ipoly64(a);
    }
    EXPECT_EQ_U(mismatches, 0);
    /* By hand: line address x^5 mod (x^5 + x^2 + 1) = x^2 + 1 -> set 5. */
    EXPECT_EQ_U(index_fn_set(&p32, (uint64_t)32 * 128), 5);
    /* Bits above the 20 line-address bits GPGPU-Sim reads are ignored. */
    EXPECT_EQ_U(index_fn_set(&p32, (uint64_t)1 << 27), 0);
    /* 1024 sets (not in GPGPU-Sim): x^10 mod (x^10 + x^3 + 1) = x^3 + 1 -> 9. */
    IndexFn p1k = index_make("ipoly", 1024, 128);
    EXPECT_EQ_U(index_fn_set(&p1k, (uint64_t)1024 * 128), 9);
}

TEST(index_fup_hand_computed)
{
    IndexFn f = index_make("fup", 32, 128);
    /* 32 sets, 128 B lines: F = max(28, 20) = 28 bits (address bits 7..34): S1 = line bits 0..4,
     * S2 = 5..9, S3 = 10..14, S4 = 15..27 (13 bits, folded modulo 31). */
    EXPECT_EQ_U(f.param[1], 13);
#define LINE(s1, s2, s3, s4) ((((uint64_t)(s1) | (uint64_t)(s2) << 5 | (uint64_t)(s3) << 10 | (uint64_t)(s4) << 15)) << 7)
    EXPECT_EQ_U(index_fn_set(&f, LINE(3, 5, 9, 0)), 3 ^ 5 ^ 9);
    EXPECT_EQ_U(index_fn_set(&f, LINE(3, 5, 9, 7)), 3 ^ 5 ^ 9 ^ 7);
    EXPECT_EQ_U(index_fn_set(&f, LINE(0, 0, 0, 33)), 2);  /* 33 = 1*32 + 1 -> 1 + 1 */
    EXPECT_EQ_U(index_fn_set(&f, LINE(0, 0, 0, 31)), 31); /* fits: no fold */
    EXPECT_EQ_U(index_fn_set(&f, LINE(0, 0, 0, 62)), 31); /* 1 + 30: the second zero of mod 31 */
    EXPECT_EQ_U(index_fn_set(&f, LINE(0, 0, 0, 8191)), 8191 % 31);
    EXPECT_EQ_U(index_fn_set(&f, LINE(1, 2, 4, 8191)), 1 ^ 2 ^ 4 ^ 7);
#undef LINE
    EXPECT_EQ_U(index_fn_set(&f, (uint64_t)1 << 35), 0); /* above bit 34: not a feature bit */
    /* Bit 34 is S4 bit 12: 4096 folds to 128 + 0, then to 4 + 0 = 4096 mod 31. */
    EXPECT_EQ_U(index_fn_set(&f, (uint64_t)1 << 34), 4);
    /* 1024 sets: F = 4*10 = 40 > 28 (case 2), S4 = line bits 30..39 = address bits 37..46. */
    IndexFn f1k = index_make("fup", 1024, 128);
    EXPECT_EQ_U(f1k.param[1], 10);
    EXPECT_EQ_U(index_fn_set(&f1k, (uint64_t)1 << 37), 1);
    EXPECT_EQ_U(index_fn_set(&f1k, ((uint64_t)1 << 37) | ((uint64_t)1 << 7)), 0);
}

TEST(index_stride_sweep_conv)
{
    IndexFn fn = index_make("conv", 32, 128);
    for (uint64_t stride = 128; stride <= (32u << 20); stride <<= 1) {
        double c = index_stride_conc(&fn, 0, stride);
        if (stride % (128 * 32) == 0)
            EXPECT_NEAR(c, 32.0, 1e-12);
        else
            EXPECT_NEAR(c, (double)stride / 128, 1e-12); /* 2^k lines apart: 32 / (32 >> k) */
    }
    /* Also for non-power-of-two multiples of 128*32 and a nonzero base. */
    EXPECT_NEAR(index_stride_conc(&fn, 0xC0000000u, 3 * 4096), 32.0, 1e-12);
}

TEST(index_stride_sweep_fup)
{
    IndexFn fn = index_make("fup", 32, 128);
    for (uint64_t stride = 128; stride <= (32u << 20); stride <<= 1)
        EXPECT_NEAR(index_stride_conc(&fn, 0, stride), 1.0, 1e-12);
    /* With GPGPU-Sim's heap base 0xC0000000 (address bits 30, 31 land in S4, whose modulo is
     * an addition, not an XOR) the strides that reach S4 keep the paper's "limited intra-warp
     * concentration for very large strides": 32/30 at 2 MB (feature bits straddle S3/S4),
     * 32/31 from 4 MB (all in S4); every smaller stride stays at 1. */
    for (uint64_t stride = 128; stride <= (32u << 20); stride <<= 1) {
        double want = stride < (2u << 20) ? 1.0 : stride == (2u << 20) ? 32.0 / 30 : 32.0 / 31;
        EXPECT_NEAR(index_stride_conc(&fn, 0xC0000000u, stride), want, 1e-12);
    }
}

TEST(index_stride_sweep_pdisp)
{
    IndexFn fn = index_make("pdisp", 32, 128);
    for (uint64_t stride = 128; stride <= (32u << 20); stride <<= 1) {
        double c = index_stride_conc(&fn, 0, stride);
        EXPECT(c >= 32.0 / 31 - 1e-12); /* only 31 of 32 sets exist */
        if (stride >= 4096)
            EXPECT_NEAR(c, 32.0 / 31, 1e-12);
    }
    /* Small strides mix tag and index bits: p = 257 gives 27, 25, 26, 28 sets. */
    EXPECT_NEAR(index_stride_conc(&fn, 0, 256), 32.0 / 27, 1e-12);
    EXPECT_NEAR(index_stride_conc(&fn, 0, 512), 32.0 / 25, 1e-12);
    EXPECT_NEAR(index_stride_conc(&fn, 0, 1024), 32.0 / 26, 1e-12);
    EXPECT_NEAR(index_stride_conc(&fn, 0, 2048), 32.0 / 28, 1e-12);
}

TEST(index_stride_sweep_bxor)
{
    /* BXOR reads line-address bits 0..9 (address bits 7..16). A stride of 2^k bytes varies
     * address bits k..k+4: all read for 128 B..4 KB (concentration 1); from 8 KB on, one more
     * bit falls off the top per doubling (2, 4, 8, 16), and from 128 KB none is read (32). */
    IndexFn fn = index_make("bxor", 32, 128);
    for (uint64_t stride = 128; stride <= (32u << 20); stride <<= 1) {
        double c = index_stride_conc(&fn, 0, stride);
        double want = stride <= 4096 ? 1.0 : stride >= (128u << 10) ? 32.0 : (double)stride / 4096;
        EXPECT_NEAR(c, want, 1e-12);
        EXPECT((c == 1.0) == (stride >= 128 && stride <= 4096));
    }
}

TEST(index_stride_sweep_others)
{
    /* pmod: always 31 of 32 sets for 32 power-of-two strided lines (line 0 and 31*k collide). */
    IndexFn pm = index_make("pmod", 32, 128);
    IndexFn ip = index_make("ipoly", 32, 128);
    IndexFn fe = index_make("fermi", 32, 128);
    for (uint64_t stride = 128; stride <= (32u << 20); stride <<= 1) {
        EXPECT_NEAR(index_stride_conc(&pm, 0, stride), 32.0 / 31, 1e-12);
        /* IPOLY is conflict-free for every power-of-two stride inside the 20 line-address bits
         * GPGPU-Sim reads (strides up to 4 MB). */
        if (stride <= (4u << 20))
            EXPECT_NEAR(index_stride_conc(&ip, 0, stride), 1.0, 1e-12);
    }
    EXPECT_NEAR(index_stride_conc(&ip, 0, 32u << 20), 8.0, 1e-12);
    /* Fermi: 4 KB strides vary bits 12..16, of which only 13, 14, 15 reach the index. */
    EXPECT_NEAR(index_stride_conc(&fe, 0, 4096), 4.0, 1e-12);
    EXPECT_NEAR(index_stride_conc(&fe, 0, 1u << 20), 32.0, 1e-12);
}
