/* Lab 7 GPU checks: what each stage is, for messages, launches and the
 * shared matmul grading (grader/matmul). */
#include <stdio.h>

#include "lab7_stages.h"
#include "lab7_gpu_common.h"

#include "lab7_checks.h"


#define VALIDATION "the validation written in warp_tiling.cu"

static const char HINT_1D[] =
    "Check TODO(7.1) (the epilogue, handout section 4), TODO(7.2) (which results a thread "
    "owns, section 5) and TODO(7.3): one element of each tile per thread, both "
    "__syncthreads(), k0 advancing by BK1, A and B indexed with their own row lengths (K "
    "and N), the block's corner added (section 5).";
static const char HINT_2D[] =
    "Check TODO(7.4) (the thread's TM2 x TN2 square, section 6) and TODO(7.5): the tiles "
    "copied in rounds of LAB7_BT2_THREADS elements, both barriers, the fragments reg_m and "
    "reg_n loaded for each p before the multiply-adds (section 6), and the epilogue "
    "(TODO(7.1), section 4).";
static const char HINT_VECTORISED[] =
    "Check TODO(7.6) (the float4 loads and the transposed place of A, section 7), TODO(7.4) "
    "(the thread's TM2 x TN2 square, which this stage keeps, section 6) and TODO(7.7): A's "
    "four floats stored at lab7_a_transposed_offset, the inner loop reading As[p][row] "
    "(transposed) and Bs[p][col], both barriers, sgemm_store4 in the epilogue (sections 7 "
    "and 4).";
static const char HINT_WARP[] =
    "Check TODO(7.8) (warp origin, thread in warp, sub-tiles, section 8), TODO(7.6) (the "
    "float4 loads and the transposed place of A, which this stage keeps, section 7) and "
    "TODO(7.9): the loads in LAB7_WT_* rounds, both barriers, k0 advancing by LAB7_WT_BK, "
    "fragments read at origin + wm_iter*WSUBM (wn_iter*WSUBN) + thread tile, and the "
    "epilogue at lab7_warp_tile_output (sections 8 and 4).";

static const char HINT_SIZED[] =
    "Check TODO(7.11) (the block count and the choice, section 11.2), TODO(7.12) (the small "
    "tile's kernel: stage 4 with the LAB7_WTS_* sizes, its warp origins and lanes from "
    "those sizes, two rounds of float4s per tile with BK = 16, section 11.3) and TODO(7.13) "
    "(the SM count, the launch of the chosen kernel over the chosen tile, section 11.4). "
    "The large tile is your stage 4: if it passes gpu_warp_tile_correct, look at the small "
    "one.";

const lab7_stage_info *lab7_stage_about(lab7_stage stage)
{
    static const lab7_stage_info info[] = {
        {LAB7_STAGE_BLOCK_TILE_1D, "block_tile_1d", "7.3", "5", LAB7_BT1_THREADS,
         (LAB7_BT1_BM * LAB7_BT1_BK + LAB7_BT1_BK * LAB7_BT1_BN) * sizeof(float), HINT_1D,
         {"lab7_sgemm(block_tile_1d)", lab7_product_block_tile_1d, LAB7_BT1_BM, HINT_1D,
          VALIDATION, 0, NULL}},
        {LAB7_STAGE_BLOCK_TILE_2D, "block_tile_2d", "7.5", "6", LAB7_BT2_THREADS,
         (LAB7_BT2_BM * LAB7_BT2_BK + LAB7_BT2_BK * LAB7_BT2_BN) * sizeof(float), HINT_2D,
         {"lab7_sgemm(block_tile_2d)", lab7_product_block_tile_2d, LAB7_BT2_BM, HINT_2D,
          VALIDATION, 0, NULL}},
        {LAB7_STAGE_VECTORISED, "vectorised", "7.7", "7", LAB7_BT2_THREADS,
         (LAB7_BT2_BM * LAB7_BT2_BK + LAB7_BT2_BK * LAB7_BT2_BN) * sizeof(float),
         HINT_VECTORISED,
         {"lab7_sgemm(vectorised)", lab7_product_vectorised, LAB7_BT2_BM, HINT_VECTORISED,
          VALIDATION, 0, NULL}},
        {LAB7_STAGE_WARP_TILE, "warp_tile", "7.9", "8", LAB7_WT_THREADS,
         (LAB7_WT_BM * LAB7_WT_BK + LAB7_WT_BK * LAB7_WT_BN) * sizeof(float), HINT_WARP,
         {"lab7_sgemm(warp_tile)", lab7_product_warp_tile, LAB7_WT_BM, HINT_WARP,
          VALIDATION, 0, NULL}},
        /* The optional final stage: its threads and shared memory are those
         * of the small tile (the large one is stage 4's kernel). */
        {LAB7_STAGE_SIZED, "sized", "7.12", "11", LAB7_WTS_THREADS,
         (LAB7_WTS_BM * LAB7_WTS_BK + LAB7_WTS_BK * LAB7_WTS_BN) * sizeof(float), HINT_SIZED,
         {"lab7_sgemm(sized)", lab7_product_sized, LAB7_WTS_BM, HINT_SIZED, VALIDATION, 0,
          NULL}},
    };
    return &info[stage];
}

