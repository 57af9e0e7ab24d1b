/* Lab 8 GPU checks: each stage against a CPU reference in double on the
 * FP16 inputs (awkward multiples, rectangles, several seeds, alpha and beta
 * with C poisoned when beta == 0, canaries around C, A and B checked
 * unchanged), both stages against cuBLAS at 4096, races, bad input. The
 * tolerance: lab8_tolerance.c. Speed: lab8_speed_checks.c. */
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
#include "lab8_checks.h"
#include "lab8_cublas.h"
#include "lab8_gpu_common.h"
#include "lab8_half.h"
#include "lab8_kernels.h"
#include "lab8_tolerance.h"
#include "launch_watch.h"
#include "racecheck.h"
#include "rng.h"
#include "stage_identity.h"

/* ---------------------------------------------------------- correctness */

typedef struct {
    int m, n, k;
} gemm_shape;

typedef struct {
    float alpha, beta;
} scaling;

/* "48x80x32 (MxNxK: A 48x32, B 32x80, C 48x80)" */
static void describe(gemm_shape s, char *out, size_t size)
{
    snprintf(out, size, "%dx%dx%d (MxNxK: A %dx%d, B %dx%d, C %dx%d)", s.m, s.n, s.k, s.m, s.k,
             s.k, s.n, s.m, s.n);
}

/* Host inputs in [-1, 1) rounded to FP16, as floats and as halves. */
static void fp16_inputs(size_t count, uint64_t seed, float **values, lab8_half **halves)
{
    *values = grader_malloc(count * sizeof **values);
    *halves = grader_malloc(count * sizeof **halves);
    rng_fill_uniform(*values, count, seed, -1.0f, 1.0f);
    lab8_host_round_to_half(*values, count);
    lab8_host_to_half(*values, *halves, count);
}

/* Most results NaN with beta == 0 (not the poison: computed): the old C,
 * NaN here, was read. */
static void expect_c_not_read(const char *call, const float *got, size_t count)
{
    size_t computed_nan = 0;
    for (size_t i = 0; i < count; ++i)
        computed_nan += isnan(got[i]) && !guard_is_poison(got[i]);
    GRADER_CHECK(computed_nan <= count / 2,
                 "%s: %zu of %zu elements are NaN although A and B hold no NaN: with beta == 0, "
                 "C's old contents (NaN here) were read, and 0 * NaN is NaN. The BLAS rule: "
                 "when beta == 0, do not read C at all (TODO(8.2), handout section 5).",
                 call, computed_nan, count);
}

/* One call on one shape: the result compared with alpha*A*B + beta*C in
 * double, computed from the FP16 values. */
