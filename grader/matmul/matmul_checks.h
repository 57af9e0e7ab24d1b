/* Grading a matrix multiply on the GPU: shared by labs 2, 3 and 7.
 *
 * Convention everywhere (and in every message): C = A * B, row-major, A is
 * M x K, B is K x N, C is M x N; a shape is written MxNxK. Inputs are seeded
 * uniform floats in [-1, 1); the reference is cpu_matmul_ref in double; an
 * element passes when |got - ref| <= compare_dot_atol(K) + MATMUL_RTOL*|ref|.
 *
 * Every function here fails the running test (GRADER_FAIL) with a message
 * naming the call, its shape and seed, and the `hint` of the implementation
 * under test (which TODO, which handout section). */
#ifndef MATMUL_CHECKS_H
#define MATMUL_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "launch_shape.h"
#include "kernel_table.h"
#include "lab_status.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A lab's device-pointer entry point (same signature in every lab). */
typedef lab_status (*matmul_fn)(const float *a, const float *b, float *c, int m, int n, int k);

typedef struct {
    int m, n, k;
} matmul_shape;

/* The implementation being graded, as messages name it. */
typedef struct {
    const char *name;  /* e.g. "lab2_matmul_naive" */
    matmul_fn fn;
    size_t tile;       /* output tile edge for the "last partial tile" diagnosis; 0: none */
    const char *hint;  /* appended to every wrong-result message */
    const char *validation; /* where bad input is handled, e.g. "TODO(2.4), handout section 3.3" */
    unsigned block_edge;    /* blocks of block_edge x block_edge threads the lab fixes; 0: none */
    const char *block_where; /* where that shape is set, for the message */
} matmul_impl;

/* The launch a lab that fixes square tiles of `edge` (matmul_impl's
 * block_edge) makes on shape s: blocks of edge x edge threads, one per
 * edge x edge tile of C. A block of edge * edge threads in another layout,
 * or the same number of blocks in another grid, computes the same tiles
 * and follows it too (launch_shape.h). */
launch_shape matmul_tile_launch(unsigned edge, matmul_shape s, const char *where);

/* The awkward shapes every matmul lab is graded on: 1x1x1, 17x33x65, 64^3,
 * 1000x999x1001, 1x4096x1, 4096x1x4096 (a 64 MiB A: larger than L2), 512^3. */
extern const matmul_shape MATMUL_AWKWARD_SHAPES[];
extern const size_t MATMUL_AWKWARD_SHAPE_COUNT;

/* Shapes one below, at and one above the tile edges: every combination of
 * M in {tm-1, tm, tm+1, 2tm+1}, N likewise with tn, K likewise with tk (64
 * shapes). Writes up to `max` shapes, returns how many. */
size_t matmul_tile_edge_shapes(int tm, int tn, int tk, matmul_shape *out, size_t max);

/* "17x33x65 (MxNxK: A 17x65, B 65x33, C 17x33)" */
void matmul_describe_shape(matmul_shape s, char *out, size_t size);

/* Host inputs from a seed, and (optionally) the reference. */
typedef struct {
    matmul_shape shape;
    uint64_t seed;
    float *a, *b;
    double *ref; /* NULL unless asked for */
} matmul_problem;

void matmul_problem_init(matmul_problem *p, matmul_shape s, uint64_t seed, int with_reference);
void matmul_problem_free(matmul_problem *p);
/* Computes (or recomputes) p->ref on ONE core and returns the seconds it
 * took (clock_gettime, monotonic): for reporting only, never for judging. */
double matmul_problem_reference_seconds(matmul_problem *p);
compare_spec matmul_compare_spec(matmul_shape s, size_t tile);

/* One run of `impl` on device copies of seeded inputs: C poisoned with NaN
 * and wrapped in canary guard zones, the result compared with the reference,
 * A and B checked unchanged (and their guards intact). */
void matmul_expect_correct(const matmul_impl *impl, matmul_shape s, uint64_t seed);
/* The same over a list, `seeds` seeds per shape (1 for shapes with more than
 * 2^28 multiply-adds, to keep the CPU reference quick). */
