"""The fake course the tests of the course's tools share (tests/tools/test_*.py): its
records, exercises, fake graders and programs, and the helpers that write it; the tools'
modules themselves. See test_course_tool.py for what the tests do."""


import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "common" / "tools"
COURSE = TOOLS / "course.py"
sys.path.insert(0, str(TOOLS))
from course import (building, datafile, measurements, printed, profiles, records,  # noqa: E402
                    report, reset, tomlsubset)

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

HAVE_GIT = shutil.which("git") is not None
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}

STUB = """\
// Lesson {num}: the {slug} exercise.
int {fn}() {{
  //! [body]
  // BEGIN EXERCISE: {fn}
  // TODO: return 42.
  course::not_implemented("{fn} (exercises/{dir}/{slug}.cpp)");
  // END EXERCISE
  //! [body]
}}
int {fn}_twice() {{
  // BEGIN EXERCISE: {fn}_twice
  // TODO: return 84.
  course::not_implemented("{fn}_twice (exercises/{dir}/{slug}.cpp)");
  // END EXERCISE
}}
"""
SOLVED = """\
// Lesson {num}: the {slug} exercise.
int {fn}() {{
  //! [body]
  // BEGIN EXERCISE: {fn}
  return 42;
  // END EXERCISE
  //! [body]
}}
int {fn}_twice() {{
  // BEGIN EXERCISE: {fn}_twice
  return 84;
  // END EXERCISE
}}
"""
BUGGY = SOLVED.replace("return 42;", "return 41;  // BUG")
CRASHY = SOLVED.replace("return 42;", "return *(int*)0;  // CRASH")
# Task 1 done, task 2 untouched.
HALF = SOLVED.replace("  return 84;\n", "  // TODO: return 84.\n  course::not_implemented(\"{fn}_twice "
                      "(exercises/{dir}/{slug}.cpp)\");\n")

# A fake grader: writes the report as tests/support/test_main.cpp does, from the regions of the
# source it "was built from".
GRADER = r'''#!__PYTHON__
import json, os, re, signal, sys
SRC, FN, DIR, SLUG, NAME = __SRC__, __FN__, __DIR__, __SLUG__, __NAME__
CASES = [(FN + " returns 42", ["cpu", "task_1"], FN),
         (FN + " on the GPU", ["gpu", "task_1"], FN),
         (FN + "_twice on the GPU", ["gpu", "task_2"], FN + "_twice")]
args = sys.argv[1:]
tag = args[0] if args else ""
path = os.environ.get("COURSE_REPORT")
out = open(path, "w") if path else None
def emit(obj):
    if out:
        out.write(json.dumps(obj) + "\n")
        out.flush()
cases = [c for c in CASES if tag.strip("[]") in c[1]]
run = {"schema": "course.test-report/1", "type": "run", "program": NAME, "filters": [tag],
       "catch2": "fake"}
print("Filters: " + tag)
if any(a.startswith("--gpu-min-cc=") for a in args) and not os.environ.get("FAKE_GPU"):
    print("SKIPPED: no CUDA device (fake)")
    emit(dict(run, skipped="no CUDA device (fake)"))
    for name, tags, _ in cases:
        emit({"type": "case", "name": name, "tags": tags, "passed": False, "skipped": True,
              "todo": False, "failures": []})
    emit({"type": "end", "passed": 0, "failed": 0, "skipped": len(cases)})
    sys.exit(77)
emit(run)
text = open(SRC).read()
def region(name):
    m = re.search(r"// BEGIN EXERCISE: " + re.escape(name) + r"\n(.*?)// END EXERCISE", text, re.S)
    return m.group(1) if m else ""
passed = failed = 0
for name, tags, reg in cases:
    emit({"type": "start", "name": name, "tags": tags})
    body = region(reg)
    if "CRASH" in body:
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    failures = []
    if "not_implemented" in body:
        msg = "NOT IMPLEMENTED: %s (exercises/%s/%s.cpp) is still a TODO stub" % (reg, DIR, SLUG)
        failures.append({"kind": "exception", "macro": "CHECK", "expression": "", "expanded": "",
                         "message": msg, "info": [], "file": "tests/%s/test.cpp" % DIR,
                         "line": 12, "todo": True})
        print("FAILED: due to unexpected exception with message:\n  " + msg)
    elif "BUG" in body:
        failures.append({"kind": "expression", "macro": "CHECK", "expression": "r.passed",
                         "expanded": "false", "message": "",
                         "info": ["FAILED %s M=70 N=50 K=20\ngot 41, expected 42\n"
                                  "likely cause: off by one (a planted bug)" % reg],
                         "file": "tests/%s/test.cpp" % DIR, "line": 22, "todo": False})
        print("FAILED: CHECK( r.passed )")
    ok = not failures
    passed += ok
    failed += not ok
    emit({"type": "case", "name": name, "tags": tags, "passed": ok, "skipped": False,
          "todo": any(f["todo"] for f in failures), "failures": failures,
          "assertions": {"passed": int(ok), "failed": int(not ok)}})
emit({"type": "end", "passed": passed, "failed": failed, "skipped": 0})
print("test cases: %d | %d passed | %d failed" % (passed + failed, passed, failed))
sys.exit(1 if failed else 0)
'''

