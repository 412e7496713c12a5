#!/usr/bin/env python3
"""The course's helper for the Makefile: lessons, hints, grading, progress, watch, reset, checks.

Reads lessons/manifest.txt (the one list of lessons). Standard library only. Every command that
builds and then runs builds first and runs nothing when the build fails (the compiler's first
error, exit 1).

  course.py list                      the lessons, in order
  course.py resolve N                 "01" for 1 or 01; the lesson list and exit 2 otherwise
  course.py hint N [--all] [--reset]  the next hint of lesson N (--all: every hint)
  course.py grade [N] [--build DIR] [--solution] [--perf]
                                      builds, then the progress table (all lessons), or the full
                                      diagnosis of one; --perf adds the performance verdict
  course.py run N [--solution] [--args '...']
                                      builds lesson N's program, then runs it
  course.py build [N] [--mine]        builds lesson N's reference program (and yours), or all
  course.py next                      the first lesson not passed yet: its chapter and exercise
  course.py watch [N] [--once] [--poll] [--build DIR] [--solution] [--perf]
                                      rebuild and grade on every save (N: only lesson N)
  course.py reset N [--force]         restore lesson N's exercise stub (asks first without --force)
  course.py check-stubs [--build DIR] every exercise stub fails its grader with NOT IMPLEMENTED
  course.py self-check [--build DIR]  on a GPU: every solution passes its grader, every untouched
                                      stub fails it with NOT IMPLEMENTED (exit 77 without a GPU)
  course.py check-repo                manifest, folders, chapters, hints, and exercise == solution
                                      outside the fill-in regions

The learner's state (lessons passed and when, hints seen) lives in .course/progress.json at the
top of the repository (ignored by git, kept by `make clean`); `reset` keeps a copy of what it
replaces under .course/backup/.
"""

import argparse
import datetime
import json
import os
import queue
import re
import shutil
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "lessons" / "manifest.txt"
STATE_DIR = ROOT / ".course"
PROGRESS = STATE_DIR / "progress.json"
BACKUPS = STATE_DIR / "backup"
SKIP_CODE = 77
BEGIN = re.compile(r"^\s*// BEGIN EXERCISE: (.+?)\s*$")
END = re.compile(r"^\s*// END EXERCISE\s*$")
SOURCE_SUFFIXES = (".cu", ".cpp", ".cc", ".c", ".cuh", ".hpp", ".h")
# What a stub does in a fill-in region it has not filled: common/todo.hpp.
TODO_CALL = re.compile(r"not_implemented\s*\(|COURSE_TODO")


class Lesson:
    """One line of lessons/manifest.txt:
    number | slug | minimum compute capability | title | hints file | solution target | learner target
    """

    def __init__(self, num, slug, min_cc, title, hints, solution_target="-", learner_target="-",
                 nfields=7):
        self.num, self.slug, self.min_cc, self.title, self.hints = num, slug, min_cc, title, hints
        self.solution_target, self.learner_target = solution_target, learner_target
        self.nfields = nfields

    @property
    def dir(self):
        return f"{self.num}-{self.slug}"

    @property
    def cc_digits(self):
        return self.min_cc.replace(".", "")

    @property
    def n(self):
        """The number as the make targets spell it: 3 for 03."""
        return int(self.num)

    @staticmethod
    def _pct(text, approx_allowed):
        """'12' -> (12.0, False); '~1' -> (1.0, True) when approx_allowed; '-' or junk -> None."""
        approx = approx_allowed and text.startswith("~")
        try:
            value = float(text[1:] if approx else text)
        except ValueError:
            return None
        return (value, approx) if value > 0 else None

    @property
    def learner_target_pct(self):
        """The learner's performance target, % of cuBLAS (`make grade PERF=1`), or None ('-')."""
        parsed = self._pct(self.learner_target, approx_allowed=False)
        return parsed[0] if parsed else None

    @property
    def solution_target_pct(self):
        """The reference solution's target, % of cuBLAS on the H100, or None ('-')."""
        parsed = self._pct(self.solution_target, approx_allowed=True)
        return parsed[0] if parsed else None

    @property
    def solution_target_approx(self):
        """True when the reference solution's target is 'about N' ('~N'), not 'at least N'."""
        parsed = self._pct(self.solution_target, approx_allowed=True)
        return bool(parsed and parsed[1])

    # The learner's target under its older names, for the grading code.
    @property
    def target(self):
        return self.learner_target

    @property
    def target_pct(self):
        return self.learner_target_pct


def lessons():
    out = []
    for line in MANIFEST.read_text().splitlines():
        if not re.match(r"^\d", line):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) not in (5, 6, 7):
            sys.exit(f"{MANIFEST}: a lesson line needs 7 fields separated by '|': {line}")
        nfields = len(fields)
        if nfields == 6:  # the older format: its 6th field was the learner's target
            fields.insert(5, "-")
        out.append(Lesson(*fields, nfields=nfields))
    return out


def lesson_table():
    rows = [f"  {l.num}  {l.slug:<16} {l.title}" for l in lessons()]
    return "lessons:\n" + "\n".join(rows)


def resolve(arg):
    for l in lessons():
        if arg.isdigit() and int(arg) == int(l.num):
            return l
    print(f"no lesson '{arg}'. Use a number from the list (1 and 01 both work):", file=sys.stderr)
    print(lesson_table(), file=sys.stderr)
    sys.exit(2)


def next_lesson(lesson):
    order = lessons()
    for i, l in enumerate(order):
        if l.num == lesson.num:
            return order[i + 1] if i + 1 < len(order) else None
    return None


def rel(path):
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def probe_gpu(build=None):
    """None when a CUDA GPU answers; otherwise a one-line reason for the tools that need one."""
    try:
        p = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=30)
    except FileNotFoundError:
        return "this needs a CUDA GPU: nvidia-smi is not installed (no NVIDIA driver here)"
    except subprocess.TimeoutExpired:
        return "this needs a CUDA GPU: nvidia-smi did not answer"
    if p.returncode != 0 or "GPU" not in p.stdout:
        first = (p.stdout.strip().splitlines() or ["no GPU listed"])[0]
        return f"this needs a CUDA GPU: nvidia-smi says: {first}"
    return None


COLORS = {"green": "32", "red": "31", "yellow": "33", "bold": "1", "dim": "2"}


def paint(text, color, stream=None):
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR") or not stream.isatty() or os.environ.get("TERM") == "dumb":
        return text
    return f"\033[{COLORS[color]}m{text}\033[0m"


# A lesson's status. "CPU part passed" is a lesson whose CPU half passed and whose GPU half could
# not run here (no GPU, or one too old): it is not passed until the GPU half runs and passes.
CPU_ONLY = "CPU part passed"
STATUS_COLOR = {"passed": "green", "failing": "red", "not started": "yellow", "skipped": "yellow",
                CPU_ONLY: "yellow", "does not compile": "red"}


def status_label(status):
    """How a status is shown in a verdict: upper case, except the CPU-only state, whose words must
    not read as PASSED."""
    return "CPU part passed; GPU part not run" if status == CPU_ONLY else status.upper()


def now():
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M")


# ---- progress: .course/progress.json ------------------------------------------------------------

STATUSES = ("passed", "failing", "not started", "skipped", CPU_ONLY)
FIELDS = {"status": str, "gpu": str, "gpu_note": str, "graded_at": str, "passed_at": str,
          "pct_of_cublas": float, "perf": str, "hints_seen": int}


