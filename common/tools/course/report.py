"""The report a grader writes when COURSE_REPORT names a file (tests/support/test_main.cpp): the
typed channel from the Catch2 programs to `make grade`. Nothing here reads Catch2's console output.

One JSON object per line: a "run" line first (with "schema": "course.test-report/1", and
"skipped": reason when the GPU part could not run), a "start" line as each test case starts, a
"case" line as it ends (name, tags, passed, skipped, todo, failures), an "end" line when the run
ends. A test case with a "start" line (its name and tags) and no "case" line was running when the
program died.
"""

import json
from pathlib import Path

from .util import rel

SCHEMA = "course.test-report/1"


class ReportError(Exception):
    """No report, or not one this reader knows."""


class Failure:
    """One failed assertion of a test case."""

    def __init__(self, d):
        self.kind = str(d.get("kind", "other"))
        self.macro = str(d.get("macro", ""))
        self.expression = str(d.get("expression", ""))
        self.expanded = str(d.get("expanded", ""))
        self.message = str(d.get("message", ""))
        self.info = [str(i) for i in d.get("info", []) if isinstance(i, str)]
        self.file = str(d.get("file", ""))
        self.line = d.get("line", 0) if isinstance(d.get("line"), int) else 0
        self.todo = d.get("todo") is True

    @property
    def where(self):
        return f"{rel(self.file) if self.file else '?'}:{self.line}"

    def lines(self):
        """The failure as a person reads it: where, what, then the messages in scope."""
        if self.kind == "exception":
            head = [f"{self.where}: unexpected exception: {self.message}"]
        elif self.kind == "fatal":
            head = [f"{self.where}: the program died: {self.message}"]
        elif self.expression:
            head = [f"{self.where}: {self.macro}( {self.expression} ) failed" +
                    (f", with expansion: {self.expanded}" if self.expanded and
                     self.expanded != self.expression else "")]
            if self.message:
                head.append(self.message)
        else:
            head = [f"{self.where}: {self.message or 'failed'}"]
        out = []
        for text in head + self.info:
            out += text.rstrip().splitlines() or [""]
        return out


class Case:
    """One test case of the report."""

    def __init__(self, d):
        self.name = str(d.get("name", "?"))
        self.tags = [str(t) for t in d.get("tags", []) if isinstance(t, str)]
        self.passed = d.get("passed") is True
        self.skipped = d.get("skipped") is True
        self.failures = [Failure(f) for f in d.get("failures", []) if isinstance(f, dict)]
        self.todo = d.get("todo") is True or any(f.todo for f in self.failures)
        self.finished = True

    @classmethod
    def unfinished(cls, start):
        """The test case of a "start" line that never ended: the program died in it."""
        case = cls({"name": start.get("name", "?"), "tags": start.get("tags", [])})
        case.finished = False
        return case

    @property
    def part(self):
        return "gpu" if "gpu" in self.tags else "cpu" if "cpu" in self.tags else None

    @property
    def ran(self):
        return not self.skipped


class Report:
    """A grader's report: the run (program, filters, skip reason), its test cases in order."""

    def __init__(self, run, cases, complete):
        self.run, self.cases, self.complete = run, cases, complete

    @property
    def skipped(self):
        """The reason the run's test cases did not run (no usable GPU), or None."""
        reason = self.run.get("skipped")
        return str(reason) if reason else None

    @property
    def crashed_in(self):
        """The test case that was running when the program died, or None."""
        return next((c for c in self.cases if not c.finished), None)


def parse_report(text, where="the report"):
    """The Report of a report file's text; raises ReportError when it is not one."""
    lines = [l for l in text.splitlines() if l.strip()]
    if not lines:
        raise ReportError(f"{where} is empty: the grader stopped before it started")
    objs = []
    for n, line in enumerate(lines, 1):
        try:
            obj = json.loads(line)
        except ValueError:
            if n == len(lines):  # the last line, cut short by a crash
                break
            raise ReportError(f"{where}:{n}: not a JSON line") from None
        if not isinstance(obj, dict):
            raise ReportError(f"{where}:{n}: not a JSON object")
        objs.append(obj)
    run = objs[0] if objs else {}
    if run.get("schema") != SCHEMA or run.get("type") != "run":
        raise ReportError(f"{where}: its first line is not a run of schema {SCHEMA} (it says "
                          f"{run.get('schema')!r}): rebuild the grader")
    cases, open_case, complete = [], None, False
    for obj in objs[1:]:
        kind = obj.get("type")
        if kind == "start":
            open_case = obj
        elif kind == "case":
            cases.append(Case(obj))
            open_case = None
        elif kind == "end":
            complete = True
    if open_case is not None:
        cases.append(Case.unfinished(open_case))
    return Report(run, cases, complete)


def read_report(path):
    """The Report in file `path`; raises ReportError when there is none or it is not one."""
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        raise ReportError(f"no report ({rel(path)}): the grader did not write one") from None
    return parse_report(text, rel(path))