# A fake lesson program: the measurement line of its headline kernel, timed alone, when asked (the
# kernel FAKE_KERNEL names: a GPU's track, where a lesson has tracks).
PROGRAM = r"""#!/usr/bin/env bash
for a in "$@"; do
  if [ "$a" = "--headline-only" ]; then
    echo '{"schema": "course.measurement/1", "lesson": "__NUM__", "kernel": "'"${FAKE_KERNEL:-k}"'", "M": 4096, "N": 4096, "K": 4096, "ms": 1.0, "spread": 0.01, "tflops": 6.0, "cublas_ms": 0.1, "cublas_tflops": 50.0, "pct_of_cublas": '"${FAKE_PCT:-12.5}"', "checked": false, "passed": false, "headline": true, "gpu": "fake", "precision": "fp32"}'
  fi
done
echo "fake lesson program ran: $*"
exit "${FAKE_EXIT:-0}"
"""

# A fake `cmake --build`: it "compiles" the exercises and fails, as nvcc would, on one that holds
# SYNTAX_ERROR (with --target, only a lesson whose number a target ends with: grade01 builds lesson
# 01 only). It keeps its arguments, a line a call, in build/cmake-calls.log.
CMAKE = r"""#!/usr/bin/env bash
root="__ROOT__"
echo "$*" >> "$root/build/cmake-calls.log"
lessons=$(echo "$*" | sed -n 's/.*--target //p' | grep -o '[0-9][0-9]' | tr '\n' ' ')
bad=""
for f in $(grep -l SYNTAX_ERROR "$root"/exercises/*/*.cpp 2>/dev/null); do
  n=$(basename "$(dirname "$f")" | cut -c1-2)
  if [ -z "$lessons" ] || echo " $lessons " | grep -q " $n "; then bad="$f"; break; fi
done
if [ -n "$bad" ]; then
  echo "[ 50%] Building CUDA object CMakeFiles/x.dir/$bad.o"
  echo "$bad(3): error: expected a \";\""
  echo "  }"
  echo "1 error detected in the compilation of \"$bad\"."
  echo "gmake[2]: *** [CMakeFiles/x.dir/build.make:77: x.o] Error 2"
  exit 2
fi
echo "[100%] Built target everything"
"""

LESSONS = [("01", "alpha", None, "Alpha: the first lesson"), ("02", "beta", 10, "Beta: the second")]
# The reference solution's target of each lesson (the learner's is the third entry of LESSONS).
SOLUTION_TARGETS = {"01": None, "02": '"~12"'}
TASKS = ("the answer", "twice the answer")

RECORD = """\
# The record of the fake lesson {num}.
number = {n}
slug = "{slug}"
title = "{title}"
chapter = "lesson{num}"
min_cc = "7.5"
precision = "fp32"
kind = "gemm"
parts = ["cpu", "gpu"]
hints = "hints.md"
{targets}
[measure]
sanitize = ["memcheck"]

[[metric]]
name = "dram__bytes_read.sum"
shows = "bytes read"

[[task]]
title = "{t1}"
tag = "task_1"
regions = ["{fn}"]

[[task]]
title = "{t2}"
tag = "task_2"
regions = ["{fn}_twice"]
"""

TESTS = ('TEST_CASE("{fn} returns 42", "[cpu][task_1]") {{}}\n'
         'TEST_CASE("{fn} on the GPU", "[gpu][task_1]") {{}}\n'
         'TEST_CASE("{fn}_twice on the GPU",\n          "[gpu][task_2]") {{}}\n')