class Progress:
    """The learner's state: per lesson its last status, when it first passed, its last % of
    cuBLAS and how many hints were shown. A file that cannot be read is rebuilt with a warning
    (the old one kept as progress.json.corrupt), never a crash."""

    def __init__(self, path=None):
        self.path = Path(path or PROGRESS)
        self.data = {"format": 1, "lessons": {}}
        self._load()

    def _rebuilt(self, why, keep):
        kept = ""
        if keep:
            bad = self.path.with_name(self.path.name + ".corrupt")
            try:
                shutil.copyfile(self.path, bad)
                kept = f"; the old file is kept as {rel(bad)}"
            except OSError:
                pass
        print(f"warning: {rel(self.path)} {why}: rebuilt it{kept}. `make grade` records every "
              f"lesson's status again.", file=sys.stderr)
        self.save()

    def _load(self):
        if not self.path.exists():
            return
        try:
            raw = json.loads(self.path.read_text())
        except (OSError, UnicodeDecodeError, ValueError) as e:
            self._rebuilt(f"could not be read ({type(e).__name__}: {e})", keep=True)
            return
        if not isinstance(raw, dict) or not isinstance(raw.get("lessons"), dict):
            self._rebuilt("is not a progress file (no 'lessons' object)", keep=True)
            return
        bad = 0
        for num, entry in raw["lessons"].items():
            if not (isinstance(num, str) and re.fullmatch(r"\d+", num) and isinstance(entry, dict)):
                bad += 1
                continue
            clean = {}
            for key, value in entry.items():
                want = FIELDS.get(key)
                ok = want is not None and not isinstance(value, bool)
                if ok and want is float:
                    ok = isinstance(value, (int, float))
                elif ok:
                    ok = isinstance(value, want)
                if ok and key == "status":
                    ok = value in STATUSES
                if ok and key == "hints_seen":
                    ok = value >= 0
                if ok:
                    clean[key] = value
                else:
                    bad += 1
            self.data["lessons"][num] = clean
        if bad:
            self._rebuilt(f"had {bad} unreadable entr{'y' if bad == 1 else 'ies'} (dropped)",
                          keep=True)

    def save(self):
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + f".tmp{os.getpid()}")
            tmp.write_text(json.dumps(self.data, indent=1, sort_keys=True) + "\n")
            os.replace(tmp, self.path)
        except OSError as e:
            print(f"warning: could not save {rel(self.path)}: {e}", file=sys.stderr)

    def entry(self, num):
        return self.data["lessons"].setdefault(num, {})

    def get(self, num):
        return self.data["lessons"].get(num, {})

    def record(self, lesson, result, perf=None):
        e = self.entry(lesson.num)
        t = now()
        # A machine where the GPU half cannot run does not undo a pass that ran it.
        if not (result.status in ("skipped", CPU_ONLY) and e.get("status") == "passed"):
            e["status"] = result.status
        if result.status == "passed":
            e.setdefault("passed_at", t)
        e["graded_at"] = t
        e["gpu"] = result.gpu
        if result.gpu_reason:
            e["gpu_note"] = result.gpu_reason
        else:
            e.pop("gpu_note", None)
        if result.pct is not None:
            e["pct_of_cublas"] = round(result.pct, 2)
        if perf:
            e["perf"] = perf

    def current(self):
        """The lesson to work on: the first one neither passed nor waiting only for its GPU part
        (CPU_ONLY: the learner has done what this machine can check), or None when none is left."""
        return next((l for l in lessons()
                     if self.get(l.num).get("status") not in ("passed", CPU_ONLY)), None)

    def waiting_for_gpu(self):
        """The lessons whose CPU part passed and whose GPU part has not run yet."""
        return [l for l in lessons() if self.get(l.num).get("status") == CPU_ONLY]

    def passed_count(self):
        return sum(1 for l in lessons() if self.get(l.num).get("status") == "passed")


def progress_bar(done, total, width=30):
    filled = round(width * done / total) if total else 0
    return f"[{'#' * filled}{'.' * (width - filled)}] {done} of {total} lessons passed"


# ---- hints -------------------------------------------------------------------------------------

def read_hints(lesson):
    text = (ROOT / lesson.hints).read_text()
    parts = re.split(r"^## +Hint +\d+.*$", text, flags=re.M)
    return [p.strip() for p in parts[1:] if p.strip()]


def cmd_hint(args):
    lesson = resolve(args.lesson)
    hints = read_hints(lesson) if (ROOT / lesson.hints).is_file() else []
    if not hints:
        print(f"Lesson {lesson.num} has no hints yet ({lesson.hints}).")
        return 0
    progress = Progress()
    e = progress.entry(lesson.num)
    seen = e.get("hints_seen")
    if seen is None:  # before .course/progress.json, the count lived in the build folder
        try:
            seen = int((Path(args.build) / "hints" / f"{lesson.num}.seen").read_text())
        except (OSError, ValueError):
            seen = 0
    if args.reset:
        seen = 0
    if args.all:
        print(f"Lesson {lesson.num} ({lesson.title}): all {len(hints)} hints.")
        for i, hint in enumerate(hints, 1):
            print(f"\n---- hint {i} of {len(hints)} ----\n\n{hint}")
        e["hints_seen"] = len(hints)
    else:
        shown = min(seen + 1, len(hints))
        e["hints_seen"] = shown
        print(f"Lesson {lesson.num} ({lesson.title}), hint {shown} of {len(hints)}:\n")
        print(hints[shown - 1])
        if shown < len(hints):
            print(f"\n(make hint-{lesson.n} again for the next one; make hint-{lesson.n} ALL=1 "
                  f"shows them all)")
        else:
            print(f"\n(that was the last hint; make hint-{lesson.n} RESET=1 starts over)")
    progress.save()
    return 0


# ---- building: the one way every command builds before it runs anything --------------------------

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
    """How many files a build of `targets` would compile (a dry run), or None when unknown."""
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
    return sum(1 for l in p.stdout.splitlines()
               if " -c " in l and re.search(r"\.(cu|cpp|cc)(\.o)?\b", l) and "-o " in l)


def build_targets(build, targets, jobs, what, quiet=False):
    """Builds `targets` (everything when empty). True when it built. While it works it says so
    (with an estimate when many files must compile); when the build fails it prints
    '<what>: DOES NOT COMPILE' and the compiler's first error, and returns False: nothing may run
    after a failed build."""
    count = None if quiet else _to_build(build, targets)
    if count and count >= 4:
        # About 15 s of one core per file of this course (nvcc); the shared harness is most of a
        # first build.
        minutes = max(1, round(count * 15 / max(jobs, 1) / 60))
        print(f"building {what}: {count} files to compile, about {minutes} minute"
              f"{'s' if minutes > 1 else ''} on {jobs} core{'s' if jobs > 1 else ''} (a first "
              f"build compiles the shared harness too; later builds only what changed)...",
              flush=True)
    ok, out = try_build(build, targets, jobs)
    if ok:
        return True
    print(f"{what}: " + paint("DOES NOT COMPILE", "red") + " (nothing was run or graded)")
    print("\n".join("  " + l for l in compile_errors(out)))
    return False


def try_build(build, targets, jobs):
    """(built, the build's output) of `targets` (everything when empty)."""
    cmd = ["cmake", "--build", str(build), "-j", str(jobs)]
    if targets:
        cmd += ["--target", *targets]
    rc, out = run(cmd)
    return rc == 0, out


# ---- grading -----------------------------------------------------------------------------------

def test_sources(lesson):
    d = ROOT / "tests" / lesson.dir
    return [p.read_text() for p in sorted(d.glob("*.cpp")) + sorted(d.glob("*.cu"))]


