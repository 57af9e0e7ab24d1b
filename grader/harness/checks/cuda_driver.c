/* cuda_driver.h: one handle on libcuda for every lookup. */
#include "cuda_driver.h"

#include <dlfcn.h>
#include <pthread.h>

static void *driver;
static pthread_once_t opened = PTHREAD_ONCE_INIT;

static void open_driver(void)
{
    driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!driver)
        driver = dlopen("libcuda.so.1", RTLD_NOW);
}

void *cuda_driver_symbol(const char *name)
{
    pthread_once(&opened, open_driver);
    return driver ? dlsym(driver, name) : NULL;
}