static void expect_gemm(const lab8_stage_info *st, gemm_shape s, uint64_t seed, scaling ab)
{
    const size_t mn = (size_t)s.m * s.n, ak = (size_t)s.m * s.k, bk = (size_t)s.k * s.n;
    float *a, *b;
    lab8_half *a16, *b16;
    fp16_inputs(ak, seed, &a, &a16);
    fp16_inputs(bk, seed + 1, &b, &b16);
    float *c0 = grader_malloc(mn * sizeof *c0);
    rng_fill_uniform(c0, mn, seed ^ 0xC0FFEEull, -1.0f, 1.0f);
    double *ref = grader_malloc(mn * sizeof *ref);
    cpu_matmul_ref(a, b, ref, s.m, s.n, s.k);
    for (size_t i = 0; i < mn; ++i)
        ref[i] = (double)ab.alpha * ref[i] + (ab.beta == 0.0f ? 0.0 : (double)ab.beta * c0[i]);

    device_buffer da, db, dc;
    dbuf_alloc(&da, "A", ak * sizeof *a16);
    dbuf_alloc(&db, "B", bk * sizeof *b16);
    dbuf_alloc(&dc, "C", mn * sizeof(float));
    dbuf_upload(&da, a16);
    dbuf_upload(&db, b16);
    if (ab.beta == 0.0f)
        dbuf_poison(&dc);
    else
        dbuf_upload(&dc, c0);

    char shape[96], call[320];
    describe(s, shape, sizeof shape);
    snprintf(call, sizeof call, "%s on %s, alpha %g, beta %g%s, seed %llu", st->name, shape,
             (double)ab.alpha, (double)ab.beta, ab.beta == 0.0f ? " (C filled with NaN)" : "",
             (unsigned long long)seed);
    grader_watch(call, grader_call_limit_s(0.0, 2.0 * (double)s.m * s.n * (double)s.k));
    gpu_expect_ok_status((lab_status)GPU_STUDENT_CALL(
                             call, st->fn(s.m, s.n, s.k, ab.alpha, da.data, db.data, ab.beta,
                                          dc.data)),
                         call);
    grader_unwatch();

    float *got = grader_malloc(mn * sizeof *got);
    dbuf_download(&dc, got);
    if (ab.beta == 0.0f)
        expect_c_not_read(call, got, mn);
    compare_spec spec = {(size_t)s.m, (size_t)s.n, lab8_atol(s.k, ab.alpha, ab.beta),
                         MATMUL_RTOL, LAB8_FRAG};
    compare_result result;
    if (!compare_floats(got, ref, &spec, &result)) {
        /* A pattern worth naming: alpha ignored (C = A*B + beta*C). */
        int alpha_ignored = ab.alpha != 1.0f;
        for (size_t i = 0; i < mn && alpha_ignored; i += 97) {
            double unscaled = (ref[i] - (ab.beta == 0.0f ? 0.0 : (double)ab.beta * c0[i])) /
                                  ab.alpha +
                              (ab.beta == 0.0f ? 0.0 : (double)ab.beta * c0[i]);
            alpha_ignored = fabs((double)got[i] - unscaled) <= spec.atol + 1e-4 * fabs(unscaled);
        }
        /* And beta ignored (C = alpha*A*B where beta != 0). */
        int beta_ignored = ab.beta != 0.0f;
        for (size_t i = 0; i < mn && beta_ignored; i += 97) {
            double unscaled = ref[i] - (double)ab.beta * c0[i];
            beta_ignored = fabs((double)got[i] - unscaled) <= spec.atol + 1e-4 * fabs(unscaled);
        }
        GRADER_FAIL("%s: %s.%s%s %s", call, result.report,
                    alpha_ignored ? " The results equal A*B + beta*C: alpha was ignored "
                                    "(TODO(8.2), handout section 5)."
                                  : "",
                    beta_ignored ? " The results equal alpha*A*B: beta*C was not added "
                                   "(TODO(8.2), handout section 5)."
                                 : "",
                    st->hint);
    }
    gpu_expect_guards_intact(&dc, call);
    gpu_expect_unchanged(&da, a16, call);
    gpu_expect_unchanged(&db, b16, call);
    dbuf_free(&da);
    dbuf_free(&db);
    dbuf_free(&dc);
    free(got);
    free(ref);
    free(c0);
    free(a);
    free(b);
    free(a16);
    free(b16);
}

/* Stage 1 takes multiples of 16: one tile; blocks half full (48, 80: the
 * grid's last row and column of blocks hold warps with no tile);
 * rectangles with M, N and K all different (a wrong leading dimension
 * shows); then larger squares. */
static const gemm_shape GLOBAL_SHAPES[] = {
    {16, 16, 16},    {48, 80, 32},     {80, 48, 16},      {16, 256, 512},
    {256, 16, 48},   {208, 144, 80},   {1008, 1024, 272}, {512, 512, 512},
    {1024, 1024, 1024},
};
/* Stage 2 takes multiples of its 128 x 128 x 32 tiles: one block and one
 * K step, then rectangles (M, N and K all different), a non-power of two
 * (384) and a large square. */
static const gemm_shape SHARED_SHAPES[] = {
    {128, 128, 32},  {128, 128, 128}, {384, 384, 384},   {128, 256, 512},
    {384, 128, 32},  {256, 640, 96},  {640, 128, 1024},  {1024, 1024, 1024},
};

