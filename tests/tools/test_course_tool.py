#!/usr/bin/env python3
"""Tests of common/tools/course.py, the learner's tools behind `make grade`, `make watch`,
`make next`, `make hint-N`, `make reset-N` and the course's own checks.

Each test builds a small fake course in a temporary folder: a manifest of two lessons, their
folders, and fake graders (shell scripts that answer like the Catch2 graders: NOT IMPLEMENTED
while the exercise still calls not_implemented, a failure with a "likely cause" when it holds
BUG, a crash when it holds CRASH, a pass otherwise; their GPU half is skipped unless FAKE_GPU=1).
course.py is copied in, so it reads the fake course and writes its state there: nothing here
touches the real repository. CPU only, standard library only, a few seconds.

With COURSE_TEST_BUILD set (CTest sets it to the build folder), one more test runs the real
`course.py watch 1 --once --solution --no-build` against the real build.

  python3 tests/tools/test_course_tool.py [-v]
"""

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COURSE = REPO / "common" / "tools" / "course.py"
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
"""
BUGGY = SOLVED.replace("return 42;", "return 41;  // BUG")
CRASHY = SOLVED.replace("return 42;", "return *(int*)0;  // CRASH")

# A fake Catch2 grader: its answers depend on the source it "was built from".
GRADER = r"""#!/usr/bin/env bash
src="__SRC__"
tag="$1"
for a in "$@"; do
  case "$a" in --gpu-min-cc=*)
    if [ -z "${FAKE_GPU:-}" ]; then echo "SKIPPED: no CUDA device (fake)"; exit 77; fi;;
  esac
done
[ "$tag" = "[course-probe]" ] && { echo "No test cases matched '$tag'"; exit 0; }
echo "Filters: $tag"
grep -q CRASH "$src" && kill -SEGV $$
if grep -q not_implemented "$src"; then cat <<'EOF'

-------------------------------------------------------------------------------
__FN__ returns 42
-------------------------------------------------------------------------------
tests/__DIR__/test.cpp:10
...............................................................................

tests/__DIR__/test.cpp:12: FAILED:
due to unexpected exception with message:
  NOT IMPLEMENTED: __FN__ (exercises/__DIR__/__SLUG__.
  cpp) is still a TODO stub

===============================================================================
test cases: 1 | 1 failed
assertions: 1 | 1 failed
EOF
exit 1; fi
if grep -q BUG "$src"; then cat <<'EOF'

-------------------------------------------------------------------------------
__FN__ on the shape grid
-------------------------------------------------------------------------------
tests/__DIR__/test.cpp:20
...............................................................................

tests/__DIR__/test.cpp:22: FAILED:
explicitly with message:
  FAILED __FN__ M=70 N=50 K=20
  got 41, expected 42
  likely cause: off by one (a planted bug)

