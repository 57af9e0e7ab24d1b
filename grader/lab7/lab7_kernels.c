/* Lab 7's kernel table: the student's four stages against lab 3's tiled
 * kernel (lab 3's reference, lab3_reference), as the gpu_*_speed_vs_lab3
 * tests time them, and cuBLAS FP32 against the same kernel on a row of its
 * own (the ceiling, which gpu_warp_tile_fraction_of_cublas times the warp
 * tile against); every C is checked against lab 3's. The race rows are
 * the four stages on 256 x 128 x 64 (two block tiles, four K steps) and,
 * with --all, the any-size extension on a size that fits no tile. Lab 2's
 * naive kernel is a row for the size bench (make plot-lab7) only, lab 3's
 * thread tile one for the speed checks' self-tests and SGEMM table. The
 * optional final stage (sized) is timed against lab 3 at its own size. */
#include <stdio.h>

#include "lab2.h"
#include "lab3.h"
#include "lab7.h"
#include "lab7_cublas.h"
#include "lab7_kernels.h"
#include "lab7_rubric.h"
#include "lab7_stages.h"
#include "matmul_kernels.h"

/* The stages as plain products (alpha 1, beta 0): lab7_stages.c, which
 * the grader's checks and the size bench call too. */
MATMUL_ADAPTER(lab2_naive, lab2_matmul_naive)
MATMUL_ADAPTER(lab3_tiles, lab3_matmul_tiled)
MATMUL_ADAPTER(lab3_thread_tile, lab3_matmul_thread_tile)
MATMUL_ADAPTER(block_tile_1d, lab7_product_block_tile_1d)
MATMUL_ADAPTER(block_tile_2d, lab7_product_block_tile_2d)
MATMUL_ADAPTER(vectorised, lab7_product_vectorised)
MATMUL_ADAPTER(warp_tile, lab7_product_warp_tile)
MATMUL_ADAPTER(sized, lab7_product_sized)
MATMUL_ADAPTER(cublas, lab7_cublas_matmul)

static int any_size(const kernel_args *a)
{
    return lab7_sgemm_any_size(MATMUL_M(a), MATMUL_N(a), MATMUL_K(a), 1.0f, a->in[0], a->in[1],
                               0.0f, a->out);
}

#define AGAINST_LAB3 .yardstick = LAB7_ROW_LAB3, .flops = matmul_flops, \
    .want = KERNEL_WANT_YARDSTICK, .tolerance = matmul_time_tolerance
#define STAGE (KERNEL_TIME | KERNEL_PROFILE | KERNEL_RACE)
/* Stage identity (kernel_table.h): each stage launches kernels of its own,
 * but the warp tile's kernel is the body of the any-size extension (on
 * sizes that fit its tile) and of the optional final stage (where it picks
 * the large tile), so those three may share theirs. */
#define WARP_TILE_FAMILY (KERNEL_ROW_BIT(LAB7_ROW_WARP_TILE) | \
                          KERNEL_ROW_BIT(LAB7_ROW_ANY_SIZE) | KERNEL_ROW_BIT(LAB7_ROW_SIZED))
/* The cube the speed checks time every stage on (lab7_rubric.h). */
#define GRADED .graded_size = {LAB7_SPEED_SIZE, LAB7_SPEED_SIZE, LAB7_SPEED_SIZE}

/* make bench: lab 2's naive kernel and the stages against lab 3's tiles,
 * with cuBLAS FP32 as the ceiling, on squares of 256 .. 4096 (the
 * GFLOP/s-vs-size chart). */
#define MATMUL KERNEL_BENCH_IN(0)
#define BENCH(role, key, label) .bench = {MATMUL, KERNEL_BENCH_##role, key, label}

