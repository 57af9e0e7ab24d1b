# TODO(6.4) with a wait in the issue loop: after each chunk's copy back the
# host waits for that stream, so the next chunk is issued only when the
# previous one is done. Streams, pinned memory, and still no overlap.
lab_variant(SOLUTION streams_overlap.cu
  FIND [[
        LAB_CUDA_TRY(cudaMemcpyAsync(p->host_out + r.offset, p->dev_out + r.offset, bytes,
                                     cudaMemcpyDeviceToHost, s));]]
  REPLACE [[
        LAB_CUDA_TRY(cudaMemcpyAsync(p->host_out + r.offset, p->dev_out + r.offset, bytes,
                                     cudaMemcpyDeviceToHost, s));
        LAB_CUDA_TRY(cudaStreamSynchronize(s));]]
  FAILS gpu_pipeline_overlaps
    MESSAGE [[depth-first.*did not overlap: copies overlapped kernels for only]])
