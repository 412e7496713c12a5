#!/usr/bin/env python3
"""The planted mistakes (planted.cmake), graded as `make grade-N` grades a learner's code: each
copy of a reference solution with one mistake must be rejected, every part of its grader must end
within its time limit, and the first line a learner reads (the first failure of the first failing
task) should name the mistake. Writes the table of plants (--table, markdown) and prints it.

Exit 1 when a plant passed, hung or does not build, or when fewer than --require-right of the plants
run got a first line that names their mistake (0, the default: reported only). Without a GPU it
builds nothing and reports itself skipped (exit 77); a plant whose lesson needs a newer GPU than the
one present is skipped."""

import argparse
import os
import re
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "common" / "tools"))

from course import judge, records, screens, util  # noqa: E402
from course.progress import Status  # noqa: E402
from course.util import SKIP_CODE  # noqa: E402

# (lesson, name, the mistake in a learner's words, what was planted, the words the first failure
# must hold to name it). Each entry of the words is required; "a|b" is either (names_cause).
# The words are decided from the mistake, not from what the graders happen to say.
PLANTS = [
    ("03", "int_acc", "integer accumulator: every partial sum loses its fraction",
     "`int acc = 0;`", ["int|integer|fraction*|truncat*"]),
    ("04", "grid_floor", "grid rounded down: the last partial blocks are never launched",
     "`grid(N / kBlockX, M / kBlockY)`", ["grid|rounded|round up|ceil"]),
    ("05", "no_sync_after_loads", "race: no barrier between the tile stores and their reads",
     "barrier 1 removed", ["race|__syncthreads"]),
    ("05", "no_sync_before_overwrite", "race: the next tile overwrites shared memory still read",
     "barrier 2 removed", ["race|__syncthreads"]),
    ("05", "early_return", "threads outside C return before the shared-memory loads",
     "`if (row >= M || col >= N) return;` before the loads",
     ["return|stale|before the loads|before they load"]),
    ("05", "guard_off_by_one", "load guard off by one: a partial tile reads one past the edge",
     "`if (r > rows || c > cols)` in load_or_zero", ["load_or_zero|guard|>=|past the edge"]),
    ("07", "int_b", "B's value kept in an int: its fraction is lost",
     "`const int b = Bs[k][tx];` (1D tile)", ["int|integer|fraction*|truncat*"]),
    ("07", "vector_fetch_order", "float4 groups fetched column by column, on the vector path only",
     "`r = r0 + e % ROWS, c = c0 + 4 * (e / ROWS)` in fetch_tile4_inside",
     ["fetch_tile4_inside|float4|vector|128-bit"]),
    ("07", "beta_scalar_only", "beta on the scalar edge store, not on the float4 store",
     "the beta block of the float4 store removed", ["beta", "float4|vector|interior|whole tile"]),
    ("07", "vector_k_unchecked", "float4 path chosen without K % 4 == 0: misaligned rows of A",
     "`K % 4 == 0` left out of l.vec", ["K % 4|misaligned|align"]),
    ("08", "shuffle_width", "__shfl_sync without its width: every quad reads the warp's first",
     "width 4 left out of both shuffles (quad kernel)", ["width|first quad|quad 0|lanes 0"]),
    ("08", "butterfly_short", "butterfly loop stops before offset 1: half the warp summed",
     "`offset > 1` in warp_sum", ["offset 1|offset >= 1|half"]),
    ("08", "other_buffer", "reads the buffer the next tile is being written into",
     "`As[cur ^ 1]`, `Bs[cur ^ 1]` in warp_tile_multiply", ["race|buffer|cur ^ 1"]),
    ("09", "swizzle_bytes", "swizzled byte offset used as a float index",
     "`>> 2` left out of swizzled_a_index", ["byte|>> 2|/ 4"]),
    ("10", "ldmatrix_b_order", "ldmatrix.x4 registers of B handed to the wrong fragments",
     "`b[j][1] = r[2], b[j + 1][0] = r[1]`", ["ldmatrix|r[1]|r[2]|register"]),
    ("10", "serpentine_acc", "serpentine order on B but not on the accumulator",
     "`mma(acc[i][j], a[i], b[jj])`", ["jj|serpentine|accumulator"]),
    ("11", "descriptor", "wrong swizzle mode in the descriptor (64-byte)",
     "`swizzle_128b = 2`", ["swizzle"]),
    ("11", "parity", "consumers wait for the wrong parity of the full barrier",
     "consumer_slot's parity ^ 1", ["consumer_slot|full barrier", "parity"]),
    ("11", "device_parity", "producer waits for the wrong parity, on the GPU only",
     "producer_slot's parity ^ 1 under __CUDA_ARCH__",
     ["never ended|did not finish", "parity|producer_slot|empty barrier"]),
    ("11", "producer_stage_behind", "producer's stage from it - stages: negative on the first lap",
     "`(it - stages) % stages` in producer_slot", ["negative|stage -"]),
    ("11", "tx_elements", "bytes counted as bf16 elements (2 bytes each)",
     "`(block_m + block_n) * block_k` in stage_tx_bytes",
     ["stage_tx_bytes|expect_tx", "2 bytes|bf16|element|half"]),
    ("11", "arrivals_per_thread", "empty barrier counts a thread's arrival, not a warp's",
     "`consumer_warps * 32` in empty_barrier_arrivals",
     ["empty_barrier_arrivals|arrival", "warp|thread|32"]),
]


