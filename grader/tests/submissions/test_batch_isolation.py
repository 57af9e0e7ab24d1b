#!/usr/bin/env python3
"""What keeps one student's graders from another's and from the instructor
(batch/uids.py, keyrings.py, sandbox.py): the uid pool, neighbours under a
fork flood, the keyring filter, the clean build environment, and a batch
that refuses to grade unprotected unless told to. The tests that switch
users need root and bubblewrap; elsewhere they say so and skip."""
import ctypes
import os
import subprocess
import sys
import tempfile
import time
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from batch import batch, build, cgroups, keyrings, outputs, records, runner, sandbox, score  # noqa: E402,E501
from batch import tasks, uids  # noqa: E402

PYTHON = "/usr/bin/python3"   # the sandbox shows only the system folders
TEST_BASE = 2_100_000_000     # not the default pool: a batch may run beside the tests


def pool_sandbox(test):
    """A sandbox that runs commands as pool uids, or the test is skipped."""
    try:
        box = sandbox.probe(True)
        sandbox.enable_pool(box, TEST_BASE - 1)
    except sandbox.SandboxError as e:
        test.skipTest(f"no sandbox with a uid pool here: {e}")
    if not os.access(PYTHON, os.X_OK):
        test.skipTest(f"no {PYTHON} to run in the sandbox")
    return box


class PoolTest(unittest.TestCase):
    def test_every_lab_of_every_slot_has_its_own_pair(self):
        pool = uids.UidPool(TEST_BASE, 3, 7)
        pairs = [pool.pair(s, l) for s in range(3) for l in range(7)]
        flat = [u for p in pairs for u in p] + [pool.probe_uid]
        self.assertEqual(len(set(flat)), len(flat))
        self.assertEqual(set(flat), set(pool.all_uids()))
        self.assertEqual(pool.slot_uids(1), {u for l in range(7) for u in pool.pair(1, l)})

    def test_two_batches_on_one_machine_get_two_pools(self):
        with tempfile.TemporaryDirectory() as d:
            first = uids.claim(TEST_BASE, 2, 7, lock_dir=d, folders=())
            second = uids.claim(TEST_BASE, 2, 7, lock_dir=d, folders=())
            self.assertEqual(second.base, first.base + uids.BLOCK)
            first.lock.close()
            third = uids.claim(TEST_BASE, 2, 7, lock_dir=d, folders=())
            self.assertEqual(third.base, TEST_BASE)
            second.lock.close()
            third.lock.close()

    def test_a_pool_in_use_is_not_taken(self):
        if os.geteuid() != 0:
            self.skipTest("chown to a pool uid needs root")
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as locks:
            left = os.path.join(d, "left-over")
            open(left, "w").close()
            os.chown(left, TEST_BASE + 3, TEST_BASE + 3)
            with self.assertRaises(uids.PoolError):
                uids.UidPool(TEST_BASE, 2, 7).check_unused([d])
            pool = uids.claim(TEST_BASE, 2, 7, lock_dir=locks, folders=[d])
            self.assertEqual(pool.base, TEST_BASE + uids.BLOCK)
            pool.lock.close()

    def test_what_a_slot_left_running_is_killed(self):
        if os.geteuid() != 0 or not os.access("/usr/bin/setpriv", os.X_OK):
            self.skipTest("running as a pool uid needs root and setpriv")
        pool = uids.UidPool(TEST_BASE, 2, 1)
        uid = pool.pair(1, 0)[1]
        # Escaped from everything but its uid: its own session, parent gone.
        subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                        PYTHON, "-c", "import os,time\nif os.fork(): os._exit(0)\n"
                        "os.setsid(); time.sleep(60)"], check=True, timeout=30)
        time.sleep(0.2)
        self.assertTrue(uids.processes_of(pool.slot_uids(1)))
        self.assertFalse(uids.processes_of(pool.slot_uids(0)))
        self.assertTrue(pool.clean(1))
        self.assertFalse(uids.processes_of(pool.slot_uids(1)))


