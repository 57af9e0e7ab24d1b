# A shortcut: the thread-tile entry runs the tiled kernel (TILE 32), whose
# results are right, so the extension's lesson (several outputs per thread
# from registers) is skipped. Stage identity (stage_identity.h): it earns
# nothing, and the message names the kernel the tiled entry launches too.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
    dim3 block(LAB3_TT_THREADS_X, LAB3_TT_THREADS_Y);
    thread_tile_matmul_kernel<<<lab_to_dim3(grid), block>>>(a, b, c, m, n, k);
    LAB_LAUNCH_CHECK();
    return LAB_OK;]]
  REPLACE [[
    return launch_tiled<LAB3_TILE>(a, b, c, m, n, k);]]
  FAILS gpu_thread_tile_correct
    MESSAGE [[lab3_matmul_thread_tile \(ext\.\) launched the kernel tiled_matmul_kernel.*launches too]])
