#!/usr/bin/env python3
"""Tests of the course's tools (common/tools/course/, run as common/tools/course.py), behind
`make grade`, `make watch`, `make next`, `make hint-N`, `make reset-N` and the course's own checks.

Most tests build a small fake course in a temporary folder: a manifest of two lessons, their
records (lesson.toml, two tasks each), their folders, and fake graders that behave like the
Catch2 graders do for the tools: they write the COURSE_REPORT file (tests/support/test_main.cpp
describes it) and print a console report. A fake grader's test cases depend on the regions of
the exercise it "was built from": a region still calling not_implemented fails NOT IMPLEMENTED,
one holding BUG fails with a "likely cause", one holding CRASH kills the grader, any other passes;
the GPU part is skipped unless FAKE_GPU=1. The fake lesson program prints a measurement line only
when asked for --headline-only, of the kernel FAKE_KERNEL names (the headline of the faked GPU's
track, in a lesson with tracks: "portable_gemm" for an RTX 50 series card). The tools are copied in, so they read the fake course and write
its state there: nothing here touches the real repository. CPU only, standard library only, a few
seconds.

The parts of the tools that need no course are tested directly: the record parser (against tomllib
on every real lesson.toml, where tomllib exists), the records, the report reader and the
measurement reader. With COURSE_TEST_BUILD set (CTest sets it to the build folder), the real
graders' reports and `course.py watch 1 --once --solution --no-build` are checked too.

  python3 tests/tools/test_course_tool.py [-v]
"""

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
from course import (datafile, measurements, printed, profiles, records, report, reset,  # noqa: E402
                    tomlsubset)

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

class TomlSubset(unittest.TestCase):
    SAMPLE = '''# a comment
number = 3
title = "a \\"quoted\\" title # not a comment"  # a comment
path = 'C:\\literal'
ratio = 0.5
big = 1_000
negative = -2.5e-3
flag = true
parts = ["cpu",
  "gpu", # the second
]
empty = []

[measure]
ragged = "--m 257"

[[task]]
title = "one"
regions = ["a", "b"]

[[task]]
title = "two \\u00e9"
regions = []
'''

    def test_a_sample_of_every_feature(self):
        doc = tomlsubset.loads(self.SAMPLE)
        self.assertEqual(doc["number"], 3)
        self.assertEqual(doc["title"], 'a "quoted" title # not a comment')
        self.assertEqual(doc["path"], "C:\\literal")
        self.assertEqual(doc["big"], 1000)
        self.assertEqual(doc["parts"], ["cpu", "gpu"])
        self.assertEqual(doc["measure"], {"ragged": "--m 257"})
        self.assertEqual([t["title"] for t in doc["task"]], ["one", "two \u00e9"])
        if tomllib:
            self.assertEqual(doc, tomllib.loads(self.SAMPLE))

    @unittest.skipUnless(tomllib, "tomllib needs Python 3.11")
    def test_agrees_with_tomllib_on_every_lesson_record(self):
        paths = sorted((REPO / "lessons").glob("*/lesson.toml"))
        self.assertTrue(paths)
        for path in paths:
            text = path.read_text()
            self.assertEqual(tomlsubset.loads(text, str(path)), tomllib.loads(text), path)

    def test_what_is_not_in_the_subset_is_an_error_with_its_line(self):
        for text, message in (("a = 1\nb = 03\n", "r:2: a value must be"),
                              ('a = """x"""', "multi-line strings"),
                              ("a.b = 1", "dotted keys"),
                              ("a = {x = 1}", "inline tables"),
                              ("a = 1\na = 2", "r:2: the key 'a' is defined twice"),
                              ("[t]\n[t]", "[t]: 't' is already defined"),
                              ("a = [1,\n 2", "never closed"),
                              ('a = "x', "must end on its line"),
                              ("a = 1 2", "expected the end of the line"),
                              ("a = 1979-05-27", "a value must be"),
                              ("[a.b]", "dotted keys")):
            with self.assertRaises(tomlsubset.TomlError) as cm:
                tomlsubset.loads(text, "r")
            self.assertIn(message, str(cm.exception), text)


class Records(unittest.TestCase):
    def test_the_real_records(self):
        lessons = records.lessons()
        self.assertEqual([l.num for l in lessons][:3], ["01", "02", "03"])
        naive = records.find("3")
        self.assertEqual((naive.kind, naive.precision, naive.parts), ("gemm", "fp32", ["gpu"]))
        self.assertEqual((naive.solution_target_pct, naive.solution_target_approx), (1.0, True))
        self.assertEqual(naive.ragged[:2], ["--m", "257"])
        self.assertTrue(naive.metrics)
        for l in lessons:
            self.assertTrue(l.tasks, l.num)
            self.assertEqual([t.tag for t in l.tasks],
                             [f"task_{i}" for i in range(1, len(l.tasks) + 1)])

    def test_targets_and_shapes(self):
        self.assertEqual(records.parse_target(12, False), (12.0, False))
        self.assertEqual(records.parse_target("~1", True), (1.0, True))
        self.assertIsNone(records.parse_target("~1", False))
        self.assertIsNone(records.parse_target(-3, True))
        self.assertEqual(records.parse_shape("4096"), (4096, 4096, 4096))
        self.assertEqual(records.parse_shape("8192x7168x2048"), (8192, 7168, 2048))
        self.assertIsNone(records.parse_shape("0"))
        self.assertIsNone(records.parse_shape("8192x7168"))

    def test_the_problems_of_a_record(self):
        rec = tomlsubset.loads('number = 4\nslug = "x"\ntitle = 1\nmin_cc = "9"\nkind = "fast"\n'
                               'parts = []\ncolour = "red"\n[[task]]\ntitle = "t"\ntag = "task_2"\n'
                               'regions = []\n')
        text = "\n".join(records.record_problems("03", "naive", rec, "r"))
        for message in ("number = 4, but the manifest lists it as 03", "slug = 'x'",
                        "'title' must be a string", "min_cc must be a compute capability",
                        "kind must be one of gemm, other", "parts must list",
                        "unknown key 'colour'", "no 'precision'", "its tag is 'task_1'",
                        "'regions' names no fill-in region"):
            self.assertIn(message, text)

    def test_the_profile_sizes_are_bench_sizes(self):
        lesson11 = records.find("11")
        self.assertEqual(lesson11.profile[0], "4096")
        self.assertTrue(set(lesson11.profile) <= set(lesson11.bench))
        base = ('number = 3\nslug = "naive"\ntitle = "t"\nchapter = "lesson03"\nmin_cc = "7.5"\n'
                'precision = "fp32"\nkind = "gemm"\nparts = ["gpu"]\nhints = "hints.md"\n'
                '[measure]\nbench = ["1024", "8192x7168x2048"]\nprofile = PROFILE\n'
                '[[task]]\ntitle = "t"\ntag = "task_1"\nregions = ["r"]\n')

        def problems(profile):
            rec = tomlsubset.loads(base.replace("PROFILE", profile), "r")
            return records.record_problems("03", "naive", rec, "r")

        self.assertEqual(problems('["8192x7168x2048", "1024"]'), [])
        self.assertEqual(problems("[]"), [])
        text = "\n".join(problems('["1024", "2048"]'))
        self.assertIn("r [measure]: profile entry '2048' is not one of the bench sizes", text)
        self.assertIn("names a size twice", "\n".join(problems('["1024", "1024"]')))
        self.assertIn("'profile' must be an array of strings", "\n".join(problems('"1024"')))


    def test_the_tracks_of_lesson_11(self):
        lesson11 = records.find("11")
        self.assertEqual([(t.name, t.cc, t.headline) for t in lesson11.tracks],
                         [("wgmma", ["9.0"], "hopper_gemm"),
                          ("portable", ["10.0", "12.0"], "portable_gemm")])
        self.assertEqual((lesson11.min_cc, lesson11.min_cc_for), ("9.0", "TMA"))
        self.assertEqual(records.find("10").min_cc_for, "bf16 mma.sync")
        # The first track's target is the lesson's (the reference GPU's); the portable track has
        # none until a reference is measured on such a GPU.
        self.assertEqual(lesson11.learner_target_pct, 80.0)
        self.assertEqual(lesson11.track_target(lesson11.track_of("hopper_gemm")), 80.0)
        self.assertIsNone(lesson11.track_target(lesson11.track_of("portable_gemm")))
        self.assertIsNone(lesson11.track_of("some_kernel"))
        self.assertIsNone(records.find("10").track_of("hopper_gemm"))

    def test_the_problems_of_tracks(self):
        base = ('number = 3\nslug = "naive"\ntitle = "t"\nchapter = "lesson03"\nmin_cc = "9.0"\n'
                'precision = "fp32"\nkind = "gemm"\nparts = ["gpu"]\nhints = "hints.md"\nTOP\n'
                '[[task]]\ntitle = "t"\ntag = "task_1"\nregions = ["r"]\n'
                '[[track]]\nname = "a"\ncc = ["9.0"]\nheadline = "k1"\nruns = "all"\n'
                'learner_target = 50\n'
                '[[track]]\nname = "b"\ncc = CC\nheadline = "K2"\nruns = "some"\n')

        def problems(cc='["10.0", "12.0"]', top="", headline="k2"):
            rec = tomlsubset.loads(base.replace("CC", cc).replace("TOP", top)
                                   .replace("K2", headline), "r")
            return "\n".join(records.record_problems("03", "naive", rec, "r"))

        self.assertEqual(problems(), "")
        self.assertIn("r [[track]] 2: cc 8.9 is below the lesson's min_cc 9.0", problems('["8.9"]'))
        self.assertIn("r [[track]] 2: cc 9.0 is in track 1 too", problems('["9.0"]'))
        self.assertIn("cc '12' is not a compute capability", problems('["12"]'))
        self.assertIn("'cc' names no compute capability", problems("[]"))
        self.assertIn("the headline 'k1' is track 1's too", problems(headline="k1"))
        self.assertIn("learner_target is given per track", problems(top="learner_target = 5"))
        rec = tomlsubset.loads(base.replace("CC", '["10.0"]').replace("TOP", "")
                               .replace("K2", "k2").replace("learner_target = 50", "runs2 = 1"),
                               "r")
        self.assertIn("r [[track]] 1: unknown key 'runs2'",
                      "\n".join(records.record_problems("03", "naive", rec, "r")))


class PartStates(unittest.TestCase):
    def test_the_states_of_a_part_are_an_enum(self):
        from course import judge
        self.assertEqual([s.value for s in judge.PartState],
                         ["none", "skipped", "passed", "not started", "failing", "crashed"])
        self.assertEqual(f"{judge.PartState.NOT_STARTED}", "not started")
        self.assertEqual(judge.PartState("skipped"), "skipped")


class Reports(unittest.TestCase):
    RUN = {"schema": report.SCHEMA, "type": "run", "program": "grade03", "filters": ["[cpu]"]}

    def parse(self, *objs, tail=""):
        return report.parse_report("".join(json.dumps(o) + "\n" for o in objs) + tail)

    def test_cases_failures_and_the_end(self):
        failure = {"kind": "expression", "macro": "CHECK", "expression": "r.passed",
                   "expanded": "false", "message": "", "info": ["FAILED x\nlikely cause: y"],
                   "file": "/nowhere/t.cpp", "line": 7, "todo": False}
        r = self.parse(self.RUN, {"type": "start", "name": "a"},
                       {"type": "case", "name": "a", "tags": ["cpu", "task_1"], "passed": True,
                        "skipped": False, "todo": False, "failures": []},
                       {"type": "start", "name": "b"},
                       {"type": "case", "name": "b", "tags": ["cpu", "task_2"], "passed": False,
                        "skipped": False, "todo": False, "failures": [failure]},
                       {"type": "end", "passed": 1, "failed": 1})
        self.assertTrue(r.complete)
        self.assertIsNone(r.crashed_in)
        self.assertEqual([(c.name, c.passed, c.part) for c in r.cases],
                         [("a", True, "cpu"), ("b", False, "cpu")])
        lines = r.cases[1].failures[0].lines()
        self.assertEqual(lines[0], "/nowhere/t.cpp:7: CHECK( r.passed ) failed, with expansion: "
                                   "false")
        self.assertIn("likely cause: y", lines)

    def test_a_crash_leaves_the_running_case_unfinished(self):
        r = self.parse(self.RUN, {"type": "start", "name": "a", "tags": ["gpu", "task_2"]},
                       tail='{"type": "ca')
        self.assertFalse(r.complete)
        self.assertEqual((r.crashed_in.name, r.crashed_in.tags), ("a", ["gpu", "task_2"]))

    def test_a_stub_is_todo_and_a_skip_has_its_reason(self):
        r = self.parse(dict(self.RUN, skipped="no CUDA device"),
                       {"type": "case", "name": "g", "tags": ["gpu"], "passed": False,
                        "skipped": True, "failures": []})
        self.assertEqual(r.skipped, "no CUDA device")
        self.assertFalse(r.cases[0].ran)
        r = self.parse(self.RUN, {"type": "case", "name": "s", "tags": [], "passed": False,
                                  "failures": [{"kind": "exception", "message": "NOT IMPLEMENTED: "
                                                "f (x.cu) is still a TODO stub", "todo": True}]})
        self.assertTrue(r.cases[0].todo)

    def test_not_a_report(self):
        for text in ("", '{"schema": "something/2", "type": "run"}\n', "[1]\n{}\n"):
            with self.assertRaises(report.ReportError):
                report.parse_report(text)
        with self.assertRaises(report.ReportError):
            report.read_report(Path(tempfile.gettempdir()) / "no-such-report.jsonl")


