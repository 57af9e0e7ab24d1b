# TODO(3.3) with x and y swapped for the tile of A: thread (x, y) copies the
# tile's element at row x, column y, so a warp (32 consecutive x) reads down
# a column of A, one float from each of 32 rows.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
    lab3_coord e = {block_idx.y * tile + thread_idx.y, phase * tile + thread_idx.x};]]
  REPLACE [[
    lab3_coord e = {block_idx.y * tile + thread_idx.x, phase * tile + thread_idx.y};]]
  FAILS cpu_tile_load_elements
    MESSAGE [[TODO\(3\.3\) lab3_tile_a_element: .*threadIdx\.x and threadIdx\.y are swapped]])
