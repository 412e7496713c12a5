"""The screens: how a graded lesson reads (make grade-N, make watch, make next, make hint-N): its
status in words and colour, the parts' and tasks' lines with the first failure's diagnosis, where
the reference solution is discussed, what comes next (verdict_lines: one judge.Verdict, said in
the same words by every command)."""

import re

from . import records
from .judge import PartState
from .progress import Status
from .util import ROOT, SOURCE_SUFFIXES, rel

STATUS_COLOR = {Status.PASSED: "green", Status.FAILING: "red", Status.NOT_STARTED: "yellow",
                Status.SKIPPED: "yellow", Status.CPU_ONLY: "yellow", Status.DOES_NOT_COMPILE: "red"}

SNIPPET = re.compile(r"\\snippet\s+(\S+)\s+(\S+)")

def status_words(status, lesson):
    """A lesson's status as the progress table shows it: Status.CPU_ONLY names the CPU part only for a
    lesson that has one."""
    if status == Status.CPU_ONLY and "cpu" not in lesson.parts:
        return "written; GPU part not run"
    return status

# The width the progress table of `make grade` fits in, its mark column ("-> ") included.
TABLE_WIDTH = 100
TABLE_GAP = 2


def short_title(title):
    """A lesson's title up to its colon: "Tiling" of "Tiling: reuse through shared memory"."""
    return title.split(":")[0].strip()


def table_width(heads, rows, mark=3):
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    return mark + sum(widths) + TABLE_GAP * (len(widths) - 1)


def fit_table(heads, rows, width=TABLE_WIDTH, title="title", day="passed on"):
    """(heads, rows) of the progress table, made to fit `width` columns by the first of these that
    fits: as it is; the `day` column's dates without their time; the `title` column's titles up to
    their colon, then cut with an ellipsis (12 characters at least); the same without the `day`
    column; without the `title` column (the lesson's number stays); without either."""
    def drop(hs, rs, name):
        if name not in hs:
            return hs, rs
        i = hs.index(name)
        return hs[:i] + hs[i + 1:], [r[:i] + r[i + 1:] for r in rs]

    def cells(hs, rs, name, f):
        if name not in hs:
            return hs, rs
        i = hs.index(name)
        return hs, [r[:i] + [f(r[i])] + r[i + 1:] for r in rs]

    def cut(hs, rs):
        """The titles cut to the room left, or None where that is under 12 characters."""
        i = hs.index(title)
        room = width - (table_width(hs, cells(hs, rs, title, lambda t: "")[1]) - len(hs[i]))
        if room < 12:
            return None
        return cells(hs, rs, title,
                     lambda t: t if len(t) <= room else t[:room - 1].rstrip() + "\u2026")

    def day_only(hs, rs):
        return cells(hs, rs, day, lambda d: d.split(" ")[0])

    def short(hs, rs):
        return cells(hs, rs, title, short_title)

    dated = day_only(heads, rows)
    shortened = short(*dated)
    undated = drop(*shortened, day)
    candidates = [(heads, rows), dated, shortened, cut(*shortened), undated, cut(*undated),
                  drop(*dated, title), drop(*undated, title)]
    candidates = [c for c in candidates if c is not None]
    return next((c for c in candidates if table_width(*c) <= width), candidates[-1])


def status_label(status, lesson):
    """How a lesson's status is shown in a verdict: upper case, except the CPU-only state, whose
    words must not read as PASSED."""
    if status == Status.CPU_ONLY:
        return "CPU part passed; GPU part not run" if "cpu" in lesson.parts else \
            status_words(status, lesson)
    return status.upper()

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
        if p.state == PartState.NONE:
            continue
        n = sum(1 for c in p.cases if c.ran)
        bad = sum(1 for c in p.cases if c.ran and not c.passed)
        if p.state == PartState.SKIPPED:
            state = f"not run ({p.reason})"
        elif p.state == PartState.FAILING and bad:
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
        if tr.status == Status.FAILING and tr.detail:
            out.append(f"{head} \u2014 {tr.detail[0].strip()}")
            if not shown:
                out += ["    " + l for l in trim_block(tr.detail[1:], limit)]
                shown = True
        else:
            out.append(head)
        if tr.todos and tr.status in (Status.NOT_STARTED, Status.FAILING):
            width = max(len(n) for n, _ in tr.todos)
            out.append("    still TODO (" + (
                "these regions are as the course shipped them):" if tr.untouched else
                "these regions still call not_implemented):" if tr.todo_regions else
                "they throw NOT IMPLEMENTED):"))
            out += [f"      {n.ljust(width)}  in {w}" for n, w in tr.todos]
    parts = result.parts.values()
    crashed = [p.reason for p in parts if p.state == PartState.CRASHED and not p.cases]
    broken = [p.reason for p in parts if p.state == PartState.FAILING and not p.cases]
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
    """What a CPU-only result (a judge.Result or judge.Verdict) means, in one line."""
    return (f"the GPU part did not run: {result.gpu_reason}. The lesson counts as passed once its "
            f"GPU part runs and passes on a machine with a suitable GPU.")

