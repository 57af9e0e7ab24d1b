/* Lab 7 GPU checks: results against a CPU reference in double (multiples of
 * the block tile up to 2048, several seeds, alpha/beta with C poisoned when
 * beta == 0), every stage against cuBLAS at 4096, bad input, and the
 * any-size bonus. Speed: lab7_speed_checks.c. What the compiler made of
 * each stage's kernel: lab7_static_checks.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "compare.h"
#include "cpu_reference.h"
#include "device_buffer.h"
#include "device_verify.h"
#include "gpu_checks.h"
#include "guard.h"
#include "harness.h"
#include "lab7_checks.h"
#include "lab7_cublas.h"
#include "lab7_gpu_common.h"
#include "lab7_kernels.h"
#include "matmul_checks.h"
#include "racecheck.h"
#include "rng.h"
#include "stage_identity.h"

/* ---------------------------------------------------------- correctness */

/* The entry point under test as C = alpha*A*B + beta*C. */
typedef lab_status (*sgemm_fn)(void *ctx, int m, int n, int k, float alpha, const float *a,
                               const float *b, float beta, float *c);

static lab_status call_stage(void *ctx, int m, int n, int k, float alpha, const float *a,
                             const float *b, float beta, float *c)
{
    return lab7_sgemm(*(const lab7_stage *)ctx, m, n, k, alpha, a, b, beta, c);
}

static lab_status call_any_size(void *ctx, int m, int n, int k, float alpha, const float *a,
                                const float *b, float beta, float *c)
{
    (void)ctx;
    return lab7_sgemm_any_size(m, n, k, alpha, a, b, beta, c);
}

typedef struct {
    const char *name; /* "lab7_sgemm(warp_tile)" */
    sgemm_fn fn;
    void *ctx;
    const char *hint;
} sgemm_impl;

typedef struct {
    float alpha, beta;
} scaling;

/* A host copy of `count` floats with `lead` floats before them (0 or 1):
 * the lead is a NaN payload no kernel computes, so a stray write there
 * shows. */
static float *with_lead(const float *values, size_t count, int lead)
{
    float *out = grader_malloc((count + (size_t)lead) * sizeof *out);
    for (int i = 0; i < lead; ++i)
        out[i] = guard_poison_value();
    memcpy(out + lead, values, count * sizeof *out);
    return out;
}

/* One call on one shape: seeded A, B (and C when beta != 0), C between
 * canaries and poisoned with NaN when beta == 0; the result compared with
 * alpha*A*B + beta*C in double, A and B checked unchanged. `lead` floats
 * (0 or 1) come before each matrix in its buffer, so lead 1 hands the entry
 * point a, b and c that are 4-byte but not 16-byte aligned. */
