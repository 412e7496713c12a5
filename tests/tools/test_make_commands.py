#!/usr/bin/env python3
"""Every `make` command the README and the chapters show works as written, on a fresh clone without
a GPU; any string in ARGS reaches the lesson program unchanged; a bad command gets a clear message
and exit 2.

The Makefile runs for real, with its course tool (COURSE) and Python scripts (PYTHON) replaced by
this file in a recording role: it reads the command line the Makefile built with the tool's own
parser (common/tools/course/cli.py), resolves the lesson as the tool does (exit 2 for a lesson that
does not exist), and for `make lesson-N` runs the tool's own `run` command with the build replaced,
so that it records the argument list the lesson program would get. Nothing is built and no GPU is
needed: a second or so per command.

With COURSE_TEST_BUILD set (CTest sets it to the build folder) and lesson 02's program built, the
README's `make lesson-2 ARGS=--help` runs the real program too.

  python3 tests/tools/test_make_commands.py [-v]
"""

import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "common" / "tools"
ME = Path(__file__).resolve()

# Where the recording role writes what it saw, one JSON object a line.
LOG_ENV = "COURSE_COMMANDS_LOG"


# ---- the recording role: the Makefile's COURSE and PYTHON ----------------------------------------

def record(entry):
    with open(os.environ[LOG_ENV], "a") as f:
        f.write(json.dumps(entry) + "\n")


def as_course(argv):
    """course.py as the Makefile calls it: parsed by its own parser; a lesson resolved as it
    resolves them; `run` run by the tool itself, the build and the program replaced."""
    sys.path.insert(0, str(TOOLS))
    from course import cli, commands, records

    args = cli.parser().parse_args(argv)  # exit 2, with argparse's message, on a bad command line
    record({"tool": "course", "argv": argv})
    if args.cmd in ("list", "resolve"):  # they only read the records: the tool itself
        return cli.main(argv)
    if getattr(args, "lesson", None):
        records.resolve(args.lesson)  # the lesson list and exit 2 for one that does not exist
    if args.cmd != "run":
        return 0

    class Program:
        @staticmethod
        def run(cmd, cwd=None):
            record({"tool": "program", "argv": cmd[1:]})
            return subprocess.CompletedProcess(cmd, 0)

    commands.build_targets = lambda *a, **k: True
    commands.subprocess = Program
    args.build = Path(args.build)
    return commands.cmd_run(args)


def as_cmake(argv):
    """$(CMAKE) ...: recorded; it fails where FAKE_CMAKE_RC says so."""
    record({"tool": "cmake", "argv": argv})
    return int(os.environ.get("FAKE_CMAKE_RC", "0"))


def as_python(argv):
    """$(PYTHON) SCRIPT ...: the script the Makefile names exists."""
    record({"tool": "python", "argv": argv})
    if not argv or not (REPO / argv[0]).is_file():
        print(f"no such script: {argv[:1]}", file=sys.stderr)
        return 2
    return 0


# ---- the commands the documentation shows --------------------------------------------------------

DOCS = ["README.md", "book/README.md", "lessons/*/README.md", "lessons/*/hints.md"]
# A command in the text: `make` and what follows, up to the end of the code span or a shell separator.
COMMAND = re.compile(r"(?:^|[;&|(]\s*|\$ )(make\s+[^;&|#`)]*)")
# Placeholders the README writes for "a lesson's number" or "a folder".
PLACEHOLDERS = {"-N": "-3", "OUT=dir": "OUT=gpu-check-logs"}
# Targets that start something that is not the course's tool (a whole build, the GPU machine's
# check, removing the build): checked as known to make (a dry run), not run.
DRY_RUN = {"gpu-check", "clean", "build"}
# Targets that run only the setup step (SETUP, replaced by `true` here).
SETUP_ONLY = {"setup"}


def documented_commands():
    """{command as written: [files that show it]}, from the code spans and code blocks of the
    README, the book's front page, the chapters and the hints."""
    found = {}
    for pattern in DOCS:
        for path in sorted(REPO.glob(pattern)):
            text = path.read_text()
            spans = re.findall(r"`([^`\n]+)`", text)
            fence = False
            for line in text.splitlines():
                if line.lstrip().startswith(("```", "~~~")):
                    fence = not fence
                elif fence:
                    spans.append(line)
            for span in spans:
                for m in COMMAND.finditer(span.strip()):
                    command = m.group(1).strip()
                    for placeholder, value in PLACEHOLDERS.items():
                        command = re.sub(re.escape(placeholder) + r"\b", value, command)
                    found.setdefault(command, []).append(path.relative_to(REPO).as_posix())
    return found


