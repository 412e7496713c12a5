"""The judge: runs a lesson's grader part by part with COURSE_REPORT set, reads the report
(report.py), and judges the lesson task by task (its Status, progress.py).


A part ("cpu" or "gpu", the record's `parts`) is one run of the grader with that tag. A task's
test cases are those tagged [task_N] (a test case without a task tag belongs to the last task).
A task is
- passed when every one of its test cases ran and passed;
- failing when one failed for a reason other than a stub (NOT IMPLEMENTED), when the grader died
  during one, or when some passed while others still hit a stub;
- not started when every one that ran hit a stub, or, when none could run here (no GPU), while
  one of its regions still calls the stub's not_implemented or all of them are as the course
  shipped them (from git, as `make reset-N` would restore them);
- "CPU part passed" (Status.CPU_ONLY) when all that ran passed, or its regions are written, and
  its GPU test cases could not run here: never a pass (shown as "written; GPU part not run" for a lesson
  without a CPU part).
The lesson: passed when every task passed; failing when one fails; not started when none has
started; CPU_ONLY when every task passed or is CPU_ONLY; failing otherwise (some started).

A part's state is a PartState; the lesson's answer, what `make grade-N`, `make watch` and `make
hint-N` all say, is one Verdict (screens.verdict_lines says it).
"""

import enum
import re
from pathlib import Path

from . import measurements, records
from .building import build_targets, lesson_targets, try_build
from .progress import Status
from .regions import named_regions, regions_of, still_stubs
from .report import ReportError, read_report
from .util import ROOT, rel, run, signal_name

TODO_MESSAGE = re.compile(r"NOT IMPLEMENTED: (\S+) \(([^)]*)\) is still")

class PartState(str, enum.Enum):
    """The state of one part of a grader run (PartRun), the one list of them; a task's and a
    lesson's status (progress.Status) are judged from them."""

    NONE = "none"
    """The lesson has no such part."""
    SKIPPED = "skipped"
    """It could not run here (no GPU, or one too old): its report says why."""
    PASSED = "passed"
    """Every test case of it ran and passed, and the grader exited 0."""
    NOT_STARTED = "not started"
    """Every test case that failed hit a stub (NOT IMPLEMENTED), and none passed."""
    FAILING = "failing"
    """A test case failed, or the grader wrote no usable report."""
    CRASHED = "crashed"
    """The grader died (a signal, an abort, a kernel that never ended)."""

    __str__ = str.__str__  # the value, in messages and f-strings
    __format__ = str.__format__


class PartRun:
    """One part of a grader run: its state (PartState), why (the skip reason, or what went
    wrong), the report."""

    def __init__(self, part, state, reason="", report=None, out="", log=None):
        self.part, self.state, self.reason = part, state, reason
        self.report, self.out, self.log = report, out, log

    @property
    def cases(self):
        return self.report.cases if self.report else []

def report_path(build, binary, part):
    return Path(build) / "reports" / f"{Path(binary).name}-{part}.jsonl"

