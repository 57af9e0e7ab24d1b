/* GRADER_SM_COUNT: a green context of N SMs for the test (sm_limit.h).
 *
 * The driver is reached through dlopen, not linked: a test program that
 * needed libcuda.so.1 would not even start on a machine without the driver
 * (CI), where its CPU checks must run. */
#include "sm_limit.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int granted;

int sm_limit_granted(void) { return granted; }

int sm_limit_requested(void)
{
    const char *text = getenv("GRADER_SM_COUNT");
    return text && *text;
}

void sm_limit_describe(char *line, size_t size, int sms)
{
    if (sms <= 0 || size == 0)
        return;
    char *arch = strstr(line, ", sm_");
    char *count = arch ? strchr(arch + 2, ',') : NULL;
    int all = 0, used = 0;
    if (!count || sscanf(count, ", %d SMs%n", &all, &used) != 1 || used <= 0) {
        size_t len = strlen(line);
        snprintf(line + len, size - len, ", a green context of %d SMs (GRADER_SM_COUNT)",
                 sms);
        return;
    }
    char rest[512];
    snprintf(rest, sizeof rest, "%s", count + used);
    size_t head = (size_t)(count - line);
    snprintf(line + head, size - head, ", %d SMs%s, a green context of %d of the GPU's %d SMs "
             "(GRADER_SM_COUNT)", sms, rest, sms, all);
}

#if CUDA_VERSION < 12040
/* Green contexts came with CUDA 12.4: with older headers the course still
 * builds, and only this instructor's tool says it cannot run. */
int sm_limit_apply(char *message, size_t size)
{
    if (!sm_limit_requested())
        return 0;
    snprintf(message, size, "GRADER_SM_COUNT needs green contexts, which this build's CUDA "
             "headers (%d) do not have (12.4 or newer)", CUDA_VERSION);
    return -1;
}
#else

typedef struct {
    CUresult (*init)(unsigned int);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*get_resource)(CUdevice, CUdevResource *, CUdevResourceType);
    CUresult (*split_by_count)(CUdevResource *, unsigned int *, const CUdevResource *,
                               CUdevResource *, unsigned int, unsigned int);
    CUresult (*generate_desc)(CUdevResourceDesc *, CUdevResource *, unsigned int);
    CUresult (*green_create)(CUgreenCtx *, CUdevResourceDesc, CUdevice, unsigned int);
    CUresult (*from_green)(CUcontext *, CUgreenCtx);
    CUresult (*set_current)(CUcontext);
} driver_calls;

/* 1 when loaded, 0 when there is no driver (no GPU here: the GPU tests
 * skip as they would without GRADER_SM_COUNT), -1 when it is too old. */
static int load(driver_calls *d, char *message, size_t size)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    const struct {
        void **slot;
        const char *name;
    } wanted[] = {
        {(void **)&d->init, "cuInit"},
        {(void **)&d->device_get, "cuDeviceGet"},
        {(void **)&d->get_resource, "cuDeviceGetDevResource"},
        {(void **)&d->split_by_count, "cuDevSmResourceSplitByCount"},
        {(void **)&d->generate_desc, "cuDevResourceGenerateDesc"},
        {(void **)&d->green_create, "cuGreenCtxCreate"},
        {(void **)&d->from_green, "cuCtxFromGreenCtx"},
        {(void **)&d->set_current, "cuCtxSetCurrent"},
    };
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; ++i)
        if (!(*wanted[i].slot = dlsym(lib, wanted[i].name))) {
            snprintf(message, size, "the CUDA driver has no %s (green contexts need a driver "
                     "for CUDA 12.4 or later)", wanted[i].name);
            return -1;
        }
    return 1;
}

static int failed(char *message, size_t size, long wanted, const char *step, CUresult rc)
{
    snprintf(message, size, "GRADER_SM_COUNT=%ld: %s failed (CUresult %d)", wanted, step,
             (int)rc);
    return -1;
}

int sm_limit_apply(char *message, size_t size)
{
    if (!sm_limit_requested())
        return 0;
    const char *text = getenv("GRADER_SM_COUNT");
    char *end;
    long wanted = strtol(text, &end, 10);
    if (*end || wanted < 1 || wanted > 100000) {
        snprintf(message, size, "GRADER_SM_COUNT=%s is not a number of SMs", text);
        return -1;
    }
    driver_calls d;
    int loaded = load(&d, message, size);
    if (loaded <= 0)
        return loaded;
    CUdevice dev;
    if (d.init(0) != CUDA_SUCCESS || d.device_get(&dev, 0) != CUDA_SUCCESS)
        return 0; /* no device: the GPU tests skip, as without the variable */
    CUdevResource all, part, rest;
    CUresult rc = d.get_resource(dev, &all, CU_DEV_RESOURCE_TYPE_SM);
    if (rc != CUDA_SUCCESS)
        return failed(message, size, wanted, "cuDeviceGetDevResource", rc);
    part = all; /* as many as the GPU has, or more: all of them */
    if ((unsigned)wanted < all.sm.smCount) {
        unsigned int groups = 1;
        rc = d.split_by_count(&part, &groups, &all, &rest, 0, (unsigned)wanted);
        if (rc != CUDA_SUCCESS)
            return failed(message, size, wanted, "cuDevSmResourceSplitByCount", rc);
        if (groups < 1) {
            snprintf(message, size, "GRADER_SM_COUNT=%ld: the GPU's %u SMs cannot give a "
                     "group of that many", wanted, all.sm.smCount);
            return -1;
        }
    }
    CUdevResourceDesc desc;
    CUgreenCtx green;
    CUcontext context;
    if ((rc = d.generate_desc(&desc, &part, 1)) != CUDA_SUCCESS)
        return failed(message, size, wanted, "cuDevResourceGenerateDesc", rc);
    if ((rc = d.green_create(&green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM)) != CUDA_SUCCESS)
        return failed(message, size, wanted, "cuGreenCtxCreate", rc);
    if ((rc = d.from_green(&context, green)) != CUDA_SUCCESS)
        return failed(message, size, wanted, "cuCtxFromGreenCtx", rc);
    if ((rc = d.set_current(context)) != CUDA_SUCCESS)
        return failed(message, size, wanted, "cuCtxSetCurrent", rc);
    granted = (int)part.sm.smCount;
    return granted;
}
#endif
