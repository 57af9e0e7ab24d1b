"""The batch's GPUs: which ones it grades on, the /dev nodes of each, how
CUDA is told to use it, and the probe that proves, before anyone is
graded, that every worker's CUDA sees its own GPU.

With one /dev/nvidiaN bound into a sandbox, CUDA numbers that GPU 0, so
CUDA_VISIBLE_DEVICES=1 there means "no device", and a worker whose graders
find no device ends every lab in a second and takes most of the queue. So
in the sandbox the GPU is selected as 0, outside it by UUID (CUDA's order
need not be nvidia-smi's), and each worker's probe, run as its graders run,
must name its GPU before the first student is graded.

What reads the machine takes its inputs as arguments (nvidia-smi's text, a
/proc and a /dev root), so the tests can hand it a fake machine."""
import glob
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from typing import List, Optional

SMI_QUERY = ["nvidia-smi", "--query-gpu=index,uuid,name,pci.bus_id", "--format=csv,noheader"]
# The nodes every CUDA process opens whatever its GPU: never a GPU's own node.
SHARED_NODES = ("nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset")
PROBE_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu_probe.c")


class GpuSetupError(Exception):
    """The batch cannot tell which GPU is which, or a worker's CUDA cannot
    use its GPU: nobody may be graded (an infrastructure error)."""


@dataclass(frozen=True)
class Gpu:
    index: str            # nvidia-smi's index
    uuid: str             # GPU-xxxxxxxx-...
    name: str             # NVIDIA H200
    bus_id: str           # 00000000:19:00.0
    minor: Optional[int]  # N of /dev/nvidiaN, None when it cannot be told

    def describe(self):
        return f"GPU {self.index}: {self.name} ({self.uuid})"


def _bus_key(bus_id):
    """A PCI address as (domain, bus, device, function): nvidia-smi writes an
    8-digit domain, /proc/driver/nvidia a 4-digit one."""
    m = re.fullmatch(r"\s*([0-9a-fA-F]+):([0-9a-fA-F]+):([0-9a-fA-F]+)\.([0-9a-fA-F]+)\s*", bus_id)
    return tuple(int(x, 16) for x in m.groups()) if m else None


def _driver_minors(proc_root):
    """{uuid or bus key: minor} from the driver's per-GPU information files."""
    found = {}
    for info in glob.glob(os.path.join(proc_root, "driver/nvidia/gpus/*/information")):
        try:
            with open(info) as f:
                text = f.read()
        except OSError:
            continue
        minor = re.search(r"^Device Minor:\s*(\d+)\s*$", text, re.M)
        if not minor:
            continue
        uuid = re.search(r"^GPU UUID:\s*(\S+)\s*$", text, re.M)
        if uuid:
            found[uuid.group(1).lower()] = int(minor.group(1))
        bus = _bus_key(os.path.basename(os.path.dirname(info)))
        if bus:
            found[bus] = int(minor.group(1))
    return found


def parse_gpus(smi_text, proc_root="/proc"):
    """The GPUs of nvidia-smi's SMI_QUERY output, each with its node's minor
    number (matched by UUID, else by PCI address; None when neither
    matches). Raises GpuSetupError for a line it cannot read."""
    minors = _driver_minors(proc_root)
    gpus = []
    for line in smi_text.splitlines():
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 4 or not parts[0].isdigit() or not parts[1].startswith("GPU-"):
            raise GpuSetupError(f"nvidia-smi printed a line the batch cannot read: {line!r}")
        index, uuid, name, bus = parts
        minor = minors.get(uuid.lower(), minors.get(_bus_key(bus)))
        gpus.append(Gpu(index, uuid, name, bus, minor))
    return gpus


def select(gpus: List[Gpu], wanted):
    """The GPUs the batch may use: all, or those CUDA_VISIBLE_DEVICES
    (`wanted`, None when unset) names by nvidia-smi index or by UUID (a
    unique start of one is enough, as for CUDA). An entry that names no
    GPU stops the batch rather than grading on fewer GPUs than meant."""
    if wanted is None:
        return list(gpus)
    chosen = []
    for entry in (e.strip() for e in wanted.split(",")):
        if not entry or entry == "-1":
            break  # CUDA stops reading the list at an invalid entry too
        if entry.isdigit():
            hits = [g for g in gpus if int(entry) == int(g.index)]
        else:
            hits = [g for g in gpus if entry.upper().startswith("GPU-") and
                    g.uuid.lower().startswith(entry.lower())]
        if len(hits) != 1:
            raise GpuSetupError(f"CUDA_VISIBLE_DEVICES={wanted}: {entry!r} names "
                                f"{'no' if not hits else 'more than one'} GPU that nvidia-smi "
                                "lists")
        if hits[0] not in chosen:
            chosen.append(hits[0])
    return chosen


