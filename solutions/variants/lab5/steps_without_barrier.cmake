# No __syncthreads() between the steps of stages (3)-(5): a warp reads
# partial sums that another warp has not written yet.
lab_variant(SOLUTION reduction.cu
  FIND [[
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
}]]
  REPLACE [[
            s[threadIdx.x] += s[threadIdx.x + stride];
    }
}]]
  FAILS gpu_sequential_sums
    MESSAGE [[lab5_sum_sequential.*barrier after every step]])