# Forks children that sleep until it has `n` of them (or no fork is
# allowed), writes how many it started to `out`, then waits.
FORKS = """
import os, sys, time
n, out = int(sys.argv[1]), sys.argv[2]
go = sys.argv[3] if len(sys.argv) > 3 else None
while go and not os.path.exists(go):
    time.sleep(0.05)
started = 0
for _ in range(n):
    try:
        if os.fork() == 0:
            time.sleep(20)
            os._exit(0)
        started += 1
    except OSError:
        break
open(out, "w").write(str(started))
time.sleep(3)
"""


class NeighboursTest(unittest.TestCase):
    """One lab floods its process limit while a neighbour's lab is running:
    the neighbour still starts every process it asks for. With one uid for
    both (as before the pool) it does not, which shows the test can fail."""
    def run_pair(self, flood_uid, honest_uid):
        box = pool_sandbox(self)
        with tempfile.TemporaryDirectory() as d:
            os.chmod(d, 0o777)
            go = os.path.join(d, "go")
            honest = subprocess.Popen(
                box.wrap([PYTHON, "-c", FORKS, "100", os.path.join(d, "honest"), go], d, [],
                         uid=honest_uid),
                preexec_fn=runner._limits(0, 0, tasks.process_limit(honest_uid, 150), 0,
                                          box.confinement))
            time.sleep(0.5)
            flood = subprocess.Popen(
                box.wrap([PYTHON, "-c", FORKS, "100000", os.path.join(d, "flood")], d, [],
                         uid=flood_uid),
                preexec_fn=runner._limits(0, 0, tasks.process_limit(flood_uid, 300), 0,
                                          box.confinement))
            deadline = time.monotonic() + 30
            while not os.path.exists(os.path.join(d, "flood")) and time.monotonic() < deadline:
                time.sleep(0.05)
            open(go, "w").close()
            honest.wait(timeout=60)
            flood.wait(timeout=60)
            uids.kill_uids({flood_uid, honest_uid})
            with open(os.path.join(d, "honest")) as f:
                return int(f.read())

    def test_a_fork_flood_costs_its_neighbour_nothing(self):
        pool = uids.UidPool(TEST_BASE, 2, 1)
        self.assertEqual(self.run_pair(pool.pair(0, 0)[0], pool.pair(1, 0)[0]), 100)

    def test_one_shared_uid_would_let_it(self):
        uid = uids.UidPool(TEST_BASE, 2, 1).pair(0, 0)[0]
        self.assertLess(self.run_pair(uid, uid), 100)


class KeyringTest(unittest.TestCase):
    """A key in the batch's session keyring is out of reach of what the
    batch runs under the confinement; without it, the same child reads it."""
    def test_the_instructors_key_cannot_be_read(self):
        libc = ctypes.CDLL(None, use_errno=True)
        try:
            confinement = keyrings.Confinement()
        except keyrings.Unsupported as e:
            self.skipTest(str(e))
        nr_add_key, nr_keyctl = keyrings.ARCHES[os.uname().machine][2][0], confinement.keyctl_nr
        payload = b"instructor-secret-42"
        key = libc.syscall(nr_add_key, b"user", b"cuda-labs-test", payload, len(payload), -3)
        if key < 0:
            self.skipTest(f"no session keyring to put a key in (errno {ctypes.get_errno()})")
        reader = ("import ctypes,sys;l=ctypes.CDLL(None,use_errno=True);b=ctypes.create_string_"
                  f"buffer(64);n=l.syscall({nr_keyctl},11,{key},b,64);"
                  "print(b.raw[:n].decode() if n>0 else 'errno %d' % ctypes.get_errno())")
        try:
            with tempfile.TemporaryDirectory() as d:
                log = os.path.join(d, "open")
                runner.run([sys.executable, "-c", reader], log, timeout=30)
                self.assertIn("instructor-secret-42", open(log).read())  # the test can fail
                log = os.path.join(d, "confined")
                runner.run([sys.executable, "-c", reader], log, timeout=30, confine=confinement)
                self.assertEqual(open(log).read().strip(), "errno 1")
        finally:
            libc.syscall(nr_keyctl, 3, key)  # KEYCTL_REVOKE

    def test_the_filter_is_on_in_the_sandbox(self):
        box = pool_sandbox(self)
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "log")
            runner.run(box.wrap(["grep", "Seccomp:", "/proc/self/status"], d, [],
                                uid=TEST_BASE + 9), log, timeout=30, confine=box.confinement)
            self.assertIn("2", open(log).read())


