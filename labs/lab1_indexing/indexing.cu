/* Lab 1 - thread indexing.
 *
 * Fill in the TODOs in order; each names the section of
 * handouts/lab1-indexing.md that explains it. Check your work with
 *     make check-lab1
 * The grader runs your index helpers on the CPU (simulating every thread of
 * a launch) and, on a GPU machine, runs your kernels.
 *
 * The entry points (validation, launch) are written for you; the index math
 * and the kernel bodies are yours. The placeholder return values only keep
 * the file compiling: replace them. */
#include "lab1.h"

#include "cuda_check.h"

/* ------------------------------------------------------------------ 1D */

LAB_HOST_DEVICE int lab1_global_index_1d(lab_dim3 block_idx, lab_dim3 block_dim,
                                         lab_dim3 thread_idx)
{
    /* TODO(1.1): return this thread's index among all threads of a 1D grid.
     * How many threads come before this block, and where is this thread
     * inside its block? (handout section 2) */
    return 0;
}

LAB_HOST_DEVICE int lab1_blocks_for(int n, int block_size)
{
    /* TODO(1.2): return the number of blocks of block_size threads needed
     * so that every one of the n elements gets a thread, and no block is
     * entirely idle. Integer arithmetic only. (handout section 3) */
    return 1;
}

__global__ void vector_add_kernel(const float *a, const float *b, float *c, int n)
{
    /* TODO(1.3): compute this thread's index with lab1_global_index_1d (the
     * lab_block_idx(), lab_block_dim() and lab_thread_idx() functions hand
     * you the built-in variables as lab_dim3), then write c = a + b for that
     * element - but only if it exists. (handout section 3) */
}

