# TODO(7.9) without the one __syncthreads() per K step of the two-buffer
# loop: a fast warp goes on to read the other buffer before the slower warps
# have stored the next tiles into it, and then stores into the buffer the
# slower warps are still reading. The 8 warps of a block drift apart by
# whole steps over K = 128 and more, so with thousands of blocks some
# results are always wrong.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
        if (more)
            stash_tiles<BM, BN, BK, THREADS, A_STRIDE>(next, As[buf ^ 1], Bs[buf ^ 1]);
        __syncthreads();]]
  REPLACE [[
        if (more)
            stash_tiles<BM, BN, BK, THREADS, A_STRIDE>(next, As[buf ^ 1], Bs[buf ^ 1]);]]
  FAILS gpu_warp_tile_correct
    MESSAGE [[lab7_sgemm\(warp_tile\) on .*wrong]])
