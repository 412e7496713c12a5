"""`make test`: the repository's own suite, as a reader follows it. First what it will do and how
long that takes; then the build, quiet (its progress, warnings and errors, not make's directory
lines); then CTest's tests; last, CTest's summary line and the next step."""

import collections
import re
import subprocess
import sys
from pathlib import Path

from .building import files_to_build, build_estimate, compile_errors, estimate_words

# make's own lines around each directory it works in: 380 of 730 lines of a first build.
DIRECTORY_LINE = re.compile(r"^g?make(\[\d+\])?: (Entering|Leaving) directory ")
# CTest's summary: "100% tests passed, 0 tests failed out of 30".
SUMMARY_LINE = re.compile(r"^\d+% tests passed, \d+ tests? failed out of \d+")


def count_tests(build):
    """How many tests `make test` runs (CTest's list, without the learner's graders), or None."""
    try:
        p = subprocess.run(["ctest", "-N", "--label-exclude", "grade"], cwd=build, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"Total Tests: (\d+)", p.stdout)
    return int(m.group(1)) if m else None


def stream(cmd, cwd, keep=None):
    """Runs `cmd`, printing each line of its output as it comes unless keep(line) is False; returns
    (exit code, every line)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace", bufsize=1)
    lines = []
    for line in p.stdout:
        line = line.rstrip("\n")
        lines.append(line)
        if keep is None or keep(line):
            print(line, flush=True)
    return p.wait(), lines


# CTest's list of the tests that did not run: "	  3 - planted.11 (Skipped)".
SKIPPED_TEST = re.compile(r"^\s*\d+ - (\S+) \(Skipped\)\s*$")
# A test's own line saying why it skipped ("SKIPPED: no CUDA device", "skipped: no GPU here").
SKIP_REASON = re.compile(r"^skipped:\s*(.*)$", re.I)
# A test's section in CTest's log: "3/30 Testing: planted.11", its output, then the next one.
LOG_TEST = re.compile(r"^\d+/\d+ Testing: (\S+)\s*$", re.M)


def skip_lines(build, skipped=None):
    """'skipped N test(s): reason', one line a reason, for the tests CTest reports as skipped (the
    names in `skipped`; None: every test whose output says SKIPPED), each counted once, with the
    reason it printed (from CTest's log of the last run)."""
    log = Path(build) / "Testing" / "Temporary" / "LastTest.log"
    try:
        text = log.read_text(errors="replace")
    except OSError:
        text = ""
    starts = list(LOG_TEST.finditer(text))
    reason_of = {}
    for i, m in enumerate(starts):
        section = text[m.end():starts[i + 1].start() if i + 1 < len(starts) else len(text)]
        found = next((r.group(1).strip() for r in map(SKIP_REASON.match, section.splitlines())
                      if r), None)
        if found is not None:
            reason_of[m.group(1)] = found or "no reason given"
    names = reason_of if skipped is None else skipped
    reasons = collections.Counter(reason_of.get(n, "no reason given") for n in names)
    return [f"skipped {n} test(s): {reason}" for reason, n in sorted(reasons.items())]


def cmd_test(args):
    build = Path(args.build)
    counts = files_to_build(build, [])
    tests = count_tests(build)
    plan = []
    if counts and sum(counts):
        plan.append(f"builds {sum(counts)} files ({estimate_words(build_estimate(*counts, args.jobs))}"
                    f" on {args.jobs} core{'s' if args.jobs > 1 else ''})")
    else:
        plan.append("builds what changed")
    plan.append(f"then runs {tests} tests" if tests else "then runs its tests")
    print(f"the course's own suite: {', '.join(plan)}; without a GPU the GPU tests are skipped, "
          f"with the reason.", flush=True)

    rc, out = stream(["cmake", "--build", str(build), "-j", str(args.jobs)], build,
                     keep=lambda l: not DIRECTORY_LINE.match(l))
    if rc != 0:
        print("\nthe course: DOES NOT COMPILE (no test was run); the first error:")
        print("\n".join("  " + l for l in compile_errors("\n".join(out))))
        return 1

    print(flush=True)
    held = []  # the summary and what CTest prints after it: shown last, the summary line at the end

    def shown_now(line):
        if held or SUMMARY_LINE.match(line):
            held.append(line)
            return False
        return True

    rc, _ = stream(["ctest", "--label-exclude", "grade", "--output-on-failure", "--no-label-summary",
                    "-j", str(args.jobs)], build, keep=shown_now)
    summary = next((l for l in held if SUMMARY_LINE.match(l)), None)
    for line in held:
        if line is not summary and line.strip():
            print(line)
    skipped = [m.group(1) for m in map(SKIPPED_TEST.match, held) if m]
    for line in skip_lines(build, skipped):
        print(line)
    if summary:
        print(summary)
    if rc == 0:
        print("The course's own suite passed. Next: make next (where you are), then make lesson-1.")
    else:
        print("Not passed: each failing test's output is above. Run one again with "
              f"ctest --test-dir {build} -R NAME --output-on-failure.")
    sys.stdout.flush()
    return 0 if rc == 0 else 1