extern "C" lab_status lab1_vector_add(const float *a, const float *b, float *c, int n)
{
    lab_status status = lab_check_extents("lab1_vector_add", n, 1, 1);
    if (status == LAB_OK)
        status = lab_check_pointers("lab1_vector_add", a, b, c);
    if (status != LAB_OK)
        return status;
    vector_add_kernel<<<lab1_blocks_for(n, LAB1_BLOCK_1D), LAB1_BLOCK_1D>>>(a, b, c, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

/* ------------------------------------------------------------------ 2D */

LAB_HOST_DEVICE long long lab1_pixel_offset(lab_dim3 block_idx, lab_dim3 block_dim,
                                            lab_dim3 thread_idx, int width, int height)
{
    /* TODO(1.4): find the row and the column of the pixel this thread owns,
     * return -1 if that pixel is outside the width x height image, otherwise
     * its offset in the row-major image. Which of x and y should pick the
     * column, so that the 32 threads of a warp read neighbouring addresses?
     * (handout section 4) */
    return -1;
}

LAB_HOST_DEVICE lab_dim3 lab1_image_grid(int width, int height)
{
    /* TODO(1.5): the grid of LAB1_IMAGE_BLOCK_X x LAB1_IMAGE_BLOCK_Y blocks
     * that covers the image (for the course's 76 x 62 image: 5 x 4 blocks).
     * Reuse lab1_blocks_for. (handout section 4) */
    lab_dim3 grid = {1, 1, 1};
    return grid;
}

__global__ void image_double_kernel(const float *in, float *out, int width, int height)
{
    /* TODO(1.4, continued): use lab1_pixel_offset and double the pixel,
     * skipping threads that own no pixel. (handout section 4) */
}

extern "C" lab_status lab1_image_double(const float *in, float *out, int width, int height)
{
    lab_status status = lab_check_extents("lab1_image_double", width, height, 1);
    if (status == LAB_OK)
        status = lab_check_pointers("lab1_image_double", in, out, out);
    if (status != LAB_OK)
        return status;
    dim3 block(LAB1_IMAGE_BLOCK_X, LAB1_IMAGE_BLOCK_Y);
    image_double_kernel<<<lab_to_dim3(lab1_image_grid(width, height)), block>>>(in, out, width,
                                                                               height);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

/* ------------------------------------------------------------------ 3D */

LAB_HOST_DEVICE lab_dim3 lab1_voxel_coords(lab_dim3 block_idx, lab_dim3 block_dim,
                                           lab_dim3 thread_idx)
{
    /* TODO(1.7): this thread's (x, y, z) position in the whole 3D grid, one
     * dimension at a time. (handout section 5) */
    lab_dim3 coords = {0, 0, 0};
    return coords;
}

LAB_HOST_DEVICE long long lab1_voxel_offset(lab_dim3 coords, int nx, int ny, int nz)
{
    /* TODO(1.8): -1 outside the nx x ny x nz volume; otherwise the offset of
     * the voxel when x varies fastest, then y, then z. How many voxels does
     * one z-slice hold? (handout section 5) */
    return -1;
}

LAB_HOST_DEVICE lab_dim3 lab1_volume_grid(int nx, int ny, int nz)
{
    /* TODO(1.9): the grid of LAB1_VOLUME_BLOCK_X x _Y x _Z blocks that
     * covers the volume. (handout section 5) */
    lab_dim3 grid = {1, 1, 1};
    return grid;
}

__global__ void volume_depth_scale_kernel(const float *in, float *out, int nx, int ny, int nz)
{
    /* TODO(1.8, continued): with lab1_voxel_coords and lab1_voxel_offset,
     * write out = in * (z + 1) for voxels inside the volume.
     * (handout section 5) */
}

extern "C" lab_status lab1_volume_depth_scale(const float *in, float *out, int nx, int ny,
                                              int nz)
{
    lab_status status = lab_check_extents("lab1_volume_depth_scale", nx, ny, nz);
    if (status == LAB_OK)
        status = lab_check_pointers("lab1_volume_depth_scale", in, out, out);
    if (status != LAB_OK)
        return status;
    dim3 block(LAB1_VOLUME_BLOCK_X, LAB1_VOLUME_BLOCK_Y, LAB1_VOLUME_BLOCK_Z);
    volume_depth_scale_kernel<<<lab_to_dim3(lab1_volume_grid(nx, ny, nz)), block>>>(in, out, nx,
                                                                                   ny, nz);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

/* --------------------------------------------------------- grid-stride */

LAB_HOST_DEVICE int lab1_grid_stride_step(lab_dim3 grid_dim, lab_dim3 block_dim)
{
    /* TODO(1.10): how far apart are two elements handled by the same thread
     * when the whole 1D grid sweeps the array pass after pass?
     * (handout section 6) */
    return 1;
}

__global__ void scale_grid_stride_kernel(const float *in, float *out, float factor, int n)
{
    /* TODO(1.10, continued): a loop that starts at this thread's global index
     * and advances by lab1_grid_stride_step until it passes n, writing
     * out = factor * in. The grid is fixed (LAB1_STRIDE_BLOCKS blocks), so
     * n may be far larger than the number of threads, up to INT_MAX: what
     * type must the index have so that i + step cannot overflow?
     * (handout section 6) */
}

extern "C" lab_status lab1_scale_grid_stride(const float *in, float *out, float factor, int n)
{
    lab_status status = lab_check_extents("lab1_scale_grid_stride", n, 1, 1);
    if (status == LAB_OK)
        status = lab_check_pointers("lab1_scale_grid_stride", in, out, out);
    if (status != LAB_OK)
        return status;
    scale_grid_stride_kernel<<<LAB1_STRIDE_BLOCKS, LAB1_STRIDE_THREADS>>>(in, out, factor, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

/* ---------------------------------------------------------- who am I */

LAB_HOST_DEVICE int lab1_thread_in_block(lab_dim3 thread_idx, lab_dim3 block_dim)
{
    /* TODO(1.11): the thread's linear id inside its block, in the order the
     * hardware numbers threads when it forms warps. (handout section 7) */
    return 0;
}

LAB_HOST_DEVICE int lab1_warp_of(int thread_in_block)
{
    /* TODO(1.11, continued): which warp of the block this thread is in. */
    return 0;
}

LAB_HOST_DEVICE int lab1_lane_of(int thread_in_block)
{
    /* TODO(1.11, continued): the thread's position (lane) inside its warp. */
    return 0;
}

__global__ void whoami_kernel(lab1_whoami_record *out, int width, int height)
{
    /* TODO(1.11, continued): threads that own a pixel (lab1_pixel_offset)
     * write a lab1_whoami_record at that pixel's offset: their blockIdx and
     * threadIdx (x and y), warp and lane. (handout section 7) */
}

extern "C" lab_status lab1_whoami(lab1_whoami_record *out, int width, int height)
{
    lab_status status = lab_check_extents("lab1_whoami", width, height, 1);
    if (status == LAB_OK)
        status = lab_check_pointers("lab1_whoami", out, out, out);
    if (status != LAB_OK)
        return status;
    dim3 block(LAB1_WHOAMI_BLOCK_X, LAB1_WHOAMI_BLOCK_Y);
    dim3 grid(lab1_blocks_for(width, LAB1_WHOAMI_BLOCK_X),
              lab1_blocks_for(height, LAB1_WHOAMI_BLOCK_Y));
    whoami_kernel<<<grid, block>>>(out, width, height);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

/* ------------------------------------------- misaligned and strided access */

LAB_HOST_DEVICE int lab1_sectors_per_request(int offset, int stride)
{
    /* TODO(1.6): lane l of a warp reads the float at index
     * offset + l * stride; the buffer starts on a 32-byte sector boundary.
     * How many distinct 32-byte sectors do the 32 lanes touch together?
     * Work out a few cases by hand first (offset 0 and 4 with stride 1;
     * stride 2, 8 and 32), then write the rule for any offset and stride.
     * (handout section 4, "Misaligned and strided access") */
    return 0;
}
