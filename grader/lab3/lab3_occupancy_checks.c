/* Lab 3 occupancy checks (TODO(3.2), handout section 3.1): the student's
 * lab3_resident_blocks on worked cases with an H100's limits (CPU), and on
 * the lab's own compiled kernels against the CUDA runtime's
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor (GPU). */
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "harness.h"
#include "lab3_checks.h"

/* The per-SM limits of compute capability 9.0 (H100, H200): the CUDA C++
 * Programming Guide's table of technical specifications per compute
 * capability (threads, blocks, registers, shared memory per SM and per
 * block, 255 registers per thread), the 1 KiB reserved per block that
 * cudaDevAttrReservedSharedMemPerBlock reports, and the allocation units
 * and register-file partitions of the CUDA toolkit's occupancy calculator
 * (cuda_occupancy.h: 256 registers, 128 bytes, 4 partitions on 9.0). */
static const lab3_sm_limits H100_LIMITS = {
    .warp_size = 32,
    .max_threads_per_block = 1024,
    .max_threads_per_sm = 2048,
    .max_blocks_per_sm = 32,
    .registers_per_sm = 65536,
    .register_allocation_unit = 256,
    .register_file_partitions = 4,
    .max_registers_per_thread = 255,
    .shared_bytes_per_sm = 233472,
    .shared_allocation_unit = 128,
    .reserved_shared_bytes_per_block = 1024,
    .max_shared_bytes_per_block = 232448,
};

typedef struct {
    lab3_block_resources block;
    int blocks;            /* the right answer on an H100 */
    const char *lesson;    /* what a wrong answer usually forgot */
} worked_case;

/* Each case is worked in the handout's section 3.1 (or follows from it);
 * together they make every limit the binding one at least once. */
static const worked_case CASES[] = {
    {{1024, 32, 8192}, 2, "the 32 x 32 tiled kernel: threads and registers both allow 2"},
    {{1024, 33, 8192}, 1,
     "the register cliff: at 32 registers two blocks of 32 warps fill the 65,536 registers "
     "exactly; at 33 (1056 per warp, handed out as 1280) the second block no longer fits"},
    {{256, 36, 0}, 6,
     "the register allocation unit: 36 x 32 = 1152 registers per warp are handed out as "
     "1280, so a part of the register file holds 12 warps, not 14"},
    {{256, 32, 2048}, 8, "the 16 x 16 tiled kernel: threads and registers both allow 8"},
    {{512, 47, 4096}, 2, "the thread tile: 47 registers round up to 1536 per warp"},
    {{768, 32, 0}, 2, "threads: 2048 / 768 leaves a remainder that holds no whole block"},
    {{32, 16, 0}, 32, "the limit of 32 blocks per SM, whatever room is left"},
    {{161, 16, 0}, 10,
     "threads are resident in whole warps: 161 threads take 6 warps, 64 / 6 = 10 (not "
     "2048 / 161 = 12)"},
    {{96, 40, 0}, 16,
     "the register file's partitions: 40 x 32 = 1280 registers per warp, 16,384 / 1280 = 12 "
     "warps in each of the 4 parts, 48 warps, 16 blocks of 3 warps (65,536 / 1280 = 51 "
     "warps for the whole SM would give 17)"},
    {{64, 16, 8192}, 25,
     "shared memory: every block also takes the 1 KiB the system reserves, 233,472 / 9216"},
    {{64, 16, 8300}, 24,
     "shared memory: 8300 + 1024 = 9324 bytes, rounded up to a multiple of 128 = 9344"},
    {{128, 16, 49152}, 4, "shared memory: 233,472 / (49,152 + 1024) = 4.65"},
    {{256, 16, 232448}, 1, "the largest block shared memory allows: 232,448 + 1024 = 233,472"},
    {{256, 16, 232449}, 0, "one byte more than a block may ask for: not even one block fits"},
    {{32, 255, 0}, 8,
     "255 registers: 8160 per warp, 8192 after rounding, 2 warps in each part of the "
     "register file"},
    {{32, 256, 0}, 0, "256 registers per thread is more than a thread may have"},
    {{1025, 16, 0}, 0, "1025 threads is more than a block may have"},
};

