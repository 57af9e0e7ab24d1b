/* The runner's side of its boundary with the test program: runner_guard.h. */
#define _GNU_SOURCE
#include "runner_guard.h"

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

long runner_test_uid = -1;

int runner_guard_self(void)
{
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int runner_set_test_uid(const char *text)
{
    char *end;
    errno = 0;
    long uid = strtol(text, &end, 10);
    if (errno || *end || uid <= 0 || uid > 0x7ffffffe || (uid_t)uid == getuid())
        return 0;
    runner_test_uid = uid;
    return 1;
}

static int fail(char *why, size_t size, const char *step)
{
    snprintf(why, size, "could not run the test program as uid %ld: %s failed (%s)",
             runner_test_uid, step, strerror(errno));
    return -1;
}

int runner_become_test_uid(char *why, size_t size)
{
    if (runner_test_uid < 0)
        return 0;
    uid_t uid = (uid_t)runner_test_uid;
    if (setgroups(0, NULL) != 0)
        return fail(why, size, "setgroups");
    if (setresgid(uid, uid, uid) != 0)
        return fail(why, size, "setresgid");
    if (setresuid(uid, uid, uid) != 0)
        return fail(why, size, "setresuid");
    /* From one non-root uid to another the kernel keeps the capability sets:
     * clear the ambient ones (they would survive exec) and all the others. */
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
        return fail(why, size, "clearing the ambient capabilities");
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3];
    memset(none, 0, sizeof none);
    if (syscall(SYS_capset, &header, none) != 0)
        return fail(why, size, "dropping the capabilities");
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return fail(why, size, "no_new_privs");
    if (getuid() != uid || geteuid() != uid)
        return fail(why, size, "checking the new uid");
    return 0;
}
