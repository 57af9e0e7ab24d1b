"""A progress bar on stderr: students done of the total, the one just
finished, and the time left (from the mean time per student so far). On
a terminal it redraws one line; otherwise (CI, a Slurm log) it prints one
line per student."""
import sys
import threading
import time


class Progress:
    def __init__(self, total, stream=sys.stderr):
        self.total = total
        self.done = 0
        self.start = time.monotonic()
        self.stream = stream
        self.tty = stream.isatty()
        self.lock = threading.Lock()

    def step(self, sid, note=""):
        with self.lock:
            self.done += 1
            elapsed = time.monotonic() - self.start
            left = elapsed / self.done * (self.total - self.done) if self.done else 0
            width = 24
            filled = int(width * self.done / self.total) if self.total else width
            bar = "#" * filled + "." * (width - filled)
            said = f" ({note})" if note else ""
            line = f"[{bar}] {self.done}/{self.total} {sid}{said}  {_clock(left)} left"
            if self.tty:
                self.stream.write("\r\033[K" + line + ("\n" if self.done == self.total else ""))
            else:
                self.stream.write(line + "\n")
            self.stream.flush()


def _clock(seconds):
    seconds = int(seconds + 0.5)
    if seconds < 3600:
        return f"{seconds // 60}:{seconds % 60:02d}"
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
