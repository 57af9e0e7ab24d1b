/* make plot-lab7: the seed notes' table on this GPU. Times lab 2's naive
 * kernel, lab 3's shared tiles, the four stages of lab 7 and its optional
 * final stage, the block tile per size (yours with lab7_bench_sizes, the
 * reference with lab7_bench_sizes_solution) and cuBLAS FP32 on squares of
 * 256 .. 4096, and writes one line per (kernel, size) for
 * grader/lab7/plot_sizes.py.
 *
 *   lab7_bench_sizes OUT.txt [runs]       (default 9 timed runs per point)
 *
 * Each point is the median of `runs` timed launches after 2 warm-ups, the
 * L2 flushed before each; every run multiplies fresh inputs into a
 * NaN-poisoned C, and its whole C is compared with cuBLAS's (outside the
 * timed region). A kernel whose result differs, or whose entry point
 * refuses the size, is left out of the file with a note on stderr. The
 * kernels and their flops are rows of lab 7's kernel table (lab7_kernels.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "compare.h"
#include "device_buffer.h"
#include "device_info.h"
#include "device_verify.h"
#include "guard.h"
#include "lab7.h"
#include "lab7_cublas.h"
#include "lab7_kernels.h"
#include "matmul_checks.h"
#include "timing.h"

static const int SIZES[] = {256, 512, 1024, 2048, 4096};
enum { SIZE_COUNT = sizeof SIZES / sizeof SIZES[0] };


/* The table's keys (plot_sizes.py reads them) and rows; cuBLAS last:
 * every other kernel's share of it is computed from its row. */
static const struct {
    const char *name;
    int row;
} KERNELS[] = {
    {"naive", LAB7_ROW_LAB2_NAIVE},
    {"shared_tiles", LAB7_ROW_LAB3},
    {"block_tile_1d", LAB7_ROW_BLOCK_TILE_1D},
    {"block_tile_2d", LAB7_ROW_BLOCK_TILE_2D},
    {"vectorised", LAB7_ROW_VECTORISED},
    {"warp_tile", LAB7_ROW_WARP_TILE},
    /* The optional final stage: left out ("-") where it is not written. */
    {"sized", LAB7_ROW_SIZED},
    {"cublas", LAB7_ROW_CUBLAS},
};
enum { KERNEL_COUNT = sizeof KERNELS / sizeof KERNELS[0] };

typedef struct {
    int size;
    float *a, *b, *c, *want;
    kernel_call call; /* the row being timed, on a, b and c */
} problem;

static int launch(void *ctx)
{
    problem *p = ctx;
    return kernel_call_launch(&p->call);
}

static int prepare(void *ctx, int run)
{
    problem *p = ctx;
    size_t n = (size_t)p->size * p->size;
    device_fill_uniform(p->a, n, 7007u + 2u * (unsigned)run, -1.0f, 1.0f);
    device_fill_uniform(p->b, n, 7008u + 2u * (unsigned)run, -1.0f, 1.0f);
    device_fill_u32(p->c, GUARD_POISON_BITS, n);
    return 0;
}

static int verify(void *ctx, int run)
{
    (void)run;
    problem *p = ctx;
    size_t n = (size_t)p->size * p->size;
    if (lab7_cublas_matmul(p->a, p->b, p->want, p->size, p->size, p->size) != LAB_OK)
        return 1;
    return device_count_mismatches(p->c, p->want, n, 2.0 * compare_dot_atol((size_t)p->size),
                                   2.0 * MATMUL_RTOL) != 0;
}

