# TODO(4.12) with the float4 store taken from the tile row the thread loaded
# (the write offsets) instead of gathered from a column: every 4 x 4 block
# of each tile lands in its transposed place without being transposed.
lab_variant(SOLUTION transpose.cu
  FIND [[
            v.x = tile[lab4_vec_tile_read_offset(thread, pass, 0, pitch)];
            v.y = tile[lab4_vec_tile_read_offset(thread, pass, 1, pitch)];
            v.z = tile[lab4_vec_tile_read_offset(thread, pass, 2, pitch)];
            v.w = tile[lab4_vec_tile_read_offset(thread, pass, 3, pitch)];]]
  REPLACE [[
            v.x = tile[lab4_vec_tile_write_offset(thread, pass, 0, pitch)];
            v.y = tile[lab4_vec_tile_write_offset(thread, pass, 1, pitch)];
            v.z = tile[lab4_vec_tile_write_offset(thread, pass, 2, pitch)];
            v.w = tile[lab4_vec_tile_write_offset(thread, pass, 3, pitch)];]]
  FAILS gpu_vector_correct
    MESSAGE [[lab4_transpose\(vector\) on a 32x32 `in`: [0-9]+ of 1024 elements of `out` are wrong]])
