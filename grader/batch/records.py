"""The batch's records as typed dataclasses, and their JSON at the file
boundary (lab.json, student.json, batch.json, labs.json).

Instructors' scripts, LMS imports and a resumed batch read these files, so
to_json() keeps a fixed key order and leaves out a key only some records
carry (build_errors, run, ratio) when it is None. from_json() reads older
files: a missing key takes its default, and an unknown one is kept in
`extra` and written back, so nothing a file held is lost."""
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Dict, List, Optional, Tuple

Json = Dict[str, Any]


def _known_and_extra(cls, data: Json) -> Tuple[Json, Json]:
    """The keys of `data` that are fields of `cls`, and the others."""
    names = {f.name for f in fields(cls)} - {"extra"}
    known = {k: v for k, v in data.items() if k in names}
    extra = {k: v for k, v in data.items() if k not in names}
    return known, extra


@dataclass
class LabTest:
    """One graded test of a lab record (score.score_lab): its rubric points,
    what it earned, and what the student is told."""
    name: str
    group: str
    max_score: float
    bonus: bool
    score: float = 0.0
    status: str = "failed"            # Gradescope's: passed / failed
    no_gpu: bool = False              # a GPU test graded without a GPU
    not_gradable: bool = False        # a ratio the grading GPU cannot grade
    outcome: Optional[str] = None     # the grader's status, or why none came
    output: str = ""
    ratio: Optional[float] = None     # a speed test's measured ratio
    threshold: Optional[float] = None  # written with the ratio, even when None
    partial: bool = False             # earned partial credit on its curve
    extra: Json = field(default_factory=dict)

    def to_json(self) -> Json:
        out = {"name": self.name, "group": self.group, "max_score": self.max_score,
               "bonus": self.bonus, "score": self.score, "status": self.status,
               "no_gpu": self.no_gpu, "not_gradable": self.not_gradable,
               "outcome": self.outcome, "output": self.output}
        if self.ratio is not None:
            out["ratio"] = self.ratio
            out["threshold"] = self.threshold
        if self.partial:
            out["partial"] = True
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, data: Json) -> "LabTest":
        known, extra = _known_and_extra(cls, data)
        for key, default in (("name", ""), ("group", ""), ("max_score", 0), ("bonus", False)):
            known.setdefault(key, default)
        return cls(**known, extra=extra)


@dataclass
class RunInfo:
    """How a lab's grader ran (runner.Result, described)."""
    status: str
    seconds: float
    output_dropped_bytes: int
    sandbox: bool
    gpu_shared: bool
    gpu: Optional[str] = None       # the model of the worker's GPU (gpus.py), None: no GPU
    gpu_uuid: Optional[str] = None

    def to_json(self) -> Json:
        return asdict(self)  # flat: the fields, in the file's key order

    @classmethod
    def from_json(cls, data: Json) -> "RunInfo":
        return cls(data.get("status", ""), data.get("seconds", 0.0),
                   data.get("output_dropped_bytes", 0), data.get("sandbox", False),
                   data.get("gpu_shared", False), data.get("gpu"), data.get("gpu_uuid"))


@dataclass
class LabRecord:
    """One lab of one submission (lab.json, and student.json's "labs").
    state: graded, not_submitted, too_large (a file over the size limit:
    never unpacked, 0 points), build_failed or error. The fields from
    build_errors on belong to some states only and are written only when
    set."""
    lab: str
    title: str
    state: str
    reason: str
    score: float
    possible: float
    bonus: float
    bonus_possible: float
    no_gpu_points: float = 0
    not_gradable_points: float = 0
    device: Optional[str] = None
    calibration: Optional[Dict[str, Optional[str]]] = None  # score._calibration's {state, file}
    seed: Optional[int] = None
    tests: List[LabTest] = field(default_factory=list)
    build_errors: Optional[str] = None
    problem: Optional[str] = None     # "time limit", "results unreadable", "no results"
    symbol_findings: Optional[List[str]] = None
    run: Optional[RunInfo] = None
    seconds: Optional[float] = None
    files_hash: Optional[str] = None  # of the student's files it graded (batch.lab_files_hash)
    course: Optional[str] = None      # the fingerprint of the course that graded it
    extra: Json = field(default_factory=dict)

    def to_json(self) -> Json:
        out = {"lab": self.lab, "title": self.title, "state": self.state,
               "reason": self.reason, "score": self.score, "possible": self.possible,
               "bonus": self.bonus, "bonus_possible": self.bonus_possible,
               "no_gpu_points": self.no_gpu_points,
               "not_gradable_points": self.not_gradable_points, "device": self.device,
               "calibration": self.calibration, "seed": self.seed,
               "tests": [t.to_json() for t in self.tests]}
        if self.build_errors is not None:
            out["build_errors"] = self.build_errors
        # A lab whose grader ran says whether something went wrong, null if not.
        if self.run is not None or self.problem is not None:
            out["problem"] = self.problem
        if self.symbol_findings is not None:
            out["symbol_findings"] = self.symbol_findings
        if self.run is not None:
            out["run"] = self.run.to_json()
        if self.seconds is not None:
            out["seconds"] = self.seconds
        # What a rerun compares to tell a lab graded as it is now.
        for key in ("files_hash", "course"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, data: Json) -> "LabRecord":
        """A record from lab.json (or student.json's "labs"); raises
        ValueError for something that is no lab record."""
        if not isinstance(data, dict) or not isinstance(data.get("lab"), str):
            raise ValueError("not a lab record")
        known, extra = _known_and_extra(cls, data)
        known["tests"] = [LabTest.from_json(t) for t in known.get("tests") or []
                          if isinstance(t, dict)]
        if isinstance(known.get("run"), dict):
            known["run"] = RunInfo.from_json(known["run"])
        for key, default in (("title", data["lab"]), ("state", "graded"), ("reason", ""),
                             ("score", 0), ("possible", 0), ("bonus", 0),
                             ("bonus_possible", 0)):
            known.setdefault(key, default)
        return cls(**known, extra=extra)


