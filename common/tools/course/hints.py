"""The hints of a lesson, task by task (lessons/NN-slug/hints.md), and `make hint-N`.

A hints file has one section per task of the lesson's record, in order, `## Task N: title`, and
under it the task's hints in order, `### Hint 1`, `### Hint 2`, ... Text before the first task is
the file's introduction. The learner's count of hints seen is kept per task in
.course/progress.json; an older count for the whole lesson (or the one in the build folder,
before that) is spread over the tasks in order.
"""

import re
from pathlib import Path

from . import records
from .judge import Verdict
from .progress import Progress
from .screens import hint_heading
from .util import ROOT

TASK_HEADING = re.compile(r"^## +Task +(\d+)\s*(?::\s*(.*?))?\s*$", re.M)
HINT_HEADING = re.compile(r"^### +Hint +(\d+).*$", re.M)


class TaskHints:
    """One `## Task N: title` section and its hints."""

    def __init__(self, number, title, hints):
        self.number, self.title, self.hints = number, title, hints


def parse_hints(text):
    """([TaskHints] in file order, [problems]) of a hints file's text."""
    sections, problems = [], []
    heads = list(TASK_HEADING.finditer(text))
    for i, m in enumerate(heads):
        body_start = m.end()
        body_end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[body_start:body_end]
        hint_heads = list(HINT_HEADING.finditer(body))
        hints = []
        for j, h in enumerate(hint_heads):
            end = hint_heads[j + 1].start() if j + 1 < len(hint_heads) else len(body)
            hints.append(body[h.end():end].strip())
            if int(h.group(1)) != j + 1:
                problems.append(f"task {m.group(1)}: '### Hint {h.group(1)}' where hint {j + 1} "
                                f"was expected")
        if hint_heads and body[:hint_heads[0].start()].strip():
            problems.append(f"task {m.group(1)}: text between '## Task {m.group(1)}' and its "
                            f"first '### Hint 1'")
        sections.append(TaskHints(int(m.group(1)), (m.group(2) or "").strip(), hints))
    if not heads and re.search(r"^## +Hint", text, re.M):
        problems.append("hints are not grouped by task: '## Task N: title', then '### Hint 1', "
                        "'### Hint 2', ...")
    return sections, problems


def task_hints(lesson):
    """{task number: [hint texts]} of a lesson (empty when its hints file is missing)."""
    path = ROOT / lesson.hints
    if not path.is_file():
        return {}
    sections, _ = parse_hints(path.read_text())
    return {s.number: s.hints for s in sections}


def check_hints(lesson):
    """What is wrong with a lesson's hints file against its record's tasks."""
    path = ROOT / lesson.hints
    if not path.is_file():
        return [f"lesson {lesson.num}: missing {lesson.hints}"]
    sections, problems = parse_hints(path.read_text())
    problems = [f"{lesson.hints}: {p}" for p in problems]
    numbers = [s.number for s in sections]
    want = [t.number for t in lesson.tasks]
    if numbers != want:
        problems.append(f"{lesson.hints}: its sections are tasks {numbers}, the record's tasks are "
                        f"{want} ('## Task N: title', one per task, in order)")
    for s in sections:
        task = lesson.task(s.number)
        if task and s.title != task.title:
            problems.append(f"{lesson.hints}: '## Task {s.number}: {s.title}', but the record calls "
                            f"task {s.number} '{task.title}'")
        if task and not s.hints:
            problems.append(f"{lesson.hints}: task {s.number} has no hint ('### Hint 1')")
        for i, h in enumerate(s.hints, 1):
            if not h:
                problems.append(f"{lesson.hints}: task {s.number}, hint {i} is empty")
    return problems


def seen_counts(lesson, entry, build=None):
    """{task key: hints seen} for a lesson's progress entry, converting an older count for the
    whole lesson (entry["hints_seen"], or build/hints/NN.seen before that) task by task."""
    tasks = entry.get("tasks", {})
    if any("hints_seen" in t for t in tasks.values()):
        return {t.key: tasks.get(t.key, {}).get("hints_seen", 0) for t in lesson.tasks}
    old = entry.get("hints_seen")
    if old is None and build is not None:
        try:
            old = int((Path(build) / "hints" / f"{lesson.num}.seen").read_text())
        except (OSError, ValueError):
            old = 0
    left, out, hints = old or 0, {}, task_hints(lesson)
    for t in lesson.tasks:
        out[t.key] = min(left, len(hints.get(t.number, [])))
        left -= out[t.key]
    return out


def hints_seen(lesson, progress, build=None):
    """A function of a task: (hints of it seen, its hints), or None for a task without hints."""
    seen, hints = seen_counts(lesson, progress.get(lesson.num), build), task_hints(lesson)

    def of(task):
        if task is None or not hints.get(task.number):
            return None
        return seen.get(task.key, 0), len(hints[task.number])

    return of


def cmd_hint(args):
    lesson = records.resolve(args.lesson)
    hints = task_hints(lesson)
    if not any(hints.values()):
        print(f"Lesson {lesson.num} has no hints yet ({lesson.hints}).")
        return 0
    progress = Progress()
    e = progress.entry(lesson.num)
    seen = seen_counts(lesson, e, args.build)
    if args.reset:
        seen = {k: 0 for k in seen}
    if args.all:
        print(f"Lesson {lesson.num} ({lesson.title}): all {sum(map(len, hints.values()))} hints.")
        for t in lesson.tasks:
            mine = hints.get(t.number, [])
            print(f"\n==== task {t.number}: {t.title} ({len(mine)} hint{'s' if len(mine) != 1 else ''})")
            for i, hint in enumerate(mine, 1):
                print(f"\n---- hint {i} of {len(mine)} ----\n\n{hint}")
            seen[t.key] = len(mine)
    else:
        # The task the last grade's verdict says is next; with none, the verdict says why.
        verdict = Verdict.from_progress(lesson, e)
        heading = hint_heading(verdict)
        task = verdict.next_task or (verdict.waiting[0] if verdict.waiting and
                                     not verdict.every_task_passed else lesson.tasks[-1])
        mine = hints.get(task.number, [])
        if not mine:
            print(f"Lesson {lesson.num}, task {task.number} ({task.title}) has no hints yet "
                  f"({lesson.hints}).")
            return 0
        shown = min(seen.get(task.key, 0) + 1, len(mine))
        seen[task.key] = shown
        if heading:
            print(heading)
        print(f"Lesson {lesson.num} ({lesson.title}), task {task.number}: {task.title}, hint "
              f"{shown} of {len(mine)}:\n")
        print(mine[shown - 1])
        if shown < len(mine):
            print(f"\n(make hint-{lesson.n} again for the next one; make hint-{lesson.n} ALL=1 "
                  f"shows them all)")
        else:
            print(f"\n(that was the last hint for task {task.number}; make hint-{lesson.n} RESET=1 "
                  f"starts over; make hint-{lesson.n} ALL=1 shows every task's)")
    tasks = e.setdefault("tasks", {})
    for key, count in seen.items():
        tasks.setdefault(key, {})["hints_seen"] = count
    e.pop("hints_seen", None)
    progress.save()
    return 0