static void expect_sgemm_at(const sgemm_impl *impl, matmul_shape s, uint64_t seed, scaling ab,
                            int lead)
{
    matmul_problem p;
    matmul_problem_init(&p, s, seed, 1);
    const size_t mn = (size_t)s.m * (size_t)s.n, ak = (size_t)s.m * s.k, bk = (size_t)s.k * s.n;
    float *c0 = grader_malloc(mn * sizeof *c0);
    rng_fill_uniform(c0, mn, seed ^ 0xC0FFEEull, -1.0f, 1.0f);
    float *a_host = with_lead(p.a, ak, lead), *b_host = with_lead(p.b, bk, lead);
    float *c_host = with_lead(c0, mn, lead);
    device_buffer a, b, c;
    dbuf_alloc(&a, "A", (ak + (size_t)lead) * sizeof(float));
    dbuf_alloc(&b, "B", (bk + (size_t)lead) * sizeof(float));
    dbuf_alloc(&c, "C", (mn + (size_t)lead) * sizeof(float));
    dbuf_upload(&a, a_host);
    dbuf_upload(&b, b_host);
    if (ab.beta == 0.0f)
        dbuf_poison(&c);
    else
        dbuf_upload(&c, c_host);

    char shape[96], call[360];
    matmul_describe_shape(s, shape, sizeof shape);
    snprintf(call, sizeof call, "%s on %s, alpha %g, beta %g%s%s, seed %llu", impl->name, shape,
             (double)ab.alpha, (double)ab.beta, ab.beta == 0.0f ? " (C filled with NaN)" : "",
             lead ? ", a, b and c one float past a 16-byte boundary" : "",
             (unsigned long long)seed);
    grader_watch(call, grader_call_limit_s(0.0, 2.0 * (double)s.m * s.n * (double)s.k));
    gpu_expect_ok_status((lab_status)GPU_STUDENT_CALL(
                             call, impl->fn(impl->ctx, s.m, s.n, s.k, ab.alpha,
                                            (const float *)a.data + lead,
                                            (const float *)b.data + lead, ab.beta,
                                            (float *)c.data + lead)),
                         call);
    grader_unwatch();

    float *got_all = grader_malloc((mn + (size_t)lead) * sizeof *got_all);
    dbuf_download(&c, got_all);
    const float *got = got_all + lead;
    /* beta == 0: when most results are NaN (not the poison: computed), they
     * came from reading the old C, which every result does. A few NaNs are
     * garbage of another kind (compare_floats says so below). */
    size_t computed_nan = 0;
    if (ab.beta == 0.0f)
        for (size_t i = 0; i < mn; ++i)
            computed_nan += isnan(got[i]) && !guard_is_poison(got[i]);
    if (computed_nan > mn / 2) {
        free(got_all);
        GRADER_FAIL("%s: %zu of %zu elements are NaN although A and B hold no NaN: with beta "
                    "== 0, C's old contents (NaN here) were read, and 0 * NaN is NaN. The "
                    "BLAS rule: when beta == 0, do not read C at all (TODO(7.1), handout "
                    "section 4).",
                    call, computed_nan, mn);
    }
    GRADER_CHECK(!lead || guard_is_poison(got_all[0]),
                 "%s: the float just before c was overwritten: a store before the start of "
                 "C. %s",
                 call, impl->hint);
    double *ref = grader_malloc(mn * sizeof *ref);
    for (size_t i = 0; i < mn; ++i)
        ref[i] = (double)ab.alpha * p.ref[i] + (ab.beta == 0.0f ? 0.0 : (double)ab.beta * c0[i]);
    compare_spec spec = {(size_t)s.m, (size_t)s.n,
                         fabs((double)ab.alpha) * compare_dot_atol((size_t)s.k) + 1e-6,
                         MATMUL_RTOL, 0};
    compare_result result;
    if (!compare_floats(got, ref, &spec, &result)) {
        /* A pattern worth naming: alpha ignored (C = A*B + beta*C). */
        int alpha_ignored = ab.alpha != 1.0f;
        for (size_t i = 0; i < mn && alpha_ignored; i += 97) {
            double unscaled = p.ref[i] + (ab.beta == 0.0f ? 0.0 : (double)ab.beta * c0[i]);
            alpha_ignored = fabs((double)got[i] - unscaled) <= spec.atol + 1e-4 * fabs(unscaled);
        }
        free(got_all);
        free(ref);
        GRADER_FAIL("%s: %s.%s %s", call, result.report,
                    alpha_ignored ? " The results equal A*B + beta*C: alpha was ignored "
                                    "(TODO(7.1), handout section 4)."
                                  : "",
                    impl->hint);
    }
    free(got_all);
    free(ref);
    gpu_expect_guards_intact(&c, call);
    gpu_expect_unchanged(&a, a_host, call);
    gpu_expect_unchanged(&b, b_host, call);
    dbuf_free(&a);
    dbuf_free(&b);
    dbuf_free(&c);
    free(a_host);
    free(b_host);
    free(c_host);
    free(c0);
    matmul_problem_free(&p);
}

static void expect_sgemm(const sgemm_impl *impl, matmul_shape s, uint64_t seed, scaling ab)
{
    expect_sgemm_at(impl, s, seed, ab, 0);
}

/* Multiples of the block tile, squares first (a non-power-of-two 384
 * among them), then rectangles, then the large squares. */
