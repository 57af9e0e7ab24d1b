/* Lab 8 GPU checks: what each stage is, for messages and launches. */
#include "lab8_gpu_common.h"

#include <stdio.h>

#include <cuda_runtime_api.h>

#include "harness.h"
#include "lab8_checks.h"
#include "lab8_kernels.h"

static const char HINT_GLOBAL[] =
    "Check TODO(8.1) (which 16x16 tile of C a warp owns, handout section 4), TODO(8.3) (A's "
    "fragment from row tile.row, column k0, leading dimension K; B's from row k0, column "
    "tile.col, leading dimension N; both row_major; k0 advancing by 16; warps outside C "
    "leaving) and TODO(8.2) (the epilogue, section 5).";
static const char HINT_SHARED[] =
    "Check TODO(8.4) (warp tiles and fragments, section 6), TODO(8.5) (the 16-byte loads, "
    "section 7) and TODO(8.6): both tiles stored before the first barrier, fragments of A read "
    "at (fragment row, kk) with leading dimension A_LD and of B at (kk, fragment column) with "
    "B_LD, a second barrier before the next step overwrites the tiles, and the epilogue at the "
    "block's corner plus the fragment's (TODO(8.2), section 5).";

const lab8_stage_info *lab8_stage_about(lab8_stage stage)
{
    static const lab8_stage_info info[LAB8_STAGE_COUNT] = {
        {LAB8_STAGE_WMMA_GLOBAL, "lab8_wmma_global", lab8_wmma_global, LAB8_ROW_WMMA_GLOBAL,
         LAB8_G_MULTIPLE, LAB8_G_MULTIPLE, LAB8_G_MULTIPLE, HINT_GLOBAL},
        {LAB8_STAGE_WMMA_SHARED, "lab8_wmma_shared", lab8_wmma_shared, LAB8_ROW_WMMA_SHARED,
         LAB8_S_BM, LAB8_S_BN, LAB8_S_BK, HINT_SHARED},
    };
    return &info[stage];
}

launch_shape lab8_stage_launch(lab8_stage stage, int m, int n, char *where, size_t size)
{
    unsigned bm = stage == LAB8_STAGE_WMMA_GLOBAL ? LAB8_G_BM : LAB8_S_BM;
    unsigned bn = stage == LAB8_STAGE_WMMA_GLOBAL ? LAB8_G_BN : LAB8_S_BN;
    unsigned threads = stage == LAB8_STAGE_WMMA_GLOBAL ? LAB8_G_THREADS : LAB8_S_THREADS;
    snprintf(where, size, "%s's launch is given code: %u threads per block, one block per "
             "%ux%u tile of C; %s", lab8_stage_about(stage)->name, threads, bm, bn,
             lab8_stage_about(stage)->hint);
    launch_shape shape = {{threads, 1, 1},
                          {((unsigned)n + bn - 1) / bn, ((unsigned)m + bm - 1) / bm, 1},
                          where};
    return shape;
}

void lab8_require_tensor_cores(void)
{
    grader_require_gpu();
    int device = 0, major = 0, minor = 0;
    GRADER_CHECK(cudaGetDevice(&device) == cudaSuccess &&
                     cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                            device) == cudaSuccess &&
                     cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                                            device) == cudaSuccess,
                 "the grader could not read the GPU's compute capability");
    if (major * 10 + minor < 75) {
        char why[200];
        snprintf(why, sizeof why, "not gradable on this GPU: lab 8's WMMA stages need "
                 "tensor cores and the course builds for sm_75 and later; this GPU is "
                 "sm_%d%d", major, minor);
        grader_skip_at(__FILE__, __LINE__, GRADER_SKIP_BY_TEST, why);
    }
}
