#!/usr/bin/env python3
"""make bench: every kernel of every lesson's reference solution, against cuBLAS, on this GPU.

For each GEMM lesson (its main.cu uses common/gemm_driver.hpp) and each size (--sizes for the FP32
lessons, --bf16-sizes for the bf16 ones, whose main.cu calls measure_bf16_kernels), runs the lesson
program with `--size S --json` (a cube) or `--m M --n N --k K --json`: the program checks every
kernel against Eigen before timing it, times it and cuBLAS in the same process (warm-up, median of
repetitions, cold L2), and prints one JSON line per kernel. Lesson 01 runs first and measures the
ceilings (copy bandwidth, cuBLAS SGEMM). Between runs the GPU rests a moment, against thermal drift.

A bf16 size is `S` (M = N = K = S) or `MxNxK`, e.g. `8192x7168x2048`. A bf16 lesson's own list is
the `bench:` line of its measurement record, lessons/NN-slug/measure.txt (e.g.
`bench: 2048 4096 8192x7168x2048`); lessons without one take --bf16-sizes' default, and
--bf16-sizes (`make bench BF16_SIZES=...`), when given, overrides every lesson's list.

Writes book/data/<gpu>.jsonl: a first line describing the run ({"meta": true, "gpu", "sm_count",
"sm_clock_mhz", "driver", "cuda", "date", "sizes", "bf16_sizes", "bf16_sizes_of"}: the default
list and each bf16 lesson's own), then every measurement line, each with "size" (S of a cube,
null otherwise), "build" ("solution", or "mine" for the learner's exercise build with --mine) and,
for the bf16 lessons, "shape" ("MxNxK"). With --mine the file goes to book/data/mine/<gpu>.jsonl
instead: yours, which git ignores and the book draws beside the reference solutions (timed in the
same run, they are in it too); the committed files are left as they are. With --lessons, the lines
of the other lessons already in the file are kept. Then, when it wrote to book/data/ (not with
--mine), it rewrites README.md's measured figures from it (book/readme.py, `make readme`).

  bench.py [--build DIR] [--sizes 1024,2048,4096] [--bf16-sizes 4096,8192x7168x2048]
           [--lessons 3,5] [--mine] [--rest 2] [--reps 10] [--out book/data]
"""

import argparse
import datetime
import json
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import course  # noqa: E402

ROOT = course.ROOT
# The bf16 sizes of a lesson whose measure.txt has no `bench:` line.
DEFAULT_BF16_SIZES = "4096,8192"
sys.path.insert(0, str(ROOT / "book"))
import readme  # noqa: E402  (README.md's measured figures, from book/data/)


def is_gemm_lesson(lesson):
    main = ROOT / "lessons" / lesson.dir / "main.cu"
    return main.is_file() and "common/gemm_driver.hpp" in main.read_text()


def is_bf16_lesson(lesson):
    main = ROOT / "lessons" / lesson.dir / "main.cu"
    return main.is_file() and "measure_bf16_kernels" in main.read_text()


def parse_sizes(text, what):
    try:
        sizes = [int(s) for s in text.split(",") if s.strip()]
        if not sizes or min(sizes) < 1:
            raise ValueError
    except ValueError:
        print(f"bench: {what} needs positive whole numbers, got '{text}'", file=sys.stderr)
        return None
    return sizes


def parse_shapes(text, what):
    """Sizes `S` (a cube) or shapes `MxNxK`, separated by commas or spaces, as (M, N, K) tuples;
    None (after saying why) when one is neither."""
    shapes = []
    for item in re.split(r"[,\s]+", text.strip()):
        if not item:
            continue
        parts = item.lower().split("x")
        try:
            dims = [int(p) for p in parts]
        except ValueError:
            dims = []
        if len(dims) not in (1, 3) or min(dims) < 1:
            print(f"bench: {what}: '{item}' is neither a size S (M = N = K) nor a shape MxNxK of "
                  f"positive whole numbers", file=sys.stderr)
            return None
        shapes.append(tuple(dims * 3) if len(dims) == 1 else tuple(dims))
    if not shapes:
        print(f"bench: {what} names no size", file=sys.stderr)
        return None
    return shapes


def shape_label(shape):
    """4096 for a cube, "8192x7168x2048" otherwise, as the command line and measure.txt write it."""
    m, n, k = shape
    return m if m == n == k else f"{m}x{n}x{k}"


