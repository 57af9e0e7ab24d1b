# A cheat: a static constructor makes a cuBLAS handle before main, and the
# warp-tile stage runs cuBLAS's SGEMM through a CUDA graph captured with it.
# Work done before the test program's own code starts is where no watch
# looks, so a CUDA context that exists by then fails every judged call
# (launch_watch.h); the graph's kernel nodes, cuBLAS's, would not count
# either.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
#include "lab7.h"
]]
  REPLACE [[
#include "lab7.h"
#include <cublas_v2.h>

static cublasHandle_t early_handle;
__attribute__((constructor)) static void make_handle_early(void) { cublasCreate(&early_handle); }
]]
  FIND [[
                            LAB7_WT_BK);
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                      alpha, a, b, beta, c);]]
  REPLACE [[
                            LAB7_WT_BK);
    {
        /* Row-major C = A B is column-major C^T = B^T A^T. */
        cudaStream_t stream;
        cudaGraph_t graph;
        cudaGraphExec_t runnable;
        cudaStreamCreate(&stream);
        cublasSetStream(early_handle, stream);
        cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
        cublasSgemm(early_handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k, &beta,
                    c, n);
        cudaStreamEndCapture(stream, &graph);
        cudaGraphInstantiate(&runnable, graph, 0);
        cudaGraphLaunch(runnable, stream);
        cudaStreamSynchronize(stream);
        cudaGraphExecDestroy(runnable);
        cudaGraphDestroy(graph);
        cudaStreamDestroy(stream);
        return LAB_OK;
    }]]
  FAILS gpu_warp_tile_correct
    MESSAGE [[could not be judged: .*context.* before the test began]])
