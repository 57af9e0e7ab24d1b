#include "driver_launch.h"

#if ACTIVITY_RECORDER_HAVE_CUPTI
#include <string.h>

#include <cupti.h>

static void shape(driver_launch *out, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                  unsigned by, unsigned bz, unsigned shared_bytes)
{
    out->grid[0] = gx, out->grid[1] = gy, out->grid[2] = gz;
    out->block[0] = bx, out->block[1] = by, out->block[2] = bz;
    out->shared_bytes = shared_bytes;
}

int driver_launch_decode(unsigned cbid, const void *function_params, driver_launch *out)
{
    memset(out, 0, sizeof *out);
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        out->per_thread = 1;
        /* fall through */
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: {
        const cuLaunchKernel_params *p = function_params;
        out->f = p->f, out->stream = p->hStream;
        out->params = p->kernelParams, out->extra = p->extra;
        shape(out, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY,
              p->blockDimZ, p->sharedMemBytes);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        out->per_thread = 1;
        /* fall through */
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
        const cuLaunchKernelEx_params *p = function_params;
        const CUlaunchConfig *c = p->config;
        out->f = p->f;
        out->params = p->kernelParams, out->extra = p->extra;
        if (c) {
            out->stream = c->hStream;
            shape(out, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY,
                  c->blockDimZ, c->sharedMemBytes);
        }
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        out->per_thread = 1;
        /* fall through */
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel: {
        const cuLaunchCooperativeKernel_params *p = function_params;
        out->f = p->f, out->stream = p->hStream, out->params = p->kernelParams;
        shape(out, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY,
              p->blockDimZ, p->sharedMemBytes);
        return 1;
    }
    default:
        return 0;
    }
}
#endif
