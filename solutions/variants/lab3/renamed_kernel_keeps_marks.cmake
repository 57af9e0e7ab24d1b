# Positive twin: the tiled kernel has a name of the student's own. Kernels
# may have any name; the static check of its shared tiles, which reads the
# compiler's report and cannot see which kernel the entry launches, judges
# the kernel of the file that meets what the lab asks (kernel_resources.h).
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
__global__ void tiled_matmul_kernel(const float *a, const float *b, float *c, int m, int n,]]
  REPLACE [[
__global__ void my_shared_tiles(const float *a, const float *b, float *c, int m, int n,]]
  FIND [[
    tiled_matmul_kernel<TILE><<<lab_to_dim3(grid), block>>>(a, b, c, m, n, k);]]
  REPLACE [[
    my_shared_tiles<TILE><<<lab_to_dim3(grid), block>>>(a, b, c, m, n, k);]]
  FIND [[
    LAB_CUDA_TRY(cudaFuncGetAttributes(out, (const void *)tiled_matmul_kernel<LAB3_TILE>));]]
  REPLACE [[
    LAB_CUDA_TRY(cudaFuncGetAttributes(out, (const void *)my_shared_tiles<LAB3_TILE>));]]
  FIND [[
        function = (const void *)tiled_matmul_kernel<16>;]]
  REPLACE [[
        function = (const void *)my_shared_tiles<16>;]]
  FIND [[
        function = (const void *)tiled_matmul_kernel<32>;]]
  REPLACE [[
        function = (const void *)my_shared_tiles<32>;]]
  PASSES cpu_tiled_uses_shared_tiles)
