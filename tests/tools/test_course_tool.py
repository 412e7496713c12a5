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

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The tests live beside this file, one file per part of the tools; this runs them all.
from test_grading import *  # noqa: E402,F401,F403
from test_measurements import *  # noqa: E402,F401,F403
from test_records import *  # noqa: E402,F401,F403
from test_watch import *  # noqa: E402,F401,F403

if __name__ == "__main__":
    unittest.main()