def has_tag(lesson, tag):
    return any(f"[{tag}]" in src for src in test_sources(lesson))


def run(cmd, timeout=1800):
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=timeout)
        return p.returncode, p.stdout
    except FileNotFoundError:
        return 127, f"{cmd[0]} not found: build first (make grade builds everything)"
    except PermissionError as e:
        return 126, f"{cmd[0]}: {e}"
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return 124, out + f"\n(timed out after {timeout} s)"


CASES = re.compile(r"test cases:\s*(\d+)(?:\s*\|\s*(\d+) passed)?(?:\s*\|\s*(\d+) failed)?")


def signal_name(rc):
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def grade_part(binary, tag, lesson):
    """Runs one half ([cpu] or [gpu]) of a grader; returns (state, output, reason).
    state: none (no such half), skipped, passed, not started (every failure NOT IMPLEMENTED),
    failing, or crashed (killed by a signal)."""
    if not has_tag(lesson, tag):
        return "none", "", ""
    cmd = [str(binary), f"[{tag}]"]
    if tag == "gpu":
        cmd.append(f"--gpu-min-cc={lesson.cc_digits}")
    rc, out = run(cmd)
    if rc == SKIP_CODE:
        reason = next((l[len("SKIPPED: "):] for l in out.splitlines() if l.startswith("SKIPPED: ")),
                      "skipped")
        return "skipped", out, reason
    if rc == 0:
        return "passed", out, ""
    if rc < 0:
        return "crashed", out + (f"\n*** the grader crashed: killed by {signal_name(rc)} (an "
                                 f"out-of-bounds access on the host, or an abort) ***"), ""
    m = CASES.search(out)
    passed_cases = int(m.group(2) or 0) if m else 0
    if "NOT IMPLEMENTED" in out and passed_cases == 0 and m:
        return "not started", out, ""
    return "failing", out, ""


def speed(build, lesson, solution):
    """% of cuBLAS from the lesson program's JSON lines, when it prints one."""
    exe = Path(build) / "bin" / (f"lesson{lesson.num}" + ("_solution" if solution else ""))
    rc, out = run([str(exe), "--json"], timeout=600)
    if rc != 0:
        return None
    found = []
    for line in out.splitlines():
        if line.startswith("{") and "pct_of_cublas" in line:
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    # The lesson's headline kernel when it names one, else the first kernel it measured.
    found.sort(key=lambda j: not j.get("headline", False))
    for j in found:
        if isinstance(j.get("pct_of_cublas"), (int, float)):
            return float(j["pct_of_cublas"])
    return None


class Result:
    """One lesson graded: status (passed, failing, not started, skipped), the halves, the speed."""

    def __init__(self, lesson, status, parts, pct):
        self.lesson, self.status, self.parts, self.pct = lesson, status, parts, pct

    @property
    def gpu_state(self):
        return self.parts["gpu"][0]

    @property
    def gpu(self):
        s = self.gpu_state
        return {"none": "no GPU part", "crashed": "failing", "not started": "not started",
                "skipped": "not run"}.get(s, s)

    @property
    def gpu_reason(self):
        return self.parts["gpu"][2]

    @property
    def crashed(self):
        return any(p[0] == "crashed" for p in self.parts.values())


def grade_lesson(build, lesson, solution):
    binary = Path(build) / "bin" / ((f"test{lesson.num}") if solution else f"grade{lesson.num}")
    parts = {tag: grade_part(binary, tag, lesson) for tag in ("cpu", "gpu")}
    states = [p[0] for p in parts.values() if p[0] not in ("none", "skipped")]
    if not states:
        status = "skipped"
    elif "failing" in states or "crashed" in states:
        status = "failing"
    elif "not started" in states:
        status = "not started" if "passed" not in states else "failing"
    elif parts["gpu"][0] == "skipped":
        status = CPU_ONLY  # every part that ran passed, but the GPU part did not run
    else:
        status = "passed"
    pct = None
    if status == "passed" and parts["gpu"][0] == "passed":
        pct = speed(build, lesson, solution)
    return Result(lesson, status, parts, pct)


def perf_verdict(result):
    """(verdict, explanation) against the manifest's target: met, missed, not measured or -."""
    target = result.lesson.target_pct
    if target is None:
        return "-", "no performance target for this lesson"
    if result.gpu_state != "passed" and result.status in ("passed", CPU_ONLY):
        return "not measured", f"target {target:g}% of cuBLAS; measuring it needs a GPU"
    if result.status != "passed":
        return "not measured", f"target {target:g}% of cuBLAS; the lesson must pass first"
    if result.gpu_state != "passed":
        return "not measured", f"target {target:g}% of cuBLAS; measuring it needs a GPU"
    if result.pct is None:
        return "not measured", f"target {target:g}% of cuBLAS; the lesson program printed no speed"
    verdict = "met" if result.pct >= target else "missed"
    return verdict, f"{result.pct:.1f}% of cuBLAS on this GPU, target {target:g}%"


# ---- diagnosis: the part of a grader's report worth a screen -----------------------------------

def _rule(line, ch):
    return len(line) >= 20 and set(line) == {ch}


def catch_blocks(out):
    """The failing test cases of a Catch2 console report, one text block each."""
    lines = out.splitlines()
    starts = []
    for i, line in enumerate(lines):
        if _rule(line, "."):
            j, dashes = i - 1, 0
            while j >= 0:
                if _rule(lines[j], "-"):
                    dashes += 1
                    if dashes == 2:
                        break
                j -= 1
            starts.append(max(j, 0))
    blocks = []
    for k, s in enumerate(starts):
        if k + 1 < len(starts):
            end = starts[k + 1]
        else:
            end = next((n for n in range(s + 1, len(lines)) if _rule(lines[n], "=")), len(lines))
        blocks.append(lines[s:end])
    return blocks


def todo_names(out):
    """The stubs a report says are still TODO: [(function, file)], in order."""
    flat = " ".join(out.split())
    found = []
    for name, where in re.findall(r"NOT IMPLEMENTED: (\S+) \(([^)]*)\) is still", flat):
        item = (name, where.replace(" ", ""))
        if item not in found:
            found.append(item)
    return found


def trim_block(lines, limit):
    """The first `limit` lines of a block, keeping a "likely cause" paragraph that falls later."""
    lines = [l for l in lines]
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) <= limit:
        return lines
    head = lines[:limit]
    cause = next((i for i, l in enumerate(lines) if "likely cause" in l), None)
    if cause is not None and cause >= limit:
        head += ["  ..."] + lines[cause:cause + 3]
    head.append(f"  ... ({len(lines) - len(head)} more lines)")
    return head


def diagnosis(result, limit=24):
    """A screenful on a failing or unstarted lesson: the first real failure, what is still TODO."""
    lines, blocks, todos, crashed = [], [], [], []
    for tag, (state, out, _) in result.parts.items():
        if state in ("failing", "not started", "crashed"):
            blocks += [b for b in catch_blocks(out) if "NOT IMPLEMENTED" not in "\n".join(b)]
            todos += [t for t in todo_names(out) if t not in todos]
            if state == "crashed":
                crashed.append(out.rstrip().splitlines()[-1])
            elif state == "failing" and not catch_blocks(out):
                blocks.append(out.rstrip().splitlines()[-15:])
    if blocks:
        lines += trim_block(blocks[0], limit)
        if len(blocks) > 1:
            lines.append(f"({len(blocks)} failing test cases; this is the first)")
    lines += crashed
    if todos:
        lines.append("still TODO (they throw NOT IMPLEMENTED):")
        width = max(len(name) for name, _ in todos)
        lines += [f"  {name.ljust(width)}  in {where}" for name, where in todos]
    return lines