/* The self-tests' stand-ins as their messages name them; the kernel table
 * launches them (LAB7_ROW_LAB3, LAB7_ROW_LAB3_THREAD_TILE). */
static const char BASELINE_BUG[] =
    "The grader's yardstick is wrong: a grader bug, please report it.";
const matmul_impl LAB7_LAB3_TILED = {"lab3_matmul_tiled (lab 3's reference)", NULL, 0,
                                     BASELINE_BUG, NULL, 0, NULL};
const matmul_impl LAB7_LAB3_THREAD_TILE = {"lab3_matmul_thread_tile (lab 3's reference)", NULL,
                                           0, BASELINE_BUG, NULL, 0, NULL};

launch_shape lab7_stage_launch(lab7_stage stage, matmul_shape s, int sms, char *where,
                               size_t size)
{
    static const struct {
        unsigned bm, bn, threads;
    } tile[LAB7_STAGE_COUNT] = {
        [LAB7_STAGE_BLOCK_TILE_1D] = {LAB7_BT1_BM, LAB7_BT1_BN, LAB7_BT1_THREADS},
        [LAB7_STAGE_BLOCK_TILE_2D] = {LAB7_BT2_BM, LAB7_BT2_BN, LAB7_BT2_THREADS},
        [LAB7_STAGE_VECTORISED] = {LAB7_BT2_BM, LAB7_BT2_BN, LAB7_BT2_THREADS},
        [LAB7_STAGE_WARP_TILE] = {LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS}};
    unsigned bm, bn, threads;
    if (stage == LAB7_STAGE_SIZED) {
        int large = lab7_grader_tile(s.m, s.n, sms) == LAB7_TILE_LARGE;
        bm = large ? LAB7_WT_BM : LAB7_WTS_BM;
        bn = large ? LAB7_WT_BN : LAB7_WTS_BN;
        threads = large ? LAB7_WT_THREADS : LAB7_WTS_THREADS;
        snprintf(where, size, "for this GPU's %d SMs the %s tile is the one to launch: %u "
                 "threads per block, one block per %ux%u tile of C (TODO(7.11) and TODO(7.13), "
                 "%s, sections 11.2 and 11.4)", sms, large ? "large" : "small", threads, bm, bn,
                 LAB7_HANDOUT);
    } else {
        bm = tile[stage].bm;
        bn = tile[stage].bn;
        threads = tile[stage].threads;
        snprintf(where, size, "lab7_sgemm's launch is given code: one block per %ux%u block "
                 "tile of C; %s", bm, bn, lab7_stage_about(stage)->hint);
    }
    launch_shape shape = {{threads, 1, 1},
                          {((unsigned)s.n + bn - 1) / bn, ((unsigned)s.m + bm - 1) / bm, 1},
                          where};
    return shape;
}