class Measurements(unittest.TestCase):
    GEMM = {"schema": measurements.SCHEMA, "lesson": "03", "kernel": "naive_sgemm", "M": 64,
            "N": 64, "K": 64, "ms": 1.0, "spread": 0.01, "tflops": 0.5, "cublas_ms": 0.01,
            "cublas_tflops": 50.0, "pct_of_cublas": 1.0, "checked": True, "passed": True,
            "headline": True, "gpu": "g", "precision": "fp32", "regime": "burst", "samples": 10,
            "kernel_first": False, "sm_clock_mhz": 1980, "cublas_sm_clock_mhz": 1980,
            "power_w": None, "cublas_power_w": None, "energy_j": None, "cublas_energy_j": None}

    def test_gemm_and_what_lines(self):
        self.assertTrue(measurements.is_gemm(measurements.check(dict(self.GEMM))))
        what = {"schema": measurements.SCHEMA, "lesson": "06", "what": "occupancy", "x": 1}
        self.assertFalse(measurements.is_gemm(measurements.check(what)))
        self.assertTrue(measurements.check({"meta": True, "gpu": "g"}))
        self.assertTrue(measurements.check(dict(self.GEMM, ms=None)))  # NaN is written as null

    def test_the_line_the_cpp_declaration_writes(self):
        # What tests/common/test_cli_report.cpp checks GemmMeasurement::json() writes.
        line = ('{"schema": "course.measurement/2", "lesson": "03", "kernel": "naive_sgemm", '
                '"M": 4096, "N": 2048, "K": 1024, "ms": 2.5, "spread": 0.01, "tflops": 6.9, '
                '"cublas_ms": 0.05, "cublas_tflops": 340, "pct_of_cublas": 2, "checked": true, '
                '"passed": true, "headline": true, "gpu": "G", "precision": "fp32", '
                '"intensity": 0.25, "regime": "burst", "samples": 0, "kernel_first": false, '
                '"sm_clock_mhz": null, "cublas_sm_clock_mhz": null, "power_w": null, '
                '"cublas_power_w": null, "energy_j": null, "cublas_energy_j": null}')
        parsed = measurements.parse_line(line)
        self.assertEqual(set(parsed) - {"schema", "intensity"},
                         set(measurements.GEMM_FIELDS) | set(measurements.GEMM_FIELDS_V2))
        self.assertEqual(measurements.method(parsed), measurements.METHOD)

    def test_version_1_lines_are_the_old_method_in_burst(self):
        old = dict({k: v for k, v in self.GEMM.items() if k not in measurements.GEMM_FIELDS_V2},
                   schema=measurements.SCHEMA_V1)
        self.assertTrue(measurements.is_gemm(measurements.check(old)))
        self.assertEqual(measurements.regime(old), "burst")
        self.assertEqual(measurements.method(old), measurements.METHOD_V1)
        # Version 2 names its regime, and only the two there are.
        for bad in ({k: v for k, v in self.GEMM.items() if k != "regime"},
                    dict(self.GEMM, regime="warm")):
            with self.assertRaises(measurements.SchemaError):
                measurements.check(bad)

    def test_the_schema_is_checked(self):
        for bad in (dict(self.GEMM, schema=None), {k: v for k, v in self.GEMM.items() if k != "ms"},
                    dict(self.GEMM, M="64"), dict(self.GEMM, headline=1),
                    dict(self.GEMM, precision="fp64"),
                    {"schema": measurements.SCHEMA, "what": "occupancy"}):
            with self.assertRaises(measurements.SchemaError):
                measurements.check(bad)

    PROFILE = {"schema": measurements.SCHEMA, "lesson": "11", "what": "profile",
               "kernel": "ring_gemm_kernel<Cfg<128, 256>>", "M": 512, "N": 8192, "K": 8192,
               "shape": "512x8192x8192", "size": None,
               "metrics": {"gpu__time_duration.sum": 1500.0, "lts__t_bytes.sum": None},
               "launches": 2, "baseline": False, "headline": True, "gpu": "g",
               "date": "2026-12-01", "clocks": "left alone", "build": "solution"}

    def test_profile_lines(self):
        self.assertFalse(measurements.is_gemm(measurements.check(dict(self.PROFILE))))
        self.assertTrue(measurements.check(dict(self.PROFILE, size=512, M=512, N=512, K=512,
                                                shape="512x512x512")))
        for bad in ({k: v for k, v in self.PROFILE.items() if k != "launches"},
                    dict(self.PROFILE, baseline=None), dict(self.PROFILE, size="512"),
                    dict(self.PROFILE, metrics=[1.0]), dict(self.PROFILE, metrics={"m": "1"}),
                    dict(self.PROFILE, shape="512x8192")):
            with self.assertRaises(measurements.SchemaError):
                measurements.check(bad)

    PRINTED = {"schema": measurements.SCHEMA, "lesson": "09", "what": "printed",
               "command": "make lesson-9 SOLUTION=1", "text": "seed: 1\n\nkernel  ms\n------",
               "gpu": "NVIDIA H200", "date": "2026-11-27", "driver": "580.159.04", "cuda": "13.0",
               "build": "solution"}

    def test_printed_lines(self):
        line = measurements.check(dict(self.PRINTED))
        self.assertTrue(measurements.is_printed(line))
        self.assertFalse(measurements.is_gemm(line))
        self.assertFalse(profiles.is_profile(line))
        for bad in ({k: v for k, v in self.PRINTED.items() if k != "text"},
                    {k: v for k, v in self.PRINTED.items() if k != "driver"},
                    dict(self.PRINTED, text=""), dict(self.PRINTED, text=" \n "),
                    dict(self.PRINTED, text=["seed: 1"]), dict(self.PRINTED, command=None),
                    dict(self.PRINTED, date="27.11.2026"), dict(self.PRINTED, cuda=13.0)):
            with self.subTest(bad=bad), self.assertRaises(measurements.SchemaError):
                measurements.check(bad)

    def test_a_programs_output(self):
        other = dict(self.GEMM, kernel="other", headline=False)
        out = "a table\n{not json\n" + json.dumps(other) + "\n" + json.dumps(self.GEMM) + "\n"
        lines = measurements.from_output(out)
        self.assertEqual([l["kernel"] for l in lines], ["other", "naive_sgemm"])
        self.assertEqual(measurements.headline(lines)["kernel"], "naive_sgemm")
        with self.assertRaises(measurements.SchemaError):
            measurements.from_output(json.dumps({"kernel": "k"}) + "\n")


def ncu_csv(rows):
    """ncu --csv's output for `rows` of (launch ID, kernel name, metric, unit, value): its header,
    then one quoted row a launch and metric, as ncu prints them after the program's own output."""
    head = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
            "Block Size", "Grid Size", "Device", "CC", "Section Name", "Metric Name",
            "Metric Unit", "Metric Value"]
    out = [",".join(f'"{h}"' for h in head)]
    for launch, kernel, metric, unit, value in rows:
        cells = [str(launch), "4242", "lesson11_solution", "127.0.0.1", kernel, "1", "7",
                 "(384, 1, 1)", "(132, 1, 1)", "0", "9.0", "Command line profiler metrics",
                 metric, unit, value]
        out.append(",".join(f'"{c}"' for c in cells))
    return "\n".join(out) + "\n"


# Kernel names as ncu 2025.3 prints them: a template's with "void", the timing's hold kernel and
# a kernel of an anonymous namespace with "<unnamed>".
LADDER = "void lesson11::tma_wgmma_kernel<lesson11::Cfg<(int)128, 1>>(int)"
HEADLINE = "lesson11::<unnamed>::ring_gemm_kernel<lesson11::RingConfig<128, 256, 4>>(int *)"
CUBLAS = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT"
HOLD = "course::<unnamed>::hold_kernel(unsigned long long)"
TIME = "gpu__time_duration.sum"
L2 = "lts__t_bytes.sum"
# A ladder of two kernels with cuBLAS beside each, the timing's hold between the launches: what
# `ncu --csv` prints of it (in base units, as --csv asks for; some scaled, as ncu may print them).
NCU_OUTPUT = ("==PROF== Connected to process 4242\n{\"gpu\": \"x\"}\n" + ncu_csv([
    (0, HOLD, TIME, "ns", "1,568"),
    (1, CUBLAS, TIME, "usecond", "177.40"), (1, CUBLAS, L2, "Gbyte", "1.05"),
    (2, LADDER, TIME, "us", "372.30"), (2, LADDER, L2, "byte", "2,775,000,000"),
    (3, CUBLAS, TIME, "ns", "177,500"), (3, CUBLAS, L2, "byte", "1,047,000,000"),
    (4, LADDER, TIME, "ms", "0.3725"), (4, LADDER, L2, "Mbyte", "2,776.00"),
    (5, CUBLAS, TIME, "ns", "177,600"), (5, CUBLAS, L2, "byte", "n/a"),
    (6, HEADLINE, TIME, "ns", "181,300"), (6, HEADLINE, L2, "byte", "1,284,000,000"),
    (7, HOLD, TIME, "ns", "1,920"),
    (8, HEADLINE, TIME, "ns", "181,500"), (8, HEADLINE, L2, "byte", "1,286,000,000")]))


class Profiles(unittest.TestCase):
    """ncu's CSV read into each kernel's medians, and the lines recorded of them."""

    def test_the_csv_gives_each_kernels_medians_and_whose_it_is(self):
        kernels = profiles.parse_csv(NCU_OUTPUT)
        self.assertEqual([k.short for k in kernels],
                         [CUBLAS, "tma_wgmma_kernel<Cfg<128, 1>>",
                          "ring_gemm_kernel<RingConfig<128, 256, 4>>"])  # no hold_kernel
        self.assertEqual(profiles.kind_of(HOLD), profiles.HELPER)
        cublas, ladder, headline = kernels
        self.assertEqual([k.kind for k in kernels],
                         [profiles.BASELINE, profiles.COURSE, profiles.COURSE])
        self.assertEqual(len(cublas.launches), 3)
        self.assertAlmostEqual(cublas.median(TIME), 177500.0)  # ns, from usecond and ns
        self.assertAlmostEqual(cublas.median(L2), (1.05e9 + 1.047e9) / 2)  # n/a left out
        self.assertAlmostEqual(ladder.median(TIME), 372400.0)  # from us and ms
        self.assertAlmostEqual(ladder.median(L2), 2.7755e9)  # bytes and Mbytes
        self.assertAlmostEqual(headline.median(TIME), 181400.0)
        self.assertIsNone(headline.median("dram__bytes_read.sum"))
        self.assertEqual(profiles.kind_of("void cutlass::Kernel2<cutlass_80_tensorop>(int)"),
                         profiles.BASELINE)
        self.assertEqual(profiles.kind_of("void lesson06::tuned_kernel<32>(int)"), profiles.COURSE)
        self.assertEqual(profiles.parse_csv("no kernel was profiled\n"), [])

    def test_the_recorded_lines(self):
        kernels = profiles.parse_csv(NCU_OUTPUT)
        lines = profiles.lines_of(kernels, [TIME, L2, "dram__bytes_read.sum"], lesson="11",
                                  size="8192x7168x2048", gpu="NVIDIA H200", date="2026-12-01",
                                  build="solution",
                                  headline={"ring_gemm_kernel<RingConfig<128, 256, 4>>"})
        for l in lines:
            measurements.check(json.loads(json.dumps(l)))  # valid, and JSON as written
            self.assertEqual((l["M"], l["N"], l["K"], l["shape"], l["size"]),
                             (8192, 7168, 2048, "8192x7168x2048", None))
            self.assertEqual((l["what"], l["clocks"], l["schema"]),
                             ("profile", "left alone", measurements.SCHEMA))
        self.assertEqual([(l["baseline"], l["headline"]) for l in lines],
                         [(True, False), (False, False), (False, True)])
        self.assertEqual([l["launches"] for l in lines], [3, 2, 2])
        self.assertEqual(lines[2]["metrics"], {TIME: 181400.0, L2: 1.285e9,
                                               "dram__bytes_read.sum": None})
        cube = profiles.lines_of(kernels[:1], [TIME], lesson="11", size="4096", gpu="g",
                                 date="d", build="mine", headline=set())
        self.assertEqual((cube[0]["shape"], cube[0]["size"], cube[0]["build"]),
                         ("4096x4096x4096", 4096, "mine"))


