# Positive twin: the entry point captures its own kernel into a CUDA graph
# and runs the graph. The graph watch reads the executable graph's kernel
# nodes when it is made, so its launch is judged kernel by kernel like a
# <<<...>>> launch, and a valid use of graphs keeps its marks.
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
    cudaStreamDestroy(stream);
    LAB_LAUNCH_CHECK();]]
  PASSES gpu_vector_add)
