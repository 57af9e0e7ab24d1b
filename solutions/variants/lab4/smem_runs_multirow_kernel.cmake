# A shortcut: the shared-tile version launches the multirow kernel, which is
# right and faster, so the first version's lesson (one tile, one element per
# thread) is skipped. Stage identity (stage_identity.h): a version that runs
# another version's kernel earns nothing for it, naming the kernel.
lab_variant(SOLUTION transpose.cu
  FIND [[
    case LAB4_SMEM:
        transpose_tile_kernel<0><<<grid, dim3(LAB4_TILE, LAB4_TILE)>>>(in, out, rows, cols);]]
  REPLACE [[
    case LAB4_SMEM:
        transpose_multirow_kernel<<<grid, dim3(LAB4_TILE, LAB4_BLOCK_ROWS)>>>(in, out, rows,
                                                                              cols);]]
  FAILS gpu_smem_correct
    MESSAGE [[lab4_transpose\(smem\) launched the kernel transpose_multirow_kernel.*which lab4_transpose\(multirow\) launches too]]
  FAILS gpu_smem_speed_vs_naive
    MESSAGE [[launched the kernel transpose_multirow_kernel.*launches too]])
