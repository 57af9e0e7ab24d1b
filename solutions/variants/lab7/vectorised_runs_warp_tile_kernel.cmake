# A cheat on the lesson: the vectorised stage launches the warp tile's
# kernel (the same 128 x 128 block tile and 256 threads, so the launch shape
# is the stage's). Its results are right and fast and the kernel is the
# student's own, so before stage identity it kept full marks. Now the stage
# runs every stage once and compares the kernels: it earns nothing, and the
# message names the kernel (stage_identity.h). The any-size stage keeps its
# points: it shares no kernel with the vectorised one.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
        return launch(vectorised_kernel, LAB7_BT2_BM, LAB7_BT2_BN, LAB7_BT2_THREADS, m, n, k,
                      alpha, a, b, beta, c);]]
  REPLACE [[
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n,
                      k, alpha, a, b, beta, c);]]
  FAILS gpu_vectorised_correct
    MESSAGE [[lab7_sgemm\(vectorised\) launched the kernel .*warp_tile_kernel.*lab7_sgemm\(warp_tile\) launches too.*kernel of its own]]
  FAILS gpu_vectorised_speed_vs_lab3
    MESSAGE [[lab7_sgemm\(vectorised\) launched the kernel .*warp_tile_kernel.*kernel of its own]]
  PASSES gpu_any_size_correct)
