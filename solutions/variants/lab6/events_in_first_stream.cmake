# TODO(6.6) with the events in the first stream: with non-blocking streams
# (which do not wait for the default stream, nor it for them) the events
# bracket stream 0's chunks only. Timed, that can look like the whole run
# (all streams' copies share the copy engines); the order model sees it.
lab_variant(SOLUTION streams_overlap.cu
  FIND [[
        LAB_CUDA_TRY(cudaStreamCreate(&p->streams[s]));]]
  REPLACE [[
        LAB_CUDA_TRY(cudaStreamCreateWithFlags(&p->streams[s], cudaStreamNonBlocking));]]
  FIND [[
    LAB_CUDA_TRY(cudaEventRecord(p->start, 0));]]
  REPLACE [[
    LAB_CUDA_TRY(cudaEventRecord(p->start, p->streams[0]));]]
  FIND [[
    LAB_CUDA_TRY(cudaEventRecord(p->stop, 0));]]
  REPLACE [[
    LAB_CUDA_TRY(cudaEventRecord(p->stop, p->streams[0]));]]
  FAILS gpu_pipeline_events_time_the_run
    MESSAGE [[TODO\(6\.6\).*do not bracket every chunk]])