@dataclass
class ReviewFlag:
    """One line of review.csv: code (or a lab's result) an instructor
    should look at; line 0 when it is about the whole file or lab."""
    file: str
    line: int
    flag: str
    excerpt: str

    def to_json(self) -> Json:
        return asdict(self)  # flat: the fields, in the file's key order

    @classmethod
    def from_json(cls, data: Json) -> "ReviewFlag":
        return cls(data.get("file", ""), data.get("line", 0), data.get("flag", ""),
                   data.get("excerpt", ""))


@dataclass
class StudentRecord:
    """student.json: a submission's record, composed from its labs. A
    graded student has sandbox, taken, ignored and seconds; an error row
    has error instead (the other kind's fields are None, left out of the
    file). outputs.py also makes rows never written: not_submitted (on the
    roster), missing_shard, shard_incomplete; not_on_roster marks a
    submission the roster lacks."""
    id: str
    state: str                        # graded, error; not_submitted, missing_shard, ...
    entry: Optional[str] = None       # the entry's name as printable text
    submission: Optional[str] = None  # its kind: folder, zip, tar.gz, ...
    course: Optional[str] = None      # the fingerprint of the course that graded it
    labs: Dict[str, LabRecord] = field(default_factory=dict)
    review: List[ReviewFlag] = field(default_factory=list)
    error: Optional[str] = None
    sandbox: Optional[bool] = None
    graders: Optional[str] = None     # who ran its graders: pool, root, batch user
    taken: Optional[List[str]] = None
    ignored: Optional[List[str]] = None
    seconds: Optional[float] = None
    not_on_roster: bool = False       # in memory only

    def to_json(self) -> Json:
        out = {"id": self.id, "entry": self.entry, "state": self.state}
        if self.error is not None:
            out["error"] = self.error
        out["submission"] = self.submission
        out["course"] = self.course
        for key in ("sandbox", "graders", "taken", "ignored"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        out["labs"] = {name: rec.to_json() for name, rec in self.labs.items()}
        out["review"] = [f.to_json() for f in self.review]
        if self.seconds is not None:
            out["seconds"] = self.seconds
        return out

    @classmethod
    def from_json(cls, data: Json) -> "StudentRecord":
        """A record from student.json, of this version or an older one;
        raises ValueError for something that is no student record. A lab
        or flag that is not one is left out."""
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise ValueError("not a student record")
        labs = {}
        for name, rec in (data.get("labs") or {}).items():
            try:
                labs[name] = LabRecord.from_json(rec)
            except ValueError:
                continue
        return cls(id=data["id"], state=data.get("state", "graded"), entry=data.get("entry"),
                   submission=data.get("submission"), course=data.get("course"), labs=labs,
                   review=[ReviewFlag.from_json(f) for f in data.get("review") or []
                           if isinstance(f, dict)],
                   error=data.get("error"), sandbox=data.get("sandbox"),
                   graders=data.get("graders"), taken=data.get("taken"),
                   ignored=data.get("ignored"), seconds=data.get("seconds"))


@dataclass
class LabInfo:
    """One lab of a run as the class outputs see it (labs.json). weight:
    the points it is worth in the total (weights.py), None: its own."""
    name: str
    title: str
    possible: float
    bonus_possible: float
    weight: Optional[float] = None

    def to_json(self) -> Json:
        out = {"name": self.name, "title": self.title, "possible": self.possible,
               "bonus_possible": self.bonus_possible}
        if self.weight is not None:
            out["weight"] = self.weight
        return out

    @classmethod
    def from_json(cls, data: Json) -> "LabInfo":
        return cls(data["name"], data.get("title", data["name"]), data.get("possible", 0),
                   data.get("bonus_possible", 0), data.get("weight"))


@dataclass
class BatchRecord:
    """batch.json: which shard of which submission list an OUT holds, so
    that merge can tell a complete set of shards."""
    shard: Tuple[int, int]            # (index, count)
    submissions: str                  # hash of the sorted ids of the whole list
    ids: List[str]
    labs: List[str]

    def to_json(self) -> Json:
        return {"shard": list(self.shard), "submissions": self.submissions,
                "ids": self.ids, "labs": self.labs}

    @classmethod
    def from_json(cls, data: Json) -> "BatchRecord":
        """Raises ValueError for something that is no batch record."""
        try:
            index, count = data["shard"]
            return cls((index, count), data["submissions"], list(data["ids"]),
                       list(data.get("labs", [])))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a batch record: {e}") from None
