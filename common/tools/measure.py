#!/usr/bin/env python3
"""make sanitize-N, make profile-N, make sass-N: look inside one lesson's kernels.

  measure.py sanitize N [--build DIR] [--mine]  compute-sanitizer memcheck and racecheck (and
                                                synccheck for lessons that ask for it) at a ragged
                                                size; non-zero exit on any finding
  measure.py profile N [--build DIR] [--mine] [--size S]
                                                Nsight Compute on the lesson's kernels with the
                                                metrics its optimization should move; one table
  measure.py sass N [--build DIR] [--mine]      the SASS of the lesson's kernels, summarized per
                                                kernel (FFMA, LDG/LDS widths, HMMA, HGMMA, LDL/STL…)

What to run comes from the lesson's record, lessons/NN-slug/lesson.toml (lessons/manifest.txt
describes it): its [measure] table (`ragged`, the arguments of a small ragged run, GEMM lessons
default to --m 257 --n 255 --k 300 --check-only; `sanitize`, the compute-sanitizer tools, default
memcheck and racecheck) and its [[metric]] tables (an Nsight Compute metric's `name` and what it
`shows`, in order). Whether the program is a GEMM lesson's (one size, no checks, one timed run
under the profiler) is the record's `kind`.
"""

import argparse
import collections
import csv
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course import records  # noqa: E402
from course.util import probe_gpu  # noqa: E402

# The metrics every profile shows, before the lesson's own.
BASE_METRICS = [
    ("gpu__time_duration.sum", "kernel time (ns)"),
    ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM throughput, % of peak"),
    ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput, % of peak"),
]
TOOL_HOME = {
    "compute-sanitizer": "/usr/local/cuda/bin/compute-sanitizer (CUDA toolkit)",
    "ncu": "/usr/local/cuda/bin/ncu or /opt/nvidia/nsight-compute/<version>/ncu (Nsight Compute)",
    "cuobjdump": "/usr/local/cuda/bin/cuobjdump (CUDA toolkit)",
}


def lesson_config(lesson):
    """What the lesson's record says to run: the ragged run's arguments (for a GEMM lesson without
    its own, --check-only: the sanitizers see the lesson's kernels and Eigen's checks, not cuBLAS's,
    whose own kernels racecheck reports hazards in), the sanitizer tools, the metrics."""
    return {"ragged": lesson.ragged, "sanitize": lesson.sanitize, "metrics": lesson.metrics}


def find_tool(name):
    path = shutil.which(name)
    if path:
        return path
    for cand in [Path("/usr/local/cuda/bin") / name, *sorted(Path("/opt/nvidia").glob(f"nsight-compute/*/{name}"))]:
        if cand.is_file():
            return str(cand)
    print(f"{name} is not installed (or not on PATH); it usually lives in {TOOL_HOME[name]}",
          file=sys.stderr)
    sys.exit(4)


def program(args, lesson):
    exe = Path(args.build).resolve() / "bin" / (f"lesson{lesson.num}" + ("" if args.mine else "_solution"))
    if not exe.is_file():
        print(f"{exe} is not built (make lesson-{int(lesson.num)} builds it)", file=sys.stderr)
        sys.exit(1)
    return str(exe)


def need_gpu():
    reason = probe_gpu()
    if reason:
        print(reason, file=sys.stderr)
        sys.exit(3)


def cmd_sanitize(args, lesson):
    need_gpu()
    tool = find_tool("compute-sanitizer")
    cfg = lesson_config(lesson)
    exe = program(args, lesson)
    bad = 0
    for t in cfg["sanitize"]:
        cmd = [tool, "--tool", t, "--error-exitcode", "9", exe, *cfg["ragged"]]
        print(f"== {t}: {' '.join(Path(c).name if i < 1 else c for i, c in enumerate(cmd))}", flush=True)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        summary = [l for l in p.stdout.splitlines() if "SUMMARY" in l]
        print("   " + (summary[-1].strip("= ").strip() if summary else f"exit {p.returncode}"))
        if p.returncode != 0:
            bad += 1
            print(p.stdout[-6000:])
    print(f"lesson {lesson.num} ({'your build' if args.mine else 'reference solution'}): "
          + ("clean" if not bad else f"{bad} tool(s) reported findings"))
    return 1 if bad else 0


