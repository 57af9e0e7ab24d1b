/* Lab 2 - naive matrix multiply.
 *
 * Fill in the TODOs in order; each names the section of
 * handouts/lab2-naive-matmul.md that explains it. Check your work with
 *     make check-lab2
 * The grader runs your index helpers on the CPU (simulating a launch and
 * counting the memory sectors each warp touches) and, on a GPU machine,
 * runs both entry points and times your kernel.
 *
 * C = A * B, row-major: A is M x K, B is K x N, C is M x N. The placeholder
 * return values only keep the file compiling: replace them. */
#include "lab2.h"

#include "cuda_check.h"

/* ------------------------------------------------------ index helpers */

LAB_HOST_DEVICE int lab2_row_of(lab_dim3 block_idx, lab_dim3 block_dim, lab_dim3 thread_idx)
{
    /* TODO(2.1): the row of C this thread computes. One thread dimension
     * walks along a row of C and the other down a column. A warp is 32
     * threads with consecutive threadIdx.x and the same threadIdx.y (lab 1,
     * section 7): choose so that its 32 threads read neighbouring floats of
     * B and write neighbouring floats of C. (handout sections 2 and 6) */
    return 0;
}

LAB_HOST_DEVICE int lab2_col_of(lab_dim3 block_idx, lab_dim3 block_dim, lab_dim3 thread_idx)
{
    /* TODO(2.1, continued): the column of C this thread computes. */
    return 0;
}

LAB_HOST_DEVICE lab_dim3 lab2_grid_for(int m, int n)
{
    /* TODO(2.3): the grid of LAB2_BLOCK_X x LAB2_BLOCK_Y blocks that gives
     * every element of an m x n C a thread, with no block left idle. Which
     * extent goes with x and which with y must agree with TODO(2.1).
     * (handout section 3.1) */
    lab_dim3 grid = {1, 1, 1};
    return grid;
}

/* ------------------------------------------------------------- kernel */

__global__ void naive_matmul_kernel(const float *a, const float *b, float *c, int m, int n,
                                    int k)
{
    /* TODO(2.2): find this thread's row and column with your helpers
     * (lab_block_idx(), lab_block_dim() and lab_thread_idx() give you the
     * built-in variables as lab_dim3). A thread outside C must not touch
     * memory. Otherwise: the dot product of row `row` of A with column `col`
     * of B, accumulated in a local float and written to C once. Where in
     * row-major memory do A(row, p), B(p, col) and C(row, col) live?
     * (handout section 2) */
}

/* --------------------------------------------------------- entry points */

static lab_status check_matmul_args(const char *function, const void *a, const void *b,
                                    const void *c, int m, int n, int k)
{
    /* TODO(2.4): LAB_OK only when every size is positive, each of the three
     * matrices has no more elements than an int can index, and no pointer
     * is NULL; otherwise the first failing check's status.
     * lab_check_extents(function, d0, d1, d2) checks one product d0*d1*d2:
     * which products matter here? lab_check_pointers checks the pointers.
     * (handout section 3.3) */
    return LAB_OK;
}

extern "C" lab_status lab2_matmul_naive(const float *a, const float *b, float *c, int m, int n,
                                        int k)
{
    lab_status status = check_matmul_args("lab2_matmul_naive", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    /* TODO(2.4, continued): configure a block of LAB2_BLOCK_X x LAB2_BLOCK_Y
     * threads and the grid from lab2_grid_for (lab_to_dim3 turns a lab_dim3
     * into a dim3), launch naive_matmul_kernel, check the launch with
     * LAB_LAUNCH_CHECK() and return LAB_OK. Do not synchronise: why may the
     * caller want to launch again before this kernel ends?
     * (handout section 3.2) */
    return lab_fail(LAB_ERR_UNSUPPORTED, "lab2_matmul_naive: TODO(2.4) is not done yet");
}

/* ----------------------------------------------------------- host flow */

/* The device copies, in one struct so that one function can free whatever
 * was allocated, whichever step failed. */
typedef struct {
    float *a, *b, *c;
} device_matrices;

static lab_status compute_on_device(device_matrices *d, const float *a, const float *b,
                                    float *c, int m, int n, int k)
{
    /* TODO(2.5): allocate d->a, d->b and d->c with cudaMalloc, each call
     * wrapped in LAB_CUDA_TRY. How many bytes does each matrix take, and in
     * which integer type must that product be computed? When a call fails,
     * LAB_CUDA_TRY returns from this function at once: why does that leak
     * nothing here? (handout section 4.2) */

    /* TODO(2.6): copy A and B from the host to the device, checked.
     * (handout section 4.3) */

    /* TODO(2.7): run lab2_matmul_naive on the device copies; if it does not
     * return LAB_OK, return its status. (handout section 4.4) */

    /* TODO(2.8): copy C back to the host, checked. If the kernel crashed,
     * this is the call that reports it: why this one and not the launch?
     * (handout section 4.4) */
    return lab_fail(LAB_ERR_UNSUPPORTED, "lab2_matmul_host: TODO(2.5)-(2.8) are not done yet");
}

static lab_status free_device_matrices(device_matrices *d)
{
    /* TODO(2.9): free the three buffers with cudaFree, checked, and set each
     * pointer to NULL. Free all three even when one cudaFree fails, and
     * return the first error. Which pointers can still be NULL here, and
     * what does cudaFree do with NULL? (handout section 4.5) */
    return LAB_OK;
}

extern "C" lab_status lab2_matmul_host(const float *a, const float *b, float *c, int m, int n,
                                       int k)
{
    lab_status status = check_matmul_args("lab2_matmul_host", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    device_matrices d = {NULL, NULL, NULL};
    status = compute_on_device(&d, a, b, c, m, n, k);
    lab_status freed = free_device_matrices(&d);
    return status != LAB_OK ? status : freed;
}

/* ------------------------------------------------ timing (TODO 2.10, 2.11) */

LAB_HOST_DEVICE double lab2_gflops(int m, int n, int k, double ms)
{
    /* TODO(2.10): the rate in GFLOP/s of an m x n x k multiply that took ms
     * milliseconds. How many floating-point operations is one multiply of
     * that shape, and which type can hold that count for 4096 x 4096 x 4096?
     * (handout section 5.2) */
    return 0.0;
}

extern "C" lab_status lab2_time_naive(const float *a, const float *b, float *c, int m, int n,
                                      int k, int warmups, int runs, float *median_ms)
{
    /* TODO(2.11): time your own kernel (handout section 5.2).
     * - Reject bad input before doing anything: the sizes and pointers
     *   lab2_matmul_naive rejects, warmups < 0, runs outside
     *   1 .. LAB2_MAX_TIMED_RUNS, a NULL median_ms (lab_fail, as in TODO(2.4)).
     * - Create two CUDA events, checked; destroy them on every path.
     * - Call lab2_matmul_naive `warmups` times without timing it.
     * - Then `runs` times: record the start event, call lab2_matmul_naive,
     *   record the stop event, wait for the stop event, and read the
     *   elapsed milliseconds into an array.
     * - Write the median of those times to *median_ms.
     * The grader compares your median with the GPU's own record of the same
     * kernels and counts the launches. */
    return lab_fail(LAB_ERR_UNSUPPORTED, "lab2_time_naive: TODO(2.11) is not done yet");
}