class BuildEnvironmentTest(unittest.TestCase):
    def test_a_build_step_sees_only_the_graders_environment(self):
        os.environ["INSTRUCTOR_TOKEN"] = "do-not-pass"
        try:
            with tempfile.TemporaryDirectory() as d:
                limits = build.Limits(0, 0, 0, None, {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}, 0)
                log = os.path.join(d, "log")
                build._run_step(sandbox.Sandbox(False), ["/usr/bin/env"], d, [], d, log, 30,
                                limits)
                seen = open(log).read()
        finally:
            del os.environ["INSTRUCTOR_TOKEN"]
        self.assertNotIn("do-not-pass", seen)
        self.assertIn("PATH=/usr/bin:/usr/bin:/bin", seen)  # the tool's folder first


# Three children that each touch `mib` MiB and wait: together 3x.
THREE_CHILDREN = """
import os, sys, time
mib = int(sys.argv[1])
for _ in range(3):
    if os.fork() == 0:
        block = bytearray(mib << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(4)
        os._exit(0)
for _ in range(3):
    os.wait()
print("all done")
"""


class TreeMemoryTest(unittest.TestCase):
    """The lab's processes are held to the memory limit together, where
    RLIMIT_DATA let three children of 900 MiB each run under 1 GiB."""
    def run_children(self, mib, limit):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "log")
            res = runner.run([sys.executable, "-c", THREE_CHILDREN, str(mib)], log, timeout=60,
                             reap=True, memory_bytes=limit, tree_memory=limit)
            with open(log) as f:
                return res, f.read()

    def test_three_children_over_the_limit_together_are_stopped(self):
        res, log = self.run_children(200, 400 << 20)
        self.assertTrue(res.over_memory, log)
        self.assertIn("over its limit of 400 MiB", log)
        self.assertNotIn("all done", log)

    def test_under_the_limit_they_finish(self):
        res, log = self.run_children(50, 400 << 20)
        self.assertFalse(res.over_memory, log)
        self.assertIn("all done", log)


class BuildFolderTest(unittest.TestCase):
    def test_a_step_that_fills_the_folder_fails(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "obj"))
            limits = build.Limits(0, 0, 0, None, {"PATH": "/usr/bin:/bin"}, 1 << 20)
            log = os.path.join(d, "log")
            res = build._run_step(sandbox.Sandbox(False), [
                "/usr/bin/truncate", "-s", "3M", os.path.join(d, "obj", "big.o")], d, [], d,
                log, 30, limits)
            self.assertEqual(res.rc, build.FOLDER_FULL)
            self.assertFalse(os.path.exists(os.path.join(d, "obj", "big.o")))
            res = build._run_step(sandbox.Sandbox(False), [
                "/usr/bin/truncate", "-s", "300K", os.path.join(d, "obj", "small.o")], d, [], d,
                log, 30, limits)
            self.assertEqual(res.rc, 0)


def fake_cgroup_tree(root, own="/", controllers="cpuset cpu io memory pids"):
    """A cgroup v2 tree as files (the CI machine has cgroup v1 only), and
    /proc/self/cgroup saying the batch is in `own`."""
    os.makedirs(os.path.join(root, own.lstrip("/")), exist_ok=True)
    with open(os.path.join(root, "cgroup.controllers"), "w") as f:
        f.write(controllers + "\n")
    self_cgroup = os.path.join(root, "self_cgroup")
    with open(self_cgroup, "w") as f:
        f.write(f"0::{own}\n")
    return self_cgroup


