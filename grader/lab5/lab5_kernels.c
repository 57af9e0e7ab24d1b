/* Lab 5's kernel table: the student's six reduction stages over N floats
 * (stages (4)-(6) are extensions), each against the grader's own divergent
 * reduction and checked against its sum; GB/s counts the bytes read, and
 * the race rows sum small integers, so every right sum is exact. The
 * ceiling row, a cudaMemcpy of n/2 floats, moves as many bytes as a sum
 * reads. Every stage must launch kernels of its own (stage identity,
 * kernel_table.h): what differs between them is the lesson.
 *
 * The no-atomic rows (make time-lab5, lab5_set_partials) time each stage
 * with every block storing its sum in its own slot, against the same stage
 * with its atomicAdd; outside the timed region the grader adds the slots
 * into *out with its own reduction and checks that sum. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "copy_baseline.h"
#include "lab5.h"
#include "lab5_baselines.h"
#include "lab5_kernels.h"
#include "time_kernels.h"


#define SUM_ADAPTER(name, fn) \
    static int name(const kernel_args *a) { return fn(a->in[0], a->out, (int)a->size[0]); }
SUM_ADAPTER(grader_divergent, lab5_baseline_sum_divergent)
SUM_ADAPTER(divergent, lab5_sum_divergent)
SUM_ADAPTER(strided, lab5_sum_strided)
SUM_ADAPTER(sequential, lab5_sum_sequential)
SUM_ADAPTER(first_add, lab5_sum_first_add)
SUM_ADAPTER(warp_shuffle, lab5_sum_warp_shuffle)
SUM_ADAPTER(grid_stride, lab5_sum_grid_stride)

/* ------------------------------------------- the no-atomic experiment */

/* One slot per block of the stage with the most blocks, (1)-(3)'s one per
 * LAB5_BLOCK elements; args.lab in time mode. Zero between runs, so that
 * the slots a stage with fewer blocks leaves add nothing. */
typedef struct {
    float *slots;
    size_t count;
} block_slots;

typedef lab_status (*sum_entry)(const float *, float *, int);

static int without_atomic(sum_entry entry, const kernel_args *a)
{
    const block_slots *b = a->lab;
    lab_status status = lab5_set_partials(b->slots, b->count);
    if (status == LAB_OK)
        status = entry(a->in[0], a->out, (int)a->size[0]);
    lab_status restored = lab5_set_partials(NULL, 0);
    return status != LAB_OK ? status : restored;
}

#define NO_ATOMIC_ADAPTER(name, fn) \
    static int name(const kernel_args *a) { return without_atomic(fn, a); }
NO_ATOMIC_ADAPTER(divergent_no_atomic, lab5_sum_divergent)
NO_ATOMIC_ADAPTER(strided_no_atomic, lab5_sum_strided)
NO_ATOMIC_ADAPTER(sequential_no_atomic, lab5_sum_sequential)
NO_ATOMIC_ADAPTER(first_add_no_atomic, lab5_sum_first_add)
NO_ATOMIC_ADAPTER(warp_shuffle_no_atomic, lab5_sum_warp_shuffle)
NO_ATOMIC_ADAPTER(grid_stride_no_atomic, lab5_sum_grid_stride)

/* After each run of a no-atomic row (untimed): the slots added up into
 * *out by the grader's own reduction, then zeroed for the next run. */
static int add_up_slots(const kernel_args *a)
{
    const block_slots *b = a->lab;
    lab_status status = lab5_baseline_sum_divergent(b->slots, a->out, (int)b->count);
    if (status == LAB_OK &&
        cudaMemsetAsync(b->slots, 0, b->count * sizeof(float), 0) != cudaSuccess)
        status = lab_fail(LAB_ERR_CUDA, "lab5: the block sums could not be zeroed");
    return status;
}

/* The copy's output is args.out, n/2 floats (make bench gives it its own). */
static int memcpy_half(const kernel_args *a)
{
    return baseline_memcpy_floats(a->in[0], a->out, (size_t)(a->size[0] / 2));
}

static double bytes_read(const kernel_size size) { return (double)size[0] * sizeof(float); }

/* Twice the graders' tolerance (lab5_gpu_checks.c, sum_tolerance: n *
 * 2^-25 plus four roundings of the sum), since both sums round: the two
 * may sit on opposite sides of the exact one. */
static kernel_tolerance sum_tolerance(const kernel_size size)
{
    return (kernel_tolerance){ldexp((double)size[0], -24), 8.0 * ldexp(1.0, -24)};
}

