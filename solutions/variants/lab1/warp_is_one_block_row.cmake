# TODO(1.11) with the wrong divisor: the warp taken to be one row of the
# 16-wide "who am I" block, instead of 32 consecutive threads.
lab_variant(SOLUTION indexing.cu
  FIND [[
LAB_HOST_DEVICE int lab1_warp_of(int thread_in_block) { return thread_in_block / 32; }]]
  REPLACE [[
LAB_HOST_DEVICE int lab1_warp_of(int thread_in_block)
{
    return thread_in_block / LAB1_WHOAMI_BLOCK_X;
}]]
  FIND [[
LAB_HOST_DEVICE int lab1_lane_of(int thread_in_block) { return thread_in_block % 32; }]]
  REPLACE [[
LAB_HOST_DEVICE int lab1_lane_of(int thread_in_block)
{
    return thread_in_block % LAB1_WHOAMI_BLOCK_X;
}]]
  FAILS cpu_warp_and_lane
    MESSAGE [[TODO\(1\.11\) lab1_warp_of/lab1_lane_of.*a warp is 32 consecutive]])
