/* Lab 4 GPU checks: what each version is, for messages and launch checks. */
#include "lab4_gpu_common.h"

const lab4_version_info *lab4_version_about(lab4_version version)
{
    static const lab4_version_info info[] = {
        {"smem", "4.6", "4", LAB4_TILE * LAB4_TILE, LAB4_TILE,
         "Check TODO(4.2)-(4.4) (which element goes where, handout sections 3 and 4) and "
         "TODO(4.6) (loads and stores only inside the matrices, one barrier that every thread "
         "reaches, sections 3 and 6)."},
        {"padded", "4.6", "5", LAB4_TILE * LAB4_TILE, LAB4_TILE,
         "Check TODO(4.5) (the padded pitch, section 5), the tile's size in TODO(4.6) (big "
         "enough for the padded pitch) and the offsets of TODO(4.4) (section 4)."},
        {"multirow", "4.7", "7", LAB4_TILE * LAB4_BLOCK_ROWS, LAB4_TILE,
         "Check TODO(4.7): both loops run all LAB4_PASSES passes, the passes of a thread are "
         "block_dim.y rows apart in TODO(4.2)-(4.4), and the barrier sits between the two "
         "loops (handout section 7)."},
        {"vector", "4.12", "8", LAB4_VEC_THREADS * LAB4_VEC_THREADS, LAB4_VEC_TILE,
         "Check TODO(4.8)-(4.10) (grid, which float4 goes where, the gather's offsets, "
         "handout sections 8.2 and 8.3) and TODO(4.12): a float4 only where vector_loads "
         "(vector_stores) is set and all four elements lie inside the matrix, single floats "
         "otherwise, each tested, and one barrier that every thread reaches (section 8.5)."},
    };
    return &info[version];
}
