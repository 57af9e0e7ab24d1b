#!/usr/bin/env python3
"""The Slurm path run for real (ctest batch.slurm): a single-node Slurm of
its own (munged, slurmctld and slurmd in the foreground, as this program's
children, every path in WORK), the repository's grader/batch/slurm scripts
submitted as they are, on part of the fixture corpus that batch.fixture_corpus
made and graded (its submissions, course cache and gradebook are reused).

1. a 2-task array of grade-array.sbatch, task 1 cancelled once it has begun:
   its shard has no completion marker, and merge refuses the set;
2. task 1 submitted again alone (sbatch --wait --array=1): it resumes, and
   merge.sbatch, a job that depends on it (afterok), merges the two shards;
3. the merged gradebook equals the one-machine run's rows, cell for cell.

Exit 77 (ctest: skipped, with the reason) where Slurm or munge is missing.

  check_slurm.py COURSE_ROOT CORPUS_WORK WORK"""
import csv
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_corpus  # noqa: E402

SUBSET = ["correct", "skeleton", "compile_error", "tarball"]
DAEMONS = ("munged", "slurmctld", "slurmd")
TOOLS = ("sbatch", "squeue", "scancel", "sinfo")
SKIP = 77


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def slurm_conf(work, host, cpus):
    """A minimal configuration: root runs everything, munge on its own
    socket, no accounting, free ports, every path in `work`."""
    return "\n".join([
        "ClusterName=cudalabs", f"SlurmctldHost={host}", "SlurmUser=root", "SlurmdUser=root",
        "AuthType=auth/munge", "CredType=cred/munge",
        f"AuthInfo=socket={work}/munge.socket",
        f"SlurmctldPort={free_port()}", f"SlurmdPort={free_port()}",
        f"StateSaveLocation={work}/state", f"SlurmdSpoolDir={work}/spool",
        f"SlurmctldPidFile={work}/slurmctld.pid", f"SlurmdPidFile={work}/slurmd.pid",
        f"SlurmctldLogFile={work}/slurmctld.log", f"SlurmdLogFile={work}/slurmd.log",
        "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
        "JobAcctGatherType=jobacct_gather/none", "AccountingStorageType=accounting_storage/none",
        "SchedulerType=sched/builtin", "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_CPU", "MpiDefault=none", "ReturnToService=2",
        # Defaults of 300 s and 30 s make sbatch --wait on a short job last 10 s.
        "MinJobAge=2", "KillWait=2", "InactiveLimit=0",
        f"NodeName={host} CPUs={cpus} State=UNKNOWN",
        f"PartitionName=grade Nodes={host} Default=YES MaxTime=INFINITE State=UP",
    ]) + "\n"


class Cluster:
    def __init__(self, work):
        self.work = work
        self.procs = []
        self.env = dict(os.environ, SLURM_CONF=os.path.join(work, "slurm.conf"))

    def start(self):
        work = self.work
        shutil.rmtree(work, ignore_errors=True)
        for d in ("state", "spool"):
            os.makedirs(os.path.join(work, d))
        os.chmod(work, 0o755)
        write(os.path.join(work, "munge.key"), os.urandom(1024).hex(), 0o400)
        host = socket.gethostname().split(".")[0]
        write(self.env["SLURM_CONF"], slurm_conf(work, host, os.cpu_count() or 2))
        self.spawn(["munged", "-F", "-f", f"--socket={work}/munge.socket",
                    f"--key-file={work}/munge.key", f"--pid-file={work}/munged.pid",
                    f"--log-file={work}/munged.log", f"--seed-file={work}/munged.seed"])
        self.wait_for(lambda: os.path.exists(f"{work}/munge.socket"), "munged's socket")
        self.spawn(["slurmctld", "-D", "-i", "-f", self.env["SLURM_CONF"]])
        self.spawn(["slurmd", "-D", "-f", self.env["SLURM_CONF"]])
        self.wait_for(lambda: "idle" in self.run(["sinfo", "-h", "-o", "%t"]).stdout,
                      "the node to be idle")

    def spawn(self, argv):
        log = open(os.path.join(self.work, os.path.basename(argv[0]) + ".out"), "w")
        self.procs.append(subprocess.Popen(argv, env=self.env, stdout=log,
                                           stderr=subprocess.STDOUT))

    def wait_for(self, ready, what, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in self.procs):
                break
            if ready():
                return
            time.sleep(0.1)
        logs = "".join(open(p).read()[-2000:] for p in glob.glob(f"{self.work}/*.log"))
        raise RuntimeError(f"waited in vain for {what}; the daemons' logs:\n{logs}")

    def run(self, argv, **kw):
        return subprocess.run(argv, env=self.env, capture_output=True, text=True, **kw)

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def rows(path, ids=None):
    with open(path, newline="") as f:
        return [r for r in csv.reader(f)
                if ids is None or r[0] in ("id", "points-possible") or r[0] in ids]


