# A cheat: the host flow copies A and B in, launches an empty kernel of its
# own, copies C back, then computes C on the CPU. The values are right and
# the copies and a kernel are there; but C is not what the copy-back wrote
# (copy_watch.h), and the kernel's time is far below what the product's
# FLOPs need: the first of these, on the first shape, fails the test.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
static lab_status compute_on_device(device_matrices *d, const float *a, const float *b,]]
  REPLACE [[
__global__ void decoy_kernel(float *c) { (void)c; }

static lab_status compute_on_device(device_matrices *d, const float *a, const float *b,]]
  FIND [[
    lab_status status = lab2_matmul_naive(d->a, d->b, d->c, m, n, k);
    if (status != LAB_OK)
        return status;
    /* cudaMemcpy waits for the kernel, so a fault inside it surfaces here. */
    LAB_CUDA_TRY(cudaMemcpy(c, d->c, bytes_c, cudaMemcpyDeviceToHost));]]
  REPLACE [[
    decoy_kernel<<<1, 1>>>(d->c);
    LAB_CUDA_TRY(cudaMemcpy(c, d->c, bytes_c, cudaMemcpyDeviceToHost));
    /* Row by row, B's rows in order: fast enough on the CPU that the
     * watchdog does not catch it first. */
    for (int i = 0; i < m; ++i) {
        float *row = c + (size_t)i * n;
        for (int j = 0; j < n; ++j)
            row[j] = 0.0f;
        for (int p = 0; p < k; ++p) {
            float x = a[(size_t)i * k + p];
            const float *brow = b + (size_t)p * n;
            for (int j = 0; j < n; ++j)
                row[j] += x * brow[j];
        }
    }]]
  FAILS gpu_host_flow
    MESSAGE [[C changed after the device-to-host copy had written it]])
