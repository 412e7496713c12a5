#!/usr/bin/env python3
"""make bench: every kernel of every lesson's reference solution, against cuBLAS, on this GPU.

For each GEMM lesson (its record says kind = "gemm") and each size or shape (--sizes for the FP32
lessons, --bf16-sizes for the bf16 ones, as the record's precision says; without them the record's
[measure] bench list, else 1024, 2048, 4096 for FP32 and 4096, 8192 for bf16), runs the lesson
program with `--size S --json` (or `--m --n --k` for a shape): the program checks every kernel
against Eigen before timing it, times it and cuBLAS in the same process, interleaved repetition by
repetition (common/timing.hpp: warm-up, median, cold L2, the SM clock), and prints one measurement
line per kernel (common/report.hpp, read through common/tools/course/measurements.py). That is the
burst regime. Then the lesson's headline kernel runs again at each size in the sustained regime
(`--regime sustained --headline-only`: about a second back to back of it and of cuBLAS, blocks
interleaved, with the power and the energy per GEMM). Lesson 01 runs first: it measures the
ceilings (copy bandwidth, cuBLAS SGEMM) and checks the method (`--method`: cuBLAS against itself,
in both regimes and in both orders; an interleaved ratio outside the noise band is flagged here and
in its line). Between runs the GPU rests a moment, against thermal drift.

Writes book/data/<gpu>.jsonl: a first line describing the run ({"meta": true, "gpu", "sm_count",
"sm_clock_mhz", "driver", "cuda", "date", "sizes", "bf16_sizes", "sizes_of", "dates_of": the day
each lesson's lines were measured, as --lessons keeps older ones}), then every
measurement line, each with "size" (S of a cube, null for another shape), "shape" ("MxNxK") and
"build" ("solution", or "mine" for the learner's exercise build with --mine); the first line's
"sizes_of" gives each lesson's list. With --mine the file goes to book/data/mine/<gpu>.jsonl
instead: yours, which git ignores and the book draws beside the reference solutions (timed in the
same run, they are in it too); the committed files are left as they are. With --lessons, the lines
of the other lessons already in the file are kept.

After a lesson's timings, it profiles the lesson under Nsight Compute at each size of its record's
`profile` list that the run measured (`measure.py profile N --size S --record`, what `make
profile-N SIZE=S RECORD=1` runs: the list's first size the whole ladder, the others the headline
and cuBLAS alone; with --mine, your build's, into your file), each ncu run limited to
PROFILE_TIMEOUT_S. The profile lines join the same file and replace those of their lesson and
shape; the timings never replace them. Without ncu, or where it may not read the GPU's counters,
one line says the profiles were skipped and why, and the bench goes on (a profile never fails
it); --no-profile takes none.

It also records what each chapter shows under "What it printed": the output of the reference
program run as `make lesson-N SOLUTION=1` runs it (no options), for lessons 01 and 02 after lesson
01's ceilings, and for every other lesson it runs after that lesson's timings, each as one line
{"what": "printed", "command", "text", "gpu", "date", "driver", "cuda"} (common/tools/course/
printed.py: the course's folder is taken out of the paths the program prints). A transcript is
replaced only by a new one of its lesson: those of the lessons not run now, or whose run failed,
stay. --no-printed records none, and --mine none either (the chapters show the reference
solutions'). Then, when it wrote to book/data/ (not with --mine), it rewrites README.md's measured
figures and the chapters' from it, their transcripts too (book/readme.py, `make readme`).

  bench.py [--build DIR] [--sizes 1024,2048,4096] [--bf16-sizes 4096,8192,8192x7168x2048]
           [--lessons 3,5] [--only-sizes 4096] [--mine] [--rest 2] [--reps 10]
           [--regimes burst,sustained] [--sustained-ms MS] [--no-profile] [--no-printed]
           [--out book/data]
"""

import argparse
import datetime
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure  # noqa: E402  (make profile-N: its exit codes)
from course import datafile, measurements, printed, profiles, records  # noqa: E402
from course.records import shape_value, size_args, size_value, volume  # noqa: E402
from course.util import ROOT, probe_gpu, rel, run  # noqa: E402

sys.path.insert(0, str(ROOT / "book"))
import readme  # noqa: E402  (README.md's measured figures, from book/data/)

DEFAULT_SIZES = {"fp32": ["1024", "2048", "4096"], "bf16": ["4096", "8192"]}
# The longest one ncu run of a profile may take (the whole ladder at 4096^3 takes well under it).
PROFILE_TIMEOUT_S = 300


