# A route around a watch of cudaMemcpy only: A uploaded with cudaMemcpy2D
# (one row of bytes_a bytes). The copy is right, but a host flow may use
# cudaMemcpy(Async) only (copy_watch.h: every other transfer API is
# refused inside the call, naming it).
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    LAB_CUDA_TRY(cudaMemcpy(d->a, a, bytes_a, cudaMemcpyHostToDevice));]]
  REPLACE [[
    LAB_CUDA_TRY(cudaMemcpy2D(d->a, bytes_a, a, bytes_a, bytes_a, 1, cudaMemcpyHostToDevice));]]
  FAILS gpu_host_flow
    MESSAGE [[it called cudaMemcpy2D.*which a host flow may not use]])
