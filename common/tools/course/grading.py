"""Grading: runs a lesson's grader part by part with COURSE_REPORT set, reads the report
(report.py), and judges the lesson task by task.

A part ("cpu" or "gpu", the record's `parts`) is one run of the grader with that tag. A task's
test cases are those tagged [task_N] (a test case without a task tag belongs to the last task).
A task is
- passed when every one of its test cases ran and passed;
- failing when one failed for a reason other than a stub (NOT IMPLEMENTED), when the grader died
  during one, or when some passed while others still hit a stub;
- not started when every one that ran hit a stub, or, when none could run here (no GPU), while
  one of its regions still calls the stub's not_implemented or all of them are as the course
  shipped them (from git, as `make reset-N` would restore them);
- "CPU part passed" (CPU_ONLY) when all that ran passed, or its regions are written, and its GPU
  test cases could not run here: never a pass (shown as "written; GPU part not run" for a lesson
  without a CPU part).
The lesson: passed when every task passed; failing when one fails; not started when none has
started; CPU_ONLY when every task passed or is CPU_ONLY; failing otherwise (some started).
"""

import re
import shlex
import subprocess
import sys
from pathlib import Path

from . import measurements, records
from .building import build_targets, compile_errors, lesson_targets, say_building, try_build
from .progress import CPU_ONLY, Progress, progress_bar
from .regions import named_regions, regions_of, still_stubs
from .report import ReportError, read_report
from .util import EXIT_GPU_TOO_OLD, EXIT_NO_GPU, ROOT, SOURCE_SUFFIXES, paint, rel, run, signal_name

STATUS_COLOR = {"passed": "green", "failing": "red", "not started": "yellow", "skipped": "yellow",
                CPU_ONLY: "yellow", "does not compile": "red"}
SNIPPET = re.compile(r"\\snippet\s+(\S+)\s+(\S+)")
TODO_MESSAGE = re.compile(r"NOT IMPLEMENTED: (\S+) \(([^)]*)\) is still")


def status_words(status, lesson):
    """A lesson's status as the progress table shows it: CPU_ONLY names the CPU part only for a
    lesson that has one."""
    if status == CPU_ONLY and "cpu" not in lesson.parts:
        return "written; GPU part not run"
    return status


def status_label(status, lesson):
    """How a lesson's status is shown in a verdict: upper case, except the CPU-only state, whose
    words must not read as PASSED."""
    if status == CPU_ONLY:
        return "CPU part passed; GPU part not run" if "cpu" in lesson.parts else \
            status_words(status, lesson)
    return status.upper()


# ---- one part of a grader ----------------------------------------------------------------------

class PartRun:
    """One part of a grader run: its state (none: the lesson has no such part; skipped, passed,
    not started, failing, crashed), why (the skip reason, or what went wrong), the report."""

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
        return PartRun(part, "none")
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
            return PartRun(part, "crashed", f"the grader was killed by {signal_name(rc)} before "
                           f"it wrote its report", None, out, log)
        tail = "\n".join(out.rstrip().splitlines()[-8:])
        return PartRun(part, "failing", f"{e}" + (f"; its output ends:\n{tail}" if tail else ""),
                       None, out, log)
    if report.skipped:
        return PartRun(part, "skipped", report.skipped, report, out, log)
    crashed = report.crashed_in
    if rc < 0 or crashed is not None:
        how = f"killed by {signal_name(rc)}" if rc < 0 else f"exit {rc}"
        during = f" during the test case \"{crashed.name}\"" if crashed else ""
        return PartRun(part, "crashed", f"the grader crashed ({how}){during}: an out-of-bounds "
                       f"access on the host, or an abort", report, out, log)
    cases = report.cases
    if not cases:
        return PartRun(part, "failing", f"no test case of the [{part}] part ran (exit {rc})",
                       report, out, log)
    if all(c.passed for c in cases):
        if rc != 0:
            return PartRun(part, "failing", f"every test case passed, but the grader exited with "
                           f"{rc}", report, out, log)
        return PartRun(part, "passed", "", report, out, log)
    if not any(c.passed for c in cases) and all(c.todo for c in cases if not c.passed):
        return PartRun(part, "not started", "", report, out, log)
    return PartRun(part, "failing", "", report, out, log)


