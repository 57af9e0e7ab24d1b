"""Which labs exist: discovered from the course tree, never a fixed list, so
the batch grows as labs land (lab 7, ...).

A lab is a folder labs/labN_<topic>/ with a grader target labN_check. Its
whitelist is the set of .cu files in that folder of the pristine course:
those, and only those, are taken from a submission (never labN.h, which is
the contract the grader was built against)."""
import os
import re
from dataclasses import dataclass
from typing import List

LAB_DIR = re.compile(r"^lab(\d+)_[A-Za-z0-9_]+$")


@dataclass(eq=False, repr=False)
class Lab:
    number: int
    folder: str                   # "lab1_indexing"
    files: List[str]              # whitelist: ["labs/lab1_indexing/indexing.cu"]

    @property
    def name(self):
        return f"lab{self.number}"

    @property
    def check_target(self):
        """The grader's runner: the test table, no student code."""
        return f"lab{self.number}_check"

    @property
    def tests_target(self):
        """The grader's test program: the checks with the student's library
        (the link the batch replays per submission)."""
        return f"lab{self.number}_check_tests"

    def __repr__(self):
        return f"Lab({self.number}, {self.folder}, {self.files})"


def discover(course_root):
    """The labs of a course tree, in order of their number."""
    labs = []
    labs_root = os.path.join(course_root, "labs")
    for entry in sorted(os.listdir(labs_root)):
        m = LAB_DIR.match(entry)
        if not m or not os.path.isdir(os.path.join(labs_root, entry)):
            continue
        files = sorted(f"labs/{entry}/{f}" for f in os.listdir(os.path.join(labs_root, entry))
                       if f.endswith(".cu"))
        if files:
            labs.append(Lab(int(m.group(1)), entry, files))
    labs.sort(key=lambda lab: lab.number)
    return labs


def whitelist(labs):
    """Every relative path a submission may provide."""
    return {path: lab for lab in labs for path in lab.files}
