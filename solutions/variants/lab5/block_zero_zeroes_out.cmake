# A race between blocks on the global result: TODO(5.3) left out, and
# instead block 0 sets *out to zero inside each kernel while the other
# blocks atomicAdd into it. Every sum comes out right, since the GPU starts
# block 0 first and its store is its first instruction, and racecheck sees
# shared memory only: it passed lab 5 in full. The zero's order is what
# gpu_sum_overwrites_out now reads, from CUPTI's record of the call: one
# kernel with no memset, copy or kernel before it (design.md section 3.3).
lab_variant(SOLUTION reduction.cu
  FIND [[
    LAB_CUDA_TRY(cudaMemsetAsync(out, 0, sizeof *out, 0));]]
  REPLACE [[
    (void)out;]]
  FIND [[
__global__ void divergent_kernel(const float *in, block_sums sums, int n)
{]]
  REPLACE [[
__global__ void divergent_kernel(const float *in, block_sums sums, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *sums.out = 0.0f;]]
  FIND [[
__global__ void strided_kernel(const float *in, block_sums sums, int n)
{]]
  REPLACE [[
__global__ void strided_kernel(const float *in, block_sums sums, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *sums.out = 0.0f;]]
  FIND [[
__global__ void sequential_kernel(const float *in, block_sums sums, int n)
{]]
  REPLACE [[
__global__ void sequential_kernel(const float *in, block_sums sums, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *sums.out = 0.0f;]]
  FAILS gpu_sum_overwrites_out
    MESSAGE [[no memset, copy or kernel before the last kernel.*race between blocks.*TODO\(5\.3\)]])