class Measure(unittest.TestCase):
    """measure.py's answers to bad input, before it profiles anything."""

    def measure(self, *args, path=None):
        env = {**os.environ, "PATH": path} if path else None
        p = subprocess.run([sys.executable, str(TOOLS / "measure.py"), *args], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        return p.returncode, p.stdout

    def test_bad_input_is_said_and_exit_2(self):
        for args, message in ((("profile", "11", "--size", "8192x7168"),
                               "--size takes a size (4096) or a shape MxNxK"),
                              (("profile", "11", "--size", "0"), "not '0'"),
                              (("profile", "2", "--record"), "--record is for the GEMM lessons'"),
                              (("profile", "2", "--headline-only"), "--headline-only is for"),
                              (("profile", "11", "--timeout", "0"), "--timeout takes"),
                              (("sanitize", "11", "--record"), "sanitize: --record is profile's"),
                              (("sass", "11", "--size", "4096", "--headline-only"),
                               "--size, --headline-only are profile's"),
                              (("profile", "99"), "no lesson '99'")):
            with self.subTest(args=args):
                rc, out = self.measure(*args)
                self.assertEqual(rc, 2, out)
                self.assertIn(message, out)
                self.assertNotIn("Traceback", out)

    def test_record_without_a_gpu(self):
        tmp = Path(tempfile.mkdtemp(prefix="measure-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        write(tmp / "nvidia-smi", "#!/bin/sh\necho 'No devices were found'\nexit 6\n", 0o755)
        rc, out = self.measure("profile", "11", "--record", path=str(tmp))
        self.assertEqual(rc, 3, out)
        self.assertIn("this needs a CUDA GPU: nvidia-smi says: No devices were found", out)


class Printed(unittest.TestCase):
    """What `make lesson-N SOLUTION=1` printed, as a line of book/data/ (course/printed.py)."""

    OUTPUT = ("== lesson02_solution\ndevice: NVIDIA H200 (compute capability 9.0)\n\n"
              "picture: /home/you/course/build/dispatch-grid.svg\n\n")

    def test_the_text_is_the_programs_without_makes_line_or_the_courses_folder(self):
        text = printed.program_text(self.OUTPUT, "2", root="/home/you/course")
        self.assertEqual(text, "device: NVIDIA H200 (compute capability 9.0)\n\n"
                               "picture: build/dispatch-grid.svg")
        # The program's own output (what bench runs) is kept whole; a trailing "/" on the root
        # changes nothing, and a root elsewhere is left alone.
        self.assertEqual(printed.program_text(self.OUTPUT.split("\n", 1)[1], "02",
                                              root="/home/you/course/"), text)
        self.assertIn("/home/you/course/build",
                      printed.program_text(self.OUTPUT, "02", root="/elsewhere"))
        # Build chatter before make's line is not the program's.
        self.assertEqual(printed.program_text("building lesson 02 ...\n" + self.OUTPUT, "02",
                                              root="/home/you/course"), text)
        # Lesson 08's own "== " headings are its output, not make's line.
        self.assertEqual(printed.program_text("== the shuffles\nlane 0", "08"),
                         "== the shuffles\nlane 0")

    def test_a_run_with_options_or_nothing_is_refused(self):
        with self.assertRaises(printed.PrintedError):
            printed.program_text("== lesson10_solution --sweep\nrows\n", "10")
        for empty in ("", "== lesson03_solution\n\n"):
            with self.assertRaises(printed.PrintedError):
                printed.program_text(empty, "03")

    def test_the_line_and_its_record(self):
        line = printed.line("2", self.OUTPUT, gpu="NVIDIA H200", date="2026-11-27",
                            driver="580.159.04", cuda="13.0", root="/home/you/course")
        self.assertEqual((line["lesson"], line["what"], line["command"], line["build"]),
                         ("02", "printed", "make lesson-2 SOLUTION=1", "solution"))
        self.assertEqual(measurements.check(json.loads(json.dumps(line))), line)
        tmp = Path(tempfile.mkdtemp(prefix="printed-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        meta = {"meta": True, "gpu": "NVIDIA H200", "date": "2026-11-24"}
        old = [dict(line, date="2026-11-24", text="old 02"), dict(line, lesson="09", text="09"),
               dict(Measurements.GEMM, lesson="09")]
        path = datafile.update(tmp / "nvidia-h200.jsonl", old, lambda l: True, meta=meta)
        self.assertEqual(printed.record(tmp, 2, self.OUTPUT, gpu="NVIDIA H200", date="2026-11-27",
                                        driver="580.159.04", cuda="13.0",
                                        root="/home/you/course"), path)
        kept_meta, lines = datafile.read(path)
        self.assertEqual(kept_meta, meta)
        self.assertEqual(lines, [line] + old[1:])  # its lesson's replaced, the rest kept


class DataFile(unittest.TestCase):
    """The one writer of book/data/<gpu>.jsonl: bench's and a recorded profile's."""

    def profile(self, lesson, shape, kernel, build="solution"):
        m, n, k = map(int, shape.split("x"))
        return dict(Measurements.PROFILE, lesson=lesson, shape=shape, M=m, N=n, K=k,
                    size=m if m == n == k else None, kernel=kernel, build=build)

    def test_a_profile_replaces_its_lesson_and_shapes_lines_and_keeps_the_rest(self):
        tmp = Path(tempfile.mkdtemp(prefix="datafile-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        path = datafile.path_of(datafile.data_dir(tmp, mine=False), "NVIDIA H200")
        self.assertEqual(path, tmp / "nvidia-h200.jsonl")
        self.assertEqual(datafile.path_of(datafile.data_dir(tmp, mine=True), "NVIDIA H100 80GB HBM3"),
                         tmp / "mine" / "nvidia-h100-80gb-hbm3.jsonl")
        meta = {"meta": True, "gpu": "NVIDIA H200", "date": "2026-11-27"}
        gemm = dict(Measurements.GEMM, lesson="11", size=4096, shape="4096x4096x4096",
                    build="solution")
        old = [self.profile("11", "4096x4096x4096", "a"), self.profile("11", "4096x4096x4096", "b"),
               self.profile("11", "8192x7168x2048", "c"), self.profile("10", "4096x4096x4096", "d"),
               gemm]
        datafile.update(path, old, lambda line: True, meta=meta)
        self.assertEqual(datafile.read(path), (meta, old))
        new = [self.profile("11", "4096x4096x4096", "e")]
        datafile.update(path, new, profiles.replaced_by("11", "4096x4096x4096"))
        kept_meta, lines = datafile.read(path)
        self.assertEqual(kept_meta, meta)  # the run's description stays as it was
        self.assertEqual([l.get("kernel") for l in lines], ["e", "c", "d", gemm["kernel"]])
        self.assertFalse(any(f.name.endswith(".tmp") for f in tmp.iterdir()))
        # Without a file: the lines alone, no description.
        other = tmp / "other.jsonl"
        datafile.update(other, new, profiles.replaced_by("11", "4096x4096x4096"))
        self.assertEqual(datafile.read(other), (None, new))


class Bench(unittest.TestCase):
    """make bench on fake lesson programs: the records say which lessons and sizes, the
    measurement reader reads what they print."""

    LINE = ('{"schema": "course.measurement/1", "lesson": "NN", "kernel": "kNN", "M": 64, "N": 64, '
            '"K": 64, "ms": 1.0, "spread": 0.01, "tflops": 5.0, "cublas_ms": 0.5, '
            '"cublas_tflops": 10.0, "pct_of_cublas": 50.0, "checked": true, "passed": true, '
            '"headline": true, "gpu": "Fake GPU", "precision": "PREC"}')

    def fake_build(self):
        """A build folder of fake lesson programs (each prints one measurement line and logs its
        arguments), in a temporary folder: the folder."""
        tmp = Path(tempfile.mkdtemp(prefix="bench-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        write(tmp / "bin" / "lesson01_solution",
              f"#!/bin/sh\necho \"$*\" >> {tmp / 'args.log'}\n"
              "echo '{\"schema\": \"course.measurement/1\", \"lesson\": \"01\", "
              "\"what\": \"copy_bandwidth\", \"value\": 3000.0, \"unit\": \"GB/s\", \"peak\": "
              "3350.0, \"pct_of_peak\": 89.5, \"gpu\": \"Fake GPU\", \"sm_count\": 132, "
              "\"sm_clock_mhz\": 1980}'\n", 0o755)
        # Lesson 02 prints text only, and a path in the course's folder (whose root bench takes
        # out of the text it records).
        write(tmp / "bin" / "lesson02_solution",
              f"#!/bin/sh\n[ -f {tmp / 'fail02'} ] && exit 1\necho 'device: Fake GPU'\n"
              f"echo 'picture: {REPO}/build/dispatch-grid.svg'\n", 0o755)
        for lesson in records.lessons():
            if lesson.kind != "gemm":
                continue
            line = self.LINE.replace("NN", lesson.num).replace("PREC", lesson.precision)
            write(tmp / "bin" / f"lesson{lesson.num}_solution",
                  f"#!/bin/sh\necho \"args: $*\"\necho \"$*\" >> {tmp / 'args.log'}\n"
                  f"echo '{line}'\n"
                  f"echo '{{\"schema\": \"course.measurement/1\", \"lesson\": \"{lesson.num}\", "
                  f"\"what\": \"config\"}}'\n", 0o755)
        return tmp

    def bench(self, tmp, *args):
        """(exit code, output) of bench.py on the fake build `tmp`, into tmp/out."""
        import bench
        argv, probe = sys.argv, bench.probe_gpu
        sys.argv = ["bench.py", "--build", str(tmp), "--out", str(tmp / "out"), "--rest", "0",
                    *args]
        bench.probe_gpu = lambda build=None: None
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said):
                rc = bench.main()
        finally:
            sys.argv, bench.probe_gpu = argv, probe
        return rc, said.getvalue()

    def test_sizes_shapes_and_the_stored_lines(self):
        tmp = self.fake_build()
        rc, said = self.bench(tmp, "--lessons", "3,11", "--no-profile")
        self.assertNotIn("profile", said)
        self.assertEqual(rc, 0, said)
        self.assertIn("lesson 11 (solution) at 8192x7168x2048", said)
        lines = [json.loads(l) for l in (tmp / "out" / "fake-gpu.jsonl").read_text().splitlines()]
        meta, rest = lines[0], lines[1:]
        self.assertEqual(meta["sizes_of"]["03"], ["1024", "2048", "4096"])
        self.assertEqual(meta["sizes_of"]["11"], records.find("11").bench or ["4096", "8192"])
        gemm = [l for l in rest if measurements.is_gemm(measurements.check(l))]
        shapes = [l["shape"] for l in gemm if l["lesson"] == "11"]
        # Each shape twice: burst, then the headline alone in the sustained regime.
        self.assertEqual(len(shapes), 2 * len(meta["sizes_of"]["11"]))
        # (The runs without arguments are those of the transcripts.)
        args = [a for a in (tmp / "args.log").read_text().splitlines() if a]
        sustained = [a for a in args if "--regime sustained" in a]
        self.assertEqual(len(sustained), len(args) // 2)
        self.assertTrue(all("--headline-only" in a for a in sustained))
        # Lesson 01 first: the ceilings, and the check of the method.
        self.assertIn("--method", args[0])
        for l in gemm:
            self.assertEqual(l["size"], int(l["shape"].split("x")[0])
                             if len(set(l["shape"].split("x"))) == 1 else None)
        # A lesson's own measurements are kept from its largest problem only.
        self.assertEqual(sum(1 for l in rest if l.get("what") == "config"), 2)

    def printed_lines(self, tmp, mine=False):
        data = datafile.data_dir(tmp / "out", mine=mine) / "fake-gpu.jsonl"
        return {l["lesson"]: l for l in datafile.read(data)[1] if measurements.is_printed(l)}

    def test_transcripts_replaced_only_by_a_new_one_of_their_lesson(self):
        tmp = self.fake_build()
        old = {num: dict(Measurements.PRINTED, lesson=num, command=printed.command(num),
                         text=f"old {num}", gpu="Fake GPU", date="2000-01-01")
               for num in ("01", "02", "03", "09")}
        datafile.update(tmp / "out" / "fake-gpu.jsonl", list(old.values()), lambda l: True,
                        meta={"meta": True, "gpu": "Fake GPU", "date": "2000-01-01"})
        # --no-printed records none and keeps every one, with or without --lessons.
        for args in (("--lessons", "3"), ()):
            rc, said = self.bench(tmp, *args, "--regimes", "burst", "--no-profile",
                                  "--no-printed")
            self.assertEqual(rc, 0, said)
            self.assertEqual(self.printed_lines(tmp), old)
        rc, said = self.bench(tmp, "--lessons", "3", "--regimes", "burst", "--no-profile")
        self.assertEqual(rc, 0, said)
        self.assertIn("printed: make lesson-3 SOLUTION=1", said)
        found = self.printed_lines(tmp)
        # 01, 02 and the lesson run now: new; lesson 09, not run now: as it was.
        self.assertEqual(sorted(found), ["01", "02", "03", "09"])
        self.assertEqual(found["09"], old["09"])
        for num in ("01", "02", "03"):
            line = found[num]
            self.assertNotEqual(line["date"], "2000-01-01")
            self.assertEqual((line["command"], line["gpu"], line["build"]),
                             (printed.command(num), "Fake GPU", "solution"))
        # Lesson 02's path is the course's own: its folder is taken out.
        self.assertEqual(found["02"]["text"], "device: Fake GPU\npicture: build/dispatch-grid.svg")
        self.assertIn('"what": "config"', found["03"]["text"])  # the whole output
        # No transcript is taken for a GEMM measurement, nor a measurement for a transcript.
        lines = datafile.read(tmp / "out" / "fake-gpu.jsonl")[1]
        self.assertEqual(sum(1 for l in lines if measurements.is_printed(l)), 4)
        # A run that fails records nothing, keeps the transcript before, and fails the bench.
        (tmp / "fail02").write_text("")
        rc, said = self.bench(tmp, "--lessons", "3", "--regimes", "burst", "--no-profile")
        self.assertEqual(rc, 1, said)
        self.assertIn("printed output not recorded, the run FAILED (exit 1)", said)
        self.assertEqual(self.printed_lines(tmp)["02"], found["02"])
        # Your builds' file gets no transcript.
        (tmp / "fail02").unlink()
        write(tmp / "bin" / "lesson03", (tmp / "bin" / "lesson03_solution").read_text(), 0o755)
        rc, said = self.bench(tmp, "--lessons", "3", "--regimes", "burst", "--no-profile",
                              "--mine")
        self.assertEqual(rc, 0, said)
        self.assertEqual(self.printed_lines(tmp, mine=True), {})
        self.assertNotIn("printed:", said)

    def test_profiles_after_the_timings_and_skipped_without_counters(self):
        tmp = self.fake_build()
        tools = tmp / "tools"
        # nvidia-smi says a GPU is here; ncu runs the program, then prints its CSV (a ladder of
        # two kernels, or the headline alone with --headline-only), or refuses the counters.
        write(tools / "nvidia-smi", "#!/bin/sh\n[ \"$1\" = -L ] && echo 'GPU 0: Fake GPU'\n", 0o755)
        ladder = ncu_csv([(1, CUBLAS, TIME, "usecond", "177.4"), (2, LADDER, TIME, "usecond", "372"),
                          (3, CUBLAS, TIME, "usecond", "177.6"), (4, HEADLINE, TIME, "usecond", "181"),
                          (5, HOLD, TIME, "usecond", "100")])
        alone = ncu_csv([(1, CUBLAS, TIME, "usecond", "90"), (2, HEADLINE, TIME, "usecond", "95")])
        write(tmp / "ladder.csv", ladder)
        write(tmp / "alone.csv", alone)
        write(tools / "ncu",
              "#!/bin/sh\n"
              f"echo \"$*\" >> {tmp / 'ncu.log'}\n"
              f"if [ -f {tmp / 'refuse'} ]; then echo '==ERROR== ERR_NVGPUCTRPERM - no access'; "
              "exit 1; fi\n"
              'while [ "$1" != --metrics ]; do shift; done\nshift 2\n"$@"\n'
              f'case " $* " in *" --headline-only "*) cat {tmp / "alone.csv"};; '
              f'*) cat {tmp / "ladder.csv"};; esac\n', 0o755)
        path = os.environ["PATH"]
        os.environ["PATH"] = f"{tools}{os.pathsep}{path}"
        self.addCleanup(os.environ.__setitem__, "PATH", path)
        rc, said = self.bench(tmp, "--lessons", "11", "--only-sizes", "4096,8192x7168x2048,2048")
        self.assertEqual(rc, 0, said)
        data = tmp / "out" / "fake-gpu.jsonl"
        lines = [measurements.check(json.loads(l)) for l in data.read_text().splitlines()]
        found = [l for l in lines if profiles.is_profile(l)]
        # The record's profile list, where the run measured: 4096^3 the ladder, the others the
        # headline and cuBLAS; in the order the record lists them.
        self.assertEqual(sorted({l["shape"] for l in found}),
                         ["2048x2048x2048", "4096x4096x4096", "8192x7168x2048"])
        at4096 = [l for l in found if l["shape"] == "4096x4096x4096"]
        self.assertEqual([(l["kernel"], l["baseline"], l["headline"]) for l in at4096],
                         [(CUBLAS, True, False), ("tma_wgmma_kernel<Cfg<128, 1>>", False, False),
                          ("ring_gemm_kernel<RingConfig<128, 256, 4>>", False, True)])
        self.assertEqual(at4096[0]["metrics"][TIME], 177500.0)
        shapes = [l for l in found if l["shape"] == "8192x7168x2048"]
        self.assertEqual([(l["baseline"], l["headline"], l["size"]) for l in shapes],
                         [(True, False, None), (False, True, None)])
        calls = (tmp / "ncu.log").read_text().splitlines()
        self.assertEqual(sum("--headline-only" not in c for c in calls), 1)  # the ladder once
        self.assertTrue(all("--clock-control none" in c and "--reps 1" in c for c in calls))
        self.assertIn("--m 8192 --n 7168 --k 2048", " ".join(calls))
        self.assertIn("recorded 3 kernel(s) of lesson 11 at 4096x4096x4096 (the ladder)", said)
        # Timed again where ncu may not read the counters: one line says so, the bench goes on,
        # and the profiles recorded before are kept beside the new timings.
        (tmp / "refuse").write_text("")
        rc, said = self.bench(tmp, "--lessons", "11", "--only-sizes", "4096")
        self.assertEqual(rc, 0, said)
        self.assertEqual(said.count("profiles skipped: ncu may not read the GPU's performance "
                                    "counters"), 1, said)
        again = [json.loads(l) for l in data.read_text().splitlines()]
        self.assertEqual([l for l in again if profiles.is_profile(l)], found)
        self.assertEqual(len([l for l in again if measurements.is_gemm(l)]),
                         len([l for l in lines if measurements.is_gemm(l)]))


# ---- the fake course -----------------------------------------------------------------------------

class ManifestAndRepo(Base):
    def test_unknown_lesson_lists_the_lessons_and_exits_2(self):
        for cmd in (["resolve", "7"], ["hint", "x"], ["grade", "9"], ["reset", "0"], ["watch", "5"]):
            rc, out, err = self.c.run(*cmd)
            self.assertEqual(rc, 2, cmd)
            self.assertIn("no lesson", err)
            self.assertIn("02  beta", err)

    def test_check_repo_passes_on_a_consistent_course(self):
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 0, out)
        self.assertIn("all consistent", out)

    def test_check_repo_wants_a_hint_per_task_in_the_records_order(self):
        hints = self.c.root / "lessons" / "01-alpha" / "hints.md"
        text = hints.read_text()
        hints.write_text(text[:text.index("## Task 2")] + "## Task 2: twice the answer\n")
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("task 2 has no hint", out)
        hints.write_text(text.replace("## Task 2: twice the answer", "## Task 3: more"))
        rc, out, _ = self.c.run("check-repo")
        self.assertIn("its sections are tasks [1, 3], the record's tasks are [1, 2]", out)
        hints.write_text(text.replace("## Task 1: the answer", "## Task 1: an answer"))
        rc, out, _ = self.c.run("check-repo")
        self.assertIn("'## Task 1: an answer', but the record calls task 1 'the answer'", out)
        hints.write_text(re.sub(r"### Hint", "## Hint", text.split("## Task 1")[0] + "\n## Hint 1\n"))
        rc, out, _ = self.c.run("check-repo")
        self.assertIn("hints are not grouped by task", out)

    def test_check_repo_rejects_a_bad_target(self):
        self.c.edit(self.c.record("02"), "learner_target = 10", 'learner_target = "fast"')
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("the learner target 'fast' is not a positive number", out)

    def test_check_repo_checks_the_solution_target(self):
        self.c.edit(self.c.record("02"), '"~12"', '">12"')
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("the solution target '>12' is neither", out)
        self.c.edit(self.c.record("02"), '">12"', "8")
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("the learner target 10% is above the solution target 8%", out)

    def test_check_repo_checks_tasks_against_regions_tags_and_parts(self):
        self.c.edit(self.c.record("01"), 'regions = ["alpha_fn_twice"]', 'regions = ["alpha_twice"]')
        tests = self.c.root / "tests" / "02-beta" / "test.cpp"
        self.c.edit(tests, '"[cpu][task_1]"', '"[cpu]"')
        self.c.edit(tests, '"[gpu][task_1]"', '"[gpu][task1]"')
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("task 2 names the region 'alpha_twice', which exercises/01-alpha/ does not "
                      "have", out)
        self.assertIn("the region 'alpha_fn_twice' belongs to no task", out)
        self.assertIn('"beta_fn returns 42" has 0 task tags', out)
        self.assertIn("the tag [task1] is spelled [task_N]", out)
        self.assertIn("no test case of tests/02-beta/ is tagged [task_1]", out)
        self.c.edit(tests, '"[cpu]"', '"[gpu][task_1]"')
        rc, out, _ = self.c.run("check-repo")
        self.assertIn("parts = ['cpu', 'gpu'], but the test cases of tests/02-beta/ use ['gpu']",
                      out)

    def test_check_repo_catches_drift_outside_the_regions(self):
        ex = self.c.exercise("01")
        ex.write_text(ex.read_text().replace("int alpha_fn()", "long alpha_fn()"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("differ outside the fill-in regions", out)
        self.assertIn("at the 2nd line outside them", out)

    def test_ordinals(self):
        from course.util import ordinal
        self.assertEqual([ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 71, 93, 111, 112)],
                         ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "71st", "93rd",
                          "111th", "112th"])

    def test_the_progress_table_fits_100_columns_with_the_real_titles(self):
        from course.screens import fit_table, table_width
        heads = ["lesson", "title", "status", "tasks", "GPU part", "passed on", "% of cuBLAS"]
        tasks = max(len(l.tasks) for l in records.lessons())
        rows = [[l.num, l.title, "written; GPU part not run", f"{tasks} of {tasks}", "not started",
                 "2026-11-27 22:19", "100.0%"] for l in records.lessons()]
        hs, rs = fit_table(heads, rows)
        self.assertLessEqual(table_width(hs, rs), 100, (hs, rs))
        self.assertIn("title", hs)
        self.assertIn("Tiling", [r[1] for r in rs])  # the titles up to their colon
        # PERF=1: two more columns.
        hs, rs = fit_table(heads + ["target", "performance"],
                           [r + ["100%", "not measured"] for r in rows])
        self.assertLessEqual(table_width(hs, rs), 100, (hs, rs))
        self.assertIn("performance", hs)
        # What fits is left whole.
        row = ["01", "Alpha: the first lesson", "passed", "2 of 2", "passed", "2026-11-27 22:19",
               "-"]
        self.assertEqual(fit_table(heads, [row]), (heads, [row]))

    def test_check_repo_wants_each_stub_message_to_name_its_file(self):
        ex = self.c.exercise("01")
        self.c.edit(ex, '"alpha_fn (exercises/01-alpha/alpha.cpp)"',
                    '"alpha_fn (exercises/01-alpha/other.cpp)"')
        self.c.edit(ex, 'course::not_implemented("alpha_fn_twice (exercises/01-alpha/alpha.cpp)")',
                    'course::not_implemented(\n      "alpha_fn_twice")')
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn('exercises/01-alpha/alpha.cpp:6: not_implemented("alpha_fn (exercises/01-alpha/'
                      'other.cpp)") should name the file it is in, exercises/01-alpha/alpha.cpp, '
                      'not exercises/01-alpha/other.cpp', out)
        self.assertIn('exercises/01-alpha/alpha.cpp:13: not_implemented("alpha_fn_twice") should '
                      'name the file it is in, exercises/01-alpha/alpha.cpp\n', out)
        self.assertIn("2 problem(s)", out)

    def test_a_record_that_cannot_be_read_stops_every_tool_with_its_line(self):
        self.c.edit(self.c.record("02"), 'min_cc = "7.5"', "min_cc = 7.5.1")
        for cmd in (["grade"], ["list"], ["hint", "1"], ["next"]):
            rc, out, err = self.c.run(*cmd)
            self.assertEqual(rc, 2, cmd)
            self.assertIn("lessons/02-beta/lesson.toml:6:", err)
            self.assertNotIn("Traceback", err)
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("lessons/02-beta/lesson.toml:6:", out)
        self.c.edit(self.c.record("02"), "min_cc = 7.5.1\n", "")
        rc, out, err = self.c.run("grade")
        self.assertEqual(rc, 2)
        self.assertIn("lessons/02-beta/lesson.toml: no 'min_cc' (a string)", err)
        manifest = self.c.root / "lessons" / "manifest.txt"
        manifest.write_text(manifest.read_text() + "03 | gamma | 7.5\n")
        rc, out, err = self.c.run("list")
        self.assertIn("a lesson line is 'NN slug'", err)


class Grading(Base):
    def test_untouched_stubs_are_not_started_task_by_task_and_progress_is_recorded(self):
        rc, out, err = self.c.run("grade")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("Progress (your exercises)", out)
        self.assertLessEqual(max(len(l) for l in out.splitlines()), 100, out)
        self.assertIn("not started", out)
        self.assertIn("0 of 2 lessons passed", out)
        self.assertIn("current lesson: 01", out)
        self.assertIn("GPU parts not run: no CUDA device (fake)", out)
        state = self.c.state()["lessons"]
        self.assertEqual(state["01"]["status"], "not started")
        self.assertEqual(state["01"]["tasks"]["2"]["status"], "not started")
        self.assertEqual(state["02"]["gpu"], "not run")
        rc, out, _ = self.c.run("grade", "1")
        self.assertEqual(rc, 1)
        self.assertIn("task 1 the answer: not started", out)
        # Task 2's test cases could not run here: its region still calls the stub.
        self.assertIn("task 2 twice the answer: not started", out)
        self.assertIn("alpha_fn  in exercises/01-alpha/alpha.cpp", out)
        self.assertIn("CPU part: not started (1 test case); GPU part: not run (no CUDA device "
                      "(fake))", out)
        self.assertIn("NOT STARTED", out)
        self.assertIn("make hint-1 gives a hint for task 1", out)

    def test_a_pass_is_dated_points_to_the_solution_and_moves_next(self):
        self.c.fill("01", SOLVED)
        gpu = {"FAKE_GPU": "1"}
        rc, out, _ = self.c.run("grade", "1", env=gpu)
        self.assertEqual(rc, 0, out)
        self.assertIn("PASSED", out)
        self.assertIn("task 1 the answer: passed", out)
        self.assertIn("task 2 twice the answer: passed", out)
        self.assertIn("solutions/01-alpha/alpha.cpp: the chapter discusses it in \u00a7 The alpha "
                      "kernel (lessons/01-alpha/README.md:", out)
        self.assertIn("Next: lesson 02", out)
        state = self.c.state()["lessons"]["01"]
        passed_at = state["passed_at"]
        self.assertEqual(state["tasks"]["1"]["passed_at"], passed_at)
        rc, out, _ = self.c.run("grade", env=gpu)
        self.assertIn(passed_at, out)
        self.assertIn("-> 02", out)
        self.assertRegex(out, r"01 .*passed +2 of 2")
        self.assertIn("[###############...............] 1 of 2 lessons passed", out)
        rc, out, _ = self.c.run("next")
        self.assertEqual(rc, 0)
        self.assertIn("Next: lesson 02, Beta", out)
        self.assertIn("chapter:  lessons/02-beta/README.md", out)
        self.assertIn("exercise: exercises/02-beta/beta.cpp", out)
        self.assertIn("task:     1 of 2, the answer (not started)", out)
        # The first pass keeps its date; a later failure does not erase it.
        self.c.fill("01", BUGGY)
        self.c.run("grade", "1", env=gpu)
        self.assertEqual(self.c.state()["lessons"]["01"]["passed_at"], passed_at)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "failing")
        self.assertEqual(self.c.state()["lessons"]["01"]["tasks"]["1"]["status"], "failing")

    def test_a_failure_says_why_task_by_task_and_exits_1(self):
        self.c.fill("02", BUGGY)
        rc, out, _ = self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 1)
        self.assertIn("FAILING", out)
        self.assertIn('task 1 the answer: failing \u2014 "beta_fn returns 42"', out)
        self.assertIn("tests/02-beta/test.cpp:22: CHECK( r.passed ) failed", out)
        self.assertIn("likely cause: off by one", out)
        self.assertIn("(2 failing test cases in this task; this is the first)", out)
        # The counts: how many of the part's test cases fail, of how many.
        self.assertIn("CPU part: 1 of 1 test case failing; GPU part: 1 of 2 test cases failing",
                      out)
        self.assertIn("task 2 twice the answer: passed", out)
        self.assertIn("make hint-2 gives a hint for task 1", out)
        self.assertIn("(each test case's own output: build/reports/grade02-cpu.log", out)

    def test_one_task_done_the_next_not_started(self):
        self.c.fill("01", HALF)
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 1)
        self.assertIn("task 1 the answer: passed", out)
        self.assertIn("task 2 twice the answer: not started", out)
        self.assertIn("alpha_fn_twice  in exercises/01-alpha/alpha.cpp", out)
        self.assertIn("Task 2 (twice the answer) is next: make hint-1 gives a hint for it.", out)
        rc, out, _ = self.c.run("grade", "1")  # no GPU: task 2 is judged by its region
        self.assertIn("task 1 the answer: CPU part passed; GPU part not run", out)
        self.assertIn("task 2 twice the answer: not started", out)
        self.assertIn("still TODO (these regions still call not_implemented):\n"
                      "        alpha_fn_twice  in exercises/01-alpha/alpha.cpp", out)
        self.assertIn("Task 2 (twice the answer) is next: make hint-1 gives a hint for it.", out)

    @unittest.skipUnless(HAVE_GIT, "git is not installed")
    def test_a_region_as_shipped_is_not_started_where_its_tests_cannot_run(self):
        # A stub region that calls nothing (device code, say): without a GPU, only the course's
        # own version of the region (from git) tells that it is untouched.
        quiet = STUB.replace('  course::not_implemented("{fn}_twice (exercises/{dir}/{slug}.cpp)");\n',
                             "  return 0;\n")
        self.c.fill("01", quiet)
        self.c.git("-c", "init.defaultBranch=main", "init", "-q")
        self.c.commit_all("the course")
        self.c.fill("01", quiet.replace("  course::not_implemented(\"{fn} (", "  return 42;  // (")
                    .replace("// TODO: return 42.", ""))
        rc, out, _ = self.c.run("grade", "1")
        self.assertIn("task 1 the answer: CPU part passed; GPU part not run", out)
        self.assertIn("task 2 twice the answer: not started", out)
        self.assertIn("still TODO (these regions are as the course shipped them):", out)
        self.c.edit(self.c.exercise("01"), "  return 0;\n", "  return 84;\n")
        rc, out, _ = self.c.run("grade", "1")
        self.assertIn("task 2 twice the answer: written; its tests need the GPU part, not run here",
                      out)
        self.assertIn("CPU part passed; GPU part not run", out)

    def test_a_crash_is_a_failure_not_a_traceback(self):
        self.c.fill("02", CRASHY)
        rc, out, err = self.c.run("grade", "2")
        self.assertEqual(rc, 1)
        self.assertIn("task 1 the answer: failing \u2014 the grader crashed (killed by SIGSEGV) "
                      "during the test case \"beta_fn returns 42\"", out)
        self.assertNotIn("Traceback", err)

    def test_next_with_everything_passed(self):
        self.c.fill("01", SOLVED)
        self.c.fill("02", SOLVED)
        self.c.run("grade", env={"FAKE_GPU": "1"})
        rc, out, _ = self.c.run("next")
        self.assertIn("Every lesson passed", out)

    def test_solution_grading_leaves_the_progress_alone(self):
        rc, out, _ = self.c.run("grade", "--solution", env={"FAKE_GPU": "1"})
        self.assertIn("2 of 2 lessons passed", out)
        self.assertFalse((self.c.root / ".course" / "progress.json").exists())

    def test_a_pass_whose_gpu_part_did_not_run_is_not_a_pass(self):
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("grade", "1")
        self.assertEqual(rc, 0, out)
        self.assertNotIn("PASSED", out)
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertIn("task 2 twice the answer: written; its tests need the GPU part, not run here",
                      out)
        self.assertIn("the GPU part did not run: no CUDA device (fake)", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "CPU part passed")
        self.assertNotIn("passed_at", self.c.state()["lessons"]["01"])
        rc, out, _ = self.c.run("grade")
        self.assertRegex(out, r"01 .*CPU part passed +0 of 2 +not run")
        self.assertIn("0 of 2 lessons passed", out)
        rc, out, _ = self.c.run("watch", "1", "--once", "--no-build")
        self.assertNotIn("PASSED", out)
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertIn("0 of 2 lessons passed", out)
        rc, out, _ = self.c.run("next")
        self.assertIn("Next: lesson 02", out)  # the work this machine can check moves on
        self.assertIn("waiting for their GPU part (no CUDA device (fake)): lesson 01", out)
        self.assertIn("0 of 2 lessons passed", out)
        # A later run with a GPU turns it into a pass.
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        self.assertIn("PASSED", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "passed")
        rc, out, _ = self.c.run("next")
        self.assertIn("1 of 2 lessons passed", out)

    def test_a_lesson_without_a_cpu_part_does_not_say_its_cpu_part_passed(self):
        self.c.edit(self.c.record("02"), 'parts = ["cpu", "gpu"]', 'parts = ["gpu"]')
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "2")
        self.assertEqual(rc, 0, out)
        self.assertNotIn("PASSED", out)
        self.assertNotIn("CPU part passed", out)
        self.assertIn("lesson 02 Beta: the second (your exercises): written; GPU part not run", out)
        self.assertIn("the GPU part did not run: no CUDA device (fake)", out)
        self.assertNotIn("passed_at", self.c.state()["lessons"]["02"])
        rc, out, _ = self.c.run("grade")
        self.assertRegex(out, r"02 .*written; GPU part not run +0 of 2 +not run")
        self.assertNotIn("CPU part passed", out)
        self.assertIn("0 of 2 lessons passed", out)
        rc, out, _ = self.c.run("watch", "2", "--once", "--no-build")
        self.assertIn("status: written; GPU part not run", out)
        self.assertNotIn("CPU part passed", out)
        self.assertIn("0 of 2 lessons passed", out)

    def test_nothing_runs_after_a_failed_build(self):
        # Passed, then a compile error: grade-N and lesson-N show the error, exit non-zero, and
        # neither grade nor run nor record anything.
        self.c.fill("01", SOLVED)
        gpu = {"FAKE_GPU": "1"}
        rc, out, _ = self.c.run("grade", "1", env=gpu)
        self.assertIn("PASSED", out)
        before = self.c.state()
        self.c.fill("01", SOLVED.replace("return 42;", "return 42  // SYNTAX_ERROR"))
        rc, out, _ = self.c.run("grade", "1", env=gpu)
        self.assertEqual(rc, 1, out)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertIn('alpha.cpp(3): error: expected a ";"', out)
        self.assertNotIn("PASSED", out)
        self.assertNotIn("task 1", out)
        self.assertNotIn("gmake", out)
        # make grade: that lesson's first error, then the table with it marked, the others as
        # they are; exit 1.
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", env=gpu)
        self.assertEqual(rc, 1, out)
        self.assertTrue(out.startswith("lesson 01 (your exercise): DOES NOT COMPILE"), out)
        self.assertIn('alpha.cpp(3): error: expected a ";"', out)
        self.assertLess(out.index("error: expected"), out.index("Progress"))
        self.assertRegex(out, r"\n   01 +Alpha: the first lesson +does not compile +- ")
        self.assertRegex(out, r"\n.. 02 +Beta: the second +passed +2 of 2 +passed ")
        self.assertIn("does not compile: lesson 01", out.splitlines()[-1])
        rc, out, _ = self.c.run("run", "1", "--build", str(self.c.root / "build"), env=gpu)
        self.assertEqual(rc, 1, out)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertNotIn("fake lesson program ran", out)
        self.assertEqual(self.c.state()["lessons"]["01"], before["lessons"]["01"])
        # Fixed again: the program runs, with the learner's options.
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("run", "1", "--build", str(self.c.root / "build"),
                                "--args", "--size 64 --json")
        self.assertEqual(rc, 0, out)
        self.assertIn("fake lesson program ran: --size 64 --json", out)
        # No usable GPU here (3: none; 4: below the lesson's compute capability): the program said
        # so, and that is the expected end of make lesson-N on such a machine. Any other failure
        # of the program is the learner's to see.
        for code, expected in (("3", 0), ("4", 0), ("1", 1), ("2", 2)):
            rc, out, _ = self.c.run("run", "1", "--build", str(self.c.root / "build"),
                                    env={"FAKE_EXIT": code})
            self.assertEqual(rc, expected, (code, out))

    def test_a_cpu_machine_does_not_undo_a_gpu_pass(self):
        self.c.fill("02", SOLVED)
        self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertEqual(self.c.state()["lessons"]["02"]["gpu"], "passed")
        # Lesson 02 without its CPU part: on a machine without a GPU, nothing of it runs.
        self.c.edit(self.c.record("02"), 'parts = ["cpu", "gpu"]', 'parts = ["gpu"]')
        rc, out, _ = self.c.run("grade", "2")
        self.assertEqual(rc, 0)
        self.assertIn("GPU part: not run (no CUDA device (fake))", out)
        self.assertNotIn("CPU part:", out)
        self.assertEqual(self.c.state()["lessons"]["02"]["status"], "passed")
        self.assertEqual(self.c.state()["lessons"]["02"]["tasks"]["1"]["status"], "passed")

    def test_a_grader_without_a_report_is_not_graded_from_its_console(self):
        grader = self.c.root / "build" / "bin" / "grade01"
        grader.write_text("#!/bin/sh\necho 'All tests passed (1 assertion in 1 test case)'\n")
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 1)
        self.assertNotIn("PASSED", out)
        self.assertIn("no report (build/reports/grade01-cpu.jsonl): the grader did not write one",
                      out)


class Performance(Base):
    def test_the_speed_is_a_timing_only_run_and_perf_a_separate_verdict(self):
        self.c.fill("01", SOLVED)
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "--perf", env={"FAKE_GPU": "1", "FAKE_PCT": "12.5"})
        self.assertEqual(rc, 0)
        self.assertIn("performance", out)
        self.assertRegex(out, r"02 .*passed .*12\.5% +10% +met")
        rc, out, _ = self.c.run("grade", "2", "--perf", env={"FAKE_GPU": "1", "FAKE_PCT": "4"})
        self.assertEqual(rc, 0, "a missed target never fails the grade")
        self.assertIn("speed: 4.0% of cuBLAS (the headline kernel, timed alone)", out)
        self.assertIn("performance: missed (4.0% of cuBLAS on this GPU, target 10%)", out)
        self.assertEqual(self.c.state()["lessons"]["02"]["perf"], "missed")
        rc, out, _ = self.c.run("grade", "1", "--perf", env={"FAKE_GPU": "1"})
        self.assertIn("performance: - (no performance target for this lesson)", out)

    def test_a_grade_builds_the_grader_and_the_program_only_to_time_a_pass(self):
        calls = self.c.root / "build" / "cmake-calls.log"
        self.c.fill("02", SOLVED)
        self.c.run("grade", "2")  # no GPU: nothing is timed
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade02"])
        calls.unlink()
        self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade02", "lesson02"])
        calls.unlink()
        self.c.run("grade", "2", "--solution", env={"FAKE_GPU": "1"})
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["test02", "lesson02_solution"])

    def test_a_save_is_graded_with_the_quick_grader_then_everything_once_it_passes(self):
        # A lesson whose configurations compile in parts has a save's grader, gradeNN_quick.
        calls = self.c.root / "build" / "cmake-calls.log"
        write(self.c.root / "lessons" / "01-alpha" / "calls-yours" / "alpha_part2.cu", "\n")
        shutil.copy(self.c.root / "build" / "bin" / "grade01",
                    self.c.root / "build" / "bin" / "grade01_quick")
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("grade", "1")  # no GPU: the quick grader's verdict stands
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade01_quick"])
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertIn("build/reports/grade01_quick-cpu.log", out)
        calls.unlink()
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})  # a pass: then everything
        self.assertEqual(rc, 0, out)
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade01_quick", "grade01", "lesson01"])
        self.assertIn("PASSED", out)
        calls.unlink()
        rc, out, _ = self.c.run("watch", "1", "--once", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 0, out)
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["grade01_quick", "grade01", "lesson01"])
        calls.unlink()
        self.c.run("grade", "1", "--solution")  # the reference solution: its whole grader
        self.assertEqual([l.split("--target ")[1] for l in calls.read_text().splitlines()],
                         ["test01"])

    def tracks(self):
        """Lesson 02 with two tracks, as lesson 11's record has them: a target on 9.0, none yet on
        10.0 and 12.0."""
        record = self.c.record("02")
        self.c.edit(record, "learner_target = 10\n", "")
        self.c.edit(record, 'min_cc = "7.5"', 'min_cc = "9.0"\nmin_cc_for = "TMA"')
        record.write_text(record.read_text() + (
            '\n[[track]]\nname = "wgmma"\ncc = ["9.0"]\nheadline = "hopper_gemm"\n'
            'runs = "every rung"\nlearner_target = 10\n'
            '\n[[track]]\nname = "portable"\ncc = ["10.0", "12.0"]\nheadline = "portable_gemm"\n'
            'runs = "the portable rung"\n'))
        self.c.fill("02", SOLVED)

    def test_the_target_is_the_gpus_tracks(self):
        self.tracks()
        # A Hopper GPU times the wgmma headline: held to its track's target.
        hopper = {"FAKE_GPU": "1", "FAKE_KERNEL": "hopper_gemm", "FAKE_PCT": "4"}
        rc, out, _ = self.c.run("grade", "2", "--perf", env=hopper)
        self.assertEqual(rc, 0, out)
        self.assertIn("performance: missed (4.0% of cuBLAS on this GPU, target 10% (wgmma track: "
                      "hopper_gemm))", out)
        # An RTX 50 series card times the portable headline, whose track has no target yet: never
        # "missed".
        rtx50 = {"FAKE_GPU": "1", "FAKE_KERNEL": "portable_gemm", "FAKE_PCT": "4"}
        rc, out, _ = self.c.run("grade", "2", "--perf", env=rtx50)
        self.assertEqual(rc, 0, out)
        flat = " ".join(out.split())
        self.assertIn("performance: no target for this GPU yet (4.0% of cuBLAS on this GPU, the "
                      "portable track (portable_gemm, compute capability 10.0 and 12.0): the "
                      "reference solution has not been measured on such a GPU, so no target is "
                      "set)", flat)
        self.assertNotIn("missed", out)
        self.assertEqual(self.c.state()["lessons"]["02"]["perf"], "no target for this GPU yet")
        rc, out, _ = self.c.run("grade", "--perf", env=rtx50)
        self.assertRegex(out, r"02 .*4\.0% +- +no target for this GPU yet")
        self.assertNotIn("targets, by the GPU's track", out)
        rc, out, _ = self.c.run("watch", "2", "--once", "--perf", env=rtx50)
        self.assertIn("performance: no target for this GPU yet", out)
        # A headline no track names: no target either.
        rc, out, _ = self.c.run("grade", "2", "--perf", env=dict(rtx50, FAKE_KERNEL="other"))
        self.assertIn("performance: no target for this GPU yet (4.0% of cuBLAS on this GPU, with "
                      "other, a headline no track of the lesson's record names)", out)

    def test_without_a_gpu_every_tracks_target_is_said(self):
        self.tracks()
        rc, out, _ = self.c.run("grade", "2", "--perf")
        self.assertEqual(rc, 0, out)
        self.assertIn("performance: not measured (targets 10% of cuBLAS on compute capability 9.0 "
                      "(wgmma: hopper_gemm); none yet on 10.0 and 12.0 (portable: portable_gemm); "
                      "measuring it needs a GPU)", " ".join(out.split()))
        rc, out, _ = self.c.run("grade", "--perf")
        self.assertRegex(out, r"02 .* 10% / - +not measured")
        self.assertIn("lesson 02's targets, by the GPU's track: 10% of cuBLAS on compute capability "
                      "9.0 (wgmma: hopper_gemm); none yet on 10.0 and 12.0 (portable: "
                      "portable_gemm)", " ".join(out.split()))

    def test_perf_without_a_gpu_is_not_measured(self):
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "2", "--perf")
        self.assertEqual(rc, 0)
        self.assertIn("performance: not measured (target 10% of cuBLAS; measuring it needs a GPU)", out)

    def test_no_perf_line_unless_asked_and_no_speed_for_other_lessons(self):
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertIn("speed: 12.5% of cuBLAS", out)
        self.assertNotIn("performance:", out)
        self.c.edit(self.c.record("02"), 'kind = "gemm"', 'kind = "other"')
        rc, out, _ = self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertIn("PASSED", out)
        self.assertNotIn("speed:", out)