def write(path, text, mode=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if mode:
        path.chmod(mode)


class FakeCourse:
    """A course of two lessons in a temporary folder, with fake graders in build/bin."""

    def __init__(self, root, hints=3):
        self.root = root
        lines = ["# The lessons, in course order."]
        for num, slug, target, title in LESSONS:
            d = f"{num}-{slug}"
            lines.append(f"{num} {slug}")
            fmt = dict(num=num, slug=slug, dir=d, fn=f"{slug}_fn")
            targets = ""
            if SOLUTION_TARGETS[num]:
                targets += f"solution_target = {SOLUTION_TARGETS[num]}\n"
            if target:
                targets += f"learner_target = {target}\n"
            write(root / "lessons" / d / "lesson.toml",
                  RECORD.format(num=num, n=int(num), slug=slug, title=title, targets=targets,
                                t1=TASKS[0], t2=TASKS[1], fn=fmt["fn"]))
            write(root / "lessons" / d / "main.cu", "int main() { return 0; }\n")
            write(root / "lessons" / d / "README.md",
                  f"# {title} {{#lesson{num}}}\n\nIntro.\n\n## How it starts\n\nText.\n\n"
                  f"```\n# a shell comment, not a heading\n```\n\n## The {slug} kernel\n\n"
                  f"\\snippet solutions/{d}/{slug}.cpp body\n")
            task1 = "".join(f"\n### Hint {i}\n\nHint number {i} of lesson {num}, task 1.\n"
                            for i in range(1, hints + 1))
            task2 = "".join(f"\n### Hint {i}\n\nHint number {i} of lesson {num}, task 2.\n"
                            for i in range(1, 3))
            write(root / "lessons" / d / "hints.md",
                  f"# Hints for lesson {num}\n\nOne section per task.\n\n## Task 1: {TASKS[0]}\n"
                  f"{task1}\n## Task 2: {TASKS[1]}\n{task2}")
            write(root / "exercises" / d / f"{slug}.cpp", STUB.format(**fmt))
            write(root / "solutions" / d / f"{slug}.cpp", SOLVED.format(**fmt))
            write(root / "tests" / d / "test.cpp", TESTS.format(**fmt))
            for kind, top in (("grade", "exercises"), ("test", "solutions")):
                script = GRADER.replace("__PYTHON__", sys.executable)
                for key, value in (("__SRC__", str(root / top / d / f"{slug}.cpp")),
                                   ("__FN__", fmt["fn"]), ("__DIR__", d), ("__SLUG__", slug),
                                   ("__NAME__", f"{kind}{num}")):
                    script = script.replace(key, repr(value))
                write(root / "build" / "bin" / f"{kind}{num}", script, 0o755)
            for name in (f"lesson{num}", f"lesson{num}_solution"):
                write(root / "build" / "bin" / name, PROGRAM.replace("__NUM__", num), 0o755)
        write(root / "lessons" / "manifest.txt", "\n".join(lines) + "\n")
        write(root / "fakebin" / "cmake", CMAKE.replace("__ROOT__", str(root)), 0o755)
        shutil.copytree(TOOLS / "course", root / "common" / "tools" / "course",
                        ignore=shutil.ignore_patterns("__pycache__"))
        write(root / "common" / "tools" / "course.py", COURSE.read_text(), 0o755)
        write(root / ".gitignore", "/build/\n/.course/\n/fakebin/\n__pycache__/\n")

    def exercise(self, num):
        slug = dict((n, s) for n, s, _, _ in LESSONS)[num]
        return self.root / "exercises" / f"{num}-{slug}" / f"{slug}.cpp"

    def record(self, num):
        slug = dict((n, s) for n, s, _, _ in LESSONS)[num]
        return self.root / "lessons" / f"{num}-{slug}" / "lesson.toml"

    def fill(self, num, template):
        slug = dict((n, s) for n, s, _, _ in LESSONS)[num]
        d = f"{num}-{slug}"
        self.exercise(num).write_text(template.format(num=num, slug=slug, dir=d, fn=f"{slug}_fn"))

    def edit(self, path, old, new):
        text = path.read_text()
        assert old in text, (old, path)
        path.write_text(text.replace(old, new))

    def run(self, *args, env=None, stdin=subprocess.DEVNULL, timeout=60):
        e = dict(os.environ)
        e.pop("FAKE_GPU", None)
        e["NO_COLOR"] = "1"
        e["PATH"] = f"{self.root / 'fakebin'}:{os.environ['PATH']}"
        e.update(env or {})
        args = list(args)
        if args and args[0] in ("grade", "watch", "hint", "check-stubs", "self-check"):
            args += ["--build", str(self.root / "build")]
        p = subprocess.run([sys.executable, str(self.root / "common" / "tools" / "course.py"), *args],
                           cwd=self.root, env=e, stdin=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr

    def state(self):
        return json.loads((self.root / ".course" / "progress.json").read_text())

    def git(self, *args, cwd=None):
        subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", *args],
                       cwd=cwd or self.root, env={**os.environ, **GIT_ENV}, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def commit_all(self, message, cwd=None):
        self.git("add", "-A", cwd=cwd)
        self.git("commit", "-q", "-m", message, cwd=cwd)


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="course-tool-test-"))
        self.c = FakeCourse(self.tmp / "course")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


# ---- the parts that need no course ---------------------------------------------------------------

