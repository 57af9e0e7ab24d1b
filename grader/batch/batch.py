"""One batch: prepare the course once, then for every submission unpack,
stage, build and grade each lab, write the student's files, and finally
regenerate the class outputs from what is on disk.

Builds run on up to --jobs CPU workers; then the student takes a GPU slot
(gpus.py; a CPU slot with --no-gpu), one student per GPU, whose worker
proved with a probe, run as its graders run, that CUDA sees exactly its
GPU. The student's lab graders share it through two lock files
(GRADER_GPU_SHARE, gpu_share.h): correctness tests side by side, every
measurement alone, a test that failed while sharing run again alone
(--labs-in-turn: one lab after another).

Every file is written atomically; labN/lab.json, written last, marks a lab
done, and student.json is composed from every lab.json on disk, so runs
with --labs, --only and --force add to a record, and a killed batch run
again redoes only the unfinished labs.

Nothing the student's code could have written is read by path: the grader
writes its results to a descriptor the batch opened (--results-fd), its
output comes back through a pipe into OUT (run.log, capped), and the points
are the batch's own (score.py). Anything that goes wrong for one student
becomes that student's row; only a broken course (an infrastructure
failure: build.InfraError) stops the batch."""
import concurrent.futures as cf
import dataclasses
import fcntl
import hashlib
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass
from typing import List, Optional

from . import build, cgroups, course as course_mod, feedback, gradescope, outputs, report
from . import review, runner, weights as weights_mod
from . import gpus as gpus_mod, sandbox as sandbox_mod, score, slots, submissions, tasks, uids
from .calibrated_curves import CalibratedCurves, CalibrationUnusable
from .labs import Lab
from .progress import Progress
from .records import BatchRecord, LabInfo, LabRecord, ReviewFlag, RunInfo, StudentRecord
from .outputs import student_dir
from .util import nfc, read_json, read_text, say, say_once, write_atomic, write_json_atomic

REPO = course_mod.REPO
BUILD_ERRORS_KEEP = 8000
COMPILE_MEMORY_BYTES = 8 << 30   # a recursive-include compile reached 9.3 GB in a minute
SCRATCH_BYTES = 1 << 30          # a sandboxed command's /tmp (sandbox.wrap: where bwrap can cap it)
# A lab's built files: the largest lab's come to under 5 MiB; 512 MiB leaves
# room for any honest code and bounds the disk many students at once can fill.
BUILD_FOLDER_BYTES = 512 << 20


@dataclass
class BuiltLab:
    """A lab whose grader built and waits for its run."""
    lab: Lab
    exe: str                  # the test program linked with the student's code
    work: str                 # its scratch folder
    lab_out: str              # OUT/students/<id>/labN
    start: float              # time.monotonic() when its build began
    symbol_findings: List[str]
    uid: Optional[int] = None  # the pool uid its build ran as and its grader runs as
    test_uid: Optional[int] = None  # the pool uid of its test programs (runner_guard.h)
    files_hash: Optional[str] = None  # lab_files_hash of what it graded


def chown_tree(top, uid):
    for folder, dirs, files in os.walk(top):
        os.chown(folder, uid, uid)
        for name in files:
            os.chown(os.path.join(folder, name), uid, uid, follow_symlinks=False)


