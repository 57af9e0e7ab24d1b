# Hostile: the graph the entry point runs holds a memset beside its kernel.
# The copy watch sees copies and memsets as API calls only, so a graph with
# such a node cannot be judged, and its launch fails the call, saying why.
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
    cudaMemsetAsync(c, 0, sizeof(float) * (size_t)n, stream);
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
    MESSAGE [[through cudaGraphLaunch \(it holds a copy or memset node.*cannot judge kernel by kernel]])