class State(Base):
    def progress(self):
        return self.c.root / ".course" / "progress.json"

    def check_rebuilt(self, text):
        self.progress().parent.mkdir(parents=True, exist_ok=True)
        self.progress().write_text(text)
        rc, out, err = self.c.run("grade")
        self.assertEqual(rc, 0, err)
        self.assertNotIn("Traceback", err)
        self.assertIn("warning: .course/progress.json", err)
        self.assertIn("rebuilt it", err)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "not started")
        # Rebuilt once: the next command is quiet.
        rc, out, again = self.c.run("next")
        self.assertNotIn("warning", again)
        return err

    def test_garbage(self):
        err = self.check_rebuilt("{ this is not json")
        self.assertIn("progress.json.corrupt", err)
        self.assertEqual((self.c.root / ".course" / "progress.json.corrupt").read_text(),
                         "{ this is not json")

    def test_wrong_shape(self):
        self.check_rebuilt("[1, 2, 3]")

    def test_bad_entries_are_dropped_good_ones_kept(self):
        self.progress().parent.mkdir(parents=True, exist_ok=True)
        self.progress().write_text(json.dumps({"lessons": {
            "01": {"status": "passed", "passed_at": "2026-01-02 03:04", "hints_seen": "two",
                   "tasks": {"1": {"status": "passed", "hints_seen": -1}, "x": {}}},
            "02": "nonsense", "x": {}}}))
        rc, out, err = self.c.run("next")
        self.assertEqual(rc, 0)
        self.assertIn("had 5 unreadable entries", err)
        self.assertIn("Next: lesson 02", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["passed_at"], "2026-01-02 03:04")
        self.assertEqual(self.c.state()["lessons"]["01"]["tasks"], {"1": {"status": "passed"}})

    def test_binary_garbage_and_an_empty_file(self):
        for data in (b"\xff\xfe\x00garbage", b""):
            self.progress().parent.mkdir(parents=True, exist_ok=True)
            self.progress().write_bytes(data)
            rc, out, err = self.c.run("hint", "1")
            self.assertEqual(rc, 0, err)
            self.assertIn("rebuilt it", err)
            self.assertIn("hint 1 of 3", out)