static void expect_stage_correct(lab8_stage stage, const gemm_shape *shapes, size_t count,
                                 gemm_shape s1, gemm_shape s2)
{
    lab8_require_tensor_cores();
    const lab8_stage_info *st = lab8_stage_about(stage);
    const scaling plain = {1.0f, 0.0f};
    for (size_t i = 0; i < count; ++i) {
        long long macs = (long long)shapes[i].m * shapes[i].n * shapes[i].k;
        int seeds = macs > (1LL << 28) ? 1 : 2; /* the CPU reference of 1024^3 takes a second */
        for (int s = 0; s < seeds; ++s)
            expect_gemm(st, shapes[i], grader_seed() + 1000 * i + 10 * (uint64_t)s, plain);
    }
    /* alpha alone with C poisoned, then both with C read. */
    const scaling cases[] = {{2.5f, 0.0f}, {-1.5f, 0.75f}, {0.5f, 1.0f}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        expect_gemm(st, s1, grader_seed() + 500 + 10 * i, cases[i]);
        expect_gemm(st, s2, grader_seed() + 600 + 10 * i, cases[i]);
    }
    /* The launch the given entry point makes (the last call was on s2). */
    char where[768];
    launch_shape want = lab8_stage_launch(stage, s2.m, s2.n, where, sizeof where);
    gpu_expect_launch_follows(st->name, &want);
    /* A kernel of its own: stage 2 must not run stage 1's, nor the reverse. */
    stage_identity_expect_own(&lab_kernel_table, st->row);
}

void gpu_wmma_global_correct(void **state)
{
    (void)state;
    const gemm_shape s1 = {48, 80, 32}, s2 = {208, 144, 80};
    expect_stage_correct(LAB8_STAGE_WMMA_GLOBAL, GLOBAL_SHAPES,
                         sizeof GLOBAL_SHAPES / sizeof GLOBAL_SHAPES[0], s1, s2);
}

void gpu_wmma_shared_correct(void **state)
{
    (void)state;
    const gemm_shape s1 = {384, 384, 384}, s2 = {256, 640, 96};
    expect_stage_correct(LAB8_STAGE_WMMA_SHARED, SHARED_SHAPES,
                         sizeof SHARED_SHAPES / sizeof SHARED_SHAPES[0], s1, s2);
}

/* ------------------------------------------------- 4096 against cuBLAS */

void gpu_stages_match_cublas_at_4096(void **state)
{
    (void)state;
    lab8_require_tensor_cores();
    const int size = 4096;
    const size_t n = (size_t)size * size;
    device_buffer a, b, a16, b16, c, want;
    dbuf_alloc(&a, "A (floats)", n * sizeof(float));
    dbuf_alloc(&b, "B (floats)", n * sizeof(float));
    dbuf_alloc(&a16, "A", n * sizeof(lab8_half));
    dbuf_alloc(&b16, "B", n * sizeof(lab8_half));
    dbuf_alloc(&c, "C", n * sizeof(float));
    dbuf_alloc(&want, "C (cuBLAS)", n * sizeof(float));
    const double flops = 2.0 * size * (double)size * size;
    /* Both within lab8_atol of the exact product, so twice that apart. */
    const double atol = 2.0 * lab8_atol(size, 1.0, 0.0);
    for (int seed = 0; seed < 2; ++seed) {
        uint64_t base = grader_seed() + 4096 + 2 * (uint64_t)seed;
        device_fill_uniform(a.data, n, base, -1.0f, 1.0f);
        device_fill_uniform(b.data, n, base + 1, -1.0f, 1.0f);
        GRADER_CHECK(lab8_device_round_to_half(a.data, a16.data, n) == 0 &&
                         lab8_device_round_to_half(b.data, b16.data, n) == 0,
                     "the grader could not round its inputs to FP16 (a grader bug, please "
                     "report it)");
        lab_status status = lab8_cublas_gemm(size, size, size, 1.0f, a16.data, b16.data, 0.0f,
                                             want.data);
        GRADER_CHECK(status == LAB_OK, "cuBLAS: %s", lab_last_error());
        for (int s = 0; s < LAB8_STAGE_COUNT; ++s) {
            const lab8_stage_info *st = lab8_stage_about((lab8_stage)s);
            char call[160];
            snprintf(call, sizeof call, "%s on 4096x4096x4096, seed %llu", st->name,
                     (unsigned long long)base);
            dbuf_poison(&c);
            grader_watch(call, grader_call_limit_s(0.0, flops));
            gpu_expect_ok_status((lab_status)GPU_STUDENT_CALL(
                                     call, st->fn(size, size, size, 1.0f, a16.data, b16.data,
                                                  0.0f, c.data)),
                                 call);
            grader_unwatch();
            size_t wrong = device_count_mismatches(c.data, want.data, n, atol,
                                                   2.0 * MATMUL_RTOL);
            GRADER_CHECK(wrong == 0,
                         "%s: %zu of %zu elements differ from cuBLAS (FP16 in, FP32 compute) "
                         "by more than the tolerance (or are NaN: never written). Right on "
                         "the smaller sizes and wrong here usually means an index that "
                         "overflows int or a grid that does not cover C. %s",
                         call, wrong, n, st->hint);
            gpu_expect_guards_intact(&c, call);
        }
    }
    dbuf_free(&a);
    dbuf_free(&b);
    dbuf_free(&a16);
    dbuf_free(&b16);
    dbuf_free(&c);
    dbuf_free(&want);
}