def solution_pointers(lesson):
    """[(solution file, (chapter heading, line) or None)]: where the chapter discusses each file."""
    sol = ROOT / "solutions" / lesson.dir
    files = sorted(p.name for p in sol.iterdir() if p.suffix in SOURCE_SUFFIXES) if sol.is_dir() else []
    readme = ROOT / "lessons" / lesson.dir / "README.md"
    where, heading, fence = {}, None, False
    if readme.is_file():
        for n, line in enumerate(readme.read_text().splitlines(), 1):
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
                continue
            if fence:
                continue
            m = re.match(r"^#{1,4}\s+(.+?)\s*(\{#[^}]*\})?\s*$", line)
            if m:
                heading = (m.group(1), n)
                continue
            for path, _ in SNIPPET.findall(line):
                if path.startswith(f"solutions/{lesson.dir}/") and heading:
                    where.setdefault(path.rsplit("/", 1)[1], heading)
    return [(f"solutions/{lesson.dir}/{f}", where.get(f)) for f in files]


def solution_lines(lesson):
    chapter = f"lessons/{lesson.dir}/README.md"
    out = ["The reference solution, to compare with yours:"]
    for path, where in solution_pointers(lesson):
        if where:
            out.append(f"  {path}: the chapter discusses it in \u00a7 {where[0]} ({chapter}:{where[1]})")
        else:
            out.append(f"  {path} (the chapter: {chapter})")
    out.append(f"  diff -ru exercises/{lesson.dir} solutions/{lesson.dir}   shows where yours differs")
    return out


def next_lines(lesson, watching_all=False):
    nxt = next_lesson(lesson)
    if nxt is None:
        return ["That was the last lesson of the course."]
    then = "then save a file there: this screen grades it" if watching_all else \
        f"then make watch-{nxt.n}"
    return [f"Next: lesson {nxt.num}, {nxt.title}",
            f"  read lessons/{nxt.dir}/README.md, fill in exercises/{nxt.dir}/; {then}"]


def gpu_not_run_line(result):
    """What a CPU-only result means, in one line."""
    return (f"the GPU part did not run: {result.gpu_reason}. The lesson counts as passed once its "
            f"GPU part runs and passes on a machine with a suitable GPU.")


def cmd_grade(args):
    build = Path(args.build)
    which = "reference solutions" if args.solution else "your exercises"
    if args.lesson:
        lesson = resolve(args.lesson)
        if not args.no_build and not build_targets(
                build, lesson_targets(lesson, args.solution), args.jobs,
                f"lesson {lesson.num} ({'the reference solution' if args.solution else 'your exercise'})"):
            return 1
        result = grade_lesson(build, lesson, args.solution)
        for tag, (state, out, reason) in result.parts.items():
            if state == "none":
                continue
            print(f"==== lesson {lesson.num} [{tag}] grader: {state}" +
                  (f" ({reason})" if reason else ""))
            if state != "skipped":
                print(out.rstrip())
        print(f"\nlesson {lesson.num} {lesson.title} ({which}): "
              f"{paint(status_label(result.status), STATUS_COLOR[result.status])}")
        if result.pct is not None:
            print(f"speed: {result.pct:.1f}% of cuBLAS")
        verdict = perf_verdict(result) if args.perf else None
        if verdict:
            print(f"performance: {verdict[0]} ({verdict[1]})")
        if not args.solution:
            progress = Progress()
            progress.record(lesson, result, verdict[0] if verdict else None)
            progress.save()
        if result.status == "not started":
            print(f"The stub is untouched: open exercises/{lesson.dir}/ and look for BEGIN EXERCISE."
                  f" make hint-{lesson.n} gives a hint.")
        elif result.status == "failing":
            print(f"Read the first failure above: it says where and the likely cause. "
                  f"make hint-{lesson.n} gives a hint.")
        elif result.status == "skipped":
            print(f"Nothing of lesson {lesson.num} runs on this machine: {result.gpu_reason}.")
        elif result.status == CPU_ONLY:
            print("Not passed yet: " + gpu_not_run_line(result))
        elif result.status == "passed" and not args.solution:
            print("\n" + "\n".join(solution_lines(lesson)))
            print("\n" + "\n".join(next_lines(lesson)))
        return 0 if result.status in ("passed", "skipped", CPU_ONLY) else 1

    if not args.no_build and not build_targets(build, [], args.jobs, "the course"):
        return 1

    progress = None if args.solution else Progress()
    rows, reasons, results = [], set(), []
    for lesson in lessons():
        result = grade_lesson(build, lesson, args.solution)
        results.append(result)
        if result.gpu_reason:
            reasons.add(result.gpu_reason)
        verdict = perf_verdict(result) if args.perf else None
        if progress:
            progress.record(lesson, result, verdict[0] if verdict else None)
        passed_at = progress.get(lesson.num).get("passed_at", "-") if progress else "-"
        # The recorded status: a pass whose GPU part ran earlier stands on a machine without one.
        status = progress.get(lesson.num).get("status", result.status) if progress else \
            result.status
        row = [lesson.num, lesson.title, status, result.gpu,
               passed_at if status == "passed" else "-",
               "-" if result.pct is None else f"{result.pct:.1f}%"]
        if args.perf:
            target = lesson.target_pct
            row += ["-" if target is None else f"{target:g}%", verdict[0]]
        rows.append(row)
    if progress:
        progress.save()
    current = progress.current() if progress else None
    heads = ["lesson", "title", "status", "GPU part", "passed on", "% of cuBLAS"]
    if args.perf:
        heads += ["target", "performance"]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    print(f"Progress ({which}):")
    print("   " + "  ".join(h.ljust(w) for h, w in zip(heads, widths)).rstrip())
    print("   " + "-" * (sum(widths) + 2 * (len(widths) - 1)))
    for r in rows:
        mark = "-> " if current and r[0] == current.num and not args.solution else "   "
        cells = [c.ljust(w) for c, w in zip(r, widths)]
        cells[2] = paint(cells[2], STATUS_COLOR.get(r[2], "bold"))
        print(mark + "  ".join(cells).rstrip())
    for reason in sorted(reasons):
        print(f"\nGPU parts not run: {reason} ('{CPU_ONLY}' is not passed until they run)")
    done = sum(1 for r in rows if r[2] == "passed")
    print(f"\n{progress_bar(done, len(results))}")
    if progress:
        for line in waiting_lines(progress):
            print(line)
    if args.solution:
        pass
    elif current:
        print(f"current lesson: {current.num} {current.title} (exercises/{current.dir}/): "
              f"make next, make watch-{current.n}; make grade-{current.n} shows its diagnosis")
    elif done == len(results):
        print("Every lesson passed. Well done.")
    if args.perf:
        print("performance: % of cuBLAS on this GPU against the manifest's target; it never "
              "changes whether a lesson passes.")
    return 0


def waiting_lines(progress):
    waiting = progress.waiting_for_gpu()
    if not waiting:
        return []
    note = progress.get(waiting[0].num).get("gpu_note", "no suitable GPU here")
    return [f"Not passed yet, waiting for their GPU part ({note}): lesson"
            f"{'s' if len(waiting) > 1 else ''} {', '.join(l.num for l in waiting)} "
            f"({CPU_ONLY}; make grade on a machine with a GPU finishes them)"]