def parse_sizes(text, what):
    """["4096", "8192x7168x2048"] of "4096,8192x7168x2048"; None (with the reason) when a size is
    neither a positive number nor a shape MxNxK."""
    sizes = [s.strip() for s in text.split(",") if s.strip()]
    bad = [s for s in sizes if records.parse_shape(s) is None]
    if not sizes or bad:
        print(f"bench: {what} needs sizes (4096) or shapes (8192x7168x2048), got '{text}'",
              file=sys.stderr)
        return None
    return sizes


def run_json(cmd, timeout=900):
    """Runs a lesson program; returns (rc, its measurement lines, its whole output). A line that
    breaks the measurement schema ends the run's lines with the reason in the output."""
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
    except FileNotFoundError:
        return 127, [], f"{cmd[0]} not found"
    except subprocess.TimeoutExpired:
        return 124, [], f"timed out after {timeout} s"
    try:
        lines = measurements.from_output(p.stdout)
    except measurements.SchemaError as e:
        return 65, [], p.stdout + f"\n(bench: a measurement line breaks the schema: {e})"
    return p.returncode, lines, p.stdout


def profile_sizes(lesson, measured):
    """[(size, headline only)] of the lesson's record's `profile` list that a run measuring the
    sizes `measured` profiles: the list's first size the whole ladder, the others the headline
    kernel and cuBLAS alone."""
    shapes = set(map(shape_value, measured))
    return [(s, i > 0) for i, s in enumerate(lesson.profile) if shape_value(s) in shapes]


def profile(build, lesson, size, headline_only, which, out_dir):
    """Profiles lesson `lesson` at `size` under Nsight Compute and records the figures in the data
    file (measure.py profile --record); says how it went in a line. None when the next profile may
    run, else why none can (no ncu, no access to the counters, no GPU): the bench goes on without
    them. A profile that fails or runs past PROFILE_TIMEOUT_S is skipped and said so."""
    what = "the ladder" if not headline_only else "the headline and cuBLAS"
    print(f"    profile at {size if 'x' in size else size + '^3'}, {what} "
          f"({which}) ...", flush=True)
    t0 = time.time()
    cmd = [sys.executable, str(Path(__file__).resolve().parent / "measure.py"), "profile",
           lesson.num, "--build", str(build), "--size", size, "--record", "--out", str(out_dir),
           "--timeout", str(PROFILE_TIMEOUT_S)]
    cmd += (["--headline-only"] if headline_only else []) + (["--mine"] if which == "mine" else [])
    # Two ncu runs at most (the ladder, then the headline's name), each with its own limit.
    rc, output = run(cmd, timeout=3 * PROFILE_TIMEOUT_S)
    said = [l.strip() for l in output.splitlines() if l.strip()]
    if rc in (measure.EXIT_NO_TOOL, measure.EXIT_NO_COUNTERS, measure.EXIT_NO_GPU):
        return said[-1] if said else f"measure.py exit {rc}"
    if rc == measure.EXIT_TIMEOUT:
        print(f"    profile skipped: {said[-1] if said else 'timed out'}", flush=True)
    elif rc != 0:
        print(f"    profile skipped, it FAILED (exit {rc}):\n" + "\n".join(said[-20:]), flush=True)
    else:
        print(f"    {said[-1] if said else 'recorded'} ({time.time() - t0:.0f} s)", flush=True)
    return None


def profile_lesson(build, lesson, measured, mine, rest, out_dir):
    """The profiles of `lesson` after its timings at the sizes `measured` (profile_sizes), of the
    reference solution or, with `mine`, of your build; None, or why no more can be taken (said in
    one line)."""
    for size, headline_only in profile_sizes(lesson, measured):
        time.sleep(rest)
        why = profile(build, lesson, size, headline_only, "mine" if mine else "solution", out_dir)
        if why:
            print(f"    profiles skipped: {why}", flush=True)
            return why
    return None


def printed_line(build, num, meta):
    """What lesson `num`'s reference program printed, run as `make lesson-N SOLUTION=1` runs it,
    as the line that records it (course/printed.py), or None when it failed (said in a line)."""
    print(f"    printed: {printed.command(num)} ...", flush=True)
    t0 = time.time()
    rc, out = printed.run(build, num)
    if rc != 0:
        said = [l for l in out.splitlines() if l.strip()]
        print(f"    printed output not recorded, the run FAILED (exit {rc}):\n"
              + "\n".join(said[-20:]), flush=True)
        return None
    try:
        line = printed.line(num, out, gpu=meta["gpu"], date=meta["date"], driver=meta["driver"],
                            cuda=meta["cuda"])
    except (printed.PrintedError, measurements.SchemaError) as e:
        print(f"    printed output not recorded: {e}", flush=True)
        return None
    print(f"    recorded ({time.time() - t0:.0f} s)", flush=True)
    return line


