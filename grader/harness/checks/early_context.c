/* early_context.h: asks the driver, without starting it, whether a context
 * exists. */
#include "early_context.h"

#include <dlfcn.h>
#include <stdio.h>

/* The driver's own types, as plain C: this file needs no CUDA header and
 * links no CUDA library (a CPU-only build has neither). */
typedef int (*ctx_get_current_fn)(void **);
typedef int (*device_get_count_fn)(int *);
typedef int (*device_get_fn)(int *, int);
typedef int (*primary_state_fn)(int, unsigned *, int *);

int early_context_found(char *why, size_t size)
{
    /* RTLD_NOLOAD: if nothing loaded the driver yet, nothing used the GPU,
     * and loading it here would only cost the test its start-up time. */
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!driver)
        return 0;
    ctx_get_current_fn get_current = (ctx_get_current_fn)dlsym(driver, "cuCtxGetCurrent");
    device_get_count_fn get_count = (device_get_count_fn)dlsym(driver, "cuDeviceGetCount");
    device_get_fn get_device = (device_get_fn)dlsym(driver, "cuDeviceGet");
    primary_state_fn primary_state =
        (primary_state_fn)dlsym(driver, "cuDevicePrimaryCtxGetState");
    int found = 0;
    void *current = NULL;
    /* Each call fails (CUDA_ERROR_NOT_INITIALIZED) until cuInit ran: then
     * nothing is found, rightly. */
    if (get_current && get_current(&current) == 0 && current) {
        snprintf(why, size, "a CUDA context was current on the main thread");
        found = 1;
    }
    int devices = 0;
    if (!found && get_count && get_device && primary_state && get_count(&devices) == 0) {
        for (int i = 0; i < devices && !found; ++i) {
            int device, active = 0;
            unsigned flags;
            if (get_device(&device, i) == 0 && primary_state(device, &flags, &active) == 0 &&
                active) {
                snprintf(why, size, "device %d's primary CUDA context was already active", i);
                found = 1;
            }
        }
    }
    dlclose(driver);
    return found;
}
