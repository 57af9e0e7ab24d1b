/* Lab 2 - naive matrix multiply: reference solution.
 *
 * Read top to bottom: the index helpers, the kernel (one thread per element
 * of C), the device-pointer entry point, then the host flow that moves the
 * matrices to the GPU and back. handouts/lab2-naive-matmul.md explains each
 * step. */
#include "lab2.h"

#include "cuda_check.h"

/* ------------------------------------------------------ index helpers */

LAB_HOST_DEVICE int lab2_row_of(lab_dim3 block_idx, lab_dim3 block_dim, lab_dim3 thread_idx)
{
    /* y picks the row: the 32 threads of a warp share threadIdx.y. */
    return block_idx.y * block_dim.y + thread_idx.y;
}

LAB_HOST_DEVICE int lab2_col_of(lab_dim3 block_idx, lab_dim3 block_dim, lab_dim3 thread_idx)
{
    /* x picks the column, so neighbouring lanes read neighbouring floats of
     * a row of B and write neighbouring floats of a row of C. */
    return block_idx.x * block_dim.x + thread_idx.x;
}

LAB_HOST_DEVICE lab_dim3 lab2_grid_for(int m, int n)
{
    /* Columns along x, rows along y; round up so the last partial block
     * still exists (its extra threads fail the bounds test). */
    lab_dim3 grid = {(n + LAB2_BLOCK_X - 1) / LAB2_BLOCK_X, (m + LAB2_BLOCK_Y - 1) / LAB2_BLOCK_Y,
                     1};
    return grid;
}

/* ------------------------------------------------------------- kernel */

__global__ void naive_matmul_kernel(const float *a, const float *b, float *c, int m, int n,
                                    int k)
{
    int row = lab2_row_of(lab_block_idx(), lab_block_dim(), lab_thread_idx());
    int col = lab2_col_of(lab_block_idx(), lab_block_dim(), lab_thread_idx());
    if (row >= m || col >= n)
        return;
    /* Indices fit in int: the entry point checked m*k, k*n and m*n. */
    float sum = 0.0f;
    for (int p = 0; p < k; ++p)
        sum += a[row * k + p] * b[p * n + col];
    c[row * n + col] = sum;
}

/* --------------------------------------------------------- entry points */

/* Each matrix is indexed with int, so each must have at most INT_MAX
 * elements (their product may be far larger: 2048^3 is fine). */
static lab_status check_matmul_args(const char *function, const void *a, const void *b,
                                    const void *c, int m, int n, int k)
{
    lab_status status = lab_check_extents(function, m, k, 1); /* A */
    if (status == LAB_OK)
        status = lab_check_extents(function, k, n, 1);        /* B */
    if (status == LAB_OK)
        status = lab_check_extents(function, m, n, 1);        /* C */
    if (status == LAB_OK)
        status = lab_check_pointers(function, a, b, c);
    return status;
}