# ---- tasks -------------------------------------------------------------------------------------

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
        if self.status == CPU_ONLY:
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
    broken = [p for p in parts.values() if p.state in ("failing", "crashed") and not p.cases]
    skip_note = next((p.reason for p in parts.values() if p.state == "skipped"), "")
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
            out.append(TaskResult(t, "failing", cases, [part.reason if part else "crashed"]))
        elif real:
            detail = case_lines(real[0])
            if len(real) > 1:
                detail.append(f"({len(real)} failing test cases in this task; this is the first)")
            out.append(TaskResult(t, "failing", cases, detail, todos))
        elif failed:
            out.append(TaskResult(t, "failing" if passed else "not started", cases,
                                  ["still TODO: " + ", ".join(n for n, _ in todos)] if passed
                                  else [], todos))
        elif ran:
            out.append(TaskResult(t, CPU_ONLY if skipped else "passed", cases,
                                  note=skip_note if skipped else ""))
        elif broken:
            out.append(TaskResult(t, "failing", cases, [broken[0].reason]))
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
            out.append(TaskResult(t, "not started" if stubs else CPU_ONLY, cases, [], stubs,
                                  skip_note))
            out[-1].todo_regions = bool(stubs)
            out[-1].untouched = untouched
        else:
            out.append(TaskResult(t, "skipped", cases, note="no test case of this task ran"))
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


# ---- a lesson ----------------------------------------------------------------------------------

class Result:
    """One lesson graded: its status, its parts (PartRun by "cpu"/"gpu"), its tasks, its speed."""

    def __init__(self, lesson, status, parts, tasks, pct):
        self.lesson, self.status, self.parts, self.tasks, self.pct = \
            lesson, status, parts, tasks, pct

    @property
    def gpu_state(self):
        return self.parts["gpu"].state

    @property
    def gpu(self):
        s = self.gpu_state
        return {"none": "no GPU part", "crashed": "failing", "not started": "not started",
                "skipped": "not run"}.get(s, s)

    @property
    def gpu_reason(self):
        p = self.parts["gpu"]
        return p.reason if p.state == "skipped" else ""

    @property
    def crashed(self):
        return any(p.state == "crashed" for p in self.parts.values())

    def first_unfinished(self):
        return next((t for t in self.tasks if t.status not in ("passed", CPU_ONLY)), None)


def lesson_status(parts, tasks):
    if any(p.state in ("failing", "crashed") for p in parts.values()) and \
            not any(t.status == "failing" for t in tasks):
        return "failing"
    states = [t.status for t in tasks if t.status != "skipped"]
    if not states:
        return "skipped"
    if all(s == "passed" for s in states):
        return "passed"
    if "failing" in states:
        return "failing"
    if all(s == "not started" for s in states):
        return "not started"
    if all(s in ("passed", CPU_ONLY) for s in states):
        return CPU_ONLY
    return "failing"


def grader_binary(build, lesson, solution):
    return Path(build) / "bin" / (f"test{lesson.num}" if solution else f"grade{lesson.num}")


def grade_lesson(build, lesson, solution, jobs=None):
    """Runs the (built) grader of `lesson` and judges it. A lesson that passed with its GPU part is
    then timed by its program; with `jobs` the program is built first (a grade builds only the
    grader: the program is needed only for that timing)."""
    binary = grader_binary(build, lesson, solution)
    parts = {part: run_part(build, binary, part, lesson) for part in records.PARTS}
    tasks = task_results(lesson, parts, solution)
    status = lesson_status(parts, tasks)
    pct = None
    if status == "passed" and parts["gpu"].state == "passed":
        pct = speed(build, lesson, solution, jobs)
    return Result(lesson, status, parts, tasks, pct)


def speed(build, lesson, solution, jobs=None):
    """% of cuBLAS of the lesson's headline kernel: a timing-only run of it (--headline-only, the
    grader has checked it), read through the measurement reader; None for a lesson that is not a
    GEMM lesson, a program that does not build, or a run that gives no figure. With `jobs`, the
    lesson's program is built first."""
    if lesson.kind != "gemm":
        return None
    program = lesson_targets(lesson, solution, graders=False)
    if jobs is not None and not try_build(build, program, jobs)[0]:
        return None
    exe = Path(build) / "bin" / program[0]
    rc, out = run([str(exe), "--headline-only", "--json"], timeout=600)
    if rc != 0:
        return None
    try:
        line = measurements.headline(measurements.from_output(out))
    except measurements.SchemaError:
        return None
    if line is None or not isinstance(line.get("pct_of_cublas"), (int, float)):
        return None
    return float(line["pct_of_cublas"])