class Hints(Base):
    def test_one_more_each_time_all_and_reset(self):
        outs = [self.c.run("hint", "1")[1] for _ in range(4)]
        self.assertIn("task 1: the answer, hint 1 of 3", outs[0])
        self.assertIn("Hint number 1 of lesson 01, task 1", outs[0])
        self.assertIn("hint 2 of 3", outs[1])
        self.assertIn("hint 3 of 3", outs[2])
        self.assertIn("that was the last hint for task 1", outs[2])
        self.assertIn("hint 3 of 3", outs[3])
        self.assertEqual(self.c.state()["lessons"]["01"]["tasks"]["1"]["hints_seen"], 3)
        rc, out, _ = self.c.run("hint", "1", "--reset")
        self.assertIn("hint 1 of 3", out)
        rc, out, _ = self.c.run("hint", "01", "--all")
        for i in (1, 2, 3):
            self.assertIn(f"Hint number {i} of lesson 01, task 1", out)
        self.assertIn("==== task 2: twice the answer (2 hints)", out)
        self.assertIn("Hint number 2 of lesson 01, task 2", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["tasks"]["2"]["hints_seen"], 2)
        # Lesson 02 has its own count.
        self.assertIn("hint 1 of 3", self.c.run("hint", "2")[1])

    def test_the_hints_follow_the_first_task_not_passed(self):
        self.c.fill("01", HALF)
        self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        rc, out, _ = self.c.run("hint", "1")
        self.assertIn("task 2: twice the answer, hint 1 of 2", out)
        self.assertIn("Hint number 1 of lesson 01, task 2", out)
        # On a machine without a GPU, task 1's CPU part passing is enough to move on.
        self.c.run("grade", "1")
        self.assertIn("task 2: twice the answer, hint 2 of 2", self.c.run("hint", "1")[1])

    def test_hint_and_grade_give_one_verdict(self):
        # Without a GPU, every task written: grade-1 says the lesson has not passed, and so does
        # hint-1, never that every task has.
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("grade", "1")
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertNotIn("PASSED", out)
        rc, out, _ = self.c.run("hint", "1")
        self.assertEqual(rc, 0, out)
        self.assertNotIn("has passed", out)
        self.assertIn("(lesson 01 has not passed: no task of it fails here, but tasks 1 and 2 wait "
                      "for their GPU part (no CUDA device (fake)); the hints of task 1:)", out)
        self.assertIn("task 1: the answer, hint 1 of 3", out)
        # With a GPU the lesson passes, and then every task has.
        rc, out, _ = self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        self.assertIn("PASSED", out)
        rc, out, _ = self.c.run("hint", "1")
        self.assertIn("(every task of lesson 01 has passed; the last task's hints:)", out)
        self.assertIn("task 2: twice the answer, hint 1 of 2", out)

    def test_an_older_count_for_the_whole_lesson_is_spread_over_the_tasks(self):
        progress = self.c.root / ".course" / "progress.json"
        progress.parent.mkdir(parents=True, exist_ok=True)
        progress.write_text(json.dumps({"format": 1, "lessons": {
            "01": {"status": "failing", "hints_seen": 4}}}))
        rc, out, err = self.c.run("hint", "1")
        self.assertNotIn("warning", err)
        self.assertIn("task 1: the answer, hint 3 of 3", out)  # task 1's three were seen
        tasks = self.c.state()["lessons"]["01"]["tasks"]
        self.assertEqual((tasks["1"]["hints_seen"], tasks["2"]["hints_seen"]), (3, 1))
        self.assertNotIn("hints_seen", self.c.state()["lessons"]["01"])

    def test_the_old_count_in_the_build_folder_is_carried_over(self):
        write(self.c.root / "build" / "hints" / "01.seen", "2")
        self.assertIn("hint 3 of 3", self.c.run("hint", "1")[1])


