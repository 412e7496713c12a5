"""The course's helper for the Makefile: lessons, hints, grading, progress, watch, reset, checks.

Reads lessons/manifest.txt (the order of the lessons) and each lesson's record,
lessons/NN-slug/lesson.toml. Standard library only, Python 3.8 or newer. Every command that builds
and then runs builds first and runs nothing when the build fails (the compiler's first error,
exit 1). Grading reads only the report each grader writes (COURSE_REPORT), task by task.

  course.py list                      the lessons, in order
  course.py resolve N                 "01" for 1 or 01; the lesson list and exit 2 otherwise
  course.py hint N [--all] [--reset]  the next hint of lesson N's first task not passed yet
                                      (--all: every hint of every task)
  course.py grade [N] [--build DIR] [--solution] [--perf]
                                      builds, then the progress table (all lessons), or one lesson
                                      task by task with the first failure's diagnosis; --perf adds
                                      the performance verdict
  course.py run N [--solution] [--args='...']
                                      builds lesson N's program, then runs it
  course.py build [N] [--mine]        builds lesson N's reference program (and yours), or all
  course.py next                      the first lesson not passed yet: its chapter and exercise
  course.py watch [N] [--once] [--poll] [--build DIR] [--solution] [--perf]
                                      rebuild and grade on every save (N: only lesson N)
  course.py reset N [--force]         restore lesson N's exercise stub (asks first without --force)
  course.py check-stubs [--build DIR] every exercise stub fails its grader with NOT IMPLEMENTED
  course.py self-check [--build DIR]  on a GPU: every solution passes its grader, every untouched
                                      stub fails it with NOT IMPLEMENTED (exit 77 without a GPU)
  course.py test [--build DIR]        make test: builds everything, then CTest's tests (not the
                                      learner's graders); the summary and the next step last
  course.py cmake-records FILE        what the build needs of each lesson's record, as a CMake file
                                      (CMakeLists.txt runs it at configure time)
  course.py check-repo                the manifest and every record (keys, files, regions, test
                                      tags, parts, hints per task), folders, chapters, exercise
                                      == solution outside the fill-in regions, and every stub
                                      message naming its own file

The learner's state (lessons and tasks passed and when, hints seen per task) lives in
.course/progress.json at the top of the repository (ignored by git, kept by `make clean`); `reset`
keeps a copy of what it replaces under .course/backup/.

The package's parts: records (the manifest and the records, tomlsubset their TOML), progress,
hints, regions (the fill-in regions), building, report (the graders' reports), judge (parts,
tasks, verdicts: a Status), screens (how a verdict reads), commands (grade, run, next, build),
suite (make test), schema (a record's fields), measurements (the lesson programs' measurement lines), watch, reset, checks, cli.
"""

import argparse
import os
import sys
from pathlib import Path

from . import checks, commands, hints, records, reset, suite, watch