def tool_output(cmd):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              timeout=30).stdout.strip()
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--sizes", default="", help="FP32 sizes (M = N = K) or shapes MxNxK, for every "
                    "FP32 lesson (default: each record's bench list, else 1024,2048,4096)")
    ap.add_argument("--bf16-sizes", default="", help="the same for the bf16 lessons (default: "
                    "each record's bench list, else 4096,8192)")
    ap.add_argument("--lessons", default="", help="only these lessons (e.g. 3,5)")
    ap.add_argument("--only-sizes", default="", help="of the chosen lessons' sizes, only these "
                    "(e.g. 16384,4000): the lines of the others stay as they are")
    ap.add_argument("--mine", action="store_true",
                    help="also bench your exercise builds, into OUT/mine/ (git ignores it)")
    ap.add_argument("--rest", type=float, default=2.0, help="seconds of rest between runs")
    ap.add_argument("--reps", type=int, default=10, help="burst repetitions of each kernel")
    ap.add_argument("--regimes", default="burst,sustained",
                    help="burst (every kernel), sustained (each headline kernel), or both")
    ap.add_argument("--sustained-ms", type=int, default=None,
                    help="sustained: GPU time of each kernel and of cuBLAS, ms (default: the "
                    "programs' own, common/timing.hpp)")
    ap.add_argument("--no-profile", action="store_true",
                    help="take no profile (the records' `profile` lists): timings only")
    ap.add_argument("--no-printed", action="store_true",
                    help="record no transcript (what `make lesson-N SOLUTION=1` prints, shown "
                    "in each chapter)")
    ap.add_argument("--out", default=str(ROOT / "book" / "data"))
    args = ap.parse_args()
    build = Path(args.build).resolve()
    regimes = [r.strip() for r in args.regimes.split(",") if r.strip()]
    if not regimes or any(r not in measurements.REGIMES for r in regimes):
        print(f"bench: --regimes takes burst, sustained or both, got '{args.regimes}'",
              file=sys.stderr)
        return 2
    if args.reps < 1 or (args.sustained_ms is not None and args.sustained_ms < 1):
        print("bench: --reps and --sustained-ms need a positive whole number", file=sys.stderr)
        return 2
    given = {}
    for precision, text, what in (("fp32", args.sizes, "--sizes"),
                                  ("bf16", args.bf16_sizes, "--bf16-sizes")):
        if text:
            given[precision] = parse_sizes(text, what)
            if given[precision] is None:
                return 2
    wanted = {records.resolve(x).num for x in args.lessons.split(",") if x.strip()}
    sustained_ms = [] if args.sustained_ms is None else ["--sustained-ms", str(args.sustained_ms)]

    def sizes_of(lesson):
        return given.get(lesson.precision) or lesson.bench or DEFAULT_SIZES[lesson.precision]

    only = parse_sizes(args.only_sizes, "--only-sizes") if args.only_sizes else []
    if only is None:
        return 2

    def run_sizes(lesson):
        """The sizes measured now: the lesson's, or those of them --only-sizes names."""
        return [x for x in sizes_of(lesson) if not only or shape_value(x) in map(shape_value, only)]

    info = probe_gpu(build)
    if info is not None:
        print(info, file=sys.stderr)
        return 3

    # Lesson 01: the ceilings, the description of the GPU, and the check of the method.
    rc, ceilings, out = run_json([str(build / "bin" / "lesson01_solution"), "--json", "--method",
                                  *sustained_ms])
    if rc != 0 or not ceilings:
        print(f"bench: lesson 01 failed (exit {rc}):\n{out}", file=sys.stderr)
        return 1
    method = [c for c in ceilings if c.get("what") == "method"]
    ceilings = [c for c in ceilings if c.get("what") != "method"]
    first = ceilings[0]
    smi = tool_output(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"])
    nvcc = tool_output(["nvcc", "--version"])
    cuda = (re.search(r"release ([0-9.]+)", nvcc) or [None, "?"])[1]
    meta = {"meta": True, "gpu": first.get("gpu", "?"), "sm_count": first.get("sm_count"),
            "sm_clock_mhz": first.get("sm_clock_mhz"), "driver": smi.splitlines()[0] if smi else "?",
            "cuda": cuda, "date": datetime.date.today().isoformat(),
            "sizes": given.get("fp32", DEFAULT_SIZES["fp32"]),
            "bf16_sizes": given.get("bf16", DEFAULT_SIZES["bf16"])}
    print(f"bench on {meta['gpu']}: {meta['sm_count']} SMs, {meta['sm_clock_mhz']} MHz, driver "
          f"{meta['driver']}, CUDA {cuda}", flush=True)
    for c in ceilings:
        print(f"  ceiling {c.get('what')}: {c.get('value', 0):.1f} {c.get('unit')} "
              f"({c.get('pct_of_peak', 0):.1f}% of the datasheet peak)", flush=True)
    flagged = 0
    for m in method:
        outside = measurements.method_outside(m)
        flagged += outside
        joules = (f", B J / A J = {m['b_energy_pct_of_a']:.1f}%"
                  if m.get("b_energy_pct_of_a") is not None else "")
        print(f"  method: cuBLAS {m['precision']} {m['n']}^3 against itself, {m['regime']}, "
              f"{m['order']}: B / A = {m['b_pct_of_a']:.1f}%{joules}"
              f"{'  OUTSIDE the noise band of ' + format(m['band_pct'], 'g') + '%' if outside else ''}",
              flush=True)
    meta["method"] = measurements.METHOD
    meta["method_flags"] = flagged

    lessons = [l for l in records.lessons()
               if l.kind == "gemm" and (not wanted or l.num in wanted)]
    meta["sizes_of"] = {l.num: sizes_of(l) for l in lessons}
    # The day each lesson's lines were measured: today for these (and lesson 01's ceilings).
    meta["dates_of"] = {num: meta["date"] for num in ["01"] + [l.num for l in lessons]}
    builds = ["solution"] + (["mine"] if args.mine else [])
    runs = [(l, s, b, r) for l in lessons for r in regimes for s in run_sizes(l) for b in builds]
    stored = [dict(c, size=None, build="solution") for c in ceilings + method]
    failed = 0
    rows = []
    out_dir = Path(args.out)
    # Your kernels go to a file of yours, never to the committed one of the reference solutions.
    file_dir = datafile.data_dir(out_dir, mine=args.mine)
    path = datafile.path_of(file_dir, meta["gpu"])
    old_meta, _ = datafile.read(path)
    if wanted and old_meta:
        # The lessons not run now keep their lines, and each the date it was measured on.
        dates = old_meta.get("dates_of") or {}
        for num in {l.num for l in records.lessons()} - wanted:
            if dates.get(num) or old_meta.get("date"):
                meta["dates_of"].setdefault(num, dates.get(num) or old_meta.get("date"))
            if num in (old_meta.get("sizes_of") or {}):
                meta["sizes_of"].setdefault(num, old_meta["sizes_of"][num])

    def replaced(old):
        """Whether this run replaces a line the file holds: every line, without --lessons (but
        the profiles and the transcripts); else lesson 01's and those of the lessons run now that
        it measures (the lesson, the size, the regime) or whose size their record no longer
        lists. It keeps the others of their sizes: what --only-sizes and --regimes leave."""
        if measurements.is_printed(old):
            # A transcript is replaced by a new one of its lesson only: a lesson not run now, a
            # run that failed, --no-printed and --mine keep the one recorded before.
            return old.get("lesson") in {l["lesson"] for l in stored if measurements.is_printed(l)}
        if profiles.is_profile(old):
            # A profile is replaced by a profile of its lesson and shape (measure.py --record),
            # and dropped when its lesson, run now, no longer profiles that shape.
            lesson = records.find(str(old.get("lesson", "")))
            return lesson in lessons and old.get("shape") not in map(shape_value, lesson.profile)
        if not wanted or old.get("lesson") in (None, "01"):
            return True
        if old["lesson"] not in wanted:
            return False
        lesson = records.resolve(old["lesson"])
        measured = old.get("shape") in map(shape_value, run_sizes(lesson)) and \
            old.get("regime", "burst") in regimes
        return measured or old.get("shape") not in map(shape_value, sizes_of(lesson))

    def write():
        # After every run, so that a bench stopped half-way keeps what it measured.
        datafile.update(path, stored, replaced, meta=meta)

    # Each lesson's transcript and profiles follow its last run; a reason not to take profiles
    # ends them all.
    last_run = {lesson.num: i for i, (lesson, _, _, _) in enumerate(runs, 1)}
    no_profiles = "--no-profile" if args.no_profile else None
    # What the reference programs print, each chapter's transcript: of the committed files only.
    take_printed = not args.mine and not args.no_printed

    def record_printed(num):
        nonlocal failed
        line = printed_line(build, num, meta)
        if line is None:
            failed += 1
        else:
            stored.append(line)
            write()

    if take_printed:
        # Lessons 01 and 02 print no GEMM timings, but their chapters show what they print too.
        for num in ("01", "02"):
            print(f"lesson {num} (solution), as its chapter shows it ...", flush=True)
            record_printed(num)
            time.sleep(args.rest)

    for i, (lesson, size, which, regime) in enumerate(runs, 1):
        exe = build / "bin" / (f"lesson{lesson.num}" + ("_solution" if which == "solution" else ""))
        print(f"[{i}/{len(runs)}] lesson {lesson.num} ({which}) at "
              f"{size if 'x' in size else size + '^3'}, {regime} ...", flush=True)
        t0 = time.time()
        # Sustained: the headline alone (its check ran in the burst run of the same build).
        extra = (["--regime", "sustained", *sustained_ms, "--headline-only"]
                 if regime == "sustained" else [])
        # The lesson's sweep (its record's `sweep` size, burst): the variants its chapter compares.
        if regime == "burst" and size == lesson.sweep and not given.get(lesson.precision):
            extra = ["--sweep"]
        rc, lines, out = run_json([str(exe), *size_args(size), "--json", "--reps", str(args.reps),
                                   *extra])
        if rc != 0:
            failed += 1
            print(f"    FAILED (exit {rc}):\n{out}", flush=True)
        for j in lines:
            # A lesson's own measurements ("what" lines) are kept from its largest size only, and
            # from the burst run (a sustained run times the headline alone).
            if not measurements.is_gemm(j) and (
                    regime == "sustained" or volume(size) != max(map(volume, sizes_of(lesson)))):
                continue
            stored.append(dict(j, size=size_value(size), shape=shape_value(size), build=which))
            if measurements.is_gemm(j):
                rows.append((lesson.num, j["kernel"], which, regime, size, j))
                mhz = j.get("sm_clock_mhz")
                joules = j.get("energy_j")
                print(f"    {j['kernel']:<34} {j['ms']:9.3f} ms {j['tflops']:7.2f} TFLOP/s "
                      f"{j['pct_of_cublas']:6.1f}% of cuBLAS  spread {100 * j.get('spread', 0):.1f}%"
                      f"{f'  {mhz:.0f} MHz' if mhz else ''}"
                      f"{f'  {joules:.3f} J/GEMM' if joules else ''}"
                      f"{'' if j.get('passed', True) or regime == 'sustained' else '  CHECK FAILED'}",
                      flush=True)
        print(f"    ({time.time() - t0:.0f} s)", flush=True)
        write()
        if i == last_run[lesson.num] and take_printed:
            time.sleep(args.rest)
            record_printed(lesson.num)
        if i == last_run[lesson.num] and not no_profiles:
            no_profiles = profile_lesson(build, lesson, run_sizes(lesson), args.mine, args.rest,
                                         out_dir)
        if i < len(runs):
            time.sleep(args.rest)

    write()
    # The summary: % of cuBLAS per kernel and size.
    print(f"\n% of cuBLAS on {meta['gpu']} (TFLOP/s in brackets), written to {rel(path)}")
    keys = []
    for lesson, kernel, which, regime, _, _ in rows:
        if (lesson, kernel, which, regime) not in keys:
            keys.append((lesson, kernel, which, regime))
    all_sizes = sorted({s for l in lessons for s in sizes_of(l)}, key=volume)
    head = f"{'lesson':<7}{'kernel':<36}{'regime':<10}" + "".join(f"{s:>20}" for s in all_sizes)
    print(head + "\n" + "-" * len(head))
    for lesson, kernel, which, regime in keys:
        cells = []
        for s in all_sizes:
            j = next((r[5] for r in rows if r[:5] == (lesson, kernel, which, regime, s)), None)
            cells.append(f"{j['pct_of_cublas']:.1f}% ({j['tflops']:.2f})" if j else "-")
        label = kernel + (" [mine]" if which == "mine" else "")
        print(f"{lesson:<7}{label:<36}{regime:<10}" + "".join(f"{c:>20}" for c in cells))
    if flagged:
        print(f"\nthe method: {flagged} interleaved cuBLAS-against-cuBLAS figure(s) outside the "
              f"noise band (see lesson 01's lines above): read small differences with care")

    if not args.mine and out_dir.resolve() == (ROOT / "book" / "data").resolve():
        try:
            changed = readme.update(data=out_dir)
            print(f"\nREADME.md: its measured figures {'rewritten' if changed else 'unchanged'} "
                  f"from book/data/ (make readme)")
        except (readme.ReadmeError, readme.bookdata.DataError) as e:
            print(f"\nREADME.md not rewritten: {e}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