class Batch:
    labs_info = None  # the labs of this run with their weights, from prepare()

    def __init__(self, args):
        self.args = args
        self.out = os.path.abspath(args.out)
        self.jobs = args.jobs or os.cpu_count() or 2
        self.build_slots = threading.Semaphore(self.jobs)
        try:
            # --no-gpu grades without a GPU on purpose, whatever is here.
            self.gpus = [] if args.no_gpu else gpus_mod.machine_gpus()
        except gpus_mod.GpuSetupError as e:
            raise SystemExit(f"grade-submissions: stopped before grading: {e}")
        if not self.gpus and not args.no_gpu:
            raise SystemExit("grade-submissions: no GPU here: every GPU test would be recorded "
                             "\"not graded: no GPU\" and the gradebook would miss those points. "
                             "Grade on a GPU machine, or give --no-gpu to grade only what the "
                             "CPU can.")
        self.run_slots = queue.Queue()
        for g in (self.gpus or [None] * self.jobs):
            self.run_slots.put(g)
        self.pid = os.getpid()
        # A student being graded holds a slot; each of its labs has the
        # slot's pair of pool uids for that lab (uids.py).
        self.student_slots = queue.Queue()
        for slot in range(self.jobs):
            self.student_slots.put(slot)
        self.pool = None
        self.test_slots = slots.TestSlots(args.tests_at_once)

    # ------------------------------------------------------------ set-up
    def prepare(self):
        os.makedirs(self.out, exist_ok=True)
        self.lock = open(os.path.join(self.out, ".lock"), "w")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SystemExit(f"grade-submissions: another batch is writing {self.out}")
        _unlink(outputs.complete_path(self.out))  # a run in progress: complete when it ends
        arch = self.args.cuda_arch or course_mod.detect_arch() or "80"
        self.course = course_mod.prepare(self.args.course or REPO, self.args.course_cache or os.path.join(self.out, ".course"),
                                         arch, self.jobs)
        self.calibrated = CalibratedCurves(self.course.src)
        try:
            outdated = self.calibrated.outdated(self.course.curves)
        except (CalibrationUnusable, OSError, ValueError, KeyError) as e:
            raise SystemExit(f"grade-submissions: the course's calibration files cannot be "
                             f"used ({e}); fix or remove the file (make calibrate writes "
                             f"it) before grading")
        for line in outdated:  # the test table's default grades there, said once
            say(line)
        self.labs = [l for l in self.course.labs
                     if not self.args.labs or l.number in self.args.labs]
        self.labs_info = [LabInfo(name=l.name, title=self.course.rubrics[l.name]["title"],
                                  possible=score.possible_points(self.course.rubrics[l.name]),
                                  bonus_possible=sum(t["points"] for t in score.graded_tests(
                                      self.course.rubrics[l.name]) if t["bonus"]))
                          for l in self.labs]
        course_file = self.args.weights or weights_mod.default_file(self.args.course or REPO)
        try:
            self.labs_info = weights_mod.with_weights(
                self.labs_info, weights_mod.load(course_file, [i.name for i in self.labs_info]))
        except weights_mod.WeightsError as e:
            raise SystemExit(f"grade-submissions: stopped before grading: {e}")
        if course_file:
            say(f"totals: {weights_mod.statement(self.labs_info)} ({course_file})")
        write_json_atomic(outputs.labs_info_path(self.out), [i.to_json() for i in self.labs_info])
        self.set_up_isolation()
        if not self.gpus:
            say_once("gpu", f"--no-gpu: GPU tests are recorded as \"{score.NO_GPU}\" (0 "
                            "points, never passed) and grading_status says \"partial: no GPU\"")
        # The symbol check's nm of the course's libraries, while the first
        # submissions unpack and compile: once per batch, not per student.
        threading.Thread(target=build.warm_symbol_cache,
                         args=([self.course.recipes[l.name] for l in self.labs],),
                         daemon=True).start()
        work = os.path.join(self.out, ".work")
        if os.path.isdir(work):
            shutil.rmtree(work, ignore_errors=True)  # scratch of a killed batch
        # Students' files and logs pass through .work: the batch's alone (the
        # sandbox binds a grader's own folders, never this one); private/
        # holds the graders' results channels, which only the batch can open.
        self.private = os.path.join(work, "private")
        for folder in (work, self.private):
            os.makedirs(folder, mode=0o700, exist_ok=True)
            os.chmod(folder, 0o700)
        self.prove_workers(work)

    def set_up_isolation(self):
        """The sandbox and the uid pool, or the batch stops: never unsandboxed
        or as root unless told to (--no-sandbox, --allow-root-graders), and
        then every record's grading_status says so."""
        try:
            self.sandbox = sandbox_mod.probe(not self.args.no_sandbox)
        except sandbox_mod.SandboxError as e:
            raise SystemExit(f"grade-submissions: no sandbox: {e}. Grading without one lets "
                             "student code read and write what the batch's user can: give "
                             "--no-sandbox to do it anyway.")
        user = "root" if os.geteuid() == 0 else "the batch's user"
        try:
            nodes = sorted({n for g in self.gpus for n in gpus_mod.device_nodes(g)})
            sandbox_mod.check_pool_possible(self.sandbox)  # before a pool is claimed
            pool = uids.claim(self.args.uid_base, self.jobs, len(self.labs))
            try:
                sandbox_mod.enable_pool(self.sandbox, pool.probe_uid, nodes)
            except sandbox_mod.SandboxError:
                pool.lock.close()  # another batch may take this pool
                raise
            self.pool = pool
            say(f"graders' uids: {self.pool.base}..{self.pool.probe_uid} (two per lab of each of "
                f"{self.jobs} students at once)")
        except gpus_mod.GpuSetupError as e:
            raise SystemExit(f"grade-submissions: stopped before grading: {e}")
        except (sandbox_mod.SandboxError, uids.PoolError) as e:
            if not self.args.allow_root_graders:
                raise SystemExit(f"grade-submissions: the graders' uid pool cannot be used: {e}. "
                                 f"Without it every grader runs as {user}, and one student's "
                                 "processes count against the others' limit: give "
                                 "--allow-root-graders to do it anyway.")
            say_once("pool", f"graders run as {user} (--allow-root-graders): {e}")
        self.graders_as = "pool" if self.pool else "root" if os.geteuid() == 0 else "batch user"
        if self.args.max_processes and self.graders_as == "root":
            say_once("nproc", "graders run as root: no limit on the processes they start "
                              "(a fork bomb is stopped only by the time limit)")
        # The kernel's limits on each lab's processes together, where the
        # machine lets the batch make cgroup v2 groups (reaper.py otherwise).
        self.cgroups = cgroups.make_or_none() if os.geteuid() == 0 else None
        if self.cgroups:
            say(f"each lab's processes: a cgroup v2 group of their own under {self.cgroups.top} "
                "(memory.max, pids.max)")
        if not self.sandbox.enabled:
            say_once("sandbox", "grading WITHOUT a sandbox (--no-sandbox): grading_status says "
                                "\"unsandboxed\"")

    def lab_uids(self, slot, lab):
        """The pool's pair of uids for `lab` in student slot `slot`: its
        build and runner, its test programs ((None, None): no pool)."""
        return self.pool.pair(slot, self.labs.index(lab)) if self.pool else (None, None)

    def release_slot(self, slot):
        """Kills whatever the slot's uids still run, then hands the slot on."""
        if self.pool and not self.pool.clean(slot):
            raise build.InfraError(f"processes of the graders' uids {min(self.pool.slot_uids(slot))}"
                                   "... survive SIGKILL; they cannot be given to another student")
        self.student_slots.put(slot)

    def grader_env(self, gpu, home):
        """The environment of the graders and the worker's probe: the
        instructor's settings, never the student's (the seed, and where the
        graders' shared libraries are: CMocka under /opt, say)."""
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": "/tmp",
               "HOME": "/tmp" if self.sandbox.enabled else home}
        for name in ("LAB_SEED", "LD_LIBRARY_PATH"):
            if name in os.environ:
                env[name] = os.environ[name]
        # Without a worker GPU, none: not even unsandboxed, where every
        # GPU of the machine could be opened.
        env["CUDA_VISIBLE_DEVICES"] = "" if gpu is None else \
            gpus_mod.cuda_visible(gpu, self.sandbox.enabled)
        return env

    def probe_worker(self, gpu):
        """Runs the GPU probe on `gpu`'s worker exactly as its graders run
        (sandbox, user, environment): a gpus.ProbeResult."""
        folder = os.path.dirname(self.probe_exe)
        try:
            argv = self.sandbox.wrap([self.probe_exe], folder, [], gpu=gpu,
                                     uid=self.pool.probe_uid if self.pool else None,
                                     writable=False)
        except gpus_mod.GpuSetupError as e:
            return gpus_mod.ProbeResult(gpu, False, str(e))
        return gpus_mod.run_probe(gpu, argv, self.grader_env(gpu, folder),
                                  preexec=self.sandbox.confinement.apply
                                  if self.sandbox.confinement else None)

    def prove_workers(self, work):
        """Before anyone is graded: every worker's probe must name its own
        GPU, or the batch stops with what the probes printed."""
        if not self.gpus:
            return
        folder = os.path.join(work, "probe")
        os.makedirs(folder, exist_ok=True)
        try:
            self.probe_exe = gpus_mod.build_probe(folder)
        except gpus_mod.GpuSetupError as e:
            raise SystemExit(f"grade-submissions: stopped before grading: {e}")
        with cf.ThreadPoolExecutor(len(self.gpus)) as pool:
            proofs = list(pool.map(self.probe_worker, self.gpus))
        for proof in proofs:
            say(proof.line())
        failed = [p for p in proofs if not p.ok]
        if failed:
            raise SystemExit("grade-submissions: stopped before grading: the CUDA of "
                             f"{len(failed)} of {len(proofs)} workers does not see its GPU as "
                             "its graders would run:\n" +
                             "\n".join(f"--- {p.gpu.describe()}\n{p.output.strip()}"
                                        for p in failed))

    # ------------------------------------------------------------- a lab
    def lab_files(self, sub, lab, taken):
        """(the student's files of `lab`: {rel: path}, those too large to
        unpack, and lab_files_hash of both)."""
        files = {rel: taken[rel] for rel in lab.files if rel in taken}
        too_large = submissions.too_large_lab_files(sub.too_large, lab.files, files)
        return files, too_large, lab_files_hash(files, too_large)

    def graded_before(self, lab_out, files_hash):
        """(the lab's record on disk when it graded these very files with
        this course, else None; why it is graded again, None for a lab
        never graded). Keeping unchanged labs makes a resumed gradebook the
        uninterrupted one."""
        done = os.path.join(lab_out, "lab.json")
        if not os.path.exists(done):
            return None, None
        try:
            rec = LabRecord.from_json(read_json(done))
        except ValueError:
            return None, "its record was unreadable"
        if rec.files_hash is None:
            return None, "its record does not say which files it graded"
        if rec.files_hash != files_hash:
            return None, "the submission changed"
        if rec.course != self.course.fingerprint:
            return None, "the course changed"
        return rec, None

    def build_lab(self, sub, lab, taken, scratch, slot=0):
        """Stages and builds one lab: its finished record when there is
        nothing to run (graded before, not submitted, too large, did not
        build), else a BuiltLab for run_lab."""
        lab_out = os.path.join(student_dir(self.out, sub.id), lab.name)
        files, too_large, files_hash = self.lab_files(sub, lab, taken)
        if not self.args.force:
            kept, _ = self.graded_before(lab_out, files_hash)
            if kept is not None:
                return kept
        keep_history(lab_out)
        start = time.monotonic()
        rubric = self.course.rubrics[lab.name]
        curve = self.course.curves.get(lab.name, {})
        os.makedirs(lab_out, exist_ok=True)

        def finish(record):
            record.files_hash = files_hash
            return self._finish_lab(lab_out, record, start)
        if too_large:  # handed in, but never unpacked: 0, and the student is told why
            return finish(score.score_lab(lab.name, rubric, curve, state="too_large", reason=(
                f"not graded: {', '.join(too_large)} "
                f"{'is' if len(too_large) == 1 else 'are'} over "
                f"{submissions.MAX_FILE_BYTES >> 10} KiB (a larger file is not unpacked)")))
        if not files:
            return finish(score.score_lab(lab.name, rubric, curve, state="not_submitted",
                                          reason="not submitted"))

        work = os.path.join(scratch, lab.name)
        staged = {}
        for rel in lab.files:  # the student's file, or the skeleton's where one is missing
            dest = os.path.join(work, "src", rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(files.get(rel) or os.path.join(self.course.src, rel), dest)
            staged[rel] = dest
        os.makedirs(os.path.join(work, "obj"), exist_ok=True)
        uid, test_uid = self.lab_uids(slot, lab)
        if uid is not None:
            chown_tree(work, uid)  # the lab's build and grader run as its pool uid
        # Logs are written in the batch's private folder, which the sandbox
        # never shows, and copied into OUT when complete.
        build_log = os.path.join(self.private, f"{_short_hash(sub.id)}.{lab.name}.build.log")
        readonly = [self.course.cache]
        limits = build.Limits(memory_bytes=COMPILE_MEMORY_BYTES, max_file_bytes=256 << 20,
                              tmp_bytes=SCRATCH_BYTES, uid=uid, env=self.grader_env(None, work),
                              folder_bytes=BUILD_FOLDER_BYTES)
        try:
            with self.build_slots:
                result = build.build_lab(self.course.recipes[lab.name], staged, work,
                                         self.sandbox, readonly, build_log, limits)
            log_text = read_text(build_log)
        finally:
            _unlink(build_log)
        write_atomic(os.path.join(lab_out, "build.log"), log_text)
        if result.exe is None:
            record = score.score_lab(lab.name, rubric, curve, state="build_failed",
                                     reason=f"not graded: the lab did not build ({result.message})")
            record.build_errors = _errors_only(log_text, work)[-BUILD_ERRORS_KEEP:]
            record.symbol_findings = result.symbol_findings
            return finish(record)
        return BuiltLab(lab, result.exe, work, lab_out, start, result.symbol_findings, uid,
                        test_uid, files_hash)

    def grader_argv(self, built, results_fd, share_lock, at_once):
        """The course's runner executing the test program linked with the
        student's code (harness.h). Several tests at once (`at_once`:
        slots.py) only under the locks: the harness refuses it without them."""
        argv = [self.course.recipes[built.lab.name]["runner"], "--tests", built.exe,
                "--scored-only", "--results-fd", str(results_fd)]
        if self.args.test_timeout:
            argv += ["--timeout", str(self.args.test_timeout)]
        if share_lock and at_once > 1:
            argv += ["--jobs", str(at_once)]
        if built.test_uid is not None:
            argv += ["--test-uid", str(built.test_uid)]
        return argv

    def run_lab(self, built, gpu, share_lock, at_once=1):
        """Runs a built lab's grader on `gpu` (None: no GPU), sandboxed, and
        scores it; `share_lock`: the folder of the locks through which it
        shares the GPU with the student's other labs (gpu_share.h), or None;
        `at_once`: the tests it runs side by side there.

        "No CUDA device" on a worker with a GPU runs the lab again, then the
        worker's probe decides: a lost GPU stops the batch (nothing
        recorded); a working one was hidden by the student's code, and those
        tests fail."""
        lab, lab_out = built.lab, built.lab_out
        res, raw, log = self._run_grader(built, gpu, share_lock, at_once)
        results, problem, reason = self._read_results(raw, lab_out)
        if gpu is not None and _reports_no_device(results):
            res, raw, log = self._run_again(built, gpu, share_lock, at_once, log,
                                            f"the grader found no CUDA device on {gpu.describe()}")
            results, problem, reason = self._read_results(raw, lab_out)
            if _reports_no_device(results):
                proof = self.probe_worker(gpu)
                if not proof.ok:
                    raise build.InfraError(f"{gpu.describe()} no longer works for CUDA (its "
                                           f"probe: {proof.output.strip()[:300]})")
                results = _charge_no_device(results, proof)
        if self.pool and _runner_failed(results):
            # The runner's uid runs nothing of the student's: a test it could
            # not start is the machine's trouble, not the student's.
            res, raw, log = self._run_again(built, gpu, share_lock, at_once, log,
                                            "the runner could not start a test")
            results, problem, reason = self._read_results(raw, lab_out)
            if _runner_failed(results):
                raise build.InfraError("a lab's runner could not start its tests twice (out of "
                                       "processes or GPU locks on this machine?)")
        write_atomic(os.path.join(lab_out, "run.log"), log)
        if results and share_lock and not res.timed_out:
            self.test_slots.record(lab.name, results.tests)
        if res.timed_out:
            problem = "time limit"
            # int(): what %d wrote, should the limit ever come as a float
            reason = (f"the grader was stopped at the lab's time limit "
                      f"({int(self.args.lab_timeout)} s)")
        elif not raw:
            problem = "no results"
            reason = f"the grader ended ({res.describe()}) before writing its results"
        # Partial credit on the curve of the GPU that graded the run: its
        # calibration file's floors, where the results name one.
        curve = self.calibrated.curves(self.course.curves.get(lab.name, {}),
                                       results.calibration if results else None)
        record = score.score_lab(lab.name, self.course.rubrics[lab.name], curve,
                                 results=results, state="graded", reason=reason)
        record.problem = problem
        record.symbol_findings = built.symbol_findings
        record.files_hash = built.files_hash
        record.run = RunInfo(status=res.describe(), seconds=round(res.seconds, 1),
                             output_dropped_bytes=res.dropped, sandbox=self.sandbox.enabled,
                             gpu_shared=share_lock is not None and gpu is not None,
                             gpu=gpu.name if gpu else None, gpu_uuid=gpu.uuid if gpu else None)
        return self._finish_lab(lab_out, record, built.start)

    def _run_again(self, built, gpu, share_lock, at_once, log, why):
        """One more run of a lab's grader, said and logged after the runs
        before it: (runner.Result, raw results, every run's log)."""
        say(f"{built.lab_out}: {why}; running the lab again")
        res, raw, again = self._run_grader(built, gpu, share_lock, at_once)
        return res, raw, f"{log}\n== run again: {why}\n{again}"

    def _run_grader(self, built, gpu, share_lock, at_once):
        """One run of a lab's grader: (runner.Result, the raw results, the
        run log's text). The results come back through a file only the
        batch can name (unlinked at once, inherited as a descriptor); the
        output through a pipe into the private folder. In the sandbox the
        lab's folder is read-only; the only writable place is a capped /tmp."""
        lab, work = built.lab, built.work
        env = self.grader_env(gpu, work)
        readonly = [self.course.cache]
        if gpu is not None and share_lock:
            env["GRADER_GPU_SHARE"] = share_lock
            readonly.append(share_lock)
        run_log = os.path.join(self.private,
                               f"{os.path.basename(os.path.dirname(work))}.{lab.name}.run.log")
        with tempfile.TemporaryFile(dir=self.private) as channel:
            fd = channel.fileno()
            argv = self.grader_argv(built, fd, share_lock, at_once)
            wrapped = self.sandbox.wrap(argv, work, readonly, gpu=gpu, uid=built.uid,
                                        writable=False, tmp_bytes=SCRATCH_BYTES,
                                        switches_to=built.test_uid)
            if gpu is not None:
                with open(run_log, "ab") as log:  # the run log names the GPU that graded it
                    log.write(f"== graded on {gpu.describe()}\n".encode())
            group = self._new_cgroup()
            try:
                res = runner.run(wrapped, run_log, cwd=work, env=env, cgroup=group,
                                 timeout=self.args.lab_timeout, cap=self.args.output_cap,
                                 memory_bytes=int(self.args.mem_limit_gb * 2**30),
                                 tree_memory=int(self.args.mem_limit_gb * 2**30),
                                 max_file_bytes=256 << 20, pass_fds=(fd,), reap=True,
                                 max_tasks=tasks.process_limit(
                                     os.geteuid() if built.uid is None else built.uid,
                                     self.args.max_processes),
                                 confine=self.sandbox.confinement)
                text = read_text(run_log)
            finally:
                _unlink(run_log)
                if group:
                    self.cgroups.remove(group)
            return res, os.pread(fd, score.RESULTS_MAX_BYTES + 1, 0), text

    def _new_cgroup(self):
        """A cgroup for one lab run, or None (said once): the reaper's sum
        then holds the lab's memory alone."""
        if not self.cgroups:
            return None
        try:
            return self.cgroups.new(self.args.mem_limit_gb * 2**30,
                                    2 * self.args.max_processes + 256)
        except OSError as e:
            say_once("cgroup-run", f"a lab's cgroup could not be made ({e}): the reaper adds up "
                                   "its memory itself")
            return None

    @staticmethod
    def _read_results(raw, lab_out):
        """(results or None, problem, reason) of a run's raw results, which
        are kept as they came (capped), readable or not: the evidence."""
        if not raw:
            return None, None, ""
        write_atomic(os.path.join(lab_out, "grader.json"), raw[:score.RESULTS_MAX_BYTES])
        try:
            return score.read_results(raw), None, ""
        except score.Unreadable as e:
            return None, "results unreadable", \
                f"error: {score.UNREADABLE} ({e}); the raw file is kept as grader.json"

    def run_labs(self, built, scratch):
        """A student's built labs: one GPU slot for all, graders together
        (or in turn), records in the order given. The locks are the
        student's own files, so nothing of theirs that outlives their
        graders can hold up the next student."""
        if not built:
            return []
        gpu = self.run_slots.get()
        try:
            if gpu is None or len(built) == 1 or self.args.labs_in_turn:
                return [self.run_lab(b, gpu, None) for b in built]
            lock = os.path.join(scratch, "gpu-share")
            os.makedirs(lock, mode=0o755, exist_ok=True)
            for name in ("gate", "gpu"):  # gpu_share.c: flock needs only read access
                with open(os.path.join(lock, name), "w"):
                    pass
                os.chmod(os.path.join(lock, name), 0o644)
            at_once = self.test_slots.allot([b.lab.name for b in built])
            with cf.ThreadPoolExecutor(len(built)) as pool:
                return list(pool.map(lambda b: self.run_lab(b, gpu, lock, at_once[b.lab.name]),
                                     built))
        finally:
            self.run_slots.put(gpu)

    def _finish_lab(self, lab_out, record: LabRecord, start) -> LabRecord:
        record.seconds = round(time.monotonic() - start, 1)
        record.course = self.course.fingerprint
        write_json_atomic(os.path.join(lab_out, "results.json"),
                          gradescope.results([record], record.seconds))
        # Last: a lab.json on disk means the lab is done.
        write_json_atomic(os.path.join(lab_out, "lab.json"), record.to_json())
        return record

    # --------------------------------------------------------- a student
    def labs_to_grade(self, sub, taken):
        """The labs of this run to grade now (all with --force): those with
        no record of these files and this course. One line says which labs
        graded before are graded again, and what changed."""
        labs, again = [], []
        folder = student_dir(self.out, sub.id)
        for lab in self.labs:
            kept, why = self.graded_before(os.path.join(folder, lab.name),
                                           self.lab_files(sub, lab, taken)[2])
            if kept is None or self.args.force:
                labs.append(lab.name)
            if why and not self.args.force:
                again.append(f"{lab.name} ({why})")
        if again:
            say(f"{sub.id}: grading again: {', '.join(again)}")
        return labs

    def grade_student(self, sub, lab_pool):
        """Grades one submission. Whatever goes wrong for it (a damaged
        archive, a file we cannot write, a bug of ours) becomes this
        student's error row; only an infrastructure failure stops the batch."""
        start = time.monotonic()
        scratch = os.path.join(self.out, ".work", f"s{self.pid}.{_short_hash(sub.id)}")
        slot = self.student_slots.get()
        try:
            return self._grade_student(sub, lab_pool, scratch, start, slot)
        except build.InfraError:
            raise
        except submissions.Rejected as e:
            return self._finish_error(sub, str(e), start)
        except Exception as e:  # noqa: BLE001 - one student's failure is that student's row
            say(f"{sub.id}: could not be graded: {traceback.format_exc().strip()}")
            return self._finish_error(sub, "the batch could not grade this submission "
                                      f"({type(e).__name__}: {str(e)[:300]})", start)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
            self.release_slot(slot)

    def _grade_student(self, sub, lab_pool, scratch, start, slot=0):
        student_out = student_dir(self.out, sub.id)
        os.makedirs(student_out, exist_ok=True)
        if sub.error:
            raise submissions.Rejected(sub.error)
        unpacked = submissions.unpack(sub, os.path.join(scratch, "unpacked"))
        taken, ignored = submissions.select(unpacked, {f for l in self.labs for f in l.files})
        ignored = [f"{rel} (over {submissions.MAX_FILE_BYTES >> 10} KiB: not unpacked)"
                   for rel in sub.too_large] + ignored
        if not self.labs_to_grade(sub, taken) and self.is_graded(sub):
            kept = _student_record(student_dir(self.out, sub.id))
            if kept is not None and kept.state == "graded":
                return kept  # graded before, as it is now: nothing to write

        flags = []
        for rel, path in sorted(taken.items()):
            flags += review.flags_for_file(rel, read_text(path),
                                           read_text(os.path.join(self.course.src, rel)))
        futures = [lab_pool.submit(self.build_lab, sub, lab, taken, scratch, slot)
                   for lab in self.labs]
        done = [f.result() for f in futures]  # a record, or a BuiltLab to run
        built = [d for d in done if isinstance(d, BuiltLab)]
        self.run_labs(built, scratch)

        return self.compose_student(sub, {"state": "graded", "taken": sorted(taken),
                                          "ignored": ignored[:200], "code_review": flags},
                                    time.monotonic() - start)

    def compose_student(self, sub, facts, seconds) -> StudentRecord:
        """student.json (and the student's results.json and build.log) from
        every lab.json on disk: labs graded in earlier runs (--labs, --only,
        --force) are kept, never replaced by this run's subset."""
        student_out = student_dir(self.out, sub.id)
        records = []
        for lab in self.course.labs:
            try:
                rec = LabRecord.from_json(read_json(os.path.join(student_out, lab.name,
                                                                 "lab.json")))
            except ValueError:
                continue  # none, or not a lab record: the lab is not done
            if rec.lab == lab.name:
                records.append(rec)
        flags = list(facts.get("code_review", []))
        for rec in records:
            flags += review.speed_flags(rec, self.calibrated.curves(
                self.course.curves.get(rec.lab, {}), rec.calibration))
            flags += [ReviewFlag(rec.lab, 0, build.flag_for(f), f)
                      for f in rec.symbol_findings or []]
        write_atomic(os.path.join(student_out, "build.log"), "".join(
            f"===== {r.lab}\n{read_text(os.path.join(student_out, r.lab, 'build.log'))}\n"
            for r in records if os.path.exists(os.path.join(student_out, r.lab, "build.log"))))
        student = StudentRecord(id=sub.id, entry=sub.name, state=facts["state"],
                                submission=sub.kind, course=self.course.fingerprint,
                                sandbox=self.sandbox.enabled, graders=self.graders_as,
                                taken=facts.get("taken", []),
                                ignored=facts.get("ignored", []),
                                labs={r.lab: r for r in records}, review=flags,
                                seconds=round(seconds, 1))
        self.write_pages(student_out, student)
        write_json_atomic(os.path.join(student_out, "student.json"), student.to_json())  # last
        return student

    def write_pages(self, student_out, student: StudentRecord):
        """results.json and the feedback page with its text twin, from the
        record and this run's labs and weights: written when graded and
        again at the end of every run, so new weights need no regrade."""
        order = [l.name for l in self.course.labs]
        records = [student.labs[n] for n in order if n in student.labs]
        dates, history = {}, {}
        for name in order:
            try:
                dates[name] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(
                    os.path.getmtime(os.path.join(student_out, name, "lab.json"))))
                history[name] = sorted(f[:-len(".json")] for f in os.listdir(
                    os.path.join(student_out, name, "history")) if f.endswith(".json"))
            except OSError:
                pass
        write_json_atomic(os.path.join(student_out, "results.json"),
                          gradescope.results(records, student.seconds or 0.0,
                                             student_note(student), self.labs_info))
        write_atomic(os.path.join(student_out, "feedback.txt"),
                     feedback.text(student, order, self.labs_info, dates=dates,
                                   history=history))
        write_atomic(os.path.join(student_out, "feedback.html"),
                     feedback.page(student, order, self.labs_info, dates=dates,
                                   history=history))

    def _finish_error(self, sub, error, start) -> StudentRecord:
        student_out = student_dir(self.out, sub.id)
        kept = _student_record(student_out)
        if kept is not None and kept.state == "error" and kept.error == error:
            return kept  # the same row as before: nothing to write
        os.makedirs(student_out, exist_ok=True)
        records = [score.score_lab(l.name, self.course.rubrics[l.name], {}, state="error",
                                   reason="not graded: " + error) for l in self.labs]
        student = StudentRecord(id=sub.id, entry=sub.name, state="error", error=error,
                                submission=sub.kind, course=self.course.fingerprint,
                                labs={r.lab: r for r in records}, review=[],
                                seconds=round(time.monotonic() - start, 1))
        self.write_pages(student_out, student)
        write_json_atomic(os.path.join(student_out, "student.json"), student.to_json())
        return student

    # -------------------------------------------------------- the batch
    def is_graded(self, sub):
        """Done: an error row, or every lab of this run with its lab.json."""
        folder = student_dir(self.out, sub.id)
        rec = read_json(os.path.join(folder, "student.json"))
        if not isinstance(rec, dict):
            return False
        if rec.get("state") == "error":
            return True
        return all(os.path.exists(os.path.join(folder, l.name, "lab.json")) for l in self.labs)

    def record_batch(self, every_id):
        """OUT/batch.json: which shard of which submission list this OUT
        holds, so that merge can tell a complete set of shards."""
        index, count = self.args.shard or (0, 1)
        record = BatchRecord(shard=(index, count), submissions=_list_hash(every_id), ids=every_id,
                             labs=[l.name for l in self.labs])
        write_json_atomic(os.path.join(self.out, "batch.json"), record.to_json())
        self.batch_record, self.every_id = record, every_id

    def mark_complete(self, shard_subs):
        """OUT/complete.json once every student of the shard is graded (in
        this run or before): what merge needs to take the shard whole."""
        left = [s.id for s in shard_subs if not self.is_graded(s)]
        if left:
            say(f"{len(left)} students of this shard are not graded yet ({' '.join(left[:5])}"
                f"{' ...' if len(left) > 5 else ''}): {self.out} is not complete")
            return
        outputs.write_complete(self.out, self.batch_record, len(shard_subs))

    def load_roster(self):
        """The roster's ids, read once before grading (outputs.read_roster):
        a roster that cannot be used stops the batch here, not at a
        gradebook written mid-run."""
        if not self.args.roster:
            return None
        try:
            return outputs.read_roster(self.args.roster, self.args.roster_column)
        except outputs.RosterError as e:
            raise SystemExit(f"grade-submissions: stopped before grading: {e}")

    def run(self):
        self.roster = self.load_roster()
        try:
            self.id_pattern = submissions.compile_id_pattern(self.args.id_pattern)
        except submissions.IdPatternError as e:
            raise SystemExit(f"grade-submissions: {e}")
        self.prepare()
        subs, notes = submissions.discover(self.args.submissions, self.id_pattern)
        for note in notes:
            say(note)
        for line in outputs.pattern_summary(subs, self.args.id_pattern):
            say(line)
        for line in outputs.roster_summary(self.roster, [s.id for s in subs],
                                           names={s.id: s.name for s in subs if s.pattern}):
            say(line)
        self.record_batch([s.id for s in subs])
        if self.args.shard:
            index, count = self.args.shard
            subs = subs[index::count]
        shard_subs = subs
        if self.args.only:
            wanted = {nfc(sid) for sid in self.args.only}  # as submission ids are
            subs = [s for s in subs if s.id in wanted]
            for missing in sorted(wanted - {s.id for s in subs}):
                say(f"--only {missing}: no such submission (in this shard)")
        if self.args.force:
            for s in subs:
                _unlink(os.path.join(student_dir(self.out, s.id), "student.json"))
        # Every submission is unpacked; labs_to_grade keeps the labs whose
        # files and course are unchanged.
        todo = subs
        before = sum(1 for s in subs if self.is_graded(s))
        where = ("GPUs " + ", ".join(f"{g.index} ({g.name})" for g in self.gpus)
                 if self.gpus else "no GPU (--no-gpu)")
        say(f"grading {len(subs)} submissions ({before} graded before: only what changed since "
            f"is graded again), labs {' '.join(l.name for l in self.labs)}, {self.jobs} build "
            f"jobs, {where}")
        started = time.monotonic()
        progress = Progress(len(todo))
        last_outputs = time.monotonic()
        with cf.ThreadPoolExecutor(self.jobs + len(self.gpus)) as lab_pool, \
                cf.ThreadPoolExecutor(max(1, self.jobs)) as student_pool:
            futures = {student_pool.submit(self.grade_student, s, lab_pool): s for s in todo}
            for f in cf.as_completed(futures):
                sub = futures[f]
                try:
                    rec = f.result()
                except build.InfraError as e:
                    for other in futures:
                        other.cancel()
                    raise SystemExit(f"grade-submissions: stopped: {e}\nNothing was recorded "
                                     "for the labs it hit; fix the course and run again to "
                                     "resume.")
                except Exception:  # noqa: BLE001 - even writing the error row failed
                    say(f"{sub.id}: no row could be written: {traceback.format_exc()}")
                    progress.step(sub.id, "error")
                    continue
                t = weights_mod.totals(rec, self.labs_info)
                models = outputs.gpu_models(rec, list(rec.labs))
                progress.step(sub.id, "error" if rec.state == "error" else
                              f"total {outputs.fmt(t.total)} of {outputs.fmt(t.possible)} points"
                              + (f", on {models}" if models else ""))
                if time.monotonic() - last_outputs > 30:
                    self.write_outputs(final=False)
                    last_outputs = time.monotonic()
        self.refresh_pages()
        self.write_outputs(final=True)
        self.mark_complete(shard_subs)
        elapsed = time.monotonic() - started
        say(f"graded {len(todo)} submissions in {elapsed:.1f} s; gradebook: "
            f"{os.path.join(self.out, 'gradebook.csv')}")
        return 0

    def refresh_pages(self):
        """Every student's results.json and page again, from student.json
        and this run's labs and weights (cheap: no grading)."""
        for sid in self.every_id:
            folder = student_dir(self.out, sid)
            rec = _student_record(folder)
            if rec is not None and rec.id == sid:
                self.write_pages(folder, rec)

    def write_outputs(self, final):
        students = outputs.load_students([self.out])
        gone = sorted(set(students) - set(self.every_id))
        if gone:  # an entry renamed or removed: its old folder is no student of this list
            say_once("gone", f"{len(gone)} students of {self.out} have no entry in the "
                             f"submissions folder now ({' '.join(gone[:5])}"
                             f"{' ...' if len(gone) > 5 else ''}): not in the gradebook")
        students = {sid: rec for sid, rec in students.items() if sid not in gone}
        students = outputs.write_class_outputs(self.out, students, self.labs_info, self.roster)
        if final:
            path = report.write(self.out, read_json(os.path.join(self.out, "summary.json")),
                                students, self.labs_info,
                                {sid: student_dir(self.out, sid) for sid in students},
                                pictures=not self.args.no_report)
            say(f"class report: {path}")