def gpu_cc():
    """The first GPU's compute capability as digits ("90"), or "" with no GPU."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             timeout=30).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out[0].replace(".", "") if out else ""


def first_failure(result):
    """(the first line a learner reads, the lines of its failure): the first failure of the first
    failing test case of the first failing task, or why a part broke."""
    task = next((t for t in result.tasks if t.status == Status.FAILING), None)
    if task is None:
        return "", []
    case = next((c for c in task.cases if c.ran and c.finished and not c.passed and not c.todo),
                None)
    fail = next((f for f in case.failures if not f.todo), None) if case else None
    if fail is None:  # a crash or a part without a report: its reason is the diagnosis
        lines = [l.strip() for l in task.detail if l.strip()]
        return (lines[0] if lines else ""), lines
    # The sentences, not the CHECK's expression (a name in it is no explanation).
    lines = [l for t in [fail.message] + fail.info for l in t.strip().splitlines() if l.strip()]
    lines = lines or fail.lines()[:1]
    # A GEMM check's report opens with its header, "FAILED <kernel> <shape>": the line after it
    # is the first that says why.
    first = lines[1] if len(lines) > 1 and lines[0].startswith("FAILED ") else lines[0]
    return first, lines


def names_cause(words, lines):
    """Whether the first lines of the failure hold every group of `words`: whole words, a
    trailing * a prefix ("fraction*"), case ignored."""
    head = "\n".join(lines[:4])

    def found(word):
        end = "" if word.endswith("*") else r"(?![A-Za-z0-9_])"
        return re.search(r"(?<![A-Za-z0-9_])" + re.escape(word.rstrip("*")) + end, head, re.I)

    return all(any(found(w) for w in group.split("|")) for group in words)


def grade(build, lesson, binary, seconds):
    """Grades a plant as `make grade-N` does; (result, seconds per part, hung)."""
    parts, took, hung = {}, {}, False
    # run_part waits for a grader as long as a learner's grade may take; a plant gets `seconds`.
    judge.run = partial(util.run, timeout=seconds)
    for part in records.PARTS:
        start = time.monotonic()
        parts[part] = judge.run_part(build, binary, part, lesson)
        took[part] = time.monotonic() - start
        hung |= f"(timed out after {seconds} s)" in parts[part].out
    tasks = judge.task_results(lesson, parts, solution=True)
    return judge.Result(lesson, judge.lesson_status(parts, tasks), parts, tasks, None), took, hung


def cell(text):
    return " ".join(text.split()).replace("|", "\\|")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", required=True, help="the configured build folder")
    ap.add_argument("--table", help="write the table of plants here (markdown)")
    ap.add_argument("--seconds", type=int, default=60,
                    help="time limit of each part of a plant's grader (default 60)")
    ap.add_argument("--require-right", type=float, default=0.0, metavar="FRACTION",
                    help="fail when a smaller fraction of the plants run names its mistake first "
                         "(default 0: reported only)")
    ap.add_argument("--only", help="lessons to run, e.g. 05,07")
    args = ap.parse_args()
    build = Path(args.build)
    cc = gpu_cc()
    if not cc:
        print("skipped: no GPU here (nvidia-smi finds none)")
        return SKIP_CODE
    plants = [p for p in PLANTS if not args.only or p[0] in args.only.split(",")]
    lessons = {num: records.find(num) for num in {p[0] for p in plants}}
    runnable = [p for p in plants if int(cc) >= int(lessons[p[0]].cc_digits)]
    if not runnable:
        print(f"skipped: every plant needs a newer GPU than compute capability {cc[:-1]}.{cc[-1]}")
        return SKIP_CODE
    targets = [f"planted{num}_{name}" for num, name, *_ in runnable]
    jobs = str(os.cpu_count() or 2)
    built = subprocess.run(["cmake", "--build", str(build), "-j", jobs, "--target", *targets],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if built.returncode != 0:
        print(built.stdout[-4000:])
        print("the planted graders do not build")
        return 1

    rows, counts = [], {"rejected": 0, "PASSED": 0, "hung": 0, "skipped": 0}
    right = 0
    for num, name, kind, what, words in plants:
        lesson = lessons[num]
        if int(cc) < int(lesson.cc_digits):
            counts["skipped"] += 1
            rows.append((f"{num} {name}", kind, f"skipped (needs {lesson.min_cc})", "", ""))
            continue
        result, took, hung = grade(build, lesson, build / "bin" / f"planted{num}_{name}",
                                   args.seconds)
        verdict = "hung" if hung else "PASSED" if result.status == Status.PASSED else "rejected"
        counts[verdict] += 1
        first, lines = first_failure(result)
        ok = verdict == "rejected" and names_cause(words, lines)
        right += ok
        rows.append((f"{num} {name}", kind, verdict, first, "yes" if ok else "no"))
        print(f"{num} {name} ({what}): {verdict}, " +
              ", ".join(f"{p} part {s:.1f} s" for p, s in took.items()
                        if result.parts[p].state != judge.PartState.NONE))
        print("\n".join("  | " + l for l in screens.task_lines(result)[:8]))
        if not ok:
            print(f"  the first failure lacks one of {words}")

    ran = len(plants) - counts["skipped"]
    table = ["| lesson | kind | verdict | first line | names the cause? |",
             "|---|---|---|---|---|"]
    table += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    summary = (f"{ran} plants: {counts['rejected']} rejected, {counts['PASSED']} passed, "
               f"{counts['hung']} hung; first line right on {right} of {ran}" +
               (f" ({counts['skipped']} skipped: their lessons need a newer GPU)"
                if counts["skipped"] else ""))
    print("\n" + "\n".join(table) + "\n\n" + summary)
    if args.table:
        Path(args.table).write_text("\n".join(table) + "\n\n" + summary + "\n")
    if counts["PASSED"] or counts["hung"]:
        return 1
    if ran and right < args.require_right * ran:
        print(f"the first line names the mistake on {right} of {ran}, fewer than "
              f"{args.require_right:.0%}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
