"""What a lesson's reference program printed on a GPU, kept as a line of book/data/<gpu>.jsonl:
the transcript its chapter shows under "What it printed" (book/readme.py writes it there, between
the chapter's `printed-NN` lines).

A line (measurements.py checks it):

    {"schema": "course.measurement/2", "lesson": "09", "what": "printed",
     "command": "make lesson-9 SOLUTION=1", "text": "bank conflicts of one stage ...",
     "gpu": "NVIDIA H200", "date": "2026-11-27", "driver": "580.159.04", "cuda": "13.0",
     "build": "solution"}

"text" is what the program printed when run as `make lesson-N SOLUTION=1` runs it (the reference
solution's program, no options, from the build folder), its output and its errors together as a
terminal shows them. Two things are taken out so that the text reads the same whoever ran it: the
line `== lessonNN_solution` that make prints before the program, and the course's own folder in
the paths the program names ("picture: build/dispatch-grid.svg", not
"picture: /home/you/course/build/dispatch-grid.svg"). "driver" and "cuda" are what nvidia-smi and
nvcc said, "date" the day it ran.

`make bench` records one for each lesson it runs, and for lessons 01 and 02 (bench.py: line() on
the output of run()); record() keeps an output captured before, from a file, the same way.
"""

from pathlib import Path

from . import datafile, measurements
from .util import ROOT, run as run_command

WHAT = measurements.PRINTED
# The longest a lesson program's plain run may take (lesson 03's naive kernel at 4096^3, checked
# and timed beside cuBLAS, takes well under a minute).
TIMEOUT_S = 900


class PrintedError(ValueError):
    """An output that is not the plain run of a lesson's reference program."""


def num_of(lesson):
    """"09" of 9, "9" or "09"."""
    return str(lesson).zfill(2)


def command(lesson):
    """The command whose output a line holds: "make lesson-9 SOLUTION=1"."""
    return f"make lesson-{int(num_of(lesson))} SOLUTION=1"


def program(lesson):
    """The reference program's name in the build's bin/ folder: "lesson09_solution"."""
    return f"lesson{num_of(lesson)}_solution"


def program_text(output, lesson, root=ROOT):
    """The program's own output in `output` (what `make lesson-N SOLUTION=1` showed, or what the
    program printed): after make's line `== lessonNN_solution` when there is one, with `root`, the
    course's folder where it ran, taken out of the paths, and no blank lines around it. PrintedError
    when make's line shows options (a run with ARGS is not the plain run) or nothing is left."""
    lines = output.replace("\r\n", "\n").split("\n")
    head = f"== {program(lesson)}"
    for i, line in enumerate(lines):
        if line.startswith(head + " "):
            raise PrintedError(f"lesson {num_of(lesson)}'s output is of a run with options "
                               f"({line.strip()!r}): the chapters show `{command(lesson)}` alone")
        if line.rstrip() == head:
            lines = lines[i + 1:]
            break
    text = "\n".join(lines)
    folder = str(root).rstrip("/") + "/"
    text = text.replace(folder, "").strip("\n").rstrip()
    if not text.strip():
        raise PrintedError(f"lesson {num_of(lesson)}'s output is empty")
    return text


def line(lesson, output, gpu, date, driver, cuda, root=ROOT):
    """The line that records `output`, what lesson `lesson`'s reference program printed on `gpu`
    (program_text() of it), checked as measurements.py checks every line."""
    return measurements.check({
        "schema": measurements.SCHEMA, "lesson": num_of(lesson), "what": WHAT,
        "command": command(lesson), "text": program_text(output, lesson, root), "gpu": gpu,
        "date": date, "driver": driver, "cuda": cuda, "build": "solution"})


def run(build, lesson, timeout=TIMEOUT_S):
    """(exit code, output) of lesson `lesson`'s reference program in the build folder `build`, run
    as `make lesson-N SOLUTION=1` runs it: no options, from the build folder, its output and its
    errors together."""
    build = Path(build).resolve()
    return run_command([str(build / "bin" / program(lesson))], timeout=timeout, cwd=build)


def replaced_by(lessons):
    """The test datafile.update() takes: a transcript of one of `lessons` is replaced, every other
    line kept."""
    nums = {num_of(l) for l in lessons}
    return lambda old: measurements.is_printed(old) and num_of(old.get("lesson", "")) in nums


def record(directory, lesson, output, gpu, date, driver, cuda, root=ROOT):
    """Records an output captured before (what `make lesson-N SOLUTION=1` showed on `gpu`, say from
    a file) in the data file of `gpu` in `directory` (book/data/): it replaces that lesson's
    transcript there and keeps every other line. The file's path."""
    new = line(lesson, output, gpu, date, driver, cuda, root)
    return datafile.update(datafile.path_of(directory, gpu), [new], replaced_by([lesson]))