# A fake `cmake --build` of `make test`: make's directory lines around a progress line, a warning,
# and with FAKE_BUILD_FAILS an error.
SUITE_CMAKE = r"""#!/bin/sh
echo "gmake[1]: Entering directory '/x/build'"
echo "[ 50%] Building CUDA object CMakeFiles/x.dir/k.cu.o"
echo "k.cu(3): warning: variable \"y\" was declared but never referenced"
if [ -n "$FAKE_BUILD_FAILS" ]; then
  echo "k.cu(4): error: expected a \";\""
  echo "gmake[1]: Leaving directory '/x/build'"
  exit 2
fi
echo "gmake[1]: Leaving directory '/x/build'"
echo "[100%] Built target x"
"""
# A fake ctest: the list (-N), or a run that prints what CTest prints after its summary line, and
# its log as CTest writes it (a section a test; a skipped test is "Test Passed." there too). Two
# tests skip, each saying why in its own words; a test that passes may print "SKIPPED:" too.
SUITE_CTEST = r"""#!/bin/sh
if [ "$1" = "-N" ]; then echo "Total Tests: 4"; exit 0; fi
mkdir -p Testing/Temporary
for t in "1 common.cpu SKIPPED:_a_case_it_does_not_run" "2 common.gpu SKIPPED:_no_CUDA_device" \
         "3 planted.11 skipped:_no_GPU_here" "4 course.repo check-repo"; do
  set -- $t
  printf -- '----\n%s/4 Testing: %s\n%s/4 Test: %s\nOutput:\n----\n%s\nSKIPPED: no CUDA device\n<end of output>\nTest Passed.\n' \
    "$1" "$2" "$1" "$2" "$(echo "$3" | tr _ ' ')"
done > Testing/Temporary/LastTest.log
echo "1/4 Test #1: common.cpu ....   Passed    0.10 sec"
echo "2/4 Test #2: common.gpu ....***Skipped   0.01 sec"
echo "3/4 Test #3: planted.11 ....***Skipped   0.01 sec"
if [ -n "$FAKE_TEST_FAILS" ]; then
  echo "3/3 Test #3: course.repo ...***Failed    0.20 sec"
  echo "67% tests passed, 1 tests failed out of 3"
  echo ""
  echo "Total Test time (real) =   0.31 sec"
  echo "The following tests FAILED:"
  echo "	  3 - course.repo (Failed)"
  echo "Errors while running CTest"
  exit 8
fi
echo "3/3 Test #3: course.repo ...   Passed    0.20 sec"
echo "100% tests passed, 0 tests failed out of 3"
echo ""
echo "Total Test time (real) =   0.31 sec"
echo ""
echo "The following tests did not run:"
echo "	  2 - common.gpu (Skipped)"
echo "	  3 - planted.11 (Skipped)"
"""


