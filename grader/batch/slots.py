"""How many tests at once each of a student's lab graders runs while they
share the GPU (the harness's --jobs).

A student is done when the last grader ends; with the same number each,
the labs with the most work run long after the others, the GPU half idle.
So the batch shares the same total (--tests-at-once x the number of labs)
in proportion to each lab's work for the students graded so far: the sum
of its tests' times as its runner measured them (the runner holds no
student code, so a submission can only move them by being slow itself),
less the time they waited to measure alone, which more places do not
shorten. The median over the last students keeps one student's hung tests
from moving the share. Until every lab has a measurement, each gets
--tests-at-once."""
import statistics
import threading

MOST_AT_ONCE = 8        # the harness's own limit for --jobs
KEEP = 9                # measurements per lab the median is taken over


class TestSlots:
    def __init__(self, per_lab):
        self.per_lab = per_lab
        self._work = {}
        self._lock = threading.Lock()

    def record(self, lab, tests):
        """Adds one graded run of `lab`: its tests as score.read_results
        returns them (each with its measured "seconds" and "gpu_wait_s")."""
        total = sum(max(0.0, (t.seconds or 0.0) - (t.gpu_wait_s or 0.0)) for t in tests)
        if total <= 0.0:
            return
        with self._lock:
            runs = self._work.setdefault(lab, [])
            runs.append(total)
            del runs[:-KEEP]

    def allot(self, labs):
        """{lab: tests at once} for graders of `labs` that run together."""
        with self._lock:
            work = {lab: statistics.median(self._work[lab]) for lab in labs
                    if self._work.get(lab)}
        if len(labs) < 2 or len(work) < len(labs):
            return {lab: self.per_lab for lab in labs}
        return share(work, self.per_lab * len(labs))


def share(work, total):
    """Splits `total` slots between the labs of `work` ({lab: seconds}) in
    proportion to their work, each getting 1 to MOST_AT_ONCE: the largest
    remainders get the slots that rounding down left over."""
    labs = sorted(work)
    whole = sum(work.values())
    exact = {lab: total * work[lab] / whole for lab in labs}
    slots = {lab: min(MOST_AT_ONCE, max(1, int(exact[lab]))) for lab in labs}
    for lab in sorted(labs, key=lambda l: exact[l] - int(exact[l]), reverse=True):
        if sum(slots.values()) >= total:
            break
        if slots[lab] < MOST_AT_ONCE:
            slots[lab] += 1
    return slots
