# TODO(6.6) without the wait: lab6_pipeline_elapsed_ms reads the time
# straight away. Right whenever the caller has synchronised first; called
# right after lab6_pipeline_run, the stop event has not completed and
# cudaEventElapsedTime returns cudaErrorNotReady.
lab_variant(SOLUTION streams_overlap.cu
  FIND [[
    LAB_CUDA_TRY(cudaEventSynchronize(p->stop));]]
  REPLACE [[
    /* read straight away */]]
  FAILS gpu_pipeline_events_time_the_run
    MESSAGE [[TODO\(6\.6\).*before the run had finished.*cudaEventSynchronize]])