void matmul_expect_correct_shapes(const matmul_impl *impl, const matmul_shape *shapes,
                                  size_t count, int seeds);

/* The same, and when a result is wrong, impl runs a second time on the same
 * inputs: if the two results differ, the failure says "results change from
 * run to run" with `rerun_hint` (a missing barrier, say) instead of a
 * pattern one run happened to show (mismatch.h). */
void matmul_expect_correct_rerun(const matmul_impl *impl, matmul_shape s, uint64_t seed,
                                 const char *rerun_hint);
void matmul_expect_correct_shapes_rerun(const matmul_impl *impl, const matmul_shape *shapes,
                                        size_t count, int seeds, const char *rerun_hint);

/* Bad input: zero, negative and int-overflowing sizes must return
 * LAB_ERR_INVALID_SIZE, a NULL buffer LAB_ERR_NULL_POINTER. */
typedef struct {
    int m, n, k;
    int null_a, null_c;   /* pass NULL for A or for C */
    lab_status expected;
    const char *why;      /* "M = 0", "A would have 2^32 elements, ..." */
} matmul_bad_case;

extern const matmul_bad_case MATMUL_BAD_CASES[];
extern const size_t MATMUL_BAD_CASE_COUNT;

/* "lab2_matmul_naive(M=0, N=8, K=8) [M = 0; see TODO(2.4), ...]" */
void matmul_describe_bad_case(const matmul_impl *impl, const matmul_bad_case *bad, char *out,
                              size_t size);

/* Every bad case on device buffers: the status must match and C (poisoned
 * before each call) must come back untouched: no launch, no write. */
void matmul_expect_rejects_bad_input(const matmul_impl *impl);

/* ---- speed ---- */

/* Two rows of the lab's kernel table (matmul_kernels.h) run: the student's
 * kernel (or the grader's, in a self-test) and its yardstick; `student` is
 * what the messages call it and the hint they give. */
typedef struct {
    const matmul_impl *student;
    const kernel_row *timed;
    const kernel_row *yardstick;
    const char *baseline_name;
    matmul_shape shape;      /* matmul_graded_shape of the graded row */
    double threshold;        /* pass when baseline_time / student_time >= threshold */
    const char *ratio_name;  /* metric name, e.g. "speedup_over_uncoalesced" */
    const char *hint;        /* printed when too slow */
    timing_plan plan;
    /* The launch every timed call must follow (launch_shape.h): this one
     * where launch.block[0] is set (lab 7's stages); else the student's
     * block_edge tiles over C (matmul_tile_launch), or none. */
    launch_shape launch;
} matmul_speed_spec;

/* The size a table row's speed check grades it at (kernel_row's
 * graded_size: M, N, K). */
matmul_shape matmul_graded_shape(const kernel_row *row);

/* Times student against baseline (interleaved, L2 flushed, medians; see
 * speed_check.h), reports GFLOP/s (2*M*N*K per launch) and the ratio, then
 * re-checks the student's output after timing (every element finite, and
 * the first, last and middle rows and columns plus 2048 random elements
 * against the double reference). judge=1 fails the test below the
 * threshold; judge=0 only measures (self-tests, metric-only tests). Returns
 * the ratio; the full measurement goes to *result when it is not NULL. */
double matmul_speed(const matmul_speed_spec *spec, int judge, timing_ab_result *result);

/* Milliseconds per launch of impl alone on shape (timing_measure), after
 * checking one run's output like matmul_speed does. */
double matmul_time_ms(const matmul_impl *impl, matmul_shape s, const timing_plan *plan);

/* A self-test: the baseline graded as if it were the student, against a
 * threshold meant to reject it. Fails (meaning: the threshold cannot tell
 * this kernel apart) when the ratio or even the best single A/B pair
 * reaches the threshold. */
void matmul_expect_below_threshold(const matmul_speed_spec *spec, const char *rubric_name);

#ifdef __cplusplus
}
#endif

#endif
