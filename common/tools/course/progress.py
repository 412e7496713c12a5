"""The learner's state, .course/progress.json: per lesson its last status, when it first passed,
its last % of cuBLAS, and per task its last status and the hints seen.

    {"format": 2, "lessons": {"03": {"status": Status.FAILING, "gpu": "not run", "graded_at": ...,
     "passed_at": ..., "pct_of_cublas": 0.9, "perf": "met",
     "tasks": {"1": {"status": Status.PASSED, "passed_at": ..., "hints_seen": 2}}}}}

Files of the first format (no "tasks"; "hints_seen" for the whole lesson) are read as they are:
hints.py spreads the old count over the tasks the first time it is used. A file that cannot be
read is rebuilt with a warning (the old one kept as progress.json.corrupt), never a crash.
"""

import enum
import json
import os
import re
import shutil
import sys
from pathlib import Path

from . import records
from .util import STATE_DIR, now, rel

PROGRESS = STATE_DIR / "progress.json"


class Status(str, enum.Enum):
    """The status of a lesson or of one of its tasks, the one list of them (judge.py decides it,
    screens.py shows it, progress.json keeps its value)."""

    PASSED = "passed"
    """Every test case ran and passed, the GPU part's included."""
    FAILING = "failing"
    """A test case failed for a reason other than a stub, or the grader died."""
    NOT_STARTED = "not started"
    """Every test case that ran hit a stub (NOT IMPLEMENTED), or the regions are as shipped."""
    SKIPPED = "skipped"
    """Nothing of it could run on this machine."""
    CPU_ONLY = "CPU part passed"
    """Its CPU part passed (or, without a CPU part, its regions are written) and its GPU part could
    not run here (no GPU, or one too old): not passed until the GPU part runs and passes."""
    DOES_NOT_COMPILE = "does not compile"
    """Its grader did not build: nothing of it ran (make grade's table)."""

    __str__ = str.__str__  # the value, in messages and f-strings
    __format__ = str.__format__


STATUSES = tuple(s.value for s in Status if s is not Status.DOES_NOT_COMPILE)
FIELDS = {"status": str, "gpu": str, "gpu_note": str, "graded_at": str, "passed_at": str,
          "pct_of_cublas": float, "perf": str, "hints_seen": int, "tasks": dict}
TASK_FIELDS = {"status": str, "passed_at": str, "hints_seen": int}


def _valid(key, value, fields):
    want = fields.get(key)
    ok = want is not None and not isinstance(value, bool)
    if ok and want is float:
        ok = isinstance(value, (int, float))
    elif ok:
        ok = isinstance(value, want)
    if ok and key == "status":
        ok = value in STATUSES
    if ok and key == "hints_seen":
        ok = value >= 0
    return ok


class Progress:
    """The learner's state (see the module's description)."""

    def __init__(self, path=None):
        self.path = Path(path or PROGRESS)
        self.data = {"format": 2, "lessons": {}}
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
                if not _valid(key, value, FIELDS):
                    bad += 1
                    continue
                if key == "tasks":
                    tasks = {}
                    for tkey, tentry in value.items():
                        if not (re.fullmatch(r"\d+", str(tkey)) and isinstance(tentry, dict)):
                            bad += 1
                            continue
                        good = {k: v for k, v in tentry.items() if _valid(k, v, TASK_FIELDS)}
                        bad += len(tentry) - len(good)
                        tasks[str(tkey)] = good
                    value = tasks
                clean[key] = value
            self.data["lessons"][num] = clean
        if bad:
            self._rebuilt(f"had {bad} unreadable entr{'y' if bad == 1 else 'ies'} (dropped)",
                          keep=True)

    def save(self):
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + f".tmp{os.getpid()}")
            self.data["format"] = 2
            tmp.write_text(json.dumps(self.data, indent=1, sort_keys=True) + "\n")
            os.replace(tmp, self.path)
        except OSError as e:
            print(f"warning: could not save {rel(self.path)}: {e}", file=sys.stderr)

    def entry(self, num):
        return self.data["lessons"].setdefault(num, {})

    def get(self, num):
        return self.data["lessons"].get(num, {})

    def record(self, lesson, result, perf=None):
        """Records a graded lesson (a judge.Result) and each of its tasks."""
        e = self.entry(lesson.num)
        t = now()
        # A machine where the GPU part cannot run does not undo a pass that ran it.
        if not (result.status in (Status.SKIPPED, Status.CPU_ONLY) and e.get("status") == Status.PASSED):
            e["status"] = result.status
        if result.status == Status.PASSED:
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
        tasks = e.setdefault("tasks", {})
        for tr in result.tasks:
            te = tasks.setdefault(tr.task.key, {})
            if not (tr.status in (Status.SKIPPED, Status.CPU_ONLY) and te.get("status") == Status.PASSED):
                te["status"] = tr.status
            if tr.status == Status.PASSED:
                te.setdefault("passed_at", t)

    def reset_lesson(self, lesson):
        """After `make reset-N`: the lesson and its tasks are not started (hints seen stay)."""
        e = self.entry(lesson.num)
        if e.get("status"):
            e["status"] = Status.NOT_STARTED
        for te in e.get("tasks", {}).values():
            if te.get("status"):
                te["status"] = Status.NOT_STARTED

    def current(self):
        """The lesson to work on: the first one neither passed nor waiting only for its GPU part
        (Status.CPU_ONLY: the learner has done what this machine can check), or None when none is left."""
        return next((l for l in records.lessons()
                     if self.get(l.num).get("status") not in (Status.PASSED, Status.CPU_ONLY)), None)

    def waiting_for_gpu(self):
        """The lessons whose CPU part passed and whose GPU part has not run yet."""
        return [l for l in records.lessons() if self.get(l.num).get("status") == Status.CPU_ONLY]

    def passed_count(self):
        return sum(1 for l in records.lessons() if self.get(l.num).get("status") == Status.PASSED)


def progress_bar(done, total, width=30):
    filled = round(width * done / total) if total else 0
    return f"[{'#' * filled}{'.' * (width - filled)}] {done} of {total} lessons passed"