static const matmul_shape STAGE_SHAPES[] = {
    {128, 128, 16},  {128, 128, 128},  {256, 256, 256},  {384, 384, 384},
    {128, 256, 512}, {384, 128, 16},   {256, 640, 48},   {640, 128, 1024},
    {1024, 1024, 1024}, {2048, 2048, 2048},
};
enum { STAGE_SHAPE_COUNT = sizeof STAGE_SHAPES / sizeof STAGE_SHAPES[0] };

static void expect_shapes(const sgemm_impl *impl, const matmul_shape *shapes, size_t count)
{
    const scaling plain = {1.0f, 0.0f};
    for (size_t i = 0; i < count; ++i) {
        long long macs = (long long)shapes[i].m * shapes[i].n * shapes[i].k;
        int seeds = macs > (1LL << 28) ? 1 : 2; /* the CPU reference of 2048^3 takes seconds */
        for (int s = 0; s < seeds; ++s)
            expect_sgemm(impl, shapes[i], grader_seed() + 1000 * i + (uint64_t)s, plain);
    }
}

/* alpha and beta: alpha alone with C poisoned, then both with C read. */
static void expect_scalings(const sgemm_impl *impl, matmul_shape s1, matmul_shape s2)
{
    const scaling cases[] = {{2.5f, 0.0f}, {-1.5f, 0.75f}, {0.5f, 1.0f}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        expect_sgemm(impl, s1, grader_seed() + 500 + i, cases[i]);
        expect_sgemm(impl, s2, grader_seed() + 600 + i, cases[i]);
    }
}

/* The launch each stage's entry point makes (lab7_stage_launch). A stage
 * whose kernel is right for another launch has left the lesson's tile
 * sizes. */
static void expect_stage_launch(lab7_stage stage, const char *call, matmul_shape s)
{
    char where[512];
    launch_shape want = lab7_stage_launch(stage, s, 0, where, sizeof where);
    gpu_expect_launch_follows(call, &want);
}

static void expect_stage_correct(lab7_stage stage)
{
    grader_require_gpu();
    const lab7_stage_info *info = lab7_stage_about(stage);
    char name[64];
    snprintf(name, sizeof name, "lab7_sgemm(%s)", info->name);
    sgemm_impl impl = {name, call_stage, &stage, info->hint};
    expect_shapes(&impl, STAGE_SHAPES, STAGE_SHAPE_COUNT);
    const matmul_shape s1 = {384, 384, 384}, s2 = {256, 640, 48};
    expect_scalings(&impl, s1, s2);
    expect_stage_launch(stage, name, s2); /* the last call was on s2 */
    /* A kernel of its own: the stages' rows are in lab7_stage order. */
    stage_identity_expect_own(&lab_kernel_table, LAB7_ROW_BLOCK_TILE_1D + (int)stage);
}

void gpu_block_tile_1d_correct(void **state)
{
    (void)state;
    expect_stage_correct(LAB7_STAGE_BLOCK_TILE_1D);
}

void gpu_block_tile_2d_correct(void **state)
{
    (void)state;
    expect_stage_correct(LAB7_STAGE_BLOCK_TILE_2D);
}

void gpu_vectorised_correct(void **state)
{
    (void)state;
    expect_stage_correct(LAB7_STAGE_VECTORISED);
}

void gpu_warp_tile_correct(void **state)
{
    (void)state;
    expect_stage_correct(LAB7_STAGE_WARP_TILE);
}

/* ------------------------------------------------- 4096 against cuBLAS */

