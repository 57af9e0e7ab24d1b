#include "bench_copy.h"

#include "copy_baseline.h"

int bench_launch_copy_kernel(void *ctx)
{
    bench_copy_call *c = ctx;
    return baseline_copy_floats(c->in, c->out, c->n);
}

int bench_launch_memcpy(void *ctx)
{
    bench_copy_call *c = ctx;
    return baseline_memcpy_floats(c->in, c->out, c->n);
}