/* The graders' speed checks time every stage on 2^27 floats (512 MiB: ten
 * times an H100's L2, about 0.2 ms at copy speed, so that launch overheads
 * are a few percent), against its yardstick or the ceiling below. */
#define STAGE(fn, ext) .launch = fn, .modes = KERNEL_TIME | KERNEL_PROFILE | KERNEL_RACE, \
    .yardstick = LAB5_ROW_GRADER_DIVERGENT, .extension = ext, .bytes = bytes_read, \
    .want = KERNEL_WANT_YARDSTICK, .tolerance = sum_tolerance, .graded_size = {1L << 27}, \
    .stage = 1

/* A stage without its atomic tail (make time-lab5 only): timed against the
 * stage itself, so the ratio is what the atomic costs it; its sum, made by
 * add_up_slots, checked against the grader's (reference 0). */
#define NO_ATOMIC(fn, with_atomic, ext) .launch = fn##_no_atomic, .modes = KERNEL_TIME, \
    .yardstick = with_atomic, .extension = ext, .bytes = bytes_read, \
    .want = KERNEL_WANT_REFERENCE_0, .tolerance = sum_tolerance, .finish = add_up_slots

/* make bench: the six stages against the grader's divergent stage, with
 * the copy of n/2 floats as the ceiling (the result file's keys and labels). */
#define SUM KERNEL_BENCH_IN(0)
#define BENCH(role, key, label) .bench = {SUM, KERNEL_BENCH_##role, key, label}

static const kernel_row ROWS[LAB5_ROW_COUNT] = {
    [LAB5_ROW_GRADER_DIVERGENT] = {.name = "grader's divergent", .launch = grader_divergent,
                                   .yardstick = LAB5_ROW_GRADER_DIVERGENT,
                                   .bytes = bytes_read,
                                   BENCH(BASELINE, "grader_divergent",
                                         "the grader's divergent stage (1)")},
    [LAB5_ROW_MEMCPY_HALF] = {.name = "cudaMemcpy of n/2 floats", .launch = memcpy_half,
                              .yardstick = LAB5_ROW_MEMCPY_HALF, .bytes = bytes_read,
                              .bench = {SUM, KERNEL_BENCH_CEILING, "memcpy",
                                        "cudaMemcpy of n/2 floats (the same bytes)",
                                        .ceiling = "memcpy_d2d"}},
    [LAB5_ROW_DIVERGENT] = {.name = "(1) lab5_sum_divergent", STAGE(divergent, 0),
                            BENCH(KERNEL, "divergent", "(1) interleaved pairs, divergent")},
    [LAB5_ROW_STRIDED] = {.name = "(2) lab5_sum_strided", STAGE(strided, 0),
                          BENCH(KERNEL, "strided", "(2) contiguous threads, bank conflicts")},
    [LAB5_ROW_SEQUENTIAL] = {.name = "(3) lab5_sum_sequential", STAGE(sequential, 0),
                             BENCH(KERNEL, "sequential", "(3) sequential addressing")},
    [LAB5_ROW_FIRST_ADD] = {.name = "(4) lab5_sum_first_add (ext.)", STAGE(first_add, 1),
                            BENCH(KERNEL, "first_add", "(4) first add during the load")},
    [LAB5_ROW_WARP_SHUFFLE] = {.name = "(5) lab5_sum_warp_shuffle (ext.)",
                               STAGE(warp_shuffle, 1),
                               BENCH(KERNEL, "warp_shuffle", "(5) last warp with shuffles")},
    [LAB5_ROW_GRID_STRIDE] = {.name = "(6) lab5_sum_grid_stride (ext.)",
                              STAGE(grid_stride, 1),
                              BENCH(KERNEL, "grid_stride", "(6) grid-stride, float4, one wave")},
    [LAB5_ROW_DIVERGENT_NO_ATOMIC] = {.name = "(1) divergent, no atomic",
                                      NO_ATOMIC(divergent, LAB5_ROW_DIVERGENT, 0)},
    [LAB5_ROW_STRIDED_NO_ATOMIC] = {.name = "(2) strided, no atomic",
                                    NO_ATOMIC(strided, LAB5_ROW_STRIDED, 0)},
    [LAB5_ROW_SEQUENTIAL_NO_ATOMIC] = {.name = "(3) sequential, no atomic",
                                       NO_ATOMIC(sequential, LAB5_ROW_SEQUENTIAL, 0)},
    [LAB5_ROW_FIRST_ADD_NO_ATOMIC] = {.name = "(4) first_add, no atomic (ext.)",
                                      NO_ATOMIC(first_add, LAB5_ROW_FIRST_ADD, 1)},
    [LAB5_ROW_WARP_SHUFFLE_NO_ATOMIC] = {.name = "(5) warp_shuffle, no atomic (ext.)",
                                         NO_ATOMIC(warp_shuffle, LAB5_ROW_WARP_SHUFFLE, 1)},
    [LAB5_ROW_GRID_STRIDE_NO_ATOMIC] = {.name = "(6) grid_stride, no atomic (ext.)",
                                        NO_ATOMIC(grid_stride, LAB5_ROW_GRID_STRIDE, 1)},
};

