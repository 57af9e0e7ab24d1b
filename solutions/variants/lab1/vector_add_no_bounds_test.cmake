# TODO(1.3) forgotten: the vector add kernel has no bounds test, so the extra
# threads of the last block (255 of them for n=1) write past the end of c,
# into the canary guard zone the grader puts after every buffer.
lab_variant(SOLUTION indexing.cu
  FIND [[
    if (i < n) /* the last block's extra threads have no element */
        c[i] = a[i] + b[i];]]
  REPLACE [[
    c[i] = a[i] + b[i];]]
  FAILS gpu_vector_add
    MESSAGE [[check (the|your) bounds test]])
