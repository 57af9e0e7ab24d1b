# TODO(2.9) on the success path only: the host flow frees its buffers when
# everything worked and returns at once when a step failed, leaving what
# it had allocated. No working GPU takes that path; the fault injection
# (gpu_host_flow_fails_cleanly) makes it.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    status = compute_on_device(&d, a, b, c, m, n, k);
    lab_status freed]]
  REPLACE [[
    status = compute_on_device(&d, a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    lab_status freed]]
  FAILS gpu_host_flow_fails_cleanly
    MESSAGE [[allocated before the failure (was|were) not freed: the error path leaks]])