def cmd_profile(args, lesson):
    need_gpu()
    tool = find_tool("ncu")
    cfg = lesson_config(lesson)
    metrics = BASE_METRICS + cfg["metrics"]
    exe = program(args, lesson)
    run_args = list(cfg["ragged"])
    if lesson.kind == "gemm":  # one size, no checks, one timed run
        run_args = ["--size", str(args.size), "--reps", "1", "--warmup", "1", "--no-check"]
    cmd = [tool, "--clock-control", "none", "--csv", "--metrics", ",".join(m for m, _ in metrics),
           exe, *run_args]
    print(f"== ncu on lesson {lesson.num} ({' '.join(run_args)}); the GPU's clocks are left alone",
          flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if "ERR_NVGPUCTRPERM" in p.stdout:
        print("ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM). Run it as "
              "root, or let every user profile: as root, `echo 'options nvidia "
              "NVreg_RestrictProfilingToAdminUsers=0' > /etc/modprobe.d/ncu.conf`, then reload the "
              "driver (or reboot).", file=sys.stderr)
        return 5
    rows = [l for l in p.stdout.splitlines() if l.startswith('"')]
    if p.returncode != 0 or not rows:
        print(p.stdout[-4000:], file=sys.stderr)
        return 1
    table = collections.OrderedDict()  # kernel -> {metric: [values]}
    for r in csv.DictReader(io.StringIO("\n".join(rows))):
        name = short_kernel_name(r.get("Kernel Name", "?"))
        try:
            value = float(r["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            continue
        table.setdefault(name, {}).setdefault(r["Metric Name"], []).append(value)
    print("\ncolumns (median over each kernel's launches):")
    for i, (m, what) in enumerate(metrics, 1):
        print(f"  m{i} {m}: {what}")
    heads = ["kernel"] + [f"m{i}" for i in range(1, len(metrics) + 1)]
    widths = [max([48] + [len(k) for k in table])] + [11] * len(metrics)
    print("\n" + "  ".join(h.ljust(w) for h, w in zip(heads, widths)))
    for kernel, vals in table.items():
        cells = [kernel]
        for m, _ in metrics:
            v = sorted(vals.get(m, []))
            cells.append(f"{v[len(v) // 2]:.4g}" if v else "-")
        print("  ".join(c.ljust(w) for c, w in zip(cells, widths)))
    return 0


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
        elif ch == "(" and depth == 0:
            cut = i
            break
    name = name[:cut].replace("void ", "").replace("(anonymous namespace)::", "")
    return re.sub(r"lesson\d\d::|<unnamed>::|course::", "", name).strip()


SASS_CLASSES = [
    ("FFMA", r"^FFMA\b"), ("FMUL/FADD", r"^(FMUL|FADD)\b"), ("LDG", r"^LDG\b(?!.*\.128)"),
    ("LDG.128", r"^LDG.*\.128"), ("STG", r"^STG\b"), ("LDS", r"^LDS\b(?!.*\.(64|128))"),
    ("LDS.64/128", r"^LDS.*\.(64|128)"), ("STS", r"^STS\b"), ("LDSM", r"^LDSM\b"),
    ("HMMA", r"^HMMA\b"), ("HGMMA", r"^HGMMA\b"), ("UTMALDG", r"^UTMA"), ("BAR", r"^BAR\b"),
    ("SHFL", r"^SHFL\b"), ("LDL/STL", r"^(LDL|STL)\b"),
]


def cmd_sass(args, lesson):
    tool = find_tool("cuobjdump")
    exe = program(args, lesson)
    p = subprocess.run([tool, "-sass", exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        print(p.stdout[-3000:], file=sys.stderr)
        return 1
    kernels = collections.OrderedDict()
    current = None
    for line in p.stdout.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            current = m.group(1)
            kernels[current] = collections.Counter()
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        if current and m:
            op = m.group(1)
            kernels[current]["total"] += 1
            for name, pattern in SASS_CLASSES:
                if re.match(pattern, op):
                    kernels[current][name] += 1
    demangle = shutil.which("cu++filt") or str(Path("/usr/local/cuda/bin/cu++filt"))
    names = list(kernels)
    if Path(demangle).is_file() and names:
        out = subprocess.run([demangle], input="\n".join(names), stdout=subprocess.PIPE, text=True).stdout
        pretty = dict(zip(names, out.splitlines()))
    else:
        pretty = {n: n for n in names}
    lesson_ns = f"lesson{lesson.num}"
    shown = [n for n in names if lesson_ns in pretty[n]] or names
    cols = [c for c, _ in SASS_CLASSES if any(kernels[n][c] for n in shown)]
    print(f"SASS of lesson {lesson.num}'s kernels ({Path(exe).name}): static instruction counts")
    width = max([24] + [len(short_kernel_name(pretty[n])) for n in shown]) + 2
    head = f"{'kernel':<{width}}{'total':>7}" + "".join(f"{c:>11}" for c in cols)
    print(head + "\n" + "-" * len(head))
    for n in shown:
        label = short_kernel_name(pretty[n])
        print(f"{label:<{width}}{kernels[n]['total']:>7}" + "".join(f"{kernels[n][c]:>11}" for c in cols))
    if "LDL/STL" not in cols:
        print("LDL/STL: none in any kernel (nothing spilled to local memory)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["sanitize", "profile", "sass"])
    ap.add_argument("lesson")
    ap.add_argument("--build", default="build")
    ap.add_argument("--mine", action="store_true", help="your exercise build, not the solution")
    ap.add_argument("--size", type=int, default=2048, help="profile: M = N = K")
    args = ap.parse_args()
    lesson = records.resolve(args.lesson)
    return {"sanitize": cmd_sanitize, "profile": cmd_profile, "sass": cmd_sass}[args.what](args, lesson)


if __name__ == "__main__":
    sys.exit(main())
