# Hostile: the pipeline remembers its last arguments and, run again with
# the same n, chunks, work and order, returns LAB_OK without issuing
# anything ("the output already holds the answer"). Correctness tests pass;
# a speed test that times repeated identical calls would measure nothing.
lab_variant(SOLUTION streams_overlap.cu
  FIND [[
    LAB_CUDA_TRY(cudaEventRecord(p->start, 0));]]
  REPLACE [[
    static lab6_pipeline *last_p;
    static int last_n, last_chunks, last_work, last_order = -1;
    if (p == last_p && n == last_n && chunks == last_chunks && work == last_work &&
        (int)order == last_order)
        return LAB_OK;
    last_p = p;
    last_n = n;
    last_chunks = chunks;
    last_work = work;
    last_order = (int)order;
    LAB_CUDA_TRY(cudaEventRecord(p->start, 0));]]
  FAILS gpu_streamed_speedup
    MESSAGE [[did not do the work]])