void gpu_stages_match_cublas_at_4096(void **state)
{
    (void)state;
    grader_require_gpu();
    const int size = 4096;
    const size_t n = (size_t)size * size;
    device_buffer a, b, c, want;
    dbuf_alloc(&a, "A", n * sizeof(float));
    dbuf_alloc(&b, "B", n * sizeof(float));
    dbuf_alloc(&c, "C", n * sizeof(float));
    dbuf_alloc(&want, "C (cuBLAS)", n * sizeof(float));
    const double flops = 2.0 * size * (double)size * size;
    for (int seed = 0; seed < 2; ++seed) {
        uint64_t base = grader_seed() + 4096 + 2 * (uint64_t)seed;
        device_fill_uniform(a.data, n, base, -1.0f, 1.0f);
        device_fill_uniform(b.data, n, base + 1, -1.0f, 1.0f);
        lab_status status = lab7_cublas_sgemm(size, size, size, 1.0f, a.data, b.data, 0.0f,
                                              want.data);
        GRADER_CHECK(status == LAB_OK, "cuBLAS: %s", lab_last_error());
        for (int s = 0; s < LAB7_STAGE_COUNT; ++s) {
            const lab7_stage_info *info = lab7_stage_about((lab7_stage)s);
            char call[160];
            snprintf(call, sizeof call, "lab7_sgemm(%s) on 4096x4096x4096, seed %llu",
                     info->name, (unsigned long long)base);
            dbuf_poison(&c);
            grader_watch(call, grader_call_limit_s(0.0, flops));
            gpu_expect_ok_status(
                (lab_status)GPU_STUDENT_CALL(call, lab7_sgemm((lab7_stage)s, size, size, size,
                                                              1.0f, a.data, b.data, 0.0f,
                                                              c.data)),
                call);
            grader_unwatch();
            size_t wrong = device_count_mismatches(c.data, want.data, n,
                                                   2.0 * compare_dot_atol((size_t)size),
                                                   2.0 * MATMUL_RTOL);
            GRADER_CHECK(wrong == 0,
                         "%s: %zu of %zu elements differ from cuBLAS FP32 (or are NaN: never "
                         "written) by more than the tolerance. Right on the smaller sizes and "
                         "wrong here usually means an index that overflows or a grid that "
                         "does not cover C. %s",
                         call, wrong, n, info->hint);
            gpu_expect_guards_intact(&c, call);
        }
    }
    dbuf_free(&a);
    dbuf_free(&b);
    dbuf_free(&c);
    dbuf_free(&want);
}

/* ------------------------------------------------------------ bad input */

void gpu_rejects_bad_input(void **state)
{
    (void)state;
    grader_require_gpu();
    enum { OUT_FLOATS = 128 * 128 + 4 };
    device_buffer in, out;
    dbuf_alloc(&in, "A/B", OUT_FLOATS * sizeof(float));
    dbuf_alloc(&out, "C", OUT_FLOATS * sizeof(float));
    float *zeros = grader_malloc(OUT_FLOATS * sizeof *zeros);
    memset(zeros, 0, OUT_FLOATS * sizeof *zeros);
    dbuf_upload(&in, zeros);
    free(zeros);
    const float *x = in.data;
    float *o = out.data;
    struct {
        int m, n, k;
        const float *a;
        float *c;
        lab_status expected;
        const char *why;
    } cases[] = {
        {0, 128, 16, x, o, LAB_ERR_INVALID_SIZE, "M = 0"},
        {128, -128, 16, x, o, LAB_ERR_INVALID_SIZE, "N negative"},
        {128, 128, 0, x, o, LAB_ERR_INVALID_SIZE, "K = 0"},
        {65536, 128, 65536, x, o, LAB_ERR_INVALID_SIZE, "A would have 2^32 elements"},
        {100, 128, 16, x, o, LAB_ERR_UNSUPPORTED, "M not a multiple of 128"},
        {128, 136, 16, x, o, LAB_ERR_UNSUPPORTED, "N not a multiple of 128"},
        {128, 128, 8, x, o, LAB_ERR_UNSUPPORTED, "K not a multiple of 16"},
        {128, 128, 24, x, o, LAB_ERR_UNSUPPORTED, "K not a multiple of 16"},
        {128, 128, 16, NULL, o, LAB_ERR_NULL_POINTER, "A is NULL"},
        {128, 128, 16, x, NULL, LAB_ERR_NULL_POINTER, "C is NULL"},
        {128, 128, 16, x, o + 1, LAB_ERR_UNSUPPORTED, "C not 16-byte aligned"},
        {128, 128, 16, x + 2, o, LAB_ERR_UNSUPPORTED, "A not 16-byte aligned"},
    };
    for (int s = 0; s < LAB7_STAGE_COUNT; ++s)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
            char call[192];
            snprintf(call, sizeof call, "lab7_sgemm(%s, M=%d, N=%d, K=%d) [%s; see lab7.h and "
                     "the validation written in warp_tiling.cu]",
                     lab7_stage_about((lab7_stage)s)->name, cases[i].m, cases[i].n, cases[i].k,
                     cases[i].why);
            dbuf_poison(&out);
            lab_status st = lab7_sgemm((lab7_stage)s, cases[i].m, cases[i].n, cases[i].k, 1.0f,
                                       cases[i].a, x, 0.0f, cases[i].c);
            gpu_expect_rejected(st, cases[i].expected, &out, call);
        }
    dbuf_poison(&out);
    gpu_expect_rejected(lab7_sgemm((lab7_stage)7, 128, 128, 16, 1.0f, x, x, 0.0f, o),
                        LAB_ERR_UNSUPPORTED, &out, "lab7_sgemm(stage 7, M=128, N=128, K=16)");
    dbuf_free(&in);
    dbuf_free(&out);
}