def cmd_next(_args):
    progress = Progress()
    lesson = progress.current()
    if lesson is None:
        if progress.waiting_for_gpu():
            print("Every lesson's CPU part has passed.")
            print("\n".join(waiting_lines(progress)))
        else:
            print("Every lesson passed.")
        print(progress_bar(progress.passed_count(), len(lessons())))
        return 0
    e = progress.get(lesson.num)
    status = e.get("status")
    exercise = ROOT / "exercises" / lesson.dir
    files = sorted(p.name for p in exercise.iterdir() if p.suffix in SOURCE_SUFFIXES) \
        if exercise.is_dir() else []
    print(f"Next: lesson {lesson.num}, {lesson.title}")
    print(f"  chapter:  lessons/{lesson.dir}/README.md   (in the book: book/html/lesson{lesson.num}"
          f".html, after make book)")
    for i, f in enumerate(files):
        print(f"  {'exercise:' if i == 0 else '         '} exercises/{lesson.dir}/{f}")
    if status == "skipped":
        print("  status:   skipped on this machine: its grader needs a CUDA GPU")
    elif status:
        print(f"  status:   {status} (graded {e.get('graded_at', '?')})")
    else:
        print("  status:   not graded yet")
    print(f"  then:     make watch-{lesson.n} grades it on every save; make hint-{lesson.n} gives "
          f"a hint")
    for line in waiting_lines(progress):
        print(line)
    print(progress_bar(progress.passed_count(), len(lessons())))
    return 0


def cmd_check_stubs(args):
    if not args.no_build and not build_targets(Path(args.build), [], args.jobs, "the course"):
        return 1
    bad = 0
    for lesson in lessons():
        binary = Path(args.build) / "bin" / f"grade{lesson.num}"
        checked, ok = False, True
        for tag in ("cpu", "gpu"):
            state, out, reason = grade_part(binary, tag, lesson)
            if state in ("none", "skipped"):
                continue
            checked = True
            if state != "not started":
                bad += 1
                ok = False
                print(f"lesson {lesson.num} [{tag}]: the stub should fail every test with NOT "
                      f"IMPLEMENTED, but its grader says '{state}':\n{out}")
        print(f"lesson {lesson.num}: stub " +
              ("not checked (no runnable part)" if not checked else
               "fails its grader with NOT IMPLEMENTED" if ok else "does NOT fail as a stub should"))
    return 1 if bad else 0


# ---- watch -------------------------------------------------------------------------------------

def relevant(path):
    name = os.path.basename(path)
    return (name.endswith(SOURCE_SUFFIXES) and not name.startswith((".", "#"))
            and not name.endswith("~"))


class Watcher:
    """Waits for a source file under some folders to change: inotifywait when installed (from
    inotify-tools), else polling the files' modification times."""

    def __init__(self, folders, poll=False, interval=1.0):
        self.folders = [f for f in folders if f.is_dir()]
        self.interval = interval
        self.proc = None
        self.events = queue.Queue()
        self.note = ""
        tool = None if poll else shutil.which("inotifywait")
        if tool:
            self._start_inotify(tool)
        elif not poll:
            self.note = "inotifywait is not installed (make setup installs inotify-tools)"
        if self.proc is None:
            self.how = f"polling every {interval:g} s"
            self.snap = self._snapshot()
        else:
            self.how = "inotifywait"

    def _start_inotify(self, tool):
        cmd = [tool, "-m", "-r", "-e", "close_write", "-e", "moved_to", "-e", "create",
               "-e", "delete", "--format", "%w%f"] + [str(f) for f in self.folders]
        try:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         stdin=subprocess.DEVNULL, text=True, errors="replace")
        except OSError as e:
            self.note = f"inotifywait did not start ({e})"
            return
        ready, said = threading.Event(), []

        def read_err():
            for line in self.proc.stderr:
                said.append(line.strip())
                if "Watches established" in line:
                    ready.set()
            ready.set()

        def read_out():
            for line in self.proc.stdout:
                self.events.put(line.rstrip("\n"))
            self.events.put(None)

        threading.Thread(target=read_err, daemon=True).start()
        threading.Thread(target=read_out, daemon=True).start()
        ready.wait(15)
        if self.proc.poll() is not None or not any("Watches established" in s for s in said):
            why = next((s for s in said if s and "Setting up" not in s), "no answer")
            self.note = f"inotifywait failed ({why})"
            self.close()
            self.proc = None

    def _snapshot(self):
        snap = {}
        for folder in self.folders:
            for p in folder.rglob("*"):
                if relevant(str(p)):
                    try:
                        st = p.stat()
                        snap[str(p)] = (st.st_mtime_ns, st.st_size)
                    except OSError:
                        pass
        return snap

    def changes(self):
        """Blocks until at least one source file changed; returns their paths (debounced)."""
        if self.proc is None:
            while True:
                time.sleep(self.interval)
                snap = self._snapshot()
                changed = {p for p in set(snap) | set(self.snap) if snap.get(p) != self.snap.get(p)}
                self.snap = snap
                if changed:
                    return changed
        changed = set()
        while not changed:
            try:
                path = self.events.get(timeout=0.5)
            except queue.Empty:
                continue
            if path is None:  # inotifywait ended (a watched folder removed, say): poll instead
                self.close()
                self.proc, self.how = None, f"polling every {self.interval:g} s"
                self.note = "inotifywait stopped"
                self.snap = self._snapshot()
                return self.changes()
            if relevant(path):
                changed.add(path)
        deadline = time.time() + 0.3  # an editor's save is several events
        while time.time() < deadline:
            try:
                path = self.events.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                break
            if path and relevant(path):
                changed.add(path)
        return changed

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def lesson_of(path):
    for l in lessons():
        folder = ROOT / "exercises" / l.dir
        try:
            Path(path).resolve().relative_to(folder.resolve())
            return l
        except ValueError:
            continue
    return None


def watch_screen(lesson, args, watcher):
    """Builds and grades `lesson`; returns (text lines, exit code)."""
    build = Path(args.build)
    who = "the reference solution" if args.solution else "your exercise"
    code = f"solution: solutions/{lesson.dir}/" if args.solution else \
        f"exercise: exercises/{lesson.dir}/"
    out = [paint(f"lesson {lesson.num} \u00b7 {lesson.title}", "bold") + f"   ({who})",
           f"{code}   chapter: lessons/{lesson.dir}/README.md", ""]
    built, log = (True, "") if args.no_build else \
        try_build(build, lesson_targets(lesson, args.solution), args.jobs)
    progress = None if args.solution else Progress()
    rc = 1
    if not built:
        out.append("status: " + paint("DOES NOT COMPILE", "red"))
        out += [""] + ["  " + l for l in compile_errors(log)]
    else:
        result = grade_lesson(build, lesson, args.solution)
        verdict = perf_verdict(result) if args.perf else None
        if progress:
            progress.record(lesson, result, verdict[0] if verdict else None)
            progress.save()
        status = result.status
        halves = ", ".join(f"{tag.upper()} part {state}" for tag, (state, _, _) in
                           result.parts.items() if state != "none")
        out.append("status: " + paint(status_label(status), STATUS_COLOR[status]) + f"   ({halves})")
        if status == CPU_ONLY:
            out.append("        not passed yet: " + gpu_not_run_line(result))
        elif result.gpu_state == "skipped":
            out.append(f"        the GPU part did not run: {result.gpu_reason}")
        rc = 0 if status in ("passed", "skipped", CPU_ONLY) else 1
        if status in ("failing", "not started"):
            out += [""] + ["  " + l for l in diagnosis(result)]
            seen = progress.get(lesson.num).get("hints_seen", 0) if progress else 0
            total = len(read_hints(lesson)) if (ROOT / lesson.hints).is_file() else 0
            out += ["", f"make hint-{lesson.n} gives a hint ({seen} of {total} seen); "
                        f"make grade-{lesson.n} shows the whole report."]
        elif status == "skipped":
            out += ["", ("N" if args.no_build else "It compiles, but n") +
                    f"othing of lesson {lesson.num} can be graded on this machine."]
        elif status == CPU_ONLY:
            out.append("")
            out += next_lines(lesson, watching_all=watcher is not None and not args.lesson)
        else:
            if result.pct is not None:
                out.append(f"speed:  {result.pct:.1f}% of cuBLAS on this GPU")
            if verdict:
                out.append(f"performance: {verdict[0]} ({verdict[1]})")
            out.append("")
            if not args.solution:
                out += solution_lines(lesson) + [""]
            out += next_lines(lesson, watching_all=watcher is not None and not args.lesson)
    if progress:
        out += ["", progress_bar(progress.passed_count(), len(lessons()))]
    return out, rc


