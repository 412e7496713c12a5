"""The course's tools behind the Makefile (`python3 common/tools/course.py ...`): the lessons and
their records, progress, hints, grading task by task from the graders' reports, watch, reset and
the course's own checks. Standard library only, Python 3.8 or newer. cli.py describes the commands;
each script imports the part it uses (course.records for the lessons, course.measurements for the
lesson programs' measurement lines)."""