def machine_gpus(environ=None, dev_root="/dev", proc_root="/proc"):
    """The GPUs of this machine the batch may use ([] where there is none).
    A machine with NVIDIA GPU nodes whose nvidia-smi fails is an error, not
    a machine without a GPU."""
    environ = os.environ if environ is None else environ
    if environ.get("SLURM_JOB_ID") and environ.get("CUDA_VISIBLE_DEVICES") is None:
        # A Slurm job whose allocation holds no GPU: its GPUs are the ones
        # the allocation gave (CUDA_VISIBLE_DEVICES), never every one here.
        return []
    has_nodes = bool(glob.glob(os.path.join(dev_root, "nvidia[0-9]*")))
    if shutil.which("nvidia-smi") is None:
        if has_nodes:
            raise GpuSetupError(f"{dev_root}/nvidia* exist but nvidia-smi is not installed: the "
                                "batch cannot tell the GPUs apart")
        return []
    try:
        out = subprocess.run(SMI_QUERY, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise GpuSetupError(f"nvidia-smi did not answer: {e}")
    if out.returncode != 0:
        if not has_nodes:
            return []
        raise GpuSetupError(f"nvidia-smi failed ({out.returncode}): "
                            f"{(out.stderr or out.stdout).strip()[:300]}")
    return select(parse_gpus(out.stdout, proc_root), environ.get("CUDA_VISIBLE_DEVICES"))


def device_nodes(gpu: Gpu, dev_root="/dev"):
    """The /dev nodes a sandbox binds for `gpu`: the shared ones and this
    GPU's own node, never another GPU's. Raises GpuSetupError when its
    node is unknown: binding every node instead would hand every GPU to
    every student."""
    if gpu.minor is None:
        raise GpuSetupError(f"{gpu.describe()}: no /proc/driver/nvidia/gpus entry gives its "
                            "device node, so it cannot be sandboxed alone")
    own = os.path.join(dev_root, f"nvidia{gpu.minor}")
    if not os.path.exists(own):
        raise GpuSetupError(f"{gpu.describe()}: its node {own} does not exist")
    nodes = [os.path.join(dev_root, n) for n in SHARED_NODES
             if os.path.exists(os.path.join(dev_root, n))]
    nodes += sorted(glob.glob(os.path.join(dev_root, "nvidia-caps", "*")))
    return nodes + [own]


def cuda_visible(gpu: Gpu, sandboxed):
    """CUDA_VISIBLE_DEVICES for a command on `gpu`: "0" in a sandbox, where
    its node is the only one and CUDA renumbers it; its UUID elsewhere."""
    return "0" if sandboxed else gpu.uuid


@dataclass
class ProbeResult:
    gpu: Gpu
    ok: bool
    output: str     # what the probe printed (and how it ended)

    def line(self):
        return f"worker {self.gpu.describe()}: {'ok' if self.ok else 'FAILED'}: " + \
            " | ".join(self.output.strip().splitlines())[:400]


def build_probe(folder, compiler="cc"):
    """Compiles gpu_probe.c into `folder` (readable by the graders' user);
    returns its path. It loads libcuda itself: no CUDA toolkit needed."""
    exe = os.path.join(folder, "gpu_probe")
    out = subprocess.run([compiler, "-O1", "-o", exe, PROBE_SOURCE, "-ldl"],
                         capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise GpuSetupError(f"the GPU probe did not compile: {out.stderr.strip()[:300]}")
    os.chmod(folder, 0o755)
    os.chmod(exe, 0o755)
    return exe


def judge_probe(gpu: Gpu, rc, output):
    """Whether a probe's output proves its worker: it ran (rc 0), CUDA saw
    exactly one device, and that device is `gpu` by UUID."""
    seen = re.findall(r"^device 0: (.*) \((GPU-[0-9a-fA-F-]+)\)$", output, re.M)
    count = re.search(r"^devices: (\d+)$", output, re.M)
    if rc != 0 or not count:
        return False
    return int(count.group(1)) == 1 and len(seen) == 1 and seen[0][1].lower() == gpu.uuid.lower()


def run_probe(gpu: Gpu, argv, env, timeout=120, preexec=None):
    """Runs a probe command (the probe, wrapped as the worker's graders are,
    `preexec` as theirs) and judges it."""
    try:
        out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL, preexec_fn=preexec)
        text = out.stdout + out.stderr + ("" if out.returncode == 0 else
                                          f"exit status {out.returncode}\n")
        return ProbeResult(gpu, judge_probe(gpu, out.returncode, out.stdout), text)
    except (OSError, subprocess.SubprocessError) as e:
        return ProbeResult(gpu, False, f"could not run: {e}")