class Make:
    """The course's Makefile with the recording role for COURSE and PYTHON, in a configured (empty)
    build folder, so that nothing configures or builds."""

    def __init__(self, tmp):
        self.build = tmp / "build"
        self.build.mkdir()
        (self.build / "CMakeCache.txt").write_text("")
        self.tmp = tmp
        self.count = 0

    def __call__(self, *words, dry=False, env=None):
        self.count += 1
        log = self.tmp / f"log{self.count}.jsonl"
        log.write_text("")
        me = f"{shlex.quote(sys.executable)} {shlex.quote(str(ME))}"
        cmd = ["make", "-C", str(REPO), "--no-print-directory", *(["-n"] if dry else []), *words,
               f"BUILD={self.build}", f"COURSE={me} --as-course", f"PYTHON={me} --as-python",
               f"CMAKE={me} --as-cmake", "SETUP=true"]
        env = {**os.environ, LOG_ENV: str(log), "NO_COLOR": "1", **(env or {})}
        # What an outer make passes down (CI runs `make test CMAKE_ARGS=...`) is not this test's.
        for var in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "ARGS", "SOLUTION", "PERF", "CMAKE_ARGS"):
            env.pop(var, None)
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=120)
        seen = [json.loads(l) for l in log.read_text().splitlines() if l.strip()]
        return p.returncode, p.stdout, seen


def program_argv(seen):
    runs = [e["argv"] for e in seen if e["tool"] == "program"]
    return runs[0] if runs else None


