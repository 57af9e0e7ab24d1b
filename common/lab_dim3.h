/* A plain-C mirror of CUDA's dim3/uint3, so index helpers can take the same
 * arguments on the device (from blockIdx, threadIdx, ...) and on the host
 * (from a simulated launch in the grader). */
#ifndef LAB_DIM3_H
#define LAB_DIM3_H

/* Marks index helpers that run in kernels and in the grader's CPU checks. */
#ifdef __CUDACC__
#define LAB_HOST_DEVICE __host__ __device__
#else
#define LAB_HOST_DEVICE
#endif

typedef struct {
    int x, y, z;
} lab_dim3;

#ifdef __CUDACC__
static __device__ __forceinline__ lab_dim3 lab_block_idx(void)
{
    lab_dim3 d = {(int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z};
    return d;
}
static __device__ __forceinline__ lab_dim3 lab_thread_idx(void)
{
    lab_dim3 d = {(int)threadIdx.x, (int)threadIdx.y, (int)threadIdx.z};
    return d;
}
static __device__ __forceinline__ lab_dim3 lab_block_dim(void)
{
    lab_dim3 d = {(int)blockDim.x, (int)blockDim.y, (int)blockDim.z};
    return d;
}
static __device__ __forceinline__ lab_dim3 lab_grid_dim(void)
{
    lab_dim3 d = {(int)gridDim.x, (int)gridDim.y, (int)gridDim.z};
    return d;
}
static inline dim3 lab_to_dim3(lab_dim3 d) { return dim3(d.x, d.y, d.z); }
#endif

#endif
