/* Lab 5 - parallel reduction.
 *
 * Fill in the TODOs in order; each names the section of
 * handouts/lab5-reduction-divergence.md that explains it. Check your work
 * with
 *     make check-lab5
 * The grader runs your helpers on the CPU for every thread of a simulated
 * block (does the reduction add up? which warps diverge?) and, on a GPU
 * machine, checks every stage's sum on awkward sizes and times the stages.
 *
 * TODO(5.1)-(5.7) are the lab; (5.8)-(5.11), stages (4)-(6), are the
 * extension (bonus points). The entry points at the end (validation,
 * launch) are written for you, except TODO(5.3) and TODO(5.10). The
 * placeholder return values only keep the file compiling: replace them. */
#include "lab5.h"

#include <stdint.h>

#include "cuda_check.h"

/* ------------------------------------------------------------ helpers */

LAB_HOST_DEVICE int lab5_divergent_active(lab_dim3 thread_idx, int stride)
{
    /* TODO(5.1): stage (1) adds pairs `stride` apart: s[t] += s[t + stride].
     * After the step with stride 1, the even slots hold sums of two; after
     * stride 2, every fourth slot holds a sum of four; and so on. Which
     * threads t must add in the step with this stride, so that no element
     * is counted twice or lost? (handout section 3) */
    return 0;
}

LAB_HOST_DEVICE int lab5_strided_index(lab_dim3 thread_idx, int stride)
{
    /* TODO(5.4): stage (2) adds the same pairs as stage (1) in each step,
     * but hands them to threads 0, 1, 2, ... in order, so that the active
     * threads are contiguous. Return the index i of the pair's left element
     * that thread t adds into (s[i] += s[i + stride]). (handout section 5) */
    return 0;
}

LAB_HOST_DEVICE int lab5_sequential_active(lab_dim3 thread_idx, int stride)
{
    /* TODO(5.6): stage (3) folds the upper half of what is left onto the
     * lower half: s[t] += s[t + stride], with stride = blockDim.x / 2, then
     * half that, down to 1. Which threads add in the step with this
     * stride? (handout section 6) */
    return 0;
}

/* ------------------------------------------------------------------------
 * Where a block's sum goes: written for you. */

/* The graded ending adds each block's sum into *out, one atomicAdd per
 * block. The no-atomic experiment (lab5_set_partials in lab5.h, handout
 * section 9) stores it in the block's own slot instead, so that no block
 * queues behind another's atomic. The entry points choose; your kernels
 * hand their sum to add_block_sum and work the same either way
 * (maybe_unused: until the kernels are written, nothing calls it). */
typedef struct {
    float *out;      /* the whole sum, set to zero first by start_sum */
    float *partials; /* NULL, or one slot per block */
} block_sums;

[[maybe_unused]] static __device__ __forceinline__ void add_block_sum(block_sums sums,
                                                                      float block_sum)
{
    if (sums.partials)
        sums.partials[blockIdx.x] = block_sum;
    else
        atomicAdd(sums.out, block_sum);
}

/* --------------------------------------------------- stages (1)-(3) */

__global__ void divergent_kernel(const float *in, block_sums sums, int n)
{
    /* TODO(5.2): stage (1).
     *  - A __shared__ array of LAB5_BLOCK floats. Each thread stores the
     *    element of `in` that its global index names, or 0.0f past the end
     *    of the array (why 0?); then a barrier. Compute the global index as
     *    a size_t: blocks * 256 may pass INT_MAX for n near it.
     *  - The steps: stride = 1, 2, 4, ... while stride < blockDim.x. In
     *    each, the threads for which your TODO(5.1) helper (called with
     *    lab_thread_idx()) says so add s[t + stride] into s[t]; then a
     *    barrier before the next step reads what this one wrote.
     *  - Thread 0 hands the block's sum, s[0], to add_block_sum(sums, s[0])
     *    (above): it adds it into *out with atomicAdd, many blocks into the
     *    same float at the same time.
     * (handout sections 2 and 3) */
}

