# TODO(4.4) with the read offset's row step hard-coded to 32 instead of the
# pitch: right for the plain tile, but with the padded pitch (33) the store
# reads the wrong words, and the column read keeps its 32-way bank conflict.
# The pitch (TODO(4.5)) is right: both messages must name TODO(4.4).
lab_variant(SOLUTION transpose.cu
  FIND [[
    return thread_idx.x * pitch + tile_row(thread_idx, block_dim, pass);]]
  REPLACE [[
    return thread_idx.x * LAB4_TILE + tile_row(thread_idx, block_dim, pass);]]
  FAILS cpu_every_element_moved_once
    MESSAGE [[TODO\(4\.4\) on a .*pitch 33: .*lab4_tile_read_offset sends it]]
  FAILS cpu_bank_conflict_degree
    MESSAGE [[TODO\(4\.4\) the padded tile \(pitch 33\) still has 32-way bank conflicts.*The pitch is right \(TODO\(4\.5\)\).*lab4_tile_read_offset does not use it]])