static const kernel_row ROWS[LAB7_ROW_COUNT] = {
    [LAB7_ROW_LAB2_NAIVE] = {.name = "lab 2's naive", .launch = lab2_naive,
                             .yardstick = LAB7_ROW_LAB3, .flops = matmul_flops,
                             BENCH(KERNEL, "naive", "naive (lab 2)")},
    [LAB7_ROW_LAB3] = {.name = "lab 3's tiles", .launch = lab3_tiles, .modes = KERNEL_PROFILE,
                       .yardstick = LAB7_ROW_LAB3, .flops = matmul_flops,
                       BENCH(BASELINE, "shared_tiles", "shared tiles, 32 x 32 (lab 3)")},
    [LAB7_ROW_BLOCK_TILE_1D] = {.name = "lab7_sgemm(block_tile_1d)", .launch = block_tile_1d,
                                .modes = STAGE, AGAINST_LAB3, GRADED, .stage = 1,
                                BENCH(KERNEL, "block_tile_1d", "1D block tile")},
    [LAB7_ROW_BLOCK_TILE_2D] = {.name = "lab7_sgemm(block_tile_2d)", .launch = block_tile_2d,
                                .modes = STAGE, AGAINST_LAB3, GRADED, .stage = 1,
                                BENCH(KERNEL, "block_tile_2d", "2D block tile")},
    [LAB7_ROW_VECTORISED] = {.name = "lab7_sgemm(vectorised)", .launch = vectorised,
                             .modes = STAGE, AGAINST_LAB3, GRADED, .stage = 1,
                             BENCH(KERNEL, "vectorised", "vectorised (float4)")},
    [LAB7_ROW_WARP_TILE] = {.name = "lab7_sgemm(warp_tile)", .launch = warp_tile,
                            .modes = STAGE, AGAINST_LAB3, GRADED, .stage = 1,
                            .shares = WARP_TILE_FAMILY, BENCH(KERNEL, "warp_tile", "warp tile")},
    [LAB7_ROW_CUBLAS] = {.name = "cuBLAS SGEMM (FP32, the ceiling)", .launch = cublas,
                         .modes = KERNEL_TIME | KERNEL_PROFILE, AGAINST_LAB3,
                         .bench = {MATMUL, KERNEL_BENCH_CEILING, "cublas",
                                   "cuBLAS SGEMM, FP32 (pedantic: no TF32)",
                                   .ceiling = "cublas_fp32"}},
    [LAB7_ROW_ANY_SIZE] = {.name = "lab7_sgemm_any_size", .launch = any_size,
                           .modes = KERNEL_RACE, .yardstick = LAB7_ROW_LAB3, .extension = 1,
                           .race_size = "100x70x37", .stage = 1,
                           .shares = WARP_TILE_FAMILY},
    [LAB7_ROW_LAB3_THREAD_TILE] = {.name = "lab 3's thread tile", .launch = lab3_thread_tile,
                                   .yardstick = LAB7_ROW_LAB3, .flops = matmul_flops},
    /* The optional final stage: make time-lab7 times it (an extension: not
     * written yet is no failure); its bonus speed test at its own size,
     * where the 128 x 128 tile leaves SMs idle (lab7_rubric.h). */
    [LAB7_ROW_SIZED] = {.name = "lab7_sgemm(sized)", .launch = sized, .modes = KERNEL_TIME,
                        AGAINST_LAB3, .extension = 1,
                        .graded_size = {LAB7_SIZED_SPEED_SIZE, LAB7_SIZED_SPEED_SIZE,
                                        LAB7_SIZED_SPEED_SIZE},
                        .stage = 1, .shares = WARP_TILE_FAMILY,
                        .bench = {MATMUL, KERNEL_BENCH_KERNEL, "sized",
                                  "warp tile, block tile per size (final stage)", .optional = 1}},
};

/* The stages' tiles: M and N multiples of LAB7_SIZE_MULTIPLE, K of LAB7_K_MULTIPLE. */
static const char *size_problem(kernel_mode mode, const kernel_size size)
{
    static char why[160];
    if (mode == KERNEL_RACE)
        return NULL;
    long k = mode == KERNEL_PROFILE ? size[0] : size[2];
    if (size[0] % LAB7_SIZE_MULTIPLE || (mode == KERNEL_TIME && size[1] % LAB7_SIZE_MULTIPLE) ||
        k % LAB7_K_MULTIPLE) {
        snprintf(why, sizeof why, "M and N must be multiples of %d and K of %d (the stages' "
                 "tiles), e.g. SIZE=2048x2048x2048", LAB7_SIZE_MULTIPLE, LAB7_K_MULTIPLE);
        return why;
    }
    return NULL;
}

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    return matmul_kernels_setup("lab7", mode, size, p);
}

const kernel_table lab_kernel_table = {
    .lab = "lab7",
    .rows = ROWS,
    .count = LAB7_ROW_COUNT,
    .time = {3, 16384, "4096x4096x4096"},
    .profile = {1, 16384, "4096"}, /* square matrices of this size */
    .race = {3, 16384, "256x128x64"},
    .size_problem = size_problem,
    .setup = setup,
    .bench = {{"matmul", {{"256", {256, 256, 256}}, {"512", {512, 512, 512}},
                          {"1024", {1024, 1024, 1024}}, {"2048", {2048, 2048, 2048}},
                          {"4096", {4096, 4096, 4096}}},
               .compared = 1, .tolerance = matmul_time_tolerance}},
    .bench_count = 1,
};