def perf_verdict(result):
    """(verdict, explanation) against the record's learner target: met, missed, not measured, -."""
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


# ---- what a person reads -----------------------------------------------------------------------

def trim_block(lines, limit):
    """The first `limit` lines of a block, keeping a "likely cause" paragraph that falls later."""
    lines = list(lines)
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


def parts_line(result):
    words = {"passed": "passed", "failing": "failing", "not started": "not started",
             "crashed": "crashed"}
    out = []
    for name, p in result.parts.items():
        if p.state == "none":
            continue
        n = sum(1 for c in p.cases if c.ran)
        bad = sum(1 for c in p.cases if c.ran and not c.passed)
        if p.state == "skipped":
            state = f"not run ({p.reason})"
        elif p.state == "failing" and bad:
            state = f"{bad} of {n} test case{'s' if n != 1 else ''} failing"
        else:
            state = words.get(p.state, p.state) + \
                (f" ({n} test case{'s' if n != 1 else ''})" if n else "")
        out.append(f"{name.upper()} part: {state}")
    return "; ".join(out)


def task_lines(result, limit=24):
    """Task by task: its state; the first failing task's whole diagnosis, the first line of the
    others'; what is still TODO."""
    out, shown = [], False
    for tr in result.tasks:
        head = f"task {tr.task.number} {tr.task.title}: {tr.label()}"
        if tr.status == "failing" and tr.detail:
            out.append(f"{head} \u2014 {tr.detail[0].strip()}")
            if not shown:
                out += ["    " + l for l in trim_block(tr.detail[1:], limit)]
                shown = True
        else:
            out.append(head)
        if tr.todos and tr.status in ("not started", "failing"):
            width = max(len(n) for n, _ in tr.todos)
            out.append("    still TODO (" + (
                "these regions are as the course shipped them):" if tr.untouched else
                "these regions still call not_implemented):" if tr.todo_regions else
                "they throw NOT IMPLEMENTED):"))
            out += [f"      {n.ljust(width)}  in {w}" for n, w in tr.todos]
    crashed = [p.reason for p in result.parts.values() if p.state == "crashed" and not p.cases]
    broken = [p.reason for p in result.parts.values() if p.state == "failing" and not p.cases]
    out += crashed + broken
    return out


def diagnosis(result, limit=24):
    return task_lines(result, limit)


def solution_pointers(lesson):
    """[(solution file, (chapter heading, line) or None)]: where the chapter discusses each file."""
    sol = ROOT / "solutions" / lesson.dir
    files = sorted(p.name for p in sol.iterdir() if p.suffix in SOURCE_SUFFIXES) \
        if sol.is_dir() else []
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
    nxt = records.next_lesson(lesson)
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


def logs_line(result):
    logs = [rel(p.log) for p in result.parts.values() if p.log]
    return f"(each test case's own output: {', '.join(logs)})" if logs else ""


# ---- commands ----------------------------------------------------------------------------------