/* ------------------------------------------------------------- races */

/* Both stages once under racecheck on 256 x 256 x 64 (the race rows of
 * lab8_kernels.c): four block tiles of stage 2 and two K steps, so a
 * missing barrier between steps shows. */
void gpu_stages_race_free(void **state)
{
    (void)state;
    lab8_require_tensor_cores();
    racecheck_spec spec = {
        .runner = GRADER_RACE_RUNNER,
        .lab_number = "8",
        .what = "lab8_wmma_global and lab8_wmma_shared on 256x256x64",
        .args = NULL,
        .fix_hint = "TODO(8.6): two barriers per K step (after storing both tiles, and after "
                    "the fragments are read, before the next step overwrites them); "
                    LAB8_HANDOUT ", section 7.",
        .limit_s = RACECHECK_RUN_LIMIT_S,
    };
    racecheck_expect_clean(&spec);
}

/* ---------------------------------------------------------- bad input */

void gpu_rejects_bad_input(void **state)
{
    (void)state;
    lab8_require_tensor_cores();
    enum { FLOATS = 256 * 256 + 64 };
    device_buffer in, out;
    dbuf_alloc(&in, "A/B", FLOATS * sizeof(float));
    dbuf_alloc(&out, "C", FLOATS * sizeof(float));
    float *zeros = grader_malloc(FLOATS * sizeof *zeros);
    memset(zeros, 0, FLOATS * sizeof *zeros);
    dbuf_upload(&in, zeros);
    free(zeros);
    const lab8_half *x = in.data;
    float *o = out.data;
    for (int s = 0; s < LAB8_STAGE_COUNT; ++s) {
        const lab8_stage_info *st = lab8_stage_about((lab8_stage)s);
        /* The smallest sizes the stage takes, and one step off each. */
        const int m = st->mult_m, n = st->mult_n, k = st->mult_k;
        struct {
            int m, n, k;
            const lab8_half *a;
            float *c;
            lab_status expected;
            const char *why;
        } cases[] = {
            {0, n, k, x, o, LAB_ERR_INVALID_SIZE, "M = 0"},
            {m, -n, k, x, o, LAB_ERR_INVALID_SIZE, "N negative"},
            {m, n, 0, x, o, LAB_ERR_INVALID_SIZE, "K = 0"},
            {65536, n, 65536, x, o, LAB_ERR_INVALID_SIZE, "A would have 2^32 elements"},
            {m + 16 - (m == 16 ? 8 : 0), n, k, x, o, LAB_ERR_UNSUPPORTED,
             "M not a multiple of the stage's"},
            {m, n + 16 - (n == 16 ? 8 : 0), k, x, o, LAB_ERR_UNSUPPORTED,
             "N not a multiple of the stage's"},
            {m, n, k + 16 - (k == 16 ? 8 : 0), x, o, LAB_ERR_UNSUPPORTED,
             "K not a multiple of the stage's"},
            {m, n, k, NULL, o, LAB_ERR_NULL_POINTER, "A is NULL"},
            {m, n, k, x, NULL, LAB_ERR_NULL_POINTER, "C is NULL"},
            {m, n, k, x, o + 4, LAB_ERR_UNSUPPORTED, "C 16-byte but not 32-byte aligned"},
            {m, n, k, x + 8, o, LAB_ERR_UNSUPPORTED, "A 16-byte but not 32-byte aligned"},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
            char call[192];
            snprintf(call, sizeof call, "%s(M=%d, N=%d, K=%d) [%s; see lab8.h and the "
                     "validation written in tensor_cores.cu]",
                     st->name, cases[i].m, cases[i].n, cases[i].k, cases[i].why);
            dbuf_poison(&out);
            lab_status status = st->fn(cases[i].m, cases[i].n, cases[i].k, 1.0f, cases[i].a, x,
                                       0.0f, cases[i].c);
            gpu_expect_rejected(status, cases[i].expected, &out, call);
        }
    }
    dbuf_free(&in);
    dbuf_free(&out);
}
