"""Building: the one way every command builds before it runs anything. Nothing may run after a
failed build: build_targets() shows the compiler's first error and returns False."""

import re
import shutil
import subprocess
from pathlib import Path

from .util import ROOT, paint, run


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


def has_quick_grader(lesson):
    """True when a save of the lesson's exercise is graded by gradeNN_quick first: a lesson with
    kernel configurations (its record's [configs]), whose tests need only the lines tagged quick on
    any GPU (CMakeLists.txt builds them)."""
    return bool(lesson.configs.list)


def lesson_targets(lesson, solution=False, graders=True, programs=True, quick=False):
    """The build targets of one lesson: its grader(s) and program(s), for the exercise or the
    reference solution; `quick`: a save's grader of the exercise (has_quick_grader())."""
    out = []
    if graders:
        out.append(f"test{lesson.num}" if solution else
                   f"grade{lesson.num}" + ("_quick" if quick else ""))
    if programs:
        out.append(f"lesson{lesson.num}" + ("_solution" if solution else ""))
    return out


def files_to_build(build, targets):
    """(CUDA files, C++ files) a build of `targets` would compile (a dry run), or None when
    unknown."""
    gen = Path(build) / "CMakeCache.txt"
    tool = "ninja" if (Path(build) / "build.ninja").exists() else "make"
    cmd = [tool, "-C", str(build), "-n", *(targets or ["all"])]
    given = None
    if tool == "ninja":
        # Ninja prints a dry run's commands only with -v. And a dry run of build.ninja stops at
        # CMake's check of its globbed directories (it would regenerate build.ninja): through a
        # manifest that only includes it, nothing regenerates, and the dry run lists the rest.
        cmd[3:3] = ["-v", "-f", "/dev/stdin"]
        given = "include build.ninja\n"
    if not gen.exists() or not shutil.which(tool):
        return None
    try:
        p = subprocess.run(cmd, input=given, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, timeout=20, errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return None
    compiles = [l for l in p.stdout.splitlines()
                if " -c " in l and re.search(r"\.(cu|cpp|cc)(\.o)?\b", l) and "-o " in l]
    cuda = sum(1 for l in compiles if re.search(r"\.cu(\.o)?\b", l))
    return cuda, len(compiles) - cuda


# Seconds of one core a file of this course takes to compile, as a first build on 2 cores measures
# (62 CUDA and 39 C++ files in 3 minutes): about 5 s a CUDA file, 3 s a C++ file.
CUDA_FILE_SECONDS, CXX_FILE_SECONDS = 5, 3
# A wait longer than this says what it builds first.
SILENT_WAIT_SECONDS = 2


def build_estimate(cuda, cxx, jobs):
    """Seconds a build that compiles `cuda` CUDA and `cxx` C++ files takes on `jobs` cores: the
    files share the cores, and no file compiles on more than one."""
    files = cuda + cxx
    if not files:
        return 0.0
    return (cuda * CUDA_FILE_SECONDS + cxx * CXX_FILE_SECONDS) / max(1, min(jobs, files))


def estimate_words(seconds):
    """An estimate as it reads: "about 5 seconds", "about 40 seconds", "about 3 minutes"."""
    if seconds < 10:
        return f"about {max(1, round(seconds))} seconds"
    if seconds < 90:
        return f"about {round(seconds, -1):.0f} seconds"
    return f"about {round(seconds / 60)} minutes"


def say_building(build, targets, jobs, what):
    """Before a build of `targets` (everything when empty) that takes longer than a moment (a save
    that recompiles one heavy file, a first build): says so in one line, with an estimate. Nothing
    when nothing needs compiling."""
    counts = files_to_build(build, targets)
    if not counts:
        return
    seconds = build_estimate(*counts, jobs)
    if seconds < SILENT_WAIT_SECONDS:
        return
    files = sum(counts)
    first = " (a first build compiles the shared harness too; later builds only what changed)" \
        if files >= 10 else ""
    print(f"building {what}: {files} file{'s' if files > 1 else ''} to compile, "
          f"{estimate_words(seconds)} on {jobs} core{'s' if jobs > 1 else ''}{first}...",
          flush=True)


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