def run_part(build, binary, part, lesson):
    """Runs the `part` test cases of a grader binary with COURSE_REPORT set; returns a PartRun
    judged from the report alone (the console output is kept in a log beside it)."""
    if part not in lesson.parts:
        return PartRun(part, PartState.NONE)
    path = report_path(build, binary, part)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    cmd = [str(binary), f"[{part}]"]
    if part == "gpu":
        cmd.append(f"--gpu-min-cc={lesson.cc_digits}")
    rc, out = run(cmd, env={"COURSE_REPORT": str(path)})
    log = path.with_suffix(".log")
    try:
        log.write_text(out)
    except OSError:
        log = None
    try:
        report = read_report(path)
    except ReportError as e:
        if rc < 0:
            return PartRun(part, PartState.CRASHED, f"the grader was killed by "
                           f"{signal_name(rc)} before it wrote its report", None, out, log)
        tail = "\n".join(out.rstrip().splitlines()[-8:])
        return PartRun(part, PartState.FAILING,
                       f"{e}" + (f"; its output ends:\n{tail}" if tail else ""), None, out, log)
    if report.skipped:
        return PartRun(part, PartState.SKIPPED, report.skipped, report, out, log)
    crashed = report.crashed_in
    if rc < 0 or crashed is not None:
        how = f"killed by {signal_name(rc)}" if rc < 0 else f"exit {rc}"
        during = f" during the test case \"{crashed.name}\"" if crashed else ""
        # A kernel that never ended was stopped by the grader's bounded wait, which said so.
        hung = next((l.strip() for l in out.splitlines() if "did not finish within" in l), None)
        if hung:
            return PartRun(part, PartState.CRASHED, f"{hung.removeprefix('FAILED: ')}{during}",
                           report, out, log)
        return PartRun(part, PartState.CRASHED, f"the grader crashed ({how}){during}: an "
                       f"out-of-bounds access on the host, or an abort", report, out, log)
    cases = report.cases
    if not cases:
        return PartRun(part, PartState.FAILING,
                       f"no test case of the [{part}] part ran (exit {rc})", report, out, log)
    if all(c.passed for c in cases):
        if rc != 0:
            return PartRun(part, PartState.FAILING, f"every test case passed, but the grader "
                           f"exited with {rc}", report, out, log)
        return PartRun(part, PartState.PASSED, "", report, out, log)
    if not any(c.passed for c in cases) and all(c.todo for c in cases if not c.passed):
        return PartRun(part, PartState.NOT_STARTED, "", report, out, log)
    return PartRun(part, PartState.FAILING, "", report, out, log)

def todo_names(cases):
    """The stubs the failures of `cases` say are still TODO: [(function, file)], in order."""
    found = []
    for c in cases:
        for f in c.failures:
            if not f.todo:
                continue
            flat = " ".join((f.message + " " + " ".join(f.info)).split())
            for name, where in TODO_MESSAGE.findall(flat):
                item = (name, where.replace(" ", ""))
                if item not in found:
                    found.append(item)
    return found

def case_lines(case, most=3):
    """A failing test case as a person reads it: its name, then its first `most` failures."""
    out = [f"\"{case.name}\""]
    failures = [f for f in case.failures if not f.todo]
    for f in failures[:most]:
        out += ["  " + l for l in f.lines()]
    if len(failures) > most:
        out.append(f"  ... and {len(failures) - most} more failed check"
                   f"{'s' if len(failures) - most > 1 else ''} in this test case")
    return out

class TaskResult:
    """One task graded: its status, its test cases (by part), and what to show about it."""

    def __init__(self, task, status, cases, detail=None, todos=None, note=""):
        self.task, self.status, self.cases = task, status, cases
        self.detail, self.todos, self.note = detail or [], todos or [], note
        self.todo_regions = False  # todos are regions still holding the stub, not failures
        self.untouched = False  # ... regions exactly as the course shipped them

    @property
    def cpu_ran(self):
        return any(c.ran and c.part == "cpu" for c in self.cases)

    def label(self):
        if self.status == Status.CPU_ONLY:
            return "CPU part passed; GPU part not run" if self.cpu_ran else \
                "written; its tests need the GPU part, not run here"
        return self.status

