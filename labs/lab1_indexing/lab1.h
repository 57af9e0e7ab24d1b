/* Lab 1 - thread indexing: the contract between your code and the grader.
 *
 * Do not change this file: the grader is compiled against it. Entry points
 * take DEVICE pointers, validate their sizes, launch one kernel and return
 * without synchronising; the grader synchronises and checks.
 *
 * The index helpers are yours to write (TODOs in indexing.cu). Your kernels
 * call them, and the grader also calls them on the CPU to simulate every
 * thread of a launch, so a mistake shows up even without a GPU. */
#ifndef LAB1_H
#define LAB1_H

#include "lab_dim3.h"
#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launch shapes fixed by the lab (the grader simulates exactly these). */
enum {
    LAB1_BLOCK_1D = 256,                       /* vector add */
    LAB1_IMAGE_BLOCK_X = 16, LAB1_IMAGE_BLOCK_Y = 16,
    LAB1_VOLUME_BLOCK_X = 8, LAB1_VOLUME_BLOCK_Y = 8, LAB1_VOLUME_BLOCK_Z = 4,
    LAB1_STRIDE_BLOCKS = 128, LAB1_STRIDE_THREADS = 256, /* fixed grid, any n */
    LAB1_WHOAMI_BLOCK_X = 16, LAB1_WHOAMI_BLOCK_Y = 8
};

/* What one thread of the "who am I" kernel writes about itself. */
typedef struct {
    int block_x, block_y;
    int thread_x, thread_y;
    int warp, lane;
} lab1_whoami_record;

/* ---- index helpers (TODOs) ---- */

/* TODO(1.1) global index of this thread in a 1D launch. */
LAB_HOST_DEVICE int lab1_global_index_1d(lab_dim3 block_idx, lab_dim3 block_dim,
                                         lab_dim3 thread_idx);
/* TODO(1.2) blocks of block_size threads needed to cover n elements. */
LAB_HOST_DEVICE int lab1_blocks_for(int n, int block_size);
/* TODO(1.4) offset of this thread's pixel in a row-major width x height
 * image, or -1 when the thread lies outside the image. */
LAB_HOST_DEVICE long long lab1_pixel_offset(lab_dim3 block_idx, lab_dim3 block_dim,
                                            lab_dim3 thread_idx, int width, int height);
/* TODO(1.5) grid of LAB1_IMAGE_BLOCK_X x LAB1_IMAGE_BLOCK_Y blocks covering the image. */
LAB_HOST_DEVICE lab_dim3 lab1_image_grid(int width, int height);
/* TODO(1.7) (x, y, z) coordinates of this thread in a 3D launch. */
LAB_HOST_DEVICE lab_dim3 lab1_voxel_coords(lab_dim3 block_idx, lab_dim3 block_dim,
                                           lab_dim3 thread_idx);
/* TODO(1.8) offset of voxel (x, y, z) in an nx x ny x nz volume stored with x
 * fastest, then y, then z; -1 when outside the volume. */
LAB_HOST_DEVICE long long lab1_voxel_offset(lab_dim3 coords, int nx, int ny, int nz);
/* TODO(1.9) grid of LAB1_VOLUME_BLOCK_* blocks covering the volume. */
LAB_HOST_DEVICE lab_dim3 lab1_volume_grid(int nx, int ny, int nz);
/* TODO(1.10) distance between the elements one thread visits in a 1D
 * grid-stride loop. */
LAB_HOST_DEVICE int lab1_grid_stride_step(lab_dim3 grid_dim, lab_dim3 block_dim);
/* TODO(1.11) linear id of a thread inside its block, its warp and its lane. */
LAB_HOST_DEVICE int lab1_thread_in_block(lab_dim3 thread_idx, lab_dim3 block_dim);
LAB_HOST_DEVICE int lab1_warp_of(int thread_in_block);
LAB_HOST_DEVICE int lab1_lane_of(int thread_in_block);
/* TODO(1.6) how many 32-byte sectors one warp request touches when lane l
 * (0..31) reads the float at index offset + l * stride of a buffer that
 * starts on a sector boundary (offset >= 0, stride >= 1). */
LAB_HOST_DEVICE int lab1_sectors_per_request(int offset, int stride);

/* ---- entry points (device pointers; sizes in elements) ---- */

/* c[i] = a[i] + b[i] for i < n; blocks of LAB1_BLOCK_1D threads. */
lab_status lab1_vector_add(const float *a, const float *b, float *c, int n);
/* out = 2 * in on a row-major width x height image; 16x16 blocks. */
lab_status lab1_image_double(const float *in, float *out, int width, int height);
/* out[z][y][x] = in[z][y][x] * (z + 1): each slice scaled by its depth. */
lab_status lab1_volume_depth_scale(const float *in, float *out, int nx, int ny, int nz);
/* out[i] = factor * in[i] for i < n with a fixed grid of
 * LAB1_STRIDE_BLOCKS x LAB1_STRIDE_THREADS threads, whatever n is. */
lab_status lab1_scale_grid_stride(const float *in, float *out, float factor, int n);
/* Every thread of a width x height launch with 16x8 blocks writes a record
 * about itself at its pixel's offset. */
lab_status lab1_whoami(lab1_whoami_record *out, int width, int height);

#ifdef __cplusplus
}
#endif

#endif