/* Race: integers in [-3, 3], so every partial sum is exact in float at
 * these sizes, and their sum on the host. */
static int setup_race(size_t n, kernel_problem *p)
{
    float *host = kernel_host_integers(n, 5, -3, 3);
    float *want = malloc(sizeof *want);
    if (!host || !want)
        return 0;
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
        sum += host[i];
    *want = (float)sum;
    p->args.in[0] = kernel_device_array("race runner", host, n);
    p->args.out = kernel_device_array("race runner", NULL, 1);
    p->reference[0] = want;
    p->checked = 1;
    free(host);
    return p->args.in[0] && p->args.out;
}

/* Profile: ones are enough, since nothing checks the sums there; only the
 * kernels' work is profiled (the grader checks the sums on awkward inputs). */
static int setup_profile(size_t n, kernel_problem *p)
{
    float *host = malloc(n * sizeof *host);
    if (!host)
        return 0;
    for (size_t i = 0; i < n; ++i)
        host[i] = 1.0f;
    p->args.in[0] = kernel_device_array("lab5_profile", host, n);
    p->args.out = kernel_device_array("lab5_profile", NULL, 1);
    free(host);
    return p->args.in[0] && p->args.out;
}

/* Time: the no-atomic rows' zeroed slots, and the grader's sum of the
 * input, which their sums are checked against. */
static int setup_no_atomic(size_t n, kernel_problem *p)
{
    static block_slots slots;
    slots.count = (n + LAB5_BLOCK - 1) / LAB5_BLOCK;
    slots.slots = time_device_floats("lab5", slots.count, 4);
    float *sum = time_device_floats("lab5", 1, 5);
    if (!slots.slots || !sum)
        return 0;
    cudaError_t err = cudaMemset(slots.slots, 0, slots.count * sizeof(float));
    if (err != cudaSuccess || lab5_baseline_sum_divergent(p->args.in[0], sum, (int)n) != LAB_OK) {
        fprintf(stderr, "make time-lab5: the no-atomic rows could not be set up: %s\n",
                err != cudaSuccess ? cudaGetErrorString(err) : lab_last_error());
        return 0;
    }
    p->args.lab = &slots;
    p->reference[0] = sum;
    return 1;
}

/* Bench: all ones, so every partial sum is an integer a float holds
 * exactly and every stage must agree with the baseline to the last bit;
 * the ceiling copies n/2 floats into an array of its own. */
static int setup_bench(size_t n, kernel_problem *p)
{
    p->args.in[0] = kernel_bench_array(n, 0, 1.0f);
    p->args.out = kernel_bench_array(1, 0, 0.0f);
    p->ceiling_out = kernel_bench_array(n / 2, 0, 0.0f);
    p->checked = 1;
    return p->args.in[0] && p->args.out && p->ceiling_out;
}

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    size_t n = (size_t)size[0];
    p->args.size[0] = size[0];
    if (mode == KERNEL_BENCH)
        return setup_bench(n, p);
    if (mode == KERNEL_RACE)
        return setup_race(n, p);
    if (mode == KERNEL_PROFILE)
        return setup_profile(n, p);
    p->args.in[0] = time_device_floats("lab5", n, 1);
    p->args.out = time_device_floats("lab5", 1, 2);
    p->yardstick_out = time_device_floats("lab5", 1, 3);
    p->checked = 1;
    return p->args.in[0] && p->args.out && p->yardstick_out && setup_no_atomic(n, p);
}

const kernel_table lab_kernel_table = {
    .lab = "lab5",
    .rows = ROWS,
    .count = LAB5_ROW_COUNT,
    .time = {1, 0x7fffffffL, "67108864"},
    .profile = {1, 0x7fffffffL, "67108864"},
    .race = {1, 1L << 20, "5000"}, /* 19 full blocks and a part */
    .setup = setup,
    .bench = {{"sum", {{"2^24", {1L << 24}}, {"2^26", {1L << 26}}, {"2^27", {1L << 27}}},
               .compared = 1}},
    .bench_count = 1,
};
