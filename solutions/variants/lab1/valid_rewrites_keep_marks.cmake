# Positive twin: valid rewrites that must keep full marks. The vector-add
# kernel has a name of the student's own; lab1_blocks_for rounds up another
# way; lab1_lane_of calls the student's own lab1_warp_of (a helper call the
# CPU checks do not make themselves: harness/runner/call_log.h records only theirs).
lab_variant(SOLUTION indexing.cu
  FIND [[
__global__ void vector_add_kernel(const float *a, const float *b, float *c, int n)]]
  REPLACE [[
__global__ void my_own_sum(const float *a, const float *b, float *c, int n)]]
  FIND [[
    vector_add_kernel<<<lab1_blocks_for(n, LAB1_BLOCK_1D), LAB1_BLOCK_1D>>>(a, b, c, n);]]
  REPLACE [[
    my_own_sum<<<lab1_blocks_for(n, LAB1_BLOCK_1D), LAB1_BLOCK_1D>>>(a, b, c, n);]]
  FIND [[
    return n / block_size + (n % block_size != 0);]]
  REPLACE [[
    return n == 0 ? 0 : (n - 1) / block_size + 1;]]
  FIND [[
LAB_HOST_DEVICE int lab1_lane_of(int thread_in_block) { return thread_in_block % 32; }]]
  REPLACE [[
LAB_HOST_DEVICE int lab1_lane_of(int thread_in_block)
{
    return thread_in_block - 32 * lab1_warp_of(thread_in_block);
}]]
  PASSES cpu_blocks_for_is_ceil_div
  PASSES cpu_warp_and_lane
  PASSES gpu_vector_add)