def task_results(lesson, parts, solution):
    by_task = {t.number: [] for t in lesson.tasks}
    for p in parts.values():
        for c in p.cases:
            t = lesson.task_of_tags(c.tags)
            if t is not None:
                by_task[t.number].append(c)
    folder = ROOT / ("solutions" if solution else "exercises") / lesson.dir
    broken = [p for p in parts.values()
              if p.state in (PartState.FAILING, PartState.CRASHED) and not p.cases]
    skip_note = next((p.reason for p in parts.values() if p.state == PartState.SKIPPED), "")
    shipped, mine = None, {n: "\n".join(r) for n, r in regions_of(folder).items()}
    out = []
    for t in lesson.tasks:
        cases = by_task[t.number]
        ran = [c for c in cases if c.ran]
        skipped = [c for c in cases if not c.ran]
        crashed = [c for c in ran if not c.finished]
        failed = [c for c in ran if c.finished and not c.passed]
        real = [c for c in failed if not c.todo]
        passed = [c for c in ran if c.finished and c.passed]
        todos = todo_names(failed)
        if crashed:
            part = next((p for p in parts.values() if crashed[0] in p.cases), None)
            out.append(TaskResult(t, Status.FAILING, cases, [part.reason if part else "crashed"]))
        elif real:
            detail = case_lines(real[0])
            if len(real) > 1:
                detail.append(f"({len(real)} failing test cases in this task; this is the first)")
            out.append(TaskResult(t, Status.FAILING, cases, detail, todos))
        elif failed:
            out.append(TaskResult(t, Status.FAILING if passed else Status.NOT_STARTED, cases,
                                  ["still TODO: " + ", ".join(n for n, _ in todos)] if passed
                                  else [], todos))
        elif ran:
            out.append(TaskResult(t, Status.CPU_ONLY if skipped else Status.PASSED, cases,
                                  note=skip_note if skipped else ""))
        elif broken:
            out.append(TaskResult(t, Status.FAILING, cases, [broken[0].reason]))
        elif skipped:
            # Nothing of the task could run here: a region that still calls the stub's
            # not_implemented, or regions all as the course shipped them, say it is not started.
            stubs = [(name, rel(path)) for name, path in still_stubs(folder, t.regions)]
            if not stubs and not solution and shipped is None:
                shipped = shipped_regions(lesson)
            untouched = not stubs and not solution and shipped and all(
                shipped.get(r) is not None and shipped.get(r) == mine.get(r) for r in t.regions)
            if untouched:
                stubs = [(r, f"exercises/{lesson.dir}/") for r in t.regions]
            out.append(TaskResult(t, Status.NOT_STARTED if stubs else Status.CPU_ONLY, cases, [], stubs,
                                  skip_note))
            out[-1].todo_regions = bool(stubs)
            out[-1].untouched = untouched
        else:
            out.append(TaskResult(t, Status.SKIPPED, cases, note="no test case of this task ran"))
    return out

def shipped_regions(lesson):
    """{region name: its text} of the lesson's exercise as the course shipped it (from git, as
    `make reset-N` restores it), or {} when git cannot say."""
    from .reset import GitError, pristine  # git is needed only here
    try:
        _, _, files = pristine(lesson)
    except GitError:
        return {}
    out = {}
    for name, data in files.items():
        for region, inside in named_regions(data.decode(errors="replace")):
            out.setdefault(region, []).append(inside)
    return {n: "\n".join(r) for n, r in out.items()}

class Result:
    """One lesson graded: its status, its parts (PartRun by "cpu"/"gpu"), its tasks, its speed (%
    of cuBLAS) and the headline kernel that speed is of (which says the GPU's track)."""

    def __init__(self, lesson, status, parts, tasks, pct, kernel=None):
        self.lesson, self.status, self.parts, self.tasks, self.pct = \
            lesson, status, parts, tasks, pct
        self.kernel = kernel

    @property
    def gpu_state(self):
        return self.parts["gpu"].state

    @property
    def gpu(self):
        s = self.gpu_state
        return {PartState.NONE: "no GPU part", PartState.CRASHED: "failing",
                PartState.SKIPPED: "not run"}.get(s, str(s))

    @property
    def gpu_reason(self):
        p = self.parts["gpu"]
        return p.reason if p.state == PartState.SKIPPED else ""

    @property
    def crashed(self):
        return any(p.state == PartState.CRASHED for p in self.parts.values())