__global__ void strided_kernel(const float *in, block_sums sums, int n)
{
    /* TODO(5.5): stage (2): the same load, steps and add_block_sum as
     * stage (1), but in each step the thread adds s[i + stride] into s[i]
     * for the i of your TODO(5.4) helper, when i + stride < blockDim.x.
     * (handout section 5) */
}

__global__ void sequential_kernel(const float *in, block_sums sums, int n)
{
    /* TODO(5.7): stage (3): the same load and add_block_sum; the steps
     * go stride = blockDim.x / 2 down to 1, halving, and the threads your
     * TODO(5.6) helper picks add s[t + stride] into s[t]. Write the loop
     * header with care: handout section 7 shows one from a course's slides
     * with four bugs in it. (handout sections 6 and 7) */
}

/* ------------------------------------------- stages (4)-(6), extension */

__global__ void first_add_kernel(const float *in, block_sums sums, int n)
{
    /* TODO(5.8): stage (4). The launch below gives each block 2*blockDim.x
     * elements: each thread loads two of them, blockDim.x apart, adds them
     * in a register (either may lie past the end: 0 then) and stores the
     * sum in shared memory. Then stage (3)'s steps and add_block_sum. Why
     * does this almost double the speed when it only removes one step out
     * of nine? (handout section 8.1) */
}

__global__ void warp_shuffle_kernel(const float *in, block_sums sums, int n)
{
    /* TODO(5.9): stage (5): stage (4) while more than one warp is needed
     * (stride >= 64); then warp 0 alone adds s[t] + s[t + 32] into a
     * register and finishes the warp's 32 values with __shfl_down_sync
     * (offsets 16, 8, 4, 2, 1), without shared memory or barriers. Which
     * mask must the shuffles name, and why may no lane of warp 0 skip
     * them? (handout section 8.2) */
}

__global__ void grid_stride_kernel(const float *in, block_sums sums, int n)
{
    /* TODO(5.11): stage (6). The grid is fixed (TODO(5.10)), so each thread
     * sums many elements in a register with a grid-stride loop before any
     * cooperation. Read the body of the array as float4 (16 bytes per load
     * instruction): `in` need not be 16-byte aligned, so add the few
     * elements before the first 16-byte boundary and the 0-3 after the last
     * whole float4 one by one. Several independent loads per loop trip
     * keep enough bytes in flight. Then the block's sum with shuffles (each
     * warp, then one warp over the warps' sums) and one add_block_sum per
     * block. (handout section 8.3) */
}

/* ------------------------------------------------------------------------
 * Entry points: written for you, except TODO(5.3) and TODO(5.10). */

static lab_status check_sum_args(const char *function, const float *in, const float *out, int n)
{
    if (n < 1)
        return lab_fail(LAB_ERR_INVALID_SIZE, "%s: n=%d must be at least 1", function, n);
    return lab_check_pointers(function, in, out, out);
}

static lab_status start_sum(float *out)
{
    /* TODO(5.3): every block adds into *out, and the contract (lab5.h) says
     * a call overwrites *out. Set it to zero here, ordered before the
     * kernel on the default stream and without synchronising: which
     * asynchronous CUDA call sets device bytes? Wrap it in LAB_CUDA_TRY.
     * (handout section 4) */
    return LAB_OK;
}

/* Blocks of LAB5_BLOCK threads, each block covering `per_block` elements. */
static unsigned blocks_covering(int n, int per_block)
{
    return (unsigned)(n / per_block + (n % per_block != 0));
}

/* The no-atomic experiment's slots (lab5_set_partials): NULL for the
 * graded atomic ending. */
static float *partials_slots;
static size_t partials_count;

extern "C" lab_status lab5_set_partials(float *partials, size_t count)
{
    if ((partials == NULL) != (count == 0))
        return lab_fail(LAB_ERR_INVALID_SIZE, "lab5_set_partials: partials=%p with count=%zu: "
                        "give both, or NULL and 0 to restore the atomic ending",
                        (void *)partials, count);
    partials_slots = partials;
    partials_count = count;
    return LAB_OK;
}

