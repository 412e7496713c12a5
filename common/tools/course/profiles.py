"""Nsight Compute's figures of a lesson's kernels: what `make profile-N` reads from ncu's CSV, and
the lines `make profile-N RECORD=1` (and `make bench`) record of them in book/data/.

ncu --csv prints one row per kernel launch and metric: "ID" (the launch), "Kernel Name" (the
demangled name with its parameters: "lesson11::<unnamed>::k(float *)",
"void lesson11::k<...>(...)"), "Metric Name", "Metric Unit", "Metric Value" ("1,284,000,000"),
and others not read here. --csv implies base units (ns, byte, %); a value ncu scaled all the same
("us", "usecond", "Gbyte") is converted back. Each kernel's figure of a metric is the median over
its launches.

The kernels of a lesson program are of three kinds: the course's own (their names in a lesson's
namespace, `lessonNN::`: the lesson's kernels, and an earlier lesson's shown again for
comparison); the course's helpers that are no GEMM (namespace `course::`, such as the timing's
hold_kernel), left out; and cuBLAS's, every other kernel (nvjet_..., sm90_..., cutlass...), the
baseline.

A recorded line (measurements.py checks it):

    {"schema": "course.measurement/2", "lesson": "11", "what": "profile",
     "kernel": "ring_gemm_kernel<...>", "M": 4096, "N": 4096, "K": 4096,
     "shape": "4096x4096x4096", "size": 4096, "metrics": {metric: median or null},
     "launches": 2, "baseline": false, "headline": true, "gpu": "NVIDIA H200",
     "date": "2026-12-01", "clocks": "left alone", "build": "solution"}

"size" is as `make bench`'s lines have it (null for a shape that is not a cube); "baseline" marks
cuBLAS's kernels, "headline" the lesson's headline kernel; "clocks" says that ncu left the GPU's
clocks alone (--clock-control none), as the timings do.
"""

import collections
import csv
import io
import re
import statistics

from . import measurements, records

# The metrics every profile shows, before the lesson's own (its record's [[metric]] list).
BASE_METRICS = [
    ("gpu__time_duration.sum", "kernel time (ns)"),
    ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM throughput, % of peak"),
    ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput, % of peak"),
]
TIME = "gpu__time_duration.sum"
WHAT = measurements.PROFILE
CLOCKS = "left alone"
# The kinds of kernel in a lesson program's profile.
COURSE, HELPER, BASELINE = "course", "helper", "baseline"
# A unit ncu may scale a value to, and the factor to its base unit.
_SCALED = re.compile(r"^([KMGT]?)(byte|inst|cycle|warp|sector|request|thread|block)s?$")
_PREFIX = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_SECONDS = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6,
            "s": 1e9, "second": 1e9}


def metrics_of(lesson):
    """[(metric, what it shows)] of a lesson's profile: BASE_METRICS, then its record's."""
    return BASE_METRICS + list(lesson.metrics)


def short_kernel_name(name):
    """A demangled kernel name without its parameter list, namespaces of the course and casts:
    "void lesson05::tiled_sgemm_kernel<(int)32>(int, ...)" -> "tiled_sgemm_kernel<32>"."""
    name = re.sub(r"\((?:unsigned )?(?:int|long|bool)\)", "", name)
    depth, cut = 0, len(name)
    for i, ch in enumerate(name):  # the first "(" outside template brackets starts the parameters
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0 and not name.startswith("(anonymous namespace)", i):
            cut = i
            break
    name = name[:cut].replace("void ", "").replace("(anonymous namespace)::", "")
    return re.sub(r"lesson\d\d::|<unnamed>::|course::", "", name).strip()


def kind_of(name):
    """COURSE, HELPER or BASELINE: whose kernel the demangled `name` is, from its namespace."""
    qualified = name.strip()
    if qualified.startswith("void "):
        qualified = qualified[len("void "):]
    qualified = qualified.replace("(anonymous namespace)::", "")
    qualified = re.split(r"[<(]", qualified, maxsplit=1)[0].strip()
    if re.match(r"lesson\d\d::", qualified):
        return COURSE
    if qualified.startswith("course::"):
        return HELPER
    return BASELINE


def base_value(value, unit):
    """A metric's value in its base unit: 181.3 "us" -> 181300.0 (ns), 1.28 "Gbyte" -> 1.28e9;
    base units, and those ncu does not scale (%, ratios), as they are."""
    if unit in _SECONDS:
        return value * _SECONDS[unit]
    m = _SCALED.match(unit or "")
    return value * _PREFIX[m.group(1)] if m else value


class Kernel:
    """One kernel of a profile: its names, its kind, its launches and each metric's values."""

    def __init__(self, name):
        self.name = name
        self.short = short_kernel_name(name)
        self.kind = kind_of(name)
        self.launches = set()
        self.values = collections.OrderedDict()  # metric -> [value per launch]

    def median(self, metric):
        values = self.values.get(metric)
        return statistics.median(values) if values else None

    def __repr__(self):
        return f"Kernel({self.short!r}, {self.kind})"


def parse_csv(text):
    """The kernels of ncu's --csv output `text` (other lines, the program's and ncu's own, are
    skipped), in the order of their first launch, helpers left out: [Kernel]. Kernels of the same
    short name are one (a template launched with other grids)."""
    rows = [l for l in text.splitlines() if l.startswith('"')]
    kernels = collections.OrderedDict()
    for r in csv.DictReader(io.StringIO("\n".join(rows))):
        name = r.get("Kernel Name") or "?"
        try:
            value = float((r.get("Metric Value") or "").replace(",", ""))
        except ValueError:
            continue  # "n/a", or not a number
        k = Kernel(name)
        if k.kind == HELPER:
            continue
        k = kernels.setdefault(k.short, k)
        k.launches.add(r.get("ID"))
        k.values.setdefault(r.get("Metric Name"), []).append(
            base_value(value, (r.get("Metric Unit") or "").strip()))
    return list(kernels.values())


def lines_of(kernels, metrics, *, lesson, size, gpu, date, build, headline):
    """The recorded lines of a profile: one per kernel of `kernels` (parse_csv's), with the median
    of each of `metrics` (names); `headline`, the short names of the lesson's headline kernel."""
    shape = records.parse_shape(size)
    if shape is None:
        raise ValueError(f"{size!r} is neither a size (4096) nor a shape (8192x7168x2048)")
    m, n, k = shape
    out = []
    for kernel in kernels:
        out.append({"schema": measurements.SCHEMA, "lesson": lesson, "what": WHAT,
                    "kernel": kernel.short, "M": m, "N": n, "K": k,
                    "shape": f"{m}x{n}x{k}", "size": m if m == n == k else None,
                    "metrics": {name: kernel.median(name) for name in metrics},
                    "launches": len(kernel.launches), "baseline": kernel.kind == BASELINE,
                    "headline": kernel.kind == COURSE and kernel.short in headline,
                    "gpu": gpu, "date": date, "clocks": CLOCKS, "build": build})
    return out


def is_profile(line):
    """True for a recorded profile line."""
    return line.get("what") == WHAT and not line.get("meta")


def replaced_by(lesson, shape):
    """The test of data-file lines a recorded profile of `lesson` ("11") at `shape`
    ("4096x4096x4096") replaces: that lesson's earlier profile lines at that shape."""
    def replaces(line):
        return (is_profile(line) and str(line.get("lesson")).zfill(2) == lesson
                and line.get("shape") == shape)
    return replaces
