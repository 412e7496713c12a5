#!/usr/bin/env python3
"""The course's helper for the Makefile: lessons, hints, grading, progress, watch, reset, checks.

The code is the package beside this file, common/tools/course/ (its cli.py lists the commands);
this file is its entry point: `python3 common/tools/course.py grade 3`. (Python finds the package
folder before this file when it imports `course`.)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from course.cli import entry  # noqa: E402

if __name__ == "__main__":
    entry()