def cmd_watch(args):
    fixed = resolve(args.lesson) if args.lesson else None
    lesson = fixed or Progress().current() or lessons()[-1]
    folders = [ROOT / "exercises" / lesson.dir] if fixed else \
        [ROOT / "exercises" / l.dir for l in lessons()]
    clear = sys.stdout.isatty() and not args.once and os.environ.get("TERM") != "dumb"

    def on_term(*_):
        raise KeyboardInterrupt

    # Ctrl-C (SIGINT) and SIGTERM leave cleanly; SIGINT even when the shell that started us
    # ignores it (a script's background job), so that a script can stop the watch as a learner would.
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    watcher = None
    try:
        if not args.once:
            watcher = Watcher(folders, poll=args.poll, interval=args.interval)
        rounds, rc = 0, 0
        while True:
            lines, rc = watch_screen(lesson, args, watcher)
            rounds += 1
            if watcher:
                where = f"exercises/{lesson.dir}/" if fixed else "exercises/"
                lines += ["", paint(f"{time.strftime('%H:%M:%S')}  watching {where} ({watcher.how}"
                                    f"{'; ' + watcher.note if watcher.note else ''}); "
                                    f"{'a save there grades it again' if fixed else 'a save grades its lesson'}"
                                    f". Ctrl-C stops.",
                                    "dim")]
            if clear:
                sys.stdout.write("\033[2J\033[H")
            print("\n".join(lines), flush=True)
            if args.once or (args.rounds and rounds >= args.rounds):
                return rc
            changed = watcher.changes()
            if not fixed:
                newest = max(changed, key=lambda p: os.path.getmtime(p) if os.path.exists(p) else 0)
                lesson = lesson_of(newest) or lesson
            if not clear:
                print("\n" + "=" * 78, flush=True)
    except KeyboardInterrupt:
        print("\nwatch: stopped.", flush=True)
        return 0
    finally:
        if watcher:
            watcher.close()


def cmd_run(args):
    """make lesson-N: builds lesson N's program and runs it with the learner's options; nothing
    runs when the build fails."""
    lesson = resolve(args.lesson)
    build = Path(args.build)
    target = lesson_targets(lesson, args.solution, graders=False)[0]
    if not build_targets(build, [target], args.jobs, f"lesson {lesson.num}'s program"):
        return 1
    try:
        extra = shlex.split(args.args or "")
    except ValueError as e:
        print(f"make lesson-{lesson.n}: ARGS cannot be read ({e})", file=sys.stderr)
        return 2
    print(f"== {target} {' '.join(extra)}".rstrip(), flush=True)
    try:
        return subprocess.run([str(build / "bin" / target), *extra], cwd=build).returncode
    except KeyboardInterrupt:
        return 130


def cmd_build(args):
    """Builds what a command needs before it runs (make bench, profile-N, sanitize-N, sass-N):
    lesson N's reference program, and with --mine the learner's too; everything without N."""
    build = Path(args.build)
    if not args.lesson:
        return 0 if build_targets(build, [], args.jobs, "the course") else 1
    lesson = resolve(args.lesson)
    targets = lesson_targets(lesson, True, graders=False)
    if args.mine:
        targets += lesson_targets(lesson, False, graders=False)
    return 0 if build_targets(build, targets, args.jobs, f"lesson {lesson.num}") else 1


# ---- reset: the stub as the course shipped it ---------------------------------------------------

class GitError(Exception):
    pass


def git(args, text=True):
    try:
        p = subprocess.run(["git", *args], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=text)
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    return p.returncode, p.stdout


def region_texts(text):
    """The insides of the fill-in regions of one source text."""
    inside, cur, out = False, [], []
    for line in text.splitlines():
        if BEGIN.match(line):
            inside, cur = True, []
        elif END.match(line) and inside:
            inside = False
            out.append("\n".join(cur))
        elif inside:
            cur.append(line)
    return out


def looks_like_stub(files):
    """A version of an exercise folder is a stub when a fill-in region still throws NOT IMPLEMENTED
    (or has no regions at all: a placeholder)."""
    regions = [r for name, data in files.items() if name.endswith(SOURCE_SUFFIXES)
               for r in region_texts(data.decode(errors="replace"))]
    return not regions or any(TODO_CALL.search(r) for r in regions)


def course_base():
    """The commit holding the course's own version of the files, and how it was chosen: where the
    checkout follows a remote branch (a clone), the newest commit of the course that the checkout
    contains (git merge-base HEAD upstream): the learner's own commits are never in it. Otherwise
    HEAD."""
    rc, _ = git(["rev-parse", "--is-inside-work-tree"])
    if rc != 0:
        raise GitError("this folder is not a git checkout")
    rc, head = git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])
    if rc != 0:
        raise GitError("this checkout has no commit")
    for ref in ("@{upstream}", "origin/HEAD", "origin/main", "origin/master"):
        rc, sha = git(["rev-parse", "--verify", "--quiet", ref + "^{commit}"])
        if rc != 0:
            continue
        rc, base = git(["merge-base", "HEAD", sha.strip()])
        if rc == 0 and base.strip():
            name = ref
            if ref == "@{upstream}":
                rc, n = git(["rev-parse", "--abbrev-ref", ref])
                name = n.strip() if rc == 0 else ref
            if base.strip() == sha.strip():
                return base.strip(), f"the course's {name}"
            # The checkout has not taken the newest commits of the course: name the commit it has.
            return base.strip(), f"the newest commit of the course's {name} in this checkout"
    return head.strip(), "HEAD"


def folder_at(commit, folder):
    rc, names = git(["ls-tree", "-r", "--name-only", commit, "--", folder + "/"])
    if rc != 0:
        raise GitError(f"git ls-tree {commit} failed")
    files = {}
    for name in names.splitlines():
        rc, data = git(["show", f"{commit}:./{name}"], text=False)
        if rc == 0:
            files[name[len(folder) + 1:]] = data
    return files


def pristine(lesson):
    """(commit, how chosen, {file name: bytes}) of lesson's exercise stub, as the course shipped it:
    among the course's commits (course_base) that touched exercises/NN-slug/, the newest whose
    version is still a stub. Raises GitError when git cannot say."""
    folder = f"exercises/{lesson.dir}"
    base, how = course_base()
    rc, log = git(["log", "--format=%H", base, "--", folder + "/"])
    commits = log.split() if rc == 0 else []
    if not commits:
        raise GitError(f"{folder}/ is not in the git history of {how}")
    for c in commits:
        files = folder_at(c, folder)
        if files and looks_like_stub(files):
            return c, how, files
    return commits[-1], how, folder_at(commits[-1], folder)