class WithMake(unittest.TestCase):
    """Tests that run the Makefile (Make) in a folder of their own."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="course-commands-"))
        cls.make = Make(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)


class Documented(WithMake):
    def test_the_documentation_shows_the_loop(self):
        found = documented_commands()
        for command in ("make lesson-3", "make grade", "make grade-3", "make hint-3", "make test",
                        "make book", "make watch"):
            self.assertIn(command, found)

    def test_every_documented_command_works_as_written(self):
        def one(item):
            command, where = item
            words = shlex.split(command)[1:]
            target = words[0]
            return command, where, self.make(*words, dry=target in DRY_RUN)

        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            results = list(pool.map(one, sorted(documented_commands().items())))
        self.assertGreater(len(results), 40)
        for command, where, (rc, out, seen) in results:
            with self.subTest(command=command, shown_in=where[0]):
                self.assertEqual(rc, 0, out)
                self.assertNotIn("No rule to make target", out)
                words = shlex.split(command)[1:]
                if words[0] in DRY_RUN | SETUP_ONLY:
                    continue
                self.assertTrue(seen, f"{command}: the Makefile ran nothing of the course's\n{out}")
                if words[0].startswith("lesson-"):
                    given = next((w[len("ARGS="):] for w in words if w.startswith("ARGS=")), "")
                    self.assertEqual(program_argv(seen), shlex.split(given), out)


class Args(WithMake):
    """make lesson-N ARGS=...: the program gets the words a shell would make of ARGS."""

    CASES = [
        ("", []),
        ("--help", ["--help"]),
        ("-h", ["-h"]),
        ("--json", ["--json"]),
        ("--n=5", ["--n=5"]),
        ("--sweep", ["--sweep"]),
        ("--size 2048 --json", ["--size", "2048", "--json"]),
        ("  --k   8  ", ["--k", "8"]),
        ('--label "two words"', ["--label", "two words"]),
        ("--label 'two words'", ["--label", "two words"]),
        ("--title \"it's\"", ["--title", "it's"]),
        ("--expr=a=b", ["--expr=a=b"]),
        ("--path=/tmp/x y", ["--path=/tmp/x", "y"]),
        ('--q "a \\"b\\""', ["--q", 'a "b"']),
        ("-- --not-an-option", ["--", "--not-an-option"]),
        ("--dollar '$HOME'", ["--dollar", "$HOME"]),
    ]

    def test_any_string_reaches_the_program_unchanged(self):
        for value, expected in self.CASES:
            for solution in ([], ["SOLUTION=1"]):
                with self.subTest(args=value, solution=bool(solution)):
                    rc, out, seen = self.make("lesson-2", f"ARGS={value}", *solution)
                    self.assertEqual(rc, 0, out)
                    self.assertEqual(program_argv(seen), expected, out)


class Measuring(WithMake):
    """make profile-N and make bench pass their options on to the measuring scripts."""

    def script_argv(self, *words):
        rc, out, seen = self.make(*words)
        self.assertEqual(rc, 0, out)
        runs = [e["argv"] for e in seen if e["tool"] == "python"]
        self.assertEqual(len(runs), 1, out)
        return runs[0]

    def test_profile_options(self):
        argv = self.script_argv("profile-11", "SIZE=8192x7168x2048", "HEADLINE=1", "RECORD=1")
        self.assertEqual(argv[:3], ["common/tools/measure.py", "profile", "11"])
        self.assertEqual(argv[argv.index("--size") + 1], "8192x7168x2048")
        self.assertIn("--headline-only", argv)
        self.assertIn("--record", argv)
        argv = self.script_argv("profile-11")
        for option in ("--size", "--headline-only", "--record"):
            self.assertNotIn(option, argv)
        # The sanitizers and the SASS take none of them.
        argv = self.script_argv("sanitize-11", "SIZE=4096", "RECORD=1", "HEADLINE=1")
        self.assertEqual(argv[:2], ["common/tools/measure.py", "sanitize"])
        for option in ("--size", "--headline-only", "--record"):
            self.assertNotIn(option, argv)

    def test_bench_without_profiles(self):
        self.assertIn("--no-profile", self.script_argv("bench", "NO_PROFILE=1"))
        self.assertNotIn("--no-profile", self.script_argv("bench"))


class BadInput(WithMake):
    """Each bad command: a clear message, exit 2, nothing run."""

    CASES = [
        (("lesson-0",), "no lesson '0'"),
        (("lesson-12",), "no lesson '12'"),
        (("lesson-x",), "no lesson 'x'"),
        (("lesson-3x",), "no lesson '3x'"),
        (("grade-99",), "no lesson '99'"),
        (("watch-0",), "no lesson '0'"),
        (("hint-99",), "no lesson '99'"),
        (("hint-abc",), "no lesson 'abc'"),
        (("reset-0",), "no lesson '0'"),
        (("profile-99",), "no lesson '99'"),
        (("sanitize-x",), "no lesson 'x'"),
        (("sass-0",), "no lesson '0'"),
        (("lesson-2", 'ARGS=--label "unbalanced'), "ARGS cannot be read"),
        (("lesson-2", "ARGS='--x"), "ARGS cannot be read"),
        # No number: the usage line, not make's "No rule to make target".
        (("lesson",), "usage: make lesson-N [SOLUTION=1] [ARGS='...'], N a lesson's number"),
        (("hint",), "usage: make hint-N [ALL=1] [RESET=1], N a lesson's number"),
        (("reset",), "usage: make reset-N [FORCE=1]"),
        (("sass",), "usage: make sass-N [MINE=1]"),
    ]

    def test_a_clear_message_and_exit_2(self):
        for words, message in self.CASES:
            with self.subTest(command=" ".join(words)):
                rc, out, seen = self.make(*words)
                self.assertIn(message, out)
                self.assertNotIn("Traceback", out)
                self.assertIsNone(program_argv(seen), out)
                # make reports its recipe's failure as "Error 2" and exits 2 itself.
                self.assertEqual(rc, 2, out)

    def test_a_wrong_name_configures_nothing(self):
        # Before a first configure the Makefile checks the name itself: a typo must not start
        # setup and CMake.
        (self.tmp / "fresh").mkdir()
        fresh = Make(self.tmp / "fresh")
        (fresh.build / "CMakeCache.txt").unlink()
        for words in (("grade-99",), ("watch-x",), ("lesson-0",), ("sanitize-12",)):
            with self.subTest(command=" ".join(words)):
                rc, out, seen = fresh(*words)
                self.assertEqual(rc, 2, out)
                self.assertIn("no lesson", out)
                self.assertNotIn("configuring", out)
                self.assertEqual([e["argv"][0] for e in seen], ["resolve"], out)
                self.assertFalse((fresh.build / "CMakeCache.txt").exists())

    def test_an_unknown_target_is_makes_own_error(self):
        rc, out, _ = self.make("lesosn-3")
        self.assertEqual(rc, 2, out)
        self.assertIn("No rule to make target", out)


class Configure(WithMake):
    """CMAKE_ARGS reconfigure a build folder configured with others, and say so; the same ones
    again, or none, change nothing."""

    def setUp(self):
        (self.tmp / self.id()).mkdir()
        self.make = Make(self.tmp / self.id())

    def cmake_calls(self, seen):
        return [e["argv"] for e in seen if e["tool"] == "cmake"]

    def test_changed_arguments_reconfigure(self):
        arch = "CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=120"
        rc, out, seen = self.make("configure", arch)
        self.assertEqual(rc, 0, out)
        self.assertIn(f"reconfiguring {self.make.build}/ for {arch} (configured before with no "
                      f"CMAKE_ARGS", out)
        self.assertEqual(self.cmake_calls(seen), [["-S", ".", "-B", str(self.make.build),
                                                   "-DCMAKE_CUDA_ARCHITECTURES=120"]])
        for words in (("configure", arch), ("configure",)):
            rc, out, seen = self.make(*words)
            self.assertEqual(rc, 0, out)
            self.assertEqual(self.cmake_calls(seen), [], out)
            self.assertIn("is configured (with -DCMAKE_CUDA_ARCHITECTURES=120): nothing to do", out)
        # A target that configures first: the same, in one line before it goes on.
        rc, out, seen = self.make("test", "CMAKE_ARGS=-DCOURSE_WERROR=ON")
        self.assertEqual(rc, 0, out)
        self.assertIn("reconfiguring", out.splitlines()[0])
        self.assertEqual(self.cmake_calls(seen)[0][-1], "-DCOURSE_WERROR=ON")
        self.assertEqual([e["argv"][0] for e in seen if e["tool"] == "course"], ["test"])
        rc, out, seen = self.make("grade-3", "CMAKE_ARGS=-DCOURSE_WERROR=ON")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.cmake_calls(seen), [], out)

    def test_a_list_of_architectures_reaches_cmake_as_one_argument(self):
        # As gpu-check's multi-architecture build gives it, first time and again.
        archs = '"-DCMAKE_CUDA_ARCHITECTURES=75;80;86;89;90a;120" -DCOURSE_WERROR=ON'
        (self.make.build / "CMakeCache.txt").unlink()
        for first in (True, False):
            rc, out, seen = self.make("configure", f"CMAKE_ARGS={archs}")
            self.assertEqual(rc, 0, out)
            self.assertEqual(self.cmake_calls(seen)[0][-2:],
                             ["-DCMAKE_CUDA_ARCHITECTURES=75;80;86;89;90a;120",
                              "-DCOURSE_WERROR=ON"], out)
            if first:
                self.assertIn(archs, out)  # the command, as run
                (self.make.build / "CMakeCache.txt").write_text("")
                (self.make.build / "course-cmake-args").write_text("")

    def test_a_failed_reconfigure_fails_and_is_tried_again(self):
        arch = "CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=86"
        rc, out, seen = self.make("configure", arch, env={"FAKE_CMAKE_RC": "1"})
        self.assertNotEqual(rc, 0, out)
        rc, out, seen = self.make("configure", arch)
        self.assertEqual(rc, 0, out)
        self.assertEqual(len(self.cmake_calls(seen)), 1, out)


class RealProgram(unittest.TestCase):
    """The README's own example on the real lesson 02 program, when the build has it."""

    def setUp(self):
        build = os.environ.get("COURSE_TEST_BUILD")
        if not build or not (Path(build) / "bin" / "lesson02").exists():
            self.skipTest("lesson 02's program is not built (COURSE_TEST_BUILD)")
        self.build = Path(build)

    def make(self, *words):
        env = {k: v for k, v in os.environ.items()
               if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "CMAKE_ARGS")}
        return subprocess.run(["make", "-C", str(REPO), "--no-print-directory", *words,
                               f"BUILD={self.build}"], env={**env, "NO_COLOR": "1"},
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=600)

    def test_help_lists_the_options(self):
        p = self.make("lesson-2", "ARGS=--help")
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("--width", p.stdout)

    def test_an_unknown_option_is_the_programs_error(self):
        p = self.make("lesson-2", "ARGS=--no-such-option=5")
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("unknown option --no-such-option", p.stdout)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--as-course":
        sys.exit(as_course(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "--as-cmake":
        sys.exit(as_cmake(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "--as-python":
        sys.exit(as_python(sys.argv[2:]))
    unittest.main()