def cmd_grade(args):
    build = Path(args.build)
    which = "reference solutions" if args.solution else "your exercises"
    if args.lesson:
        lesson = records.resolve(args.lesson)
        # The grader only: the lesson's program is built when a pass is timed (grade_lesson).
        if not args.no_build and not build_targets(
                build, lesson_targets(lesson, args.solution, programs=False), args.jobs,
                f"lesson {lesson.num} ({'the reference solution' if args.solution else 'your exercise'})"):
            return 1
        result = grade_lesson(build, lesson, args.solution, None if args.no_build else args.jobs)
        who = "the reference solution" if args.solution else "your exercise"
        print(f"lesson {lesson.num} \u00b7 {lesson.title} ({who})")
        print(f"  {parts_line(result)}")
        print("\n".join("  " + l for l in task_lines(result)))
        print(f"\nlesson {lesson.num} {lesson.title} ({which}): "
              f"{paint(status_label(result.status, lesson), STATUS_COLOR[result.status])}")
        if result.pct is not None:
            print(f"speed: {result.pct:.1f}% of cuBLAS (the headline kernel, timed alone)")
        verdict = perf_verdict(result) if args.perf else None
        if verdict:
            print(f"performance: {verdict[0]} ({verdict[1]})")
        if not args.solution:
            progress = Progress()
            progress.record(lesson, result, verdict[0] if verdict else None)
            progress.save()
        nxt = result.first_unfinished()
        if result.status == "not started":
            print(f"The stub is untouched: open exercises/{lesson.dir}/ and look for BEGIN EXERCISE."
                  f" make hint-{lesson.n} gives a hint for task {nxt.task.number if nxt else 1}.")
        elif result.status == "failing" and any(t.status == "failing" for t in result.tasks):
            task = f" for task {nxt.task.number}" if nxt else ""
            print(f"Read the first failure above: it says where and the likely cause. "
                  f"make hint-{lesson.n} gives a hint{task}.")
        elif result.status == "failing":
            if nxt is not None:
                print(f"Task {nxt.task.number} ({nxt.task.title}) is next: make hint-{lesson.n} "
                      f"gives a hint for it.")
            else:
                print("Read what went wrong above.")
        elif result.status == "skipped":
            print(f"Nothing of lesson {lesson.num} runs on this machine: {result.gpu_reason}.")
        elif result.status == CPU_ONLY:
            print("Not passed yet: " + gpu_not_run_line(result))
        elif result.status == "passed" and not args.solution:
            print("\n" + "\n".join(solution_lines(lesson)))
            print("\n" + "\n".join(next_lines(lesson)))
        if result.status != "passed" and logs_line(result):
            print(logs_line(result))
        return 0 if result.status in ("passed", "skipped", CPU_ONLY) else 1

    broken = set()
    if not args.no_build:
        broken = build_every_grader(build, args.solution, args.jobs)
        if broken is None:
            return 1

    progress = None if args.solution else Progress()
    rows, statuses, reasons, results = [], [], set(), []
    for lesson in records.lessons():
        if lesson.num in broken:  # nothing of it ran: a row that says so, no record of it
            rows.append([lesson.num, lesson.title, "does not compile", "-", "-", "-", "-"] +
                        (["-", "-"] if args.perf else []))
            statuses.append("does not compile")
            continue
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
        done = sum(1 for t in result.tasks if t.status == "passed")
        row = [lesson.num, lesson.title, status_words(status, lesson),
               f"{done} of {len(result.tasks)}", result.gpu,
               passed_at if status == "passed" else "-",
               "-" if result.pct is None else f"{result.pct:.1f}%"]
        if args.perf:
            target = lesson.target_pct
            row += ["-" if target is None else f"{target:g}%", verdict[0]]
        rows.append(row)
        statuses.append(status)
    if progress:
        progress.save()
    current = progress.current() if progress else None
    heads = ["lesson", "title", "status", "tasks passed", "GPU part", "passed on", "% of cuBLAS"]
    if args.perf:
        heads += ["target", "performance"]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    print(f"Progress ({which}):")
    print("   " + "  ".join(h.ljust(w) for h, w in zip(heads, widths)).rstrip())
    print("   " + "-" * (sum(widths) + 2 * (len(widths) - 1)))
    for r, status in zip(rows, statuses):
        mark = "-> " if current and r[0] == current.num and not args.solution else "   "
        cells = [c.ljust(w) for c, w in zip(r, widths)]
        cells[2] = paint(cells[2], STATUS_COLOR.get(status, "bold"))
        print(mark + "  ".join(cells).rstrip())
    for reason in sorted(reasons):
        print(f"\nGPU parts not run: {reason} (a lesson is not passed until they run)")
    done = statuses.count("passed")
    print(f"\n{progress_bar(done, len(rows))}")
    if progress:
        for line in waiting_lines(progress):
            print(line)
    if args.solution:
        pass
    elif current:
        print(f"current lesson: {current.num} {current.title} (exercises/{current.dir}/): "
              f"make next, make watch-{current.n}; make grade-{current.n} shows its diagnosis")
    elif done == len(rows):
        print("Every lesson passed. Well done.")
    if args.perf:
        print("performance: % of cuBLAS on this GPU against the record's learner target; it never "
              "changes whether a lesson passes.")
    if broken:
        print(f"does not compile: lesson{'s' if len(broken) > 1 else ''} {', '.join(sorted(broken))}"
              f" (the first error is above the table; make grade-N shows a lesson's)")
        return 1
    return 0