def working_files(folder):
    out = {}
    if folder.is_dir():
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                out[p.relative_to(folder).as_posix()] = p
    return out


def stub_changes(lesson, files):
    """The files that differ from the stub: (changed or missing, extra source files)."""
    folder = ROOT / "exercises" / lesson.dir
    have = working_files(folder)
    changed = [n for n, data in files.items()
               if n not in have or have[n].read_bytes() != data]
    extra = [n for n in have if n not in files and relevant(n)]
    return changed, extra


def cmd_reset(args):
    lesson = resolve(args.lesson)
    folder = ROOT / "exercises" / lesson.dir
    try:
        commit, how, files = pristine(lesson)
    except GitError as e:
        print(f"make reset-{lesson.n}: cannot find the original stub: {e}. The stub comes from git "
              f"(the course's own commits); in a copy without git, download the course again.",
              file=sys.stderr)
        return 1
    changed, extra = stub_changes(lesson, files)
    source = f"commit {commit[:10]} ({how})"
    if not changed and not extra:
        print(f"exercises/{lesson.dir}/ is already the original stub ({source}): nothing to reset.")
        return 0
    print(f"make reset-{lesson.n} restores exercises/{lesson.dir}/ as the course ships it "
          f"({source}). It discards:")
    for n in changed:
        print(f"  your changes to exercises/{lesson.dir}/{n}")
    for n in extra:
        print(f"  exercises/{lesson.dir}/{n} (a file the stub does not have)")
    sys.stdout.flush()
    if not args.force:
        if not sys.stdin.isatty():
            print(f"It asks before discarding your work, and there is no terminal to ask on. "
                  f"make reset-{lesson.n} FORCE=1 resets without asking.", file=sys.stderr)
            return 1
        try:
            answer = input("Discard them? A copy is kept under .course/backup/. [y/N] ")
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing changed.")
            return 1
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    backup = BACKUPS / f"{lesson.dir}-{stamp}"
    have = working_files(folder)
    for n in changed + extra:
        if n in have:
            dest = backup / n
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(have[n], dest)
    for n in changed:
        dest = folder / n
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(files[n])
    for n in extra:
        have[n].unlink()
    progress = Progress()
    e = progress.entry(lesson.num)
    if e.get("status"):
        e["status"] = "not started"
    progress.save()
    print(f"Restored exercises/{lesson.dir}/ from {source}.")
    if backup.exists():
        print(f"Your version is kept in {rel(backup)}/.")
    return 0


def exercise_untouched(lesson):
    """(True, "") when exercises/NN-slug/ is the course's stub; (False, why) otherwise."""
    try:
        commit, how, files = pristine(lesson)
    except GitError as e:
        return False, str(e)
    changed, extra = stub_changes(lesson, files)
    if changed or extra:
        return False, (f"exercises/{lesson.dir}/ differs from the stub of commit {commit[:10]} "
                       f"({how}): it holds work, so its grader may well pass")
    return True, ""