def bench_shapes(lesson):
    """The `bench:` line of the lesson's measurement record (lessons/NN-slug/measure.txt), as
    shapes; None when it has none, False when the line is wrong (after saying why)."""
    path = ROOT / "lessons" / lesson.dir / "measure.txt"
    if not path.is_file():
        return None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line.startswith("#") or ":" not in line:
            continue
        key, value = (x.strip() for x in line.split(":", 1))
        if key == "bench":
            return parse_shapes(value, f"{path.relative_to(ROOT)}: bench") or False
    return None


def problem_args(shape):
    """The lesson program's options for one problem."""
    m, n, k = shape
    if m == n == k:
        return ["--size", str(m)]
    return ["--m", str(m), "--n", str(n), "--k", str(k)]


def run_json(cmd, timeout=900):
    """Runs a lesson program; returns (rc, its JSON lines, its whole output)."""
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
    except FileNotFoundError:
        return 127, [], f"{cmd[0]} not found"
    except subprocess.TimeoutExpired:
        return 124, [], f"timed out after {timeout} s"
    lines = []
    for text in p.stdout.splitlines():
        if text.startswith("{"):
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError:
                pass
    return p.returncode, lines, p.stdout


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
    ap.add_argument("--sizes", default="1024,2048,4096", help="FP32 sizes, M = N = K")
    ap.add_argument("--bf16-sizes", default=None,
                    help="bf16 sizes S (M = N = K) or shapes MxNxK, for every bf16 lesson "
                         "(default: each lesson's measure.txt 'bench:' line, else "
                         f"{DEFAULT_BF16_SIZES})")
    ap.add_argument("--lessons", default="", help="only these lessons (e.g. 3,5)")
    ap.add_argument("--mine", action="store_true",
                    help="also bench your exercise builds, into OUT/mine/ (git ignores it)")
    ap.add_argument("--rest", type=float, default=2.0, help="seconds of rest between runs")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--out", default=str(ROOT / "book" / "data"))
    args = ap.parse_args()
    build = Path(args.build).resolve()
    sizes = parse_sizes(args.sizes, "--sizes")
    given = args.bf16_sizes is not None
    bf16_sizes = parse_shapes(args.bf16_sizes if given else DEFAULT_BF16_SIZES, "--bf16-sizes")
    if sizes is None or bf16_sizes is None:
        return 2
    wanted = {course.resolve(x).num for x in args.lessons.split(",") if x.strip()}
    lessons = [l for l in course.lessons() if is_gemm_lesson(l) and (not wanted or l.num in wanted)]
    # Each bf16 lesson's shapes: the command line's, else its measure.txt's, else the default.
    bf16_of = {}
    for l in lessons:
        if is_bf16_lesson(l):
            own = None if given else bench_shapes(l)
            if own is False:
                return 2
            bf16_of[l.num] = own or bf16_sizes

    info = course.probe_gpu(build)
    if info is not None:
        print(info, file=sys.stderr)
        return 3

    # Lesson 01: the ceilings, and the description of the GPU.
    rc, ceilings, out = run_json([str(build / "bin" / "lesson01_solution"), "--json"])
    if rc != 0 or not ceilings:
        print(f"bench: lesson 01 failed (exit {rc}):\n{out}", file=sys.stderr)
        return 1
    first = ceilings[0]
    smi = tool_output(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"])
    nvcc = tool_output(["nvcc", "--version"])
    cuda = (re.search(r"release ([0-9.]+)", nvcc) or [None, "?"])[1]
    meta = {"meta": True, "gpu": first.get("gpu", "?"), "sm_count": first.get("sm_count"),
            "sm_clock_mhz": first.get("sm_clock_mhz"), "driver": smi.splitlines()[0] if smi else "?",
            "cuda": cuda, "date": datetime.date.today().isoformat(), "sizes": sizes,
            "bf16_sizes": [shape_label(s) for s in bf16_sizes],
            "bf16_sizes_of": {num: [shape_label(s) for s in shapes]
                              for num, shapes in bf16_of.items()}}
    bf16_text = "; ".join(f"lesson {num}: {', '.join(map(str, labels))}"
                          for num, labels in meta["bf16_sizes_of"].items())
    print(f"bench on {meta['gpu']}: {meta['sm_count']} SMs, {meta['sm_clock_mhz']} MHz, driver "
          f"{meta['driver']}, CUDA {cuda}; sizes {sizes}" +
          (f" (bf16: {bf16_text})" if bf16_text else ""), flush=True)
    for c in ceilings:
        print(f"  ceiling {c.get('what')}: {c.get('value', 0):.1f} {c.get('unit')} "
              f"({c.get('pct_of_peak', 0):.1f}% of the datasheet peak)", flush=True)

    builds = ["solution"] + (["mine"] if args.mine else [])
    # Problems as (M, N, K): the FP32 lessons' cubes, each bf16 lesson's shapes.
    def shapes_of(lesson):
        return bf16_of[lesson.num] if is_bf16_lesson(lesson) else [(s, s, s) for s in sizes]

    def volume(shape):
        return shape[0] * shape[1] * shape[2]

    runs = [(l, s, b) for l in lessons for s in shapes_of(l) for b in builds]
    records, failed = [dict(c, size=None, build="solution") for c in ceilings], 0
    rows = []
    for i, (lesson, shape, which) in enumerate(runs, 1):
        exe = build / "bin" / (f"lesson{lesson.num}" + ("_solution" if which == "solution" else ""))
        label = shape_label(shape)
        print(f"[{i}/{len(runs)}] lesson {lesson.num} ({which}) at "
              f"{label}{'^3' if isinstance(label, int) else ''} ...", flush=True)
        t0 = time.time()
        rc, lines, out = run_json([str(exe), *problem_args(shape), "--json",
                                   "--reps", str(args.reps)])
        if rc != 0:
            failed += 1
            print(f"    FAILED (exit {rc}):\n{out}", flush=True)
        cube = shape[0] if shape[0] == shape[1] == shape[2] else None
        for j in lines:
            # A lesson's own measurements ("what" lines) are kept from its largest problem only.
            if "what" in j and volume(shape) != max(map(volume, shapes_of(lesson))):
                continue
            extra = {"shape": "x".join(map(str, shape))} if is_bf16_lesson(lesson) else {}
            records.append(dict(j, size=cube, build=which, **extra))
            if "pct_of_cublas" in j and "what" not in j:
                rows.append((lesson.num, j["kernel"], which, label, j))
                print(f"    {j['kernel']:<34} {j['ms']:9.3f} ms {j['tflops']:7.2f} TFLOP/s "
                      f"{j['pct_of_cublas']:6.1f}% of cuBLAS  spread {100 * j.get('spread', 0):.1f}%"
                      f"{'' if j.get('passed', True) else '  CHECK FAILED'}", flush=True)
        print(f"    ({time.time() - t0:.0f} s)", flush=True)
        if i < len(runs):
            time.sleep(args.rest)

    out_dir = Path(args.out)
    # Your kernels go to a file of yours, never to the committed one of the reference solutions.
    file_dir = out_dir / "mine" if args.mine else out_dir
    file_dir.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^a-z0-9]+", "-", meta["gpu"].lower()).strip("-") or "gpu"
    path = file_dir / f"{name}.jsonl"
    if wanted and path.is_file():
        # Keep what the file already holds for the lessons not run now.
        for line in path.read_text().splitlines():
            try:
                old = json.loads(line)
            except json.JSONDecodeError:
                continue
            if old.get("meta") or old.get("lesson") in (None, "01") or old["lesson"] in wanted:
                continue
            records.append(old)
    with path.open("w") as f:
        f.write(json.dumps(meta) + "\n")
        for r in records:
            f.write(json.dumps(r) + "\n")

    # The summary: % of cuBLAS per kernel and size.
    print(f"\n% of cuBLAS on {meta['gpu']} (TFLOP/s in brackets), written to "
          f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    keys = []
    for lesson, kernel, which, _, _ in rows:
        if (lesson, kernel, which) not in keys:
            keys.append((lesson, kernel, which))
    all_shapes = sorted({shape for l in lessons for shape in shapes_of(l)},
                        key=lambda shape: (volume(shape), shape))
    all_sizes = list(dict.fromkeys(shape_label(shape) for shape in all_shapes))
    head = f"{'lesson':<7}{'kernel':<36}" + "".join(f"{str(s):>20}" for s in all_sizes)
    print(head + "\n" + "-" * len(head))
    for lesson, kernel, which in keys:
        cells = []
        for s in all_sizes:
            j = next((r[4] for r in rows if r[:4] == (lesson, kernel, which, s)), None)
            cells.append(f"{j['pct_of_cublas']:.1f}% ({j['tflops']:.2f})" if j else "-")
        label = kernel + (" [mine]" if which == "mine" else "")
        print(f"{lesson:<7}{label:<36}" + "".join(f"{c:>20}" for c in cells))

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