extern "C" lab_status lab2_matmul_naive(const float *a, const float *b, float *c, int m, int n,
                                        int k)
{
    lab_status status = check_matmul_args("lab2_matmul_naive", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    dim3 block(LAB2_BLOCK_X, LAB2_BLOCK_Y);
    naive_matmul_kernel<<<lab_to_dim3(lab2_grid_for(m, n)), block>>>(a, b, c, m, n, k);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

/* ----------------------------------------------------------- host flow */

/* The device copies, in one struct so that one function can free whatever
 * was allocated, whichever step failed. */
typedef struct {
    float *a, *b, *c;
} device_matrices;

/* Steps that can fail. LAB_CUDA_TRY returns from here at the first error;
 * that is safe because the caller frees the struct whatever we return. */
static lab_status compute_on_device(device_matrices *d, const float *a, const float *b,
                                    float *c, int m, int n, int k)
{
    /* size_t before multiplying: m*k*4 can exceed INT_MAX. */
    size_t bytes_a = (size_t)m * k * sizeof(float);
    size_t bytes_b = (size_t)k * n * sizeof(float);
    size_t bytes_c = (size_t)m * n * sizeof(float);
    LAB_CUDA_TRY(cudaMalloc((void **)&d->a, bytes_a));
    LAB_CUDA_TRY(cudaMalloc((void **)&d->b, bytes_b));
    LAB_CUDA_TRY(cudaMalloc((void **)&d->c, bytes_c));
    LAB_CUDA_TRY(cudaMemcpy(d->a, a, bytes_a, cudaMemcpyHostToDevice));
    LAB_CUDA_TRY(cudaMemcpy(d->b, b, bytes_b, cudaMemcpyHostToDevice));
    lab_status status = lab2_matmul_naive(d->a, d->b, d->c, m, n, k);
    if (status != LAB_OK)
        return status;
    /* cudaMemcpy waits for the kernel, so a fault inside it surfaces here. */
    LAB_CUDA_TRY(cudaMemcpy(c, d->c, bytes_c, cudaMemcpyDeviceToHost));
    return LAB_OK;
}

/* cudaFree one buffer; NULL (never allocated) is a no-op. */
static lab_status free_one(float **p)
{
    float *buffer = *p;
    *p = NULL; /* never freed twice, even when cudaFree fails */
    LAB_CUDA_TRY(cudaFree(buffer));
    return LAB_OK;
}

/* Frees all three even when one fails, and reports the first failure. */
static lab_status free_device_matrices(device_matrices *d)
{
    lab_status first = free_one(&d->a);
    lab_status next = free_one(&d->b);
    if (first == LAB_OK)
        first = next;
    next = free_one(&d->c);
    return first != LAB_OK ? first : next;
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
    /* In double from the start: 2 m n k overflows an int already at 1024^3. */
    return 2.0 * m * n * k / (ms * 1e-3) / 1e9;
}

/* Insertion sort: at most LAB2_MAX_TIMED_RUNS values. */
static float median_of(float *values, int count)
{
    for (int i = 1; i < count; ++i)
        for (int j = i; j > 0 && values[j - 1] > values[j]; --j) {
            float swap = values[j];
            values[j] = values[j - 1];
            values[j - 1] = swap;
        }
    return count % 2 ? values[count / 2] : 0.5f * (values[count / 2 - 1] + values[count / 2]);
}

/* The timed loop; the caller owns and destroys the events, whatever happens here. */
static lab_status time_runs(cudaEvent_t start, cudaEvent_t stop, const float *a, const float *b,
                            float *c, int m, int n, int k, int warmups, int runs, float *times)
{
    /* Warm-up: the first launch pays for loading the module and cold caches. */
    for (int i = 0; i < warmups; ++i) {
        lab_status status = lab2_matmul_naive(a, b, c, m, n, k);
        if (status != LAB_OK)
            return status;
    }
    for (int i = 0; i < runs; ++i) {
        LAB_CUDA_TRY(cudaEventRecord(start, 0));
        lab_status status = lab2_matmul_naive(a, b, c, m, n, k);
        if (status != LAB_OK)
            return status;
        LAB_CUDA_TRY(cudaEventRecord(stop, 0));
        /* The events are recorded on the GPU's timeline; the host must wait
         * until the stop event has happened before asking for the time. */
        LAB_CUDA_TRY(cudaEventSynchronize(stop));
        LAB_CUDA_TRY(cudaEventElapsedTime(&times[i], start, stop));
    }
    return LAB_OK;
}

extern "C" lab_status lab2_time_naive(const float *a, const float *b, float *c, int m, int n,
                                      int k, int warmups, int runs, float *median_ms)
{
    lab_status status = check_matmul_args("lab2_time_naive", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    if (warmups < 0 || runs < 1 || runs > LAB2_MAX_TIMED_RUNS)
        return lab_fail(LAB_ERR_INVALID_SIZE, "lab2_time_naive: warmups=%d, runs=%d (0 or more "
                        "warm-ups, 1 to %d runs)", warmups, runs, LAB2_MAX_TIMED_RUNS);
    if (!median_ms)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab2_time_naive: median_ms is NULL");
    cudaEvent_t start = NULL, stop = NULL;
    LAB_CUDA_TRY(cudaEventCreate(&start));
    if (cudaEventCreate(&stop) != cudaSuccess) {
        cudaEventDestroy(start);
        return lab_fail(LAB_ERR_CUDA, "lab2_time_naive: cudaEventCreate failed");
    }
    float times[LAB2_MAX_TIMED_RUNS];
    status = time_runs(start, stop, a, b, c, m, n, k, warmups, runs, times);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    if (status == LAB_OK)
        *median_ms = median_of(times, runs);
    return status;
}