def cmd_self_check(args):
    """On a GPU: every solution passes its grader; every untouched stub fails it with NOT
    IMPLEMENTED, not a crash. Exit 77 (skipped) without a usable GPU."""
    build = Path(args.build)
    if not args.no_build and not build_targets(build, [], args.jobs, "the course"):
        return 1
    order = lessons()
    probe = next((l for l in order if has_tag(l, "gpu")), None)
    if probe is None:
        print("SKIPPED: no lesson has a GPU part")
        return SKIP_CODE
    rc, out = run([str(build / "bin" / f"test{probe.num}"), "[course-probe]",
                   f"--gpu-min-cc={probe.cc_digits}"], timeout=120)
    if rc == SKIP_CODE:
        reason = next((l[len("SKIPPED: "):] for l in out.splitlines() if l.startswith("SKIPPED: ")),
                      "no usable GPU")
        print(f"SKIPPED: {reason}")
        return SKIP_CODE
    problems, notes = [], []
    for lesson in order:
        sol_states, stub_states = [], []
        for tag in ("cpu", "gpu"):
            state, out, reason = grade_part(build / "bin" / f"test{lesson.num}", tag, lesson)
            if state == "none":
                continue
            sol_states.append(f"{tag} {state}")
            if state not in ("passed", "skipped"):
                problems.append(f"lesson {lesson.num} [{tag}]: the reference solution should pass "
                                f"its grader, which says '{state}':\n{out.rstrip()}")
        untouched, why = exercise_untouched(lesson)
        if not untouched:
            notes.append(f"lesson {lesson.num}: stub not checked: {why}")
        else:
            for tag in ("cpu", "gpu"):
                state, out, reason = grade_part(build / "bin" / f"grade{lesson.num}", tag, lesson)
                if state == "none":
                    continue
                stub_states.append(f"{tag} {state}")
                if state not in ("not started", "skipped"):
                    what = "crashed" if state == "crashed" else f"says '{state}'"
                    problems.append(f"lesson {lesson.num} [{tag}]: the untouched stub should fail "
                                    f"every test with NOT IMPLEMENTED, but its grader {what}:\n"
                                    f"{out.rstrip()[-3000:]}")
        print(f"lesson {lesson.num}: solution [{', '.join(sol_states) or 'nothing to run'}]; stub ["
              f"{', '.join(stub_states) if untouched else 'not checked'}]")
    for n in notes:
        print(n)
    for p in problems:
        print(p)
    print(f"self-check: {len(order)} lessons, " +
          ("all as they should be" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


# ---- repository checks -------------------------------------------------------------------------

def split_regions(path):
    """The text outside the fill-in regions, and the region names, of one source file."""
    outside, names, inside = [], [], False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if BEGIN.match(line):
            if inside:
                raise ValueError(f"{path}:{n}: BEGIN EXERCISE inside another region")
            inside = True
            names.append(BEGIN.match(line).group(1))
            outside.append(line)
        elif END.match(line):
            if not inside:
                raise ValueError(f"{path}:{n}: END EXERCISE without BEGIN")
            inside = False
            outside.append(line)
        elif not inside:
            outside.append(line)
    if inside:
        raise ValueError(f"{path}: BEGIN EXERCISE without END")
    return outside, names


SNIPPET = re.compile(r"\\snippet\s+(\S+)\s+(\S+)")


def check_snippets(page):
    """Every \\snippet of a chapter names a file from the top folder with exactly one pair of
    //! [name] markers around non-empty code."""
    problems = []
    for path, name in SNIPPET.findall(page.read_text()):
        src = ROOT / path
        where = f"{page.relative_to(ROOT)}: \\snippet {path} {name}"
        if not src.is_file():
            problems.append(f"{where}: no such file (paths start at the top folder)")
            continue
        lines = src.read_text().splitlines()
        marks = [i for i, l in enumerate(lines) if l.strip() == f"//! [{name}]"]
        if len(marks) != 2:
            problems.append(f"{where}: {len(marks)} '//! [{name}]' markers, expected 2")
        elif not any(l.strip() for l in lines[marks[0] + 1:marks[1]]):
            problems.append(f"{where}: the snippet is empty")
    return problems


def cmd_check_repo(_args):
    problems = []
    seen = set()
    for lesson in lessons():
        if lesson.num in seen:
            problems.append(f"manifest: lesson {lesson.num} listed twice")
        seen.add(lesson.num)
        if lesson.nfields != 7:
            problems.append(f"manifest: lesson {lesson.num} has {lesson.nfields} fields, not 7: "
                            f"... | hints file | solution target | learner target (each % of "
                            f"cuBLAS, or '-')")
        else:
            if lesson.solution_target != "-" and lesson.solution_target_pct is None:
                problems.append(f"manifest: lesson {lesson.num}: the solution target "
                                f"'{lesson.solution_target}' is neither a positive number (at least "
                                f"that % of cuBLAS), '~' and one (about that %), nor '-'")
            if lesson.learner_target != "-" and lesson.learner_target_pct is None:
                problems.append(f"manifest: lesson {lesson.num}: the learner target "
                                f"'{lesson.learner_target}' is neither a positive number (% of "
                                f"cuBLAS) nor '-'")
            if (lesson.learner_target_pct and lesson.solution_target_pct
                    and lesson.learner_target_pct > lesson.solution_target_pct):
                problems.append(f"manifest: lesson {lesson.num}: the learner target "
                                f"{lesson.learner_target}% is above the solution target "
                                f"{lesson.solution_target}%")
        for top in ("lessons", "exercises", "solutions", "tests"):
            if not (ROOT / top / lesson.dir).is_dir():
                problems.append(f"lesson {lesson.num}: missing folder {top}/{lesson.dir}")
        for f in (f"lessons/{lesson.dir}/main.cu", f"lessons/{lesson.dir}/README.md", lesson.hints):
            if not (ROOT / f).is_file():
                problems.append(f"lesson {lesson.num}: missing {f}")
        readme = ROOT / "lessons" / lesson.dir / "README.md"
        if readme.is_file() and f"{{#lesson{lesson.num}}}" not in (readme.read_text().splitlines()
                                                                    or [""])[0]:
            problems.append(f"{readme.relative_to(ROOT)}: the first line must end with "
                            f"{{#lesson{lesson.num}}} (the chapter's anchor)")
        if readme.is_file():
            problems += check_snippets(readme)
        if (ROOT / lesson.hints).is_file():
            count = len(read_hints(lesson))
            if count < 2:
                problems.append(f"{lesson.hints}: {count} hint(s); a lesson needs at least two "
                                f"('## Hint 1', '## Hint 2', ...)")
        ex, sol = ROOT / "exercises" / lesson.dir, ROOT / "solutions" / lesson.dir
        if not (ex.is_dir() and sol.is_dir()):
            continue
        names = lambda d: sorted(p.name for p in d.iterdir() if p.suffix in (".cu", ".cpp", ".hpp", ".cuh"))
        if names(ex) != names(sol):
            problems.append(f"lesson {lesson.num}: exercise files {names(ex)} != solution files {names(sol)}")
            continue
        regions = 0
        for name in names(ex):
            try:
                ex_out, ex_names = split_regions(ex / name)
                sol_out, sol_names = split_regions(sol / name)
            except ValueError as e:
                problems.append(str(e))
                continue
            regions += len(ex_names)
            if ex_names != sol_names:
                problems.append(f"{name} (lesson {lesson.num}): exercise regions {ex_names} != "
                                f"solution regions {sol_names}")
            elif ex_out != sol_out:
                for n, (a, b) in enumerate(zip(ex_out, sol_out)):
                    if a != b:
                        break
                else:
                    n = min(len(ex_out), len(sol_out))
                problems.append(f"{name} (lesson {lesson.num}): exercise and solution differ outside "
                                f"the fill-in regions, at the {n + 1}th line outside them:\n"
                                f"    exercise: {ex_out[n] if n < len(ex_out) else '<end>'}\n"
                                f"    solution: {sol_out[n] if n < len(sol_out) else '<end>'}")
            if "TODO" not in (ex / name).read_text() and ex_names:
                problems.append(f"exercises/{lesson.dir}/{name}: fill-in regions without a TODO")
        if regions == 0:
            problems.append(f"lesson {lesson.num}: no '// BEGIN EXERCISE:' region in exercises/{lesson.dir}")
    for p in problems:
        print(p)
    print(f"check-repo: {len(lessons())} lessons, " +
          ("all consistent" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


def main():
    try:
        sys.stdout.reconfigure(errors="replace")
        sys.stderr.reconfigure(errors="replace")
    except AttributeError:
        pass
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    r = sub.add_parser("resolve")
    r.add_argument("lesson")
    h = sub.add_parser("hint")
    h.add_argument("lesson")
    h.add_argument("--build", default="build")
    h.add_argument("--reset", action="store_true", help="start over from hint 1")
    h.add_argument("--all", action="store_true", help="show every hint")
    jobs = os.cpu_count() or 2
    g = sub.add_parser("grade")
    g.add_argument("lesson", nargs="?")
    g.add_argument("--build", default="build")
    g.add_argument("--solution", action="store_true", help="grade the reference solutions")
    g.add_argument("--perf", action="store_true", help="the performance verdict against the target")
    g.add_argument("--no-build", action="store_true", help="grade what is built (for tests)")
    g.add_argument("--jobs", type=int, default=jobs)
    r = sub.add_parser("run")
    r.add_argument("lesson")
    r.add_argument("--build", default="build")
    r.add_argument("--solution", action="store_true", help="run the reference solution's program")
    r.add_argument("--args", default="", help="the program's options, as one string")
    r.add_argument("--jobs", type=int, default=jobs)
    b = sub.add_parser("build")
    b.add_argument("lesson", nargs="?")
    b.add_argument("--build", default="build")
    b.add_argument("--mine", action="store_true", help="your program too")
    b.add_argument("--jobs", type=int, default=jobs)
    sub.add_parser("next")
    w = sub.add_parser("watch")
    w.add_argument("lesson", nargs="?", help="only this lesson (default: the current one, then "
                   "whichever lesson's exercise is saved)")
    w.add_argument("--build", default="build")
    w.add_argument("--solution", action="store_true", help="build and grade the reference solution")
    w.add_argument("--perf", action="store_true", help="the performance verdict against the target")
    w.add_argument("--once", action="store_true", help="build and grade once, print the screen, exit "
                   "(0 passed or skipped, 1 otherwise)")
    w.add_argument("--poll", action="store_true", help="poll modification times, even with inotifywait")
    w.add_argument("--interval", type=float, default=1.0, help="seconds between polls")
    w.add_argument("--no-build", action="store_true", help="grade what is built (for tests)")
    w.add_argument("--rounds", type=int, default=0, help="stop after this many gradings (for tests)")
    w.add_argument("--jobs", type=int, default=jobs)
    rs = sub.add_parser("reset")
    rs.add_argument("lesson")
    rs.add_argument("--force", action="store_true", help="do not ask before discarding changes")
    s = sub.add_parser("check-stubs")
    s.add_argument("--build", default="build")
    s.add_argument("--no-build", action="store_true", help="check what is built")
    s.add_argument("--jobs", type=int, default=jobs)
    sc = sub.add_parser("self-check")
    sc.add_argument("--build", default="build")
    sc.add_argument("--no-build", action="store_true", help="check what is built")
    sc.add_argument("--jobs", type=int, default=jobs)
    sub.add_parser("check-repo")
    args = ap.parse_args()
    if hasattr(args, "build"):
        args.build = str(Path(args.build).resolve())
    if args.cmd == "list":
        print(lesson_table())
        return 0
    if args.cmd == "resolve":
        print(resolve(args.lesson).num)
        return 0
    return {"hint": cmd_hint, "grade": cmd_grade, "run": cmd_run, "build": cmd_build,
            "next": cmd_next, "watch": cmd_watch,
            "reset": cmd_reset, "check-stubs": cmd_check_stubs, "self-check": cmd_self_check,
            "check-repo": cmd_check_repo}[args.cmd](args)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # `make help | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