class Suite(Base):
    """`make test` (course.py test): the plan first, a quiet build, CTest's summary and the next
    step last."""

    def run_suite(self, **env):
        write(self.c.root / "build" / "CMakeCache.txt", "")
        write(self.c.root / "fakebin" / "cmake", SUITE_CMAKE, 0o755)
        write(self.c.root / "fakebin" / "ctest", SUITE_CTEST, 0o755)
        write(self.c.root / "fakebin" / "make",
              "#!/bin/sh\nfor i in 1 2 3 4; do echo \"nvcc -c k$i.cu -o k$i.cu.o\"; done\n", 0o755)
        return self.c.run("test", "--build", str(self.c.root / "build"), "--jobs", "2", env=env)

    def test_the_plan_first_the_summary_and_the_next_step_last(self):
        rc, out, _ = self.run_suite()
        self.assertEqual(rc, 0, out)
        lines = out.splitlines()
        self.assertEqual(lines[0], "the course's own suite: builds 4 files (about 10 seconds on 2 "
                         "cores), then runs 4 tests; without a GPU the GPU tests are skipped, with "
                         "the reason.")
        self.assertNotIn("directory", out)
        self.assertIn("[ 50%] Building CUDA object", out)
        self.assertIn('warning: variable "y"', out)
        # The tests CTest says it skipped, each once, with the reason it gave in its own words.
        self.assertEqual(lines[-4:-2], ["skipped 1 test(s): no CUDA device",
                                        "skipped 1 test(s): no GPU here"])
        self.assertEqual(lines[-2], "100% tests passed, 0 tests failed out of 3")
        self.assertTrue(lines[-1].startswith("The course's own suite passed. Next: make next"))
        self.assertLess(out.index("Total Test time"), out.index("100% tests passed"))
        self.assertLess(out.index("common.gpu (Skipped)"), out.index("100% tests passed"))

    def test_a_failing_test_is_said_last_with_how_to_run_it_again(self):
        rc, out, _ = self.run_suite(FAKE_TEST_FAILS="1")
        self.assertEqual(rc, 1, out)
        lines = out.splitlines()
        self.assertEqual(lines[-2], "67% tests passed, 1 tests failed out of 3")
        self.assertIn("-R NAME --output-on-failure", lines[-1])
        self.assertLess(out.index("course.repo (Failed)"), out.index("67% tests passed"))

    def test_a_build_error_runs_no_test(self):
        rc, out, _ = self.run_suite(FAKE_BUILD_FAILS="1")
        self.assertEqual(rc, 1, out)
        self.assertNotIn("Test #", out)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertIn('error: expected a ";"', out.splitlines()[-1])