===============================================================================
test cases: 2 | 1 passed | 1 failed
assertions: 2 | 1 passed | 1 failed
EOF
exit 1; fi
echo "==============================================================================="
echo "All tests passed (2 assertions in 2 test cases)"
"""

# A fake lesson program: the JSON line `make grade` reads the % of cuBLAS from.
PROGRAM = r"""#!/usr/bin/env bash
[ "$1" = "--json" ] && echo '{"kernel": "k", "pct_of_cublas": '"${FAKE_PCT:-12.5}"', "headline": true}'
echo "fake lesson program ran: $*"
exit 0
"""

# A fake `cmake --build`: it "compiles" the exercises and fails, as nvcc would, on one that holds
# SYNTAX_ERROR.
CMAKE = r"""#!/usr/bin/env bash
root="__ROOT__"
bad=$(grep -l SYNTAX_ERROR "$root"/exercises/*/*.cpp 2>/dev/null | head -n 1)
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

LESSONS = [("01", "alpha", "-", "Alpha: the first lesson"), ("02", "beta", "10", "Beta: the second")]
# The reference solution's target of each lesson (the manifest's 6th field; the 7th, the learner's
# target, is the third entry of LESSONS).
SOLUTION_TARGETS = {"01": "-", "02": "~12"}


def write(path, text, mode=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if mode:
        path.chmod(mode)


class FakeCourse:
    """A course of two lessons in a temporary folder, with fake graders in build/bin."""

    def __init__(self, root, hints=3, target_field=True):
        self.root = root
        lines = ["# number | slug | min CC | title | hints file | solution target | learner target"]
        for num, slug, target, title in LESSONS:
            d = f"{num}-{slug}"
            line = f"{num} | {slug} | 7.5 | {title} | lessons/{d}/hints.md"
            lines.append(line + (f" | {SOLUTION_TARGETS[num]} | {target}" if target_field else ""))
            fmt = dict(num=num, slug=slug, dir=d, fn=f"{slug}_fn")
            write(root / "lessons" / d / "main.cu", "int main() { return 0; }\n")
            write(root / "lessons" / d / "README.md",
                  f"# {title} {{#lesson{num}}}\n\nIntro.\n\n## How it starts\n\nText.\n\n"
                  f"```\n# a shell comment, not a heading\n```\n\n## The {slug} kernel\n\n"
                  f"\\snippet solutions/{d}/{slug}.cpp body\n")
            write(root / "lessons" / d / "hints.md", f"# Hints for lesson {num}\n" + "".join(
                f"\n## Hint {i}\n\nHint number {i} of lesson {num}.\n" for i in range(1, hints + 1)))
            write(root / "exercises" / d / f"{slug}.cpp", STUB.format(**fmt))
            write(root / "solutions" / d / f"{slug}.cpp", SOLVED.format(**fmt))
            write(root / "tests" / d / "test.cpp", 'TEST_CASE("x", "[cpu]") {}\nTEST_CASE("y", "[gpu]") {}\n')
            for kind, top in (("grade", "exercises"), ("test", "solutions")):
                script = GRADER.replace("__SRC__", str(root / top / d / f"{slug}.cpp"))
                for key, value in (("__FN__", fmt["fn"]), ("__DIR__", d), ("__SLUG__", slug)):
                    script = script.replace(key, value)
                write(root / "build" / "bin" / f"{kind}{num}", script, 0o755)
            for name in (f"lesson{num}", f"lesson{num}_solution"):
                write(root / "build" / "bin" / name, PROGRAM, 0o755)
        write(root / "lessons" / "manifest.txt", "\n".join(lines) + "\n")
        write(root / "fakebin" / "cmake", CMAKE.replace("__ROOT__", str(root)), 0o755)
        write(root / "common" / "tools" / "course.py", COURSE.read_text(), 0o755)
        write(root / ".gitignore", "/build/\n/.course/\n/fakebin/\n")

    def exercise(self, num):
        slug = dict((n, s) for n, s, _, _ in LESSONS)[num]
        return self.root / "exercises" / f"{num}-{slug}" / f"{slug}.cpp"

    def fill(self, num, template):
        slug = dict((n, s) for n, s, _, _ in LESSONS)[num]
        d = f"{num}-{slug}"
        self.exercise(num).write_text(template.format(num=num, slug=slug, dir=d, fn=f"{slug}_fn"))

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

    def test_check_repo_wants_two_hints_and_a_target(self):
        c = FakeCourse(self.tmp / "thin", hints=1, target_field=False)
        rc, out, _ = c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("1 hint(s); a lesson needs at least two", out)
        self.assertIn("has 5 fields, not 7: ... | hints file | solution target | learner target", out)

    def test_check_repo_rejects_a_bad_target(self):
        m = self.c.root / "lessons" / "manifest.txt"
        m.write_text(m.read_text().replace("| 10", "| fast"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("the learner target 'fast' is neither", out)

    def test_check_repo_checks_the_solution_target(self):
        m = self.c.root / "lessons" / "manifest.txt"
        text = m.read_text()
        m.write_text(text.replace("| ~12 |", "| >12 |"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("the solution target '>12' is neither", out)
        m.write_text(text.replace("| ~12 |", "| 8 |"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("the learner target 10% is above the solution target 8%", out)

    def test_an_older_six_field_manifest_still_grades_but_fails_the_check(self):
        m = self.c.root / "lessons" / "manifest.txt"
        m.write_text(m.read_text().replace("| ~12 |", "|"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("lesson 02 has 6 fields, not 7", out)
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "2", "--perf", env={"FAKE_GPU": "1", "FAKE_PCT": "4"})
        self.assertIn("performance: missed (4.0% of cuBLAS on this GPU, target 10%)", out)

    def test_check_repo_catches_drift_outside_the_regions(self):
        ex = self.c.exercise("01")
        ex.write_text(ex.read_text().replace("int alpha_fn", "long alpha_fn"))
        rc, out, _ = self.c.run("check-repo")
        self.assertEqual(rc, 1)
        self.assertIn("differ outside the fill-in regions", out)


class Grading(Base):
    def test_untouched_stubs_are_not_started_and_progress_is_recorded(self):
        rc, out, err = self.c.run("grade")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("Progress (your exercises)", out)
        self.assertIn("not started", out)
        self.assertIn("0 of 2 lessons passed", out)
        self.assertIn("current lesson: 01", out)
        self.assertIn("GPU parts not run: no CUDA device (fake)", out)
        state = self.c.state()["lessons"]
        self.assertEqual(state["01"]["status"], "not started")
        self.assertEqual(state["02"]["gpu"], "not run")

    def test_a_pass_is_dated_points_to_the_solution_and_moves_next(self):
        self.c.fill("01", SOLVED)
        gpu = {"FAKE_GPU": "1"}
        rc, out, _ = self.c.run("grade", "1", env=gpu)
        self.assertEqual(rc, 0, out)
        self.assertIn("PASSED", out)
        self.assertIn("solutions/01-alpha/alpha.cpp: the chapter discusses it in \u00a7 The alpha "
                      "kernel (lessons/01-alpha/README.md:", out)
        self.assertIn("Next: lesson 02", out)
        passed_at = self.c.state()["lessons"]["01"]["passed_at"]
        rc, out, _ = self.c.run("grade", env=gpu)
        self.assertIn(passed_at, out)
        self.assertIn("-> 02", out)
        self.assertIn("[###############...............] 1 of 2 lessons passed", out)
        rc, out, _ = self.c.run("next")
        self.assertEqual(rc, 0)
        self.assertIn("Next: lesson 02, Beta", out)
        self.assertIn("chapter:  lessons/02-beta/README.md", out)
        self.assertIn("exercise: exercises/02-beta/beta.cpp", out)
        # The first pass keeps its date; a later failure does not erase it.
        self.c.fill("01", BUGGY)
        self.c.run("grade", "1", env=gpu)
        self.assertEqual(self.c.state()["lessons"]["01"]["passed_at"], passed_at)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "failing")

    def test_a_failure_says_why_and_exits_1(self):
        self.c.fill("02", BUGGY)
        rc, out, _ = self.c.run("grade", "2")
        self.assertEqual(rc, 1)
        self.assertIn("FAILING", out)
        self.assertIn("likely cause: off by one", out)

    def test_a_crash_is_a_failure_not_a_traceback(self):
        self.c.fill("02", CRASHY)
        rc, out, err = self.c.run("grade", "2")
        self.assertEqual(rc, 1)
        self.assertIn("crashed: killed by SIGSEGV", out)
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
        self.assertIn("the GPU part did not run: no CUDA device (fake)", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["status"], "CPU part passed")
        self.assertNotIn("passed_at", self.c.state()["lessons"]["01"])
        rc, out, _ = self.c.run("grade")
        self.assertRegex(out, r"01 .*CPU part passed +not run")
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
        self.assertNotIn("All tests passed", out)
        self.assertNotIn("gmake", out)
        rc, out, _ = self.c.run("grade", env=gpu)
        self.assertEqual(rc, 1, out)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertNotIn("Progress", out)
        rc, out, _ = self.c.run("run", "1", "--build", str(self.c.root / "build"), env=gpu)
        self.assertEqual(rc, 1, out)
        self.assertIn("DOES NOT COMPILE", out)
        self.assertNotIn("fake lesson program ran", out)
        self.assertEqual(self.c.state(), before)
        # Fixed again: the program runs, with the learner's options.
        self.c.fill("01", SOLVED)
        rc, out, _ = self.c.run("run", "1", "--build", str(self.c.root / "build"),
                                "--args", "--size 64 --json")
        self.assertEqual(rc, 0, out)
        self.assertIn("fake lesson program ran: --size 64 --json", out)

    def test_a_cpu_machine_does_not_undo_a_gpu_pass(self):
        self.c.fill("02", SOLVED)
        self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertEqual(self.c.state()["lessons"]["02"]["gpu"], "passed")
        # Remove the CPU half: on a machine without a GPU, lesson 02 is then skipped.
        (self.c.root / "tests" / "02-beta" / "test.cpp").write_text('TEST_CASE("y", "[gpu]") {}\n')
        rc, out, _ = self.c.run("grade", "2")
        self.assertEqual(rc, 0)
        self.assertIn("SKIPPED", out)
        self.assertEqual(self.c.state()["lessons"]["02"]["status"], "passed")


class Performance(Base):
    def test_perf_is_a_separate_verdict(self):
        self.c.fill("01", SOLVED)
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "--perf", env={"FAKE_GPU": "1", "FAKE_PCT": "12.5"})
        self.assertEqual(rc, 0)
        self.assertIn("performance", out)
        self.assertRegex(out, r"02 .*passed .*12\.5% +10% +met")
        rc, out, _ = self.c.run("grade", "2", "--perf", env={"FAKE_GPU": "1", "FAKE_PCT": "4"})
        self.assertEqual(rc, 0, "a missed target never fails the grade")
        self.assertIn("performance: missed (4.0% of cuBLAS on this GPU, target 10%)", out)
        self.assertEqual(self.c.state()["lessons"]["02"]["perf"], "missed")
        rc, out, _ = self.c.run("grade", "1", "--perf", env={"FAKE_GPU": "1"})
        self.assertIn("performance: - (no performance target for this lesson)", out)

    def test_perf_without_a_gpu_is_not_measured(self):
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "2", "--perf")
        self.assertEqual(rc, 0)
        self.assertIn("performance: not measured (target 10% of cuBLAS; measuring it needs a GPU)", out)

    def test_no_perf_line_unless_asked(self):
        self.c.fill("02", SOLVED)
        rc, out, _ = self.c.run("grade", "2", env={"FAKE_GPU": "1"})
        self.assertIn("speed: 12.5% of cuBLAS", out)
        self.assertNotIn("performance:", out)


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
            "01": {"status": "passed", "passed_at": "2026-01-02 03:04", "hints_seen": "two"},
            "02": "nonsense", "x": {}}}))
        rc, out, err = self.c.run("next")
        self.assertEqual(rc, 0)
        self.assertIn("had 3 unreadable entries", err)
        self.assertIn("Next: lesson 02", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["passed_at"], "2026-01-02 03:04")

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
        self.assertIn("hint 1 of 3", outs[0])
        self.assertIn("Hint number 1 of lesson 01", outs[0])
        self.assertIn("hint 2 of 3", outs[1])
        self.assertIn("hint 3 of 3", outs[2])
        self.assertIn("that was the last hint", outs[2])
        self.assertIn("hint 3 of 3", outs[3])
        self.assertEqual(self.c.state()["lessons"]["01"]["hints_seen"], 3)
        rc, out, _ = self.c.run("hint", "1", "--reset")
        self.assertIn("hint 1 of 3", out)
        rc, out, _ = self.c.run("hint", "01", "--all")
        for i in (1, 2, 3):
            self.assertIn(f"Hint number {i} of lesson 01", out)
        self.assertEqual(self.c.state()["lessons"]["01"]["hints_seen"], 3)
        # Lesson 02 has its own count.
        self.assertIn("hint 1 of 3", self.c.run("hint", "2")[1])

    def test_the_old_count_in_the_build_folder_is_carried_over(self):
        write(self.c.root / "build" / "hints" / "01.seen", "2")
        self.assertIn("hint 3 of 3", self.c.run("hint", "1")[1])


class Watch(Base):
    def test_once_on_an_untouched_stub(self):
        rc, out, err = self.c.run("watch", "1", "--once", "--no-build")
        self.assertEqual(rc, 1, err)
        self.assertIn("lesson 01 \u00b7 Alpha", out)
        self.assertIn("NOT STARTED", out)
        self.assertIn("alpha_fn  in exercises/01-alpha/alpha.cpp", out)
        self.assertIn("the GPU part did not run: no CUDA device (fake)", out)
        self.assertIn("make hint-1 gives a hint (0 of 3 seen)", out)

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
        rc, out, _ = self.c.run("reset", "1", "--force")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.c.exercise("01").read_text(), self.stub)
        backups = list((self.c.root / ".course" / "backup").glob("01-alpha-*/alpha.cpp"))
        self.assertEqual(len(backups), 1)
        self.assertEqual(backups[0].read_text(), work)
        self.assertIn("Your version is kept in .course/backup/01-alpha-", out)

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
            self.assertEqual(os.waitstatus_to_exitcode(status), 0 if restored else 1)

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
        half = improved.replace("// TODO", "int half = 21;  // TODO")
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


class SelfCheck(Base):
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


@unittest.skipUnless(os.environ.get("COURSE_TEST_BUILD"), "COURSE_TEST_BUILD not set")
class RealBuild(unittest.TestCase):
    def test_watch_once_on_the_real_lesson_01_solution(self):
        build = Path(os.environ["COURSE_TEST_BUILD"])
        if not (build / "bin" / "test01").exists():
            self.skipTest("test01 is not built")
        p = subprocess.run([sys.executable, str(COURSE), "watch", "1", "--once", "--solution",
                            "--no-build", "--build", str(build)], cwd=REPO,
                           env={**os.environ, "NO_COLOR": "1"}, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("CPU part passed", p.stdout)
        if re.search(r"GPU part passed", p.stdout):
            self.assertIn("status: PASSED", p.stdout)
        else:  # no GPU here: never a pass
            self.assertIn("status: CPU part passed; GPU part not run", p.stdout)
            self.assertNotIn("PASSED", p.stdout)


if __name__ == "__main__":
    unittest.main()
