# The seed's serial transpose, out[i*nx + j], carried into the kernel: the
# store indexes `out` with the input's row length (cols) instead of its own
# (rows). Right on squares, wrong on every rectangle, and it writes past
# the end of `out` when cols > rows.
lab_variant(SOLUTION transpose.cu
  FIND [[
    if (dst.row < cols && dst.col < rows)
        out[dst.row * rows + dst.col] = tile[lab4_tile_read_offset(thread, dim, 0, pitch)];]]
  REPLACE [[
    if (dst.row < cols && dst.col < rows)
        out[dst.row * cols + dst.col] = tile[lab4_tile_read_offset(thread, dim, 0, pitch)];]]
  FAILS gpu_smem_correct
    MESSAGE [[31x33 `in`.*Square matrices came out right, this rectangle did not]]
  FAILS gpu_padded_correct
    MESSAGE [[Square matrices came out right]])