/* Where the sums of a launch of `blocks` blocks go: into *out, set to zero
 * first, or into the experiment's slots when there are enough of them. */
static lab_status start_block_sums(const char *function, float *out, unsigned blocks,
                                   block_sums *sums)
{
    sums->out = out;
    sums->partials = partials_slots;
    if (!partials_slots)
        return start_sum(out);
    if (blocks > partials_count)
        return lab_fail(LAB_ERR_INVALID_SIZE, "%s: the launch has %u blocks, but "
                        "lab5_set_partials gave %zu slots", function, blocks, partials_count);
    return LAB_OK;
}

typedef void (*sum_kernel)(const float *, block_sums, int);

static lab_status launch_sum(const char *function, sum_kernel kernel, int per_block,
                             const float *in, float *out, int n)
{
    lab_status status = check_sum_args(function, in, out, n);
    unsigned blocks = status == LAB_OK ? blocks_covering(n, per_block) : 0;
    block_sums sums = {out, NULL};
    if (status == LAB_OK)
        status = start_block_sums(function, out, blocks, &sums);
    if (status != LAB_OK)
        return status;
    kernel<<<blocks, LAB5_BLOCK>>>(in, sums, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status lab5_sum_divergent(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_divergent", divergent_kernel, LAB5_BLOCK, in, out, n);
}

extern "C" lab_status lab5_sum_strided(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_strided", strided_kernel, LAB5_BLOCK, in, out, n);
}

extern "C" lab_status lab5_sum_sequential(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_sequential", sequential_kernel, LAB5_BLOCK, in, out, n);
}

extern "C" lab_status lab5_sum_first_add(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_first_add", first_add_kernel, 2 * LAB5_BLOCK, in, out, n);
}

extern "C" lab_status lab5_sum_warp_shuffle(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_warp_shuffle", warp_shuffle_kernel, 2 * LAB5_BLOCK, in, out, n);
}

static lab_status grid_stride_blocks(int n, unsigned *blocks)
{
    /* TODO(5.10): how many blocks of LAB5_BLOCK threads for stage (6)?
     * Enough to fill every SM once (ask the device for its SM count with
     * cudaDeviceGetAttribute; how many 256-thread blocks fit on one SM at
     * once?), but never more blocks than there are float4 loads for their
     * threads, and at least one. Set *blocks and return LAB_OK.
     * What the grader accepts: no check counts your blocks.
     * gpu_grid_stride_sums takes any grid of one block or more whose sums
     * are right, and gpu_grid_stride_fraction_of_copy only times the call,
     * so the count shows in its speed alone. The SM count times 2048 /
     * LAB5_BLOCK (8 blocks per SM on sm_80 and sm_90) and the occupancy
     * API's figure (cudaOccupancyMaxActiveBlocksPerMultiprocessor for
     * grid_stride_kernel, times the SM count) are both one wave; the
     * second also counts your kernel's registers. (handout section 8.3) */
    *blocks = 0;
    return lab_fail(LAB_ERR_UNSUPPORTED, "lab5_sum_grid_stride: TODO(5.10), the grid, is not "
                    "written yet (n=%d)", n);
}

extern "C" lab_status lab5_sum_grid_stride(const float *in, float *out, int n)
{
    lab_status status = check_sum_args("lab5_sum_grid_stride", in, out, n);
    unsigned blocks = 0;
    block_sums sums = {out, NULL};
    if (status == LAB_OK)
        status = grid_stride_blocks(n, &blocks);
    if (status == LAB_OK)
        status = start_block_sums("lab5_sum_grid_stride", out, blocks, &sums);
    if (status != LAB_OK)
        return status;
    grid_stride_kernel<<<blocks, LAB5_BLOCK>>>(in, sums, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
