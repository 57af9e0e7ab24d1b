/* The batch's GPU probe (gpus.py): run in a worker's sandbox, as its graders
 * run, it says what CUDA sees there. It loads the driver library itself, so
 * it builds with any C compiler and needs no CUDA toolkit.
 *
 * Prints "cuInit: <code>", then "devices: <n>" and, for each device,
 * "device <i>: <name> (GPU-<uuid>)"; exits 0 when cuInit succeeded, 1 when
 * it did not (code and name printed), 2 when there is no driver library. */
#include <dlfcn.h>
#include <stdio.h>

typedef int (*init_fn)(unsigned);
typedef int (*count_fn)(int *);
typedef int (*get_fn)(int *, int);
typedef int (*name_fn)(char *, int, int);
typedef int (*uuid_fn)(unsigned char *, int);
typedef int (*error_name_fn)(int, const char **);

int main(void)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cuda) {
        printf("no CUDA driver library: %s\n", dlerror());
        return 2;
    }
    init_fn cu_init = (init_fn)dlsym(cuda, "cuInit");
    count_fn cu_count = (count_fn)dlsym(cuda, "cuDeviceGetCount");
    get_fn cu_get = (get_fn)dlsym(cuda, "cuDeviceGet");
    name_fn cu_name = (name_fn)dlsym(cuda, "cuDeviceGetName");
    /* The _v2 UUID is the physical GPU's (the plain one differs under MIG). */
    uuid_fn cu_uuid = (uuid_fn)dlsym(cuda, "cuDeviceGetUuid_v2");
    if (!cu_uuid)
        cu_uuid = (uuid_fn)dlsym(cuda, "cuDeviceGetUuid");
    error_name_fn cu_error_name = (error_name_fn)dlsym(cuda, "cuGetErrorName");
    if (!cu_init || !cu_count || !cu_get || !cu_name || !cu_uuid) {
        printf("the CUDA driver library lacks a function the probe needs\n");
        return 2;
    }
    int rc = cu_init(0);
    const char *error = "?";
    if (rc && cu_error_name)
        cu_error_name(rc, &error);
    printf("cuInit: %d%s%s\n", rc, rc ? " " : "", rc ? error : "");
    if (rc)
        return 1;
    int count = 0;
    if (cu_count(&count)) {
        printf("cuDeviceGetCount failed\n");
        return 1;
    }
    printf("devices: %d\n", count);
    for (int i = 0; i < count; i++) {
        int device;
        char name[256] = "";
        unsigned char id[16];
        if (cu_get(&device, i) || cu_name(name, sizeof name, device) || cu_uuid(id, device)) {
            printf("device %d: cannot be queried\n", i);
            return 1;
        }
        printf("device %d: %s (GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
               "%02x%02x%02x%02x%02x%02x)\n", i, name, id[0], id[1], id[2], id[3], id[4],
               id[5], id[6], id[7], id[8], id[9], id[10], id[11], id[12], id[13], id[14], id[15]);
    }
    return 0;
}