class Verdict:
    """What a graded lesson comes to: the one answer `make grade-N`, `make watch` and `make hint-N`
    give (screens.verdict_lines renders it for all three). Its status, each task's, the task to
    work on next (the first failing or not started; None when every task passed or waits for its
    GPU part), the tasks waiting for their GPU part (Status.CPU_ONLY: never passed), why the GPU
    part did not run, whether a failing task has a diagnosis to read, and the exit code.

    From a grade (from_result) or, for `make hint-N`, from the last grade as progress.json keeps it
    (from_progress): the same rules decide both."""

    def __init__(self, lesson, status, task_statuses, gpu_reason="", diagnosed=False,
                 solution=False):
        self.lesson, self.status, self.solution = lesson, status, solution
        self.task_statuses = task_statuses  # {task number: Status}
        self.gpu_reason, self.diagnosed = gpu_reason, diagnosed

    @classmethod
    def from_result(cls, result, solution=False):
        return cls(result.lesson, result.status, {t.task.number: t.status for t in result.tasks},
                   result.gpu_reason,
                   any(t.status == Status.FAILING and t.detail for t in result.tasks), solution)

    @classmethod
    def from_progress(cls, lesson, entry):
        """The verdict of the last grade of `lesson` (its progress entry); before any grade, not
        started."""
        tasks = entry.get("tasks", {})
        statuses = {}
        for t in lesson.tasks:
            try:
                statuses[t.number] = Status(tasks.get(t.key, {}).get("status"))
            except ValueError:
                statuses[t.number] = Status.NOT_STARTED
        try:
            status = Status(entry.get("status"))
        except ValueError:
            status = Status.NOT_STARTED
        return cls(lesson, status, statuses, entry.get("gpu_note", ""))

    @property
    def next_task(self):
        """The first task with work to do on this machine: failing or not started."""
        return next((t for t in self.lesson.tasks
                     if self.task_statuses.get(t.number) not in (Status.PASSED, Status.CPU_ONLY,
                                                                 Status.SKIPPED)), None)

    @property
    def waiting(self):
        """The tasks written whose GPU part has not run: not passed until it does."""
        return [t for t in self.lesson.tasks if self.task_statuses.get(t.number) == Status.CPU_ONLY]

    @property
    def every_task_passed(self):
        return all(self.task_statuses.get(t.number) == Status.PASSED for t in self.lesson.tasks)

    @property
    def exit_code(self):
        """0 unless something is wrong or left to do: a pass, a lesson that cannot run here, or
        one whose GPU part waits for a GPU."""
        return 0 if self.status in (Status.PASSED, Status.SKIPPED, Status.CPU_ONLY) else 1


def lesson_status(parts, tasks):
    if any(p.state in (PartState.FAILING, PartState.CRASHED) for p in parts.values()) and \
            not any(t.status == Status.FAILING for t in tasks):
        return Status.FAILING
    states = [t.status for t in tasks if t.status != Status.SKIPPED]
    if not states:
        return Status.SKIPPED
    if all(s == Status.PASSED for s in states):
        return Status.PASSED
    if Status.FAILING in states:
        return Status.FAILING
    if all(s == Status.NOT_STARTED for s in states):
        return Status.NOT_STARTED
    if all(s in (Status.PASSED, Status.CPU_ONLY) for s in states):
        return Status.CPU_ONLY
    return Status.FAILING

def grader_binary(build, lesson, solution, quick=False):
    return Path(build) / "bin" / lesson_targets(lesson, solution, programs=False, quick=quick)[0]

def grade_lesson(build, lesson, solution, jobs=None, quick=False):
    """Runs the (built) grader of `lesson` and judges it. A lesson that passed with its GPU part is
    then timed by its program; with `jobs` the program is built first (a grade builds only the
    grader: the program is needed only for that timing). `quick`: a save's grader, with the
    configurations the tests need; when the lesson passes with it on a GPU, the whole grader
    (built first, with `jobs`) grades it again, and that is the verdict."""
    binary = grader_binary(build, lesson, solution, quick)
    parts = {part: run_part(build, binary, part, lesson) for part in records.PARTS}
    tasks = task_results(lesson, parts, solution)
    status = lesson_status(parts, tasks)
    if quick and status == Status.PASSED and parts["gpu"].state == PartState.PASSED:
        full = lesson_targets(lesson, solution, programs=False)
        if jobs is not None and not build_targets(
                build, full, jobs, f"lesson {lesson.num}: every configuration"):
            parts["gpu"] = PartRun("gpu", PartState.FAILING, "passed with the configurations a "
                                   "save compiles, but the others do not compile (the error above)")
            return Result(lesson, Status.FAILING, parts, task_results(lesson, parts, solution),
                          None)
        return grade_lesson(build, lesson, solution, jobs)
    pct = kernel = None
    if status == Status.PASSED and parts["gpu"].state == PartState.PASSED:
        pct, kernel = speed(build, lesson, solution, jobs)
    return Result(lesson, status, parts, tasks, pct, kernel)