class Watch(Base):
    def test_once_on_an_untouched_stub(self):
        rc, out, err = self.c.run("watch", "1", "--once", "--no-build")
        self.assertEqual(rc, 1, err)
        self.assertIn("lesson 01 \u00b7 Alpha", out)
        self.assertIn("NOT STARTED", out)
        self.assertIn("task 1 the answer: not started", out)
        self.assertIn("alpha_fn  in exercises/01-alpha/alpha.cpp", out)
        self.assertIn("the GPU part did not run: no CUDA device (fake)", out)
        self.assertIn("make hint-1 gives a hint for task 1 (0 of 3 seen)", out)

    def test_watch_and_grade_say_the_verdict_in_the_same_words(self):
        for template, env in ((BUGGY, {}), (HALF, {"FAKE_GPU": "1"}), (SOLVED, {}),
                              (STUB, {})):
            self.c.fill("01", template)
            rc_grade, grade, _ = self.c.run("grade", "1", env=env)
            rc_watch, watch, _ = self.c.run("watch", "1", "--once", "--no-build", env=env)
            self.assertEqual(rc_grade, rc_watch, (template, grade, watch))
            # The grade's words for what comes next, every line of them, are the watch's.
            tail = grade.split("(your exercises): ", 1)[1].splitlines()[1:]
            said = [l for l in tail if l.strip() and not l.startswith("(each test case")]
            self.assertTrue(said, grade)
            for line in said:
                self.assertIn(line.replace(" make grade-1 shows the whole report.", ""), watch)

    def test_once_on_a_failure_shows_the_diagnosis(self):
        self.c.fill("01", BUGGY)
        rc, out, _ = self.c.run("watch", "1", "--once", "--no-build")
        self.assertEqual(rc, 1)
        self.assertIn("FAILING", out)
        self.assertIn("got 41, expected 42", out)
        self.assertIn("likely cause: off by one", out)

    def test_once_on_a_pass_without_a_gpu(self):
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("watch", "1", "--once", "--no-build")
        self.assertEqual(rc, 0)
        self.assertNotIn("PASSED", out)
        self.assertIn("CPU part passed; GPU part not run", out)
        self.assertNotIn("% of cuBLAS", out)
        self.assertIn("Next: lesson 02, Beta", out)
        self.assertIn("0 of 2 lessons passed", out)

    def test_once_on_a_pass_with_a_gpu_shows_the_speed(self):
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("watch", "2", "--once", "--no-build", "--perf",
                                env={"FAKE_GPU": "1", "FAKE_PCT": "11"})
        self.assertEqual(rc, 0)
        self.assertIn("speed:  11.0% of cuBLAS on this GPU", out)
        self.assertIn("performance: met", out)
        self.assertIn("That was the last lesson", out)

    def test_a_compile_error_is_shown(self):
        # --no-build left out: the build is "cmake --build", which fails on this fake build folder.
        fake_bin = self.tmp / "fakebin"
        write(fake_bin / "cmake", "#!/bin/sh\necho 'exercises/01-alpha/alpha.cpp(5): error: "
                                  "identifier \"x\" is undefined'\necho 'make: *** [all] Error 2'\n"
                                  "exit 2\n", 0o755)
        rc, out, _ = self.c.run("watch", "1", "--once",
                                env={"PATH": f"{fake_bin}:{os.environ['PATH']}"})
        self.assertEqual(rc, 1)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertIn('error: identifier "x" is undefined', out)
        self.assertNotIn("make: ***", out)

    def test_a_build_over_two_seconds_says_so_first(self):
        # A configured build folder whose dry run ("make -n") would compile N CUDA files (5 s of one
        # core each): a first build, a save whose given code calls yours, a save of one file.
        write(self.c.root / "build" / "CMakeCache.txt", "")
        for files, estimate in ((5, "about 10 seconds"), (2, "about 5 seconds"),
                                (1, "about 5 seconds")):
            write(self.c.root / "fakebin" / "make",
                  f"#!/bin/sh\nfor i in $(seq {files}); do echo \"nvcc -c k$i.cu -o k$i.cu.o\"; "
                  "done\n", 0o755)
            rc, out, _ = self.c.run("watch", "1", "--once", "--jobs", "2")
            self.assertEqual(rc, 1, out)
            self.assertTrue(out.startswith(
                f"building lesson 01 (your exercise): {files} file{'s' if files > 1 else ''} to "
                f"compile, {estimate} on 2 cores..."), out)
            self.assertIn("NOT STARTED", out)
        # Nothing to compile: nothing said.
        write(self.c.root / "fakebin" / "make", "#!/bin/sh\necho 'make: Nothing to be done'\n",
              0o755)
        rc, out, _ = self.c.run("watch", "1", "--once", "--jobs", "2")
        self.assertFalse(out.startswith("building"), out)
        self.assertIn("NOT STARTED", out)

    def start(self, *args, ignore_sigint=False):
        e = {**os.environ, "NO_COLOR": "1"}
        e.pop("FAKE_GPU", None)
        # A script's background job starts with SIGINT ignored; the watch still stops on it.
        pre = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore_sigint else None
        p = subprocess.Popen([sys.executable, str(self.c.root / "common/tools/course.py"), "watch",
                              *args, "--no-build", "--build", str(self.c.root / "build")],
                             cwd=self.c.root, env=e, stdin=subprocess.DEVNULL, preexec_fn=pre,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        threading.Thread(target=lambda: [lines.append(l) for l in p.stdout], daemon=True).start()
        return p, lines

    def wait_for(self, lines, text, count=1, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if "".join(lines).count(text) >= count:
                return
            time.sleep(0.05)
        self.fail(f"no {count} x {text!r} in:\n{''.join(lines)}")

    def save_and_regrade(self, *mode):
        p, lines = self.start("1", "--rounds", "2", "--interval", "0.2", *mode)
        try:
            self.wait_for(lines, "Ctrl-C stops")
            time.sleep(0.3)
            self.c.fill("01", SOLVED)
            self.assertEqual(p.wait(30), 0, "".join(lines))
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            p.stdout.close()
        out = "".join(lines)
        self.assertIn("NOT STARTED", out)
        self.assertIn("CPU part passed; GPU part not run", out.split("=" * 78)[-1])
        return out

    def test_polling_regrades_on_save(self):
        out = self.save_and_regrade("--poll")
        self.assertIn("polling every 0.2 s", out)

    @unittest.skipUnless(shutil.which("inotifywait"), "inotifywait (inotify-tools) not installed")
    def test_inotify_regrades_on_save(self):
        out = self.save_and_regrade()
        if "inotifywait failed" in out:  # no inotify here (a container's limits): it polled
            self.skipTest("inotifywait is installed but cannot watch here")
        self.assertIn("(inotifywait)", out)

    def test_without_inotifywait_it_polls_and_says_so(self):
        e_path = self.tmp / "nopath"
        e_path.mkdir()
        for tool in ("bash", "sh", "grep", "cat", "kill"):
            found = shutil.which(tool)
            if found:
                os.symlink(found, e_path / tool)
        e = {**os.environ, "NO_COLOR": "1", "PATH": str(e_path)}
        p = subprocess.Popen([sys.executable, str(self.c.root / "common/tools/course.py"), "watch",
                              "1", "--no-build", "--rounds", "1",
                              "--build", str(self.c.root / "build")],
                             cwd=self.c.root, env=e, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        out, _ = p.communicate(timeout=30)
        self.assertIn("polling every 1 s; inotifywait is not installed", out)

    def test_whole_course_mode_follows_the_lesson_saved(self):
        p, lines = self.start("--rounds", "2", "--interval", "0.2", "--poll")
        try:
            self.wait_for(lines, "Ctrl-C stops")
            self.assertIn("lesson 01", "".join(lines))
            time.sleep(0.3)
            self.c.fill("02", BUGGY)
            self.assertEqual(p.wait(30), 1)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            p.stdout.close()
        last = "".join(lines).split("=" * 78)[-1]
        self.assertIn("lesson 02 \u00b7 Beta", last)
        self.assertIn("likely cause", last)

    def test_ctrl_c_leaves_cleanly(self):
        modes = [(["--poll"], False), (["--poll"], True)]
        if shutil.which("inotifywait"):
            modes.append(([], False))
        for mode, ignore_sigint in modes:
            p, lines = self.start("1", *mode, ignore_sigint=ignore_sigint)
            try:
                self.wait_for(lines, "Ctrl-C stops")
                p.send_signal(signal.SIGINT)
                self.assertEqual(p.wait(10), 0)
            finally:
                if p.poll() is None:
                    p.kill()
            out = "".join(lines)
            self.assertIn("watch: stopped.", out)
            self.assertNotIn("Traceback", out)


@unittest.skipUnless(HAVE_GIT, "git is not installed")
class Reset(Base):
    def setUp(self):
        super().setUp()
        self.c.git("-c", "init.defaultBranch=main", "init", "-q")
        self.c.commit_all("the course")
        self.stub = self.c.exercise("01").read_text()

    def test_nothing_to_reset(self):
        rc, out, _ = self.c.run("reset", "1")
        self.assertEqual(rc, 0)
        self.assertIn("already the original stub", out)

    def test_refuses_without_a_terminal_unless_forced(self):
        self.c.fill("01", BUGGY)
        work = self.c.exercise("01").read_text()
        rc, out, err = self.c.run("reset", "1")
        self.assertEqual(rc, 1)
        self.assertIn("your changes to exercises/01-alpha/alpha.cpp", out)
        self.assertIn("no terminal to ask on", err)
        self.assertIn("FORCE=1", err)
        self.assertEqual(self.c.exercise("01").read_text(), work)
        self.c.run("grade", "1", env={"FAKE_GPU": "1"})
        rc, out, _ = self.c.run("reset", "1", "--force")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.c.exercise("01").read_text(), self.stub)
        backups = list((self.c.root / ".course" / "backup").glob("01-alpha-*/alpha.cpp"))
        self.assertEqual(len(backups), 1)
        self.assertEqual(backups[0].read_text(), work)
        self.assertIn("Your version is kept in .course/backup/01-alpha-", out)
        state = self.c.state()["lessons"]["01"]
        self.assertEqual((state["status"], state["tasks"]["2"]["status"]),
                         ("not started", "not started"))

    def test_asks_on_a_terminal(self):
        import pty
        self.c.fill("01", BUGGY)
        for answer, restored in ((b"n\n", False), (b"y\n", True)):
            self.c.fill("01", BUGGY)
            pid, fd = pty.fork()
            if pid == 0:
                os.chdir(self.c.root)
                os.execv(sys.executable, [sys.executable, "common/tools/course.py", "reset", "1"])
            out = b""
            deadline = time.time() + 20
            while b"[y/N]" not in out and time.time() < deadline:
                try:
                    out += os.read(fd, 1024)
                except OSError:
                    break
            os.write(fd, answer)
            while True:
                try:
                    chunk = os.read(fd, 1024)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            _, status = os.waitpid(pid, 0)
            self.assertIn(b"Discard them?", out)
            self.assertEqual(self.c.exercise("01").read_text() == self.stub, restored, out)
            # Declining is the learner's choice, not a failure: exit 0 (make adds no "Error 1").
            self.assertEqual(os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1, 0)
            if not restored:
                self.assertIn(b"Nothing changed: exercises/01-alpha/ keeps your work.", out)

    def test_extra_source_files_go_too(self):
        extra = self.c.exercise("01").with_name("mine.cpp")
        extra.write_text("int mine();\n")
        rc, out, _ = self.c.run("reset", "1", "--force")
        self.assertEqual(rc, 0)
        self.assertFalse(extra.exists())
        self.assertTrue(list((self.c.root / ".course" / "backup").glob("01-alpha-*/mine.cpp")))

    def test_committed_work_is_not_the_stub(self):
        # The learner commits their solution; there is no remote: the stub is the newest version
        # in the history that still throws NOT IMPLEMENTED.
        self.c.fill("01", SOLVED)
        self.c.commit_all("my work on lesson 01")
        rc, out, _ = self.c.run("reset", "1", "--force")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.c.exercise("01").read_text(), self.stub)

    def test_a_clone_resets_from_the_course_it_follows(self):
        clone = self.tmp / "clone"
        subprocess.run(["git", "clone", "-q", str(self.c.root), str(clone)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        learner = FakeCourse.__new__(FakeCourse)
        learner.root = clone
        # The course improves its stub upstream; the learner pulls it, then commits a half-done
        # exercise that still throws NOT IMPLEMENTED (so only the upstream can tell it apart).
        improved = self.stub.replace("// TODO: return 42.", "// TODO: return 42, the answer.")
        self.c.exercise("01").write_text(improved)
        self.c.commit_all("a better stub")
        learner.git("pull", "-q")
        half = improved.replace("// TODO: return 42", "int half = 21;  // TODO: return 42")
        learner.exercise("01").write_text(half)
        learner.commit_all("half done")
        rc, out, _ = learner.run("reset", "1", "--force")
        self.assertEqual(rc, 0, out)
        self.assertIn("the course's origin/main", out)
        self.assertEqual(learner.exercise("01").read_text(), improved)

    def test_without_git_it_says_so(self):
        shutil.rmtree(self.c.root / ".git")
        rc, out, err = self.c.run("reset", "1", "--force")
        self.assertEqual(rc, 1)
        self.assertIn("cannot find the original stub", err)
        self.assertIn("not a git checkout", err)


class Stubs(Base):
    def test_check_stubs(self):
        rc, out, _ = self.c.run("check-stubs", "--no-build")
        self.assertEqual(rc, 0, out)
        self.assertIn("lesson 01: stub fails its grader with NOT IMPLEMENTED", out)
        self.c.fill("02", HALF)
        rc, out, _ = self.c.run("check-stubs", "--no-build")
        self.assertEqual(rc, 1, out)
        self.assertIn("lesson 02 [cpu]: the stub should fail every test with NOT IMPLEMENTED, but "
                      "its grader says 'passed'", out)



@unittest.skipUnless(HAVE_GIT, "git is not installed")
class ShippedStubs(Base):
    """The repository's checks look at the stubs as the course shipped them (git), not at the
    learner's work in exercises/, and say so in one line."""

    def setUp(self):
        super().setUp()
        self.c.git("-c", "init.defaultBranch=main", "init", "-q")
        self.c.commit_all("the course")

    def test_check_repo_checks_the_shipped_stub_of_an_exercise_that_holds_work(self):
        self.c.fill("01", SOLVED)
        ex = self.c.exercise("01")
        # The learner's work may change the text outside the regions too.
        ex.write_text(ex.read_text().replace("// Lesson 01", "// My lesson 01"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 0, out)
        self.assertIn("exercise 01 holds your work: checked the shipped stub instead (commit ", out)
        self.assertNotIn("exercise 02", out)
        self.assertEqual(out.splitlines()[-1], "check-repo: 2 lessons, all consistent")
        self.c.fill("02", HALF)
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 0, out)
        self.assertIn("exercises 01-02 hold your work: checked the shipped stubs instead (HEAD)\n",
                      out)

    def test_the_shipped_stub_is_what_is_checked(self):
        ex = self.c.exercise("01")
        self.c.edit(ex, "// TODO: return 42.\n", "")
        self.c.edit(ex, "// TODO: return 84.\n", "")
        self.c.commit_all("a stub without its TODOs")
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1, out)
        self.assertIn("exercises/01-alpha/alpha.cpp: fill-in regions without a TODO", out)

    def test_a_change_outside_the_regions_is_the_courses_own_and_checked(self):
        # No region differs from the stub: a change of the course's text, not yet committed.
        ex = self.c.exercise("01")
        ex.write_text(ex.read_text().replace("int alpha_fn()", "long alpha_fn()"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("differ outside the fill-in regions", out)
        self.assertNotIn("holds your work", out)

    def test_check_stubs_does_not_check_an_exercise_that_holds_work(self):
        self.c.fill("02", HALF)
        rc, out, _ = self.c.run("check-stubs", "--no-build")
        self.assertEqual(rc, 0, out)
        self.assertIn("lesson 01: stub fails its grader with NOT IMPLEMENTED", out)
        self.assertIn("lesson 02: stub not checked: exercise 02 holds your work (its grader is "
                      "built from your copy)", out)

    def test_without_git_the_exercises_are_checked_as_they_are_and_it_says_so(self):
        shutil.rmtree(self.c.root / ".git")
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 0, out)
        self.assertIn("every exercise is checked as it is, your work included: this folder is not "
                      "a git checkout", out)

# A fake nvidia-smi that lists a GPU: self-check then asks the graders whether they can use it.
NVIDIA_SMI = "#!/bin/sh\necho 'GPU 0: Fake GPU (UUID: GPU-0)'\n"


class SelfCheck(Base):
    def setUp(self):
        super().setUp()
        write(self.c.root / "fakebin" / "nvidia-smi", NVIDIA_SMI, 0o755)

    def test_without_a_driver_it_says_so_before_building(self):
        write(self.c.root / "fakebin" / "nvidia-smi",
              "#!/bin/sh\necho 'NVIDIA-SMI has failed: no driver'\nexit 9\n", 0o755)
        rc, out, _ = self.c.run("self-check")
        self.assertEqual(rc, 77)
        self.assertEqual(out.splitlines(), [
            "SKIPPED: this needs a CUDA GPU: nvidia-smi says: NVIDIA-SMI has failed: no driver; "
            "nothing was built"])
        self.assertFalse((self.c.root / "build" / "cmake-calls.log").exists())
        rc, out, _ = self.c.run("self-check", "--probe")
        self.assertEqual(rc, 77)
        write(self.c.root / "fakebin" / "nvidia-smi", NVIDIA_SMI, 0o755)
        rc, out, _ = self.c.run("self-check", "--probe")
        self.assertEqual((rc, out), (0, ""))

    def test_skipped_without_a_gpu(self):
        rc, out, _ = self.c.run("self-check")
        self.assertEqual(rc, 77)
        self.assertIn("SKIPPED: no CUDA device (fake)", out)

    @unittest.skipUnless(HAVE_GIT, "git is not installed")
    def test_on_a_gpu(self):
        self.c.git("-c", "init.defaultBranch=main", "init", "-q")
        self.c.commit_all("the course")
        rc, out, _ = self.c.run("self-check", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 0, out)
        self.assertIn("lesson 01: solution [cpu passed, gpu passed]; stub [cpu not started, gpu not "
                      "started]", out)
        # The learner's work: that lesson's stub is not checked, and nothing fails.
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("self-check", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 0, out)
        self.assertIn("lesson 01: stub not checked", out)
        # A stub that crashes (as shipped) is a problem.
        self.c.fill("02", CRASHY.replace("return", "course::not_implemented(\"\"); return"))
        self.c.commit_all("a crashing stub")
        rc, out, _ = self.c.run("self-check", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 1, out)
        self.assertIn("lesson 02 [cpu]: the untouched stub should fail every test with NOT "
                      "IMPLEMENTED, but its grader crashed", out)

    def test_without_git_stubs_are_skipped_with_a_note(self):
        rc, out, _ = self.c.run("self-check", env={"FAKE_GPU": "1"})
        self.assertEqual(rc, 0, out)
        self.assertIn("stub not checked: this folder is not a git checkout", out)


# ---- the real build ------------------------------------------------------------------------------

@unittest.skipUnless(os.environ.get("COURSE_TEST_BUILD"), "COURSE_TEST_BUILD not set")
class RealBuild(unittest.TestCase):
    def setUp(self):
        self.build = Path(os.environ["COURSE_TEST_BUILD"])

    def real_report(self, binary, *args):
        exe = self.build / "bin" / binary
        if not exe.exists():
            self.skipTest(f"{binary} is not built")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "report.jsonl"
            p = subprocess.run([str(exe), *args], env={**os.environ, "COURSE_REPORT": str(path)},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=600)
            return p, report.read_report(path)

    def test_the_real_graders_report_every_test_case_with_its_task(self):
        p, r = self.real_report("test01", "[cpu]")
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("All tests passed", p.stdout)  # the console report is Catch2's own
        self.assertTrue(r.complete)
        self.assertTrue(r.cases)
        lesson = records.find("1")
        for c in r.cases:
            self.assertTrue(c.passed and c.part == "cpu", c.name)
            self.assertEqual(sum(1 for t in c.tags if t.startswith("task_")), 1, c.name)
            self.assertIn(lesson.task_of_tags(c.tags), lesson.tasks)

    def test_the_real_stubs_grader_says_not_implemented(self):
        # The learner's grader is built from exercises/: the stub's, unless it holds their work.
        if reset.shipped_stub(records.find("1")).work:
            self.skipTest("exercise 01 holds your work: its grader is not the stub's")
        # Every test case fails with NOT IMPLEMENTED, marked as such.
        p, r = self.real_report("grade01", "[cpu]")
        self.assertNotEqual(p.returncode, 0)
        self.assertTrue(r.cases and all(not c.passed and c.todo for c in r.cases))
        failure = r.cases[0].failures[0]
        self.assertEqual(failure.kind, "exception")
        self.assertIn("NOT IMPLEMENTED: ", failure.message)
        self.assertTrue(failure.file.endswith(".cpp") and failure.line > 0)

    def test_a_gpu_part_that_cannot_run_lists_its_test_cases(self):
        p, r = self.real_report("grade03", "[gpu]", "--gpu-min-cc=999")
        self.assertEqual(p.returncode, 77, p.stdout)
        self.assertTrue(r.skipped)  # no CUDA device here, or one below compute capability 99.9
        self.assertTrue(r.cases)
        self.assertTrue(all(c.skipped and "task_1" in c.tags for c in r.cases))

    def test_watch_once_on_the_real_lesson_01_solution(self):
        if not (self.build / "bin" / "test01").exists():
            self.skipTest("test01 is not built")
        p = subprocess.run([sys.executable, str(COURSE), "watch", "1", "--once", "--solution",
                            "--no-build", "--build", str(self.build)], cwd=REPO,
                           env={**os.environ, "NO_COLOR": "1"}, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("CPU part: passed", p.stdout)
        if re.search(r"GPU part: passed", p.stdout):
            self.assertIn("status: PASSED", p.stdout)
        else:  # no GPU here: never a pass
            self.assertIn("status: CPU part passed; GPU part not run", p.stdout)
            self.assertNotIn("PASSED", p.stdout)


if __name__ == "__main__":
    unittest.main()
