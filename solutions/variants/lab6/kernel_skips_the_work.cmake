# A pipeline whose kernels skip the work (work = 0: each only copies its
# chunk): the copies overlap those short kernels well, so the trace alone
# looked like a working pipeline. The overlap test now also asks that the
# kernels were busy long enough for n x work fused multiply-adds.
lab_variant(SOLUTION streams_overlap.cu
  FIND [[
            p->dev_in + r.offset, p->dev_out + r.offset, r.count, work);]]
  REPLACE [[
            p->dev_in + r.offset, p->dev_out + r.offset, r.count, 0 * work);]]
  FAILS gpu_pipeline_overlaps
    MESSAGE [[its kernels ran for .* us in all, less than .* the kernels did not do the work]])