void cpu_resident_blocks_worked_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        const worked_case *c = &CASES[i];
        int got = lab3_resident_blocks(H100_LIMITS, c->block);
        GRADER_CHECK(got == c->blocks,
                     "TODO(3.2) lab3_resident_blocks with an H100's limits, for blocks of %d "
                     "threads, %d registers per thread and %d bytes of shared memory, returned "
                     "%d; the SM holds %d (%s). See %s, section 3.1.",
                     c->block.threads_per_block, c->block.registers_per_thread,
                     c->block.shared_bytes_per_block, got, c->blocks, c->lesson, LAB3_HANDOUT);
    }
}

/* ------------------------------------------------------------------ GPU */

/* The limits of the GPU the grader runs on. What cudaDeviceProp does not
 * report (allocation units, partitions, registers per thread) are
 * constants of compute capability 7.0 and later, as in cuda_occupancy.h. */
static lab3_sm_limits device_limits(void)
{
    int device = 0;
    struct cudaDeviceProp prop;
    GRADER_CHECK(cudaGetDevice(&device) == cudaSuccess &&
                     cudaGetDeviceProperties(&prop, device) == cudaSuccess,
                 "the grader could not read the device's properties");
    lab3_sm_limits sm = {
        .warp_size = prop.warpSize,
        .max_threads_per_block = prop.maxThreadsPerBlock,
        .max_threads_per_sm = prop.maxThreadsPerMultiProcessor,
        .max_blocks_per_sm = prop.maxBlocksPerMultiProcessor,
        .registers_per_sm = prop.regsPerMultiprocessor,
        .register_allocation_unit = 256,
        .register_file_partitions = 4,
        .max_registers_per_thread = 255,
        .shared_bytes_per_sm = (int)prop.sharedMemPerMultiprocessor,
        .shared_allocation_unit = prop.major >= 8 ? 128 : 256,
        .reserved_shared_bytes_per_block = (int)prop.reservedSharedMemPerBlock,
        .max_shared_bytes_per_block = (int)prop.sharedMemPerBlockOptin,
    };
    return sm;
}

void gpu_resident_blocks_match_runtime(void **state)
{
    (void)state;
    grader_require_gpu();
    const lab3_sm_limits sm = device_limits();
    const struct {
        lab3_kernel kernel;
        const char *name;
        const char *metric;
    } kernels[] = {
        {LAB3_KERNEL_TILED_32, "the tiled kernel (TILE 32)", "tiled32_blocks_per_sm"},
        {LAB3_KERNEL_TILED_16, "the tiled kernel (TILE 16)", "tiled16_blocks_per_sm"},
        {LAB3_KERNEL_THREAD_TILE, "the thread-tile kernel", "thread_tile_blocks_per_sm"},
    };
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        struct cudaFuncAttributes attr;
        int threads = 0, runtime_blocks = -1;
        lab_status status = lab3_kernel_occupancy(kernels[i].kernel, &attr, &threads,
                                                  &runtime_blocks);
        GRADER_CHECK(status == LAB_OK, "lab3_kernel_occupancy (%s) returned %s: %s",
                     kernels[i].name, lab_status_name(status), lab_last_error());
        lab3_block_resources block = {threads, attr.numRegs, (int)attr.sharedSizeBytes};
        int got = lab3_resident_blocks(sm, block);
        grader_metric(kernels[i].metric, runtime_blocks, "blocks");
        grader_note("%s: %d threads, %d registers, %d bytes of shared memory per block; "
                    "the runtime says %d blocks per SM, TODO(3.2) says %d",
                    kernels[i].name, threads, attr.numRegs, (int)attr.sharedSizeBytes,
                    runtime_blocks, got);
        GRADER_CHECK(got == runtime_blocks,
                     "TODO(3.2) lab3_resident_blocks for %s as compiled (%d threads, %d "
                     "registers per thread, %d bytes of shared memory per block) returned %d; "
                     "cudaOccupancyMaxActiveBlocksPerMultiprocessor says %d on this GPU. Work "
                     "the four limits by hand as in %s, section 3.1.",
                     kernels[i].name, threads, attr.numRegs, (int)attr.sharedSizeBytes, got,
                     runtime_blocks, LAB3_HANDOUT);
    }
}
