"""Building: the one way every command builds before it runs anything. Nothing may run after a
failed build: build_targets() shows the compiler's first error and returns False."""

import re
import shutil
import subprocess
from pathlib import Path

from .util import paint, run


def compile_errors(out, limit=20):
    """The compiler's first error of a build log, with the lines that belong to it, then how many
    more there are."""
    noise = re.compile(r"^\s*(g?make(\[\d+\])?:|\[ *\d+%\]|-- |ninja: )|\*\*\*|Error \d+\s*$")
    lines = [l for l in out.splitlines() if not noise.search(l)]
    first = next((i for i, l in enumerate(lines) if re.search(r"\berror\b", l, re.I)), None)
    if first is None:
        return lines[-20:] or ["(the build failed without printing an error)"]
    chosen = lines[first:first + 6]
    # Stop at the next error or at the compiler's summary: the first error is what to fix first.
    for j, line in enumerate(chosen[1:], 1):
        if re.search(r"\berror\b|errors? detected|^\S.*: In function", line, re.I):
            chosen = chosen[:j]
            break
    more = sum(1 for l in lines[first + len(chosen):] if re.search(r"\berror\b", l, re.I)
               and "detected in the compilation" not in l)
    if more:
        chosen.append(f"... and {more} more error line(s): fix the first one first")
    return chosen[:limit]


def lesson_targets(lesson, solution=False, graders=True, programs=True):
    """The build targets of one lesson: its grader(s) and program(s), for the exercise or the
    reference solution."""
    out = []
    if graders:
        out.append(f"test{lesson.num}" if solution else f"grade{lesson.num}")
    if programs:
        out.append(f"lesson{lesson.num}" + ("_solution" if solution else ""))
    return out


def _to_build(build, targets):
    """(CUDA files, C++ files) a build of `targets` would compile (a dry run), or None when
    unknown."""
    gen = Path(build) / "CMakeCache.txt"
    tool = "ninja" if (Path(build) / "build.ninja").exists() else "make"
    cmd = [tool, "-C", str(build), "-n", *(targets or ["all"])]
    if not gen.exists() or not shutil.which(tool):
        return None
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           timeout=20, errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return None
    compiles = [l for l in p.stdout.splitlines()
                if " -c " in l and re.search(r"\.(cu|cpp|cc)(\.o)?\b", l) and "-o " in l]
    cuda = sum(1 for l in compiles if re.search(r"\.cu(\.o)?\b", l))
    return cuda, len(compiles) - cuda


def say_building(build, targets, jobs, what):
    """Before a build of `targets` (everything when empty) that will take more than about 2 s (a
    CUDA file, or two C++ files, on 2 cores): says so in one line, with an estimate. Nothing when
    there is nothing to compile."""
    counts = _to_build(build, targets)
    if not counts:
        return
    # Measured on 2 cores: about 5 s of one core per CUDA file of this course and 3 s per C++ file
    # (a first build: 62 CUDA and 39 C++ files in 3 minutes).
    seconds = (counts[0] * 5 + counts[1] * 3) / max(jobs, 1)
    if seconds < 2:
        return
    when = (f"about {max(5, round(seconds / 5) * 5):.0f} seconds" if seconds < 90 else
            f"about {round(seconds / 60)} minutes")
    first = (" (a first build compiles the shared harness too; later builds only what changed)"
             if sum(counts) >= 4 else "")
    print(f"building {what}: {sum(counts)} file{'s' if sum(counts) != 1 else ''} to compile, "
          f"{when} on {jobs} core{'s' if jobs > 1 else ''}{first}...", flush=True)


def build_targets(build, targets, jobs, what, quiet=False):
    """Builds `targets` (everything when empty). True when it built. While it works it says so
    (say_building(), unless quiet); when the build fails it prints '<what>: DOES NOT COMPILE' and
    the compiler's first error, and returns False: nothing may run after a failed build."""
    if not quiet:
        say_building(build, targets, jobs, what)
    ok, out = try_build(build, targets, jobs)
    if ok:
        return True
    print(f"{what}: " + paint("DOES NOT COMPILE", "red") + " (nothing was run or graded)")
    print("\n".join("  " + l for l in compile_errors(out)))
    return False


def try_build(build, targets, jobs):
    """(built, the build's output) of `targets` (everything when empty), silently: for a caller
    that shows the output itself (make watch's screen), after say_building()."""
    cmd = ["cmake", "--build", str(build), "-j", str(jobs)]
    if targets:
        cmd += ["--target", *targets]
    rc, out = run(cmd)
    return rc == 0, out
