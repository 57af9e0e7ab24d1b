/* Lab 1's helpers, as its CPU checks call them (call_log.h): in the test
 * program each call is the student's helper, recorded; in the runner it is
 * the recorded result, so the runner judges the CPU checks itself. Every
 * helper a CPU check calls must be here: the runner does not link without
 * it. */
#include "call_log.h"
#include "lab1.h"

#ifndef GRADER_RUNNER
#define REAL(name) extern __typeof__(name) __real_##name
REAL(lab1_global_index_1d);
REAL(lab1_blocks_for);
REAL(lab1_pixel_offset);
REAL(lab1_image_grid);
REAL(lab1_voxel_coords);
REAL(lab1_voxel_offset);
REAL(lab1_volume_grid);
REAL(lab1_grid_stride_step);
REAL(lab1_thread_in_block);
REAL(lab1_warp_of);
REAL(lab1_lane_of);
REAL(lab1_sectors_per_request);
#endif

int CALL_LOGGED(lab1_global_index_1d)(lab_dim3 block_idx, lab_dim3 block_dim, lab_dim3 thread_idx)
{
    int r = 0;
    call_log_begin("lab1_global_index_1d");
    CALL_ARG(block_idx);
    CALL_ARG(block_dim);
    CALL_ARG(thread_idx);
    CALL_STUDENT(r = CALL_REAL(lab1_global_index_1d)(block_idx, block_dim, thread_idx));
    call_log_end(&r, sizeof r);
    return r;
}

int CALL_LOGGED(lab1_blocks_for)(int n, int block_size)
{
    int r = 0;
    call_log_begin("lab1_blocks_for");
    CALL_ARG(n);
    CALL_ARG(block_size);
    CALL_STUDENT(r = CALL_REAL(lab1_blocks_for)(n, block_size));
    call_log_end(&r, sizeof r);
    return r;
}

long long CALL_LOGGED(lab1_pixel_offset)(lab_dim3 block_idx, lab_dim3 block_dim,
                                         lab_dim3 thread_idx, int width, int height)
{
    long long r = 0;
    call_log_begin("lab1_pixel_offset");
    CALL_ARG(block_idx);
    CALL_ARG(block_dim);
    CALL_ARG(thread_idx);
    CALL_ARG(width);
    CALL_ARG(height);
    CALL_STUDENT(r = CALL_REAL(lab1_pixel_offset)(block_idx, block_dim, thread_idx, width,
                                                  height));
    call_log_end(&r, sizeof r);
    return r;
}

lab_dim3 CALL_LOGGED(lab1_image_grid)(int width, int height)
{
    lab_dim3 r = {0, 0, 0};
    call_log_begin("lab1_image_grid");
    CALL_ARG(width);
    CALL_ARG(height);
    CALL_STUDENT(r = CALL_REAL(lab1_image_grid)(width, height));
    call_log_end(&r, sizeof r);
    return r;
}

lab_dim3 CALL_LOGGED(lab1_voxel_coords)(lab_dim3 block_idx, lab_dim3 block_dim,
                                        lab_dim3 thread_idx)
{
    lab_dim3 r = {0, 0, 0};
    call_log_begin("lab1_voxel_coords");
    CALL_ARG(block_idx);
    CALL_ARG(block_dim);
    CALL_ARG(thread_idx);
    CALL_STUDENT(r = CALL_REAL(lab1_voxel_coords)(block_idx, block_dim, thread_idx));
    call_log_end(&r, sizeof r);
    return r;
}

long long CALL_LOGGED(lab1_voxel_offset)(lab_dim3 coords, int nx, int ny, int nz)
{
    long long r = 0;
    call_log_begin("lab1_voxel_offset");
    CALL_ARG(coords);
    CALL_ARG(nx);
    CALL_ARG(ny);
    CALL_ARG(nz);
    CALL_STUDENT(r = CALL_REAL(lab1_voxel_offset)(coords, nx, ny, nz));
    call_log_end(&r, sizeof r);
    return r;
}

lab_dim3 CALL_LOGGED(lab1_volume_grid)(int nx, int ny, int nz)
{
    lab_dim3 r = {0, 0, 0};
    call_log_begin("lab1_volume_grid");
    CALL_ARG(nx);
    CALL_ARG(ny);
    CALL_ARG(nz);
    CALL_STUDENT(r = CALL_REAL(lab1_volume_grid)(nx, ny, nz));
    call_log_end(&r, sizeof r);
    return r;
}

int CALL_LOGGED(lab1_grid_stride_step)(lab_dim3 grid_dim, lab_dim3 block_dim)
{
    int r = 0;
    call_log_begin("lab1_grid_stride_step");
    CALL_ARG(grid_dim);
    CALL_ARG(block_dim);
    CALL_STUDENT(r = CALL_REAL(lab1_grid_stride_step)(grid_dim, block_dim));
    call_log_end(&r, sizeof r);
    return r;
}

int CALL_LOGGED(lab1_thread_in_block)(lab_dim3 thread_idx, lab_dim3 block_dim)
{
    int r = 0;
    call_log_begin("lab1_thread_in_block");
    CALL_ARG(thread_idx);
    CALL_ARG(block_dim);
    CALL_STUDENT(r = CALL_REAL(lab1_thread_in_block)(thread_idx, block_dim));
    call_log_end(&r, sizeof r);
    return r;
}

int CALL_LOGGED(lab1_warp_of)(int thread_in_block)
{
    int r = 0;
    call_log_begin("lab1_warp_of");
    CALL_ARG(thread_in_block);
    CALL_STUDENT(r = CALL_REAL(lab1_warp_of)(thread_in_block));
    call_log_end(&r, sizeof r);
    return r;
}

int CALL_LOGGED(lab1_lane_of)(int thread_in_block)
{
    int r = 0;
    call_log_begin("lab1_lane_of");
    CALL_ARG(thread_in_block);
    CALL_STUDENT(r = CALL_REAL(lab1_lane_of)(thread_in_block));
    call_log_end(&r, sizeof r);
    return r;
}

int CALL_LOGGED(lab1_sectors_per_request)(int offset, int stride)
{
    int r = 0;
    call_log_begin("lab1_sectors_per_request");
    CALL_ARG(offset);
    CALL_ARG(stride);
    CALL_STUDENT(r = CALL_REAL(lab1_sectors_per_request)(offset, stride));
    call_log_end(&r, sizeof r);
    return r;
}
