# TODO(8.6) accumulating in FP16 (a __half accumulator fragment, converted
# to FP32 only for the epilogue) where the contract says FP32: each
# addition rounds at 2^-11 of the running sum, far outside the tolerance
# derived for FP32 accumulation (grader/lab8/lab8_tolerance.c) already on
# one block and one K step. The conversion copies element i to element i:
# WMMA does not promise that FP16 and FP32 accumulators share a layout
# (they do in the mma.sync m16n8k16 layouts of sm_80 and later); either way
# the result is wrong, and the test must say so.
lab_variant(SOLUTION tensor_cores.cu
  FIND [[
    acc_fragment acc[LAB8_S_FM][LAB8_S_FN];]]
  REPLACE [[
    wmma::fragment<wmma::accumulator, LAB8_FRAG, LAB8_FRAG, LAB8_FRAG, __half>
        acc[LAB8_S_FM][LAB8_S_FN];]]
  FIND [[
            wmma::fill_fragment(acc[fm][fn], 0.0f);]]
  REPLACE [[
            wmma::fill_fragment(acc[fm][fn], __float2half(0.0f));]]
  FIND [[
            store_scaled(acc[fm][fn], c + (size_t)(block_row + at.row) * n + block_col + at.col,
                         n, alpha, beta);]]
  REPLACE [[
            acc_fragment wide;
            for (int e = 0; e < wide.num_elements; ++e)
                wide.x[e] = __half2float(acc[fm][fn].x[e]);
            store_scaled(wide, c + (size_t)(block_row + at.row) * n + block_col + at.col, n,
                         alpha, beta);]]
  FAILS gpu_wmma_shared_correct
    MESSAGE [[lab8_wmma_shared on 128x128x32 .*elements wrong]])
