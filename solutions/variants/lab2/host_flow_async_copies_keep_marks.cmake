# Positive twin: the host flow with asynchronous copies (default stream) and
# one cudaStreamSynchronize at the end. C is then written by the
# copy at the synchronisation, not at a cudaMemcpy's return, and the
# copy-back check (copy_watch.h) must follow it there.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    LAB_CUDA_TRY(cudaMemcpy(d->a, a, bytes_a, cudaMemcpyHostToDevice));
    LAB_CUDA_TRY(cudaMemcpy(d->b, b, bytes_b, cudaMemcpyHostToDevice));
    lab_status status = lab2_matmul_naive(d->a, d->b, d->c, m, n, k);
    if (status != LAB_OK)
        return status;
    /* cudaMemcpy waits for the kernel, so a fault inside it surfaces here. */
    LAB_CUDA_TRY(cudaMemcpy(c, d->c, bytes_c, cudaMemcpyDeviceToHost));]]
  REPLACE [[
    LAB_CUDA_TRY(cudaMemcpyAsync(d->a, a, bytes_a, cudaMemcpyHostToDevice, 0));
    LAB_CUDA_TRY(cudaMemcpyAsync(d->b, b, bytes_b, cudaMemcpyHostToDevice, 0));
    lab_status status = lab2_matmul_naive(d->a, d->b, d->c, m, n, k);
    if (status != LAB_OK)
        return status;
    LAB_CUDA_TRY(cudaMemcpyAsync(c, d->c, bytes_c, cudaMemcpyDeviceToHost, 0));
    LAB_CUDA_TRY(cudaStreamSynchronize(0));]]
  PASSES gpu_host_flow)
