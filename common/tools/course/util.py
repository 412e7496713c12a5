"""What every part of the course's tools shares: where the course is, colours, running a program."""

import datetime
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
STATE_DIR = ROOT / ".course"
# The exit code of a test program whose GPU part cannot run here (CTest's SKIP_RETURN_CODE).
SKIP_CODE = 77
# A lesson program's exit codes when no usable GPU is here (common/device.hpp: kExitNoDevice,
# kExitDeviceTooOld): no GPU or driver, or a GPU below the lesson's compute capability.
EXIT_NO_GPU = 3
EXIT_GPU_TOO_OLD = 4
SOURCE_SUFFIXES = (".cu", ".cpp", ".cc", ".c", ".cuh", ".hpp", ".h")


def rel(path):
    """`path` from the top of the course when it lies inside it."""
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def ordinal(n):
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 71st, 93rd."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


COLORS = {"green": "32", "red": "31", "yellow": "33", "bold": "1", "dim": "2"}


def paint(text, color, stream=None):
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR") or not stream.isatty() or os.environ.get("TERM") == "dumb":
        return text
    return f"\033[{COLORS[color]}m{text}\033[0m"


def now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M")


def run(cmd, timeout=1800, env=None, cwd=None):
    """(exit code, stdout and stderr together) of `cmd`; never raises for a missing program or a
    timeout (127 and 124, with the reason as the output)."""
    try:
        p = subprocess.run(cmd, cwd=cwd or ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=timeout,
                           env=None if env is None else {**os.environ, **env})
        return p.returncode, p.stdout
    except FileNotFoundError:
        return 127, f"{cmd[0]} not found: build first (make grade builds everything)"
    except PermissionError as e:
        return 126, f"{cmd[0]}: {e}"
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return 124, out + f"\n(timed out after {timeout} s)"


def signal_name(rc):
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def probe_gpu(build=None):
    """None when a CUDA GPU answers; otherwise a one-line reason for the tools that need one."""
    try:
        p = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=30)
    except FileNotFoundError:
        return "this needs a CUDA GPU: nvidia-smi is not installed (no NVIDIA driver here)"
    except subprocess.TimeoutExpired:
        return "this needs a CUDA GPU: nvidia-smi did not answer"
    if p.returncode != 0 or "GPU" not in p.stdout:
        first = (p.stdout.strip().splitlines() or ["no GPU listed"])[0]
        return f"this needs a CUDA GPU: nvidia-smi says: {first}"
    return None


def relevant(path):
    """True for a source file a learner edits (not an editor's backup or lock file)."""
    name = os.path.basename(path)
    return (name.endswith(SOURCE_SUFFIXES) and not name.startswith((".", "#"))
            and not name.endswith("~"))
