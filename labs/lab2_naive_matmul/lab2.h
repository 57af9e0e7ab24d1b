/* Lab 2 - naive matrix multiply: the contract between your code and the grader.
 *
 * Do not change this file: the grader is compiled against it.
 *
 * C = A * B with every matrix row-major: A is M x K, B is K x N, C is M x N,
 * for any positive M, N, K (a shape is written MxNxK). One thread computes
 * one element of C. Blocks are LAB2_BLOCK_X x LAB2_BLOCK_Y = 32 x 8 threads:
 * 32 along x so that one warp is exactly one row segment of 32 consecutive
 * columns of C (handout section 6 says why that matters).
 *
 * The index helpers are yours to write (TODOs in naive_matmul.cu). Your
 * kernel calls them, and the grader also calls them on the CPU to simulate
 * a launch: coverage, bounds and the 32-byte sectors each warp touches are
 * checked even without a GPU. */
#ifndef LAB2_H
#define LAB2_H

#include "lab_dim3.h"
#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { LAB2_BLOCK_X = 32, LAB2_BLOCK_Y = 8 };

/* ---- index helpers (TODOs) ---- */

/* TODO(2.1) the row and the column of C that this thread computes. They
 * may lie outside C (in the last blocks); the kernel tests that. */
LAB_HOST_DEVICE int lab2_row_of(lab_dim3 block_idx, lab_dim3 block_dim, lab_dim3 thread_idx);
LAB_HOST_DEVICE int lab2_col_of(lab_dim3 block_idx, lab_dim3 block_dim, lab_dim3 thread_idx);
/* TODO(2.3) the grid of LAB2_BLOCK_X x LAB2_BLOCK_Y blocks that gives
 * every element of an m x n C a thread. */
LAB_HOST_DEVICE lab_dim3 lab2_grid_for(int m, int n);

/* ---- entry points ---- */

/* DEVICE pointers. Validates (LAB_ERR_INVALID_SIZE for a size <= 0 or a
 * matrix with more than INT_MAX elements, LAB_ERR_NULL_POINTER for a NULL
 * buffer; nothing launched then), launches the naive kernel and returns
 * without synchronising. TODO(2.4) */
lab_status lab2_matmul_naive(const float *a, const float *b, float *c, int m, int n, int k);

/* HOST pointers: the whole host flow - allocate device buffers, copy A and
 * B in, run lab2_matmul_naive, copy C out, free - with every CUDA call
 * checked and every device buffer freed on every path. Returns when C is
 * in host memory. TODO(2.5)-(2.9) */
lab_status lab2_matmul_host(const float *a, const float *b, float *c, int m, int n, int k);

/* ---- timing your own kernel (TODO) ---- */

enum { LAB2_MAX_TIMED_RUNS = 101 };

/* TODO(2.11) DEVICE pointers, as lab2_matmul_naive. Calls lab2_matmul_naive
 * `warmups` times untimed, then `runs` times, each call timed on its own
 * with a pair of CUDA events, and writes the median of the `runs` times,
 * in milliseconds, to *median_ms. Unlike the entry points above it
 * returns only when the work is done. Bad input (the sizes and pointers
 * lab2_matmul_naive rejects, warmups < 0, runs outside 1 ..
 * LAB2_MAX_TIMED_RUNS, median_ms NULL) returns an error status with
 * nothing launched and *median_ms untouched. */
lab_status lab2_time_naive(const float *a, const float *b, float *c, int m, int n, int k,
                           int warmups, int runs, float *median_ms);
/* TODO(2.10) the rate of an m x n x k multiply (2 m n k floating-point
 * operations) that took `ms` milliseconds, in GFLOP/s. */
LAB_HOST_DEVICE double lab2_gflops(int m, int n, int k, double ms);

#ifdef __cplusplus
}
#endif

#endif