def speed(build, lesson, solution, jobs=None):
    """(% of cuBLAS, kernel) of the lesson's headline kernel: a timing-only run of it
    (--headline-only, the grader has checked it), read through the measurement reader; the kernel
    is the one the program chose for this GPU (a lesson with tracks times a different one on
    different GPUs). (None, None) for a lesson that is not a GEMM lesson, a program that does not
    build, or a run that gives no figure. With `jobs`, the lesson's program is built first."""
    if lesson.kind != "gemm":
        return None, None
    program = lesson_targets(lesson, solution, graders=False)
    if jobs is not None and not try_build(build, program, jobs)[0]:
        return None, None
    exe = Path(build) / "bin" / program[0]
    rc, out = run([str(exe), "--headline-only", "--json"], timeout=600)
    if rc != 0:
        return None, None
    try:
        line = measurements.headline(measurements.from_output(out))
    except measurements.SchemaError:
        return None, None
    if line is None or not isinstance(line.get("pct_of_cublas"), (int, float)):
        return None, None
    return float(line["pct_of_cublas"]), line.get("kernel")

NO_TARGET_HERE = "no target for this GPU yet"

def perf_target(result):
    """(target % or None, track or None, how the target reads before a measurement) of a graded
    lesson. With tracks, the target of the track whose headline this GPU timed; before that is
    known, every track's ("80% of cuBLAS on compute capability 9.0 (wgmma: hopper_gemm); none yet
    on 10.0 and 12.0 (portable: portable_gemm)")."""
    lesson = result.lesson
    if not lesson.tracks:
        target = lesson.target_pct
        return target, None, "" if target is None else f"target {target:g}% of cuBLAS"
    track = lesson.track_of(result.kernel) if result.kernel else None
    if track is None:
        return None, None, f"targets {lesson.targets_text()}"
    target = lesson.track_target(track)
    return target, track, f"target {target:g}% of cuBLAS" if target is not None else ""

def target_cell(result):
    """The progress table's target of a graded lesson: "80%", "-", or, for a lesson with tracks
    whose GPU's track is not known yet, every track's: "80% / -"."""
    target, track, _ = perf_target(result)
    if result.lesson.tracks and track is None:
        return " / ".join("-" if t is None else f"{t:g}%"
                          for t in map(result.lesson.track_target, result.lesson.tracks))
    return "-" if target is None else f"{target:g}%"

def perf_verdict(result):
    """(verdict, explanation) against the record's learner target, or with tracks against the
    target of this GPU's track: met, missed, not measured, "no target for this GPU yet" (a track
    without one), -."""
    lesson = result.lesson
    target, track, wanted = perf_target(result)
    if not lesson.tracks and target is None:
        return "-", "no performance target for this lesson"
    if result.gpu_state != PartState.PASSED and result.status in (Status.PASSED, Status.CPU_ONLY):
        return "not measured", f"{wanted}; measuring it needs a GPU"
    if result.status != Status.PASSED:
        return "not measured", f"{wanted}; the lesson must pass first"
    if result.gpu_state != PartState.PASSED:
        return "not measured", f"{wanted}; measuring it needs a GPU"
    if result.pct is None:
        return "not measured", f"{wanted}; the lesson program printed no speed"
    speed_here = f"{result.pct:.1f}% of cuBLAS on this GPU"
    if lesson.tracks and track is None:
        return NO_TARGET_HERE, (f"{speed_here}, with {result.kernel}, a headline no track of "
                                f"the lesson's record names")
    if target is None:
        return NO_TARGET_HERE, (f"{speed_here}, the {track.name} track ({track.headline}, compute "
                                f"capability {records.and_list(track.cc)}): the reference "
                                f"solution has not been measured on such a GPU, so no target is "
                                f"set")
    verdict = "met" if result.pct >= target else "missed"
    return verdict, (f"{speed_here}, target {target:g}%"
                     + (f" ({track.name} track: {track.headline})" if track else ""))
