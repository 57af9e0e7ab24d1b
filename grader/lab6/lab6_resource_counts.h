/* Lab 6: what the student's code allocated and released, counted by the
 * grader itself. Every grader of lab 6 is linked with --wrap for the CUDA
 * calls that make and free streams, events and pinned host memory
 * (grader/lab6/CMakeLists.txt), so each such call, the student's included, goes
 * through a counter here first. A pipeline that leaks a stream shows as one
 * more stream alive after lab6_pipeline_destroy than before
 * lab6_pipeline_create, whatever the student's code says about itself. */
#ifndef LAB6_RESOURCE_COUNTS_H
#define LAB6_RESOURCE_COUNTS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    long long streams;      /* created minus destroyed (successful calls) */
    long long events;
    long long pinned;       /* cudaMallocHost/cudaHostAlloc/cudaHostRegister minus frees */
    long long streams_made; /* successful creations only */
    long long events_made;
    long long pinned_made;
} lab6_resource_counts;

lab6_resource_counts lab6_resources_now(void);

#ifdef __cplusplus
}
#endif

#endif