/* ------------------------------------------------------ bonus: any size */

void gpu_any_size_correct(void **state)
{
    (void)state;
    grader_require_gpu();
    sgemm_impl impl = {"lab7_sgemm_any_size", call_any_size, NULL,
                       "Check TODO(7.10) and the CHECKED paths of TODO(7.9): a grid that rounds "
                       "up, zeros loaded outside A and B, stores only inside C, no float4 "
                       "access that could straddle the edge or be misaligned (handout section "
                       "10)."};
    static const matmul_shape shapes[] = {
        {1, 1, 1},    {127, 129, 17}, {33, 4097, 5}, {129, 1, 300},
        {200, 72, 3}, {128, 128, 16}, {1000, 999, 1001},
    };
    expect_shapes(&impl, shapes, sizeof shapes / sizeof shapes[0]);
    const matmul_shape s1 = {127, 129, 17}, s2 = {65, 257, 33};
    expect_scalings(&impl, s1, s2);
    /* "Any float alignment" (lab7.h): sizes the fast kernel takes, with a,
     * b and c one float past a 16-byte boundary. Only the alignment test
     * keeps this call off the float4 loads; without it the loads fault or
     * read the wrong words. Then a shape of neither kind, misaligned too. */
    const scaling plain = {1.0f, 0.0f}, both = {-1.5f, 0.75f};
    const matmul_shape fits_fast = {256, 128, 64}, ragged = {127, 129, 17};
    expect_sgemm_at(&impl, fits_fast, grader_seed() + 700, plain, 1);
    expect_sgemm_at(&impl, fits_fast, grader_seed() + 701, both, 1);
    expect_sgemm_at(&impl, ragged, grader_seed() + 702, both, 1);
    stage_identity_expect_own(&lab_kernel_table, LAB7_ROW_ANY_SIZE);
}

/* ------------------------------------------------------------- races */

/* The four stages once under racecheck on 256 x 128 x 64 (the race rows of lab7_kernels.c):
 * two block tiles, several K steps, so a missing barrier between steps shows. */
void gpu_stages_race_free(void **state)
{
    (void)state;
    racecheck_spec spec = {
        .runner = GRADER_RACE_RUNNER,
        .lab_number = "7",
        .what = "lab7_sgemm, the four stages, on 256x128x64",
        .args = NULL,
        .fix_hint = "TODO(7.3), (7.5), (7.7): two barriers per K step (after storing the tiles, "
                    "and after the inner loop, before the next step overwrites them); TODO(7.9): "
                    "the two-buffer loop's one barrier per step; " LAB7_HANDOUT ", sections 5 "
                    "and 8.1.",
        .limit_s = RACECHECK_RUN_LIMIT_S,
    };
    racecheck_expect_clean(&spec);
}

/* ------------------------------------ bonus: the final stage, tile per size */