class CgroupTest(unittest.TestCase):
    def read(self, *path):
        with open(os.path.join(*path)) as f:
            return f.read()

    def test_a_group_per_lab_with_its_limits(self):
        with tempfile.TemporaryDirectory() as root:
            groups = cgroups.LabGroups.make(root=root, self_cgroup=fake_cgroup_tree(root), pid=42)
            self.assertEqual(groups.top, os.path.join(root, "cuda-labs-42"))
            for folder in (root, groups.top):
                self.assertEqual(self.read(folder, "cgroup.subtree_control"), "+memory +pids")
            lab = groups.new(1 << 30, 2304)
            self.assertEqual(self.read(lab, "memory.max"), str(1 << 30))
            self.assertEqual(self.read(lab, "memory.swap.max"), "0")
            self.assertEqual(self.read(lab, "pids.max"), "2304")
            self.assertNotEqual(groups.new(1, 1), lab)  # every run its own

    def test_a_batch_inside_its_group_moves_into_a_leaf_first(self):
        with tempfile.TemporaryDirectory() as root:
            self_cgroup = fake_cgroup_tree(root, own="/job.scope")
            real, calls = cgroups._write, []

            def write(path, text):  # the kernel's EBUSY while job.scope holds the batch
                if path.endswith("job.scope/cgroup.subtree_control") and not calls:
                    calls.append(path)
                    raise OSError(16, "Device or resource busy")
                real(path, text)
            cgroups._write = write
            try:
                groups = cgroups.LabGroups.make(root=root, self_cgroup=self_cgroup, pid=42)
            finally:
                cgroups._write = real
            self.assertEqual(self.read(groups.top, "batch", "cgroup.procs"), "42")
            for folder in (root, os.path.join(root, "job.scope")):  # passed down from the root
                self.assertEqual(self.read(folder, "cgroup.subtree_control"), "+memory +pids")

    def test_no_v2_or_no_controller_is_said(self):
        with tempfile.TemporaryDirectory() as root:
            v1 = os.path.join(root, "v1")
            with open(v1, "w") as f:
                f.write("4:memory:/x\n1:cpu:/\n")
            with self.assertRaises(cgroups.Unusable):
                cgroups.LabGroups.make(root=root, self_cgroup=v1)
            with self.assertRaises(cgroups.Unusable):
                cgroups.LabGroups.make(root=root, self_cgroup=fake_cgroup_tree(
                    root, controllers="cpu io"))

    def test_a_run_joins_its_group_and_an_oom_kill_is_reported(self):
        with tempfile.TemporaryDirectory() as root:
            lab = cgroups.LabGroups.make(root=root, self_cgroup=fake_cgroup_tree(root),
                                         pid=7).new(1 << 30, 100)
            with open(os.path.join(lab, "memory.events"), "w") as f:
                f.write("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
            log = os.path.join(root, "log")
            res = runner.run(["true"], log, timeout=30, cgroup=lab)
            self.assertEqual(self.read(lab, "cgroup.procs"), "0")  # the child wrote itself in
            self.assertTrue(res.over_memory)
            self.assertIn("memory limit", self.read(log))


class FailsClosedTest(unittest.TestCase):
    def fake(self, **args):
        b = batch.Batch.__new__(batch.Batch)
        b.args = types.SimpleNamespace(no_sandbox=False, allow_root_graders=False,
                                       uid_base=TEST_BASE, max_processes=0)
        b.args.__dict__.update(args)
        b.jobs, b.labs, b.gpus, b.pool = 2, ["lab1"], [], None
        return b

    def test_no_bubblewrap_no_grading(self):
        real = sandbox.shutil.which
        sandbox.shutil.which = lambda name: None
        try:
            with self.assertRaises(SystemExit) as stop:
                self.fake().set_up_isolation()
        finally:
            sandbox.shutil.which = real
        self.assertIn("--no-sandbox", str(stop.exception))

    def test_no_pool_no_grading_unless_allowed(self):
        with self.assertRaises(SystemExit) as stop:
            self.fake(no_sandbox=True).set_up_isolation()
        self.assertIn("--allow-root-graders", str(stop.exception))
        b = self.fake(no_sandbox=True, allow_root_graders=True)
        b.set_up_isolation()
        self.assertIn(b.graders_as, ("root", "batch user"))

    def test_the_gradebook_says_how_it_was_graded(self):
        lab = score.score_lab("lab1", {"title": "t", "tests": []}, {}, state="graded")
        rec = records.StudentRecord(id="s", state="graded", labs={"lab1": lab}, sandbox=False,
                                    graders="root")
        self.assertEqual(outputs.status_text(rec, ["lab1"]), "unsandboxed; graders as root")
        rec = records.StudentRecord(id="s", state="graded", labs={"lab1": lab}, sandbox=True,
                                    graders="pool")
        self.assertEqual(outputs.status_text(rec, ["lab1"]), "ok")


if __name__ == "__main__":
    unittest.main(verbosity=1)