def parser():
    """The command line of course.py: its commands and their options."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    r = sub.add_parser("resolve")
    r.add_argument("lesson")
    h = sub.add_parser("hint")
    h.add_argument("lesson")
    h.add_argument("--build", default="build")
    h.add_argument("--reset", action="store_true", help="start over from hint 1")
    h.add_argument("--all", action="store_true", help="show every hint")
    jobs = os.cpu_count() or 2
    g = sub.add_parser("grade")
    g.add_argument("lesson", nargs="?")
    g.add_argument("--build", default="build")
    g.add_argument("--solution", action="store_true", help="grade the reference solutions")
    g.add_argument("--perf", action="store_true", help="the performance verdict against the target")
    g.add_argument("--no-build", action="store_true", help="grade what is built (for tests)")
    g.add_argument("--jobs", type=int, default=jobs)
    r = sub.add_parser("run")
    r.add_argument("lesson")
    r.add_argument("--build", default="build")
    r.add_argument("--solution", action="store_true", help="run the reference solution's program")
    # One word, `--args=...`, from the Makefile: a value that starts with a dash (ARGS=--help)
    # is then the value, not an option of its own.
    r.add_argument("--args", default="", help="the program's options, as one string (a shell "
                   "splits it: quotes group words)")
    r.add_argument("--jobs", type=int, default=jobs)
    b = sub.add_parser("build")
    b.add_argument("lesson", nargs="?")
    b.add_argument("--build", default="build")
    b.add_argument("--mine", action="store_true", help="your program too")
    b.add_argument("--jobs", type=int, default=jobs)
    sub.add_parser("next")
    w = sub.add_parser("watch")
    w.add_argument("lesson", nargs="?", help="only this lesson (default: the current one, then "
                   "whichever lesson's exercise is saved)")
    w.add_argument("--build", default="build")
    w.add_argument("--solution", action="store_true", help="build and grade the reference solution")
    w.add_argument("--perf", action="store_true", help="the performance verdict against the target")
    w.add_argument("--once", action="store_true", help="build and grade once, print the screen, exit "
                   "(0 passed or skipped, 1 otherwise)")
    w.add_argument("--poll", action="store_true", help="poll modification times, even with inotifywait")
    w.add_argument("--interval", type=float, default=1.0, help="seconds between polls")
    w.add_argument("--no-build", action="store_true", help="grade what is built (for tests)")
    w.add_argument("--rounds", type=int, default=0, help="stop after this many gradings (for tests)")
    w.add_argument("--jobs", type=int, default=jobs)
    rs = sub.add_parser("reset")
    rs.add_argument("lesson")
    rs.add_argument("--force", action="store_true", help="do not ask before discarding changes")
    s = sub.add_parser("check-stubs")
    s.add_argument("--build", default="build")
    s.add_argument("--no-build", action="store_true", help="check what is built")
    s.add_argument("--jobs", type=int, default=jobs)
    sc = sub.add_parser("self-check")
    sc.add_argument("--build", default="build")
    sc.add_argument("--no-build", action="store_true", help="check what is built")
    sc.add_argument("--probe", action="store_true",
                    help="only whether a GPU answers: exit 0, or 77 with the reason")
    sc.add_argument("--jobs", type=int, default=jobs)
    sub.add_parser("check-repo")
    cm = sub.add_parser("cmake-records")
    cm.add_argument("out", help="the CMake file to write")
    t = sub.add_parser("test")
    t.add_argument("--build", default="build")
    t.add_argument("--jobs", type=int, default=jobs)
    return ap


def main(argv=None):
    try:
        sys.stdout.reconfigure(errors="replace")
        sys.stderr.reconfigure(errors="replace")
    except AttributeError:
        pass
    args = parser().parse_args(argv)
    if hasattr(args, "build"):
        args.build = str(Path(args.build).resolve())
    if args.cmd == "check-repo":  # lists every problem of the records itself
        return checks.cmd_check_repo(args)
    try:
        if args.cmd == "list":
            print(records.lesson_table())
            return 0
        if args.cmd == "resolve":
            print(records.resolve(args.lesson).num)
            return 0
        if args.cmd == "cmake-records":
            records.cmake_records(args.out)
            return 0
        return {"hint": hints.cmd_hint, "grade": commands.cmd_grade, "run": commands.cmd_run,
                "build": commands.cmd_build, "next": commands.cmd_next, "watch": watch.cmd_watch,
                "reset": reset.cmd_reset, "check-stubs": checks.cmd_check_stubs,
                "self-check": checks.cmd_self_check, "test": suite.cmd_test}[args.cmd](args)
    except records.RecordError as e:
        print(f"the course's lesson records cannot be used: {e}\n(make check-repo lists every "
              f"problem; lessons/manifest.txt describes the records)", file=sys.stderr)
        return 2


def entry():
    """The command line's entry point: main(), quiet when the reader of the output leaves."""
    try:
        sys.exit(main())
    except BrokenPipeError:  # `make help | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
