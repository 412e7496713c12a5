#!/usr/bin/env python3
"""Lesson 11's planted mistakes, graded as `make grade-11` grades a learner's file: each planted
copy of the reference solution (planted.cmake) must reach its verdict with its GPU part ended
within 10 s, and the head of its diagnosis (the failing task's line, the test case, its first
failure) must name the planted mistake.

On a machine without a GPU of compute capability 9.0 it builds nothing and reports itself
skipped (exit 77): the CPU part of each plant is the grader's own [cpu] part, which `make test`
runs on the reference solution."""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "common" / "tools"))

from course import judge, records, screens  # noqa: E402
from course.util import SKIP_CODE  # noqa: E402

GPU_SECONDS = 10.0

# name -> (words the head of the diagnosis must hold, what was planted)
PLANTS = {
    "descriptor": (["task 1", "failing"], "a wrong swizzle mode in make_smem_descriptor"),
    "parity": (["task 2", "failing", "consumer_slot"], "the consumers' full-barrier parity"),
    "device_parity": (["task 2", "failing", "a wait that never ended"],
                      "the producer's empty-barrier parity, wrong on the GPU only"),
}


def gpu_cc():
    """The first GPU's compute capability as digits ("90"), or "" with no GPU."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             timeout=30).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out[0].replace(".", "") if out else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", required=True)
    args = ap.parse_args()
    build = Path(args.build)
    cc = gpu_cc()
    if not cc:
        print("skipped: no GPU here (nvidia-smi finds none)")
        return SKIP_CODE
    if cc != "90":
        print(f"skipped: the wgmma kernels need compute capability 9.0, found {cc[:-1]}.{cc[-1]}")
        return SKIP_CODE
    targets = [f"planted11_{name}" for name in PLANTS]
    jobs = str(os.cpu_count() or 2)
    built = subprocess.run(["cmake", "--build", str(build), "-j", jobs, "--target", *targets],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if built.returncode != 0:
        print(built.stdout[-4000:])
        print("the planted graders do not build")
        return 1
    lesson = records.resolve("11")
    failures = 0
    for name, (words, what) in PLANTS.items():
        binary = build / "bin" / f"planted11_{name}"
        parts, seconds = {}, {}
        for part in records.PARTS:
            start = time.monotonic()
            parts[part] = judge.run_part(build, binary, part, lesson)
            seconds[part] = time.monotonic() - start
        tasks = judge.task_results(lesson, parts, solution=True)
        result = judge.Result(lesson, judge.lesson_status(parts, tasks), parts, tasks, None)
        lines = screens.task_lines(result)
        at = next((i for i, l in enumerate(lines) if "failing" in l), 0)
        first = "\n".join(lines[at:at + 4])  # the task's line, the case, its first failure
        problems = []
        if result.status != "failing":
            problems.append(f"graded '{result.status}', not failing")
        if parts["gpu"].state not in ("failing", "crashed"):
            problems.append(f"its GPU part is '{parts['gpu'].state}', not failing")
        if seconds.get("gpu", 0) > GPU_SECONDS:
            problems.append(f"its GPU part took {seconds['gpu']:.1f} s (at most {GPU_SECONDS:g})")
        missing = [w for w in words if w not in first]
        if missing:
            problems.append(f"the head of its diagnosis lacks {missing}")
        print(f"{name} ({what}): CPU part {seconds.get('cpu', 0):.1f} s, GPU part "
              f"{seconds.get('gpu', 0):.1f} s, {'ok' if not problems else 'WRONG'}")
        print("\n".join("  | " + l for l in first.splitlines()))
        for p in problems:
            print(f"  {p}")
        failures += bool(problems)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