/* The final stage on shapes where this GPU's SM count makes it pick each
 * tile, each call's launch checked against the grader's own choice: one
 * block per block tile, 256 threads for the large tile (stage 4's kernel),
 * 128 for the small one. The SM count is the one the student's code reads
 * (cudaDevAttrMultiProcessorCount), which a green context does not change. */
void gpu_sized_correct(void **state)
{
    (void)state;
    grader_require_gpu();
    int device = 0, sms = 0;
    GRADER_CHECK(cudaGetDevice(&device) == cudaSuccess &&
                     cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) ==
                         cudaSuccess && sms > 0,
                 "the grader could not read the SM count");
    lab7_stage stage = LAB7_STAGE_SIZED;
    const lab7_stage_info *info = lab7_stage_about(stage);
    sgemm_impl impl = {"lab7_sgemm(sized)", call_stage, &stage, info->hint};
    /* Squares 128 .. 2048 and rectangles with K small and large. On an
     * H100's 132 SMs the small tile runs up to 1024 and the large at 2048;
     * 1408 x 1408 (121 large blocks, none of the 132 SMs runs two: large)
     * and 1536 x 1536 (144: 12 SMs run two, small) are the two sides of a
     * boundary the handout measured, 1 x 128 tiles gives no SM two (large)
     * and 2048 x 1152 gives 12 SMs two (small). */
    static const matmul_shape shapes[] = {
        {128, 128, 16},    {256, 256, 256},   {384, 128, 16},    {512, 512, 512},
        {256, 640, 48},    {640, 128, 1024},  {1024, 1024, 1024}, {128, 16384, 32},
        {1408, 1408, 64},  {1536, 1536, 64},  {2048, 1152, 16},  {2048, 2048, 2048},
    };
    const scaling plain = {1.0f, 0.0f};
    int used[2] = {0, 0};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        const matmul_shape s = shapes[i];
        long long macs = (long long)s.m * s.n * s.k;
        int seeds = macs > (1LL << 28) ? 1 : 2;
        for (int seed = 0; seed < seeds; ++seed)
            expect_sgemm(&impl, s, grader_seed() + 7000 + 10 * i + (uint64_t)seed, plain);
        const long long large = lab7_grader_tile_blocks(s.m, s.n, LAB7_WT_BM, LAB7_WT_BN);
        const int tile = lab7_grader_tile(s.m, s.n, sms);
        used[tile] = 1;
        const unsigned bm = tile == LAB7_TILE_LARGE ? LAB7_WT_BM : LAB7_WTS_BM;
        const unsigned bn = tile == LAB7_TILE_LARGE ? LAB7_WT_BN : LAB7_WTS_BN;
        const unsigned threads = tile == LAB7_TILE_LARGE ? LAB7_WT_THREADS : LAB7_WTS_THREADS;
        char shape[96], where[512];
        matmul_describe_shape(s, shape, sizeof shape);
        snprintf(where, sizeof where, "on %s the 128 x 128 tile gives %lld blocks and the 64 x "
                 "64 tile %lld for this GPU's %d SMs, so the %s tile is the one to launch: %u "
                 "threads per block, one block per %ux%u tile of C (TODO(7.11) and TODO(7.13), "
                 "%s, sections 11.2 and 11.4)", shape, large,
                 lab7_grader_tile_blocks(s.m, s.n, LAB7_WTS_BM, LAB7_WTS_BN), sms,
                 tile == LAB7_TILE_LARGE ? "large" : "small", threads, bm, bn, LAB7_HANDOUT);
        gpu_expect_launch_shape(impl.name, threads, 1, 1, ((unsigned)s.n + bn - 1) / bn,
                                ((unsigned)s.m + bm - 1) / bm, 1, where);
    }
    grader_note("SM count %d: the shapes launched the large tile %s and the small tile %s",
                sms, used[LAB7_TILE_LARGE] ? "(yes)" : "(never)",
                used[LAB7_TILE_SMALL] ? "(yes)" : "(never)");
    const matmul_shape s1 = {256, 384, 64}, s2 = {2048, 1536, 32};
    expect_scalings(&impl, s1, s2);
    stage_identity_expect_own(&lab_kernel_table, LAB7_ROW_SIZED);
}
