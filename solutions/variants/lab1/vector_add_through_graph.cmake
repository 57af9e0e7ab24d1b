# Hostile: the entry point captures its launch into a CUDA graph and runs
# the graph. The launch watch cannot judge a graph's kernels one by one
# (they may be anyone's: a graph captured before the watch, cuBLAS's), so
# any graph launch in a graded call fails it, naming the API.
lab_variant(SOLUTION indexing.cu
  FIND [[
    vector_add_kernel<<<lab1_blocks_for(n, LAB1_BLOCK_1D), LAB1_BLOCK_1D>>>(a, b, c, n);
    LAB_LAUNCH_CHECK();]]
  REPLACE [[
    cudaStream_t stream;
    cudaGraph_t graph;
    cudaGraphExec_t runnable;
    cudaStreamCreate(&stream);
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    vector_add_kernel<<<lab1_blocks_for(n, LAB1_BLOCK_1D), LAB1_BLOCK_1D, 0, stream>>>(a, b, c,
                                                                                        n);
    cudaStreamEndCapture(stream, &graph);
    cudaGraphInstantiate(&runnable, graph, 0);
    cudaGraphLaunch(runnable, stream);
    cudaStreamSynchronize(stream);
    cudaGraphExecDestroy(runnable);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);]]
  FAILS gpu_vector_add
    MESSAGE [[through cudaGraphLaunch.*cannot judge kernel by kernel]])