def student_note(rec: StudentRecord):
    """The line results.json's output starts with: why the submission could
    not be graded, or the files it held that were not graded."""
    if rec.state == "error":
        return "The submission could not be graded: " + (rec.error or "")
    ignored = rec.ignored or []
    if not ignored:
        return ""
    return "ignored (only the lab files are graded): " + ", ".join(ignored[:20]) + \
        (f" and {len(ignored) - 20} more" if len(ignored) > 20 else "")


def _student_record(folder):
    """The student.json in `folder` as a StudentRecord, or None."""
    try:
        return StudentRecord.from_json(read_json(os.path.join(folder, "student.json")))
    except ValueError:
        return None


def lab_files_hash(files, too_large):
    """What a lab graded: its student files ({rel: path}) by path and
    content, those too large to unpack by path (the skeleton's files are
    covered by the course's fingerprint)."""
    h = hashlib.sha256()
    for rel in sorted(files):
        with open(files[rel], "rb") as f:
            data = f.read()
        name = rel.encode("utf-8", "surrogateescape")
        h.update(b"file %d %d\0" % (len(name), len(data)) + name + data)
    for rel in sorted(too_large):
        name = rel.encode("utf-8", "surrogateescape")
        h.update(b"too large %d\0" % len(name) + name)
    return h.hexdigest()


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _short_hash(text):
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def keep_history(lab_out):
    """Before a lab is graded again: its last record moves to
    labN/history/<when>-<hash of the files it graded>.json, so that a
    dispute can be answered with what was graded, when, and how."""
    done = os.path.join(lab_out, "lab.json")
    if not os.path.exists(done):
        return
    old = read_json(done, {})
    files = (old.get("files_hash") or "unknown") if isinstance(old, dict) else "unreadable"
    when = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(os.path.getmtime(done)))
    history = os.path.join(lab_out, "history")
    os.makedirs(history, exist_ok=True)
    os.replace(done, os.path.join(history, f"{when}-{files[:16]}.json"))


def _reports_no_device(results):
    return results is not None and any(t.status == "skip" and t.skip_reason == "no_gpu"
                                       for t in results.tests)


def _runner_failed(results):
    return results is not None and any(t.runner_failed for t in results.tests)


def _charge_no_device(results, proof):
    """The results with every "no CUDA device" skip turned into a failure:
    the worker's probe (no student code) saw its GPU, so what hid it from
    the tests was the submission."""
    why = ("failed: the test found no CUDA device, yet this worker's GPU works (its probe, "
           f"just now: {' '.join(proof.output.split())[:160]}); the submission's code hid "
           "the GPU from its own tests")
    return dataclasses.replace(results, tests=[
        dataclasses.replace(t, status="fail", skip_reason=None, message=why)
        if t.status == "skip" and t.skip_reason == "no_gpu" else t for t in results.tests])


def _list_hash(ids):
    return _short_hash("\n".join(sorted(ids)))


def _errors_only(log, work):
    """The compiler's output without our step headers, and with the staged
    files named as the student knows them (labs/labN_.../x.cu)."""
    lines = log.replace(os.path.join(work, "src") + os.sep, "").splitlines()
    keep = [l for l in lines if not l.startswith("$ ") and not l.startswith("== ")]
    return "\n".join(keep)