def verdict_lines(verdict, seen=None, watching_all=False, in_watch=False):
    """What to do next, from a judge.Verdict: the lines under the tasks of `make grade-N` and
    `make watch`, the same words in both (`make hint-N` heads its hints with hint_heading, from the
    same verdict). `seen`: (hints seen, hints) of the next task, when known."""
    lesson, status, nxt = verdict.lesson, verdict.status, verdict.next_task
    hint = f"make hint-{lesson.n} gives a hint for task {nxt.number}" if nxt else \
        f"make hint-{lesson.n} gives a hint"
    if nxt and seen:
        hint += f" ({seen[0]} of {seen[1]} seen)"
    report = f" make grade-{lesson.n} shows the whole report." if in_watch else ""
    if status == Status.NOT_STARTED:
        return [f"The stub is untouched: open exercises/{lesson.dir}/ and look for BEGIN "
                f"EXERCISE. {hint}.{report}"]
    if status == Status.FAILING and verdict.diagnosed:
        return [f"Read the first failure above: it says where and the likely cause. {hint}."
                + report]
    if status == Status.FAILING:
        if nxt is not None:
            return [f"Task {nxt.number} ({nxt.title}) is next: make hint-{lesson.n} gives a hint "
                    f"for it.{report}"]
        return ["Read what went wrong above." + report]
    if status == Status.SKIPPED:
        why = f": {verdict.gpu_reason}" if verdict.gpu_reason else ""
        return [f"Nothing of lesson {lesson.num} runs on this machine{why}."]
    if status == Status.CPU_ONLY:
        return ["Not passed yet: " + gpu_not_run_line(verdict), ""] + \
            next_lines(lesson, watching_all)
    out = [] if verdict.solution else solution_lines(lesson) + [""]
    return out + next_lines(lesson, watching_all)

def hint_heading(verdict):
    """The line above `make hint-N`'s hint when no task is left to work on here, from the verdict
    of the last grade: every task passed, or the written ones wait for their GPU part (then never
    "passed"); None when a task is failing or not started (its hints follow)."""
    lesson = verdict.lesson
    if verdict.next_task is not None:
        return None
    if verdict.waiting and not verdict.every_task_passed:
        nums = records.and_list([str(t.number) for t in verdict.waiting])
        why = f" ({verdict.gpu_reason})" if verdict.gpu_reason else ""
        which = f"tasks {nums} wait for their" if len(verdict.waiting) > 1 else \
            f"task {nums} waits for its"
        return (f"(lesson {lesson.num} has not passed: no task of it fails here, but {which} "
                f"GPU part{why}; the hints of task {verdict.waiting[0].number}:)")
    return f"(every task of lesson {lesson.num} has passed; the last task's hints:)"

def logs_line(result):
    logs = [rel(p.log) for p in result.parts.values() if p.log]
    return f"(each test case's own output: {', '.join(logs)})" if logs else ""

def waiting_lines(progress):
    waiting = progress.waiting_for_gpu()
    if not waiting:
        return []
    note = progress.get(waiting[0].num).get("gpu_note", "no suitable GPU here")
    return [f"Not passed yet, waiting for their GPU part ({note}): lesson"
            f"{'s' if len(waiting) > 1 else ''} {', '.join(l.num for l in waiting)} "
            f"(make grade on a machine with a GPU finishes them)"]
