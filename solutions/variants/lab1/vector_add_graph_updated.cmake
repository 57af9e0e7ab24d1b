# Hostile: the executable graph is updated after it was made
# (cudaGraphExecUpdate). What it runs is then no longer what the graph
# watch read when it was made, so its launch fails the call.
lab_variant(SOLUTION indexing.cu
  FIND [[
    vector_add_kernel<<<lab1_blocks_for(n, LAB1_BLOCK_1D), LAB1_BLOCK_1D>>>(a, b, c, n);
    LAB_LAUNCH_CHECK();]]
  REPLACE [[
    cudaStream_t stream;
    cudaGraph_t graph;
    cudaGraphExec_t runnable;
    cudaGraphExecUpdateResultInfo info;
    cudaStreamCreate(&stream);
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    vector_add_kernel<<<lab1_blocks_for(n, LAB1_BLOCK_1D), LAB1_BLOCK_1D, 0, stream>>>(a, b, c,
                                                                                        n);
    cudaStreamEndCapture(stream, &graph);
    cudaGraphInstantiate(&runnable, graph, 0);
    cudaGraphExecUpdate(runnable, graph, &info);
    cudaGraphLaunch(runnable, stream);
    cudaStreamSynchronize(stream);
    cudaGraphExecDestroy(runnable);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);]]
  FAILS gpu_vector_add
    MESSAGE [[through cudaGraphLaunch \(an executable graph was edited after it was made]])
