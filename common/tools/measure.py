#!/usr/bin/env python3
"""make sanitize-N, make profile-N, make sass-N: look inside one lesson's kernels.

  measure.py sanitize N [--build DIR] [--mine]  compute-sanitizer memcheck and racecheck (and
                                                synccheck for lessons that ask for it) at a ragged
                                                size; non-zero exit on any finding
  measure.py profile N [--build DIR] [--mine] [--size S] [--headline-only] [--record]
                   [--out DIR] [--timeout SECONDS]
                                                Nsight Compute on the lesson's kernels with the
                                                metrics its optimization should move; one table.
                                                S: a size (4096) or a shape MxNxK, default the
                                                first of the record's `profile` list, else 2048;
                                                --headline-only: the headline kernel and cuBLAS
                                                alone; --record: also into book/data/<gpu>.jsonl
                                                (--mine: book/data/mine/), in place of the
                                                lesson's earlier profile at that shape
  measure.py sass N [--build DIR] [--mine]      the SASS of the lesson's kernels, summarized per
                                                kernel (FFMA, LDG/LDS widths, HMMA, HGMMA, LDL/STL…)

What to run comes from the lesson's record, lessons/NN-slug/lesson.toml (lessons/manifest.txt
describes it): its [measure] table (`ragged`, the arguments of a small ragged run, GEMM lessons
default to --m 257 --n 255 --k 300 --check-only; `sanitize`, the compute-sanitizer tools, default
memcheck and racecheck) and its [[metric]] tables (an Nsight Compute metric's `name` and what it
`shows`, in order). Whether the program is a GEMM lesson's (one size, no checks, one timed run
under the profiler) is the record's `kind`.

A profile's figures are the median of each kernel's launches, in base units (ns, bytes), the GPU's
clocks left alone; the course's helper kernels (the timing's hold) are left out, and every kernel
not in a lesson's namespace is cuBLAS's (common/tools/course/profiles.py). A recorded profile
(GEMM lessons only) is one line per kernel in the GPU's data file, written by the writer `make
bench` uses (course/datafile.py); `make readme` puts the chapter's tables together from them.

Exit codes: 0 done, 1 failed (a program not built, ncu's own error), 2 bad input (a lesson, a
size; --record or --headline-only of a lesson that is no GEMM's), 3 no GPU, 4 the tool is not
installed, 5 ncu may not read the GPU's counters, 124 ncu ran past --timeout.
"""

import argparse
import collections
import datetime
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course import datafile, measurements, profiles, records  # noqa: E402
from course.profiles import short_kernel_name  # noqa: E402
from course.util import ROOT, probe_gpu, rel  # noqa: E402

EXIT_FAILED, EXIT_USAGE, EXIT_NO_GPU, EXIT_NO_TOOL, EXIT_NO_COUNTERS, EXIT_TIMEOUT = \
    1, 2, 3, 4, 5, 124
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
    sys.exit(EXIT_NO_TOOL)


def program(args, lesson):
    exe = Path(args.build).resolve() / "bin" / (f"lesson{lesson.num}" + ("" if args.mine else "_solution"))
    if not exe.is_file():
        print(f"{exe} is not built (make lesson-{int(lesson.num)} builds it)", file=sys.stderr)
        sys.exit(EXIT_FAILED)
    return str(exe)


def need_gpu():
    reason = probe_gpu()
    if reason:
        print(reason, file=sys.stderr)
        sys.exit(EXIT_NO_GPU)


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


def run_ncu(tool, exe, run_args, metrics, timeout=None):
    """(exit code, output) of the lesson program under ncu, its GPU's clocks left alone, the
    metrics as CSV; EXIT_TIMEOUT, with the reason, when it runs past `timeout` seconds (ncu and
    the program it started are stopped)."""
    cmd = [tool, "--clock-control", "none", "--csv", "--metrics", ",".join(metrics), exe, *run_args]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace", start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return EXIT_TIMEOUT, f"ncu did not finish within {timeout:g} s"
    return p.returncode, out


def ncu_failed(rc, out):
    """The exit code for a run of ncu that gave no profile, with what it said on stderr; None
    when it gave one."""
    if rc == EXIT_TIMEOUT:
        print(out, file=sys.stderr)
        return EXIT_TIMEOUT
    if "ERR_NVGPUCTRPERM" in out:
        print("ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM). Run it as "
              "root, or let every user profile: as root, `echo 'options nvidia "
              "NVreg_RestrictProfilingToAdminUsers=0' > /etc/modprobe.d/ncu.conf`, then reload the "
              "driver (or reboot).", file=sys.stderr)
        return EXIT_NO_COUNTERS
    if rc != 0 or not profiles.parse_csv(out):
        print(out[-4000:], file=sys.stderr)
        print(f"ncu profiled no kernel of the lesson (exit {rc})", file=sys.stderr)
        return EXIT_FAILED
    return None