static int alloc(float **p, size_t n)
{
    return cudaMalloc((void **)p, n * sizeof(float)) == cudaSuccess;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s OUT.txt [runs]\n", argv[0]);
        return 2;
    }
    const int runs = argc == 3 ? atoi(argv[2]) : 9;
    if (runs < 1) {
        fprintf(stderr, "lab7_bench_sizes: runs must be at least 1\n");
        return 2;
    }
    /* As make time-lab7: no GPU is not a failure; no table, exit 0 (the
     * Makefile draws only a table that was written). */
    if (device_count() == 0) {
        printf("make plot-lab7: needs a CUDA GPU, and none is visible here (nothing was "
               "timed).\n");
        return 0;
    }
    const int largest = SIZES[SIZE_COUNT - 1];
    const size_t most = (size_t)largest * largest;
    problem p;
    if (!alloc(&p.a, most) || !alloc(&p.b, most) || !alloc(&p.c, most) || !alloc(&p.want, most)) {
        fprintf(stderr, "lab7_bench_sizes: cannot allocate 4 x %d^2 floats on the GPU\n", largest);
        return 1;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    char device[256];
    device_describe(device, sizeof device);
    fprintf(out, "# lab7_bench_sizes: C = A*B, square fp32, median of %d verified runs "
                 "(L2 flushed), cuBLAS with CUBLAS_PEDANTIC_MATH (no TF32)\n", runs);
    fprintf(out, "# device: %s\n", device);
    fprintf(out, "# warp tile: BM %d BN %d BK %d WM %d WN %d WNITER %d TM %d TN %d (%d threads)\n",
            LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_BK, LAB7_WT_WM, LAB7_WT_WN, LAB7_WT_WNITER,
            LAB7_WT_TM, LAB7_WT_TN, LAB7_WT_THREADS);
    fprintf(out, "# kernel size ms gflops pct_of_cublas\n");

    const timing_plan plan = {.warmup = 2, .runs = runs, .launches_per_run = 1, .flush_l2 = 1};
    double ms[KERNEL_COUNT][SIZE_COUNT];
    for (int s = 0; s < SIZE_COUNT; ++s)
        for (int k = 0; k < KERNEL_COUNT; ++k) {
            p.size = SIZES[s];
            p.call = (kernel_call){&lab_kernel_table.rows[KERNELS[k].row],
                                   {.size = {p.size, p.size, p.size}, .in = {p.a, p.b},
                                    .out = p.c}};
            timing_guard guard = {prepare, verify, &p};
            stats_summary summary;
            int status = timing_measure(launch, &p, &plan, &guard, &summary);
            ms[k][s] = status == 0 ? summary.median : -1.0;
            if (status != 0)
                fprintf(stderr, "lab7_bench_sizes: %s at %d left out: %s\n", KERNELS[k].name,
                        SIZES[s],
                        status == TIMING_WRONG_RESULT ? "its result differs from cuBLAS's"
                                                      : lab_last_error());
        }
    printf("GFLOP/s (%% of cuBLAS), %s\n%-14s", device, "kernel");
    for (int s = 0; s < SIZE_COUNT; ++s)
        printf(" %16d", SIZES[s]);
    printf("\n");
    for (int k = 0; k < KERNEL_COUNT; ++k) {
        printf("%-14s", KERNELS[k].name);
        for (int s = 0; s < SIZE_COUNT; ++s) {
            const kernel_size size = {SIZES[s], SIZES[s], SIZES[s]};
            const double flops = kernel_row_flops(&lab_kernel_table.rows[KERNELS[k].row], size);
            const double cublas_ms = ms[KERNEL_COUNT - 1][s];
            if (ms[k][s] <= 0) {
                printf(" %16s", "-");
                continue;
            }
            double gflops = flops / (ms[k][s] * 1e6);
            double pct = cublas_ms > 0 ? 100.0 * cublas_ms / ms[k][s] : 0.0;
            printf(" %8.0f (%4.0f%%)", gflops, pct);
            fprintf(out, "%s %d %.5f %.1f %.1f\n", KERNELS[k].name, SIZES[s], ms[k][s], gflops,
                    pct);
        }
        printf("\n");
    }
    fclose(out);
    printf("written: %s\n", argv[1]);
    return 0;
}
