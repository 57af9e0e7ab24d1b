# TODO(2.6) and (2.8) unchecked: the copies' results are ignored, so a
# failed copy leaves garbage in C and the host flow reports LAB_OK.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    LAB_CUDA_TRY(cudaMemcpy(d->a, a, bytes_a, cudaMemcpyHostToDevice));
    LAB_CUDA_TRY(cudaMemcpy(d->b, b, bytes_b, cudaMemcpyHostToDevice));]]
  REPLACE [[
    cudaMemcpy(d->a, a, bytes_a, cudaMemcpyHostToDevice);
    cudaMemcpy(d->b, b, bytes_b, cudaMemcpyHostToDevice);]]
  FIND [[
    LAB_CUDA_TRY(cudaMemcpy(c, d->c, bytes_c, cudaMemcpyDeviceToHost));
    return LAB_OK;]]
  REPLACE [[
    cudaMemcpy(c, d->c, bytes_c, cudaMemcpyDeviceToHost);
    return LAB_OK;]]
  FAILS gpu_host_flow_fails_cleanly
    MESSAGE [[returned LAB_OK: a failed CUDA call must make the host flow fail]])
