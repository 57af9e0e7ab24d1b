/* Lab 1 - thread indexing: reference solution.
 *
 * Read top to bottom: index helpers, then one kernel and its entry point per
 * exercise (1D vector add, 2D image, 3D volume, grid-stride loop, who am I).
 * The handout (handouts/lab1-indexing.md) explains each step. */
#include "lab1.h"

#include "cuda_check.h"

/* ------------------------------------------------------------------ 1D */

LAB_HOST_DEVICE int lab1_global_index_1d(lab_dim3 block_idx, lab_dim3 block_dim,
                                         lab_dim3 thread_idx)
{
    /* Blocks before mine hold block_idx.x * block_dim.x threads. */
    return block_idx.x * block_dim.x + thread_idx.x;
}

LAB_HOST_DEVICE int lab1_blocks_for(int n, int block_size)
{
    /* Ceiling division in integers (a float division loses exactness above
     * 2^24); written so that n close to INT_MAX cannot overflow. */
    return n / block_size + (n % block_size != 0);
}

__global__ void vector_add_kernel(const float *a, const float *b, float *c, int n)
{
    int i = lab1_global_index_1d(lab_block_idx(), lab_block_dim(), lab_thread_idx());
    if (i < n) /* the last block's extra threads have no element */
        c[i] = a[i] + b[i];
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
    /* x selects the column so that neighbouring threads of a warp touch
     * neighbouring addresses (one row is contiguous in memory). */
    int col = block_idx.x * block_dim.x + thread_idx.x;
    int row = block_idx.y * block_dim.y + thread_idx.y;
    if (col >= width || row >= height)
        return -1;
    return (long long)row * width + col;
}

LAB_HOST_DEVICE lab_dim3 lab1_image_grid(int width, int height)
{
    lab_dim3 grid = {lab1_blocks_for(width, LAB1_IMAGE_BLOCK_X),
                     lab1_blocks_for(height, LAB1_IMAGE_BLOCK_Y), 1};
    return grid;
}

__global__ void image_double_kernel(const float *in, float *out, int width, int height)
{
    long long offset = lab1_pixel_offset(lab_block_idx(), lab_block_dim(), lab_thread_idx(),
                                         width, height);
    if (offset >= 0)
        out[offset] = 2.0f * in[offset];
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
    lab_dim3 c = {block_idx.x * block_dim.x + thread_idx.x,
                  block_idx.y * block_dim.y + thread_idx.y,
                  block_idx.z * block_dim.z + thread_idx.z};
    return c;
}

LAB_HOST_DEVICE long long lab1_voxel_offset(lab_dim3 c, int nx, int ny, int nz)
{
    if (c.x >= nx || c.y >= ny || c.z >= nz)
        return -1;
    /* A slice holds nx*ny voxels; a row inside it holds nx. */
    return ((long long)c.z * ny + c.y) * nx + c.x;
}

LAB_HOST_DEVICE lab_dim3 lab1_volume_grid(int nx, int ny, int nz)
{
    lab_dim3 grid = {lab1_blocks_for(nx, LAB1_VOLUME_BLOCK_X),
                     lab1_blocks_for(ny, LAB1_VOLUME_BLOCK_Y),
                     lab1_blocks_for(nz, LAB1_VOLUME_BLOCK_Z)};
    return grid;
}

__global__ void volume_depth_scale_kernel(const float *in, float *out, int nx, int ny, int nz)
{
    lab_dim3 c = lab1_voxel_coords(lab_block_idx(), lab_block_dim(), lab_thread_idx());
    long long offset = lab1_voxel_offset(c, nx, ny, nz);
    if (offset >= 0)
        out[offset] = in[offset] * (float)(c.z + 1);
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
    /* Every thread of the grid takes one element per pass. */
    return grid_dim.x * block_dim.x;
}

__global__ void scale_grid_stride_kernel(const float *in, float *out, float factor, int n)
{
    int step = lab1_grid_stride_step(lab_grid_dim(), lab_block_dim());
    /* long long: i + step must not overflow when n is close to INT_MAX. */
    for (long long i = lab1_global_index_1d(lab_block_idx(), lab_block_dim(), lab_thread_idx());
         i < n; i += step)
        out[i] = factor * in[i];
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
    /* x varies fastest, then y, then z: the order warps are formed in. */
    return thread_idx.x + block_dim.x * (thread_idx.y + block_dim.y * thread_idx.z);
}

LAB_HOST_DEVICE int lab1_warp_of(int thread_in_block) { return thread_in_block / 32; }

LAB_HOST_DEVICE int lab1_lane_of(int thread_in_block) { return thread_in_block % 32; }

__global__ void whoami_kernel(lab1_whoami_record *out, int width, int height)
{
    long long offset = lab1_pixel_offset(lab_block_idx(), lab_block_dim(), lab_thread_idx(),
                                         width, height);
    if (offset < 0)
        return;
    int t = lab1_thread_in_block(lab_thread_idx(), lab_block_dim());
    lab1_whoami_record r = {(int)blockIdx.x, (int)blockIdx.y, (int)threadIdx.x,
                            (int)threadIdx.y, lab1_warp_of(t), lab1_lane_of(t)};
    out[offset] = r;
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
    /* The lanes' addresses only grow, so a new sector starts wherever a
     * lane's sector differs from the previous lane's. Byte offsets in 64
     * bits: offset + 31 * stride floats may pass what an int counts. */
    int sectors = 0;
    long long previous = -1;
    for (int lane = 0; lane < 32; ++lane) {
        long long sector = ((long long)offset + (long long)lane * stride) * 4 / 32;
        if (sector != previous)
            ++sectors;
        previous = sector;
    }
    return sectors;
}