def build_every_grader(build, solution, jobs):
    """Builds the whole course before `make grade`. When that fails, builds each lesson's grader
    alone: {the lessons whose grader does not compile}, the first one's error shown, the others
    graded as they are. None (the error shown) when the failure is in no lesson's grader."""
    say_building(build, [], jobs, "the course")
    ok, out = try_build(build, [], jobs)
    if ok:
        return set()
    broken = {}
    for lesson in records.lessons():
        built, log = try_build(build, lesson_targets(lesson, solution, programs=False), jobs)
        if not built:
            broken[lesson.num] = log
    if not broken:
        print("the course: " + paint("DOES NOT COMPILE", "red") + " (nothing was run or graded)")
        print("\n".join("  " + l for l in compile_errors(out)))
        return None
    first = next(iter(broken))
    who = "the reference solution" if solution else "your exercise"
    print(f"lesson {first} ({who}): " + paint("DOES NOT COMPILE", "red") +
          " (nothing of it was run or graded)")
    print("\n".join("  " + l for l in compile_errors(broken[first])))
    print()
    return set(broken)


def waiting_lines(progress):
    waiting = progress.waiting_for_gpu()
    if not waiting:
        return []
    note = progress.get(waiting[0].num).get("gpu_note", "no suitable GPU here")
    return [f"Not passed yet, waiting for their GPU part ({note}): lesson"
            f"{'s' if len(waiting) > 1 else ''} {', '.join(l.num for l in waiting)} "
            f"(make grade on a machine with a GPU finishes them)"]


def cmd_next(_args):
    progress = Progress()
    lesson = progress.current()
    if lesson is None:
        if progress.waiting_for_gpu():
            print("Every lesson has passed what this machine can check.")
            print("\n".join(waiting_lines(progress)))
        else:
            print("Every lesson passed.")
        print(progress_bar(progress.passed_count(), len(records.lessons())))
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
    tasks = e.get("tasks", {})
    task = next((t for t in lesson.tasks
                 if tasks.get(t.key, {}).get("status") not in ("passed", CPU_ONLY)), None)
    if task is not None:
        state = tasks.get(task.key, {}).get("status", "not graded yet")
        print(f"  task:     {task.number} of {len(lesson.tasks)}, {task.title} ({state})")
    print(f"  then:     make watch-{lesson.n} grades it on every save; make hint-{lesson.n} gives "
          f"a hint")
    for line in waiting_lines(progress):
        print(line)
    print(progress_bar(progress.passed_count(), len(records.lessons())))
    return 0


def cmd_run(args):
    """make lesson-N: builds lesson N's program and runs it with the learner's options; nothing
    runs when the build fails."""
    lesson = records.resolve(args.lesson)
    build = Path(args.build)
    target = lesson_targets(lesson, args.solution, graders=False)[0]
    # ARGS as a shell reads it: quotes group words; any word, a leading dash or '=' included,
    # reaches the program unchanged.
    try:
        extra = shlex.split(args.args or "")
    except ValueError as e:
        print(f"make lesson-{lesson.n}: ARGS cannot be read ({e}): {args.args}", file=sys.stderr)
        return 2
    if not build_targets(build, [target], args.jobs, f"lesson {lesson.num}'s program"):
        return 1
    print(f"== {target} {shlex.join(extra)}".rstrip(), flush=True)
    try:
        rc = subprocess.run([str(build / "bin" / target), *extra], cwd=build).returncode
    except KeyboardInterrupt:
        return 130
    # 3 and 4: no usable GPU here (none, or below the lesson's compute capability). The program has
    # said so and what still runs; on such a machine that is the expected end, not an error.
    return 0 if rc in (EXIT_NO_GPU, EXIT_GPU_TOO_OLD) else rc


def cmd_build(args):
    """Builds what a command needs before it runs (make bench, profile-N, sanitize-N, sass-N):
    lesson N's reference program, and with --mine the learner's too; everything without N."""
    build = Path(args.build)
    if not args.lesson:
        return 0 if build_targets(build, [], args.jobs, "the course") else 1
    lesson = records.resolve(args.lesson)
    targets = lesson_targets(lesson, True, graders=False)
    if args.mine:
        targets += lesson_targets(lesson, False, graders=False)
    return 0 if build_targets(build, targets, args.jobs, f"lesson {lesson.num}") else 1