def main(course, corpus_work, work):
    missing = [t for t in DAEMONS + TOOLS if shutil.which(t) is None]
    if missing:
        print(f"skipped: no {', '.join(missing)} here (Debian: apt-get install slurmctld "
              "slurmd slurm-client munge)")
        return SKIP
    if os.geteuid() != 0:
        print("skipped: this single-node Slurm runs its daemons as root")
        return SKIP
    reference = os.path.join(corpus_work, "out", "gradebook.csv")
    if not os.path.exists(reference):
        print(f"FAIL: no {reference}: batch.fixture_corpus must run first")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    subs = os.path.join(work, "submissions")
    scripts = os.path.join(course, "grader", "batch", "slurm")
    started = time.monotonic()
    cluster = Cluster(os.path.join(work, "slurm"))
    try:
        cluster.start()
        print(f"Slurm up in {time.monotonic() - started:.1f} s")
        os.makedirs(subs)
        for sid in SUBSET:  # the corpus's own entries, as they were graded
            entry = [e for e in glob.glob(os.path.join(corpus_work, "submissions", sid + "*"))
                     if os.path.basename(e).split(".")[0] == sid][0]
            copy = os.path.join(subs, os.path.basename(entry))
            (shutil.copytree if os.path.isdir(entry) else shutil.copy2)(entry, copy)
        out = os.path.join(work, "class")
        cluster.env.update(CUDA_LABS_COURSE=course,
                           CUDA_LABS_COURSE_CACHE=os.path.join(corpus_work, "course"))
        array = [os.path.join(scripts, "grade-array.sbatch"), subs, out, "2", "--no-gpu",
                 "--test-timeout", "20"] + check_corpus.unprotected_flags()
        # What this one small node has, over the script's site lines.
        common = ["sbatch", "--parsable", "--gres=none", "--cpus-per-task=1", f"--chdir={work}",
                  f"--output={work}/task-%A_%a.log"]
        # 1. task 1 cancelled once it has begun
        job = cluster.run(common + ["--array=0-1"] + array, check=True).stdout.strip()
        cluster.wait_for(lambda: os.path.exists(os.path.join(out, "shard-1", "batch.json")),
                         "task 1 to begin", 120)
        cluster.run(["scancel", f"{job}_1"], check=True)
        cluster.wait_for(lambda: not cluster.run(["squeue", "-h", "-j", job]).stdout.strip(),
                         "the array to end", 120)
        merge = [sys.executable, os.path.join(course, "grader", "grade-submissions"), "merge",
                 os.path.join(out, "shard-0"), os.path.join(out, "shard-1"), "-o",
                 os.path.join(out, "class"), "--shards", "2", "--no-report"]
        refused = cluster.run(merge)
        if refused.returncode == 0 or "did not finish" not in refused.stderr + refused.stdout:
            print(f"FAIL: merge took a cancelled shard: {refused.stdout}{refused.stderr}")
            return 1
        print("merge refused the cancelled shard:", refused.stderr.strip().splitlines()[-1])
        # 2. task 1 again, then the merge job that depends on it
        again = cluster.run(common + ["--array=1"] + array, check=True).stdout.strip()
        merged = cluster.run(["sbatch", "--parsable", "--wait", f"--chdir={work}",
                              f"--dependency=afterok:{again}", f"--output={work}/merge-%j.log",
                              os.path.join(scripts, "merge.sbatch"), out, "2", "--no-report"])
        if merged.returncode != 0:
            logs = "".join(open(p).read()[-3000:] for p in glob.glob(f"{work}/*.log"))
            print(f"FAIL: the merge job failed ({merged.stderr.strip()}):\n{logs}")
            return 1
        # 3. cell for cell
        got = rows(os.path.join(out, "class", "gradebook.csv"))
        want = rows(reference, set(SUBSET))
        if got != want:
            print(f"FAIL: the merged gradebook differs from the one-machine run:\n{got}\n{want}")
            return 1
        print(f"PASS: Slurm graded {len(SUBSET)} students in two shards, a cancelled task "
              f"resumed, merged as on one machine ({time.monotonic() - started:.1f} s)")
        return 0
    finally:
        cluster.stop()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.rsplit("\n\n", 1)[-1])
    sys.exit(main(*[os.path.abspath(a) for a in sys.argv[1:]]))