def cmd_profile(args, lesson):
    gemm = lesson.kind == "gemm"
    size = args.size or (lesson.profile[0] if lesson.profile else "2048")
    if records.parse_shape(size) is None:
        print(f"profile: --size takes a size (4096) or a shape MxNxK (8192x7168x2048), not "
              f"'{size}'", file=sys.stderr)
        return EXIT_USAGE
    for flag, given in (("--record", args.record), ("--headline-only", args.headline_only)):
        if given and not gemm:
            print(f"profile: {flag} is for the GEMM lessons' programs; lesson {lesson.num}'s is "
                  f"not one", file=sys.stderr)
            return EXIT_USAGE
    if args.timeout is not None and args.timeout <= 0:
        print("profile: --timeout takes a number of seconds above 0", file=sys.stderr)
        return EXIT_USAGE
    need_gpu()
    tool = find_tool("ncu")
    metrics = profiles.metrics_of(lesson)
    names = [m for m, _ in metrics]
    exe = program(args, lesson)
    run_args = list(lesson.ragged)
    if gemm:  # one size, no checks, one timed run; --json: the GPU's name, for the record
        run_args = [*records.size_args(size), "--reps", "1", "--warmup", "1", "--no-check"]
        run_args += ["--headline-only"] if args.headline_only else []
        run_args += ["--json"] if args.record else []
    print(f"== ncu on lesson {lesson.num} ({' '.join(run_args)}); the GPU's clocks are left alone",
          flush=True)
    rc, out = run_ncu(tool, exe, run_args, names, args.timeout)
    failed = ncu_failed(rc, out)
    if failed:
        return failed
    kernels = profiles.parse_csv(out)
    headline = set()
    if args.record:
        headline = {k.short for k in kernels if k.kind == profiles.COURSE}
        if not args.headline_only:
            # Which of the ladder's kernels the headline launches: a second run, of it alone.
            print("== ncu on the headline kernel alone, for its name", flush=True)
            alone = [a for a in run_args if a != "--json"] + ["--headline-only"]
            rc, said = run_ncu(tool, exe, alone, [profiles.TIME], args.timeout)
            failed = ncu_failed(rc, said)
            if failed:
                return failed
            headline = {k.short for k in profiles.parse_csv(said) if k.kind == profiles.COURSE}
    print_profile(kernels, metrics, headline)
    if not args.record:
        return 0
    try:
        said = measurements.from_output(out)
    except measurements.SchemaError as e:
        said = []
        print(f"profile: the program's measurement line breaks the schema: {e}", file=sys.stderr)
    gpu = next((l["gpu"] for l in said if l.get("gpu")), None)
    if not gpu:
        print("profile: not recorded: the lesson program printed no measurement line naming the "
              "GPU (--json)", file=sys.stderr)
        return EXIT_FAILED
    build = "mine" if args.mine else "solution"
    lines = profiles.lines_of(kernels, names, lesson=lesson.num, size=size, gpu=gpu,
                              date=datetime.date.today().isoformat(), build=build,
                              headline=headline)
    shape = records.shape_value(size)
    path = datafile.update(datafile.path_of(datafile.data_dir(args.out, mine=args.mine), gpu),
                           lines, profiles.replaced_by(lesson.num, shape))
    print(f"recorded {len(lines)} kernel(s) of lesson {lesson.num} at {shape} "
          f"({'the headline and cuBLAS' if args.headline_only else 'the ladder'}) in {rel(path)}")
    return 0


def print_profile(kernels, metrics, headline):
    """The table of a profile: a column per metric, a row per kernel (the headline's and
    cuBLAS's marked)."""
    print("\ncolumns (median over each kernel's launches):")
    for i, (m, what) in enumerate(metrics, 1):
        print(f"  m{i} {m}: {what}")

    def label(k):
        mark = " (cuBLAS)" if k.kind == profiles.BASELINE else \
            " (headline)" if k.short in headline else ""
        return k.short + mark

    heads = ["kernel"] + [f"m{i}" for i in range(1, len(metrics) + 1)]
    widths = [max([48] + [len(label(k)) for k in kernels])] + [11] * len(metrics)
    print("\n" + "  ".join(h.ljust(w) for h, w in zip(heads, widths)))
    for k in kernels:
        cells = [label(k)]
        for m, _ in metrics:
            v = k.median(m)
            cells.append("-" if v is None else f"{v:.4g}")
        print("  ".join(c.ljust(w) for c, w in zip(cells, widths)))


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
    ap.add_argument("--size", help="profile: M = N = K (4096) or a shape MxNxK (8192x7168x2048); "
                    "default the first size of the record's profile list, else 2048")
    ap.add_argument("--headline-only", action="store_true",
                    help="profile: the headline kernel and cuBLAS alone, not the whole ladder")
    ap.add_argument("--record", action="store_true",
                    help="profile: also record the figures in the GPU's data file "
                    "(OUT/<gpu>.jsonl; --mine: OUT/mine/)")
    ap.add_argument("--out", default=str(ROOT / "book" / "data"),
                    help="profile --record: the data folder (default book/data)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="profile: stop an ncu run after this many seconds (exit 124)")
    args = ap.parse_args()
    lesson = records.resolve(args.lesson)
    if args.what != "profile":
        given = [f for f, on in (("--size", args.size), ("--headline-only", args.headline_only),
                                 ("--record", args.record), ("--timeout", args.timeout)) if on]
        if given:
            print(f"{args.what}: {', '.join(given)} {'is' if len(given) == 1 else 'are'} "
                  f"profile's", file=sys.stderr)
            return EXIT_USAGE
    return {"sanitize": cmd_sanitize, "profile": cmd_profile, "sass": cmd_sass}[args.what](args, lesson)


if __name__ == "__main__":
    sys.exit(main())
